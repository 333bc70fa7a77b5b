//! The architecture's invariants, checked (as rust-analyzer's tidy tests do): a boundary that
//! ARCHITECTURE.md states and nothing checks is a boundary in name only.

use ludotrace::family::Family;
use ludotrace::registry::{EngineVisitor, FamilyParams, FamilyVisitor, GameFamily};

use crate::util::root;

/// Every `.rs` file under `dir` (relative to the repository), with its text.
fn sources(dir: &str) -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path.display().to_string(), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(dir), &mut out);
    assert!(!out.is_empty(), "no sources under {dir}");
    out
}

/// Which text of a line a check reads.
#[derive(Clone, Copy)]
enum Read {
    /// The code only (comments and doc comments left out).
    Code,
    /// The whole line, comments included.
    All,
}

/// The lines of `files` that contain one of `needles`, as `path:line: text`, skipping files
/// for which `skip(path)` holds; and an assertion listing them under `what`.
fn assert_none(
    what: &str,
    files: &[(String, String)],
    skip: impl Fn(&str) -> bool,
    read: Read,
    needles: &[&str],
) {
    let mut found = Vec::new();
    for (path, text) in files.iter().filter(|(p, _)| !skip(p)) {
        for (n, line) in text.lines().enumerate() {
            let seen = match read {
                Read::Code => line.split("//").next().unwrap_or_default(),
                Read::All => line,
            };
            if needles.iter().any(|needle| seen.contains(needle)) {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

/// The engines know nothing of files, serialisation formats, the command line or the corpus.
#[test]
fn engines_know_no_files_formats_command_line_or_corpus() {
    assert_none(
        "src/games must stay pure",
        &sources("src/games"),
        |_| false,
        Read::Code,
        &[
            "serde",
            "clap",
            "std::fs",
            "std::io",
            "std::path",
            "std::env",
            "std::{",
            "File::",
            "crate::corpus",
            "crate::cli",
            "crate::bind",
            "crate::ludii",
            "crate::registry",
            "crate::sim",
            "rand::",
        ],
    );
}

/// Engines and their vocabularies never branch on interpretation ids: every behaviour that
/// tells two readings apart is a parameter.
#[test]
fn engines_never_name_a_reading() {
    let corpus = ludotrace::corpus::load(&ludotrace::corpus::CorpusFiles::embedded())
        .corpus
        .unwrap();
    let ids: std::collections::BTreeSet<String> = corpus
        .games
        .iter()
        .flat_map(|g| g.interpretations.iter().map(|i| format!("\"{}\"", i.id)))
        .collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut files = sources("src/games");
    files.extend(sources("src/family"));
    files.extend(sources("src/sim"));
    assert_none(
        "a reading named in an engine",
        &files,
        |_| false,
        Read::Code,
        &ids,
    );
}

/// Raw YAML types never leave `corpus`.
#[test]
fn raw_corpus_types_stay_in_corpus() {
    let mut files = sources("src");
    files.extend(sources("tests"));
    files.extend(sources("benches"));
    assert_none(
        "raw corpus types outside corpus",
        &files,
        |p| p.contains("/src/corpus/") || p.ends_with("tidy.rs"),
        Read::All,
        &["raw::"],
    );
}

/// The hand-written kernels are a yardstick for benches and tests: nothing the command line
/// runs plays one.
#[test]
fn only_benches_and_tests_use_the_kernels() {
    assert_none(
        "kernels used outside benches and tests",
        &sources("src"),
        |p| p.contains("/src/kernels/") || p.ends_with("/src/lib.rs"),
        Read::Code,
        &["kernels"],
    );
}

/// Only `cli` and `main` know about argv and terminals.
#[test]
fn only_the_cli_knows_the_command_line() {
    assert_none(
        "command-line code outside cli",
        &sources("src"),
        |p| p.contains("/src/cli/") || p.ends_with("/src/main.rs"),
        Read::Code,
        &["clap", "IsTerminal", "std::env::args"],
    );
}

/// Every parameter an event kind names as deciding it is a parameter of its family, so that
/// an uncovered event always points at a real parameter.
#[test]
fn every_events_deciding_parameters_exist_in_its_family() {
    struct Check;
    impl FamilyVisitor for Check {
        type Output = Vec<String>;
        fn visit<F: GameFamily>(self) -> Vec<String> {
            use ludotrace::games::{Event, EventKind, Rules};
            type Kind<F> = <<<F as GameFamily>::Rules as Rules>::Event as Event>::Kind;
            let names: Vec<&str> = F::Params::PARAMS.iter().map(|p| p.name).collect();
            let mut bad = Vec::new();
            for kind in <Kind<F> as EventKind>::ALL {
                for p in kind.params() {
                    if !names.contains(p) {
                        bad.push(format!("{} event {}: {p}", F::FAMILY, kind.name()));
                    }
                }
            }
            for p in <Kind<F> as EventKind>::ENDLESS_PARAMS {
                if !names.contains(p) {
                    bad.push(format!("{} endless: {p}", F::FAMILY));
                }
            }
            bad
        }
    }
    let bad: Vec<String> = Family::ALL.iter().flat_map(|f| f.visit(Check)).collect();
    assert!(
        bad.is_empty(),
        "events name no such parameter:\n{}",
        bad.join("\n")
    );
}

/// Nothing outside the registry dispatches on families: a new family is one registry line.
#[test]
fn only_the_registry_matches_on_families() {
    let needles: Vec<String> = ["Sowing", "Custodial", "StickRace", "SpiralRace"]
        .iter()
        .flat_map(|f| [format!("Engine::{f}("), format!("Family::{f} =>")])
        .collect();
    let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
    assert_none(
        "dispatch on families outside the registry",
        &sources("src"),
        |p| p.ends_with("/src/registry.rs"),
        Read::Code,
        &needles,
    );
}

/// The code cites nothing outside the repository (its doc comments are published by
/// `ludotrace schema` and rustdoc).
#[test]
fn the_code_cites_only_the_repository() {
    assert_none(
        "citations outside the repository",
        &sources("src"),
        |_| false,
        Read::All,
        &[
            "DESIGN §",
            "DESIGN.md",
            "source-ambiguities",
            "ludii-encodings §",
            "../shared",
        ],
    );
}

/// The registry's two dispatchers agree: every family's engine reports that family.
#[test]
fn the_registry_dispatches_each_family_to_itself() {
    struct Which;
    impl EngineVisitor for Which {
        type Output = Family;
        fn visit<F: GameFamily>(self, _: &F::Rules) -> Family {
            F::FAMILY
        }
    }
    let corpus = ludotrace::corpus::load(&ludotrace::corpus::CorpusFiles::embedded())
        .corpus
        .unwrap();
    for game in &corpus.games {
        let bound =
            ludotrace::bind::bind(game, &game.interpretations[0], &serde_json::Map::new()).unwrap();
        assert_eq!(bound.engine.visit(Which), game.family, "{}", game.id);
        assert_eq!(bound.engine.family(), game.family, "{}", game.id);
        // The id the registry gives a family is the one rulesets write.
        assert_eq!(
            serde_json::to_value(game.family).unwrap(),
            serde_json::Value::String(game.family.id().to_owned())
        );
    }
}

/// ARCHITECTURE.md cites nothing outside the repository.
#[test]
fn architecture_cites_only_the_repository() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    assert_none(
        "ARCHITECTURE.md cites outside the repository",
        &[("ARCHITECTURE.md".to_owned(), text)],
        |_| false,
        Read::All,
        &["DESIGN", "shared/", "source-ambiguities", "../"],
    );
}

/// `sensitivity` plays no game: it sees observations, never an engine, a reading or the
/// simulator (ARCHITECTURE.md, `src/sensitivity.rs`).
#[test]
fn sensitivity_plays_no_game() {
    let files = sources("src");
    assert_none(
        "sensitivity reaching for games",
        &files,
        |p| !p.ends_with("src/sensitivity.rs"),
        Read::Code,
        &[
            "crate::games",
            "crate::bind",
            "crate::corpus",
            "run_games",
            "playout",
            "Rules",
        ],
    );
}

/// `solve` draws nothing at random and runs on no threads of its own, so an exact value and
/// its principal variation are functions of the position alone (ARCHITECTURE.md, `src/solve/`).
#[test]
fn solve_draws_nothing_and_spawns_nothing() {
    assert_none(
        "solve reaching for chance or threads",
        &sources("src/solve"),
        |_| false,
        Read::Code,
        &["rand::", "rng", "rayon", "thread", "HashMap"],
    );
}

/// No figure that reaches an output calls the platform's maths library: logarithms,
/// exponentials and powers go through `stats::portable` (libm), the same bits everywhere
/// (ARCHITECTURE.md, `src/stats/portable.rs`).
#[test]
fn the_platforms_maths_is_not_called() {
    let files = sources("src");
    assert_none(
        "the platform's ln, exp or powers, outside stats::portable",
        &files,
        |p| p.ends_with("src/stats/portable.rs"),
        Read::Code,
        &[
            ".ln()", ".exp()", ".ln_1p()", ".powi(", ".powf(", ".log10()", ".exp2()",
        ],
    );
}

/// Flags are found from the corpus's structure: `flags.rs` names no game, choice or
/// register point of the built-in corpus (ARCHITECTURE.md, `src/flags.rs`).
#[test]
fn flags_name_no_known_point() {
    let files = sources("src");
    let mut needles: Vec<&str> = ludotrace::corpus::GAME_IDS.to_vec();
    needles.extend([
        "borrowing-basis",
        "left-hole",
        "well-cost",
        "\"UB-",
        "\"HY-",
        "\"LX-",
        "\"ENC-",
        "\"davies\"",
        "\"ludii\"",
    ]);
    assert_none(
        "flags naming known points",
        &files,
        |p| !p.ends_with("src/analysis/flags/found.rs"),
        Read::Code,
        &needles,
    );
}

/// Every command plays its games through the executor, `exec` (so that each can be stored,
/// resumed, planned, sharded and merged): above the simulation the runner is called from one
/// place, `analysis/play.rs`'s `Simulate`, which hands the executor to it, and no analysis,
/// printer or command plays an agent's game or a block itself.
#[test]
fn commands_play_only_through_the_executor() {
    let mut calls = Vec::new();
    let mut files = sources("src/cli");
    for layer in ["src/analysis", "src/exec", "src/present"] {
        files.extend(sources(layer));
    }
    for (path, text) in files {
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for call in [
                "run_blocks(",
                "run_games(",
                "sim::run(",
                "sim::block(",
                "block_of(",
                "play_game(",
            ] {
                if code.contains(call) {
                    calls.push(format!("{path}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert_eq!(
        calls.len(),
        1,
        "the runner called above the simulation: {calls:#?}"
    );
    assert!(
        calls[0].contains("analysis/play.rs") && calls[0].contains("sim::run_blocks("),
        "{calls:?}"
    );
}

/// The module graph of `src/`: for every file, the modules its `use crate::…` trees (grouped
/// ones too) and inline `crate::`, `$crate::`, `super::` and `self::` paths name. An edge is
/// kept between siblings only (a module and its own submodules are one unit), so the graph
/// of each folder is the imports between its entries.
mod graph {
    use std::collections::{BTreeMap, BTreeSet};

    /// A module path (`["analysis", "diff"]`; the crate root is empty).
    pub type Module = Vec<String>;

    /// Every module of `src/` (but the binary's `main.rs`), with its code (comments and the
    /// contents of string literals blanked).
    pub fn modules(src: &std::path::Path) -> BTreeMap<Module, String> {
        fn walk(dir: &std::path::Path, rel: &[String], out: &mut BTreeMap<Module, String>) {
            let mut entries: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            entries.sort();
            for path in entries {
                let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                if path.is_dir() {
                    let mut r = rel.to_vec();
                    r.push(name);
                    walk(&path, &r, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let mut m = rel.to_vec();
                    match (rel.is_empty(), name.as_str()) {
                        (true, "main") => continue,
                        (true, "lib") | (false, "mod") => {}
                        _ => m.push(name),
                    }
                    out.insert(m, code_of(&std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(src, &[], &mut out);
        out
    }

    /// `text` with comments removed and string and character literals emptied, so that a
    /// path in a doc comment or a message is not an import.
    pub fn code_of(text: &str) -> String {
        let c: Vec<char> = text.chars().collect();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < c.len() {
            match c[i] {
                '/' if c.get(i + 1) == Some(&'/') => {
                    while i < c.len() && c[i] != '\n' {
                        i += 1;
                    }
                }
                '/' if c.get(i + 1) == Some(&'*') => {
                    i += 2;
                    while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                        i += 1;
                    }
                    i += 2;
                }
                'r' if (c.get(i + 1) == Some(&'"') || c.get(i + 1) == Some(&'#'))
                    && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_')) =>
                {
                    let mut j = i + 1;
                    let mut hashes = 0;
                    while c.get(j) == Some(&'#') {
                        hashes += 1;
                        j += 1;
                    }
                    if c.get(j) != Some(&'"') {
                        out.push(c[i]);
                        i += 1;
                        continue;
                    }
                    j += 1;
                    loop {
                        if j >= c.len() {
                            break;
                        }
                        if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                            j += 1 + hashes;
                            break;
                        }
                        j += 1;
                    }
                    out.push_str("\"\"");
                    i = j;
                }
                '"' => {
                    i += 1;
                    while i < c.len() && c[i] != '"' {
                        if c[i] == '\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                    out.push_str("\"\"");
                }
                '\'' if c.get(i + 1) == Some(&'\\') => {
                    i += 2;
                    while i < c.len() && c[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                    out.push_str("' '");
                }
                '\'' if c.get(i + 2) == Some(&'\'') => {
                    i += 3;
                    out.push_str("' '");
                }
                ch => {
                    out.push(ch);
                    i += 1;
                }
            }
        }
        out
    }

    /// The paths a use tree names: `crate::{a, b::{c, d as e}}` is `crate::a`, `crate::b::c`,
    /// `crate::b::d`.
    pub fn expand(tree: &str) -> Vec<String> {
        let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
        let Some(open) = tree.find('{') else {
            let path = tree.split(" as ").next().unwrap_or("");
            let path = path.split("as").next().unwrap_or(path);
            return vec![path.trim_end_matches("::").to_owned()];
        };
        let prefix = &tree[..open];
        let inner = &tree[open + 1..tree.len() - 1];
        let mut parts = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (k, ch) in inner.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..k]);
                    start = k + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[start..]);
        parts
            .into_iter()
            .filter(|p| !p.is_empty())
            .flat_map(|p| expand(&format!("{prefix}{p}")))
            .collect()
    }

    /// Every path of the crate that `code` names: use trees and inline paths.
    pub fn paths(code: &str) -> Vec<String> {
        let mut out = Vec::new();
        let b = code.as_bytes();
        let word = |k: usize| k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_');
        let mut k = 0;
        while let Some(at) = code[k..].find("use ") {
            let s = k + at;
            k = s + 4;
            if s > 0 && word(s - 1) {
                continue;
            }
            let rest = code[k..].trim_start();
            if !(rest.starts_with("crate") || rest.starts_with("super") || rest.starts_with("self"))
            {
                continue;
            }
            let end = code[k..].find(';').map_or(code.len(), |e| k + e);
            out.extend(expand(&code[k..end]));
        }
        for root in ["crate::", "super::", "self::"] {
            let mut k = 0;
            while let Some(at) = code[k..].find(root) {
                let s = k + at;
                k = s + root.len();
                if s > 0 && word(s - 1) {
                    continue;
                }
                let mut e = s;
                while e < b.len() && (word(e) || b[e] == b':') {
                    e += 1;
                }
                out.push(code[s..e].trim_end_matches(':').to_owned());
            }
        }
        // A use tree's paths are also found inline; a bare root (`crate::{…}` read inline)
        // names no module.
        out.retain(|p| p.contains("::"));
        out.sort();
        out.dedup();
        out
    }

    /// The edges between siblings: parent module → (from entry, to entry).
    pub fn edges(mods: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<(String, String)>> {
        let mut out: BTreeMap<Module, BTreeSet<(String, String)>> = BTreeMap::new();
        for (m, code) in mods {
            for p in paths(code) {
                let mut segs = p.split("::").filter(|s| !s.is_empty());
                let mut full: Module = match segs.next() {
                    Some("crate") => Vec::new(),
                    Some("self") => m.clone(),
                    Some("super") => m[..m.len().saturating_sub(1)].to_vec(),
                    _ => continue,
                };
                for s in segs {
                    if s == "super" {
                        full.pop();
                    } else {
                        full.push(s.to_owned());
                    }
                }
                let Some(target) = (0..=full.len())
                    .rev()
                    .map(|n| &full[..n])
                    .find(|t| mods.contains_key(*t))
                else {
                    continue;
                };
                let c = m.iter().zip(target).take_while(|(a, b)| a == b).count();
                if c == m.len() || c == target.len() {
                    continue;
                }
                out.entry(m[..c].to_vec())
                    .or_default()
                    .insert((m[c].clone(), target[c].clone()));
            }
        }
        out
    }

    /// The cycles of a graph, each as the entries of one strongly connected component of two
    /// or more (Tarjan's algorithm).
    pub fn cycles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
        let nodes: BTreeSet<&String> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
        let nodes: Vec<&String> = nodes.into_iter().collect();
        let ix = |n: &String| nodes.iter().position(|m| *m == n).unwrap();
        let mut adj = vec![Vec::new(); nodes.len()];
        for (a, b) in edges {
            adj[ix(a)].push(ix(b));
        }
        struct T {
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            on: Vec<bool>,
            stack: Vec<usize>,
            next: usize,
            out: Vec<Vec<usize>>,
        }
        fn visit(v: usize, adj: &[Vec<usize>], t: &mut T) {
            t.index[v] = Some(t.next);
            t.low[v] = t.next;
            t.next += 1;
            t.stack.push(v);
            t.on[v] = true;
            for &w in &adj[v] {
                match t.index[w] {
                    None => {
                        visit(w, adj, t);
                        t.low[v] = t.low[v].min(t.low[w]);
                    }
                    Some(i) if t.on[w] => t.low[v] = t.low[v].min(i),
                    _ => {}
                }
            }
            if Some(t.low[v]) == t.index[v] {
                let mut scc = Vec::new();
                while let Some(w) = t.stack.pop() {
                    t.on[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                if scc.len() > 1 {
                    t.out.push(scc);
                }
            }
        }
        let n = nodes.len();
        let mut t = T {
            index: vec![None; n],
            low: vec![0; n],
            on: vec![false; n],
            stack: Vec::new(),
            next: 0,
            out: Vec::new(),
        };
        for v in 0..n {
            if t.index[v].is_none() {
                visit(v, &adj, &mut t);
            }
        }
        t.out
            .into_iter()
            .map(|scc| {
                let mut names: Vec<String> = scc.into_iter().map(|i| nodes[i].clone()).collect();
                names.sort();
                names
            })
            .collect()
    }
}

/// The use trees and inline paths the graph reads, on a sample written for the purpose.
#[test]
fn the_import_graph_reads_every_form_of_path() {
    let code = graph::code_of(
        "use crate::{a, b::{c, d as e}};\nuse super::f::G;\n// use crate::commented;\nfn x() { crate::h::i(); let s = \"crate::in_a_string\"; $crate::j::K; }\n",
    );
    let p = graph::paths(&code);
    assert_eq!(
        p,
        [
            "crate::a",
            "crate::b::c",
            "crate::b::d",
            "crate::h::i",
            "crate::j::K",
            "super::f::G"
        ]
    );
}

/// The layer of each top-level module, from ARCHITECTURE.md's table "Layers" (a line
/// `| N | name | `module`, `module` | …`).
fn layers() -> std::collections::BTreeMap<String, (u32, String)> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut out = std::collections::BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        let Ok(n) = cells[1].parse::<u32>() else {
            continue;
        };
        for m in cells[3].split(',') {
            let m = m.trim().trim_matches('`');
            if !m.is_empty() {
                out.insert(m.to_owned(), (n, cells[2].to_owned()));
            }
        }
    }
    assert!(!out.is_empty(), "ARCHITECTURE.md has no table of layers");
    out
}

/// No module imports one that imports it back, directly or round a circle, among the
/// top-level modules or among the entries of any folder; and every import between top-level
/// modules goes down the layers ARCHITECTURE.md lists (or stays within one).
#[test]
fn the_import_graph_has_no_cycle_and_follows_the_layers() {
    let mods = graph::modules(&root().join("src"));
    let edges = graph::edges(&mods);
    let mut problems = Vec::new();
    for (parent, es) in &edges {
        for cycle in graph::cycles(es) {
            let at = if parent.is_empty() {
                "crate".to_owned()
            } else {
                parent.join("::")
            };
            problems.push(format!(
                "a cycle among {at}'s modules: {}",
                cycle.join(", ")
            ));
        }
    }
    let layers = layers();
    for m in mods.keys().filter(|m| m.len() == 1) {
        if !layers.contains_key(&m[0]) {
            problems.push(format!(
                "module `{}` is in no layer of ARCHITECTURE.md",
                m[0]
            ));
        }
    }
    for (from, to) in edges.get(&Vec::new()).into_iter().flatten() {
        if let (Some((a, an)), Some((b, bn))) = (layers.get(from), layers.get(to))
            && a < b
        {
            problems.push(format!(
                "`{from}` ({an}, layer {a}) imports `{to}` ({bn}, layer {b}), a layer above it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "the import graph:\n{}",
        problems.join("\n")
    );
}

/// Only the corpus (its raw types, the loader and its diagnostics) names the YAML crate:
/// everything else sees validated types.
#[test]
fn only_the_corpus_names_the_yaml_crate() {
    assert_none(
        "the YAML crate outside corpus",
        &sources("src"),
        |p| p.contains("/src/corpus/"),
        Read::Code,
        &["serde_saphyr", "serde-saphyr"],
    );
}

/// The cycle finder finds a circle of three and leaves the edge out of it alone.
#[test]
fn the_cycle_finder_finds_a_circle() {
    let edge = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    let es = [
        edge("a", "b"),
        edge("b", "c"),
        edge("c", "a"),
        edge("c", "d"),
    ]
    .into_iter()
    .collect();
    assert_eq!(graph::cycles(&es), [["a", "b", "c"]]);
    let es = [edge("a", "b"), edge("b", "c")].into_iter().collect();
    assert!(graph::cycles(&es).is_empty());
}
