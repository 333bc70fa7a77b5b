//! `ludotrace store` (what a store holds, its results exported, pruning), a store opened
//! read-only, a store of an earlier schema, and `report --check`, which never uses one.

use std::path::Path;

use crate::util::{bin, fresh_store, mini_corpus, run};

/// `ludotrace ARGS` with the store at `store`, which must succeed: (stdout, stderr).
fn with(store: &Path, args: &[&str]) -> (String, String) {
    let (code, out, err) = run(bin().env("LUDOTRACE_STORE", store).args(args));
    assert_eq!(code, 0, "ludotrace {args:?}: {err}");
    (out, err)
}

/// `ludotrace ARGS` with the store at `store`, which must fail with 2: its stderr.
fn refused(store: &Path, args: &[&str]) -> String {
    let (code, out, err) = run(bin().env("LUDOTRACE_STORE", store).args(args));
    assert_eq!(code, 2, "ludotrace {args:?}: {out}{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

const RUN: [&str; 5] = ["run", "um-el-bagara", "--all-interpretations", "-n", "300"];

#[test]
fn store_shows_exports_and_prunes_what_commands_stored() {
    let store = fresh_store();
    let (none, _) = with(&store, &["store"]);
    assert!(none.contains("no results store at"), "{none}");
    assert!(!store.exists(), "looking makes no store");
    let (table, _) = with(&store, &RUN);
    with(&store, &["flags", "um-el-bagara", "-n", "100"]);
    let summary: serde_json::Value =
        serde_json::from_str(&with(&store, &["store", "--format", "json"]).0).unwrap();
    let commands: Vec<&str> = summary["by_command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(commands, ["flags", "run"]);
    // 300 games of a reading in one row, not in the runner's 60 blocks of 5.
    let rows = summary["rows"].as_u64().unwrap();
    let runs = summary["runs"].as_u64().unwrap();
    assert!(rows <= runs + 2, "{rows} rows for {runs} runs");
    assert!(summary["bytes"].as_u64().unwrap() > 0);
    let (text, _) = with(&store, &["store"]);
    assert!(
        text.contains("Results store") && text.contains("flags"),
        "{text}"
    );
    // The export's davies seat-1 rate is the one `run` printed, with its interval.
    let (csv, _) = with(&store, &["store", "export"]);
    assert!(csv.starts_with("run,game,reading,"), "{csv}");
    let davies = csv
        .lines()
        .find(|l| {
            l.contains(",davies,") && l.contains(",run,0,300,300,1,") && l.contains("seat1_wins")
        })
        .unwrap_or_else(|| panic!("{csv}"));
    let cells: Vec<&str> = davies.rsplit(',').take(3).collect();
    let pct = |s: &str| format!("{:.1}", s.parse::<f64>().unwrap() * 100.0);
    let (hi, lo, est) = (pct(cells[0]), pct(cells[1]), pct(cells[2]));
    let shown = format!("{est} % [{lo}–{hi} %]");
    assert!(
        table
            .lines()
            .any(|l| l.contains("davies") && l.contains(&shown)),
        "{shown} not in\n{table}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&with(&store, &["store", "export", "--format", "json"]).0).unwrap();
    assert_eq!(json["schema_version"], 1);
    assert!(json["results"].as_array().unwrap().len() as u64 == runs);
    // Prune flags's runs: run's stay, and a rerun still takes all its games.
    let (pruned, _) = with(&store, &["store", "prune", "--command", "flags"]);
    assert!(pruned.starts_with("removed "), "{pruned}");
    let after: serde_json::Value =
        serde_json::from_str(&with(&store, &["store", "--format", "json"]).0).unwrap();
    assert_eq!(after["by_command"].as_array().unwrap().len(), 1);
    let (again, err) = with(&store, &RUN);
    assert_eq!(again, table);
    assert!(err.contains("taken from the results store"), "{err}");
    let err = refused(&store, &["store", "prune"]);
    assert!(err.contains("--older-than"), "{err}");
    let err = refused(&store, &["store", "prune", "--game", "chess"]);
    assert!(err.contains("`chess` is not a game"), "{err}");
}

#[test]
fn a_read_only_store_serves_what_it_holds_and_says_once_that_nothing_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("archive.sqlite");
    let (first, _) = with(&store, &RUN);
    let mut mode = std::fs::metadata(&store).unwrap().permissions();
    mode.set_readonly(true);
    std::fs::set_permissions(&store, mode).unwrap();
    let before = std::fs::read(&store).unwrap();
    let (again, err) = with(&store, &RUN);
    assert_eq!(again, first);
    assert_eq!(err.matches("read-only").count(), 1, "{err}");
    assert!(
        err.contains("not saved") && err.contains("taken from"),
        "{err}"
    );
    // New games are played, and not kept.
    let (_, err) = with(&store, &["run", "um-el-bagara", "-n", "50"]);
    assert!(err.contains("not saved"), "{err}");
    assert_eq!(std::fs::read(&store).unwrap(), before, "not written");
    let (text, _) = with(&store, &["store"]);
    assert!(text.contains("(read-only)"), "{text}");
    let err = refused(&store, &["store", "prune", "--older-than", "0"]);
    assert!(err.contains("read-only"), "{err}");
}

#[test]
fn a_store_of_an_earlier_schema_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("old.sqlite");
    let conn = rusqlite::Connection::open(&store).unwrap();
    conn.execute_batch(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); \
         INSERT INTO meta VALUES ('schema_version', '1'); CREATE TABLE blocks (id INTEGER);",
    )
    .unwrap();
    drop(conn);
    let err = refused(&store, &["run", "um-el-bagara", "-n", "10"]);
    assert!(
        err.contains("old.sqlite") && err.contains("schema version 1") && err.contains("Move"),
        "{err}"
    );
}

#[test]
fn report_check_neither_reads_nor_writes_the_store() {
    let corpus = mini_corpus();
    let out = tempfile::tempdir().unwrap();
    let store = fresh_store();
    let c = corpus.path().to_str().unwrap();
    let o = out.path().to_str().unwrap();
    let report = |check: bool| {
        let mut args = vec![
            "--corpus",
            c,
            "report",
            "um-el-bagara",
            "--out",
            o,
            "-n",
            "5",
        ];
        if check {
            args.push("--check");
        }
        run(bin().env("LUDOTRACE_STORE", &store).args(&args))
    };
    let (code, _, err) = report(false);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read(&store).unwrap();
    let (code, _, err) = report(true);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("taken from the results store"), "{err}");
    assert_eq!(std::fs::read(&store).unwrap(), before);
}

#[test]
fn a_prune_age_that_is_not_a_number_is_refused_in_plain_words() {
    let store = fresh_store();
    let err = refused(&store, &["store", "prune", "--older-than", "a-month"]);
    assert!(
        err.contains("expected a whole number of days (0 or more), not \"a-month\""),
        "{err}"
    );
    assert!(!err.contains("invalid digit"), "{err}");
    assert!(!store.exists(), "a refused prune makes no store");
}
