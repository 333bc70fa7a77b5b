//! Sijat El Taba: the rules on positions built with `StickRace::setup`: Ludii 1.0.8's −1
//! credit, releasing, landing and overtaking, credits, unusable throws, the end of the track
//! and of the game. (Ludii 1.0.8's recorded Sijat games are replayed, each recorded throw
//! supplied as the chance outcome, with the others in `ludii_traces`.)

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::family::stick_race::StickRaceParams;
use ludotrace::games::stick_race::{StickRace, StickRaceState, StickSetup};
use ludotrace::games::{EndReason, Result_, Rules, Status};
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

/// The engine of a combination that binding refuses because no game of it can end (the
/// family's static check, asserted here): built from the same parameters directly, to show
/// that the engine proves it in play too.
pub fn engine_that_cannot_end(reading: &str, overrides: &Value) -> StickRace {
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("sijat-el-taba").unwrap();
    let interp = game.interpretation(reading).unwrap();
    let overrides: Map<String, Value> = overrides.as_object().cloned().unwrap_or_default();
    let refused = bind::bind(game, interp, &overrides)
        .err()
        .map(|e| e.to_string());
    assert!(
        refused.as_deref().is_some_and(|e| e.contains("cannot end")),
        "{overrides:?}: {refused:?}"
    );
    let mut values = interp.param_values();
    values.extend(overrides);
    let params = StickRaceParams::from_values(&values).unwrap();
    StickRace::new(&params).unwrap()
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

// ---------------------------------------------------------------------------------------------
// The register's other readings (issue 16): tracks, sharing a house, release at the throw,
// credits in any move, a banked unusable throw, the end of every course, a standstill
// ---------------------------------------------------------------------------------------------

/// A house's name on the 6 × 10 board.
fn name(h: u8) -> String {
    ludotrace::games::stick_race::house_name(usize::from(h), 10)
}

/// A seat's track as house names.
fn track_names(rules: &StickRace, seat: usize) -> Vec<String> {
    rules.track(seat).iter().map(|&h| name(h)).collect()
}

#[test]
fn a_circuit_round_the_board() {
    // ST-02 (b): one ring through every house, both armies the same way round, B's course
    // A's turned half a circle.
    let circuit = engine("davies", &json!({"track": "circuit"}));
    let a = track_names(&circuit, 0);
    let b = track_names(&circuit, 1);
    assert_eq!(a.len(), 60);
    assert_eq!(
        &a[..12],
        [
            "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1", "j2", "i2"
        ]
    );
    // Up the right half of the middle rows to beside the far right corner, then along B's
    // nearest row and down the left half to beside A's first house.
    assert_eq!(&a[28..32], ["i5", "j5", "j6", "i6"]);
    assert_eq!(&a[55..], ["e2", "d2", "c2", "b2", "a2"]);
    // B starts along his nearest row from his left (the top right), half a lap on.
    assert_eq!(&b[..30], &a[30..]);
    assert_eq!(&b[30..], &a[..30]);
    // A ring: each house is next to the one before it, the last next to the first.
    let at = |h: &str| {
        let bytes = h.as_bytes();
        (i32::from(bytes[0] - b'a'), i32::from(bytes[1] - b'1'))
    };
    for k in 0..60 {
        let (p, q) = (at(&a[k]), at(&a[(k + 1) % 60]));
        assert_eq!(
            (p.0 - q.0).abs() + (p.1 - q.1).abs(),
            1,
            "{} to {}",
            a[k],
            a[(k + 1) % 60]
        );
    }
    // A's counter on j5 catches up B's unreleased counter on j6, B's first house, and eats it
    // by passing over it (Davies' overtaking).
    let rows = [
        ".........O",
        ".........x",
        "..........",
        "..........",
        "..........",
        "..........",
    ];
    let mut s = position(&circuit, &rows, [0, 0], 0, Some(2));
    assert_eq!(legal(&circuit, &s), ["j5-i6"]);
    assert_eq!(
        play(&circuit, &mut s, "j5-i6"),
        ["capture j6", "overtaking-capture j6"]
    );
    // An odd board holds no such ring: refused, naming the parameters.
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("sijat-el-taba").unwrap();
    let err = bind::bind(
        game,
        game.interpretation("davies").unwrap(),
        json!({"track": "circuit", "cols": 9}).as_object().unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("track") && err.contains("cols"), "{err}");
}

#[test]
fn a_counter_goes_on_round() {
    // ST-03 (c): on the circuit, past its last house (a2) a counter comes to its first house
    // (a1) and runs on, eating what it passes.
    let round = engine("davies", &json!({"track": "circuit", "overshoot": "round"}));
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        "x.........",
        "o.........",
    ];
    let mut s = position(&round, &rows, [0, 0], 0, Some(4));
    assert_eq!(legal(&round, &s), ["a2-d1"]);
    assert_eq!(
        play(&round, &mut s, "a2-d1"),
        ["capture a1", "overtaking-capture a1", "went-round a2"]
    );
    assert_eq!(s.score(), [1, 0]);
    // With exact landing (the davies reading) the counter on its last house never moves.
    let exact = engine("davies", &json!({"track": "circuit"}));
    let s = position(&exact, &rows, [0, 0], 0, Some(4));
    assert_eq!(legal(&exact, &s), ["pass"]);
    // On the boustrophedon the track's ends are joined: from a6 back to the start.
    let joined = engine("davies", &json!({"overshoot": "round"}));
    let rows = [
        "x.........",
        "..........",
        "..........",
        "....o.....",
        "..........",
        "..........",
    ];
    let s = position(&joined, &rows, [0, 0], 0, Some(2));
    assert_eq!(legal(&joined, &s), ["a6-b1"]);
}

#[test]
fn separate_lanes_never_meet() {
    // ST-02 (c): each army its own half of the board; a counter of B's in A's half is not on
    // its track.
    let lanes = engine("davies", &json!({"track": "lanes"}));
    assert_eq!(lanes.track(0).len(), 30);
    assert_eq!(
        track_names(&lanes, 0)[20..],
        ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3", "j3"]
    );
    assert_eq!(track_names(&lanes, 1)[..3], ["j6", "i6", "h6"]);
    let stray = [
        "..........",
        "..........",
        "..........",
        "....o.....",
        "..........",
        "x.........",
    ];
    assert!(
        lanes
            .setup(&StickSetup {
                rows: &stray,
                bank: [0, 0],
                score: [0, 0],
                to_move: 0,
                throw: Some(2),
            })
            .is_err()
    );
    // Nobody can ever be eaten, so a game that ends only when a side is wiped out cannot end:
    // it is stopped as endless, or, under the standstill rule (G-4 (b)), decided as it stands.
    let rows = [
        "OOO....OOO",
        "..........",
        "..........",
        "..........",
        "..........",
        "XXX....XXX",
    ];
    let wiped = engine_that_cannot_end("davies", &json!({"track": "lanes", "end": "annihilation"}));
    let s = position(&wiped, &rows, [0, 0], 0, Some(4));
    let outcome = wiped.outcome(&s).unwrap();
    assert_eq!(
        (outcome.result, outcome.end),
        (Result_::Unfinished, EndReason::Endless)
    );
    let decided = engine(
        "davies",
        &json!({"track": "lanes", "end": "annihilation", "standstill": "decide"}),
    );
    let s = decided
        .setup(&StickSetup {
            rows: &rows,
            bank: [0, 0],
            score: [1, 0],
            to_move: 0,
            throw: Some(4),
        })
        .unwrap();
    assert_eq!(decided.outcome(&s).map(|o| o.result), Some(Result_::Win(1)));
}

#[test]
fn a_counter_may_stand_beside_an_enemy() {
    // ST-17 (b), with Davies' overtaking (ST-07 (c) with no ban added): a yômên takes a1 onto
    // c1, passing nothing, so the enemy there is not eaten and both stand on c1.
    let davies = engine("davies", &json!({}));
    let s = position(&davies, &CHASE, [0, 0], 0, Some(2));
    assert_eq!(legal(&davies, &s), ["pass"]);
    let beside = engine("davies", &json!({"beside_enemy": true}));
    let mut s = position(&beside, &CHASE, [0, 0], 0, Some(2));
    assert_eq!(legal(&beside, &s), ["a1-c1"]);
    assert_eq!(play(&beside, &mut s, "a1-c1"), ["shared-house c1"]);
    assert!(s.has(0, 2) && s.has(1, 2));
    assert_eq!(s.score(), [0, 0]);
    assert!(
        beside
            .state_text(&s)
            .ends_with("..*o...... bank=0-0 eaten=0-0")
    );
    // Leaving the shared house passes only what lies ahead: d1 is eaten, c1's enemy stays.
    let mut s = beside
        .setup(&StickSetup {
            rows: &[
                "..........",
                "..........",
                "..........",
                "..........",
                "..........",
                "..*o......",
            ],
            bank: [0, 0],
            score: [0, 0],
            to_move: 0,
            throw: Some(4),
        })
        .unwrap();
    assert_eq!(
        play(&beside, &mut s, "c1-g1"),
        ["capture d1", "overtaking-capture d1"]
    );
    assert!(s.has(1, 2) && !s.has(0, 2) && !s.has(1, 3));
    // Where landing eats (the DLP, Ludii), the enemy landed on is eaten whatever the rule.
    let landing = engine("ludii", &json!({"beside_enemy": true}));
    let mut s = position(&landing, &CHASE, [0, 0], 0, Some(2));
    assert_eq!(
        play(&landing, &mut s, "a1-c1"),
        ["capture c1", "landing-capture c1"]
    );
}

#[test]
fn a_release_only_at_the_moment_of_throwing() {
    // ST-05 (c): with a tâba just thrown, banked tâbas release counters too; with a 4 in
    // hand, nothing is released (under release credit it would be).
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "XX........",
    ];
    let at = engine("davies", &json!({"release": "at-throw"}));
    let mut s = position(&at, &rows, [1, 0], 0, Some(1));
    assert_eq!(
        legal(&at, &s),
        [
            "bank",
            "release a1",
            "release b1",
            "credit-release a1",
            "credit-release b1"
        ]
    );
    assert_eq!(
        play(&at, &mut s, "credit-release a1"),
        ["credit-release a1"]
    );
    assert_eq!((s.bank(), s.throw()), ([0, 0], Some(1)));
    assert_eq!(legal(&at, &s), ["bank", "release b1"]);
    assert_eq!(play(&at, &mut s, "release b1"), ["released b1"]);
    assert_eq!(s.bank(), [0, 0]);
    let s = position(&at, &rows, [1, 0], 0, Some(4));
    assert_eq!(legal(&at, &s), ["pass"]);
    let credit = engine("davies", &json!({}));
    let s = position(&credit, &rows, [1, 0], 0, Some(4));
    assert_eq!(
        legal(&credit, &s),
        ["credit-release a1", "credit-release b1", "pass"]
    );
}

#[test]
fn credits_in_a_move_that_eats_nothing() {
    // ST-09 (c): tâbas added to a throw whether the move eats or not, or moving a counter
    // alone (the throw in hand is then still to be used).
    let rows = [
        "........oo",
        "..........",
        "..........",
        "..........",
        "..........",
        "x.........",
    ];
    let free = engine("davies", &json!({"credits": "any-move"}));
    let mut s = position(&free, &rows, [2, 0], 0, Some(2));
    assert_eq!(
        legal(&free, &s),
        [
            "a1-c1",
            "a1-d1 +1 credit",
            "a1-e1 +2 credit",
            "a1-b1 +1 credit",
            "a1-c1 +2 credit"
        ]
    );
    assert_eq!(
        play(&free, &mut s, "a1-d1 +1 credit"),
        ["credit-move spent=1"]
    );
    assert_eq!(s.bank(), [1, 0]);
    assert_eq!((free.status(&s), s.mover()), (Status::Chance, 1));
    // One tâba alone takes a1 to b1, and the yômên is still in hand.
    let mut s = position(&free, &rows, [2, 0], 0, Some(2));
    assert_eq!(
        play(&free, &mut s, "a1-b1 +1 credit"),
        ["credit-move spent=1"]
    );
    assert_eq!((s.bank(), s.throw()), ([1, 0], Some(2)));
    assert_eq!(play(&free, &mut s, "b1-d1"), Vec::<String>::new());
    assert_eq!(s.mover(), 1);
    // Davies' reading: tâbas only to eat, and never alone.
    let davies = engine("davies", &json!({}));
    let s = position(&davies, &rows, [2, 0], 0, Some(2));
    assert_eq!(legal(&davies, &s), ["a1-c1"]);
}

#[test]
fn an_unusable_throw_is_banked() {
    // ST-11 (c): a séta no counter can use is marked up at its score; the player throws again.
    let rows = [
        "OOO....OOO",
        "..........",
        "..........",
        "..........",
        "..........",
        "XXX....XXX",
    ];
    let bank = engine("davies", &json!({"unusable": "bank"}));
    let mut s = position(&bank, &rows, [1, 0], 0, Some(6));
    assert_eq!(
        play(&bank, &mut s, "pass"),
        [
            "unusable-throw seat=1 throw=6",
            "throw-banked seat=1 throw=6"
        ]
    );
    assert_eq!(s.bank(), [7, 0]);
    assert_eq!((bank.status(&s), s.mover()), (Status::Chance, 0));
}

#[test]
fn the_dice_score_in_full() {
    // Exact landing rests on the hyena game's well, and on the editors' reading of Sijat's
    // "The dice are thrown, and score": one option, `illegal`, with both proponents, the
    // former `full-score` (which set the same parameters) kept as its alias.
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("sijat-el-taba").unwrap();
    let choice = game.choices.iter().find(|c| c.id == "overshoot").unwrap();
    assert!(choice.options.iter().all(|o| o.id != "full-score"));
    let full = choice.merged_into("full-score").unwrap();
    assert_eq!(full.id, "illegal");
    assert_eq!(full.sets, [("overshoot".to_owned(), json!("illegal"))]);
    // The hyena game's words are quoted; "The dice are thrown, and score" does not say it,
    // so it is the editors' reading, in `by:`, not a quote.
    assert!(
        full.cites
            .iter()
            .any(|c| c.at == "davies-1925#lib-el-merafib")
    );
    assert!(
        full.cites
            .iter()
            .all(|c| c.at != "davies-1925#sijat-el-taba")
    );
    assert!(full.by.iter().any(|b| b.contains("dice are thrown")));
    // A counter on c6, two houses short of a6: a rabî' cannot be moved in full, a yômên can.
    let rules = engine("davies", &json!({"overshoot": "illegal"}));
    let rows = [
        "..x.......",
        "..........",
        "..........",
        "....o.....",
        "..........",
        "..........",
    ];
    let s = position(&rules, &rows, [0, 0], 0, Some(4));
    assert_eq!(legal(&rules, &s), ["pass"]);
    let s = position(&rules, &rows, [0, 0], 0, Some(2));
    assert_eq!(legal(&rules, &s), ["c6-a6"]);
}

#[test]
fn the_game_ends_when_every_course_is_run() {
    // ST-13 (c): B's counter stands on his last house (j1); A's d6 joins a6 on the end of his
    // track, and every course is run.
    let run = engine("davies", &json!({"end": "courses-run"}));
    let rows = [
        "x..x......",
        "..........",
        "..........",
        "..........",
        "..........",
        ".........o",
    ];
    let mut s = run
        .setup(&StickSetup {
            rows: &rows,
            bank: [0, 0],
            score: [2, 1],
            to_move: 0,
            throw: Some(2),
        })
        .unwrap();
    assert_eq!(legal(&run, &s), ["d6-b6"]);
    assert_eq!(play(&run, &mut s, "d6-b6"), ["courses-run"]);
    assert_eq!(run.outcome(&s).map(|o| o.result), Some(Result_::Win(1)));
    // Borne off counts as run.
    let off = engine(
        "davies",
        &json!({"end": "courses-run", "overshoot": "bear-off"}),
    );
    let rows = [
        "..x.......",
        "..........",
        "..........",
        "..........",
        "..........",
        ".........o",
    ];
    let mut s = position(&off, &rows, [0, 0], 0, Some(4));
    assert_eq!(
        play(&off, &mut s, "c6-off"),
        ["borne-off c6", "courses-run", "equal-captures"]
    );
    // With exact landing c6 can never join a6: a yômên lands on its own counter, anything more
    // goes past the end. Nothing can move any more, so the course can never be run: the game
    // is stopped as endless at the forced pass, or decided there under the standstill rule.
    let stuck = [
        "x.x.......",
        "..........",
        "..........",
        "..........",
        "..........",
        ".........o",
    ];
    let mut s = position(&run, &stuck, [3, 0], 0, Some(2));
    assert_eq!(legal(&run, &s), ["pass"]);
    assert_eq!(
        play(&run, &mut s, "pass"),
        ["unusable-throw seat=1 throw=2", "endless"]
    );
    let outcome = run.outcome(&s).unwrap();
    assert_eq!(
        (outcome.result, outcome.end),
        (Result_::Unfinished, EndReason::Endless)
    );
    let decide = engine(
        "davies",
        &json!({"end": "courses-run", "standstill": "decide"}),
    );
    let mut s = position(&decide, &stuck, [3, 0], 0, Some(2));
    assert_eq!(
        play(&decide, &mut s, "pass"),
        [
            "unusable-throw seat=1 throw=2",
            "standstill",
            "equal-captures"
        ]
    );
    assert_eq!(decide.outcome(&s).map(|o| o.result), Some(Result_::Draw));
    // A reading with an engine cap plays on: the cap ends it.
    let capped = engine("ludii", &json!({"end": "courses-run"}));
    let mut s = position(&capped, &stuck, [0, 0], 0, Some(2));
    play(&capped, &mut s, "pass");
    assert_eq!(capped.status(&s), Status::Chance);
    // Courses that go on round never end: stopped at once.
    let never = engine_that_cannot_end(
        "davies",
        &json!({"end": "courses-run", "overshoot": "round"}),
    );
    let s = position(&never, &stuck, [0, 0], 0, Some(2));
    assert_eq!(never.outcome(&s).map(|o| o.end), Some(EndReason::Endless));
}

#[test]
fn the_game_ends_when_the_agreed_time_is_up() {
    // ST-13 (d): the sticks pass for the agreed last time, and the greater eater wins.
    let agreed = engine("davies", &json!({"end": "agreed-time", "agreed_turns": 1}));
    let mut s = agreed
        .setup(&StickSetup {
            rows: &CHASE,
            bank: [0, 0],
            score: [0, 1],
            to_move: 0,
            throw: Some(2),
        })
        .unwrap();
    assert_eq!(
        play(&agreed, &mut s, "pass"),
        ["unusable-throw seat=1 throw=2", "agreed-time turns=1"]
    );
    assert_eq!(agreed.outcome(&s).map(|o| o.result), Some(Result_::Win(2)));
    // A séta keeps the turn, so the time is not yet up.
    let mut s = position(&agreed, &CHASE, [0, 0], 0, Some(6));
    play(&agreed, &mut s, "a1-g1");
    assert_eq!((agreed.status(&s), s.mover()), (Status::Chance, 0));
}

// ---------------------------------------------------------------------------------------------
// An independent model of the moves, walking each track house by house
// ---------------------------------------------------------------------------------------------

/// The legal decisions by a plain walk along the track (no bit sets), as sorted texts with the
/// houses each would eat. The tracks themselves come from the engine (their layout is checked
/// above).
fn model_legal(rules: &StickRace, s: &StickRaceState) -> Vec<(String, Vec<usize>)> {
    use ludotrace::family::stick_race::{Capture, Credits, Overshoot, Overtaken, Release};
    let p = rules.params();
    let seat = s.mover();
    let track: Vec<usize> = rules.track(seat).iter().map(|&h| usize::from(h)).collect();
    let len = track.len();
    let t = usize::from(s.throw().expect("a throw in hand"));
    let cols = rules.cols();
    let house = |j: usize| {
        if j == len {
            "off".to_owned()
        } else {
            ludotrace::games::stick_race::house_name(track[j], cols)
        }
    };
    let target = |i: usize, d: usize, exact: bool| -> Option<usize> {
        if i + d < len {
            return Some(i + d);
        }
        match p.overshoot {
            Overshoot::Round => (d < len).then(|| i + d - len),
            _ if exact => None,
            Overshoot::Illegal => None,
            Overshoot::Stop => (i + 1 < len).then_some(len - 1),
            Overshoot::BearOff => Some(len),
        }
    };
    // The enemies met in order and whether the last is landed on; None if the move cannot be
    // made. Then what it eats.
    let walk = |i: usize, j: usize| -> Option<(Vec<usize>, bool)> {
        let steps = if j == len {
            len - i - 1
        } else if j > i {
            j - i - 1
        } else {
            len - i - 1 + j
        };
        let mut met: Vec<usize> = (1..=steps)
            .map(|m| track[(i + m) % len])
            .filter(|&h| s.has(1 - seat, h))
            .collect();
        let mut landed = false;
        if j < len {
            if s.has(seat, track[j]) && !p.stack {
                return None;
            }
            if s.has(1 - seat, track[j]) {
                met.push(track[j]);
                landed = true;
            }
        }
        Some((met, landed))
    };
    let eats = |met: &[usize], landed: bool| -> Vec<usize> {
        let n = met.len();
        let mut all: Vec<usize> = met
            .iter()
            .enumerate()
            .filter(|&(k, _)| match p.capture {
                Capture::Landing => landed && k + 1 == n,
                Capture::Overtaking => !(landed && k + 1 == n),
                Capture::Both => true,
            })
            .map(|(_, &h)| h)
            .collect();
        if p.overtaken == Overtaken::First {
            all.truncate(1);
        }
        all
    };
    let legal = |i: usize, j: usize| -> Option<Vec<usize>> {
        let (met, landed) = walk(i, j)?;
        let eaten = eats(&met, landed);
        if landed && !p.beside_enemy && !eaten.contains(met.last().unwrap()) {
            return None;
        }
        Some(eaten)
    };
    let mine: Vec<usize> = (0..len).filter(|&i| s.has(seat, track[i])).collect();
    let waiting: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&i| s.is_waiting(seat, track[i]))
        .collect();
    let release = |kind: &str, i: usize| -> Option<(String, Vec<usize>)> {
        if !p.release_moves {
            return Some((format!("{kind} {}", house(i)), vec![]));
        }
        let j = target(i, 1, false)?;
        let eaten = legal(i, j)?;
        Some((format!("{kind} {}-{}", house(i), house(j)), eaten))
    };
    let mut out = Vec::new();
    let bank = s.bank()[seat];
    if t == 1 {
        out.push(("bank".to_owned(), vec![]));
        if matches!(p.release, Release::Fresh | Release::AtThrow) {
            out.extend(waiting.iter().filter_map(|&i| release("release", i)));
        }
    } else {
        let credit = match p.credits {
            Credits::None => 0,
            Credits::Spare if matches!(p.release, Release::Credit | Release::AtThrow) => {
                bank.saturating_sub(waiting.len() as u32)
            }
            _ => bank,
        };
        for &i in mine.iter().filter(|&&i| s.is_active_of(seat, track[i])) {
            if let Some(j) = target(i, t, false)
                && let Some(eaten) = legal(i, j)
            {
                out.push((format!("{}-{}", house(i), house(j)), eaten));
            }
            let extras: Vec<(usize, u32)> = match p.credits {
                Credits::None => vec![],
                Credits::Any | Credits::Spare | Credits::AnyMove => {
                    (1..=credit).map(|k| (t + k as usize, k)).collect()
                }
                Credits::All if credit > 0 => vec![(t + credit as usize, credit)],
                Credits::All if p.ludii_empty_credit_minus_one => vec![(t - 1, 0)],
                Credits::All => vec![],
            };
            for (d, spent) in extras {
                if let Some(j) = target(i, d, true)
                    && let Some(eaten) = legal(i, j)
                    && (p.credits == Credits::AnyMove || !eaten.is_empty())
                {
                    out.push((format!("{}-{} +{spent} credit", house(i), house(j)), eaten));
                }
            }
        }
    }
    let usable = !out.is_empty();
    let credit_release = match p.release {
        Release::Fresh => false,
        Release::Credit => true,
        Release::AtThrow => t == 1,
    };
    if credit_release && bank > 0 {
        out.extend(waiting.iter().filter_map(|&i| release("credit-release", i)));
    }
    if p.credits == Credits::AnyMove {
        for &i in mine.iter().filter(|&&i| s.is_active_of(seat, track[i])) {
            for k in 1..=bank as usize {
                if let Some(j) = target(i, k, true)
                    && let Some(eaten) = legal(i, j)
                {
                    out.push((format!("{}-{} +{k} credit", house(i), house(j)), eaten));
                }
            }
        }
    }
    if !usable || !p.must_move {
        out.push(("pass".to_owned(), vec![]));
    }
    out.sort();
    out
}

/// Random games of the new readings, each decision's list checked against the model and the
/// counters counted (on the board, borne off, or eaten by the other side).
#[test]
fn the_new_readings_agree_with_a_walking_model() {
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    for overrides in [
        json!({"track": "circuit"}),
        json!({"track": "circuit", "overshoot": "round", "end": "annihilation"}),
        json!({"track": "circuit", "overshoot": "round", "capture": "both", "overtaken": "first", "beside_enemy": true, "end": "annihilation"}),
        json!({"track": "lanes", "rows": 5, "cols": 6, "pieces": 4, "end": "courses-run"}),
        json!({"overshoot": "round", "credits": "any-move", "beside_enemy": true, "end": "annihilation"}),
        json!({"beside_enemy": true, "overtaken": "first", "release": "at-throw", "release_moves": true, "credits": "spare"}),
        json!({"unusable": "bank", "credits": "any-move", "end": "courses-run", "overshoot": "stop"}),
        json!({"end": "courses-run", "overshoot": "bear-off", "capture": "landing", "must_move": false}),
        json!({"track": "circuit", "rows": 2, "cols": 4, "pieces": 2, "overshoot": "round", "release_moves": true, "end": "agreed-time", "agreed_turns": 40}),
        json!({"track": "circuit", "rows": 4, "overshoot": "stop", "capture": "overtaking", "beside_enemy": true, "credits": "all", "end": "courses-run", "standstill": "decide"}),
        json!({"track": "lanes", "overshoot": "round", "release": "at-throw", "credits": "any-move", "end": "agreed-time"}),
        json!({"overshoot": "round", "capture": "landing", "credits": "all", "ludii_empty_credit_minus_one": true, "unusable": "bank", "end": "annihilation"}),
        json!({"stack": true}),
        json!({"stack": true, "capture": "landing", "release": "at-throw", "release_moves": true, "end": "courses-run"}),
        json!({"stack": true, "track": "circuit", "overshoot": "round", "beside_enemy": true, "capture": "both", "overtaken": "first", "credits": "any-move", "end": "annihilation"}),
        json!({"stack": true, "overshoot": "stop", "credits": "spare", "release": "credit", "release_moves": true}),
    ] {
        let rules = engine("davies", &overrides);
        for seed in 0..12u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = rules.initial();
            let mut moves = Vec::new();
            for _ in 0..3000 {
                match rules.status(&s) {
                    Status::Over => break,
                    Status::Chance => {
                        let weights = rules.chance_outcomes(&s);
                        let mut x = rng.random_range(0..weights.iter().sum::<u32>());
                        let k = weights
                            .iter()
                            .position(|&w| {
                                let hit = x < w;
                                x = x.saturating_sub(w);
                                hit
                            })
                            .unwrap();
                        rules.apply_chance(&mut s, k, &mut Vec::new());
                    }
                    Status::ToMove(_) => {
                        rules.legal_moves(&s, &mut moves);
                        let mut ours: Vec<String> =
                            moves.iter().map(|&mv| rules.move_text(mv)).collect();
                        ours.sort();
                        let model = model_legal(&rules, &s);
                        let texts: Vec<&String> = model.iter().map(|(t, _)| t).collect();
                        assert_eq!(
                            ours.iter().collect::<Vec<_>>(),
                            texts,
                            "{overrides} seed {seed}: {}",
                            rules.state_text(&s)
                        );
                        let mv = moves[rng.random_range(0..moves.len())];
                        let text = rules.move_text(mv);
                        let eaten = &model.iter().find(|(t, _)| *t == text).unwrap().1;
                        let enemy = 1 - s.mover();
                        let before: Vec<usize> = (0..rules.rows() * rules.cols())
                            .filter(|&h| s.has(enemy, h))
                            .collect();
                        rules.apply(&mut s, mv, &mut Vec::new());
                        let gone: Vec<usize> =
                            before.into_iter().filter(|&h| !s.has(enemy, h)).collect();
                        let mut expected = eaten.clone();
                        expected.sort_unstable();
                        assert_eq!(gone, expected, "{overrides} seed {seed}: {text}");
                        let pieces = u32::from(rules.params().pieces);
                        for seat in 0..2 {
                            assert_eq!(
                                s.pieces(seat) + u32::from(s.home()[seat]) + s.score()[1 - seat],
                                pieces,
                                "{overrides} seed {seed}: {}",
                                rules.state_text(&s)
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_players_counters_may_share_a_house() {
    // ST-10 (b): a yômên takes a1 onto its fellow on c1; the two stand there, and an enemy
    // passing over the house eats both.
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "x.x.......",
    ];
    let davies = engine("davies", &json!({}));
    let s = position(&davies, &rows, [0, 0], 0, Some(2));
    assert_eq!(legal(&davies, &s), ["c1-e1"]);
    let stacked = engine("davies", &json!({"stack": true}));
    let mut s = position(&stacked, &rows, [0, 0], 0, Some(2));
    assert_eq!(legal(&stacked, &s), ["a1-c1", "c1-e1"]);
    assert_eq!(play(&stacked, &mut s, "a1-c1"), Vec::<String>::new());
    assert_eq!((s.count(0, 2), s.pieces(0)), (2, 2));
    // B's counter on b1 catches the pair up: both are eaten (B's track runs east in row 1).
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        ".ox.x.....",
    ];
    let mut s = position(&stacked, &rows, [0, 0], 0, Some(2));
    play(&stacked, &mut s, "c1-e1");
    assert_eq!(s.count(0, 4), 2);
    // The sticks pass to B; a séta takes b1 (his index 51) to h1, over e1.
    assert_eq!((stacked.status(&s), s.mover()), (Status::Chance, 1));
    stacked.apply_chance(&mut s, 3, &mut Vec::new());
    assert_eq!(s.throw(), Some(6));
    assert_eq!(
        play(&stacked, &mut s, "b1-h1"),
        [
            "capture e1",
            "overtaking-capture e1",
            "capture e1",
            "overtaking-capture e1",
            "final-rows"
        ]
    );
    assert_eq!((s.score(), s.pieces(0)), ([0, 2], 0));
    assert_eq!(stacked.outcome(&s).map(|o| o.result), Some(Result_::Win(2)));
}
