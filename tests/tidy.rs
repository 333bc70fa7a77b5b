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

/// Lines of code (comments and doc comments left out) that contain `needle`.
fn uses(files: &[(String, String)], needle: &str) -> Vec<String> {
    let mut hits = Vec::new();
    for (path, text) in files {
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if code.contains(needle) {
                hits.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    hits
}

/// The engines know nothing of files, serialisation formats, the command line or the corpus.
#[test]
fn engines_know_no_files_formats_command_line_or_corpus() {
    let games = sources("src/games");
    let mut found = Vec::new();
    for needle in [
        "serde",
        "serde_json",
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
    ] {
        found.extend(uses(&games, needle));
    }
    assert!(
        found.is_empty(),
        "src/games must stay pure:\n{}",
        found.join("\n")
    );
}

/// Raw YAML types never leave `corpus`.
#[test]
fn raw_corpus_types_stay_in_corpus() {
    let mut found = Vec::new();
    for (path, text) in sources("src")
        .iter()
        .chain(&sources("tests"))
        .chain(&sources("benches"))
    {
        if path.contains("/src/corpus/") || path.ends_with("tidy.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            if line.contains("raw::") || line.contains("corpus::raw") {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "raw corpus types outside corpus:\n{}",
        found.join("\n")
    );
}

/// Only `cli` and `main` know about argv and terminals.
#[test]
fn only_the_cli_knows_the_command_line() {
    let mut found = Vec::new();
    for (path, text) in sources("src") {
        if path.contains("/src/cli/") || path.ends_with("/src/main.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if code.contains("clap")
                || code.contains("IsTerminal")
                || code.contains("std::env::args")
            {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "command-line code outside cli:\n{}",
        found.join("\n")
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
    let mut found = Vec::new();
    for (path, text) in sources("src") {
        if path.ends_with("/src/registry.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for family in ["Sowing", "Custodial", "StickRace", "SpiralRace"] {
                if code.contains(&format!("Engine::{family}("))
                    || code.contains(&format!("Family::{family} =>"))
                {
                    found.push(format!("{path}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "dispatch on families outside the registry:\n{}",
        found.join("\n")
    );
}

/// The code cites nothing outside the repository (its doc comments are published by
/// `ludotrace schema` and rustdoc).
#[test]
fn the_code_cites_only_the_repository() {
    let mut found = Vec::new();
    for (path, text) in sources("src") {
        for (n, line) in text.lines().enumerate() {
            for needle in [
                "DESIGN §",
                "DESIGN.md",
                "source-ambiguities",
                "ludii-encodings §",
                "../shared",
            ] {
                if line.contains(needle) {
                    found.push(format!("{path}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "citations outside the repository:\n{}",
        found.join("\n")
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
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for needle in ["DESIGN", "shared/", "source-ambiguities", "../"] {
            if line.contains(needle) {
                found.push(format!("ARCHITECTURE.md:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "ARCHITECTURE.md cites outside the repository:\n{}",
        found.join("\n")
    );
}
