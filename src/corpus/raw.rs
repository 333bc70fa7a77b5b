//! The YAML file formats of the corpus, exactly as people write them.
//!
//! These serde types are the *published* formats: `ludotrace schema` emits their JSON Schemas
//! (doc comments become descriptions), and editors can validate the YAML against them while it
//! is typed. They accept what a file says and nothing more (`deny_unknown_fields` everywhere),
//! keep the line and column of every id and quote (`Spanned`) so that the validator can point
//! at it, and never leave the `corpus` module: everything downstream sees the validated types
//! of [`crate::corpus`].

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

pub use super::model::{CslDate, CslName, Impact, PointStatus, RemarkKind, SourceKind};

/// A value with the line and column it was read from.
pub type Sp<T> = Spanned<T>;

/// The parameter assignments of a clause, an option or an interpretation: parameter name to
/// value. Names and value types come from the game's family (see `ludotrace schema`).
pub type Sets = IndexMap<Sp<String>, Sp<serde_json::Value>>;

/// One file of `sources/`: a work (Davies 1925, Lane 1836), the DLP evidence records, or the
/// Ludii encodings cited as artefacts.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceFile {
    /// Format version; must be 1.
    #[schemars(with = "u32")]
    pub schema_version: Sp<u32>,
    /// Short id of the file, used before `#` in citations (`davies-1925#um-el-bagara`).
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// What the file holds.
    pub kind: SourceKind,
    /// A one-line description of the file.
    pub title: String,
    /// Bibliographic data in CSL-JSON field names (works only).
    #[serde(default)]
    pub csl: Option<Csl>,
    /// The witness documents (kept in `sources/witnesses/`) that this file's texts were read from.
    #[serde(default)]
    pub witnesses: Vec<Witness>,
    /// Verbatim passages of the work, one per game described.
    #[serde(default)]
    pub passages: Vec<Passage>,
    /// DLP evidence records (kind `evidence`).
    #[serde(default)]
    pub evidence: Vec<Evidence>,
    /// Encodings of the games in a game system, cited as artefacts (kind `encodings`).
    #[serde(default)]
    pub encodings: Vec<Encoding>,
}

/// A work's bibliographic data, in CSL-JSON field names (CSL 1.0.2). The loader checks the
/// type against the specification's item types, the pages and the numbers, and keeps where
/// each was written so that a problem is shown at its place.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Csl {
    /// CSL item type, one of the CSL 1.0.2 item types (`article-journal`, `book`, `chapter`,
    /// `webpage`, `software`, ...).
    #[serde(rename = "type")]
    #[schemars(with = "String")]
    pub item_type: Sp<String>,
    /// Authors, each a person's family and given names.
    #[serde(default)]
    pub author: Vec<CslName>,
    /// Title of the work.
    pub title: String,
    /// A short title, by which a work without an author is cited in the text.
    #[serde(rename = "title-short", default)]
    pub title_short: Option<String>,
    /// Journal or series title.
    #[serde(rename = "container-title", default)]
    pub container_title: Option<String>,
    /// Volume: a number (`8`) or a roman numeral (`VIII`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub volume: Option<Sp<String>>,
    /// Issue within the volume: a number (`2`) or a roman numeral.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub issue: Option<Sp<String>>,
    /// Date of issue.
    pub issued: CslDate,
    /// The work's page (`138`) or page range (`137–152`, en dash or hyphen).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub page: Option<Sp<String>>,
    /// Publisher.
    #[serde(default)]
    pub publisher: Option<String>,
    /// Place of publication.
    #[serde(rename = "publisher-place", default)]
    pub publisher_place: Option<String>,
    /// Web address.
    #[serde(rename = "URL", default)]
    pub url: Option<String>,
    /// When the web address was read.
    #[serde(default)]
    pub accessed: Option<CslDate>,
    /// How many volumes the work has (a number).
    #[serde(rename = "number-of-volumes", default)]
    #[schemars(with = "Option<String>")]
    pub number_of_volumes: Option<Sp<String>>,
    /// A free note (for example the author's full name).
    #[serde(default)]
    pub note: Option<String>,
}

/// A witness: a document, kept in the repository, from which a text was read.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Witness {
    /// Corpus-wide unique id of the witness.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// What the document is.
    pub title: String,
    /// Path of the document relative to `sources/` (e.g. `witnesses/waterloo-um-el-banat.txt`).
    #[schemars(with = "String")]
    pub file: Sp<String>,
    /// Where the document came from and when it was taken.
    pub origin: String,
    /// Where it can be read, if it is on the web.
    #[serde(default)]
    pub url: Option<String>,
    /// When it was read there (`YYYY-MM-DD`): a web page can change.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub accessed: Option<Sp<String>>,
}

/// A verbatim passage of a work: one game's description.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Passage {
    /// Id within the work (`um-el-bagara`); cited as `<work>#<id>`.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// The game (ruleset id) the passage describes.
    #[schemars(with = "String")]
    pub game: Sp<String>,
    /// Heading of the passage as the work gives it.
    pub heading: String,
    /// The page (`346`) or page range (`143–144`, en dash or hyphen) of the passage in the work.
    #[schemars(with = "String")]
    pub page: Sp<String>,
    /// The texts of the passage, one per witness; where witnesses differ, each is kept.
    pub readings: Vec<Reading>,
}

/// The text of a passage as one witness gives it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    /// Witness id.
    #[schemars(with = "String")]
    pub witness: Sp<String>,
    /// The text in order, as segments; page breaks, figure captions and elisions are structure
    /// between segments, never part of their text.
    pub segments: Vec<Segment>,
}

/// A run of verbatim text.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Segment {
    /// The page on which this segment begins, where the witness marks a page break before it.
    #[serde(default)]
    pub page: Option<u32>,
    /// A figure caption that the witness places before this segment (`Figure 9`).
    #[serde(default)]
    pub figure: Option<String>,
    /// The witness omits text before this segment (an elision `...`); no quote may span it.
    #[serde(default)]
    pub after_elision: bool,
    /// The verbatim text, typos included.
    #[schemars(with = "String")]
    pub text: Sp<String>,
}

/// A DLP evidence record, every field kept.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// `DLP.Evidence.703`.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// Record type (`Ethnography`).
    #[serde(rename = "type")]
    pub record_type: String,
    /// The game name as the record spells it.
    pub game_name: String,
    /// The ruleset id of the game.
    #[schemars(with = "String")]
    pub game: Sp<String>,
    /// Location field, where the record has one.
    #[serde(default)]
    pub location: Option<String>,
    /// Date field, verbatim (`1925-01-01 - 1925-12-31`).
    pub date: String,
    /// Confidence field (0–100).
    pub confidence: u32,
    /// Ages field, where present.
    #[serde(default)]
    pub ages: Option<String>,
    /// Source field, verbatim.
    pub source: String,
    /// The DLP rules paraphrase, verbatim: itself a reading, quotable as `DLP.Evidence.N`.
    #[schemars(with = "String")]
    pub rules: Sp<String>,
    /// The quotation the record's Content field holds.
    pub content: EvidenceContent,
    /// Witness documents in which the record appears.
    #[schemars(with = "Vec<String>")]
    pub witnesses: Vec<Sp<String>>,
}

/// Where an evidence record's quotation is kept as a passage reading.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceContent {
    /// The passage quoted (`davies-1925#um-el-banat`).
    #[schemars(with = "String")]
    pub passage: Sp<String>,
    /// The witness id under which the quotation is kept in that passage's readings.
    #[schemars(with = "String")]
    pub witness: Sp<String>,
    /// The citation that closes the quotation, verbatim (`Davies 1925:143-144.`).
    pub citation: String,
}

/// A game system's encoding of a game, cited as an artefact.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Encoding {
    /// `<system>-<version>#<game>` (`ludii-1.3.10#um-el-tuweisat`).
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// Ruleset id of the game.
    #[schemars(with = "String")]
    pub game: Sp<String>,
    /// Game system (`Ludii`).
    pub system: String,
    /// Version string of the encoding (`1.3.10`).
    pub version: String,
    /// Repository the file is in.
    pub repository: String,
    /// Path of the file in the repository.
    pub path: String,
    /// Commit the file was read at.
    pub commit: String,
    /// The system's id for the game, where it has one.
    #[serde(default)]
    pub system_id: Option<String>,
    /// Whom the file's `(credit ...)` metadata names, as a person's name (`family: Piette`,
    /// `given: Eric`).
    #[serde(default)]
    pub credit: Option<CslName>,
    /// The encoding's own `(source ...)` field.
    #[serde(default)]
    pub cites: Option<String>,
    /// Options or rulesets of the file that this artefact stands for.
    #[serde(default)]
    pub ruleset: Option<String>,
    /// Notes on provenance and how sure the reading is.
    #[serde(default)]
    pub note: Option<String>,
    /// Texts of the encoding's metadata (description, rules) where a witness quotes them.
    #[serde(default)]
    pub texts: Vec<EncodingText>,
}

/// A metadata text of an encoding, as a witness quotes it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EncodingText {
    /// Which field (`description`, `rules`).
    pub field: String,
    /// The witness quoting it.
    #[schemars(with = "String")]
    pub witness: Sp<String>,
    /// The verbatim text.
    #[schemars(with = "String")]
    pub text: Sp<String>,
}

/// One file of `rulesets/`: a game as clauses, choices and interpretations.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetFile {
    /// Format version; must be 1.
    #[schemars(with = "u32")]
    pub schema_version: Sp<u32>,
    /// Game id (`um-el-bagara`); the file name must be `<id>.yaml`.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// Name of the game.
    pub name: String,
    /// Other names.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Who played it, as the source says.
    pub people: String,
    /// Year of observation.
    pub observed: i32,
    /// Engine family that plays it.
    pub family: crate::family::Family,
    /// Anchors of the sources the ruleset rests on.
    #[schemars(with = "Vec<String>")]
    pub sources: Vec<Sp<String>>,
    /// The reading, clause by clause; every clause applies to every interpretation.
    pub rules: Vec<Clause>,
    /// The open points: each a question with options.
    #[serde(default)]
    pub choices: Vec<Choice>,
    /// The register readings of the points addressed here that no option or clause offers,
    /// each with the reason.
    #[serde(default)]
    pub declined: Vec<Declined>,
    /// Interpretations: a choice of option for each open point, plus parameter settings.
    pub interpretations: Vec<Interpretation>,
    /// What the sources say about the game beyond its rules (who plays it, the skill it asks
    /// for, its materials, its names), each quoted like a clause. It sets nothing.
    #[serde(default)]
    pub remarks: Vec<Remark>,
}

/// A rule clause.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Clause {
    /// Id, unique in the ruleset.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// The rule in plain words.
    pub says: String,
    /// The exact words it rests on.
    #[serde(default)]
    pub cites: Vec<Cite>,
    /// Who interpolated it, where no quote carries it (anchors, or `reading: ...`).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub by: Vec<Sp<String>>,
    /// Rule parameters the clause fixes for every interpretation.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, serde_json::Value>")]
    pub sets: Sets,
    /// Choices the clause leaves open.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub open: Vec<Sp<String>>,
    /// Ids of the points of the register (`rulesets/register/`) that the clause settles or
    /// takes a reading of (`BG-02`).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub addresses: Vec<Sp<String>>,
    /// The register readings the clause takes, for every interpretation (`BG-02a`); each must
    /// belong to a point the clause addresses.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub register: Vec<Sp<String>>,
}

/// What a source says about the game beyond its rules.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Remark {
    /// Id, unique among the ruleset's remarks.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// What it is about.
    #[schemars(with = "RemarkKind")]
    pub kind: Sp<String>,
    /// What the quoted words say, in one line of the editors' own.
    pub says: String,
    /// The exact words it rests on (at least one; checked like a clause's).
    #[serde(default)]
    pub cites: Vec<Cite>,
}

/// A citation: a quote from an anchor.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cite {
    /// Anchor: a passage (`davies-1925#um-el-bagara`), an evidence record's paraphrase
    /// (`DLP.Evidence.694`) or an encoding (`ludii-1.3.11#um-el-bagara`).
    #[schemars(with = "String")]
    pub at: Sp<String>,
    /// Words that occur verbatim in the anchor's text (after NFC and whitespace folding;
    /// straight and curly quotes are equal).
    #[schemars(with = "String")]
    pub quote: Sp<String>,
    /// Restrict the check to one witness of the passage.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub witness: Option<Sp<String>>,
    /// The quote is the one word or name an item is about (a game's name, a piece's), not
    /// words that say what it says: it may be shorter than three words, and it grounds
    /// nothing.
    #[serde(default)]
    pub term: bool,
    /// The quote defers to another description ("in the same manner as before described"):
    /// a passage of the corpus (`davies-1925#um-el-banat`), a game of the corpus
    /// (`um-el-banat`), or `outside: <what>` for one the corpus does not hold. A deferral
    /// grounds nothing itself: the words of the passage it defers to ground what they state,
    /// when the item quotes them too.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub defers: Option<Sp<String>>,
}

/// An open point.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// Id, unique in the ruleset.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// The question the sources leave open.
    pub question: String,
    /// The quotes the question arises from.
    #[serde(default)]
    pub cites: Vec<Cite>,
    /// Ids of the points of the register (`rulesets/register/`) it addresses (`BG-04`).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub addresses: Vec<Sp<String>>,
    /// The readings on offer.
    pub options: Vec<ChoiceOption>,
}

/// One reading of an open point.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    /// Id, unique in the choice.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// The reading in plain words.
    pub says: String,
    /// Who proposes it: anchors, or `reading: <who and why>`.
    #[schemars(with = "Vec<String>")]
    pub by: Vec<Sp<String>>,
    /// Quotes supporting it.
    #[serde(default)]
    pub cites: Vec<Cite>,
    /// The parameters it sets.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, serde_json::Value>")]
    pub sets: Sets,
    /// The register readings this option is (`BG-04b`); each must belong to a point its
    /// choice addresses.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub register: Vec<Sp<String>>,
    /// Set when the option is an engine's own behaviour, not any source's words (a forced
    /// pass, a turn cap, a defect as traced): the engine, in words (`Ludii 1.0.8, as
    /// traced`). Such an option may cite or be proposed by encodings only.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub engine: Option<Sp<String>>,
    /// Former ids of options merged into this one (they set the same parameters): still
    /// accepted by `--choose`, with a note.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub aliases: Vec<Sp<String>>,
}

/// A register reading that no option or clause offers, and why.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Declined {
    /// The register reading (`UB-18a`).
    #[schemars(with = "String")]
    pub reading: Sp<String>,
    /// Why no option offers it.
    pub why: String,
}

/// An interpretation: one complete reading of the game.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Interpretation {
    /// Id, unique in the ruleset (`davies`, `dlp`, `ludii`, `ludii-1.0.8`).
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// One-line title.
    pub title: String,
    /// What the reading is and where it comes from.
    #[serde(default)]
    pub about: Option<String>,
    /// Choice id to option id.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub choose: IndexMap<Sp<String>, Sp<String>>,
    /// Parameters the interpretation sets itself (engine behaviour, or a rule parameter that no
    /// clause or option sets; then `by` is required).
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, serde_json::Value>")]
    pub sets: Sets,
    /// Who the interpretation follows.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub by: Vec<Sp<String>>,
    /// The sources the reading reads: work ids, passage anchors, evidence records or
    /// encodings. A clause or chosen option that quotes them is *grounded* for this reading;
    /// one that quotes only other sources is *borrowed*; one without quotes is
    /// *interpolated*. Inherited through `extends` unless given.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub basis: Option<Vec<Sp<String>>>,
    /// Another interpretation of the same game that this one starts from: its choices and
    /// settings apply unless this one chooses or sets the same thing.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub extends: Option<Sp<String>>,
    /// Where the reading takes an option other than one its basis grounds, choice → why. A
    /// reading that reads a source takes the option that source's words ground wherever one
    /// is offered, or says here why not. Inherited through `extends`.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub departs: IndexMap<Sp<String>, String>,
}

/// One file of `rulesets/register/`: the register of open points of one game (or, with no
/// `game`, the points shared by several games).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterFile {
    /// Format version; must be 1.
    #[schemars(with = "u32")]
    pub schema_version: Sp<u32>,
    /// The game (ruleset id) whose points these are; the file name must be `<game>.yaml`.
    /// Without it the file is `general.yaml`: points shared by several games.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub game: Option<Sp<String>>,
    /// The points.
    pub points: Vec<Point>,
}

/// A point of the register.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Id: `UB-07` (open), `UB-S01` (settled), `UB-D01` (departed), `ENC-2.3` (an encoding's
    /// note), `G-4`, `LX-1`.
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// How it stands.
    pub status: PointStatus,
    /// A short title.
    pub title: String,
    /// Expected effect of the readings on outcomes and length (open and encoding points).
    #[serde(default)]
    pub impact: Option<Impact>,
    /// Why that impact, in a sentence.
    #[serde(default)]
    pub impact_note: Option<String>,
    /// The point in the corpus' own words.
    pub says: String,
    /// The source words it turns on (checked like clause quotes).
    #[serde(default)]
    pub cites: Vec<Cite>,
    /// Related points.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub see: Vec<Sp<String>>,
    /// For an encoding's note that is one of the register's points: that point, whose
    /// readings stand for it.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub same_as: Option<Sp<String>>,
    /// The readings, (a), (b), (c) …
    #[serde(default)]
    pub readings: Vec<PointReading>,
}

/// One reading of a point.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PointReading {
    /// A letter: `a`, `b` …; the reading's id is the point's id followed by it (`UB-07a`).
    #[schemars(with = "String")]
    pub id: Sp<String>,
    /// The reading in plain words.
    pub says: String,
    /// Who proposes it: anchors, or `reading: <who, and why>`; none when only the register
    /// does.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub by: Vec<Sp<String>>,
}
