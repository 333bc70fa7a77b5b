//! Seega: Ludii 1.0.8's recorded games (5×5, 7×7, 9×9) replayed decision by decision through
//! the custodial engine bound to the `ludii-1.0.8*` readings, and the rules on positions built
//! with `Custodial::setup`: Davies' example, each blocked-player rule, the middle cell,
//! continuation, lines and sandwiches.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::games::custodial::{
    Custodial, CustodialMove, CustodialSetup, CustodialState, parse_cell,
};
use ludotrace::games::{EndReason, Result_, Rules, Status};
use ludotrace::ludii;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::util::root;

/// The custodial engine of a reading of the embedded corpus, with overrides.
pub fn engine(reading: &str, overrides: &Value) -> Custodial {
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("seega").unwrap();
    let interp = game.interpretation(reading).unwrap();
    let overrides: Map<String, Value> = overrides.as_object().cloned().unwrap_or_default();
    let bound = bind::bind(game, interp, &overrides)
        .unwrap_or_else(|e| panic!("seega / {reading} {overrides:?}: {e}"));
    match bound.engine {
        Engine::Custodial(r) => r,
        other => panic!("seega is not custodial: {other:?}"),
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
    hand: [u8; 2],
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

fn compare(rules: &Custodial, s: &CustodialState, t: &TraceState) -> Result<(), String> {
    let who = ludii::custodial_who(rules, s);
    let mut diff = String::new();
    if who != t.who {
        let _ = write!(
            diff,
            "\n    who:  Ludii {:?}\n          ours  {who:?}",
            t.who
        );
    }
    if s.hands() != t.hand {
        let _ = write!(diff, "\n    hand: Ludii {:?}, ours {:?}", t.hand, s.hands());
    }
    if diff.is_empty() { Ok(()) } else { Err(diff) }
}

fn replay(rules: &Custodial, p: &Playout) -> Result<(), String> {
    let n = rules.size();
    let mut s = rules.initial();
    compare(rules, &s, &p.init).map_err(|e| format!("init differs:{e}"))?;
    let mut legal = Vec::new();
    for (k, step) in p.steps.iter().enumerate() {
        let board = ludii::custodial_who(rules, &s);
        let at = |msg: String| {
            format!(
                "step {k} (mover P{}): {msg}\n    board before: {board:?}",
                step.mover
            )
        };
        if rules.status(&s) != Status::ToMove(step.mover - 1) {
            return Err(at(format!("our status is {:?}", rules.status(&s))));
        }
        rules.legal_moves(&s, &mut legal);
        let seat = step.mover - 1;
        let ours: Vec<String> = legal
            .iter()
            .map(|&mv| ludii::custodial_descriptor(n, seat, mv))
            .collect();
        if let Some(diff) = multiset_difference(&step.legal, &ours) {
            return Err(at(diff));
        }
        let desc = &step.legal[step.chosen];
        let mv = ludii::find_custodial_move(n, seat, &legal, desc)
            .ok_or_else(|| at(format!("none of our moves is {desc}")))?;
        rules.apply(&mut s, mv, &mut Vec::new());
        if let Err(e) = compare(rules, &s, &step.after) {
            return Err(at(format!("after {desc}:{e}")));
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
    let ours = (winner, end, plies, turns, limit);
    let theirs = (r.winner, r.end.as_str(), r.moves, r.turns, r.limit_reached);
    if ours != theirs {
        return Err(format!(
            "result (winner, end, moves, turns, limit): Ludii {theirs:?}, ours {ours:?}"
        ));
    }
    Ok(())
}

fn replay_all(reading: &str, file: &str, expected: usize) {
    let rules = engine(reading, &json!({}));
    let playouts = playouts(file, expected);
    let mut failures = Vec::new();
    let mut ends = BTreeMap::new();
    for p in &playouts {
        *ends.entry(p.result.end.clone()).or_insert(0) += 1;
        if let Err(e) = replay(&rules, p) {
            failures.push(format!("{file} / {reading}, playout {}, {e}", p.playout));
        }
    }
    eprintln!("{file}: ends {ends:?}");
    assert!(
        failures.is_empty(),
        "{} of {} playouts diverge from Ludii 1.0.8:\n\n{}",
        failures.len(),
        playouts.len(),
        failures.join("\n\n")
    );
}

#[test]
fn ludii_1_0_8_seega_5x5_replays_every_trace() {
    replay_all("ludii-1.0.8", "seega-5x5", 20);
}

#[test]
fn ludii_1_0_8_sebawee_7x7_replays_every_trace() {
    replay_all("ludii-1.0.8-sebawee", "seega-7x7", 5);
}

#[test]
fn ludii_1_0_8_tisawee_9x9_replays_every_trace() {
    replay_all("ludii-1.0.8-tisawee", "seega-9x9", 3);
}

// ---------------------------------------------------------------------------------------------
// The rules on built positions
// ---------------------------------------------------------------------------------------------

/// A position of a reading (rows from the top: `x` seat 1, `o` seat 2), with `to_move` to
/// move and nothing in hand.
fn position(rules: &Custodial, rows: &[&str], to_move: usize) -> CustodialState {
    rules
        .setup(&CustodialSetup {
            rows,
            hands: [0, 0],
            to_move,
        })
        .unwrap()
}

fn step(rules: &Custodial, from: &str, to: &str) -> CustodialMove {
    let n = rules.size();
    CustodialMove::Step {
        from: parse_cell(from, n).unwrap(),
        to: parse_cell(to, n).unwrap(),
    }
}

fn legal(rules: &Custodial, s: &CustodialState) -> Vec<String> {
    let mut out = Vec::new();
    rules.legal_moves(s, &mut out);
    let mut text: Vec<String> = out.iter().map(|&mv| rules.display(mv)).collect();
    text.sort();
    text
}

fn play(rules: &Custodial, s: &mut CustodialState, mv: CustodialMove) -> Vec<String> {
    let mut events = Vec::new();
    rules.play(s, mv, &mut events).unwrap();
    events.iter().map(|e| rules.event_text(e)).collect()
}

/// Davies 1925: 139: "by moving the counter O to the middle square, the player 'eats' both X1
/// and X2". Here O is the piece on c2, X1 stands on c4 (a friend behind it on c5) and X2 on b3
/// (a friend on a3): one move into the middle eats both, and the turn passes.
#[test]
fn davies_example_eats_two_at_once() {
    let rules = engine("davies", &json!({}));
    let mut s = position(&rules, &["..x..", "..o..", "xo...", "..x..", "....o"], 0);
    let events = play(&rules, &mut s, step(&rules, "c2", "c3"));
    assert_eq!(events, ["capture b3", "capture c4"], "{events:?}");
    assert_eq!(rules.board_text(&s), "..x../...../x.x../...../....o");
    // Seat 2 had three pieces of twelve on the board, now one; seat 1 has its three.
    assert_eq!(s.taken(), [11, 9]);
    assert_eq!(
        rules.status(&s),
        Status::ToMove(1),
        "Davies: his opponent then moves"
    );
}

/// Seat 2's piece in the corner a1 is shut in by a2 and b1; seat 1 also has a free piece on
/// c3. Seat 2 is to move.
const SHUT_IN: [&str; 5] = [".....", ".....", "..x..", "x....", "ox..."];

#[test]
fn a_blocked_player_passes_under_pass() {
    let rules = engine("davies", &json!({ "blocked": "pass" }));
    let mut s = position(&rules, &SHUT_IN, 1);
    assert_eq!(legal(&rules, &s), ["pass"]);
    let events = play(&rules, &mut s, CustodialMove::Pass);
    assert_eq!(events, ["forced-pass seat=2"]);
    // Seat 1 moves again, freely.
    assert_eq!(rules.status(&s), Status::ToMove(0));
    assert_eq!(legal(&rules, &s).len(), 4 + 4);
}

#[test]
fn the_opponent_must_open_a_line_under_opponent_opens() {
    let rules = engine("davies", &json!({ "blocked": "opponent-opens" }));
    let mut s = position(&rules, &SHUT_IN, 1);
    play(&rules, &mut s, CustodialMove::Pass);
    // Only the moves of a2 and b1 free the corner piece; c3's four steps do not.
    assert_eq!(legal(&rules, &s), ["a2-a3", "a2-b2", "b1-b2", "b1-c1"]);
    let events = play(&rules, &mut s, step(&rules, "b1", "c1"));
    assert_eq!(events, ["opening seat=1"]);
    assert_eq!(legal(&rules, &s), ["a1-b1"]);
}

#[test]
fn a_blocked_player_loses_under_loses() {
    let rules = engine("davies", &json!({ "blocked": "loses" }));
    let s = position(&rules, &SHUT_IN, 1);
    assert_eq!(rules.status(&s), Status::Over);
    let outcome = rules.outcome(&s).unwrap();
    assert_eq!(
        (outcome.result, outcome.end),
        (Result_::Win(1), EndReason::Natural)
    );
}

#[test]
fn a_blocked_player_ends_the_game_by_count_under_count() {
    let rules = engine("davies", &json!({ "blocked": "count" }));
    let s = position(&rules, &SHUT_IN, 1);
    assert_eq!(
        rules.outcome(&s).unwrap().result,
        Result_::Win(1),
        "three pieces to one"
    );
    // Seat 1 blocked with more pieces than seat 2 still wins the count.
    let s = position(&rules, &["oo...", "xo...", "o....", ".....", "....."], 0);
    assert_eq!(rules.outcome(&s).unwrap().result, Result_::Win(2));
}
