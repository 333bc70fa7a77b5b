//! `ludotrace run`: the JSON contract, determinism across threads, the CSV and table views,
//! overrides, and bad input.

use crate::util::{bin, fails, json, ok, run};

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
            "corpus_hash",
            "game",
            "seed",
            "games",
            "max_plies",
            "agents",
            "lineup",
            "interpretation",
            "overrides",
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

/// `--format markdown`: a results table to paste into a paper, with the lines under it as
/// paragraphs and the command that reproduces it, for one reading and for all of them; the
/// same figures as the table view.
#[test]
fn markdown_gives_the_tables_to_paste_with_the_reproduce_line() {
    let md = ok(&[
        "run",
        "um-el-bagara",
        "-i",
        "dlp",
        "-n",
        "100",
        "--format",
        "markdown",
    ]);
    assert!(md.starts_with("**Um el-Bagara · dlp ("), "{md}");
    assert!(
        md.contains("| outcome | games | rate | 95 % CI (Wilson) |\n|---|---|---|---|\n"),
        "{md}"
    );
    assert!(md.contains("\n\nmoved first: seat 1 in "), "{md}");
    assert!(md.contains("| event | games | per game |"), "{md}");
    assert!(
        md.contains("\n\nreproduce: `ludotrace run um-el-bagara -i dlp -n 100 --seed 1"),
        "{md}"
    );
    assert!(!md.contains('\u{1b}'), "no terminal styling: {md}");
    // The same numbers as the table view.
    let table = ok(&["run", "um-el-bagara", "-i", "dlp", "-n", "100"]);
    let plies = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("plies: "))
            .map(str::to_owned)
            .expect("a plies line")
    };
    assert_eq!(plies(&md), plies(&table));
    let all = ok(&[
        "run",
        "um-el-tuweisat",
        "--all-interpretations",
        "-n",
        "50",
        "--format",
        "markdown",
    ]);
    assert!(all.starts_with("**Um el Tuweisat · every reading"), "{all}");
    for reading in ["davies", "dlp", "ludii", "ludii-1.0.8", "ludii-intended"] {
        assert!(all.contains(&format!("\n| {reading} | ")), "{all}");
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

/// Every number a user can type is bounded: these once panicked, aborted or hung.
#[test]
fn hostile_numbers_are_refused_with_their_bounds() {
    for (args, says) in [
        (&["-n", "18446744073709551615"][..], "--games must be 1 to"),
        (&["-n", "1000000000000"][..], "--games must be 1 to"),
        (&["-n", "0"][..], "--games must be 1 to"),
        (&["--threads", "100000"][..], "--threads must be 1 to 256"),
        (&["--threads", "0"][..], "--threads must be 1 to 256"),
        (&["--max-plies", "0"][..], "--max-plies must be 1 to"),
        (
            &["--max-plies", "4000000000"][..],
            "--max-plies must be 1 to",
        ),
        (&["--max-quiet", "100"][..], "--max-quiet must be 0"),
        (
            &["--max-quiet", "4000000000"][..],
            "or 256 to 1000000, not 4000000000",
        ),
    ] {
        let mut all = vec!["run", "um-el-bagara"];
        all.extend(args);
        let err = fails(&all);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Where a lot decides who begins, results are given by turn order as well as by seat; the
/// CSV names each game's first mover; lengths carry an interval.
#[test]
fn results_say_who_moved_first() {
    let v = json(&[
        "run",
        "sijat-el-taba",
        "-i",
        "davies",
        "-n",
        "300",
        "--format",
        "json",
    ]);
    let r = &v["results"];
    let firsts: Vec<u64> = r["by_order"]["first_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(firsts.iter().sum::<u64>(), 300, "{r}");
    assert!(firsts.iter().all(|&n| n > 100), "a fair lot: {firsts:?}");
    let by_order: u64 = r["by_order"]["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    let by_seat: u64 = r["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(by_order, by_seat, "the same wins, counted by order: {r}");
    for key in ["first", "second"] {
        let rate = &r["by_order"]["rates"][key];
        assert!(rate["lo"].as_f64() <= rate["value"].as_f64(), "{rate}");
    }
    let ci = v["plies"]["mean_ci"].as_array().unwrap();
    let mean = v["plies"]["mean"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() < mean && mean < ci[1].as_f64().unwrap());

    // Seat 1 always begins where there is no lot.
    let v = json(&[
        "run",
        "um-el-bagara",
        "-i",
        "ludii-1.0.8",
        "-n",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["results"]["by_order"]["first_moves"],
        serde_json::json!([20, 0])
    );

    let csv = ok(&[
        "run",
        "sijat-el-taba",
        "-i",
        "davies",
        "-n",
        "30",
        "--format",
        "csv",
    ]);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = header.iter().position(|&h| h == "first_mover").unwrap();
    let seats: Vec<&str> = lines.map(|l| l.split(',').nth(col).unwrap()).collect();
    assert_eq!(seats.len(), 30);
    assert!(seats.contains(&"1") && seats.contains(&"2"), "{seats:?}");
}

/// The reproduce line carries the corpus and every option that changes the result, quoted.
#[test]
fn the_reproduce_line_reproduces() {
    let dir = crate::util::mini_corpus();
    let corpus = dir.path().to_str().unwrap().to_owned();
    let (game, reading) = {
        let v = json(&["--corpus", &corpus, "list", "--format", "json"]);
        let g = &v["games"][0];
        (
            g["id"].as_str().unwrap().to_owned(),
            g["interpretations"][0]["id"].as_str().unwrap().to_owned(),
        )
    };
    let out = ok(&[
        "--corpus",
        &corpus,
        "run",
        &game,
        "-i",
        &reading,
        "-n",
        "7",
        "--seed",
        "5",
        "--max-plies",
        "300",
    ]);
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: "))
        .expect("a reproduce line");
    for part in [
        format!("--corpus {corpus}"),
        "-n 7".to_owned(),
        "--seed 5".to_owned(),
        "--max-plies 300".to_owned(),
        format!("-i {reading}"),
    ] {
        assert!(line.contains(&part), "{part} in {line}");
    }
    assert!(out.contains("corpus: "), "{out}");
    let out = ok(&[
        "run",
        "um-el-bagara",
        "-n",
        "5",
        "--set",
        r#"cap={"moves":50,"outcome":"draw"}"#,
    ]);
    assert!(
        out.contains(r#"--set 'cap={"moves":50,"outcome":"draw"}'"#),
        "{out}"
    );
    // Run again from the line itself: the same results.
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: "))
        .expect("a reproduce line");
    let words = shell_words(line);
    assert_eq!(words[0], "ludotrace");
    let mut again: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    again.extend(["--format", "json"]);
    let first = json(&[
        "run",
        "um-el-bagara",
        "-n",
        "5",
        "--set",
        r#"cap={"moves":50,"outcome":"draw"}"#,
        "--format",
        "json",
    ]);
    assert_eq!(json(&again), first, "{line}");
}

/// Splits a command line as a POSIX shell would for words quoted with `'…'` (what the
/// reproduce line writes).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

#[test]
fn the_new_numbers_are_bounded() {
    for (args, says) in [
        (
            ["run", "sijat-el-taba", "--set", "agreed_turns=0"],
            "agreed_turns = 0: the agreed time is 1 to 1000000 turns",
        ),
        (
            ["run", "um-el-banat", "--set", "relay_cap=0"],
            "relay_cap = 0: a relay's cap is 1 to 100000 pick-ups",
        ),
        (
            [
                "run",
                "um-el-bagara",
                "--set",
                r#"move_limit={"moves":0,"outcome":"draw"}"#,
            ],
            "move_limit: a cap of 0 moves",
        ),
    ] {
        let err = fails(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Switching an option out drops what it alone set: Seega's `ludii` takes the engine's
/// limits with `stall = engine-limit`; switched to `none`, the cap goes with it (the
/// family's default, no cap), as in a reading that chose `none`.
#[test]
fn a_switched_option_leaves_nothing_behind() {
    let v = json(&[
        "run",
        "seega",
        "-i",
        "ludii",
        "--choose",
        "stall=none",
        "-n",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["overrides"],
        serde_json::json!({"cap": null, "stall": "none", "stall_plies": 0, "stall_result": "draw"})
    );
    // An option that sets the parameter itself keeps it.
    let v = json(&[
        "run",
        "seega",
        "-i",
        "davies",
        "--choose",
        "stall=engine-limit",
        "-n",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(
        v["overrides"]["cap"],
        serde_json::json!({"turns": 2500, "moves": 10000, "outcome": "draw"})
    );
}
