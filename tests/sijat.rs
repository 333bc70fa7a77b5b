//! Sijat El Taba: Ludii 1.0.8's recorded games replayed decision by decision through the
//! stick-race engine bound to the `ludii-1.0.8` reading, each recorded throw supplied as the
//! chance outcome; and the rules on positions built with `StickRace::setup`: releasing,
//! landing and overtaking, credits, unusable throws, the end of the track and of the game.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::games::stick_race::{StickMove, StickRace, StickRaceState, StickSetup};
use ludotrace::games::{Result_, Rules, Status};
use ludotrace::ludii;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::util::root;

/// The stick-race engine of a reading of the embedded corpus, with overrides.
pub fn engine(reading: &str, overrides: &Value) -> StickRace {
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("sijat-el-taba").unwrap();
    let interp = game.interpretation(reading).unwrap();
    let overrides: Map<String, Value> = overrides.as_object().cloned().unwrap_or_default();
    let bound = bind::bind(game, interp, &overrides)
        .unwrap_or_else(|e| panic!("sijat-el-taba / {reading} {overrides:?}: {e}"));
    match bound.engine {
        Engine::StickRace(r) => r,
        other => panic!("sijat-el-taba is not a stick race: {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Ludii 1.0.8 traces
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
struct Playout {
    playout: usize,
    init: TraceState,
    steps: Vec<Step>,
    result: TraceResult,
}

#[derive(Debug, Deserialize)]
struct TraceState {
    who: Vec<u8>,
    state: Vec<u8>,
    score: [u32; 2],
    value: [u32; 2],
    #[serde(default)]
    throw: Option<u8>,
}

#[derive(Debug, Deserialize)]
struct Step {
    mover: usize,
    legal: Vec<String>,
    chosen: usize,
    after: TraceState,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TraceResult {
    winner: usize,
    end: String,
    limit_reached: bool,
    moves: u32,
    turns: u32,
    score: [u32; 2],
}

fn playouts(file: &str, expected: usize) -> Vec<Playout> {
    let path = root().join(format!("tests/data/ludii-traces/{file}.jsonl"));
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
    assert_eq!(playouts.len(), expected, "{}", path.display());
    playouts
}

fn multiset_difference(ludii: &[String], ours: &[String]) -> Option<String> {
    let mut count: BTreeMap<&str, i64> = BTreeMap::new();
    for d in ludii {
        *count.entry(d).or_default() += 1;
    }
    for d in ours {
        *count.entry(d).or_default() -= 1;
    }
    let missing: Vec<&str> = count
        .iter()
        .filter(|(_, c)| **c > 0)
        .map(|(d, _)| *d)
        .collect();
    let extra: Vec<&str> = count
        .iter()
        .filter(|(_, c)| **c < 0)
        .map(|(d, _)| *d)
        .collect();
    (!missing.is_empty() || !extra.is_empty()).then(|| {
        format!("legal moves differ: missing from ours {missing:?}, extra in ours {extra:?}")
    })
}

fn compare(rules: &StickRace, s: &StickRaceState, t: &TraceState) -> Result<(), String> {
    let (who, active) = ludii::stick_sites(rules, s);
    let mut diff = String::new();
    if who != t.who {
        let _ = write!(
            diff,
            "\n    who:   Ludii {:?}\n           ours  {who:?}",
            t.who
        );
    }
    if active != t.state {
        let _ = write!(
            diff,
            "\n    state: Ludii {:?}\n           ours  {active:?}",
            t.state
        );
    }
    if s.score() != t.score {
        let _ = write!(
            diff,
            "\n    score: Ludii {:?}, ours {:?}",
            t.score,
            s.score()
        );
    }
    if s.bank() != t.value {
        let _ = write!(
            diff,
            "\n    value: Ludii {:?}, ours {:?}",
            t.value,
            s.bank()
        );
    }
    if diff.is_empty() { Ok(()) } else { Err(diff) }
}

fn replay(rules: &StickRace, p: &Playout) -> Result<(), String> {
    let mut s = rules.initial();
    compare(rules, &s, &p.init).map_err(|e| format!("init differs:{e}"))?;
    let mut legal = Vec::new();
    for (k, step) in p.steps.iter().enumerate() {
        let board = rules.state_text(&s);
        let at = |msg: String| {
            format!(
                "step {k} (mover P{}): {msg}\n    before: {board}",
                step.mover
            )
        };
        if rules.status(&s) != Status::Chance || s.mover() != step.mover - 1 {
            return Err(at(format!(
                "our status is {:?}, mover P{}",
                rules.status(&s),
                s.mover() + 1
            )));
        }
        let throw = step.after.throw.ok_or_else(|| at("no throw".to_owned()))?;
        let outcome = ludii::stick_throw_outcome(throw)
            .ok_or_else(|| at(format!("throw {throw} is not a throw")))?;
        rules.apply_chance(&mut s, outcome, &mut Vec::new());
        if rules.status(&s) != Status::ToMove(step.mover - 1) {
            return Err(at(format!(
                "after throw {throw}, our status is {:?}",
                rules.status(&s)
            )));
        }
        rules.legal_moves(&s, &mut legal);
        let described: Vec<(StickMove, String)> = legal
            .iter()
            .map(|&mv| {
                let d = ludii::stick_descriptor(&s, mv)
                    .ok_or_else(|| at(format!("{mv} has no Ludii descriptor")))?;
                Ok((mv, d))
            })
            .collect::<Result<_, String>>()?;
        let ours: Vec<String> = described.iter().map(|(_, d)| d.clone()).collect();
        if let Some(diff) = multiset_difference(&step.legal, &ours) {
            return Err(at(format!("throw {throw}: {diff}")));
        }
        let desc = &step.legal[step.chosen];
        let mv = described
            .iter()
            .find(|(_, d)| d == desc)
            .map(|(mv, _)| *mv)
            .ok_or_else(|| at(format!("none of our moves is {desc}")))?;
        rules.apply(&mut s, mv, &mut Vec::new());
        if let Err(e) = compare(rules, &s, &step.after) {
            return Err(at(format!("throw {throw}, after {desc}:{e}")));
        }
        let last = k + 1 == p.steps.len();
        let over = rules.status(&s) == Status::Over;
        if last != over {
            return Err(at(format!(
                "after {desc}: Ludii's game {} here, ours {} ({:?})",
                if last { "ends" } else { "goes on" },
                if over { "ends" } else { "goes on" },
                rules.outcome(&s)
            )));
        }
        if let Some(next) = p.steps.get(k + 1)
            && s.mover() != next.mover - 1
        {
            return Err(at(format!(
                "after {desc}: Ludii's next mover is P{}, ours P{}",
                next.mover,
                s.mover() + 1
            )));
        }
    }
    let outcome = rules.outcome(&s).ok_or("not over after the last step")?;
    let r = &p.result;
    let winner = match outcome.result {
        Result_::Draw => 0,
        Result_::Win(1) => 1,
        Result_::Win(2) => 2,
        other => return Err(format!("result {other:?}")),
    };
    let end = ludii::end_name(outcome.end).unwrap_or(outcome.end.name());
    let cap = rules
        .params()
        .cap
        .expect("Ludii readings carry Ludii's limits");
    let (plies, turns) = (rules.plies(&s), rules.turns(&s));
    let limit = cap.turns.is_some_and(|t| turns >= t) || cap.moves.is_some_and(|m| plies >= m);
    let ours = (winner, end, plies, turns, limit, outcome.scores);
    let theirs = (
        r.winner,
        r.end.as_str(),
        r.moves,
        r.turns,
        r.limit_reached,
        r.score,
    );
    if ours != theirs {
        return Err(format!(
            "result (winner, end, moves, turns, limit, score): Ludii {theirs:?}, ours {ours:?}"
        ));
    }
    Ok(())
}

#[test]
fn ludii_1_0_8_sijat_replays_every_trace() {
    let rules = engine("ludii-1.0.8", &json!({}));
    let playouts = playouts("sijat-el-taba", 20);
    let mut failures = Vec::new();
    let mut decisions = 0;
    for p in &playouts {
        decisions += p.steps.len();
        if let Err(e) = replay(&rules, p) {
            failures.push(format!("sijat-el-taba, playout {}, {e}", p.playout));
        }
    }
    assert_eq!(decisions, 4134);
    assert!(
        failures.is_empty(),
        "{} of {} playouts diverge from Ludii 1.0.8:\n\n{}",
        failures.len(),
        playouts.len(),
        failures.join("\n\n")
    );
}

/// The `−1` credit defect is what makes Ludii offer a capture one house short of the throw
/// with nothing banked (TRACES.md §7: playout 13, step 23); without it the offer is gone.
#[test]
fn the_empty_credit_defect_reaches_one_house_short() {
    let quirk = engine("ludii-1.0.8", &json!({}));
    let plain = engine(
        "ludii-1.0.8",
        &json!({"ludii_empty_credit_minus_one": false}),
    );
    // Seat 1's released counter on b2 (track index 18: row 1 runs west); an enemy one house
    // short of a throw of 2 (a2, index 19) and nothing banked.
    let rows = [
        "OOO....OO.",
        "..........",
        "..........",
        "..........",
        "ox........",
        "..........",
    ];
    let setup = StickSetup {
        rows: &rows,
        bank: [0, 0],
        score: [0, 0],
        to_move: 0,
        throw: Some(2),
    };
    let texts = |rules: &StickRace| {
        let s = rules.setup(&setup).unwrap();
        let mut legal = Vec::new();
        rules.legal_moves(&s, &mut legal);
        legal
            .iter()
            .map(|&mv| ludii::stick_descriptor(&s, mv).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(&quirk), ["Move:11>20", "Remove+Move:11>10:tabcap"]);
    assert_eq!(texts(&plain), ["Move:11>20"]);
}

// ---------------------------------------------------------------------------------------------
// The rules on built positions
// ---------------------------------------------------------------------------------------------

/// A position of a reading on the 6 × 10 board (rows from the top: `x`/`X` seat 1 released /
/// not, `o`/`O` seat 2), seat `to_move` holding `throw`.
fn position(
    rules: &StickRace,
    rows: &[&str],
    bank: [u32; 2],
    to_move: usize,
    throw: Option<u8>,
) -> StickRaceState {
    rules
        .setup(&StickSetup {
            rows,
            bank,
            score: [0, 0],
            to_move,
            throw,
        })
        .unwrap()
}

fn legal(rules: &StickRace, s: &StickRaceState) -> Vec<String> {
    let mut moves = Vec::new();
    rules.legal_moves(s, &mut moves);
    moves.iter().map(|&mv| rules.move_text(mv)).collect()
}

fn play(rules: &StickRace, s: &mut StickRaceState, text: &str) -> Vec<String> {
    let mut moves = Vec::new();
    rules.legal_moves(s, &mut moves);
    let mv = moves
        .iter()
        .copied()
        .find(|&mv| rules.move_text(mv) == text)
        .unwrap_or_else(|| panic!("{text} is not legal; legal: {:?}", legal(rules, s)));
    let mut events = Vec::new();
    rules.apply(s, mv, &mut events);
    events.iter().map(|e| rules.event_text(e)).collect()
}

/// Seat 1 on a1 (released) with enemies on c1 and d1; row 1 runs east, a1 → g1 with a séta.
const CHASE: [&str; 6] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "x.oo......",
];

#[test]
fn eating_by_landing_and_by_overtaking() {
    // Ludii and the DLP: only a landing eats; a counter passed over is safe.
    let ludii = engine("ludii", &json!({}));
    let mut s = position(&ludii, &CHASE, [0, 0], 0, Some(4));
    assert_eq!(legal(&ludii, &s), ["a1-e1"]);
    let events = play(&ludii, &mut s, "a1-e1");
    assert_eq!(events, ["passed-over c1", "passed-over d1"]);
    assert_eq!(s.score(), [0, 0]);
    let mut s = position(&ludii, &CHASE, [0, 0], 0, Some(2));
    let events = play(&ludii, &mut s, "a1-c1");
    assert_eq!(events, ["capture c1", "landing-capture c1"]);
    assert_eq!(s.score(), [1, 0]);

    // Davies: "A counter is eaten when overtaken": passing over eats (all, or the first).
    let over = engine("ludii", &json!({"capture": "overtaking"}));
    let mut s = position(&over, &CHASE, [0, 0], 0, Some(4));
    let events = play(&over, &mut s, "a1-e1");
    assert_eq!(
        events,
        [
            "capture c1",
            "overtaking-capture c1",
            "capture d1",
            "overtaking-capture d1"
        ]
    );
    assert_eq!(s.score(), [2, 0]);
    // Landing on an enemy is not a move when only overtaking eats.
    let s = position(&over, &CHASE, [0, 0], 0, Some(2));
    assert_eq!(legal(&over, &s), ["pass"]);
    let first = engine("ludii", &json!({"capture": "both", "overtaken": "first"}));
    let mut s = position(&first, &CHASE, [0, 0], 0, Some(4));
    let events = play(&first, &mut s, "a1-e1");
    assert_eq!(
        events,
        ["capture c1", "overtaking-capture c1", "overtaken-spared d1"]
    );
    assert_eq!(s.score(), [1, 0]);
}

#[test]
fn banked_tabas_help_to_overhaul_an_enemy() {
    // An enemy on f1, five houses on from a1: a rabî' (4) falls one short.
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "x....o....",
    ];
    // Ludii: all the banked tâbas or none, and only to eat by landing.
    let ludii = engine("ludii", &json!({}));
    let s = position(&ludii, &rows, [1, 0], 0, Some(4));
    assert_eq!(legal(&ludii, &s), ["a1-e1", "a1-f1 +1 credit"]);
    let s = position(&ludii, &rows, [2, 0], 0, Some(4));
    assert_eq!(legal(&ludii, &s), ["a1-e1"]);
    let mut s = position(&ludii, &rows, [1, 0], 0, Some(4));
    let events = play(&ludii, &mut s, "a1-f1 +1 credit");
    assert_eq!(
        events,
        ["credit-capture spent=1", "capture f1", "landing-capture f1"]
    );
    assert_eq!((s.bank(), s.score()), ([0, 0], [1, 0]));
    // Any number: with three banked, one is spent and two kept.
    let any = engine("ludii", &json!({"credits": "any"}));
    let mut s = position(&any, &rows, [3, 0], 0, Some(4));
    assert_eq!(legal(&any, &s), ["a1-e1", "a1-f1 +1 credit"]);
    play(&any, &mut s, "a1-f1 +1 credit");
    assert_eq!(s.bank(), [2, 0]);
    // Spare ones only: two counters still to release need two of three.
    let spare = engine("ludii", &json!({"credits": "spare", "release": "credit"}));
    let rows_waiting = [
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "x....o..XX",
    ];
    let s = position(&spare, &rows_waiting, [2, 0], 0, Some(4));
    assert!(!legal(&spare, &s).contains(&"a1-f1 +1 credit".to_owned()));
    let s = position(&spare, &rows_waiting, [3, 0], 0, Some(4));
    assert!(legal(&spare, &s).contains(&"a1-f1 +1 credit".to_owned()));
    // No credits at all.
    let none = engine("ludii", &json!({"credits": "none"}));
    let s = position(&none, &rows, [5, 0], 0, Some(4));
    assert_eq!(legal(&none, &s), ["a1-e1"]);
}

#[test]
fn releasing_a_counter() {
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "XX........",
    ];
    // Ludii and the DLP: a tâba just thrown releases a counter, which stays put; or it is
    // banked. The player throws again either way.
    let ludii = engine("ludii", &json!({}));
    let mut s = position(&ludii, &rows, [0, 0], 0, Some(1));
    assert_eq!(legal(&ludii, &s), ["bank", "release a1", "release b1"]);
    assert_eq!(play(&ludii, &mut s, "release a1"), ["released a1"]);
    assert!(s.is_active(0) && !s.is_active(1));
    assert_eq!((rules_status(&ludii, &s), s.mover()), (Status::Chance, 0));
    // A released counter may also move one house (ST-06 (b)), where that house is free.
    let moves = engine("ludii", &json!({"release_moves": true}));
    let s = position(&moves, &rows, [0, 0], 0, Some(1));
    assert_eq!(legal(&moves, &s), ["bank", "release b1-c1"]);
    // Released by a banked tâba (ST-05 (a)): a tâba is always banked; spending one is a
    // decision of its own, and the throw in hand is still to be used.
    let credit = engine("ludii", &json!({"release": "credit"}));
    let s = position(&credit, &rows, [0, 0], 0, Some(1));
    assert_eq!(legal(&credit, &s), ["bank"]);
    let mut s = position(&credit, &rows, [1, 0], 0, Some(4));
    assert_eq!(
        legal(&credit, &s),
        ["credit-release a1", "credit-release b1", "pass"]
    );
    assert_eq!(
        play(&credit, &mut s, "credit-release b1"),
        ["credit-release b1"]
    );
    assert_eq!(s.bank(), [0, 0]);
    assert_eq!(s.throw(), Some(4));
    assert_eq!(legal(&credit, &s), ["b1-f1"]);
}

fn rules_status(rules: &StickRace, s: &StickRaceState) -> Status {
    rules.status(s)
}

#[test]
fn a_throw_no_counter_can_use() {
    // Nothing released: a séta is lost. Ludii ends the turn (its forced pass); Davies' "a
    // throw of yômên stopping the player" lets him throw again.
    let rows = [
        "OOO....OOO",
        "..........",
        "..........",
        "..........",
        "..........",
        "XXX....XXX",
    ];
    let ludii = engine("ludii", &json!({}));
    let mut s = position(&ludii, &rows, [0, 0], 0, Some(6));
    assert_eq!(legal(&ludii, &s), ["pass"]);
    assert_eq!(
        play(&ludii, &mut s, "pass"),
        ["unusable-throw seat=1 throw=6"]
    );
    assert_eq!((ludii.status(&s), s.mover()), (Status::Chance, 1));
    let again = engine("ludii", &json!({"unusable": "throw-again"}));
    let mut s = position(&again, &rows, [0, 0], 0, Some(6));
    play(&again, &mut s, "pass");
    assert_eq!((again.status(&s), s.mover()), (Status::Chance, 0));
    // A yômên ends the turn whatever the rule.
    let mut s = position(&again, &rows, [0, 0], 0, Some(2));
    play(&again, &mut s, "pass");
    assert_eq!(s.mover(), 1);
    // A player who may decline has the pass beside his moves.
    let free = engine("ludii", &json!({"must_move": false}));
    let mut s = position(&free, &CHASE, [0, 0], 0, Some(4));
    assert_eq!(legal(&free, &s), ["a1-e1", "pass"]);
    assert_eq!(play(&free, &mut s, "pass"), ["declined seat=1"]);
}

#[test]
fn a_yomen_that_is_not_played_only_stops_the_player() {
    let stop = engine("ludii", &json!({"yomen_played": false}));
    let mut s = position(&stop, &CHASE, [0, 0], 0, None);
    let mut events = Vec::new();
    stop.apply_chance(&mut s, 1, &mut events);
    assert_eq!(events.len(), 1);
    assert_eq!(stop.event_text(&events[0]), "yomen-stops seat=1");
    assert_eq!((stop.status(&s), s.mover()), (Status::Chance, 1));
    let ludii = engine("ludii", &json!({}));
    let mut s = position(&ludii, &CHASE, [0, 0], 0, None);
    ludii.apply_chance(&mut s, 1, &mut Vec::new());
    assert_eq!(s.throw(), Some(2));
}

#[test]
fn the_end_of_the_track() {
    // Seat 1's track ends on a6 (row 6 runs west): a counter on c6 is two houses short.
    let rows = [
        "..x.......",
        "..........",
        "..........",
        "..........",
        "..........",
        "........o.",
    ];
    let exact = engine("ludii", &json!({"end": "annihilation"}));
    let s = position(&exact, &rows, [0, 0], 0, Some(4));
    assert_eq!(legal(&exact, &s), ["pass"]);
    let stop = engine(
        "ludii",
        &json!({"end": "annihilation", "overshoot": "stop"}),
    );
    let mut s = position(&stop, &rows, [0, 0], 0, Some(4));
    assert_eq!(play(&stop, &mut s, "c6-a6"), ["stopped-at-end a6"]);
    let s2 = position(
        &stop,
        &[
            "x.........",
            "..........",
            "..........",
            "..........",
            "..........",
            "........o.",
        ],
        [0, 0],
        0,
        Some(4),
    );
    assert_eq!(legal(&stop, &s2), ["pass"]);
    let off = engine(
        "ludii",
        &json!({"end": "annihilation", "overshoot": "bear-off"}),
    );
    let mut s = position(&off, &rows, [0, 0], 0, Some(4));
    let events = play(&off, &mut s, "c6-off");
    assert_eq!(
        events,
        ["borne-off c6", "annihilation seat=1", "equal-captures"]
    );
    assert_eq!(s.home(), [1, 0]);
    assert_eq!(off.outcome(&s).map(|o| o.result), Some(Result_::Draw));
}

#[test]
fn the_game_ends_when_no_capture_is_possible_and_the_greater_eater_wins() {
    // Ludii: every counter in its last row ends the game; seat 2 has eaten more.
    let ludii = engine("ludii", &json!({}));
    let rows = [
        "...x......",
        "..........",
        "..........",
        "..........",
        ".o........",
        ".......o..",
    ];
    let mut s = ludii
        .setup(&StickSetup {
            rows: &rows,
            bank: [0, 0],
            score: [1, 2],
            to_move: 1,
            throw: Some(2),
        })
        .unwrap();
    assert_eq!(legal(&ludii, &s), ["b2-a1", "h1-j1"]);
    let events = play(&ludii, &mut s, "b2-a1");
    assert_eq!(events, ["final-rows"]);
    let outcome = ludii.outcome(&s).unwrap();
    assert_eq!(outcome.result, Result_::Win(2));
    assert_eq!(outcome.scores, [1, 2]);
}
