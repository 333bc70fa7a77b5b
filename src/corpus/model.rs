//! The validated corpus: what the rest of ludotrace sees.
//!
//! Every value here has passed the loader's checks: ids are unique, references resolve,
//! quotes occur in their passages, and each interpretation sets every rule parameter of its
//! family exactly once. The types are `#[non_exhaustive]`, so only the loader builds them.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use super::csl::{CSL_TYPES, CslDate, CslItem, CslName};
use super::files::Origin;
use crate::family::{Family, ParamKind};

/// The seven games of the corpus, in the order of Davies' article then Lane: the ids that
/// outside checks rely on. Passages, evidence and encodings must name one of these.
pub const GAME_IDS: &[&str] = &[
    "seega",
    "um-el-bagara",
    "um-el-tuweisat",
    "um-el-banat",
    "lib-el-merafib",
    "sijat-el-taba",
    "lib-al-aqil",
];

/// The whole validated corpus.
#[derive(Debug)]
#[non_exhaustive]
pub struct Corpus {
    /// Where it was read from.
    pub origin: Origin,
    /// One entry per file of `sources/`.
    pub works: Vec<Work>,
    /// Witness documents by id.
    pub witnesses: IndexMap<String, WitnessDoc>,
    /// Passages by anchor (`davies-1925#um-el-bagara`).
    pub passages: IndexMap<String, Passage>,
    /// DLP evidence records by id.
    pub evidence: IndexMap<String, Evidence>,
    /// Encodings by id (`ludii-1.0.8#um-el-bagara`).
    pub encodings: IndexMap<String, Encoding>,
    /// Rulesets, in the order of [`GAME_IDS`].
    pub games: Vec<Game>,
    /// The register of open points, by id, in file order (general points first).
    pub points: IndexMap<String, Point>,
}

/// A point of the register: something the sources leave open, settle, or an encoding
/// decides.
#[derive(Debug)]
#[non_exhaustive]
pub struct Point {
    /// Id (`UB-07`, `UB-S01`, `ENC-2.3`, `G-4`).
    pub id: String,
    /// The game it belongs to; `None` for points shared by several games.
    pub game: Option<String>,
    /// How it stands.
    pub status: PointStatus,
    /// Short title.
    pub title: String,
    /// Expected effect of its readings.
    pub impact: Option<Impact>,
    /// Why that impact.
    pub impact_note: Option<String>,
    /// The point in the corpus' words.
    pub says: String,
    /// The source words it turns on.
    pub cites: Vec<Cite>,
    /// Related points.
    pub see: Vec<String>,
    /// The register point this encoding note is.
    pub same_as: Option<String>,
    /// Readings.
    pub readings: Vec<PointReading>,
    /// Path relative to the corpus root.
    pub file: String,
}

/// One reading of a point.
#[derive(Debug)]
#[non_exhaustive]
pub struct PointReading {
    /// Full id (`UB-07a`).
    pub id: String,
    /// In words.
    pub says: String,
    /// Who proposes it; empty when only the register does.
    pub by: Vec<String>,
}

impl Point {
    /// The readings that stand for this point: its own, or those of the point it is the
    /// same as.
    pub fn effective_readings<'c>(&'c self, corpus: &'c Corpus) -> &'c [PointReading] {
        match &self.same_as {
            Some(other) if self.readings.is_empty() => corpus
                .points
                .get(other)
                .map_or(&self.readings[..], |p| &p.readings[..]),
            _ => &self.readings,
        }
    }
}

/// A source file: a work, the evidence records, or the encodings.
#[derive(Debug)]
#[non_exhaustive]
pub struct Work {
    /// File id.
    pub id: String,
    /// What it holds.
    pub kind: SourceKind,
    /// One-line description.
    pub title: String,
    /// Bibliographic data.
    pub csl: Option<CslItem>,
    /// Path relative to the corpus root.
    pub file: String,
}

/// A witness document.
#[derive(Debug)]
#[non_exhaustive]
pub struct WitnessDoc {
    /// Id.
    pub id: String,
    /// What it is.
    pub title: String,
    /// Path relative to the corpus root.
    pub file: String,
    /// Where it came from.
    pub origin: String,
    /// Where it can be read, if it is on the web.
    pub url: Option<String>,
    /// When it was read there (`YYYY-MM-DD`).
    pub accessed: Option<String>,
}

/// A passage with its readings.
#[derive(Debug)]
#[non_exhaustive]
pub struct Passage {
    /// `work#id`.
    pub anchor: String,
    /// Work id.
    pub work: String,
    /// Game id.
    pub game: String,
    /// Heading as the work gives it.
    pub heading: String,
    /// Page range.
    pub page: String,
    /// One per witness.
    pub readings: Vec<Reading>,
}

/// One witness's text of a passage.
#[derive(Debug)]
#[non_exhaustive]
pub struct Reading {
    /// Witness id.
    pub witness: String,
    /// Segments in order.
    pub segments: Vec<Segment>,
}

/// A run of verbatim text with the structure before it.
#[derive(Debug)]
#[non_exhaustive]
pub struct Segment {
    /// Page break before it.
    pub page: Option<u32>,
    /// Figure caption before it.
    pub figure: Option<String>,
    /// Elision before it.
    pub after_elision: bool,
    /// The text.
    pub text: String,
}

impl Reading {
    /// The text as continuous runs: segments joined by a space, split at elisions. A quote
    /// must fall inside one run.
    pub fn runs(&self) -> Vec<String> {
        let mut runs: Vec<String> = Vec::new();
        for (i, seg) in self.segments.iter().enumerate() {
            if i == 0 || seg.after_elision {
                runs.push(seg.text.clone());
            } else if let Some(last) = runs.last_mut() {
                last.push(' ');
                last.push_str(&seg.text);
            }
        }
        runs
    }

    /// The plain text, elisions shown as `…`, without page or figure markers.
    pub fn plain_text(&self) -> String {
        self.runs().join(" … ")
    }
}

/// A DLP evidence record.
#[derive(Debug)]
#[non_exhaustive]
pub struct Evidence {
    /// `DLP.Evidence.N`.
    pub id: String,
    /// Type field.
    pub record_type: String,
    /// Game name as spelled in the record.
    pub game_name: String,
    /// Game id.
    pub game: String,
    /// Location field.
    pub location: Option<String>,
    /// Date field.
    pub date: String,
    /// Confidence field.
    pub confidence: u32,
    /// Ages field.
    pub ages: Option<String>,
    /// Source field.
    pub source: String,
    /// The rules paraphrase.
    pub rules: String,
    /// The passage its Content quotes.
    pub content_passage: String,
    /// The witness under which that quotation is kept.
    pub content_witness: String,
    /// The citation closing the quotation.
    pub content_citation: String,
    /// Witness documents showing the record.
    pub witnesses: Vec<String>,
}

/// An encoding cited as an artefact.
#[derive(Debug)]
#[non_exhaustive]
pub struct Encoding {
    /// Id.
    pub id: String,
    /// Game id.
    pub game: String,
    /// System name.
    pub system: String,
    /// Version.
    pub version: String,
    /// Repository.
    pub repository: String,
    /// Path in it.
    pub path: String,
    /// Commit.
    pub commit: String,
    /// The system's own id.
    pub system_id: Option<String>,
    /// Who the file credits as its author, as a name.
    pub credit: Option<CslName>,
    /// The encoding's source field.
    pub cites: Option<String>,
    /// Ruleset or option.
    pub ruleset: Option<String>,
    /// Notes.
    pub note: Option<String>,
    /// Quoted metadata texts: (field, witness, text).
    pub texts: Vec<(String, String, String)>,
}

/// A ruleset.
#[derive(Debug)]
#[non_exhaustive]
pub struct Game {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Other names.
    pub aliases: Vec<String>,
    /// Who played it.
    pub people: String,
    /// Year observed.
    pub observed: i32,
    /// Engine family.
    pub family: Family,
    /// Source anchors.
    pub sources: Vec<String>,
    /// Path relative to the corpus root.
    pub file: String,
    /// Clauses.
    pub clauses: Vec<Clause>,
    /// Open points.
    pub choices: Vec<Choice>,
    /// Interpretations.
    pub interpretations: Vec<Interpretation>,
    /// Register readings no option or clause offers, with the reason.
    pub declined: Vec<Declined>,
    /// What the sources say about the game beyond its rules, in file order.
    pub remarks: Vec<Remark>,
}

/// What a source says about a game beyond its rules: who plays it, the skill it asks for,
/// its materials, its names. Quoted and checked like a clause, but it sets nothing and no
/// reading takes it: it has no class.
#[derive(Debug)]
#[non_exhaustive]
pub struct Remark {
    /// Id, unique among the game's remarks.
    pub id: String,
    /// What it is about.
    pub kind: RemarkKind,
    /// The editors' one-line summary of what the quoted words say.
    pub says: String,
    /// The words it rests on.
    pub cites: Vec<Cite>,
}

/// What a remark is about: a closed set, so that remarks of one kind can be found across the
/// games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RemarkKind {
    /// Who plays the game, and where.
    WhoPlays,
    /// The skill it asks for, and who has it.
    Skill,
    /// What play turns on, and how players choose their moves.
    Strategy,
    /// What the board, the pieces, the dice and the tallies are made of.
    Materials,
    /// What is done and said around a game (the loser mocked).
    Customs,
    /// Other ways of playing it: variants, versions, the game it is a manner of.
    OtherWays,
    /// The names of the game, and of its pieces, places, throws and moves.
    Naming,
    /// How a game goes: its length, its swings of fortune, how it compares with other games.
    Character,
}

impl RemarkKind {
    /// Every kind, in the order the schema and the loader's messages list them.
    pub const ALL: [RemarkKind; 8] = [
        RemarkKind::WhoPlays,
        RemarkKind::Skill,
        RemarkKind::Strategy,
        RemarkKind::Materials,
        RemarkKind::Customs,
        RemarkKind::OtherWays,
        RemarkKind::Naming,
        RemarkKind::Character,
    ];

    /// Its name, as the corpus files write it.
    pub fn as_str(self) -> &'static str {
        match self {
            RemarkKind::WhoPlays => "who-plays",
            RemarkKind::Skill => "skill",
            RemarkKind::Strategy => "strategy",
            RemarkKind::Materials => "materials",
            RemarkKind::Customs => "customs",
            RemarkKind::OtherWays => "other-ways",
            RemarkKind::Naming => "naming",
            RemarkKind::Character => "character",
        }
    }

    /// The kind a corpus file names, if it is one.
    pub fn parse(name: &str) -> Option<RemarkKind> {
        RemarkKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// A register reading a ruleset does not offer.
#[derive(Debug)]
#[non_exhaustive]
pub struct Declined {
    /// The reading (`UB-18a`).
    pub reading: String,
    /// Why.
    pub why: String,
}

impl Game {
    /// The parameters that switching `choice` to `option` in `reading` sets: the option's,
    /// and for each engine parameter that the reading's own option of that choice set and the
    /// new one does not, the family's default, so that nothing of the option switched out
    /// stays behind (Seega's `stall = none` switched into `ludii` drops the cap that
    /// `engine-limit` brought).
    pub fn switch_sets(
        &self,
        reading: &Interpretation,
        choice: &Choice,
        option: &ChoiceOption,
    ) -> Vec<(String, Value)> {
        let defaults = self.family.engine_defaults();
        let mut out = option.sets.clone();
        for p in &reading.params {
            let from_choice =
                matches!(&p.origin, ParamOrigin::Option { choice: c, .. } if *c == choice.id);
            if from_choice
                && !option.sets.iter().any(|(k, _)| *k == p.name)
                && let Some(d) = defaults.get(&p.name)
            {
                out.push((p.name.clone(), d.clone()));
            }
        }
        out
    }

    /// An interpretation by id.
    pub fn interpretation(&self, id: &str) -> Option<&Interpretation> {
        self.interpretations.iter().find(|i| i.id == id)
    }

    /// An interpretation as a person types it: its id, in any case. Reading ids are short
    /// and several extend one another (`ludii`, `ludii-1.0.8`, `ludii-1.0.8-sebawee`), so a
    /// prefix is not accepted: it would silently pick the shortest.
    pub fn find_interpretation(&self, query: &str) -> Lookup<'_, Interpretation> {
        let q = query.trim().to_lowercase();
        match self
            .interpretations
            .iter()
            .find(|i| i.id.to_lowercase() == q)
        {
            Some(i) => Lookup::Found(i),
            None => Lookup::NotFound {
                suggestions: closest(&q, &self.interpretations, |i| vec![i.id.to_lowercase()]),
            },
        }
    }

    /// The id, the name and the other names, as the corpus gives them.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        [self.id.as_str(), self.name.as_str()]
            .into_iter()
            .chain(self.aliases.iter().map(String::as_str))
    }

    /// A choice by id.
    pub fn choice(&self, id: &str) -> Option<&Choice> {
        self.choices.iter().find(|c| c.id == id)
    }
}

/// A checked quote.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Cite {
    /// Anchor.
    pub at: String,
    /// The quote as written.
    pub quote: String,
    /// The witness it was restricted to.
    pub witness: Option<String>,
    /// What the quote can carry (computed by the loader from its marks and its overlap with
    /// the question's words).
    pub role: QuoteRole,
}

impl Cite {
    /// Whether the quote's words can ground or lend what the item says.
    pub fn says(&self) -> bool {
        self.role == QuoteRole::Words
    }
}

/// What a quote can carry. Only [`QuoteRole::Words`] grounds (or lends) anything: the
/// others are shown beside the item, with what they are, and carry no class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuoteRole {
    /// Words that say what the item says.
    Words,
    /// The one word or name an item is about (`term: true`).
    Term,
    /// A deferral to another description: a passage or game of the corpus, or one outside
    /// it (`outside: …`, as written).
    Defers(String),
    /// An option's quote that is, all but fewer than three words, the words its own choice
    /// cites for the question: the question cannot answer itself.
    Question,
}

impl QuoteRole {
    /// What the quote is, for a reader; `None` for words that say what the item says.
    pub fn note(&self) -> Option<String> {
        match self {
            QuoteRole::Words => None,
            QuoteRole::Term => Some("a term: grounds nothing".to_owned()),
            QuoteRole::Defers(to) => Some(match to.strip_prefix("outside:") {
                Some(what) => format!(
                    "defers to {}, which the corpus does not hold: grounds nothing",
                    what.trim()
                ),
                None => format!("defers to `{to}`: grounds nothing itself"),
            }),
            QuoteRole::Question => Some("the question's own words: grounds nothing".to_owned()),
        }
    }
}

/// A clause.
#[derive(Debug)]
#[non_exhaustive]
pub struct Clause {
    /// Id.
    pub id: String,
    /// The rule in words.
    pub says: String,
    /// Quotes.
    pub cites: Vec<Cite>,
    /// Interpolated by.
    pub by: Vec<String>,
    /// Parameters fixed.
    pub sets: Vec<(String, Value)>,
    /// Choices left open.
    pub open: Vec<String>,
    /// Register points settled or decided.
    pub addresses: Vec<String>,
    /// Register readings it takes.
    pub register: Vec<String>,
}

/// An open point.
#[derive(Debug)]
#[non_exhaustive]
pub struct Choice {
    /// Id.
    pub id: String,
    /// The question.
    pub question: String,
    /// Quotes the question arises from.
    pub cites: Vec<Cite>,
    /// Register points.
    pub addresses: Vec<String>,
    /// Options.
    pub options: Vec<ChoiceOption>,
}

impl Choice {
    /// The option a former id was merged into (`aliases:`), if `id` is one.
    pub fn merged_into(&self, id: &str) -> Option<&ChoiceOption> {
        self.options
            .iter()
            .find(|o| o.aliases.iter().any(|a| a == id))
    }
}

/// A reading of an open point.
#[derive(Debug)]
#[non_exhaustive]
pub struct ChoiceOption {
    /// Id.
    pub id: String,
    /// In words.
    pub says: String,
    /// Proponents.
    pub by: Vec<String>,
    /// Quotes.
    pub cites: Vec<Cite>,
    /// Parameters.
    pub sets: Vec<(String, Value)>,
    /// The register readings it is.
    pub register: Vec<String>,
    /// The engine whose own behaviour this option is, when it is one (an engine artefact).
    pub engine: Option<String>,
    /// Former ids of options merged into this one.
    pub aliases: Vec<String>,
}

/// An interpretation with every parameter resolved.
#[derive(Debug)]
#[non_exhaustive]
pub struct Interpretation {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Description.
    pub about: Option<String>,
    /// The interpretation it extends.
    pub extends: Option<String>,
    /// Choice → option, inherited choices included, in the order of the ruleset's choices.
    pub choose: Vec<(String, String)>,
    /// Proponents.
    pub by: Vec<String>,
    /// Every parameter of the family with its value and where it comes from.
    pub params: Vec<ResolvedParam>,
    /// The sources it reads (anchors or work ids), inherited through `extends`.
    pub basis: Vec<String>,
    /// Where each of its clauses and chosen options comes from, relative to the basis:
    /// computed by the loader, never written by hand.
    pub provenance: Provenance,
    /// The choices at which it takes an option other than those its basis grounds, each
    /// with the editors' reason (computed by the loader; the reason is the ruleset's).
    pub departs: Vec<Departure>,
}

/// A reading's departure from its basis: at `choice` it takes `takes`, though the basis's
/// words ground `grounded`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Departure {
    /// The choice.
    pub choice: String,
    /// The option the reading takes.
    pub takes: String,
    /// The options its basis grounds.
    pub grounded: Vec<String>,
    /// Why the reading departs (the ruleset's `departs:`).
    pub why: String,
}

/// How an item of a reading stands to the reading's basis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// It quotes words of the basis (or, for an encoding, names it: its words are code).
    Grounded,
    /// It quotes only other sources.
    Borrowed,
    /// It quotes nothing: somebody added it.
    Interpolated,
}

impl Class {
    /// All classes, in order.
    pub const ALL: [Class; 3] = [Class::Grounded, Class::Borrowed, Class::Interpolated];

    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Grounded => "grounded",
            Class::Borrowed => "borrowed",
            Class::Interpolated => "interpolated",
        }
    }
}

/// A class with what it rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct Classed {
    /// The class.
    pub class: Class,
    /// Grounded and borrowed: the sources whose words it quotes, as labels (`Davies`, `DLP`,
    /// `Ludii 1.3.12`, or another game's name for a passage on that game); in order, once each.
    pub sources: Vec<String>,
    /// Interpolated: who added it (its `by:`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by: Vec<String>,
}

/// The provenance of a reading, item by item.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Provenance {
    /// Each clause of the game.
    pub clauses: Vec<(String, Classed)>,
    /// Each choice with the option the reading takes.
    pub choices: Vec<(String, String, Classed)>,
    /// Rule parameters the reading sets itself (or inherits from one it extends).
    pub settings: Vec<(String, Classed)>,
}

impl Provenance {
    /// The class of a clause.
    pub fn clause(&self, id: &str) -> Option<&Classed> {
        self.clauses.iter().find(|(c, _)| c == id).map(|(_, k)| k)
    }

    /// The class of the option taken for a choice.
    pub fn choice(&self, id: &str) -> Option<&Classed> {
        self.choices
            .iter()
            .find(|(c, _, _)| c == id)
            .map(|(_, _, k)| k)
    }

    /// The class of a reading's own setting of a parameter.
    pub fn setting(&self, param: &str) -> Option<&Classed> {
        self.settings
            .iter()
            .find(|(p, _)| p == param)
            .map(|(_, k)| k)
    }

    /// Counts over clauses and choices (a reading's own settings are counted with the
    /// choices: each is one decision of the reading): per class, and per source for the
    /// borrowed.
    pub fn summary(&self) -> ProvenanceSummary {
        let mut s = ProvenanceSummary::default();
        let items = self
            .clauses
            .iter()
            .map(|(_, k)| k)
            .chain(self.choices.iter().map(|(_, _, k)| k))
            .chain(self.settings.iter().map(|(_, k)| k));
        for k in items {
            match k.class {
                Class::Grounded => s.grounded += 1,
                Class::Borrowed => {
                    s.borrowed += 1;
                    // Counted once, under the first source it quotes: the sums then add up.
                    let from = k.sources.first().cloned().unwrap_or_default();
                    *s.borrowed_from.entry(from).or_insert(0) += 1;
                }
                Class::Interpolated => s.interpolated += 1,
            }
        }
        s
    }
}

/// A reading's provenance in numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct ProvenanceSummary {
    /// Items grounded in the basis.
    pub grounded: usize,
    /// Items borrowed from other sources.
    pub borrowed: usize,
    /// Borrowed items by the source they are taken from (the first quoted), in order of
    /// first appearance.
    pub borrowed_from: IndexMap<String, usize>,
    /// Items interpolated.
    pub interpolated: usize,
}

impl ProvenanceSummary {
    /// The borrowed count with its sources: `6 (DLP 4, Ludii 1.3.12 2)`.
    pub fn borrowed_text(&self) -> String {
        format!("{}{}", self.borrowed, self.sources_text())
    }

    /// ` (DLP 4, Ludii 1.3.12 2)`, or nothing when nothing is borrowed.
    fn sources_text(&self) -> String {
        if self.borrowed_from.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = self
            .borrowed_from
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        format!(" ({})", parts.join(", "))
    }
}

impl std::fmt::Display for ProvenanceSummary {
    /// `31 grounded, 6 borrowed (DLP 4, Ludii 1.3.12 2), 9 interpolated`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} grounded, {} borrowed{}, {} interpolated",
            self.grounded,
            self.borrowed,
            self.sources_text(),
            self.interpolated
        )
    }
}

impl Interpretation {
    /// The option chosen for a choice.
    pub fn chosen(&self, choice: &str) -> Option<&str> {
        self.choose
            .iter()
            .find(|(c, _)| c == choice)
            .map(|(_, o)| o.as_str())
    }

    /// All parameter values as one JSON object (for binding to an engine).
    pub fn param_values(&self) -> serde_json::Map<String, Value> {
        self.params
            .iter()
            .map(|p| (p.name.clone(), p.value.clone()))
            .collect()
    }
}

/// A parameter value and its provenance.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ResolvedParam {
    /// Name.
    pub name: String,
    /// Rule or engine.
    pub kind: ParamKind,
    /// Value.
    pub value: Value,
    /// Where it was set.
    pub origin: ParamOrigin,
}

/// Where a parameter value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamOrigin {
    /// A clause (all readings).
    Clause(String),
    /// The chosen option of a choice.
    Option {
        /// Choice id.
        choice: String,
        /// Option id.
        option: String,
    },
    /// The interpretation's own `sets` (or one it extends).
    Interpretation(String),
    /// The family default (engine parameters only).
    Default,
}

impl std::fmt::Display for ParamOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamOrigin::Clause(id) => write!(f, "clause {id}"),
            ParamOrigin::Option { choice, option } => write!(f, "choice {choice} = {option}"),
            ParamOrigin::Interpretation(id) => write!(f, "interpretation {id}"),
            ParamOrigin::Default => f.write_str("default"),
        }
    }
}

/// What a name given by a person matched.
#[derive(Debug)]
pub enum Lookup<'c, T> {
    /// Exactly one thing.
    Found(&'c T),
    /// Several things, none of them exactly: the person must say which.
    Ambiguous(Vec<&'c T>),
    /// Nothing; the closest spellings, if any is close enough to be a likely typo.
    NotFound {
        /// The nearest candidates, best first.
        suggestions: Vec<&'c T>,
    },
}

/// A name folded for comparison: lower case, accents and apostrophes dropped, every run of
/// other punctuation or spaces one `-`. So `Li'b al-'Aqil` is `lib-al-aqil` (its id),
/// `Um el Banât` is `um-el-banat` and `Khamsáwee` is `khamsawee`.
pub fn fold_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut out = String::new();
    let mut gap = false;
    for c in name.nfd() {
        if unicode_normalization::char::is_combining_mark(c)
            || matches!(c, '\'' | '’' | '‘' | 'ʿ' | 'ʾ' | '`')
        {
            continue;
        }
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push('-');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    out
}

/// The candidates whose keys are within typing distance of `query` (an edit distance of at
/// most a third of the longer word, and at least one), nearest first. Distances are integers
/// and ties keep the candidates' order, so suggestions are stable.
pub fn closest<'c, T>(
    query: &str,
    candidates: &'c [T],
    keys: impl Fn(&T) -> Vec<String>,
) -> Vec<&'c T> {
    let mut scored: Vec<(usize, usize, &T)> = candidates
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            keys(c)
                .iter()
                .filter_map(|k| {
                    let d = strsim::damerau_levenshtein(query, k);
                    let limit = (query.chars().count().max(k.chars().count()) / 3).max(1);
                    (d <= limit).then_some(d)
                })
                .min()
                .map(|d| (d, i, c))
        })
        .collect();
    scored.sort_by_key(|&(d, i, _)| (d, i));
    let best = scored.first().map(|&(d, _, _)| d);
    scored
        .into_iter()
        .take_while(|&(d, _, _)| Some(d) == best)
        .map(|(_, _, c)| c)
        .collect()
}

impl Corpus {
    /// Where a quote stands, for a reader: `Davies 1925: 140` (the page it begins on, where
    /// the witness marks pages), `DLP rules paraphrase`, or `encoding metadata`.
    pub fn locator(&self, c: &Cite) -> String {
        let corpus = self;
        if let Some(p) = corpus.passages.get(&c.at) {
            let author = corpus
                .work(&p.work)
                .and_then(|w| w.csl.as_ref())
                .map(|csl| {
                    let name = csl.author.first().map_or("", |a| a.family.as_str());
                    let year = csl
                        .issued
                        .date_parts
                        .first()
                        .and_then(|d| d.first())
                        .copied()
                        .unwrap_or(0);
                    format!("{name} {year}")
                })
                .unwrap_or_else(|| p.work.clone());
            return format!(
                "{author}: {}",
                quote_page(p, c).unwrap_or_else(|| p.page.clone())
            );
        }
        if corpus.evidence.contains_key(&c.at) {
            return "DLP rules paraphrase".to_owned();
        }
        "encoding metadata".to_owned()
    }

    /// A game by id.
    pub fn game(&self, id: &str) -> Option<&Game> {
        self.games.iter().find(|g| g.id == id)
    }

    /// A game as a person names it: its id, its name or one of its other names, compared
    /// folded (case, accents, apostrophes and punctuation aside), or else an unambiguous
    /// prefix of one of those. A full name always wins over a prefix, so `sija` is Seega
    /// (Davies' Sija), while `sijat` is Sijat El Taba.
    pub fn find_game(&self, query: &str) -> Lookup<'_, Game> {
        let q = fold_name(query);
        if q.is_empty() {
            return Lookup::NotFound {
                suggestions: Vec::new(),
            };
        }
        let exact: Vec<&Game> = self
            .games
            .iter()
            .filter(|g| g.names().any(|n| fold_name(n) == q))
            .collect();
        if let [g] = exact[..] {
            return Lookup::Found(g);
        }
        if exact.len() > 1 {
            return Lookup::Ambiguous(exact);
        }
        let prefixed: Vec<&Game> = self
            .games
            .iter()
            .filter(|g| g.names().any(|n| fold_name(n).starts_with(&q)))
            .collect();
        match prefixed[..] {
            [g] => Lookup::Found(g),
            [] => Lookup::NotFound {
                suggestions: closest(&q, &self.games, |g| {
                    g.names().map(fold_name).collect::<Vec<_>>()
                }),
            },
            _ => Lookup::Ambiguous(prefixed),
        }
    }

    /// The quotable texts of an anchor: (label, text) pairs, one per witness or field.
    pub fn quotable(&self, anchor: &str) -> Option<Vec<(String, String)>> {
        if let Some(p) = self.passages.get(anchor) {
            return Some(
                p.readings
                    .iter()
                    .map(|r| (r.witness.clone(), r.plain_text()))
                    .collect(),
            );
        }
        if let Some(e) = self.evidence.get(anchor) {
            return Some(vec![("rules".to_owned(), e.rules.clone())]);
        }
        if let Some(e) = self.encodings.get(anchor) {
            return Some(
                e.texts
                    .iter()
                    .map(|(f, _, t)| (f.clone(), t.clone()))
                    .collect(),
            );
        }
        None
    }

    /// A work by id.
    pub fn work(&self, id: &str) -> Option<&Work> {
        self.works.iter().find(|w| w.id == id)
    }

    /// A register point by id, as a person types it (case aside).
    pub fn point(&self, id: &str) -> Option<&Point> {
        let q = id.trim().to_uppercase();
        self.points.values().find(|p| p.id.to_uppercase() == q)
    }

    /// A register reading by full id (`UB-07a`), with its point.
    pub fn point_reading(&self, id: &str) -> Option<(&Point, &PointReading)> {
        self.points
            .values()
            .find_map(|p| p.readings.iter().find(|r| r.id == id).map(|r| (p, r)))
    }
}

#[cfg(test)]
mod tests {
    use super::{closest, fold_name};

    #[test]
    fn names_fold_to_their_ids() {
        assert_eq!(fold_name("Li'b al-'Aqil"), "lib-al-aqil");
        assert_eq!(fold_name("Um el Banât"), "um-el-banat");
        assert_eq!(fold_name("  Khamsáwee "), "khamsawee");
        assert_eq!(fold_name("Um-El-Bagara"), "um-el-bagara");
        assert_eq!(fold_name("-- "), "");
    }

    #[test]
    fn only_near_spellings_are_suggested_nearest_first() {
        let ids = ["seega", "sijat-el-taba", "um-el-bagara"];
        let keys = |s: &&str| vec![(*s).to_owned()];
        assert_eq!(closest("sega", &ids, keys), [&"seega"]);
        assert_eq!(closest("um-el-bagra", &ids, keys), [&"um-el-bagara"]);
        assert!(closest("chess", &ids, keys).is_empty());
    }
}

/// How a point of the register stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PointStatus {
    /// The sources leave it open: a question with readings.
    Open,
    /// It looks open but the source's words settle it.
    Settled,
    /// The source is clear, and an encoding departs from it.
    Departed,
    /// An encoding's own decision or departure, as its notes list it (`ENC-n.k`).
    Encoding,
}

/// How much a point's readings are expected to change outcomes or length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Impact {
    /// Likely to change who wins or how long a game lasts, materially.
    High,
    /// Between medium and high.
    MediumHigh,
    /// Changes play noticeably, outcomes less predictably.
    Medium,
    /// Between low and medium.
    LowMedium,
    /// An edge case, or nearly settled.
    Low,
    /// Not known.
    Unknown,
}

/// The kind of a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// A published work with verbatim passages.
    Work,
    /// Evidence records of the Digital Ludeme Project.
    Evidence,
    /// Rule encodings of a game system (Ludii .lud files).
    Encodings,
}

/// The page a quote begins on, where the witness marks page breaks.
fn quote_page(p: &Passage, c: &Cite) -> Option<String> {
    let needle = super::text::fold(&c.quote);
    for r in &p.readings {
        if c.witness.as_ref().is_some_and(|w| w != &r.witness) {
            continue;
        }
        if !r.segments.iter().any(|s| s.page.is_some()) {
            continue;
        }
        // Fold the text segment by segment, remembering where each begins.
        let mut text = String::new();
        let mut starts = Vec::new();
        let mut page = None;
        for s in &r.segments {
            if s.page.is_some() {
                page = s.page;
            }
            if !text.is_empty() {
                text.push(' ');
            }
            starts.push((text.len(), page));
            text.push_str(&super::text::fold(&s.text));
        }
        if let Some(at) = text.find(&needle) {
            let pg = starts
                .iter()
                .rev()
                .find(|(start, _)| *start <= at)
                .and_then(|(_, p)| *p);
            return pg.map(|p| p.to_string());
        }
    }
    None
}
