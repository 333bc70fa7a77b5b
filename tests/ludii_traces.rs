//! Ludii 1.0.8's recorded random playouts (tests/data/ludii-traces, format in TRACES.md
//! there) replayed decision by decision through the sowing engine bound to each game's
//! `ludii-1.0.8` reading: the same start, the same mover and legal moves (as a multiset) at
//! every decision, the same board and hands after every move, and the same result.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::games::sowing::{Sowing, SowingMove, SowingSetup, SowingState};
use ludotrace::games::{NoEvents, Result_, Rules, Status};
use ludotrace::ludii;
use serde::Deserialize;

use crate::util::root;

/// One recorded playout (TRACES.md §2).
#[derive(Debug, Deserialize)]
struct Playout {
    playout: usize,
    init: TraceState,
    steps: Vec<Step>,
    result: TraceResult,
}

/// `init` / `after` of a mancala trace (TRACES.md §2.2).
#[derive(Debug, Deserialize)]
struct TraceState {
    count: Vec<u16>,
    hand: [u32; 2],
    score: [u32; 2],
}

/// One decision (TRACES.md §2.1).
#[derive(Debug, Deserialize)]
struct Step {
    mover: usize,
    legal: Vec<String>,
    chosen: usize,
    after: TraceState,
}

/// How the playout ended (TRACES.md §2.4).
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

/// The difference between two lists taken as multisets, or `None` if they are equal.
fn multiset_difference(ludii: &[String], ours: &[String]) -> Option<String> {
    let mut count: BTreeMap<&str, i64> = BTreeMap::new();
    for d in ludii {
        *count.entry(d).or_default() += 1;
    }
    for d in ours {
        *count.entry(d).or_default() -= 1;
    }
    let mut missing = Vec::new();
    let mut extra = Vec::new();
    for (d, c) in count {
        for _ in 0..c.max(0) {
            missing.push(d);
        }
        for _ in 0..(-c).max(0) {
            extra.push(d);
        }
    }
    if missing.is_empty() && extra.is_empty() {
        return None;
    }
    Some(format!(
        "legal moves differ\n    Ludii:   {ludii:?}\n    ours:    {ours:?}\n    \
         missing from ours: {missing:?}\n    extra in ours:     {extra:?}"
    ))
}

/// Compares the board and hands (and, where the trace has them, the scores).
fn compare_state(
    rules: &Sowing,
    state: &SowingState,
    trace: &TraceState,
    what: &str,
) -> Result<(), String> {
    let count = ludii::sowing_counts(rules, state);
    let hand = ludii::sowing_hands(state);
    let mut diff = String::new();
    if count != trace.count {
        let _ = write!(diff, "\n    count: Ludii {:?}, ours {count:?}", trace.count);
    }
    if hand != trace.hand {
        let _ = write!(diff, "\n    hand:  Ludii {:?}, ours {hand:?}", trace.hand);
    }
    if diff.is_empty() {
        Ok(())
    } else {
        Err(format!("{what} differs (Ludii site order):{diff}"))
    }
}

fn winner_of(result: Result_) -> usize {
    match result {
        Result_::Draw => 0,
        Result_::Win(1) => 1,
        Result_::Win(2) => 2,
        Result_::Win(mask) => panic!("a two-player sowing game with winner mask {mask:#b}"),
        Result_::Unfinished => panic!("a Ludii reading never leaves a game unfinished"),
    }
}

/// Replays one playout; the first divergence as a message naming the step.
fn replay(rules: &Sowing, p: &Playout) -> Result<(), String> {
    let n = rules.holes();
    let mut state = rules.initial();
    compare_state(rules, &state, &p.init, "init").map_err(|e| format!("before step 0: {e}"))?;
    if p.init.score != [0, 0] {
        return Err(format!("init: the trace has score {:?}", p.init.score));
    }
    let mut legal = Vec::new();
    for (k, step) in p.steps.iter().enumerate() {
        let at = |msg: String| format!("step {k} (mover P{}): {msg}", step.mover);
        let status = rules.status(&state);
        if status != Status::ToMove(step.mover - 1) || state.mover() + 1 != step.mover {
            return Err(at(format!(
                "Ludii's mover is P{}, our status is {status:?} (mover seat {})",
                step.mover,
                state.mover()
            )));
        }
        rules.legal_moves(&state, &mut legal);
        let ours: Vec<String> = legal
            .iter()
            .map(|&mv| ludii::sowing_descriptor(n, mv))
            .collect();
        if let Some(diff) = multiset_difference(&step.legal, &ours) {
            return Err(at(format!(
                "{diff}\n    board before (Ludii sites): {:?}",
                ludii::sowing_counts(rules, &state)
            )));
        }
        let desc = step.legal.get(step.chosen).ok_or_else(|| {
            at(format!(
                "chosen {} is not an index into the {} legal moves",
                step.chosen,
                step.legal.len()
            ))
        })?;
        let mv: SowingMove = ludii::find_sowing_move(n, &legal, desc)
            .ok_or_else(|| at(format!("none of our moves is {desc}")))?;
        let before = ludii::sowing_counts(rules, &state);
        rules.apply(&mut state, mv, &mut NoEvents);
        compare_state(rules, &state, &step.after, "after").map_err(|e| {
            at(format!(
                "{desc} ({}): {e}\n    board before:        {before:?}",
                rules.display(mv)
            ))
        })?;
        let last = k + 1 == p.steps.len();
        let over = rules.status(&state) == Status::Over;
        if last && !over {
            return Err(at(format!(
                "Ludii's game ended after {desc}; ours goes on ({:?})",
                rules.status(&state)
            )));
        }
        if !last && over {
            return Err(at(format!(
                "our game ended after {desc} ({:?}); Ludii's goes on for {} more decisions",
                rules.outcome(&state),
                p.steps.len() - k - 1
            )));
        }
        let score = if last { p.result.score } else { [0, 0] };
        if step.after.score != score {
            return Err(at(format!(
                "the trace's own score {:?} is not {score:?} (TRACES.md §2.2)",
                step.after.score
            )));
        }
    }
    let Some(outcome) = rules.outcome(&state) else {
        return Err("the game is not over after the last step".to_owned());
    };
    let r = &p.result;
    let mut diff = String::new();
    let winner = winner_of(outcome.result);
    if winner != r.winner {
        let _ = write!(diff, "\n    winner: Ludii {}, ours {winner}", r.winner);
    }
    let end = ludii::end_name(outcome.end).unwrap_or(outcome.end.name());
    if end != r.end {
        let _ = write!(diff, "\n    end:    Ludii {}, ours {end}", r.end);
    }
    let (plies, turns) = (rules.plies(&state), rules.turns(&state));
    if plies != r.moves || p.steps.len() != r.moves as usize {
        let _ = write!(
            diff,
            "\n    moves:  Ludii {} ({} steps), ours {plies}",
            r.moves,
            p.steps.len()
        );
    }
    if turns != r.turns {
        let _ = write!(diff, "\n    turns:  Ludii {}, ours {turns}", r.turns);
    }
    if outcome.scores != r.score {
        let _ = write!(
            diff,
            "\n    score:  Ludii {:?}, ours {:?}",
            r.score, outcome.scores
        );
    }
    let cap = rules
        .params()
        .cap
        .expect("the Ludii readings have Ludii's limits");
    let limit = cap.turns.is_some_and(|t| turns >= t) || cap.moves.is_some_and(|m| plies >= m);
    if limit != r.limit_reached {
        let _ = write!(
            diff,
            "\n    limitReached: Ludii {}, ours {limit}",
            r.limit_reached
        );
    }
    if diff.is_empty() {
        Ok(())
    } else {
        Err(format!("result differs:{diff}"))
    }
}

/// Replays every playout of a game; fails with every divergent playout's first divergence.
fn replay_all(game: &str) {
    let rules = engine(game, "ludii-1.0.8");
    let playouts = playouts(game);
    let mut failures = Vec::new();
    let mut steps = 0;
    for p in &playouts {
        steps += p.steps.len();
        if let Err(e) = replay(&rules, p) {
            failures.push(format!("{game} / ludii-1.0.8, playout {}, {e}", p.playout));
        }
    }
    assert!(steps > 0);
    assert!(
        failures.is_empty(),
        "{} of {} playouts diverge from Ludii 1.0.8:\n\n{}",
        failures.len(),
        playouts.len(),
        failures.join("\n\n")
    );
}

#[test]
fn ludii_1_0_8_um_el_bagara_replays_every_trace() {
    replay_all("um-el-bagara");
}

#[test]
fn ludii_1_0_8_um_el_tuweisat_replays_every_trace() {
    replay_all("um-el-tuweisat");
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
                score: [0, 0],
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
