//! What the tool proves about games that cannot end: a combination of parameters under
//! which no game can end is refused by `run` with the reason (the family's static check),
//! while a neighbour that can end is played; a repeat that a player chose is not endless;
//! an engine's search that gives up proves nothing and is censored like the run's limit.

use ludotrace::games::{EndReason, Outcome, Result_};
use ludotrace::sim::{GameEnd, Timeout, game_end};

use crate::util::{fails, json};

/// Davies' spiral, with the end "the hyena is back in the village": he moves 4, 8 or 12
/// hollows (every throw played moves him double, the yômên played) and leaves the well from
/// hollow 81 (`well_exit: released`, `track_len: 81`), and must land on the village exactly:
/// 81 is not a multiple of 4, so no game can end. `run` refuses it (exit 2) naming the
/// parameters, why, and what would make it finishable.
#[test]
fn a_hyena_that_can_never_land_home_is_refused_with_the_reason() {
    let err = fails(&[
        "run",
        "lib-el-merafib",
        "-i",
        "davies",
        "--set",
        "end=hyena-home",
        "-n",
        "5",
    ]);
    for words in [
        "lib-el-merafib / davies cannot end",
        "end: hyena-home can never be met",
        "the hyena moves 4, 8 or 12 hollows at a time",
        "from hollow 81",
        "81 is not a multiple of 4",
        "village_exact: false",
        "all-home, first-eaten",
    ] {
        assert!(err.contains(words), "{words:?} not in {err}");
    }
    // `--each-option` and the other readings are not at fault: only the combination is.
    let err = fails(&[
        "run",
        "lib-el-merafib",
        "-i",
        "davies",
        "--set",
        "end=hyena-home",
        "--set",
        "track_len=85",
    ]);
    assert!(err.contains("85 is not a multiple of 4"), "{err}");
}

/// The finishable neighbours are played: a spiral of 84 (the well 84 hollows out, a multiple
/// of 4), or any throw that reaches the village bringing him home; neither is refused, and
/// their games end by the rules (no game is proved endless at once, as every one was).
#[test]
fn its_finishable_neighbours_are_played() {
    for set in ["track_len=84", "village_exact=false"] {
        let v = json(&[
            "run",
            "lib-el-merafib",
            "-i",
            "davies",
            "--set",
            "end=hyena-home",
            "--set",
            set,
            "-n",
            "20",
            "--format",
            "json",
        ]);
        let r = &v["results"];
        let endless = r["timeouts_by_reason"]["endless"].as_u64().unwrap_or(0);
        assert!(endless < 20, "{set}: {r}");
        let ended = r["wins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .sum::<u64>()
            + r["draws"].as_u64().unwrap();
        assert!(ended > 0, "{set}: {r}");
    }
}

/// Sijat El Taba: courses run round never finish, so `end: courses-run` is never met; lanes
/// share no house, so `end: annihilation` is never met and `standstill: endless` decides
/// nothing. Each is refused without a cap, and played with one or with `standstill: decide`.
#[test]
fn stick_race_combinations_that_cannot_end_are_refused() {
    let err = fails(&[
        "run",
        "sijat-el-taba",
        "-i",
        "davies",
        "--set",
        "end=courses-run",
        "--set",
        "overshoot=round",
    ]);
    assert!(
        err.contains("end: courses-run with overshoot: round can never be met"),
        "{err}"
    );
    let err = fails(&[
        "run",
        "sijat-el-taba",
        "-i",
        "davies",
        "--set",
        "end=annihilation",
        "--set",
        "track=lanes",
        "--set",
        "standstill=endless",
    ]);
    assert!(
        err.contains("end: annihilation with track: lanes can never be met"),
        "{err}"
    );
    for extra in [
        ["--set", "standstill=decide"],
        ["--set", r#"cap={"moves":2000,"outcome":"draw"}"#],
    ] {
        let mut args = vec![
            "run",
            "sijat-el-taba",
            "-i",
            "davies",
            "--set",
            "end=annihilation",
            "--set",
            "track=lanes",
            "-n",
            "3",
            "--format",
            "json",
        ];
        args.extend(extra);
        let v = json(&args);
        assert_eq!(v["games"], 3, "{extra:?}");
    }
}

/// An engine's search inside a forced stretch that gives up (a relay past the relay limit,
/// idle stages past their bound, no cycle found) proves nothing: the game is censored, as if
/// the run's limit had stopped it, never a cycle or endless.
#[test]
fn a_search_that_gives_up_is_censored_not_endless() {
    let outcome = |end| {
        Some(Outcome {
            result: Result_::Unfinished,
            end,
            scores: [0, 0],
            ranks: Outcome::UNRANKED,
        })
    };
    assert_eq!(
        game_end(outcome(EndReason::SearchLimit)),
        GameEnd::Timeout(Timeout::SearchLimit)
    );
    assert_eq!(
        game_end(outcome(EndReason::Cycle)),
        GameEnd::Timeout(Timeout::Cycle)
    );
    assert_eq!(
        game_end(outcome(EndReason::Endless)),
        GameEnd::Timeout(Timeout::Endless)
    );
    assert_eq!(EndReason::SearchLimit.name(), "search-limit");
}

/// The global design over Li'b el-Merafib's option space draws combinations that cannot end
/// (`end=hyena-home` with exact landing on a spiral the hyena's moves cannot cover): each is
/// left out like a refused reading, counted apart, and listed as a `cannot-end` flag.
#[test]
fn the_global_design_leaves_out_what_cannot_end_and_says_so() {
    let args = [
        "flags",
        "lib-el-merafib",
        "-n",
        "2",
        "--global",
        "--design",
        "300",
        "--global-games",
        "2",
    ];
    let mut with_json = args.to_vec();
    with_json.extend(["--format", "json"]);
    let v = json(&with_json);
    let d = &v["sensitivity"]["global_design"];
    let cannot = d["cannot_end"].as_u64().unwrap();
    let refused = d["refused"].as_u64().unwrap();
    let combinations = d["cannot_end_combinations"].as_array().unwrap();
    assert!(cannot >= 1 && cannot <= refused, "{d}");
    assert!(
        !combinations.is_empty() && combinations.len() as u64 <= cannot,
        "{d}"
    );
    for c in combinations {
        assert!(
            c["combination"]
                .as_str()
                .unwrap()
                .contains("end=hyena-home"),
            "{c}"
        );
        assert!(
            c["reason"].as_str().unwrap().contains("can never be met"),
            "{c}"
        );
    }
    let flags: Vec<&serde_json::Value> = v["flags"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "cannot-end")
        .collect();
    assert_eq!(
        flags
            .iter()
            .filter(|f| f["id"].as_str().unwrap().starts_with("cannot-end:global:"))
            .count(),
        combinations.len(),
        "{flags:?}"
    );
    let text = crate::util::ok(&args);
    assert!(
        text.contains(&format!(
            "{cannot} of them left out because their combination can never end"
        )),
        "{text}"
    );
}
