//! `ludotrace assess`: the random strength plays `run`'s very games, results do not depend
//! on the thread count, the figures that cannot inform a reading say why, readings are
//! ordered by criteria met, and bad criteria files and agents are refused with their place.

use crate::util::{fails, json};

fn figure<'a>(arm: &'a serde_json::Value, metric: &str) -> &'a serde_json::Value {
    arm["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["metric"] == metric)
        .unwrap_or_else(|| panic!("no figure {metric}"))
}

/// Random self-play measured by `assess` is `run`'s random play, game for game: the same
/// finished share, draws and seat wins (the first mover's share among the games won).
#[test]
fn the_random_strength_plays_runs_games() {
    for (game, reading) in [("um-el-tuweisat", "davies"), ("seega", "ludii-1.0.8")] {
        let a = json(&[
            "assess",
            game,
            "-i",
            reading,
            "--agents",
            "random",
            "-n",
            "120",
            "--max-quiet",
            "0",
            "--format",
            "json",
        ]);
        let r = json(&["run", game, "-i", reading, "-n", "120", "--format", "json"]);
        let arm = &a["readings"][0]["arms"][0];
        let results = &r["results"];
        let games = 120.0;
        let finished = 120 - results["timeouts"].as_u64().unwrap();
        assert_eq!(
            figure(arm, "finished")["value"].as_f64().unwrap(),
            (finished as f64 / games * 1e4).round() / 1e4,
            "{game} {reading}"
        );
        assert_eq!(
            figure(arm, "draws")["value"].as_f64().unwrap(),
            (results["draws"].as_f64().unwrap() / games * 1e4).round() / 1e4,
            "{game} {reading}"
        );
        let won: u64 = results["wins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .sum();
        assert_eq!(
            figure(arm, "first-mover-advantage")["n"],
            won,
            "{game} {reading}"
        );
    }
}

/// The same command at one thread and at two gives the same bytes.
#[test]
fn results_do_not_depend_on_threads() {
    let args = |t: &'static str| {
        [
            "assess",
            "um-el-bagara",
            "--all-interpretations",
            "--agents",
            "random,greedy",
            "-n",
            "40",
            "--threads",
            t,
            "--format",
            "json",
        ]
    };
    assert_eq!(json(&args("1")), json(&args("2")));
}

/// Every sowing board is full at the start: coverage says so rather than 100 %; drama needs
/// a winner; readings come in the order of criteria met; every figure of a share lies in its
/// interval.
#[test]
fn figures_say_why_they_are_missing_and_readings_rank_by_criteria_met() {
    let a = json(&[
        "assess",
        "um-el-bagara",
        "--all-interpretations",
        "--agents",
        "random,greedy",
        "-n",
        "60",
        "--format",
        "json",
    ]);
    let readings = a["readings"].as_array().unwrap();
    assert_eq!(readings.len(), 4);
    let met: Vec<(u64, u64)> = readings
        .iter()
        .map(|r| {
            let arm = &r["arms"][1];
            (
                arm["met"].as_u64().unwrap(),
                arm["failed"].as_u64().unwrap(),
            )
        })
        .collect();
    for w in met.windows(2) {
        assert!(
            w[0].0 > w[1].0 || (w[0].0 == w[1].0 && w[0].1 <= w[1].1),
            "{met:?}"
        );
    }
    for r in readings {
        for arm in r["arms"].as_array().unwrap() {
            let cov = figure(arm, "coverage");
            assert!(cov["value"].is_null());
            assert_eq!(cov["note"], "every site is occupied from the start");
            for f in arm["figures"].as_array().unwrap() {
                if let (Some(v), Some(lo), Some(hi)) =
                    (f["value"].as_f64(), f["lo"].as_f64(), f["hi"].as_f64())
                {
                    assert!(lo <= v && v <= hi, "{f}");
                }
            }
            assert_eq!(
                arm["verdicts"].as_array().unwrap().len(),
                a["criteria"]["list"].as_array().unwrap().len()
            );
        }
        assert!(r["summary"].as_str().unwrap().contains("criteria"));
    }
}

/// A criteria file with an unknown metric, an impossible threshold, no rule or bad YAML is
/// refused with its file, line and column and what was expected; so are a bad agent list
/// and a file that is not there.
#[test]
fn bad_criteria_and_agents_are_refused_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let cases = [
        (
            "unknown.yaml",
            "criteria:\n  - metric: fun\n    at_least: 0.5\n",
            ":2:13: error[unknown-metric]: unknown metric `fun`, expected one of finished",
        ),
        (
            "threshold.yaml",
            "criteria:\n  - metric: finished\n    at_least: 0.9\n  - metric: draws\n    at_most: 1.5\n",
            ":4:5: error[impossible-threshold]: an impossible threshold for draws, which takes values from 0 to 1",
        ),
        (
            "between.yaml",
            "criteria:\n  - metric: median-turns\n    between: [100, 10]\n",
            "smaller bound first",
        ),
        (
            "norule.yaml",
            "criteria:\n  - metric: draws\n",
            ":2:5: error[criterion-rule]: the criterion on draws has no rule",
        ),
        ("syntax.yaml", "criteria: [\n", ":1:11: error[yaml-syntax]"),
        (
            "key.yaml",
            "criteria:\n  - metric: draws\n    at_mots: 0.1\n",
            ":3:5: error[unknown-key]",
        ),
        ("empty.yaml", "criteria: []\n", "lists no criterion"),
    ];
    for (name, text, want) in cases {
        let path = write(name, text);
        let err = fails(&["assess", "um-el-tuweisat", "--criteria", &path, "-n", "4"]);
        assert!(
            err.contains(&format!("{path}{want}")) || err.contains(want),
            "{name}: {err}"
        );
        assert!(err.contains(&path), "{name}: {err}");
    }
    let missing = dir.path().join("missing.yaml").display().to_string();
    let err = fails(&["assess", "um-el-tuweisat", "--criteria", &missing]);
    assert!(err.contains("cannot read the criteria file"), "{err}");
    let err = fails(&["assess", "um-el-tuweisat", "--agents", "fair,fair"]);
    assert!(err.contains("listed twice"), "{err}");
    let err = fails(&["assess", "um-el-tuweisat", "--agents", "fiar"]);
    assert!(err.contains("--agents"), "{err}");
    let err = fails(&["assess", "um-el-tuweisat", "--max-quiet", "100"]);
    assert!(err.contains("--max-quiet"), "{err}");
}

/// `--by-point` switches every open point one option at a time under each skilled strength:
/// the reading's own option first with the reading's own figures, every other option with
/// the `run` that plays it, and a criterion "decided" exactly where one option meets it and
/// another fails it.
#[test]
fn by_point_switches_each_option_and_names_what_decides_a_criterion() {
    let a = json(&[
        "assess",
        "um-el-tuweisat",
        "-i",
        "davies",
        "--agents",
        "random,greedy",
        "-n",
        "40",
        "--by-point",
        "--format",
        "json",
    ]);
    let points = a["by_point"].as_array().unwrap();
    let criteria = a["criteria"]["list"].as_array().unwrap().len();
    let base = &a["readings"][0]["arms"][1];
    assert_eq!(base["agent"], "greedy");
    assert!(
        points.iter().all(|p| p["agent"] == "greedy"),
        "random play is not switched"
    );
    let mut decided = 0;
    for p in points {
        let options = p["options"].as_array().unwrap();
        // The reading's own option first, where it takes one (it may leave a point, an
        // engine's behaviour, open).
        let taken = options.iter().filter(|o| o["taken"] == true).count();
        assert!(taken <= 1, "{}", p["choice"]);
        if taken == 1 {
            assert_eq!(options[0]["taken"], true, "{}", p["choice"]);
            assert_eq!(options[0]["verdicts"], base["verdicts"]);
        }
        for o in &options[taken..] {
            assert_eq!(o["taken"], false);
            let line = o["reproduce"].as_str().unwrap();
            assert!(
                line.starts_with("ludotrace run um-el-tuweisat -i davies --agents greedy -n 40")
                    && line.contains("--choose ")
                    && line.contains(&format!(
                        "{}={}",
                        p["choice"].as_str().unwrap(),
                        o["option"].as_str().unwrap()
                    )),
                "{line}"
            );
            if o["refused"].is_null() {
                assert_eq!(o["verdicts"].as_array().unwrap().len(), criteria);
            }
        }
        for m in p["moves"].as_array().unwrap() {
            let c = m["criterion"].as_u64().unwrap() as usize;
            let with = |v: &str| {
                options
                    .iter()
                    .filter(|o| o["verdicts"].get(c).is_some_and(|x| x == v))
                    .count()
            };
            let decides = with("met") > 0 && with("failed") > 0;
            assert_eq!(m["how"] == "decides", decides, "{m}");
            decided += usize::from(decides);
        }
    }
    // Two and four captured (Ludii's reading) hands the first mover the game: the switch
    // decides the first-mover criterion at least.
    assert!(decided > 0, "{points:?}");
    let err = fails(&[
        "assess",
        "um-el-tuweisat",
        "--agents",
        "random",
        "--by-point",
    ]);
    assert!(err.contains("skilled strength"), "{err}");
}
