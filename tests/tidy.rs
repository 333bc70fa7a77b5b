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
        |p| !p.ends_with("src/flags.rs"),
        Read::Code,
        &needles,
    );
}

/// Every command plays its games through `cli::exec` (so that each can be stored, resumed,
/// planned, sharded and merged): the runner is called from one place in the command line,
/// `cli/run.rs`'s `Simulate`, which hands the executor to it, and no command plays an
/// agent's game or a block itself.
#[test]
fn commands_play_only_through_the_executor() {
    let mut calls = Vec::new();
    for (path, text) in sources("src/cli") {
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
        "the runner called from the command line: {calls:#?}"
    );
    assert!(
        calls[0].contains("cli/run.rs") && calls[0].contains("sim::run_blocks("),
        "{calls:?}"
    );
}
