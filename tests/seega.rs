//! Seega: the rules on positions built with `Custodial::setup`: Davies' example, each
//! blocked-player rule, the middle cell, continuation, lines and sandwiches. (Ludii 1.0.8's
//! recorded Seega games are replayed with the others in `ludii_traces`.)

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::games::custodial::{
    Custodial, CustodialMove, CustodialSetup, CustodialState, parse_cell,
};
use ludotrace::games::{EndReason, Result_, Rules, Status};
use serde_json::{Map, Value, json};

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

/// The middle cell: Ludii 1.0.8 cannot eat a piece there; Ludii 1.3.10 (and Davies, who
/// mentions no such rule) can. Seat 1 steps b2-b3, enclosing c3 (the middle) against d3.
#[test]
fn the_middle_cell_protects_only_where_the_reading_says() {
    let rows = [".....", ".....", "..ox.", "x....", "....o"];
    for (reading, eaten, event) in [
        ("ludii-1.0.8", false, "centre-safe"),
        ("ludii", true, "centre-taken"),
        ("davies", true, "centre-taken"),
    ] {
        let rules = engine(reading, &json!({}));
        let mut s = position(&rules, &rows, 0);
        let events = play(&rules, &mut s, step(&rules, "a2", "b2"));
        assert!(events.is_empty(), "{reading}: {events:?}");
        play(&rules, &mut s, step(&rules, "e1", "e2"));
        let events = play(&rules, &mut s, step(&rules, "b2", "b3"));
        assert!(events.contains(&event.to_owned()), "{reading}: {events:?}");
        assert_eq!(
            s.who(rules.centre()).is_none(),
            eaten,
            "{reading}: {}",
            rules.board_text(&s)
        );
    }
}

/// A capture that leaves the capturing piece another capture: under `continuation: none` the
/// turn ends (the chance is reported), under `while-capturing` the same piece must go on
/// capturing, and only with capturing steps.
#[test]
fn continuation_after_a_capture() {
    // Seat 1's a3 steps to b3 and eats b4 (against b5); from b3 a step to b2 would eat c2
    // (against d2).
    let rows = [".x...", ".o...", "x....", "..od.", "....o"];
    let rows = rows.map(|r| r.replace('d', "x"));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let none = engine("davies", &json!({}));
    let mut s = position(&none, &rows, 0);
    let events = play(&none, &mut s, step(&none, "a3", "b3"));
    assert_eq!(events, ["capture b4", "continuation-forgone b3"]);
    assert_eq!(none.status(&s), Status::ToMove(1));

    let on = engine("davies", &json!({ "continuation": "while-capturing" }));
    let mut s = position(&on, &rows, 0);
    let events = play(&on, &mut s, step(&on, "a3", "b3"));
    assert_eq!(events, ["capture b4", "continuation b3"]);
    assert_eq!(on.status(&s), Status::ToMove(0));
    assert_eq!(legal(&on, &s), ["b3-b2"]);
    let events = play(&on, &mut s, step(&on, "b3", "b2"));
    assert_eq!(events, ["capture c2"]);
    assert_eq!(on.status(&s), Status::ToMove(1));
}

/// A line of enemy pieces between two friends: one eaten under `single` (none here: the
/// piece next to the mover is not flanked alone), the whole line under `line`.
#[test]
fn a_line_of_enemies_is_eaten_only_under_line() {
    let rows = [".....", ".....", "x.oox", ".....", "o...."];
    let single = engine("davies", &json!({}));
    let mut s = position(&single, &rows, 0);
    assert!(play(&single, &mut s, step(&single, "a3", "b3")).is_empty());
    let line = engine("davies", &json!({ "capture_line": "line" }));
    let mut s = position(&line, &rows, 0);
    let events = play(&line, &mut s, step(&line, "a3", "b3"));
    // (c3 is the middle cell, which protects nobody in this reading.)
    assert_eq!(
        events,
        [
            "centre-taken",
            "line-capture pieces=2",
            "capture c3",
            "capture d3"
        ]
    );
}

/// Moving in between two enemies: safe under `safe` (reported), fatal under `suicide`.
#[test]
fn moving_into_a_sandwich() {
    let rows = [".....", ".o...", "x....", ".o...", "....x"];
    let safe = engine("davies", &json!({}));
    let mut s = position(&safe, &rows, 0);
    assert_eq!(
        play(&safe, &mut s, step(&safe, "a3", "b3")),
        ["sandwich-safe b3"]
    );
    assert_eq!(s.who(parse_cell("b3", 5).unwrap().into()), Some(0));
    let suicide = engine("davies", &json!({ "sandwich": "suicide" }));
    let mut s = position(&suicide, &rows, 0);
    assert_eq!(
        play(&suicide, &mut s, step(&suicide, "a3", "b3")),
        ["suicide b3"]
    );
    assert_eq!(s.who(parse_cell("b3", 5).unwrap().into()), None);
    assert_eq!(s.total(), 24, "the lost piece is still accounted for");
}

/// A placement that encloses an enemy piece eats it only under `placement_capture`.
#[test]
fn placing_can_eat_only_where_the_reading_says() {
    for (value, expected) in [
        (false, vec!["placement-flank c1"]),
        (true, vec!["capture b1", "placement-capture c1"]),
    ] {
        let rules = engine("dlp", &json!({ "placement_capture": value }));
        let mut s = rules
            .setup(&CustodialSetup {
                rows: &[".....", ".....", ".....", ".....", "xo..."],
                hands: [2, 2],
                to_move: 0,
            })
            .unwrap();
        let c1 = parse_cell("c1", 5).unwrap();
        assert_eq!(play(&rules, &mut s, CustodialMove::Place(c1)), expected);
    }
}

/// On a 3 × 3 board with four pieces each, seat 1 (first to place and to move) has all four
/// corners and seat 2 the four cells next to the middle: seat 1 cannot make the first move.
fn first_mover_shut_out(rules: &Custodial) -> (CustodialState, Vec<String>) {
    let mut s = rules.initial();
    let mut events = Vec::new();
    for cell in ["a1", "c1", "b1", "a2", "a3", "c3", "c2", "b3"] {
        let c = parse_cell(cell, 3).unwrap();
        events.extend(play(rules, &mut s, CustodialMove::Place(c)));
    }
    (s, events)
}

#[test]
fn a_first_mover_who_cannot_move() {
    let small = json!({ "size": 3, "pieces": 4 });
    let with = |v: &str| {
        let mut o = small.clone();
        o["first_blocked"] = json!(v);
        engine("dlp", &o)
    };
    // As any blocked player: he passes, and seat 2 moves.
    let rules = with("as-blocked");
    let (mut s, _) = first_mover_shut_out(&rules);
    assert_eq!(rules.status(&s), Status::ToMove(0));
    assert_eq!(legal(&rules, &s), ["pass"]);
    play(&rules, &mut s, CustodialMove::Pass);
    assert_eq!(rules.status(&s), Status::ToMove(1));
    // The other player moves first, without a pass.
    let rules = with("other-moves");
    let (s, events) = first_mover_shut_out(&rules);
    assert_eq!(events.last().unwrap(), "first-blocked seat=1");
    assert_eq!(rules.status(&s), Status::ToMove(1));
    // The board is placed again by the same first placer.
    let rules = with("redo-placement");
    let (s, events) = first_mover_shut_out(&rules);
    assert!(events.ends_with(&[
        "first-blocked seat=1".to_owned(),
        "placement-redone".to_owned()
    ]));
    assert_eq!(s.hands(), [4, 4]);
    assert_eq!(rules.board_text(&s), ".../.../...");
    assert_eq!(rules.status(&s), Status::ToMove(0));
    // He loses.
    let rules = with("loses");
    let (s, _) = first_mover_shut_out(&rules);
    assert_eq!(rules.outcome(&s).unwrap().result, Result_::Win(2));
}

/// A rook's move, and compulsory capture.
#[test]
fn rook_moves_and_compulsory_capture() {
    let rows = [".....", ".....", "x....", ".....", "o...o"];
    let rook = engine("davies", &json!({ "step": "rook" }));
    let mut s = position(&rook, &rows, 0);
    assert_eq!(
        legal(&rook, &s).len(),
        4 + 3,
        "four along the rank, three along the file"
    );
    assert_eq!(
        play(&rook, &mut s, step(&rook, "a3", "e3")),
        ["long-step cells=4"]
    );

    // Seat 1 can eat b1 (against a1) only by c2-c1: compulsory capture leaves just that move.
    let rows = ["....o", ".....", ".....", "..x..", "xo..."];
    let free = engine("davies", &json!({}));
    let s = position(&free, &rows, 0);
    assert!(legal(&free, &s).len() > 1);
    let forced = engine("davies", &json!({ "compulsory_capture": true }));
    let mut s = position(&forced, &rows, 0);
    assert_eq!(legal(&forced, &s), ["c2-c1"]);
    assert_eq!(
        play(&forced, &mut s, step(&forced, "c2", "c1")),
        ["capture b1", "capture-forced"]
    );
}

/// Stall rules end a game that cannot finish: by repetition, or after quiet decisions, then
/// by count or as a draw.
#[test]
fn stall_rules_end_a_stalled_game() {
    // Two pieces each that can never meet in a capture: shuffle back and forth.
    let rows = ["x...o", ".....", ".....", ".....", "x...o"];
    let rules = engine(
        "davies",
        &json!({ "stall": "repetition", "stall_result": "count" }),
    );
    let mut s = position(&rules, &rows, 0);
    let mut events = Vec::new();
    for (from, to) in [("a1", "a2"), ("e1", "e2"), ("a2", "a1"), ("e2", "e1")] {
        events.extend(play(&rules, &mut s, step(&rules, from, to)));
    }
    assert_eq!(events, ["stall-end pieces=2-2"]);
    assert_eq!(rules.outcome(&s).unwrap().result, Result_::Draw);

    let rules = engine(
        "davies",
        &json!({ "stall": "no-capture", "stall_plies": 3, "stall_result": "draw" }),
    );
    let mut s = position(&rules, &rows, 0);
    play(&rules, &mut s, step(&rules, "a1", "a2"));
    play(&rules, &mut s, step(&rules, "e1", "e2"));
    assert_eq!(rules.status(&s), Status::ToMove(0));
    let events = play(&rules, &mut s, step(&rules, "a2", "a3"));
    assert_eq!(events, ["stall-end pieces=2-2"]);
    assert_eq!(rules.status(&s), Status::Over);
}

/// `step: jump` (SJ-01 (c), the editors' simplest jump): a dog may step, or jump over one
/// neighbouring dog of either side to the empty square beyond. The dog jumped over is not
/// harmed, and the square the jumper left does not count as a friend behind it.
#[test]
fn a_dog_jumps_over_one_neighbour_under_jump() {
    let jump = engine("davies", &json!({ "step": "jump" }));
    let one = engine("davies", &json!({}));
    // x on a1 hemmed in by o on b1 and a2: under `one` it can only pass; under `jump` it
    // jumps over either.
    let rows = [".....", ".....", ".....", "o....", "xo..o"];
    let s = position(&one, &rows, 0);
    assert_eq!(legal(&one, &s), ["pass"]);
    let s = position(&jump, &rows, 0);
    assert_eq!(legal(&jump, &s), ["a1-a3", "a1-c1"]);

    // Over an enemy: b3 jumps c3 to d3. c3 now stands between d3 and the empty b3: not eaten.
    // (e3 stands by: d3 lands between friends, which matters to nothing.)
    let mut s = position(&jump, &[".....", ".....", ".xo.x", ".....", "....."], 0);
    assert_eq!(play(&jump, &mut s, step(&jump, "b3", "d3")), ["jump c3"]);
    assert_eq!(jump.board_text(&s), "...../...../..oxx/...../.....");

    // Over a friend: c1 jumps c2 to c3, enclosing the enemy on c4 against c5: it eats.
    let mut s = position(&jump, &["..x..", "..o..", ".....", "..x..", "..x.o"], 0);
    assert_eq!(
        play(&jump, &mut s, step(&jump, "c1", "c3")),
        ["jump c2", "capture c4"]
    );
    // Compulsory capture judges a jump with the jumper moved: c1-c3 eats as c2-c3 does; and
    // in the first position only e3-d3 eats (c3 against b3), not the jump b3-d3 (once b3 is
    // empty, c3 is not enclosed).
    let forced = engine(
        "davies",
        &json!({ "step": "jump", "compulsory_capture": true }),
    );
    let s = position(&forced, &["..x..", "..o..", ".....", "..x..", "..x.o"], 0);
    assert_eq!(legal(&forced, &s), ["c1-c3", "c2-c3"]);
    let s = position(&forced, &[".....", ".....", ".xo.x", ".....", "....."], 0);
    assert_eq!(legal(&forced, &s), ["e3-d3"]);
}

/// `stall: barrier` (SJ-09 (d), the editors' definition): the game ends, and the dogs are
/// counted, when the two sides are walled off and neither is made to open its wall.
#[test]
fn a_barrier_ends_the_game_by_count() {
    let barrier = engine(
        "davies",
        &json!({ "stall": "barrier", "stall_result": "count" }),
    );
    // Seat 1 (x, nine dogs) closes its wall on row 3 by c2-c3. Seat 2 (o, six) holds rows 4
    // and 5; a5 can step to b5 without leaving a square an x could reach, and x can shuffle
    // behind its wall: neither side can bring a dog next to an enemy without opening its own
    // line. The game ends before seat 2 moves, x ahead by nine to six.
    let rows = ["o....", "ooooo", "xx.xx", "x.x.x", "x...x"];
    let mut s = position(&barrier, &rows, 0);
    assert_eq!(barrier.status(&s), Status::ToMove(0), "c3 is open to both");
    let events = play(&barrier, &mut s, step(&barrier, "c2", "c3"));
    assert_eq!(events, ["stall-end pieces=9-6"]);
    let outcome = barrier.outcome(&s).unwrap();
    assert_eq!(outcome.result, Result_::Win(1));
    assert_eq!(outcome.end, EndReason::Natural);

    // With every o next to the wall, each o move opens it: no barrier, and o must move.
    let rows = [".....", "ooooo", "xx.xx", "x.x.x", "x...x"];
    let mut s = position(&barrier, &rows, 0);
    assert_eq!(
        play(&barrier, &mut s, step(&barrier, "c2", "c3")),
        [] as [&str; 0]
    );
    assert_eq!(barrier.status(&s), Status::ToMove(1));

    // Under the davies reading (no stall rule) the closed wall ends nothing.
    let davies = engine("davies", &json!({}));
    let rows = ["o....", "ooooo", "xx.xx", "x.x.x", "x...x"];
    let mut s = position(&davies, &rows, 0);
    play(&davies, &mut s, step(&davies, "c2", "c3"));
    assert_eq!(davies.status(&s), Status::ToMove(1));
}

/// One dog each can never eat (eating takes two dogs of a side, and so does a sandwich):
/// where only total destruction ends the game, it is ended as endless (a timeout with its
/// reason) as soon as play begins; where a rule can still end it, play goes on. (In play the
/// case arises only with one dog each from the start: eating never costs the eater a dog.)
#[test]
fn one_dog_each_is_endless_where_nothing_else_ends_the_game() {
    let place = |rules: &Custodial| {
        let mut s = rules.initial();
        rules.apply_chance(&mut s, 0, &mut Vec::new());
        let mut events = Vec::new();
        for c in ["a1", "e5"] {
            events.extend(play(
                rules,
                &mut s,
                CustodialMove::Place(parse_cell(c, 5).unwrap()),
            ));
        }
        (s, events)
    };
    let rules = engine("davies", &json!({ "pieces": 1 }));
    let (s, events) = place(&rules);
    assert_eq!(events, ["lone-pieces"]);
    let outcome = rules.outcome(&s).unwrap();
    assert_eq!(
        (outcome.result, outcome.end),
        (Result_::Unfinished, EndReason::Endless)
    );
    for overrides in [
        json!({ "pieces": 1, "stall": "no-capture", "stall_plies": 10, "stall_result": "draw" }),
        json!({ "pieces": 1, "cap": { "moves": 100, "outcome": "draw" } }),
    ] {
        let rules = engine("davies", &overrides);
        let (s, events) = place(&rules);
        assert!(events.is_empty(), "{overrides}: {events:?}");
        assert_eq!(rules.status(&s), Status::ToMove(0), "{overrides}");
    }
}

/// `placing: pair` (SJ-11 (b)): Davies' toss winner "places two dogs where he likes" as one
/// decision. Under `each` (Ludii's, every reading's), with placing that eats, the first dog
/// eats before the second is chosen, so the second may go where the eaten dog stood; under
/// `pair` both squares are chosen on the board as it was, and the turn is one ply.
/// A dog shut in a corner, its owner passing while the other side walks a dog back and
/// forth (one of Seega `davies`' long games under `--agents mcts:50`, seed 1): the
/// full position comes back, but by the mover's choice, and the shut-in side could still be
/// let out and eaten, so nothing is proved and the game goes on (a run's limit censors it).
/// Both sides can never be left with only a pass: a board with a piece and an empty cell
/// has a piece beside an empty cell, so a blocked board with both passing never arises.
#[test]
fn a_repeat_the_mover_chose_is_not_endless() {
    let rules = engine("davies", &json!({}));
    // From the top: seat 2's dog on e5 is shut in by d5 and e4.
    let start = [".xxxo", "...xx", "....x", ".....", "....x"];
    let mut s = position(&rules, &start, 1);
    let board = rules.board_text(&s);
    for (from, to) in [("e1", "e2"), ("e2", "e1"), ("e1", "e2"), ("e2", "e1")] {
        assert_eq!(legal(&rules, &s), ["pass"]);
        assert_eq!(
            play(&rules, &mut s, CustodialMove::Pass),
            ["forced-pass seat=2"]
        );
        assert!(legal(&rules, &s).len() > 1, "seat 1 has a choice");
        assert!(play(&rules, &mut s, step(&rules, from, to)).is_empty());
        assert!(rules.outcome(&s).is_none(), "the game goes on");
    }
    assert_eq!(rules.board_text(&s), board, "the full position came back");
    assert_eq!(rules.status(&s), Status::ToMove(1));
}

#[test]
fn a_pair_of_dogs_placed_as_one_decision() {
    let rows = [".....", ".....", ".....", ".....", "xo..."];
    let hands = [4, 4];
    let cell = |c: &str| parse_cell(c, 5).unwrap();
    let setup = |rules: &Custodial| {
        rules
            .setup(&CustodialSetup {
                rows: &rows,
                hands,
                to_move: 0,
            })
            .unwrap()
    };
    // Each dog a decision: c1 eats b1, and b1 is then free for the second dog.
    let each = engine("dlp", &json!({ "placement_capture": true }));
    let mut s = setup(&each);
    assert_eq!(
        play(&each, &mut s, CustodialMove::Place(cell("c1"))),
        ["capture b1", "placement-capture c1"]
    );
    assert_eq!(
        each.status(&s),
        Status::ToMove(0),
        "the second dog of the turn"
    );
    assert!(legal(&each, &s).contains(&"place b1".to_owned()));
    play(&each, &mut s, CustodialMove::Place(cell("b1")));
    assert_eq!((each.plies(&s), each.status(&s)), (2, Status::ToMove(1)));

    // The pair as one decision: b1 is occupied when the pair is chosen, so no pair takes it;
    // c1 and e1 land together, c1 eats b1, and the turn, one ply, passes.
    let pair = engine(
        "dlp",
        &json!({ "placement_capture": true, "placing": "pair" }),
    );
    let mut s = setup(&pair);
    let moves = legal(&pair, &s);
    assert_eq!(
        moves.len(),
        22 * 21 / 2,
        "pairs of the 22 empty squares but the middle"
    );
    assert!(moves.iter().all(|m| !m.contains("b1")));
    assert_eq!(
        play(
            &pair,
            &mut s,
            CustodialMove::PlacePair(cell("c1"), cell("e1"))
        ),
        ["capture b1", "placement-capture c1"]
    );
    assert_eq!((pair.plies(&s), pair.status(&s)), (1, Status::ToMove(1)));
    assert_eq!(s.hands(), [2, 4]);
    assert_eq!(pair.board_text(&s), "...../...../...../...../x.x.x");

    // The readings keep a dog a decision.
    for reading in ["davies", "dlp", "ludii", "ludii-1.0.8"] {
        let rules = engine(reading, &json!({}));
        assert_eq!(
            rules.params().placing,
            ludotrace::family::custodial::Placing::Each
        );
    }
}
