//! Sijat El Taba: the rules on positions built with `StickRace::setup`: Ludii 1.0.8's −1
//! credit, releasing, landing and overtaking, credits, unusable throws, the end of the track
//! and of the game. (Ludii 1.0.8's recorded Sijat games are replayed, each recorded throw
//! supplied as the chance outcome, with the others in `ludii_traces`.)

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::games::stick_race::{StickRace, StickRaceState, StickSetup};
use ludotrace::games::{Result_, Rules, Status};
use ludotrace::ludii;
use serde_json::{Map, Value, json};

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
