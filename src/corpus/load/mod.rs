//! Parsing and validation: raw YAML in, a [`Corpus`] and every problem found out.
//!
//! YAML is read with serde-saphyr (locations, duplicate keys, budgets against hostile input);
//! with `raw`'s spanned types and `diag`'s locations, this is the only code that knows which
//! YAML crate is in use (`tests/tidy.rs` holds it inside `corpus`). Validation runs every check
//! even after failures, so one `ludotrace check` lists all problems of all files.
//!
//! This file owns the run of a load: which file is which, the order the kinds are checked in
//! (sources, then the register, then the rulesets, each able to refer to what came before),
//! and which problems are left out as the echoes of a file that did not parse. The checks
//! themselves are one concern a file, all methods of the one `Validator` that collects the
//! problems:
//!
//! - `parse`: one YAML file read, its errors turned into diagnostics (the only caller of the
//!   YAML crate);
//! - `sources`: works, witnesses, passages, evidence and encodings;
//! - `register`: the register's points and their readings;
//! - `rulesets`: a game's choices, clauses, `sets:` blocks and coverage of the register;
//! - `interpretations`: each reading resolved to every parameter of its family;
//! - `refs`: the checks across files, an id in one file against what another defines.

mod biblio;
mod interpretations;
mod parse;
mod refs;
mod register;
mod rulesets;
mod sources;

use std::collections::HashMap;

use indexmap::IndexMap;

use super::diag::{Diagnostics, Place};
use super::files::CorpusFiles;
use super::model::*;
use super::raw::{self, Sp};

pub use parse::parse_yaml;

/// The corpus format version this build reads.
pub const SCHEMA_VERSION: u32 = 1;

/// What loading produced: the corpus if nothing was wrong, and every problem.
#[derive(Debug)]
pub struct Loaded {
    /// The corpus, when there were no problems.
    pub corpus: Option<Corpus>,
    /// All problems, sorted by place.
    pub diagnostics: Vec<super::diag::Diagnostic>,
    /// How much was checked (for `check`'s summary).
    pub stats: LoadStats,
    /// Follow-on problems left out: references into a source file that could not be parsed
    /// (every anchor, witness or proponent defined there looks undefined until it parses).
    pub suppressed: usize,
}

/// The codes a reference into an unparsable source file produces by itself: reported, they
/// would bury the one real problem under dozens of false ones.
const CASCADE_CODES: &[&str] = &[
    "dangling-anchor",
    "dangling-passage",
    "dangling-witness",
    "unknown-proponent",
];

/// The codes a reference into an unparsable register file produces by itself.
const REGISTER_CASCADE_CODES: &[&str] = &[
    "dangling-point",
    "dangling-reading",
    "reading-outside-point",
    "reading-not-offered",
];

/// Counts of what was checked.
#[derive(Debug, Default, Clone, Copy, serde::Serialize, schemars::JsonSchema)]
pub struct LoadStats {
    /// YAML files parsed.
    pub files: usize,
    /// Passages (anchors) loaded.
    pub passages: usize,
    /// Witness texts compared with their documents.
    pub witness_texts: usize,
    /// Quotes checked against their anchors.
    pub quotes: usize,
    /// Interpretations resolved.
    pub interpretations: usize,
}

/// Loads and validates a corpus.
pub fn load(files: &CorpusFiles) -> Loaded {
    let mut v = Validator {
        files,
        diags: Diagnostics::default(),
        stats: LoadStats::default(),
        unparsed: Vec::new(),
    };
    let corpus = v.run();
    let ok = v.diags.is_empty();
    let mut diagnostics = v.diags.into_sorted();
    let mut suppressed = 0;
    let before = diagnostics.len();
    if v.unparsed.iter().any(|p| p.starts_with("sources/")) {
        diagnostics.retain(|d| !CASCADE_CODES.contains(&d.code));
    }
    // Likewise a register file that does not parse: every point it would define looks
    // undefined to the rulesets that address it.
    if v.unparsed
        .iter()
        .any(|p| p.starts_with("rulesets/register/"))
    {
        diagnostics.retain(|d| !REGISTER_CASCADE_CODES.contains(&d.code));
    }
    suppressed += before - diagnostics.len();
    // The files that could not be read or parsed first: their problem is the one to fix first,
    // and what follows may change once they parse. Stable, so place order holds within each.
    diagnostics.sort_by_key(|d| !v.unparsed.contains(&d.place.file));
    Loaded {
        corpus: if ok { corpus } else { None },
        diagnostics,
        stats: v.stats,
        suppressed,
    }
}

/// One load: the files, and what the checks have found so far. Every check is a method, so
/// that each adds its problems to the one list and its counts to the one summary.
struct Validator<'a> {
    files: &'a CorpusFiles,
    diags: Diagnostics,
    stats: LoadStats,
    /// YAML files that could not be read or parsed, by path.
    unparsed: Vec<String>,
}

/// A quotable text with the witness it comes from, folded once for matching.
struct QuoteTarget {
    witness: String,
    runs: Vec<String>,
}

impl Validator<'_> {
    fn run(&mut self) -> Option<Corpus> {
        let mut source_files = Vec::new();
        let mut ruleset_files = Vec::new();
        let mut register_files = Vec::new();
        for file in &self.files.files {
            let path = file.path.as_str();
            let text = match &file.content {
                Ok(t) => t,
                Err(msg) => {
                    if path.ends_with(".yaml") || path.ends_with(".yml") {
                        let code = if msg.contains("must be at most") {
                            "file-too-large"
                        } else {
                            "unreadable-file"
                        };
                        self.diags.push(Place::file(path), code, msg.clone());
                        self.unparsed.push(path.to_owned());
                    }
                    continue;
                }
            };
            let top_level = path.matches('/').count() == 1;
            if path.starts_with("sources/") && top_level && is_yaml(path) {
                self.stats.files += 1;
                match parse_yaml::<raw::SourceFile>(path, text, &mut self.diags) {
                    Some(f) => source_files.push((path.to_owned(), f)),
                    None => self.unparsed.push(path.to_owned()),
                }
            } else if path.starts_with("rulesets/") && top_level && is_yaml(path) {
                self.stats.files += 1;
                match parse_yaml::<raw::RulesetFile>(path, text, &mut self.diags) {
                    Some(f) => ruleset_files.push((path.to_owned(), f)),
                    None => self.unparsed.push(path.to_owned()),
                }
            } else if path.starts_with("rulesets/register/")
                && path.matches('/').count() == 2
                && is_yaml(path)
            {
                self.stats.files += 1;
                match parse_yaml::<raw::RegisterFile>(path, text, &mut self.diags) {
                    Some(f) => register_files.push((path.to_owned(), f)),
                    None => self.unparsed.push(path.to_owned()),
                }
            } else if path.starts_with("rulesets/") && !path.ends_with(".md") {
                self.diags.push(
                    Place::file(path),
                    "unexpected-file",
                    "rulesets/ holds one `<game>.yaml` per game, and rulesets/register/ one `<game>.yaml` per game plus `general.yaml`; nothing else",
                );
            }
        }

        // A corpus without rulesets or sources has nothing to check: passing it would tell
        // someone who pointed --corpus at the wrong directory that all is well.
        for (dir, what) in [
            (
                "sources",
                "no source files: expected the works, evidence records and encodings as `sources/*.yaml`",
            ),
            (
                "rulesets",
                "no rulesets: expected one `rulesets/<game>.yaml` per game",
            ),
        ] {
            let any = self.files.files.iter().any(|f| {
                f.path.starts_with(&format!("{dir}/"))
                    && f.path.matches('/').count() == 1
                    && is_yaml(&f.path)
            });
            if !any {
                self.diags
                    .push(Place::file(&format!("{dir}/")), "empty-corpus", what);
            }
        }

        let mut corpus = Corpus {
            origin: self.files.origin.clone(),
            works: Vec::new(),
            witnesses: IndexMap::new(),
            passages: IndexMap::new(),
            evidence: IndexMap::new(),
            encodings: IndexMap::new(),
            games: Vec::new(),
            points: IndexMap::new(),
        };
        let mut targets: HashMap<String, Vec<QuoteTarget>> = HashMap::new();
        self.sources(&source_files, &mut corpus, &mut targets);
        // General points first, so that a game's points follow them in `corpus.points`.
        register_files.sort_by_key(|(p, f)| (f.game.is_some(), p.clone()));
        let point_places = self.register(&register_files, &mut corpus, &targets);
        let mut games = Vec::new();
        let mut seen_games: HashMap<String, String> = HashMap::new();
        for (path, file) in &ruleset_files {
            if let Some(prev) = seen_games.get(&file.id.value) {
                self.diags.push(
                    Place::at(path, &file.id.referenced),
                    "duplicate-id",
                    format!("game `{}` is already defined in {prev}", file.id.value),
                );
                continue;
            }
            seen_games.insert(file.id.value.clone(), path.clone());
            if let Some(game) = self.ruleset(path, file, &corpus, &targets) {
                games.push(game);
            }
        }
        games.sort_by_key(|g| GAME_IDS.iter().position(|id| *id == g.id));
        corpus.games = games;
        self.unaddressed(&corpus, &point_places);
        let provenances: Vec<Vec<Provenance>> = corpus
            .games
            .iter()
            .map(|g| {
                g.interpretations
                    .iter()
                    .map(|i| super::provenance::provenance(&corpus, g, i))
                    .collect()
            })
            .collect();
        for (g, ps) in corpus.games.iter_mut().zip(provenances) {
            for (i, p) in g.interpretations.iter_mut().zip(ps) {
                i.provenance = p;
            }
        }
        Some(corpus)
    }

    fn version(&mut self, path: &str, v: &Sp<u32>) {
        if v.value != SCHEMA_VERSION {
            self.diags.push(
                Place::at(path, &v.referenced),
                "schema-version",
                format!(
                    "schema_version {} is not supported: expected {SCHEMA_VERSION}",
                    v.value
                ),
            );
        }
    }

    fn game_id(&mut self, path: &str, id: &Sp<String>) {
        if !GAME_IDS.contains(&id.value.as_str()) {
            self.diags.push(
                Place::at(path, &id.referenced),
                "unknown-game",
                format!(
                    "unknown game `{}`; the games are: {}",
                    id.value,
                    GAME_IDS.join(", ")
                ),
            );
        }
    }
}

fn is_yaml(path: &str) -> bool {
    path.ends_with(".yaml") || path.ends_with(".yml")
}
