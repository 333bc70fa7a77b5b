//! `ludotrace diff`: a reading against itself finds nothing, the left-hole defect is found,
//! the JSON contract, thread-count invariance, the views, and bad input.

use crate::util::{bin, fails, json, ok, run};

/// The metrics of a diff, by name.
fn metric<'a>(d: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    d["metrics"]
        .as_array()
        .expect("metrics")
        .iter()
        .find(|m| m["metric"] == name)
        .unwrap_or_else(|| panic!("no metric {name}: {d}"))
}

/// An A/A test: the same reading on independent streams. No choice differs, and no metric
/// differs after Holm's correction (at this seed; the family-wise error is at most 5 %).
#[test]
fn a_reading_against_itself_differs_in_nothing() {
    let d = json(&[
        "diff",
        "um-el-bagara",
        "davies",
        "davies",
        "-n",
        "2000",
        "--format",
        "json",
    ]);
    assert_eq!(d["rules"].as_array().unwrap().len(), 0, "{d}");
    // (A metric's own 95 % interval may miss 0 by chance, one in twenty: the verdict is
    // Holm's, across all of them.)
    for m in d["metrics"].as_array().unwrap() {
        assert_eq!(m["verdict"], "no difference detected", "{m}");
    }
    // Independent streams: the two arms did not play the same games.
    let plies = metric(&d, "plies_mean");
    assert_ne!(plies["a"], plies["b"], "{plies}");
}

/// Ludii 1.0.8's left-hole defect (seat 1 can never sow its left house) against the reading
/// Ludii intended: the choice is listed, and the first player's advantage is found.
#[test]
fn the_left_hole_defect_changes_who_wins() {
    let d = json(&[
        "diff",
        "um-el-tuweisat",
        "ludii-1.0.8",
        "ludii-intended",
        "-n",
        "2000",
        "--format",
        "json",
    ]);
    let rules = d["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 1, "{d}");
    assert_eq!(rules[0]["choice"], "ludii-left-hole");
    assert_eq!(rules[0]["a"]["option"], "quirk");
    assert_eq!(rules[0]["b"]["option"], "intended");
    assert!(rules[0]["a"]["class"].is_string() && rules[0]["b"]["says"].is_string());
    let first = metric(&d, "first_mover_win");
    assert_eq!(first["verdict"], "differs", "{first}");
    assert!(first["a"].as_f64().unwrap() > 0.9, "{first}");
    assert!(
        first["difference"]["hi"].as_f64().unwrap() < -0.3,
        "{first}"
    );
    assert!(first["p_adjusted"].as_f64().unwrap() < 0.001, "{first}");
}

/// The published contract: its fields, every seat's win rate, the lengths and the events,
/// and its schema in `ludotrace schema`.
#[test]
fn json_is_the_published_contract() {
    let d = json(&[
        "diff",
        "seega",
        "davies",
        "dlp",
        "-n",
        "300",
        "--seed",
        "7",
        "--set-b",
        "cap={\"moves\": 2000, \"outcome\": \"draw\"}",
        "--format",
        "json",
    ]);
    for field in [
        "schema_version",
        "ludotrace",
        "corpus_hash",
        "game",
        "a",
        "b",
        "overrides",
        "seed",
        "games",
        "max_plies",
        "agents",
        "rules",
        "metrics",
    ] {
        assert!(d.get(field).is_some(), "{field} missing: {d}");
    }
    assert_eq!(d["schema_version"], 1);
    assert_eq!(
        (d["seed"].as_u64(), d["games"].as_u64()),
        (Some(7), Some(300))
    );
    assert_eq!(d["overrides"]["a"], serde_json::json!({}));
    assert_eq!(d["overrides"]["b"]["cap"]["moves"], 2000, "{d}");
    // An arm's own override takes precedence over the shared one.
    let both = json(&[
        "diff",
        "seega",
        "davies",
        "dlp",
        "-n",
        "20",
        "--set",
        "cap={\"moves\": 500, \"outcome\": \"draw\"}",
        "--set-b",
        "cap={\"moves\": 900, \"outcome\": \"draw\"}",
        "--format",
        "json",
    ]);
    assert_eq!(both["overrides"]["a"]["cap"]["moves"], 500, "{both}");
    assert_eq!(both["overrides"]["b"]["cap"]["moves"], 900, "{both}");
    assert_eq!(d["agents"], serde_json::json!(["random", "random"]));
    for name in [
        "p1_win",
        "p2_win",
        "first_mover_win",
        "draw",
        "timeout",
        "plies_mean",
        "plies_median",
        "turns_mean",
    ] {
        let m = metric(&d, name);
        for field in ["a", "b", "p_adjusted", "verdict"] {
            assert!(m.get(field).is_some(), "{name}.{field}: {m}");
        }
        let diff = &m["difference"];
        let (v, lo, hi) = (
            diff["value"].as_f64().unwrap(),
            diff["lo"].as_f64().unwrap(),
            diff["hi"].as_f64().unwrap(),
        );
        assert!(lo <= v && v <= hi, "{name}: {m}");
        let p = m["p_adjusted"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{name}: {m}");
    }
    assert!(
        d["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["metric"].as_str().unwrap().starts_with("event:")),
        "{d}"
    );
    // The game's events only: not the provenance flags a run counts beside them.
    assert!(
        d["metrics"].as_array().unwrap().iter().all(|m| {
            let name = m["metric"].as_str().unwrap();
            !name.starts_with("event:uncovered:") && !name.starts_with("event:borrowed:")
        }),
        "{d}"
    );
    let schema = json(&["schema"]);
    assert!(schema["formats"]["output/diff"].is_object(), "{schema}");
}

/// `--against A`: every other reading against A in one command, the same games as each
/// pair's own diff (the same streams), with p-values corrected across all the comparisons,
/// so never below the pair's own.
#[test]
fn against_compares_every_other_reading_with_one_correction() {
    let all = json(&[
        "diff",
        "um-el-bagara",
        "--against",
        "davies",
        "-n",
        "300",
        "--format",
        "json",
    ]);
    assert_eq!(all["schema_version"], 1);
    assert_eq!(all["base"], "davies");
    let comparisons = all["comparisons"].as_array().unwrap();
    let others: Vec<&str> = comparisons
        .iter()
        .map(|c| c["b"].as_str().unwrap())
        .collect();
    assert_eq!(others, ["dlp", "ludii", "ludii-1.0.8"]);
    let pair = json(&[
        "diff",
        "um-el-bagara",
        "davies",
        "ludii",
        "-n",
        "300",
        "--format",
        "json",
    ]);
    let within = &comparisons[1];
    assert_eq!(within["rules"], pair["rules"]);
    for (m, own) in within["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .zip(pair["metrics"].as_array().unwrap())
    {
        assert_eq!(
            (&m["metric"], &m["a"], &m["b"], &m["difference"]),
            (&own["metric"], &own["a"], &own["b"], &own["difference"])
        );
        assert!(
            m["p_adjusted"].as_f64() >= own["p_adjusted"].as_f64(),
            "{m} {own}"
        );
    }
    let table = ok(&["diff", "um-el-bagara", "--against", "davies", "-n", "100"]);
    assert!(
        table.contains("p corrected across all 3 comparisons"),
        "{table}"
    );
    assert!(
        table.contains("reproduce: ludotrace diff um-el-bagara --against davies -n 100"),
        "{table}"
    );
    let schema = json(&["schema"]);
    assert!(schema["formats"]["output/diff-against"].is_object());
    // Both a pair and --against is refused by the command line itself.
    let (exit, _, err) = run(bin().args([
        "diff",
        "um-el-bagara",
        "davies",
        "dlp",
        "--against",
        "ludii",
    ]));
    assert_eq!(exit, 2, "{err}");
}

/// The same command gives byte-identical JSON at any thread count.
#[test]
fn results_do_not_depend_on_thread_count() {
    let args = |threads: &'static str| {
        [
            "diff",
            "um-el-banat",
            "davies",
            "dlp",
            "-n",
            "40",
            "--threads",
            threads,
            "--format",
            "json",
        ]
    };
    assert_eq!(ok(&args("1")), ok(&args("2")));
}

/// The table and Markdown views: the choices, the metrics with their verdicts, and the line
/// that reproduces the figures.
#[test]
fn views_show_the_verdicts_and_the_command_that_reproduces_them() {
    let table = ok(&[
        "diff",
        "um-el-tuweisat",
        "ludii-1.0.8",
        "ludii-intended",
        "-n",
        "500",
    ]);
    assert!(table.contains("ludii-left-hole"), "{table}");
    assert!(table.contains("first_mover_win"), "{table}");
    assert!(table.contains("differs"), "{table}");
    assert!(
        table.contains(
            "reproduce: ludotrace diff um-el-tuweisat ludii-1.0.8 ludii-intended -n 500 --seed 1"
        ),
        "{table}"
    );
    // The rules table, its key to the word marks, the metrics table: each a block of its own.
    let both = ok(&[
        "diff",
        "um-el-tuweisat",
        "ludii-1.0.8",
        "ludii-intended",
        "-n",
        "100",
        "--format",
        "markdown",
    ]);
    assert!(
        both.contains(" |\n\n[-…-]: A's option only; {+…+}: B's option only\n\n| metric | A | B |"),
        "{both}"
    );
    assert!(
        both.contains("| ludii-left-hole | quirk (grounded) | intended (grounded) | [-As Ludii"),
        "{both}"
    );
    let md = ok(&[
        "diff",
        "um-el-bagara",
        "davies",
        "davies",
        "-n",
        "200",
        "--format",
        "markdown",
    ]);
    assert!(
        md.starts_with("**Um el-Bagara · davies (B) against davies (A)"),
        "{md}"
    );
    assert!(
        md.contains("| metric | A | B | B − A [95 % CI] | p (Holm) | verdict |"),
        "{md}"
    );
    assert!(md.contains("no difference detected at n = 200"), "{md}");
    assert!(
        md.contains("reproduce: `ludotrace diff um-el-bagara davies davies -n 200 --seed 1"),
        "{md}"
    );
}

/// Bad input is named, with the valid choices, and nothing is printed on stdout.
#[test]
fn bad_input_is_named_with_the_valid_choices() {
    let err = fails(&["diff", "um-el-bagara", "davies", "nope"]);
    assert!(err.contains("davies, dlp, ludii, ludii-1.0.8"), "{err}");
    let err = fails(&["diff", "nope", "a", "b"]);
    assert!(err.contains("um-el-bagara"), "{err}");
    let err = fails(&["diff", "um-el-bagara", "davies", "dlp", "-n", "0"]);
    assert!(err.contains("--games must be 1 to"), "{err}");
    let err = fails(&["diff", "um-el-bagara", "davies", "dlp", "-n", "10000001"]);
    assert!(
        err.contains("--games must be 1 to 10000000 for diff"),
        "{err}"
    );
    let err = fails(&["diff", "um-el-bagara", "davies", "dlp", "--threads", "0"]);
    assert!(err.contains("--threads must be 1 to"), "{err}");
    let err = fails(&["diff", "um-el-bagara", "davies", "dlp", "--set-b", "nope=1"]);
    assert!(
        err.contains("reading dlp: --set nope: unknown parameter"),
        "{err}"
    );
    let err = fails(&["diff", "um-el-bagara", "davies", "dlp", "--format", "csv"]);
    assert!(
        err.contains("`diff` does not produce csv output; its formats are: table, json, markdown"),
        "{err}"
    );
}
