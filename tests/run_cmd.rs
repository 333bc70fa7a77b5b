//! `ludotrace run`: the JSON contract, determinism across threads, the CSV and table views,
//! overrides, and bad input.

use crate::util::{bin, json, ok, run};

fn fails(args: &[&str]) -> String {
    let (exit, out, err) = run(bin().args(args));
    assert_eq!(exit, 2, "ludotrace {args:?} should fail with 2: {out}{err}");
    assert!(out.is_empty(), "nothing on stdout: {out}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn json_is_the_published_contract() {
    let v = json(&[
        "run",
        "um-el-bagara",
        "-i",
        "ludii-1.0.8",
        "-n",
        "50",
        "--format",
        "json",
    ]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "schema_version",
            "ludotrace",
            "game",
            "interpretation",
            "overrides",
            "corpus_hash",
            "seed",
            "games",
            "max_plies",
            "agents",
            "results",
            "plies",
            "turns",
            "passes",
            "branching",
            "events"
        ]
    );
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["games"], 50);
    assert_eq!(v["agents"], serde_json::json!(["random", "random"]));
    let r = &v["results"];
    let wins = r["wins"].as_array().unwrap();
    let total = wins[0].as_u64().unwrap()
        + wins[1].as_u64().unwrap()
        + r["draws"].as_u64().unwrap()
        + r["timeouts"].as_u64().unwrap();
    assert_eq!(total, 50, "each game counts once: {r}");
    for key in ["p1", "p2", "draw", "timeout"] {
        let rate = &r["rates"][key];
        let (lo, val, hi) = (
            rate["lo"].as_f64().unwrap(),
            rate["value"].as_f64().unwrap(),
            rate["hi"].as_f64().unwrap(),
        );
        assert!(
            lo <= val && val <= hi && (0.0..=1.0).contains(&lo) && hi <= 1.0,
            "{key}: {rate}"
        );
    }
    for key in ["mean", "sd", "median", "min", "max", "p10", "p90"] {
        assert!(v["plies"][key].is_number(), "plies.{key}");
    }
    assert!(v["events"]["capture"]["games"].as_u64().unwrap() > 0);
    assert_eq!(v["corpus_hash"].as_str().unwrap().len(), 64);
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let base = [
        "run",
        "um-el-tuweisat",
        "--all-interpretations",
        "-n",
        "600",
        "--seed",
        "7",
        "--format",
        "json",
    ];
    let one = ok(&[&base[..], &["--threads", "1"]].concat());
    let three = ok(&[&base[..], &["--threads", "3"]].concat());
    assert_eq!(one, three);
    let csv1 = ok(&[
        "run",
        "um-el-bagara",
        "-n",
        "300",
        "--format",
        "csv",
        "--threads",
        "1",
    ]);
    let csv2 = ok(&[
        "run",
        "um-el-bagara",
        "-n",
        "300",
        "--format",
        "csv",
        "--threads",
        "2",
    ]);
    assert_eq!(csv1, csv2);
}

#[test]
fn a_different_seed_gives_different_games() {
    let a = ok(&[
        "run",
        "um-el-bagara",
        "-n",
        "20",
        "--format",
        "csv",
        "--seed",
        "1",
    ]);
    let b = ok(&[
        "run",
        "um-el-bagara",
        "-n",
        "20",
        "--format",
        "csv",
        "--seed",
        "2",
    ]);
    assert_ne!(a, b);
}

#[test]
fn csv_has_one_row_per_game() {
    let out = ok(&[
        "run",
        "um-el-tuweisat",
        "-i",
        "ludii-1.0.8",
        "-n",
        "40",
        "--format",
        "csv",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 41);
    assert!(lines[0].starts_with("game,interpretation,index,result,winner,end,plies"));
    let cols = lines[0].split(',').count();
    for (i, l) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = l.split(',').collect();
        assert_eq!(cells.len(), cols, "{l}");
        assert_eq!(cells[2], i.to_string());
    }
}

#[test]
fn table_shows_rates_with_intervals_and_the_command_that_reproduces_them() {
    let out = ok(&["run", "um-el-bagara", "-i", "dlp", "-n", "100"]);
    assert!(out.contains("95 % CI"), "{out}");
    assert!(
        out.contains("reproduce: ludotrace run um-el-bagara -i dlp -n 100 --seed 1"),
        "{out}"
    );
    let all = ok(&["run", "um-el-tuweisat", "--all-interpretations", "-n", "50"]);
    for reading in ["davies", "dlp", "ludii", "ludii-1.0.8", "ludii-intended"] {
        assert!(all.contains(reading), "{all}");
    }
}

#[test]
fn overrides_are_validated_and_recorded() {
    let v = json(&[
        "run",
        "um-el-bagara",
        "-i",
        "davies",
        "-n",
        "30",
        "--set",
        "skip_origin=true",
        "--set",
        "capture_counts=[2]",
        "--format",
        "json",
    ]);
    assert_eq!(v["overrides"]["skip_origin"], true);
    assert_eq!(v["overrides"]["capture_counts"], serde_json::json!([2]));
    // A value set by --set is the user's interpolation: its rules are uncovered.
    assert!(
        v["events"]
            .as_object()
            .unwrap()
            .contains_key("uncovered:--set"),
        "{}",
        v["events"]
    );
    let err = fails(&["run", "um-el-bagara", "--set", "direction=sideways"]);
    assert!(
        err.contains("direction") && err.contains("outward"),
        "{err}"
    );
    let err = fails(&["run", "um-el-bagara", "--set", "no_such_param=1"]);
    assert!(err.contains("skip_origin"), "lists the parameters: {err}");
    let err = fails(&["run", "um-el-bagara", "--set", "skip_origin"]);
    assert!(err.contains("PARAM=VALUE"), "{err}");
    let err = fails(&[
        "run",
        "um-el-bagara",
        "--set",
        "end_check=all-passed",
        "--set",
        "end=row-empty",
    ]);
    assert!(err.contains("end_check"), "{err}");
    // Parameters the engine cannot play together are named, never a panic.
    let err = fails(&["run", "lib-al-aqil", "--set", "counters=0"]);
    assert!(err.contains("nothing to distribute"), "{err}");
    let err = fails(&["run", "um-el-banat", "--set", "peck=0"]);
    assert!(err.contains("peck"), "{err}");
}

#[test]
fn bad_input_is_named_with_the_valid_choices() {
    let err = fails(&["run", "um-el-nothing"]);
    assert!(
        err.contains("um-el-bagara") && err.contains("um-el-tuweisat"),
        "{err}"
    );
    let err = fails(&["run", "um-el-bagara", "-i", "ludii-9"]);
    assert!(
        err.contains("ludii-1.0.8") && err.contains("davies"),
        "{err}"
    );
    let err = fails(&["run", "um-el-bagara", "-n", "0"]);
    assert!(err.contains("--games"), "{err}");
    let err = fails(&["run", "um-el-bagara", "--threads", "0"]);
    assert!(err.contains("--threads"), "{err}");
    let err = fails(&["run", "um-el-bagara", "--format", "markdown"]);
    assert!(err.contains("csv"), "{err}");
    let err = fails(&["list", "--format", "csv"]);
    assert!(err.contains("markdown"), "{err}");
    // clap rejects these itself, with usage.
    let (exit, _, _) = run(bin().args(["run", "um-el-bagara", "-n", "many"]));
    assert_eq!(exit, 2);
    let (exit, _, _) = run(bin().args([
        "run",
        "um-el-bagara",
        "-i",
        "davies",
        "--all-interpretations",
    ]));
    assert_eq!(exit, 2);
}

/// A cap must bound the game, in every engine alike: a cap without `moves` once hung three
/// of the four (a capped game ignores `--max-plies`, and nothing else stopped it).
#[test]
fn a_cap_that_does_not_bound_the_game_is_refused_in_every_family() {
    for (game, reading) in [
        ("sijat-el-taba", "davies"),
        ("um-el-bagara", "davies"),
        ("seega", "davies"),
        ("lib-el-merafib", "davies"),
    ] {
        for cap in [
            r#"cap={"outcome":"draw"}"#,
            r#"cap={"turns":100,"outcome":"draw"}"#,
            r#"cap={"moves":0,"outcome":"draw"}"#,
            r#"cap={"moves":100,"turns":0,"outcome":"draw"}"#,
            r#"cap={"moves":1000001,"outcome":"draw"}"#,
        ] {
            let err = fails(&["run", game, "-i", reading, "-n", "2", "--set", cap]);
            assert!(err.contains("cap:"), "{game} {cap}: {err}");
        }
        // The largest cap is accepted.
        ok(&[
            "run",
            game,
            "-i",
            reading,
            "-n",
            "2",
            "--set",
            r#"cap={"moves":1000000,"outcome":"draw"}"#,
        ]);
    }
}
