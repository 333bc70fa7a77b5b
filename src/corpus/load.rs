//! Parsing and validation: raw YAML in, a [`Corpus`] and every problem found out.
//!
//! YAML is read with serde-saphyr (locations, duplicate keys, budgets against hostile input);
//! this is the only module that knows which YAML crate is in use. Validation runs every check
//! even after failures, so one `ludotrace check` lists all problems of all files.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::diag::{Diagnostics, Place};
use super::files::{CorpusFiles, MAX_FILE_BYTES};
use super::model::*;
use super::raw::{self, Sets, SourceKind, Sp};
use super::text::{contains_folded, fold, longest_matching_prefix};
use crate::family::{Family, ParamKind};

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

/// Parses one YAML document into `T`, turning any failure into a diagnostic.
pub fn parse_yaml<T: DeserializeOwned>(
    path: &str,
    text: &str,
    diags: &mut Diagnostics,
) -> Option<T> {
    if text.len() as u64 > MAX_FILE_BYTES {
        diags.push(
            Place::file(path),
            "file-too-large",
            format!(
                "file is {} bytes; corpus files must be at most {MAX_FILE_BYTES} bytes",
                text.len()
            ),
        );
        return None;
    }
    let meaningful = text.lines().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#') && t != "---" && t != "..."
    });
    if !meaningful {
        diags.push(
            Place::new(path, 1, 1),
            "empty-file",
            "the file is empty: expected a YAML mapping beginning with `schema_version: 1`",
        );
        return None;
    }
    match serde_saphyr::from_str::<T>(text) {
        Ok(v) => Some(v),
        Err(e) => {
            let (line, column) = e
                .location()
                .map_or((1, 1), |l| (l.line() as usize, l.column() as usize));
            let full = e.without_snippet().to_string();
            let message = match full.find(" at line ") {
                Some(i) => full[..i].to_owned(),
                None => full,
            };
            let (code, message) = classify_yaml_error(message, text, line);
            diags.push(Place::new(path, line, column), code, message);
            None
        }
    }
}

fn classify_yaml_error(message: String, text: &str, line: usize) -> (&'static str, String) {
    let has_tab = text
        .lines()
        .nth(line.saturating_sub(1))
        .is_some_and(|l| l.contains('\t'))
        || text.lines().nth(line).is_some_and(|l| l.starts_with('\t'));
    if message.starts_with("unknown field") {
        ("unknown-key", message)
    } else if message.starts_with("duplicate mapping key") {
        let key = message.trim_start_matches("duplicate mapping key: ");
        let key = key.split(',').next().unwrap_or(key);
        (
            "duplicate-key",
            format!("duplicate key `{key}`: each key may appear once in a mapping"),
        )
    } else if message.starts_with("missing field") {
        (
            "missing-field",
            format!("{message} (or it is indented wrongly)"),
        )
    } else if message.starts_with("budget breached") || message.contains("recursion limit") {
        (
            "hostile-input",
            format!(
                "{message}: the file nests too deeply or expands aliases beyond the loader's limits"
            ),
        )
    } else if message.contains("tab") || has_tab {
        (
            "yaml-syntax",
            format!("{message}: YAML indentation must use spaces, not tabs"),
        )
    } else if let Some(ty) = message.strip_prefix("invalid ") {
        let expected = match ty.trim() {
            "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number, 0 or more",
            "i8" | "i16" | "i32" | "i64" => "a whole number",
            "bool" => "`true` or `false`",
            other => other,
        };
        ("wrong-type", format!("wrong type: expected {expected}"))
    } else if message.starts_with("invalid") || message.contains("expected") {
        ("wrong-type", message)
    } else {
        ("yaml-syntax", message)
    }
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
    if v.unparsed.iter().any(|p| p.starts_with("sources/")) {
        let before = diagnostics.len();
        diagnostics.retain(|d| !CASCADE_CODES.contains(&d.code));
        suppressed = before - diagnostics.len();
    }
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
            } else if path.starts_with("rulesets/") && !path.ends_with(".md") {
                self.diags.push(
                    Place::file(path),
                    "unexpected-file",
                    "rulesets/ holds one `<game>.yaml` per game and nothing else",
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
        };
        let mut targets: HashMap<String, Vec<QuoteTarget>> = HashMap::new();
        self.sources(&source_files, &mut corpus, &mut targets);
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

    fn witness_text(&mut self, corpus: &Corpus, witness: &str) -> Option<String> {
        let doc = corpus.witnesses.get(witness)?;
        match self.files.get(&doc.file) {
            Some(f) => f.content.as_ref().ok().map(|t| fold(t)),
            None => None,
        }
    }

    fn check_in_witness(
        &mut self,
        path: &str,
        loc: &Sp<String>,
        witness_folded: Option<&String>,
        witness: &str,
    ) {
        let Some(doc) = witness_folded else { return };
        self.stats.witness_texts += 1;
        let needle = fold(&loc.value);
        if !contains_folded(doc, &needle) {
            let ok = longest_matching_prefix(doc, &needle);
            self.diags.push(
                Place::at(path, &loc.referenced),
                "witness-mismatch",
                format!(
                    "this text does not occur in witness `{witness}`{}",
                    if ok.is_empty() {
                        String::new()
                    } else {
                        format!("; it matches up to «{}», then departs", tail(ok, 60))
                    }
                ),
            );
        }
    }

    fn sources(
        &mut self,
        files: &[(String, raw::SourceFile)],
        corpus: &mut Corpus,
        targets: &mut HashMap<String, Vec<QuoteTarget>>,
    ) {
        let mut file_ids: HashMap<String, String> = HashMap::new();
        // Pass 1: works and witnesses, so that passages anywhere can use any witness.
        for (path, f) in files {
            self.version(path, &f.schema_version);
            if let Some(prev) = file_ids.insert(f.id.value.clone(), path.clone()) {
                self.diags.push(
                    Place::at(path, &f.id.referenced),
                    "duplicate-id",
                    format!("source id `{}` is already used by {prev}", f.id.value),
                );
            }
            corpus.works.push(Work {
                id: f.id.value.clone(),
                kind: f.kind,
                title: f.title.clone(),
                csl: f.csl.clone(),
                file: path.clone(),
            });
            for w in &f.witnesses {
                if corpus.witnesses.contains_key(&w.id.value) {
                    self.diags.push(
                        Place::at(path, &w.id.referenced),
                        "duplicate-id",
                        format!("witness `{}` is defined twice", w.id.value),
                    );
                    continue;
                }
                let file = format!("sources/{}", w.file.value);
                if self.files.get(&file).is_none_or(|f| f.content.is_err()) {
                    self.diags.push(
                        Place::at(path, &w.file.referenced),
                        "witness-missing",
                        format!("witness document `{file}` not found or unreadable: expected a text file under sources/"),
                    );
                }
                corpus.witnesses.insert(
                    w.id.value.clone(),
                    WitnessDoc {
                        id: w.id.value.clone(),
                        title: w.title.clone(),
                        file,
                        origin: w.origin.clone(),
                    },
                );
            }
        }
        let mut folded_witness: HashMap<String, Option<String>> = HashMap::new();
        let mut witness = |v: &mut Self, corpus: &Corpus, id: &str| -> Option<String> {
            folded_witness
                .entry(id.to_owned())
                .or_insert_with(|| v.witness_text(corpus, id))
                .clone()
        };
        // Pass 2: passages, evidence, encodings.
        for (path, f) in files {
            let kind_ok = |k: SourceKind| f.kind == k;
            if !f.passages.is_empty() && !kind_ok(SourceKind::Work) {
                self.diags.push(
                    Place::at(path, &f.id.referenced),
                    "wrong-kind",
                    "only a file of kind `work` holds passages",
                );
            }
            for p in &f.passages {
                self.game_id(path, &p.game);
                let anchor = format!("{}#{}", f.id.value, p.id.value);
                if corpus.passages.contains_key(&anchor) {
                    self.diags.push(
                        Place::at(path, &p.id.referenced),
                        "duplicate-id",
                        format!("passage `{anchor}` is defined twice"),
                    );
                    continue;
                }
                let mut readings = Vec::new();
                let mut qt = Vec::new();
                for r in &p.readings {
                    if !corpus.witnesses.contains_key(&r.witness.value) {
                        self.dangling(path, &r.witness, "witness", corpus.witnesses.keys());
                    }
                    if r.segments.is_empty() {
                        self.diags.push(
                            Place::at(path, &r.witness.referenced),
                            "missing-field",
                            "a reading needs at least one segment of text",
                        );
                    }
                    let doc = witness(self, corpus, &r.witness.value);
                    for s in &r.segments {
                        self.check_in_witness(path, &s.text, doc.as_ref(), &r.witness.value);
                    }
                    let reading = Reading {
                        witness: r.witness.value.clone(),
                        segments: r
                            .segments
                            .iter()
                            .map(|s| Segment {
                                page: s.page,
                                figure: s.figure.clone(),
                                after_elision: s.after_elision,
                                text: s.text.value.clone(),
                            })
                            .collect(),
                    };
                    qt.push(QuoteTarget {
                        witness: reading.witness.clone(),
                        runs: reading.runs().iter().map(|r| fold(r)).collect(),
                    });
                    readings.push(reading);
                }
                self.stats.passages += 1;
                targets.insert(anchor.clone(), qt);
                corpus.passages.insert(
                    anchor.clone(),
                    Passage {
                        anchor,
                        work: f.id.value.clone(),
                        game: p.game.value.clone(),
                        heading: p.heading.clone(),
                        page: p.page.clone(),
                        readings,
                    },
                );
            }
            for e in &f.evidence {
                self.game_id(path, &e.game);
                if corpus.evidence.contains_key(&e.id.value) {
                    self.diags.push(
                        Place::at(path, &e.id.referenced),
                        "duplicate-id",
                        format!("evidence `{}` is defined twice", e.id.value),
                    );
                    continue;
                }
                for w in &e.witnesses {
                    if corpus.witnesses.contains_key(&w.value) {
                        let doc = witness(self, corpus, &w.value);
                        self.check_in_witness(path, &e.rules, doc.as_ref(), &w.value);
                    } else {
                        self.dangling(path, w, "witness", corpus.witnesses.keys());
                    }
                }
                targets.insert(
                    e.id.value.clone(),
                    vec![QuoteTarget {
                        witness: "rules".into(),
                        runs: vec![fold(&e.rules.value)],
                    }],
                );
                self.stats.passages += 1;
                corpus.evidence.insert(
                    e.id.value.clone(),
                    Evidence {
                        id: e.id.value.clone(),
                        record_type: e.record_type.clone(),
                        game_name: e.game_name.clone(),
                        game: e.game.value.clone(),
                        location: e.location.clone(),
                        date: e.date.clone(),
                        confidence: e.confidence,
                        ages: e.ages.clone(),
                        source: e.source.clone(),
                        rules: e.rules.value.clone(),
                        content_passage: e.content.passage.value.clone(),
                        content_witness: e.content.witness.value.clone(),
                        content_citation: e.content.citation.clone(),
                        witnesses: e.witnesses.iter().map(|w| w.value.clone()).collect(),
                    },
                );
            }
            for e in &f.encodings {
                self.game_id(path, &e.game);
                if corpus.encodings.contains_key(&e.id.value) {
                    self.diags.push(
                        Place::at(path, &e.id.referenced),
                        "duplicate-id",
                        format!("encoding `{}` is defined twice", e.id.value),
                    );
                    continue;
                }
                let mut runs = Vec::new();
                for t in &e.texts {
                    if corpus.witnesses.contains_key(&t.witness.value) {
                        let doc = witness(self, corpus, &t.witness.value);
                        self.check_in_witness(path, &t.text, doc.as_ref(), &t.witness.value);
                    } else {
                        self.dangling(path, &t.witness, "witness", corpus.witnesses.keys());
                    }
                    runs.push(fold(&t.text.value));
                }
                targets.insert(
                    e.id.value.clone(),
                    vec![QuoteTarget {
                        witness: "metadata".into(),
                        runs,
                    }],
                );
                corpus.encodings.insert(
                    e.id.value.clone(),
                    Encoding {
                        id: e.id.value.clone(),
                        game: e.game.value.clone(),
                        system: e.system.clone(),
                        version: e.version.clone(),
                        repository: e.repository.clone(),
                        path: e.path.clone(),
                        commit: e.commit.clone(),
                        system_id: e.system_id.clone(),
                        credit: e.credit.clone(),
                        cites: e.cites.clone(),
                        ruleset: e.ruleset.clone(),
                        note: e.note.clone(),
                        texts: e
                            .texts
                            .iter()
                            .map(|t| {
                                (
                                    t.field.clone(),
                                    t.witness.value.clone(),
                                    t.text.value.clone(),
                                )
                            })
                            .collect(),
                    },
                );
            }
        }
        // Pass 3: evidence content must point at a passage reading.
        for (path, f) in files {
            for e in &f.evidence {
                match corpus.passages.get(&e.content.passage.value) {
                    None => {
                        self.dangling(path, &e.content.passage, "passage", corpus.passages.keys())
                    }
                    Some(p) => {
                        if !p
                            .readings
                            .iter()
                            .any(|r| r.witness == e.content.witness.value)
                        {
                            let valid: Vec<&String> =
                                p.readings.iter().map(|r| &r.witness).collect();
                            self.dangling(
                                path,
                                &e.content.witness,
                                "reading witness",
                                valid.into_iter(),
                            );
                        }
                    }
                }
            }
        }
    }

    fn dangling<'k>(
        &mut self,
        path: &str,
        id: &Sp<String>,
        what: &str,
        valid: impl Iterator<Item = &'k String>,
    ) {
        let valid: Vec<&str> = valid.map(String::as_str).collect();
        let list = if valid.is_empty() {
            "none is defined".to_owned()
        } else {
            valid.join(", ")
        };
        self.diags.push(
            Place::at(path, &id.referenced),
            dangling_code(what),
            format!("no {what} `{}`; expected one of: {list}", id.value),
        );
    }

    fn anchor_known(corpus: &Corpus, id: &str) -> bool {
        corpus.passages.contains_key(id)
            || corpus.evidence.contains_key(id)
            || corpus.encodings.contains_key(id)
            || corpus.works.iter().any(|w| w.id == id)
    }

    fn proponents(&mut self, path: &str, by: &[Sp<String>], corpus: &Corpus) -> Vec<String> {
        for b in by {
            let v = b.value.trim();
            let reading = v.strip_prefix("reading:").map(str::trim);
            let ok = match reading {
                Some(rest) => !rest.is_empty(),
                None => Self::anchor_known(corpus, v),
            };
            if !ok {
                self.diags.push(
                    Place::at(path, &b.referenced),
                    "unknown-proponent",
                    format!(
                        "`{}` is neither a source anchor of the corpus nor an attribution `reading: <who, and why>`; anchors are passages (e.g. {}), evidence records (e.g. {}), encodings (e.g. {}) or source ids",
                        b.value,
                        corpus.passages.keys().next().map_or("davies-1925#um-el-bagara", String::as_str),
                        corpus.evidence.keys().next().map_or("DLP.Evidence.694", String::as_str),
                        corpus.encodings.keys().next().map_or("ludii-1.0.8#um-el-bagara", String::as_str),
                    ),
                );
            }
        }
        by.iter().map(|b| b.value.trim().to_owned()).collect()
    }

    fn cites(
        &mut self,
        path: &str,
        cites: &[raw::Cite],
        corpus: &Corpus,
        targets: &HashMap<String, Vec<QuoteTarget>>,
    ) -> Vec<Cite> {
        let mut out = Vec::new();
        for c in cites {
            out.push(Cite {
                at: c.at.value.clone(),
                quote: c.quote.value.clone(),
                witness: c.witness.as_ref().map(|w| w.value.clone()),
            });
            let Some(ts) = targets.get(&c.at.value) else {
                if corpus.works.iter().any(|w| w.id == c.at.value) {
                    let passages: Vec<&String> = corpus
                        .passages
                        .keys()
                        .filter(|k| k.starts_with(&format!("{}#", c.at.value)))
                        .collect();
                    self.diags.push(
                        Place::at(path, &c.at.referenced),
                        "dangling-anchor",
                        format!(
                            "`{}` is a whole source; cite one of its passages: {}",
                            c.at.value,
                            passages
                                .iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                } else {
                    self.diags.push(
                        Place::at(path, &c.at.referenced),
                        "dangling-anchor",
                        format!(
                            "no passage, evidence record or encoding `{}`; passages are: {}",
                            c.at.value,
                            corpus
                                .passages
                                .keys()
                                .map(String::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
                continue;
            };
            if let Some(w) = &c.witness
                && !ts.iter().any(|t| t.witness == w.value)
            {
                let valid: Vec<&String> = ts.iter().map(|t| &t.witness).collect();
                self.dangling(path, w, "witness of this anchor", valid.into_iter());
                continue;
            }
            self.stats.quotes += 1;
            let needle = fold(&c.quote.value);
            let pool: Vec<&QuoteTarget> = ts
                .iter()
                .filter(|t| c.witness.as_ref().is_none_or(|w| w.value == t.witness))
                .collect();
            let found = pool
                .iter()
                .any(|t| t.runs.iter().any(|r| contains_folded(r, &needle)));
            if !found {
                let best = pool
                    .iter()
                    .flat_map(|t| t.runs.iter())
                    .map(|r| longest_matching_prefix(r, &needle))
                    .max_by_key(|s| s.len())
                    .unwrap_or("");
                let hint = if needle.is_empty() {
                    "the quote is empty".to_owned()
                } else if best.is_empty() {
                    "not even its first word occurs there".to_owned()
                } else {
                    format!("it matches up to «{}», then departs", tail(best, 60))
                };
                self.diags.push(
                    Place::at(path, &c.quote.referenced),
                    "quote-not-found",
                    format!(
                        "quote not found in `{}`{}: {hint}. Quotes must be verbatim (whitespace and quote marks are folded, nothing else); a quote may not span an elision",
                        c.at.value,
                        c.witness.as_ref().map_or(String::new(), |w| format!(" (witness {})", w.value)),
                    ),
                );
            }
        }
        out
    }

    /// Checks every assignment of a `sets:` block against the family, once.
    fn sets(&mut self, path: &str, family: Family, sets: &Sets) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        for (k, v) in sets {
            match family.check_value(&k.value, &v.value) {
                Ok(()) => out.push((k.value.clone(), v.value.clone())),
                Err(msg) => {
                    let known = family.params().iter().any(|p| p.name == k.value);
                    if known {
                        self.diags
                            .push(Place::at(path, &v.referenced), "param-type", msg);
                        // Still counts as set, so that a mistyped value is reported once and
                        // not again as a missing parameter for every reading. The corpus is
                        // not handed out while any diagnostic stands.
                        out.push((k.value.clone(), v.value.clone()));
                    } else {
                        self.diags
                            .push(Place::at(path, &k.referenced), "param-unknown", msg);
                    }
                }
            }
        }
        out
    }

    fn ruleset(
        &mut self,
        path: &str,
        f: &raw::RulesetFile,
        corpus: &Corpus,
        targets: &HashMap<String, Vec<QuoteTarget>>,
    ) -> Option<Game> {
        self.version(path, &f.schema_version);
        self.game_id(path, &f.id);
        let expected = format!("rulesets/{}.yaml", f.id.value);
        if path != expected {
            self.diags.push(
                Place::at(path, &f.id.referenced),
                "file-name-mismatch",
                format!("game `{}` must be in `{expected}`", f.id.value),
            );
        }
        for s in &f.sources {
            if !Self::anchor_known(corpus, &s.value) {
                self.dangling(
                    path,
                    s,
                    "source anchor",
                    corpus
                        .passages
                        .keys()
                        .chain(corpus.evidence.keys())
                        .chain(corpus.encodings.keys()),
                );
            }
        }
        let family = f.family;

        // Choices first, so that clauses can refer to them.
        let mut choice_ids = HashSet::new();
        let mut choices = Vec::new();
        let mut choice_places: HashMap<String, HashMap<String, Place>> = HashMap::new();
        for c in &f.choices {
            if !choice_ids.insert(c.id.value.clone()) {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "duplicate-id",
                    format!("choice `{}` is defined twice", c.id.value),
                );
                continue;
            }
            if c.options.is_empty() {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "missing-field",
                    format!("choice `{}` has no options", c.id.value),
                );
            }
            let cites = self.cites(path, &c.cites, corpus, targets);
            let mut options = Vec::new();
            let mut option_ids = HashSet::new();
            let places = choice_places.entry(c.id.value.clone()).or_default();
            for o in &c.options {
                if !option_ids.insert(o.id.value.clone()) {
                    self.diags.push(
                        Place::at(path, &o.id.referenced),
                        "duplicate-id",
                        format!(
                            "option `{}` appears twice in choice `{}`",
                            o.id.value, c.id.value
                        ),
                    );
                    continue;
                }
                places.insert(o.id.value.clone(), Place::at(path, &o.id.referenced));
                if o.by.is_empty() {
                    self.diags.push(
                        Place::at(path, &o.id.referenced),
                        "no-proponent",
                        format!("option `{}` must say who proposes it (`by:`)", o.id.value),
                    );
                }
                let by = self.proponents(path, &o.by, corpus);
                let cites = self.cites(path, &o.cites, corpus, targets);
                let sets = self.sets(path, family, &o.sets);
                options.push(ChoiceOption {
                    id: o.id.value.clone(),
                    says: o.says.clone(),
                    by,
                    cites,
                    sets,
                });
            }
            choices.push(Choice {
                id: c.id.value.clone(),
                question: c.question.clone(),
                cites,
                addresses: c.addresses.clone(),
                options,
            });
        }

        let mut clause_ids = HashSet::new();
        let mut clauses = Vec::new();
        let mut clause_sets_places: Vec<(String, Place, Value, ParamOrigin)> = Vec::new();
        for c in &f.rules {
            if !clause_ids.insert(c.id.value.clone()) {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "duplicate-id",
                    format!("clause `{}` is defined twice", c.id.value),
                );
                continue;
            }
            if c.cites.is_empty() && c.by.is_empty() {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "uncited-clause",
                    format!(
                        "clause `{}` neither cites the words it rests on (`cites:`) nor says who interpolated it (`by:`)",
                        c.id.value
                    ),
                );
            }
            let cites = self.cites(path, &c.cites, corpus, targets);
            let by = self.proponents(path, &c.by, corpus);
            for o in &c.open {
                if !choice_ids.contains(&o.value) {
                    self.dangling(path, o, "choice", choices.iter().map(|c| &c.id));
                }
            }
            let sets = self.sets(path, family, &c.sets);
            for (k, v) in &c.sets {
                if sets.iter().any(|(n, _)| n == &k.value) {
                    clause_sets_places.push((
                        k.value.clone(),
                        Place::at(path, &k.referenced),
                        v.value.clone(),
                        ParamOrigin::Clause(c.id.value.clone()),
                    ));
                }
            }
            clauses.push(Clause {
                id: c.id.value.clone(),
                says: c.says.clone(),
                cites,
                by,
                sets,
                open: c.open.iter().map(|o| o.value.clone()).collect(),
                addresses: c.addresses.clone(),
            });
        }

        let interpretations = self.interpretations(
            path,
            f,
            corpus,
            &choices,
            &choice_places,
            &clause_sets_places,
        );
        Some(Game {
            id: f.id.value.clone(),
            name: f.name.clone(),
            aliases: f.aliases.clone(),
            people: f.people.clone(),
            observed: f.observed,
            family,
            sources: f.sources.iter().map(|s| s.value.clone()).collect(),
            file: path.to_owned(),
            clauses,
            choices,
            interpretations,
        })
    }

    fn interpretations(
        &mut self,
        path: &str,
        f: &raw::RulesetFile,
        corpus: &Corpus,
        choices: &[Choice],
        choice_places: &HashMap<String, HashMap<String, Place>>,
        clause_sets: &[(String, Place, Value, ParamOrigin)],
    ) -> Vec<Interpretation> {
        let family = f.family;
        let mut by_id: IndexMap<String, &raw::Interpretation> = IndexMap::new();
        for i in &f.interpretations {
            if by_id.contains_key(&i.id.value) {
                self.diags.push(
                    Place::at(path, &i.id.referenced),
                    "duplicate-id",
                    format!("interpretation `{}` is defined twice", i.id.value),
                );
                continue;
            }
            by_id.insert(i.id.value.clone(), i);
        }
        if by_id.is_empty() {
            self.diags.push(
                Place::at(path, &f.id.referenced),
                "missing-field",
                "a ruleset needs at least one interpretation",
            );
        }
        let ids: Vec<String> = by_id.keys().cloned().collect();
        let mut out = Vec::new();
        for (id, interp) in &by_id {
            // The chain of interpretations this one extends, nearest last.
            let mut chain: Vec<&raw::Interpretation> = vec![interp];
            let mut broken = false;
            let mut cur = *interp;
            while let Some(parent) = &cur.extends {
                match by_id.get(&parent.value) {
                    None => {
                        if cur.id.value == *id {
                            self.dangling(path, parent, "interpretation", ids.iter());
                        }
                        broken = true;
                        break;
                    }
                    Some(p) => {
                        if chain.iter().any(|c| c.id.value == p.id.value) {
                            if cur.id.value == *id || p.id.value == *id {
                                self.diags.push(
                                    Place::at(path, &parent.referenced),
                                    "extends-cycle",
                                    format!(
                                        "interpretation `{id}` extends itself through `{}`",
                                        parent.value
                                    ),
                                );
                            }
                            broken = true;
                            break;
                        }
                        chain.push(p);
                        cur = p;
                    }
                }
            }
            chain.reverse();
            // Effective choices and sets: later (nearer) interpretations override.
            let mut choose: IndexMap<String, (String, Place)> = IndexMap::new();
            let mut sets: IndexMap<String, (Value, Place, String)> = IndexMap::new();
            let mut choose_error = false;
            for link in &chain {
                let own = link.id.value == *id;
                for (c, o) in &link.choose {
                    let Some(places) = choice_places.get(&c.value) else {
                        choose_error = true;
                        if own {
                            self.dangling(path, c, "choice", choices.iter().map(|c| &c.id));
                        }
                        continue;
                    };
                    if !places.contains_key(&o.value) {
                        choose_error = true;
                        if own {
                            let valid: Vec<String> = choices
                                .iter()
                                .find(|ch| ch.id == c.value)
                                .map(|ch| ch.options.iter().map(|o| o.id.clone()).collect())
                                .unwrap_or_default();
                            self.dangling(
                                path,
                                o,
                                &format!("option of choice `{}`", c.value),
                                valid.iter(),
                            );
                        }
                        continue;
                    }
                    choose.insert(
                        c.value.clone(),
                        (o.value.clone(), Place::at(path, &o.referenced)),
                    );
                }
                let checked = if own {
                    self.sets(path, family, &link.sets)
                } else {
                    link.sets
                        .iter()
                        .filter(|(k, v)| family.check_value(&k.value, &v.value).is_ok())
                        .map(|(k, v)| (k.value.clone(), v.value.clone()))
                        .collect()
                };
                for (k, _) in &link.sets {
                    if let Some((_, v)) = checked.iter().find(|(n, _)| n == &k.value) {
                        sets.insert(
                            k.value.clone(),
                            (
                                v.clone(),
                                Place::at(path, &k.referenced),
                                link.id.value.clone(),
                            ),
                        );
                    }
                }
            }
            // Only the interpretation's own `by` is checked here; inherited ones were checked
            // with their own interpretation.
            self.proponents(path, &interp.by, corpus);
            if broken {
                continue;
            }
            let by_all: Vec<String> = chain
                .iter()
                .flat_map(|l| l.by.iter().map(|b| b.value.trim().to_owned()))
                .collect();

            // Gather every assignment with its origin, then check once / never.
            let mut assigned: Vec<(String, Value, Place, ParamOrigin)> = clause_sets
                .iter()
                .map(|(n, p, v, o)| (n.clone(), v.clone(), p.clone(), o.clone()))
                .collect();
            for choice in choices {
                if let Some((opt_id, _)) = choose.get(&choice.id)
                    && let Some(opt) = choice.options.iter().find(|o| &o.id == opt_id)
                {
                    let place = choice_places[&choice.id][opt_id].clone();
                    for (n, v) in &opt.sets {
                        assigned.push((
                            n.clone(),
                            v.clone(),
                            place.clone(),
                            ParamOrigin::Option {
                                choice: choice.id.clone(),
                                option: opt_id.clone(),
                            },
                        ));
                    }
                }
            }
            for (n, (v, place, from)) in &sets {
                assigned.push((
                    n.clone(),
                    v.clone(),
                    place.clone(),
                    ParamOrigin::Interpretation(from.clone()),
                ));
            }
            let here = Place::at(path, &interp.id.referenced);
            let mut params = Vec::new();
            let defaults = family_defaults(family);
            for info in family.params() {
                let hits: Vec<&(String, Value, Place, ParamOrigin)> =
                    assigned.iter().filter(|a| a.0 == info.name).collect();
                match (hits.len(), info.kind) {
                    // A reading whose `choose:` is already reported as broken would only
                    // repeat that problem here.
                    (0, ParamKind::Rule) if choose_error => {}
                    (0, ParamKind::Rule) => {
                        self.diags.push(
                            here.clone(),
                            "param-missing",
                            format!(
                                "interpretation `{id}` never sets rule parameter `{}` ({}); set it in a clause, in an option this interpretation chooses, or in its own `sets:` with `by:`",
                                info.name,
                                crate::family::doc_line(info.doc)
                            ),
                        );
                    }
                    (0, ParamKind::Engine) => params.push(ResolvedParam {
                        name: info.name.to_owned(),
                        kind: info.kind,
                        value: defaults.get(info.name).cloned().unwrap_or(Value::Null),
                        origin: ParamOrigin::Default,
                    }),
                    (1, _) => {
                        let (_, v, place, origin) = hits[0];
                        if info.kind == ParamKind::Rule
                            && matches!(origin, ParamOrigin::Interpretation(_))
                            && by_all.is_empty()
                        {
                            self.diags.push(
                                place.clone(),
                                "unsourced-setting",
                                format!(
                                    "interpretation `{id}` sets rule parameter `{}` itself, so it must say whom it follows (`by:` on the interpretation)",
                                    info.name
                                ),
                            );
                        }
                        params.push(ResolvedParam {
                            name: info.name.to_owned(),
                            kind: info.kind,
                            value: v.clone(),
                            origin: origin.clone(),
                        });
                    }
                    _ => {
                        let list = hits
                            .iter()
                            .map(|(_, _, p, o)| format!("{o} at {p}"))
                            .collect::<Vec<_>>()
                            .join("; ");
                        self.diags.push(
                            here.clone(),
                            "param-twice",
                            format!(
                                "interpretation `{id}` sets parameter `{}` {} times: {list}; each parameter must be set exactly once",
                                info.name,
                                hits.len()
                            ),
                        );
                    }
                }
            }
            self.stats.interpretations += 1;
            let choose_out = choices
                .iter()
                .filter_map(|c| choose.get(&c.id).map(|(o, _)| (c.id.clone(), o.clone())))
                .collect();
            out.push(Interpretation {
                id: id.clone(),
                title: interp.title.clone(),
                about: interp.about.clone(),
                extends: interp.extends.as_ref().map(|e| e.value.clone()),
                choose: choose_out,
                by: by_all,
                params,
            });
        }
        out
    }
}

fn family_defaults(family: Family) -> serde_json::Map<String, Value> {
    family.engine_defaults()
}

fn dangling_code(what: &str) -> &'static str {
    if what.contains("option") {
        "dangling-option"
    } else if what.contains("choice") {
        "dangling-choice"
    } else if what.contains("interpretation") {
        "dangling-interpretation"
    } else if what.contains("witness") {
        "dangling-witness"
    } else if what.contains("passage") {
        "dangling-passage"
    } else {
        "dangling-anchor"
    }
}

fn is_yaml(path: &str) -> bool {
    path.ends_with(".yaml") || path.ends_with(".yml")
}

/// The last `n` characters of `s`, with an ellipsis if cut.
fn tail(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        s.to_owned()
    } else {
        format!("…{}", s.chars().skip(count - n).collect::<String>())
    }
}
