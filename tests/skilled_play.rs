//! `--agents` and `--swap` on `run` and `diff`, and `diff --games auto`: random lineups are
//! random play, results by agent add up, skilled play beats random play far from chance,
//! the seats rotate evenly, the numbers are the same at any thread count, `--games auto`
//! plays the games `-n` would, bad input is refused, and `ladder` measures agents against
//! each other.

use serde_json::Value;

use crate::util::{fails, json};

/// `run --format json` of `args` after `run GAME -i READING`.
fn run_json(game: &str, reading: &str, args: &[&str]) -> Value {
    let mut all = vec!["run", game, "-i", reading, "--format", "json"];
    all.extend(args);
    json(&all)
}

/// A lineup of random agents only, rotated or not, is random play: the very games of a run
/// without `--agents`.
#[test]
fn a_random_lineup_plays_runs_games() {
    let plain = run_json("um-el-bagara", "davies", &["-n", "400"]);
    let mut lineup = run_json(
        "um-el-bagara",
        "davies",
        &["-n", "400", "--agents", "random,random", "--swap"],
    );
    assert_eq!(lineup["swap"], true);
    assert_eq!(lineup["lineup"], serde_json::json!(["random", "random"]));
    assert_eq!(plain["lineup"], serde_json::json!(["random"]));
    let mut plain = plain;
    for v in [&mut plain, &mut lineup] {
        v.as_object_mut().unwrap().remove("swap");
        v.as_object_mut().unwrap().remove("lineup");
    }
    assert_eq!(plain, lineup);
    assert!(plain["results"].get("by_agent").is_none(), "{plain}");
}

/// With two agents and `--swap`, each holds each seat in half the games; its wins by seat add
/// up to its wins, the two agents' wins and the draws and timeouts to the games, and its
/// games as first mover to the games.
#[test]
fn results_by_agent_add_up() {
    let o = run_json(
        "um-el-bagara",
        "davies",
        &["-n", "200", "--agents", "greedy,random", "--swap"],
    );
    assert_eq!(o["agents"], serde_json::json!(["greedy", "random"]));
    let r = &o["results"];
    let by = r["by_agent"].as_object().expect("by_agent");
    assert_eq!(by.keys().collect::<Vec<_>>(), ["greedy", "random"]);
    let n = |v: &Value| v.as_u64().unwrap();
    let mut wins = 0;
    let mut firsts = 0;
    for a in by.values() {
        assert_eq!(n(&a["games"]), 200, "{a}");
        let seats = a["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 2);
        for s in seats {
            assert_eq!(n(&s["games"]), 100, "{a}");
        }
        assert_eq!(
            seats.iter().map(|s| n(&s["wins"])).sum::<u64>(),
            n(&a["wins"])
        );
        wins += n(&a["wins"]);
        firsts += n(&a["first_moves"]);
    }
    assert_eq!(wins + n(&r["draws"]) + n(&r["timeouts"]), 200, "{r}");
    assert_eq!(firsts, 200);
    assert!(by["greedy"]["rate"]["lo"].as_f64().unwrap() > 0.5, "{r}");
}

/// In a game of four seats, two agents hold two seats each: an agent's rate is over the
/// seats it held, and its wins and the other's are the seats' wins.
#[test]
fn results_by_agent_count_seats_in_games_of_several() {
    let o = run_json(
        "lib-el-merafib",
        "davies",
        &["-n", "40", "--agents", "greedy,random", "--swap"],
    );
    let r = &o["results"];
    let n = |v: &Value| v.as_u64().unwrap();
    let seat_wins: u64 = r["wins"].as_array().unwrap().iter().map(n).sum();
    let mut agent_wins = 0;
    for a in r["by_agent"].as_object().unwrap().values() {
        assert_eq!(n(&a["games"]), 40, "{a}");
        assert_eq!(n(&a["seat_games"]), 80, "{a}");
        let rate = a["rate"]["value"].as_f64().unwrap();
        assert!((rate - n(&a["wins"]) as f64 / 80.0).abs() < 1e-4, "{a}");
        agent_wins += n(&a["wins"]);
    }
    assert_eq!(agent_wins, seat_wins, "{r}");
}

/// MCTS against random play in the sowing game the issue names, by the command line: far
/// from chance (the Wilson interval of its win rate above one half), at every seat.
#[test]
fn mcts_beats_random_at_um_el_bagara_from_the_command_line() {
    let o = run_json(
        "um-el-bagara",
        "davies",
        &["-n", "40", "--agents", "mcts:300,random", "--swap"],
    );
    let mcts = &o["results"]["by_agent"]["mcts:300"];
    assert!(mcts["rate"]["lo"].as_f64().unwrap() > 0.5, "{mcts}");
    for seat in mcts["seats"].as_array().unwrap() {
        assert!(seat["rate"]["lo"].as_f64().unwrap() > 0.5, "{mcts}");
    }
}

/// Without `--swap` the agents are cycled over the seats, the same in every game.
#[test]
fn without_swap_each_agent_keeps_its_seat() {
    let o = run_json(
        "um-el-bagara",
        "davies",
        &["-n", "30", "--agents", "greedy,random"],
    );
    assert!(o.get("swap").is_none(), "{o}");
    let seats = o["results"]["by_agent"]["greedy"]["seats"]
        .as_array()
        .unwrap();
    assert_eq!(seats[0]["games"], 30);
    assert_eq!(seats[1]["games"], 0);
    assert!(seats[1].get("rate").is_none(), "{o}");
}

/// A diff of skilled play: the agents' own win rates are metrics, and the output is the same
/// at any thread count.
#[test]
fn a_skilled_diff_is_the_same_at_any_thread_count() {
    let args = |threads: &str| {
        json(&[
            "diff",
            "um-el-bagara",
            "davies",
            "ludii-1.0.8",
            "-n",
            "120",
            "--agents",
            "greedy,random",
            "--swap",
            "--threads",
            threads,
            "--format",
            "json",
        ])
    };
    let one = args("1");
    assert_eq!(one, args("2"));
    assert_eq!(one["agents"], serde_json::json!(["greedy", "random"]));
    assert_eq!(one["swap"], true);
    let names: Vec<&str> = one["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["metric"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"agent_win:greedy"), "{names:?}");
    assert!(names.contains(&"agent_win:random"), "{names:?}");
}

/// `--games auto` plays until the first mover's difference is known to the precision, says
/// which n it used, and its numbers are those of `-n` that n.
#[test]
fn games_auto_reaches_the_precision_with_the_games_n_would_play() {
    let auto = json(&[
        "diff",
        "um-el-tuweisat",
        "ludii-1.0.8",
        "ludii-intended",
        "--games",
        "auto",
        "--precision",
        "0.04",
        "--format",
        "json",
    ]);
    let a = &auto["auto"];
    assert_eq!(a["reached"], true, "{a}");
    assert_eq!(a["precision"], 0.04);
    assert!(a["half_width"].as_f64().unwrap() <= 0.04, "{a}");
    let n = auto["games"].as_u64().unwrap();
    // It played more than its first round (a quarter of the worst case), as the rates asked.
    assert!(n > 150, "{n}");
    let fixed = json(&[
        "diff",
        "um-el-tuweisat",
        "ludii-1.0.8",
        "ludii-intended",
        "-n",
        &n.to_string(),
        "--format",
        "json",
    ]);
    assert!(fixed.get("auto").is_none());
    assert_eq!(auto["metrics"], fixed["metrics"]);
    let first = auto["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "first_mover_win")
        .unwrap();
    let d = &first["difference"];
    let half = (d["hi"].as_f64().unwrap() - d["lo"].as_f64().unwrap()) / 2.0;
    assert!(half <= 0.04 + 1e-6, "{first}");
}

/// Under `--swap`, `--games auto` plays whole rotations, from its first round (at 0.5 the
/// first round, at least 100 games, is enough) to its last.
#[test]
fn games_auto_plays_whole_rotations() {
    for precision in ["0.5", "0.1"] {
        let d = json(&[
            "diff",
            "um-el-bagara",
            "davies",
            "davies",
            "--agents",
            "greedy,random,random",
            "--swap",
            "--games",
            "auto",
            "--precision",
            precision,
            "--format",
            "json",
        ]);
        assert_eq!(d["games"].as_u64().unwrap() % 3, 0, "{d}");
        assert!(d["games"].as_u64().unwrap() >= 100, "{d}");
    }
}

#[test]
fn bad_lineups_and_precisions_are_refused_naming_what_is_valid() {
    let bagara = ["run", "um-el-bagara", "-i", "davies"];
    let with = |extra: &[&str]| {
        let mut all = bagara.to_vec();
        all.extend(extra);
        fails(&all)
    };
    let err = with(&["--agents", "mcts:300,wizard"]);
    assert!(
        err.contains("\"wizard\"") && err.contains("mcts:N"),
        "{err}"
    );
    for empty in ["", ",", "random,", "greedy,,random"] {
        let err = with(&["--agents", empty]);
        assert!(
            err.contains("an empty entry") && err.contains("the valid forms are"),
            "{err}"
        );
    }
    let err = with(&["--agents", "mcts:99999999999999999999"]);
    assert!(err.contains("must be 1 to 1000000"), "{err}");
    let err = with(&["-n", "-5"]);
    assert!(err.contains("a whole number of games"), "{err}");
    let err = with(&[
        "-n",
        "1000000000",
        "--agents",
        "greedy,random,random",
        "--swap",
    ]);
    assert!(err.contains("(say 999999999), not 1000000000"), "{err}");
    let err = with(&[
        "--agents",
        "random,random,random,random,random,random,random,random,random",
    ]);
    assert!(err.contains("1 to 8 agents"), "{err}");
    let err = with(&["--agents", "mcts:0"]);
    assert!(err.contains("1 to 1000000"), "{err}");
    let err = with(&["--agents", "greedy,random", "--swap", "-n", "101"]);
    assert!(
        err.contains("multiple of 2 (say 100 or 102), not 101"),
        "{err}"
    );
    let err = with(&["--agents", "greedy,random,random", "--swap", "-n", "2"]);
    assert!(err.contains("multiple of 3 (say 3), not 2"), "{err}");
    let err = with(&["--agents", "greedy,random,mcts:5"]);
    assert!(
        err.contains(
            "lists 3 agents, but the reading seats 2: without --swap, the agents listed \
             after the first 2 (mcts:5) would never play"
        ),
        "{err}"
    );
    let err = with(&["--games", "auto"]);
    assert!(err.contains("--games auto is diff's"), "{err}");
    let err = with(&["-n", "lots"]);
    assert!(err.contains("a whole number of games, or `auto`"), "{err}");
    let diff = ["diff", "um-el-bagara", "davies", "davies"];
    let with = |extra: &[&str]| {
        let mut all = diff.to_vec();
        all.extend(extra);
        fails(&all)
    };
    let err = with(&["-n", "0"]);
    assert!(
        err.contains("--games must be 1 to 10000000 for diff"),
        "{err}"
    );
    let err = with(&["--games", "auto", "--precision", "-0.1"]);
    assert!(err.contains("--precision must be 0.001 to 0.5"), "{err}");
    let err = with(&["-n", "100", "--precision", "0.01"]);
    assert!(err.contains("--precision goes with --games auto"), "{err}");
    for bad in ["0", "0.0005", "0.6", "NaN", "-1", "inf"] {
        let err = with(&["--games", "auto", &format!("--precision={bad}")]);
        assert!(
            err.contains("--precision must be 0.001 to 0.5"),
            "{bad}: {err}"
        );
    }
    let err = with(&["--games", "auto", "--precision", "fine"]);
    assert!(err.contains("--precision"), "{err}");
    let err = with(&["--agents", "greedy,random", "--swap", "-n", "7"]);
    assert!(err.contains("multiple of 2"), "{err}");
    let err = with(&["-n", "10", "--agents", "greedy,random,random"]);
    assert!(err.contains("would never play"), "{err}");
}

/// `diff` answers for every pair of readings of every game: each game's every other reading
/// against its first, by random play, and by MCTS against random play in the short games
/// (few games: this checks that every comparison is made, not what it finds).
#[test]
fn every_game_can_be_diffed_by_random_and_by_skilled_play() {
    let list = json(&["list", "--format", "json"]);
    for game in list["games"].as_array().unwrap() {
        let id = game["id"].as_str().unwrap();
        let readings: Vec<&str> = game["interpretations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_str().unwrap())
            .collect();
        let short = ["um-el-bagara", "um-el-tuweisat", "seega", "sijat-el-taba"].contains(&id);
        let mut args = vec!["diff", id, "--against", readings[0], "--format", "json"];
        if short {
            args.extend(["-n", "6", "--agents", "mcts:20:10,random", "--swap"]);
        } else {
            args.extend(["-n", "10"]);
        }
        let d = json(&args);
        let comparisons = d["comparisons"].as_array().unwrap();
        assert_eq!(comparisons.len(), readings.len() - 1, "{id}");
        for c in comparisons {
            let metrics = c["metrics"].as_array().unwrap();
            assert!(
                metrics.iter().any(|m| m["metric"] == "first_mover_win"),
                "{id}: {c}"
            );
            if short {
                assert!(
                    metrics
                        .iter()
                        .any(|m| m["metric"] == "agent_win:mcts:20:10"),
                    "{id}: {c}"
                );
            }
        }
    }
}

/// Bad search specs and misspelt names on the command line: exit 2, the value and its range
/// named, the nearest name suggested; the levels stand wherever an agent does.
#[test]
fn bad_search_specs_are_refused_with_a_suggestion() {
    for (agents, says) in [
        ("stong", "did you mean strong?"),
        ("fair,alphabeta", "did you mean ab:DEPTH?"),
        ("ab:0", "the depth must be 1 to 40, not 0"),
        ("ex:3:-5", "the node budget must be 1 to 100000000, not -5"),
        ("ab:1000", "the depth must be 1 to 40, not 1000"),
    ] {
        let err = fails(&[
            "run", "seega", "-i", "davies", "-n", "2", "--agents", agents,
        ]);
        assert!(err.contains(says), "{agents}: {err}");
    }
    let o = run_json(
        "um-el-tuweisat",
        "davies",
        &[
            "-n",
            "2",
            "--agents",
            "strong,mcts:5",
            "--swap",
            "--no-store",
        ],
    );
    assert_eq!(o["lineup"], serde_json::json!(["strong", "mcts:5"]));
}

/// `ladder --format json` of `args` after `ladder GAME`.
fn ladder_json(game: &str, args: &[&str]) -> Value {
    let mut all = vec!["ladder", game, "--format", "json"];
    all.extend(args);
    json(&all)
}

/// Greedy play is measured stronger than random play on Um el Tuweisat in 40 games: the
/// first agent of the pairing (random) is "weaker", its score's interval wholly below 45 %.
/// The fields add up: every game is won by one side, drawn, censored or endless.
#[test]
fn a_ladder_finds_greedy_stronger_than_random() {
    let l = ladder_json("um-el-tuweisat", &["--levels", "random,greedy", "-n", "40"]);
    assert_eq!(l["schema_version"], 1);
    assert_eq!(l["interpretation"], "davies");
    assert_eq!(l["games"], 40);
    assert_eq!(l["levels"], serde_json::json!(["random", "greedy"]));
    let pairings = l["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 1);
    let p = &pairings[0];
    assert_eq!(
        (p["first"].as_str(), p["second"].as_str()),
        (Some("random"), Some("greedy"))
    );
    let n = |k: &str| p[k].as_u64().unwrap_or_else(|| panic!("{k}: {p}"));
    assert_eq!(n("games"), 40);
    assert_eq!(
        n("first_wins") + n("second_wins") + n("draws") + n("censored") + n("endless"),
        40
    );
    assert_eq!(
        n("finished"),
        n("first_wins") + n("second_wins") + n("draws")
    );
    let score = p["score"]["value"].as_f64().unwrap();
    let by_hand = (n("first_wins") as f64 + n("draws") as f64 / 2.0) / n("finished") as f64;
    assert!((score - by_hand).abs() < 1e-4, "{score} vs {by_hand}");
    assert!(p["score"]["hi"].as_f64().unwrap() < 0.45, "{p}");
    assert_eq!(p["verdict"], "weaker");
}

/// Three levels play two adjacent pairings, four with `--all-pairs` three; the same seed
/// gives the same games.
#[test]
fn a_ladder_plays_adjacent_pairs_or_all_and_repeats_itself() {
    let args = ["--levels", "random,greedy,weak", "-n", "4"];
    let l = ladder_json("um-el-tuweisat", &args);
    let names = |l: &Value| -> Vec<String> {
        l["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                format!(
                    "{}-{}",
                    p["first"].as_str().unwrap(),
                    p["second"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(names(&l), ["random-greedy", "greedy-weak"]);
    assert_eq!(l, ladder_json("um-el-tuweisat", &args));
    let mut all = args.to_vec();
    all.push("--all-pairs");
    let a = ladder_json("um-el-tuweisat", &all);
    assert_eq!(names(&a), ["random-greedy", "random-weak", "greedy-weak"]);
    assert_eq!(a["all_pairs"], true);
}

/// Bad levels, too few levels, an odd number of games and a reading of more than two seats
/// are refused with exit 2, naming the value and what is valid.
#[test]
fn bad_ladders_are_refused() {
    let err = fails(&["ladder", "um-el-tuweisat", "--levels", "weak,strnog"]);
    assert!(
        err.contains("strnog") && err.contains("did you mean strong"),
        "{err}"
    );
    let err = fails(&["ladder", "um-el-tuweisat", "--levels", "fair"]);
    assert!(err.contains("two or more agents"), "{err}");
    let err = fails(&["ladder", "um-el-tuweisat", "--levels", "fair,fair"]);
    assert!(err.contains("listed twice"), "{err}");
    let err = fails(&["ladder", "um-el-tuweisat", "-n", "5"]);
    assert!(
        err.contains("multiple of 2") && err.contains("not 5"),
        "{err}"
    );
    let err = fails(&[
        "ladder",
        "lib-el-merafib",
        "--levels",
        "random,greedy",
        "-n",
        "2",
    ]);
    assert!(err.contains("two-player readings only"), "{err}");
    let err = fails(&["ladder", "um-el-tuweisat", "-n", "0"]);
    assert!(err.contains("--games must be 1 to"), "{err}");
}

/// A reading whose players do not finish it says so, with how its games stopped and the open
/// points behind them: Li'b al-'Aqil's `dlp` (no repetition rule, no limit) proves almost
/// every game endless, under random play as under skilled; a quiet limit stops skilled Seega
/// games in which nothing is taken, as censored games, never as results.
#[test]
fn a_reading_that_does_not_finish_names_what_keeps_it_going() {
    let dlp = run_json("lib-al-aqil", "dlp", &["-n", "40"]);
    let f = &dlp["finishing"];
    assert_eq!(f["finishes"], false, "{f}");
    assert!(f["unfinished"]["endless"].as_u64().unwrap_or(0) > 30, "{f}");
    let behind: Vec<&str> = f["behind"]
        .as_array()
        .expect("behind")
        .iter()
        .filter_map(|b| b["id"].as_str())
        .collect();
    assert!(behind.contains(&"repetition"), "{behind:?}");
    // A reading that finishes carries no such field.
    let lane = run_json("lib-al-aqil", "lane", &["-n", "40"]);
    assert!(lane.get("finishing").is_none());

    let quiet = run_json(
        "seega",
        "davies",
        &["-n", "60", "--max-quiet", "256", "--max-plies", "5000"],
    );
    assert_eq!(quiet["max_quiet"], 256);
    let r = &quiet["results"];
    let stopped = r["timeouts_by_reason"]["quiet-limit"].as_u64().unwrap_or(0);
    assert!(stopped > 0, "{r}");
    assert!(r["censored"].as_u64().unwrap_or(0) >= stopped);
    let text = crate::util::ok(&[
        "run",
        "seega",
        "-i",
        "davies",
        "-n",
        "60",
        "--max-quiet",
        "256",
        "--max-plies",
        "5000",
    ]);
    assert!(
        text.contains("at its quiet limit (256 plies with no change of material)"),
        "{text}"
    );
    assert!(
        text.contains("--max-quiet 256"),
        "the reproduce line keeps it: {text}"
    );
}
