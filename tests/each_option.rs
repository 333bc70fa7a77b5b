//! Every option plays alone: each option of every choice, switched alone into a game's first
//! reading (`run --each-option`), binds and runs to an end or to a timeout with its reason,
//! or is refused because no game of it can ever end (the family's static check);
//! `--choose` is the same switch for one option, and its row of `--each-option` reproduces.

use std::collections::BTreeSet;

use ludotrace::corpus::{self, Corpus, CorpusFiles};

use crate::util::{bin, json, run};

/// Games per option: enough to see an option end games, few enough for every option of
/// every game in a debug build.
const GAMES: &str = "6";
/// The ply limit of the sweep: a reading that has not ended by then counts as a timeout at
/// the ply limit, which the sweep tells apart from a game the rules found endless.
const MAX_PLIES: &str = "3000";

fn corpus() -> Corpus {
    corpus::load(&CorpusFiles::embedded())
        .corpus
        .expect("the embedded corpus loads")
}

#[test]
fn every_option_alone_in_the_first_reading_plays() {
    let corpus = corpus();
    let mut failures = Vec::new();
    for game in &corpus.games {
        let first = &game.interpretations[0];
        let v = json(&[
            "run",
            &game.id,
            "--each-option",
            "-n",
            GAMES,
            "--max-plies",
            MAX_PLIES,
            "--format",
            "json",
        ]);
        // An option refused because no game of it can end (the family's static check, with
        // its reason) is a finding, and counts as seen; any other refusal is a failure.
        let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
        for r in v
            .get("refused")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
        {
            let reason = r["reason"].as_str().unwrap_or_default();
            let choose = r["choose"].as_object().expect("a refused option is named");
            match choose.iter().next() {
                Some((c, o)) if choose.len() == 1 && reason.contains(" cannot end: ") => {
                    seen.insert((c.clone(), o.as_str().unwrap().to_owned()));
                }
                _ => failures.push(format!("{}: option refused: {r}", game.id)),
            }
        }
        // One row for the reading as it stands, then one per option it does not take.
        let mut expected: BTreeSet<(String, String)> = BTreeSet::new();
        for choice in &game.choices {
            let taken = first
                .choose
                .iter()
                .find(|(c, _)| *c == choice.id)
                .map(|(_, o)| o);
            for o in &choice.options {
                if Some(&o.id) != taken {
                    expected.insert((choice.id.clone(), o.id.clone()));
                }
            }
        }
        let runs = v["runs"].as_array().expect("runs");
        assert!(
            runs[0].get("choose").is_none(),
            "{}: the first row is the reading as it stands",
            game.id
        );
        for r in &runs[1..] {
            let choose = r["choose"].as_object().expect("each row names its option");
            assert_eq!(
                choose.len(),
                1,
                "{}: one option per row: {choose:?}",
                game.id
            );
            let (c, o) = choose.iter().next().unwrap();
            seen.insert((c.clone(), o.as_str().unwrap().to_owned()));
            let res = &r["results"];
            let wins: u64 = res["wins"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_u64().unwrap())
                .sum::<u64>();
            let draws = res["draws"].as_u64().unwrap();
            let timeouts = res["timeouts"].as_u64().unwrap();
            // A game with several winners counts once for each, so wins may exceed games
            // only in games with more than two seats; every game is won, drawn or timed out.
            assert!(
                wins + draws + timeouts >= r["games"].as_u64().unwrap(),
                "{} {c}={o}: every game counts: {res}",
                game.id
            );
            let by_reason: u64 = res["timeouts_by_reason"]
                .as_object()
                .unwrap()
                .values()
                .map(|n| n.as_u64().unwrap())
                .sum();
            assert_eq!(
                by_reason, timeouts,
                "{} {c}={o}: every timeout has its reason: {res}",
                game.id
            );
        }
        let missing: Vec<_> = expected.difference(&seen).collect();
        if !missing.is_empty() {
            failures.push(format!("{}: options not played: {missing:?}", game.id));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_row_of_each_option_is_the_run_of_choose() {
    let all = json(&[
        "run",
        "um-el-bagara",
        "--each-option",
        "-n",
        "40",
        "--format",
        "json",
    ]);
    let row = all["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r.get("choose").is_some())
        .expect("an option row")
        .clone();
    let (c, o) = row["choose"].as_object().unwrap().iter().next().unwrap();
    let switch = format!("{c}={}", o.as_str().unwrap());
    let one = json(&[
        "run",
        "um-el-bagara",
        "--choose",
        &switch,
        "-n",
        "40",
        "--format",
        "json",
    ]);
    assert_eq!(one["results"], row["results"], "{switch}");
    assert_eq!(one["overrides"], row["overrides"], "{switch}");
    assert_eq!(one["choose"], row["choose"], "{switch}");
}

#[test]
fn choose_refuses_what_it_cannot_mean() {
    let fails = |args: &[&str]| {
        let (exit, out, err) = run(bin().args(args));
        assert_eq!(exit, 2, "{args:?} should fail with 2: {out}{err}");
        assert!(!err.contains("panicked"), "{err}");
        err
    };
    let err = fails(&["run", "um-el-bagara", "--choose", "nonsense"]);
    assert!(err.contains("expected CHOICE=OPTION"), "{err}");
    let err = fails(&["run", "um-el-bagara", "--choose", "no-such-choice=x"]);
    assert!(err.contains("its choices are"), "{err}");
    let game = corpus();
    let bagara = game.game("um-el-bagara").unwrap();
    let choice = &bagara.choices[0];
    let err = fails(&[
        "run",
        "um-el-bagara",
        "--choose",
        &format!("{}=no-such-option", choice.id),
    ]);
    assert!(err.contains("its options are"), "{err}");
    let o = &choice.options[0];
    let switch = format!("{}={}", choice.id, o.id);
    let err = fails(&[
        "run",
        "um-el-bagara",
        "--choose",
        &switch,
        "--choose",
        &switch,
    ]);
    assert!(err.contains("given twice"), "{err}");
    if let Some((param, value)) = o.sets.first() {
        let err = fails(&[
            "run",
            "um-el-bagara",
            "--choose",
            &switch,
            "--set",
            &format!("{param}={value}"),
        ]);
        assert!(err.contains("give each parameter once"), "{err}");
    }
    let err = fails(&["run", "um-el-bagara", "--each-option", "--format", "csv"]);
    assert!(
        err.contains("with --each-option, one row per option"),
        "{err}"
    );
}
