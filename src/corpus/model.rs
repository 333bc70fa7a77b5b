//! The validated corpus: what the rest of ludotrace sees.
//!
//! Every value here has passed the loader's checks: ids are unique, references resolve,
//! quotes occur in their passages, and each interpretation sets every rule parameter of its
//! family exactly once. The types are `#[non_exhaustive]`, so only the loader builds them.

use indexmap::IndexMap;
use serde_json::Value;

use super::files::Origin;
use super::raw::{CslItem, SourceKind};
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
    /// Credit.
    pub credit: Option<String>,
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
}

impl Game {
    /// An interpretation by id.
    pub fn interpretation(&self, id: &str) -> Option<&Interpretation> {
        self.interpretations.iter().find(|i| i.id == id)
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
    /// Register points settled.
    pub addresses: Vec<String>,
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

impl Corpus {
    /// A game by id.
    pub fn game(&self, id: &str) -> Option<&Game> {
        self.games.iter().find(|g| g.id == id)
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
}
