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
use super::model::closest;
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
                        url: w.url.clone(),
                        accessed: w.accessed.as_ref().map(|a| {
                            if !is_iso_date(&a.value) {
                                self.diags.push(
                                    Place::at(path, &a.referenced),
                                    "wrong-type",
                                    format!(
                                        "accessed: `{}` is not a date; write it YYYY-MM-DD (2026-11-23)",
                                        a.value
                                    ),
                                );
                            }
                            a.value.clone()
                        }),
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

    /// Loads the register: checks each point's id, status, readings and quotes, and returns
    /// where each point is defined (for the check that every point is addressed).
    fn register(
        &mut self,
        files: &[(String, raw::RegisterFile)],
        corpus: &mut Corpus,
        targets: &HashMap<String, Vec<QuoteTarget>>,
    ) -> HashMap<String, Place> {
        let mut places: HashMap<String, Place> = HashMap::new();
        let mut pending_refs: Vec<(String, Sp<String>, &'static str)> = Vec::new();
        for (path, f) in files {
            self.version(path, &f.schema_version);
            let game = f.game.as_ref().map(|g| g.value.clone());
            match &f.game {
                Some(g) => {
                    self.game_id(path, g);
                    let expected = format!("rulesets/register/{}.yaml", g.value);
                    if *path != expected {
                        self.diags.push(
                            Place::at(path, &g.referenced),
                            "file-name-mismatch",
                            format!("the register of `{}` must be in `{expected}`", g.value),
                        );
                    }
                }
                None if path != "rulesets/register/general.yaml" => {
                    self.diags.push(
                        Place::file(path),
                        "missing-field",
                        "a register file other than `general.yaml` must say which game its points belong to (`game:`)",
                    );
                }
                None => {}
            }
            for pt in &f.points {
                let id = &pt.id.value;
                let here = Place::at(path, &pt.id.referenced);
                if let Some(prev) = places.get(id) {
                    self.diags.push(
                        here.clone(),
                        "duplicate-id",
                        format!("point `{id}` is already defined at {prev}"),
                    );
                    continue;
                }
                // Under an unknown game (reported above) the id scheme cannot be known.
                let known = game.as_deref().is_none_or(|g| GAME_IDS.contains(&g));
                if let Err(msg) = point_id_fits(id, pt.status, game.as_deref())
                    && known
                {
                    self.diags.push(here.clone(), "point-id", msg);
                }
                let has_readings = !pt.readings.is_empty();
                match pt.status {
                    PointStatus::Settled | PointStatus::Departed if has_readings => {
                        self.diags.push(
                            here.clone(),
                            "point-readings",
                            format!(
                                "point `{id}` is {}: it has no readings (the source's words decide it); make it `open` if it has",
                                if pt.status == PointStatus::Settled { "settled" } else { "departed" }
                            ),
                        );
                    }
                    PointStatus::Settled | PointStatus::Departed if pt.cites.is_empty() => {
                        self.diags.push(
                            here.clone(),
                            "uncited-point",
                            format!("point `{id}` must quote the words that settle it (`cites:`)"),
                        );
                    }
                    _ => {}
                }
                if let Some(same) = &pt.same_as {
                    if pt.status != PointStatus::Encoding {
                        self.diags.push(
                            Place::at(path, &same.referenced),
                            "point-same-as",
                            "`same_as` is for an encoding's note that is one of the register's points",
                        );
                    } else if has_readings {
                        self.diags.push(
                            Place::at(path, &same.referenced),
                            "point-same-as",
                            format!(
                                "point `{id}` is the same as `{}`, whose readings stand for it: give it none of its own",
                                same.value
                            ),
                        );
                    }
                    pending_refs.push((path.clone(), same.clone(), "point"));
                }
                for see in &pt.see {
                    pending_refs.push((path.clone(), see.clone(), "point"));
                }
                let mut letters = HashSet::new();
                let mut readings = Vec::new();
                for r in &pt.readings {
                    let l = &r.id.value;
                    let ok = l.len() == 1 && l.chars().all(|c| c.is_ascii_lowercase());
                    if !ok {
                        self.diags.push(
                            Place::at(path, &r.id.referenced),
                            "point-reading-id",
                            format!(
                                "reading `{l}`: a reading's id is one lower-case letter (a, b, c …)"
                            ),
                        );
                    } else if !letters.insert(l.clone()) {
                        self.diags.push(
                            Place::at(path, &r.id.referenced),
                            "duplicate-id",
                            format!("reading `{l}` appears twice in point `{id}`"),
                        );
                    }
                    readings.push(PointReading {
                        id: format!("{id}{l}"),
                        says: r.says.clone(),
                        by: self.proponents(path, &r.by, corpus),
                    });
                }
                let cites = self.cites(path, &pt.cites, corpus, targets);
                places.insert(id.clone(), here);
                corpus.points.insert(
                    id.clone(),
                    Point {
                        id: id.clone(),
                        game: game.clone(),
                        status: pt.status,
                        title: pt.title.clone(),
                        impact: pt.impact,
                        impact_note: pt.impact_note.clone(),
                        says: pt.says.clone(),
                        cites,
                        see: pt.see.iter().map(|s| s.value.clone()).collect(),
                        same_as: pt.same_as.as_ref().map(|s| s.value.clone()),
                        readings,
                        file: path.clone(),
                    },
                );
            }
        }
        for (path, r, what) in pending_refs {
            if !corpus.points.contains_key(&r.value) {
                self.dangling_point(&path, &r, corpus, what);
            }
        }
        places
    }

    /// An id that names no point: the message suggests the nearest ids.
    fn dangling_point(&mut self, path: &str, id: &Sp<String>, corpus: &Corpus, what: &str) {
        let ids: Vec<&String> = corpus.points.keys().collect();
        let near = closest(&id.value.to_lowercase(), &ids, |k| vec![k.to_lowercase()]);
        let hint = if near.is_empty() {
            format!(
                "the register (rulesets/register/) has {} points; `ludotrace point` lists them",
                ids.len()
            )
        } else {
            format!(
                "did you mean {}?",
                near.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            )
        };
        self.diags.push(
            Place::at(path, &id.referenced),
            "dangling-point",
            format!("no {what} `{}` in the register; {hint}", id.value),
        );
    }

    /// Every point of a game's register must be addressed by its ruleset: a point nobody
    /// addresses is a question the corpus forgot.
    fn unaddressed(&mut self, corpus: &Corpus, places: &HashMap<String, Place>) {
        for p in corpus.points.values() {
            let Some(gid) = &p.game else { continue };
            let Some(g) = corpus.game(gid) else { continue };
            let addressed = g
                .clauses
                .iter()
                .flat_map(|c| c.addresses.iter())
                .chain(g.choices.iter().flat_map(|c| c.addresses.iter()))
                .any(|a| a == &p.id);
            if !addressed && let Some(place) = places.get(&p.id) {
                self.diags.push(
                    place.clone(),
                    "unaddressed-point",
                    format!(
                        "point `{}` of {} is addressed by no clause or choice of {}: add it to the `addresses:` of the clause or choice that settles or asks it",
                        p.id, p.file, g.file
                    ),
                );
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

    /// Checks an option marked as an engine's behaviour (`engine:`): it names the engine, and
    /// no source's words support it (its quotes and proponents are encodings, or readings).
    fn engine_option(
        &mut self,
        path: &str,
        engine: &Sp<String>,
        o: &raw::ChoiceOption,
        corpus: &Corpus,
    ) -> String {
        if engine.value.trim().is_empty() {
            self.diags.push(
                Place::at(path, &engine.referenced),
                "empty-engine",
                "`engine:` names the engine whose behaviour the option is (`Ludii 1.0.8, as traced`)",
            );
        }
        let anchors =
            o.by.iter()
                .filter(|b| !b.value.trim().starts_with("reading:"))
                .map(|b| (b.value.trim(), &b.referenced))
                .chain(
                    o.cites
                        .iter()
                        .map(|c| (c.at.value.as_str(), &c.at.referenced)),
                );
        for (anchor, at) in anchors {
            if !corpus.encodings.contains_key(anchor) && Self::anchor_known(corpus, anchor) {
                self.diags.push(
                    Place::at(path, at),
                    "engine-with-source",
                    format!(
                        "option `{}` is marked as an engine's behaviour (`engine:`), but `{anchor}` is a source's words, not an encoding's: an option a source supports is a reading of that source; drop `engine:` or the anchor",
                        o.id.value
                    ),
                );
            }
        }
        engine.value.trim().to_owned()
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
                let register = self.readings_taken(path, &o.register, &c.addresses, corpus);
                let engine = o
                    .engine
                    .as_ref()
                    .map(|e| self.engine_option(path, e, o, corpus));
                options.push(ChoiceOption {
                    id: o.id.value.clone(),
                    says: o.says.clone(),
                    by,
                    cites,
                    sets,
                    register,
                    engine,
                });
            }
            let addresses = self.addresses(path, &c.addresses, corpus);
            choices.push(Choice {
                id: c.id.value.clone(),
                question: c.question.clone(),
                cites,
                addresses,
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
            let register = self.readings_taken(path, &c.register, &c.addresses, corpus);
            clauses.push(Clause {
                id: c.id.value.clone(),
                says: c.says.clone(),
                cites,
                by,
                sets,
                open: c.open.iter().map(|o| o.value.clone()).collect(),
                addresses: self.addresses(path, &c.addresses, corpus),
                register,
            });
        }
        let declined = self.coverage(path, f, corpus);

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
            declined,
        })
    }

    /// Checks `addresses:` ids against the register.
    fn addresses(&mut self, path: &str, ids: &[Sp<String>], corpus: &Corpus) -> Vec<String> {
        for a in ids {
            if !corpus.points.contains_key(&a.value) {
                self.dangling_point(path, a, corpus, "point");
            }
        }
        ids.iter().map(|a| a.value.clone()).collect()
    }

    /// Checks a `register:` list: each reading exists and belongs to a point that the same
    /// clause or choice addresses (directly, or through an encoding note that is the same
    /// point).
    fn readings_taken(
        &mut self,
        path: &str,
        readings: &[Sp<String>],
        addresses: &[Sp<String>],
        corpus: &Corpus,
    ) -> Vec<String> {
        for r in readings {
            let Some((point, _)) = corpus.point_reading(&r.value) else {
                let all: Vec<&String> = addresses
                    .iter()
                    .filter_map(|a| corpus.points.get(&a.value))
                    .flat_map(|p| p.effective_readings(corpus).iter().map(|r| &r.id))
                    .collect();
                self.diags.push(
                    Place::at(path, &r.referenced),
                    "dangling-reading",
                    format!(
                        "no register reading `{}`; the readings of the points addressed here are: {}",
                        r.value,
                        if all.is_empty() {
                            "none (address a point first)".to_owned()
                        } else {
                            all.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                        }
                    ),
                );
                continue;
            };
            let covered = addresses.iter().any(|a| {
                a.value == point.id
                    || corpus
                        .points
                        .get(&a.value)
                        .is_some_and(|p| p.same_as.as_deref() == Some(point.id.as_str()))
            });
            if !covered {
                self.diags.push(
                    Place::at(path, &r.referenced),
                    "reading-outside-point",
                    format!(
                        "`{}` is a reading of `{}`, which this clause or choice does not address; add `{}` to its `addresses:`",
                        r.value, point.id, point.id
                    ),
                );
            }
        }
        readings.iter().map(|r| r.value.clone()).collect()
    }

    /// Every reading of every point the ruleset addresses is offered (by an option or a
    /// clause) or declined with a reason; nothing is both.
    fn coverage(&mut self, path: &str, f: &raw::RulesetFile, corpus: &Corpus) -> Vec<Declined> {
        let mut offered: HashSet<&str> = HashSet::new();
        for c in &f.rules {
            offered.extend(c.register.iter().map(|r| r.value.as_str()));
        }
        for c in &f.choices {
            for o in &c.options {
                offered.extend(o.register.iter().map(|r| r.value.as_str()));
            }
        }
        let mut declined: HashMap<&str, Place> = HashMap::new();
        let mut out = Vec::new();
        for d in &f.declined {
            let here = Place::at(path, &d.reading.referenced);
            if corpus.point_reading(&d.reading.value).is_none() {
                let all: Vec<&String> = corpus
                    .points
                    .values()
                    .flat_map(|p| p.readings.iter().map(|r| &r.id))
                    .collect();
                let near = closest(&d.reading.value, &all, |k| vec![(*k).clone()]);
                self.diags.push(
                    here,
                    "dangling-reading",
                    format!(
                        "no register reading `{}`{}",
                        d.reading.value,
                        if near.is_empty() {
                            String::new()
                        } else {
                            format!("; did you mean `{}`?", near[0])
                        }
                    ),
                );
                continue;
            }
            if offered.contains(d.reading.value.as_str()) {
                self.diags.push(
                    here.clone(),
                    "declined-and-offered",
                    format!("`{}` is declined here but an option or clause offers it (`register:`); drop one", d.reading.value),
                );
            }
            if d.why.trim().is_empty() {
                self.diags.push(
                    here.clone(),
                    "missing-field",
                    format!("declining `{}` needs a reason (`why:`)", d.reading.value),
                );
            }
            if let Some(prev) = declined.insert(d.reading.value.as_str(), here.clone()) {
                self.diags.push(
                    here,
                    "duplicate-id",
                    format!("`{}` is already declined at {prev}", d.reading.value),
                );
                continue;
            }
            out.push(Declined {
                reading: d.reading.value.clone(),
                why: d.why.clone(),
            });
        }
        // The points addressed, each with its first place.
        let mut addressed: IndexMap<&str, &Sp<String>> = IndexMap::new();
        for a in f
            .rules
            .iter()
            .flat_map(|c| c.addresses.iter())
            .chain(f.choices.iter().flat_map(|c| c.addresses.iter()))
        {
            addressed.entry(a.value.as_str()).or_insert(a);
        }
        for (id, at) in &addressed {
            let Some(point) = corpus.points.get(*id) else {
                continue;
            };
            let missing: Vec<&str> = point
                .effective_readings(corpus)
                .iter()
                .map(|r| r.id.as_str())
                .filter(|r| !offered.contains(r) && !declined.contains_key(r))
                .collect();
            if !missing.is_empty() {
                self.diags.push(
                    Place::at(path, &at.referenced),
                    "reading-not-offered",
                    format!(
                        "point `{id}` is addressed here, but its reading{} {} {} neither offered by an option or clause (`register: [{}]`) nor declined (`declined: - reading: {} / why: ...`)",
                        if missing.len() == 1 { "" } else { "s" },
                        missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "),
                        if missing.len() == 1 { "is" } else { "are" },
                        missing[0],
                        missing[0],
                    ),
                );
            }
        }
        out
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
            if let Some(own) = &interp.basis {
                for b in own {
                    if !Self::anchor_known(corpus, &b.value) {
                        self.dangling(
                            path,
                            b,
                            "source (work, passage, evidence record or encoding) for a basis",
                            corpus
                                .works
                                .iter()
                                .map(|w| &w.id)
                                .chain(corpus.passages.keys())
                                .chain(corpus.evidence.keys())
                                .chain(corpus.encodings.keys()),
                        );
                    }
                }
                if own.is_empty() {
                    self.diags.push(
                        Place::at(path, &interp.id.referenced),
                        "missing-basis",
                        format!(
                            "interpretation `{id}` has an empty `basis:`: name the sources it reads"
                        ),
                    );
                }
            }
            let basis: Vec<String> = chain
                .iter()
                .rev()
                .find_map(|l| l.basis.as_ref())
                .map(|b| b.iter().map(|x| x.value.clone()).collect())
                .unwrap_or_default();
            if basis.is_empty() && !broken && interp.basis.is_none() {
                self.diags.push(
                    Place::at(path, &interp.id.referenced),
                    "missing-basis",
                    format!(
                        "interpretation `{id}` does not say which sources it reads (`basis:`, e.g. [davies-1925#{}]), nor does any reading it extends",
                        f.id.value
                    ),
                );
            }
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
                basis,
                provenance: Provenance::default(),
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

/// Checks a point id against the scheme: `UB-07` (open), `UB-S01` (settled), `UB-D01`
/// (departed) with the game's prefix; `ENC-n.k` for an encoding's notes; `G-n` and `LX-n`
/// only in `general.yaml`.
fn point_id_fits(id: &str, status: PointStatus, game: Option<&str>) -> Result<(), String> {
    let prefix = game.and_then(|g| {
        GAME_IDS
            .iter()
            .position(|x| *x == g)
            .map(|i| POINT_PREFIXES[i])
    });
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if let Some(rest) = id.strip_prefix("ENC-") {
        let ok = rest
            .split_once('.')
            .is_some_and(|(a, b)| digits(a) && digits(b));
        return match (ok, status) {
            (false, _) => Err(format!(
                "`{id}`: an encoding note's id is `ENC-<section>.<item>` (e.g. ENC-3.1)"
            )),
            (true, PointStatus::Encoding) => Ok(()),
            (true, _) => Err(format!(
                "`{id}` names an encoding's note: its status must be `encoding`"
            )),
        };
    }
    if let Some(rest) = id.strip_prefix("G-").or_else(|| id.strip_prefix("LX-")) {
        return if game.is_some() {
            Err(format!(
                "`{id}` is a point shared by several games: it belongs in rulesets/register/general.yaml"
            ))
        } else if !digits(rest) {
            Err(format!(
                "`{id}`: expected a number after the prefix (e.g. G-4, LX-1)"
            ))
        } else {
            Ok(())
        };
    }
    let Some(prefix) = prefix else {
        return Err(format!(
            "`{id}`: general.yaml holds G-n, LX-n and ENC-1.n points; a game's points belong in its own register file"
        ));
    };
    let Some(rest) = id.strip_prefix(prefix).and_then(|r| r.strip_prefix('-')) else {
        return Err(format!(
            "`{id}`: this game's points are `{prefix}-NN` (open), `{prefix}-SNN` (settled), `{prefix}-DNN` (departed) or `ENC-n.k`"
        ));
    };
    let (want, num) = match rest.as_bytes().first() {
        Some(b'S') => (PointStatus::Settled, &rest[1..]),
        Some(b'D') => (PointStatus::Departed, &rest[1..]),
        _ => (PointStatus::Open, rest),
    };
    if !digits(num) {
        return Err(format!(
            "`{id}`: expected `{prefix}-NN`, `{prefix}-SNN` or `{prefix}-DNN`"
        ));
    }
    if want != status {
        return Err(format!(
            "`{id}`: the id says {} but the status is {}",
            status_name(want),
            status_name(status)
        ));
    }
    Ok(())
}

fn status_name(s: PointStatus) -> &'static str {
    match s {
        PointStatus::Open => "open",
        PointStatus::Settled => "settled",
        PointStatus::Departed => "departed",
        PointStatus::Encoding => "encoding",
    }
}

/// The point-id prefix of each game, in the order of [`GAME_IDS`].
const POINT_PREFIXES: [&str; 7] = ["SJ", "BG", "TW", "UB", "HY", "ST", "LA"];

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

/// Whether a text is a date `YYYY-MM-DD` with a month 01–12 and a day 01–31.
fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| r.clone().all(|i| b[i].is_ascii_digit());
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && (1..=12).contains(&s[5..7].parse::<u32>().unwrap_or(0))
        && (1..=31).contains(&s[8..10].parse::<u32>().unwrap_or(0))
}
