//! Ludii 1.0.8's recorded random playouts (tests/data/ludii-traces, format in TRACES.md
//! there): every shared trace replayed decision by decision through the reading that must
//! reproduce it, with the library's replayer (the one `ludotrace replay` runs: the mover, the
//! legal moves as a multiset and, for the mancala games, in Ludii's order, every state field
//! after every move, the stick throws as chance outcomes, and the result), one generic test
//! over a table of files; an altered step must be reported at that step, a record that stops
//! before the game ends or plays a move the engine does not have must diverge, and a trace of
//! another board or a file without a playout is an input error. Also the `ludii-intended`
//! reading of Um el Tuweisat against the traces' positions.

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::games::sowing::{Sowing, SowingSetup, SowingState};
use ludotrace::games::{NoEvents, Rules, Status};
use ludotrace::ludii;
use ludotrace::ludii::replay::{self, ParseError, Report};
use serde::Deserialize;

use crate::util::{bin, root, run};

/// One recorded playout (TRACES.md §2).
#[derive(Debug, Deserialize)]
struct Playout {
    playout: usize,
    init: TraceState,
    steps: Vec<Step>,
}

/// `init` / `after` of a mancala trace (TRACES.md §2.2).
#[derive(Debug, Deserialize)]
struct TraceState {
    count: Vec<u16>,
    hand: [u32; 2],
}

/// One decision (TRACES.md §2.1).
#[derive(Debug, Deserialize)]
struct Step {
    mover: usize,
    after: TraceState,
}

/// The sowing engine of a reading of the embedded corpus.
fn engine(game: &str, reading: &str) -> Sowing {
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game(game).unwrap();
    let interp = game.interpretation(reading).unwrap();
    let bound = bind::bind(game, interp, &serde_json::Map::new()).unwrap();
    let Engine::Sowing(rules) = bound.engine else {
        panic!("not a sowing game")
    };
    rules
}

/// The recorded playouts of a game.
fn playouts(game: &str) -> Vec<Playout> {
    let path = root().join(format!("tests/data/ludii-traces/{game}.jsonl"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let playouts: Vec<Playout> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}:{}: not a trace line: {e}", path.display(), i + 1))
        })
        .collect();
    assert_eq!(
        playouts.len(),
        20,
        "{}: expected 20 playouts",
        path.display()
    );
    for (i, p) in playouts.iter().enumerate() {
        assert_eq!(p.playout, i, "{}: playouts out of order", path.display());
    }
    playouts
}

/// Every shared trace: the file, the game and reading that must replay it, its playouts and
/// decisions (TRACES.md §8).
const TRACES: &[(&str, &str, &str, usize, usize)] = &[
    ("um-el-bagara", "um-el-bagara", "ludii-1.0.8", 20, 1_350),
    ("um-el-tuweisat", "um-el-tuweisat", "ludii-1.0.8", 20, 290),
    ("seega-5x5", "seega", "ludii-1.0.8", 20, 7_986),
    ("seega-7x7", "seega", "ludii-1.0.8-sebawee", 5, 7_488),
    ("seega-9x9", "seega", "ludii-1.0.8-tisawee", 3, 7_120),
    ("sijat-el-taba", "sijat-el-taba", "ludii-1.0.8", 20, 4_134),
];

/// Replays a trace text through a reading, with the library's replayer (the one `ludotrace
/// replay` runs).
fn replay_text(text: &str, game: &str, reading: &str) -> Result<Report, ParseError> {
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let g = corpus.game(game).unwrap();
    let interp = g.interpretation(reading).unwrap();
    let bound = bind::bind(g, interp, &serde_json::Map::new()).unwrap();
    let playouts = replay::parse(text)?;
    bound
        .engine
        .ludii_replay(game, reading, &playouts)
        .expect("no Ludii traces of the hyena game")
}

fn trace_text(file: &str) -> String {
    let path = root().join(format!("tests/data/ludii-traces/{file}.jsonl"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn every_shared_trace_replays_without_a_divergence() {
    let mut failures = Vec::new();
    for &(file, game, reading, playouts, decisions) in TRACES {
        let report =
            replay_text(&trace_text(file), game, reading).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            (report.playouts, report.decisions, report.decisions_checked),
            (playouts, decisions, decisions),
            "{file}"
        );
        // Ludii's own order is reproducible for the mancala games only (TRACES.md §2.1).
        assert_eq!(
            report.legal_order_checked,
            game.starts_with("um-el"),
            "{file}"
        );
        for d in &report.first_divergences {
            failures.push(format!(
                "{file} / {reading}, playout {}, step {:?}: {} differs\n  Ludii: {}\n  ours:  {}\n  {}",
                d.playout, d.step, d.what, d.expected, d.actual, d.context
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Edits one step of the first playout of a trace.
fn altered(file: &str, step: usize, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let text = trace_text(file);
    let first = text.lines().next().unwrap();
    let mut playout: serde_json::Value = serde_json::from_str(first).unwrap();
    edit(&mut playout["steps"][step]);
    serde_json::to_string(&playout).unwrap()
}

/// A trace file, its game and reading, the step altered, the divergence expected there, and
/// the edit.
type Alteration = (
    &'static str,
    &'static str,
    &'static str,
    usize,
    &'static str,
    Box<dyn Fn(&mut serde_json::Value)>,
);

#[test]
fn an_altered_step_is_reported_at_that_step() {
    // A field the game does not have, a board the engine does not reach, a legal move Ludii
    // did not list, the order, a throw the sticks did not make: each is the playout's first
    // divergence, at the step altered.
    let cases: [Alteration; 6] = [
        (
            "seega-5x5",
            "seega",
            "ludii-1.0.8",
            12,
            "state",
            // A field the replay does not know is one it has not checked.
            Box::new(|s| s["after"]["pieces"] = serde_json::json!([12, 12])),
        ),
        (
            "um-el-tuweisat",
            "um-el-tuweisat",
            "ludii-1.0.8",
            3,
            "state",
            // Only Sijat throws.
            Box::new(|s| s["after"]["throw"] = serde_json::json!(2)),
        ),
        (
            "seega-5x5",
            "seega",
            "ludii-1.0.8",
            30,
            "state",
            Box::new(|s| {
                let who = s["after"]["who"].as_array_mut().unwrap();
                let k = who.iter().position(|v| v == 0).unwrap();
                who[k] = serde_json::json!(2);
            }),
        ),
        (
            "um-el-bagara",
            "um-el-bagara",
            "ludii-1.0.8",
            4,
            "legal",
            Box::new(|s| {
                s["legal"]
                    .as_array_mut()
                    .unwrap()
                    .push(serde_json::json!("Select:0>0:TrackCW"));
            }),
        ),
        (
            "um-el-tuweisat",
            "um-el-tuweisat",
            "ludii-1.0.8",
            0,
            "legal-order",
            Box::new(|s| {
                // The first two moves swapped (the choice follows its move).
                s["legal"].as_array_mut().unwrap().swap(0, 1);
                let chosen = match s["chosen"].as_u64().unwrap() {
                    0 => 1,
                    1 => 0,
                    k => k,
                };
                s["chosen"] = serde_json::json!(chosen);
            }),
        ),
        (
            "sijat-el-taba",
            "sijat-el-taba",
            "ludii-1.0.8",
            5,
            "legal",
            Box::new(|s| {
                // Another throw, with the dice and pips that make it.
                let t = s["after"]["throw"].as_u64().unwrap();
                let (throw, dice, pips) = if t == 1 {
                    (6, [0, 0, 0], 0)
                } else {
                    (1, [1, 0, 0], 1)
                };
                s["after"]["throw"] = serde_json::json!(throw);
                s["after"]["dice"] = serde_json::json!(dice);
                s["after"]["pips"] = serde_json::json!(pips);
            }),
        ),
    ];
    for (file, game, reading, step, what, edit) in cases {
        let text = altered(file, step, edit);
        let report = replay_text(&text, game, reading).unwrap();
        assert_eq!(report.divergences, 1, "{file}");
        let d = &report.first_divergences[0];
        assert_eq!(
            (d.step, d.what.as_str()),
            (Some(step), what),
            "{file}: {d:?}"
        );
        // The decisions before it and the one that diverges were checked, no more.
        assert_eq!(report.decisions_checked, step + 1, "{file}");
    }
}

#[test]
fn a_trace_that_cannot_belong_to_the_reading_is_bad_input() {
    // A 7×7 game through the 5×5 reading: an input error naming the line, not a divergence.
    let e = replay_text(&trace_text("seega-7x7"), "seega", "ludii-1.0.8").unwrap_err();
    assert_eq!(e.line, Some(1));
    assert!(
        e.message.contains("49 sites") && e.message.contains("5×5"),
        "{e}"
    );
    // A mancala trace through Seega.
    let e = replay_text(&trace_text("um-el-bagara"), "seega", "ludii-1.0.8").unwrap_err();
    assert!(e.message.contains("no `who`"), "{e}");
    // A line that is not a playout.
    let mut text = trace_text("um-el-tuweisat");
    text.insert_str(0, "{\"playout\": 0, \"steps\": []}\n");
    let e = replay_text(&text, "um-el-tuweisat", "ludii-1.0.8").unwrap_err();
    assert_eq!(e.line, Some(1), "{e}");
}

/// The first playout of a trace file, edited as a whole, as a one-line trace text.
fn first_playout(file: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let text = trace_text(file);
    let mut playout: serde_json::Value =
        serde_json::from_str(text.lines().next().unwrap()).unwrap();
    edit(&mut playout);
    serde_json::to_string(&playout).unwrap()
}

/// The single divergence of a one-playout replay.
fn only_divergence(report: &Report, what: &str) -> replay::Divergence {
    assert_eq!(
        (report.playouts, report.divergences),
        (1, 1),
        "{what}: {report:?}"
    );
    report.first_divergences[0].clone()
}

#[test]
fn a_record_without_steps_and_an_invented_result_diverges() {
    // Nothing was played, so Ludii's claimed result is about a game the engine has not begun:
    // the record ends where the engine's game goes on, for every game (Sijat waits for its
    // first throw).
    for &(file, game, reading, _, _) in TRACES {
        let text = first_playout(file, |p| {
            p["steps"] = serde_json::json!([]);
            p["result"] = serde_json::json!({
                "winner": 1, "end": "natural", "limitReached": false, "moves": 0, "turns": 0,
                "ranking": [1, 2]
            });
        });
        let report = replay_text(&text, game, reading).unwrap();
        assert_eq!(report.decisions_checked, 0, "{file}");
        let d = only_divergence(&report, file);
        assert_eq!((d.step, d.what.as_str()), (None, "end"), "{file}: {d:?}");
        assert!(
            d.expected.contains("winner 1, end natural"),
            "{file}: {d:?}"
        );
        let waiting = if game == "sijat-el-taba" {
            "a throw is due"
        } else {
            "P1 to move"
        };
        assert!(
            d.actual.contains(&format!(
                "after 0 decisions but the game is not over: {waiting}"
            )),
            "{file}: {d:?}"
        );
    }
}

#[test]
fn a_record_cut_off_in_the_middle_diverges_where_it_stops() {
    // Every recorded decision up to the cut still matches; the game does not end there.
    for &(file, game, reading, _, _) in TRACES {
        let mut kept = 0;
        let text = first_playout(file, |p| {
            let steps = p["steps"].as_array_mut().unwrap();
            kept = steps.len() / 2;
            steps.truncate(kept);
        });
        let report = replay_text(&text, game, reading).unwrap();
        assert_eq!(report.decisions_checked, kept, "{file}");
        let d = only_divergence(&report, file);
        assert_eq!(
            (d.step, d.what.as_str()),
            (Some(kept - 1), "end"),
            "{file}: {d:?}"
        );
        assert!(
            d.actual.contains(&format!(
                "the record ends after {kept} decisions but the game is not over"
            )),
            "{file}: {d:?}"
        );
    }
}

#[test]
fn a_recorded_move_the_engine_does_not_have_diverges_naming_it() {
    // The move played replaced by one no engine lists: the replay names it and our moves, and
    // never plays another move in its place.
    let cases = [
        (
            "um-el-bagara",
            "um-el-bagara",
            "ludii-1.0.8",
            3,
            "Select:99>99:TrackCW",
        ),
        ("seega-5x5", "seega", "ludii-1.0.8", 40, "Move:99>98"),
        (
            "sijat-el-taba",
            "sijat-el-taba",
            "ludii-1.0.8",
            7,
            "Remove+Move:99>98",
        ),
    ];
    for (file, game, reading, step, bogus) in cases {
        let text = altered(file, step, |s| {
            let chosen = usize::try_from(s["chosen"].as_u64().unwrap()).unwrap();
            s["legal"][chosen] = serde_json::json!(bogus);
        });
        let report = replay_text(&text, game, reading).unwrap();
        let d = only_divergence(&report, file);
        assert_eq!(
            (d.step, d.what.as_str()),
            (Some(step), "legal"),
            "{file}: {d:?}"
        );
        assert!(d.expected.contains(bogus), "{file}: {d:?}");
        assert!(
            d.actual
                .contains(&format!("the move played, {bogus:?}, is not among ours")),
            "{file}: {d:?}"
        );
        // Our own list is shown in full: the one the recorded move displaced is there.
        assert!(d.actual.starts_with("[\""), "{file}: {d:?}");
        assert_eq!(report.decisions_checked, step + 1, "{file}");
    }
}

#[test]
fn every_recorded_result_field_is_compared() {
    // Each field of a full playout's result altered alone is a divergence at the result.
    let edits: [(&str, serde_json::Value); 6] = [
        ("winner", serde_json::json!(2)),
        ("end", serde_json::json!("turnLimit")),
        ("limitReached", serde_json::json!(true)),
        ("moves", serde_json::json!(1)),
        ("turns", serde_json::json!(1)),
        ("ranking", serde_json::json!([2, 1])),
    ];
    for (field, value) in edits {
        let text = first_playout("um-el-tuweisat", |p| p["result"][field] = value.clone());
        let report = replay_text(&text, "um-el-tuweisat", "ludii-1.0.8").unwrap();
        let d = only_divergence(&report, field);
        assert_eq!(
            (d.step, d.what.as_str()),
            (None, "result"),
            "{field}: {d:?}"
        );
    }
    let text = first_playout("sijat-el-taba", |p| {
        p["result"]["score"] = serde_json::json!([9, 9])
    });
    let report = replay_text(&text, "sijat-el-taba", "ludii-1.0.8").unwrap();
    assert_eq!(only_divergence(&report, "score").what, "result");
    // A game that scores cannot pass without its scores.
    for (file, game) in [
        ("sijat-el-taba", "sijat-el-taba"),
        ("um-el-bagara", "um-el-bagara"),
    ] {
        let text = first_playout(file, |p| {
            p["result"].as_object_mut().unwrap().remove("score");
        });
        let report = replay_text(&text, game, "ludii-1.0.8").unwrap();
        let d = only_divergence(&report, file);
        assert_eq!(d.what, "result", "{file}: {d:?}");
        assert!(d.expected.contains("score (not recorded)"), "{file}: {d:?}");
    }
    // Every trace records the ranking: a result without it is not a playout.
    let text = first_playout("seega-5x5", |p| {
        p["result"].as_object_mut().unwrap().remove("ranking");
    });
    let e = replay_text(&text, "seega", "ludii-1.0.8").unwrap_err();
    assert_eq!(e.line, Some(1), "{e}");
    assert!(e.message.contains("ranking"), "{e}");
}

#[test]
fn a_throw_its_dice_do_not_make_is_reported_at_its_step() {
    // The throw stays, the faces or their sum change: the recorded fields disagree.
    let edits: [(&str, serde_json::Value, &str); 3] = [
        ("pips", serde_json::json!(3), "is not the sum of the dice"),
        (
            "dice",
            serde_json::json!([1, 1, 1]),
            "is not the sum of the dice",
        ),
        (
            "dice",
            serde_json::json!([1, 2]),
            "no `dice` of three faces",
        ),
    ];
    for (field, value, message) in edits {
        let text = altered("sijat-el-taba", 9, |s| s["after"][field] = value.clone());
        let report = replay_text(&text, "sijat-el-taba", "ludii-1.0.8").unwrap();
        let d = only_divergence(&report, field);
        assert_eq!(
            (d.step, d.what.as_str()),
            (Some(9), "state"),
            "{field}: {d:?}"
        );
        assert!(d.expected.contains(message), "{field}: {d:?}");
    }
    // All three changed together to another throw still make a throw: the legal moves tell.
    let text = altered("sijat-el-taba", 9, |s| {
        let t = s["after"]["throw"].as_u64().unwrap();
        let (throw, dice, pips) = if t == 4 {
            (2, [1, 1, 0], 2)
        } else {
            (4, [1, 1, 1], 3)
        };
        s["after"]["throw"] = serde_json::json!(throw);
        s["after"]["dice"] = serde_json::json!(dice);
        s["after"]["pips"] = serde_json::json!(pips);
    });
    let report = replay_text(&text, "sijat-el-taba", "ludii-1.0.8").unwrap();
    assert_eq!(report.divergences, 1);
    assert_ne!(report.first_divergences[0].what, "state");
}

#[test]
fn a_file_without_a_playout_is_bad_input_not_a_pass() {
    for text in ["", "\n  \n\n"] {
        let e = replay_text(text, "seega", "ludii-1.0.8").unwrap_err();
        assert_eq!(e.line, None, "{e}");
        assert!(e.message.contains("holds no playout"), "{e}");
    }
}

#[test]
fn the_command_fails_what_it_did_not_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    // An empty file: exit 2, naming the file.
    let empty = path("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let (code, out, err) = run(bin().args(["replay", "seega", "-i", "ludii-1.0.8", &empty]));
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(&format!("{empty}: the file holds no playout")),
        "{err}"
    );
    // A playout without steps and an invented result: exit 1, nothing checked.
    let stepless = path("stepless.jsonl");
    let text = first_playout("um-el-tuweisat", |p| p["steps"] = serde_json::json!([]));
    std::fs::write(&stepless, text).unwrap();
    let (code, out, err) =
        run(bin().args(["replay", "um-el-tuweisat", "-i", "ludii-1.0.8", &stepless]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("1 playout(s) and 0 of 0 decisions checked · 1 playout(s) diverge"),
        "{out}"
    );
    assert!(
        out.contains("the game is not over: P1 to move") && !out.contains("every result"),
        "{out}"
    );
}

/// The engine position of a trace state with `mover` (1 or 2) to move.
fn setup(rules: &Sowing, trace: &TraceState, mover: usize) -> SowingState {
    let n = rules.holes();
    let house = |h: usize| {
        let site = ludii::sowing_house_to_site(n, h).unwrap();
        trace.count[site]
    };
    let rows = [(0..n).map(house).collect(), (n..2 * n).map(house).collect()];
    rules
        .setup(&SowingSetup {
            rows,
            stores: trace.hand,
            to_move: mover - 1,
            daughters: vec![],
        })
        .unwrap()
}

/// Checks the intended reading's list in one position against the quirk reading's: no
/// duplicate, seat 0's left house (site 0) listed when it may be sown, and otherwise the same
/// moves except that the quirk lists site 1 clockwise in its place.
fn check_intended(
    intended: &Sowing,
    quirk: &Sowing,
    state: &SowingState,
    quirk_state: &SowingState,
    what: &str,
) {
    let n = intended.holes();
    let descriptors = |rules: &Sowing, s: &SowingState| {
        let mut legal = Vec::new();
        rules.legal_moves(s, &mut legal);
        let mut d: Vec<String> = legal
            .iter()
            .map(|&mv| ludii::sowing_descriptor(n, mv))
            .collect();
        d.sort();
        d
    };
    let ours = descriptors(intended, state);
    let counts = ludii::sowing_counts(intended, state);
    let mut dedup = ours.clone();
    dedup.dedup();
    assert_eq!(dedup, ours, "{what}: a move listed twice; board {counts:?}");
    let left = "Select:0>0:TrackCW".to_owned();
    if state.mover() == 0 && counts[0] >= 2 {
        assert!(
            ours.contains(&left),
            "{what}: site 0 holds {} but is not listed: {ours:?}",
            counts[0]
        );
    }
    if state.mover() == 0 {
        let mut expected: Vec<String> = ours
            .iter()
            .filter(|&d| *d != left && d != "Pass")
            .cloned()
            .collect();
        if counts[1] >= 2 {
            expected.push("Select:1>1:TrackCW".to_owned());
        }
        if expected.is_empty() {
            // Only site 0 could be sown: the quirk leaves P1 a forced pass.
            expected.push("Pass".to_owned());
        }
        expected.sort();
        let got = descriptors(quirk, quirk_state);
        assert_eq!(
            got, expected,
            "{what}: the quirk reading's list is not the intended one with site 0 swapped for \
             site 1; board {counts:?}"
        );
    } else {
        assert_eq!(
            descriptors(quirk, quirk_state),
            ours,
            "{what}: P2's lists differ"
        );
    }
}

#[test]
fn ludii_intended_tuweisat_lists_the_left_hole_once() {
    let intended = engine("um-el-tuweisat", "ludii-intended");
    let quirk = engine("um-el-tuweisat", "ludii-1.0.8");
    assert_eq!(intended.holes(), 3);

    // Every position before a recorded decision, set up in both readings.
    let mut left_listed = 0;
    for p in playouts("um-el-tuweisat") {
        let mut before = &p.init;
        for (k, step) in p.steps.iter().enumerate() {
            let what = format!("um-el-tuweisat playout {}, step {k}", p.playout);
            let s = setup(&intended, before, step.mover);
            let q = setup(&quirk, before, step.mover);
            check_intended(&intended, &quirk, &s, &q, &what);
            if step.mover == 1 && before.count[0] >= 2 {
                left_listed += 1;
            }
            before = &step.after;
        }
    }
    assert!(left_listed > 0, "no recorded position tests the left hole");

    // And the intended reading's own games, with a fixed pseudo-random choice.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut left_played = 0;
    let mut legal = Vec::new();
    for game in 0..200 {
        let mut s = intended.initial();
        while let Status::ToMove(seat) = intended.status(&s) {
            let what = format!(
                "ludii-intended random game {game}, ply {}",
                intended.plies(&s)
            );
            let trace = TraceState {
                count: ludii::sowing_counts(&intended, &s),
                hand: s.stores(),
            };
            let q = setup(&quirk, &trace, seat + 1);
            check_intended(&intended, &quirk, &s, &q, &what);
            intended.legal_moves(&s, &mut legal);
            let mv = legal[(next() % legal.len() as u64) as usize];
            if ludii::sowing_descriptor(3, mv) == "Select:0>0:TrackCW" {
                left_played += 1;
            }
            intended.apply(&mut s, mv, &mut NoEvents);
        }
    }
    assert!(left_played > 0, "the random games never sowed site 0");
}
