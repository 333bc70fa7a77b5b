//! Li'b el-Merafib, the hyena game, on positions built with `SpiralRace::position`: a mother
//! paying her way out of the well under each reading, the hyena's release, the hyena eating
//! the women it overtakes, a throw that cannot be used, the credit into the well, the turn.

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::games::spiral_race::{Leg, Piece, SpiralMove, SpiralRace, SpiralRaceState};
use ludotrace::games::{Event, EventKind, Result_, Rules, Status};
use serde_json::{Map, Value, json};

/// The spiral-race engine of a reading of the embedded corpus, with overrides.
fn engine(reading: &str, overrides: &Value) -> SpiralRace {
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("lib-el-merafib").unwrap();
    let interp = game.interpretation(reading).unwrap();
    let overrides: Map<String, Value> = overrides.as_object().cloned().unwrap_or_default();
    let bound = bind::bind(game, interp, &overrides)
        .unwrap_or_else(|e| panic!("lib-el-merafib / {reading} {overrides:?}: {e}"));
    match bound.engine {
        Engine::SpiralRace(r) => r,
        other => panic!("lib-el-merafib is not a spiral race: {other:?}"),
    }
}

fn piece(leg: Leg, pos: u16) -> Piece {
    Piece {
        leg,
        pos,
        paid: 0,
        kept: [0; 3],
        first_back: false,
    }
}

fn at_well(rules: &SpiralRace, paid: u8) -> Piece {
    Piece {
        paid,
        ..piece(Leg::Well, rules.track_len())
    }
}

fn legal(rules: &SpiralRace, s: &SpiralRaceState) -> Vec<SpiralMove> {
    let mut moves = Vec::new();
    rules.legal_moves(s, &mut moves);
    moves
}

/// Plays `mv` after checking it is legal; returns the names of the events.
fn play(rules: &SpiralRace, s: &mut SpiralRaceState, mv: SpiralMove) -> Vec<&'static str> {
    let mut events = Vec::new();
    rules
        .play(s, mv, &mut events)
        .unwrap_or_else(|e| panic!("{e} ({})", rules.state_text(s)));
    events.iter().map(|e| e.kind().name()).collect()
}

/// Throws `throw` for the seat to move (an explicit chance outcome).
fn throw(rules: &SpiralRace, s: &mut SpiralRaceState, throw: u8) -> Vec<&'static str> {
    assert_eq!(rules.status(s), Status::Chance, "{}", rules.state_text(s));
    let k = [1, 2, 4, 6].iter().position(|&t| t == throw).unwrap();
    let mut events = Vec::new();
    rules.apply_chance(s, k, &mut events);
    events.iter().map(|e| e.kind().name()).collect()
}

/// Four mothers in the village, but seat 1's at `m`.
fn mothers(m: Piece) -> [Piece; 4] {
    let v = piece(Leg::Village, 0);
    [m, v, v, v]
}

#[test]
fn ludii_four_tabas_then_any_throw_out_of_the_well() {
    // Ludii: a thrown tâba pays; a 2, 4 or 6 spends a banked one and is lost; with four paid
    // the next throw, whatever it is, takes her one hollow out.
    let rules = engine("ludii", &json!({}));
    let len = rules.track_len();
    let mut s = rules.position(&mothers(at_well(&rules, 0)), None, &[2, 0, 0, 0], 0, None);
    throw(&rules, &mut s, 1);
    assert_eq!(legal(&rules, &s), [SpiralMove::Pay { credit: false }]);
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Pay { credit: false }),
        ["paid"]
    );
    throw(&rules, &mut s, 6);
    assert_eq!(legal(&rules, &s), [SpiralMove::Pay { credit: true }]);
    play(&rules, &mut s, SpiralMove::Pay { credit: true });
    throw(&rules, &mut s, 4);
    play(&rules, &mut s, SpiralMove::Pay { credit: true });
    assert_eq!((s.mother(0).paid, s.bank(0)), (3, 0));
    // Nothing banked: a 4 is of no use, and she throws again.
    throw(&rules, &mut s, 4);
    assert_eq!(legal(&rules, &s), [SpiralMove::Pass]);
    assert_eq!(play(&rules, &mut s, SpiralMove::Pass), ["unusable"]);
    assert_eq!(s.mover(), 0);
    throw(&rules, &mut s, 1);
    play(&rules, &mut s, SpiralMove::Pay { credit: false });
    assert_eq!(s.mother(0).leg, Leg::Well);
    // Four paid: a yômên (or anything) takes her out, and a yômên ends the turn.
    throw(&rules, &mut s, 2);
    assert_eq!(legal(&rules, &s), [SpiralMove::Exit { to: len - 1 }]);
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Exit { to: len - 1 }),
        ["left-well"]
    );
    assert_eq!((s.mother(0).leg, s.mother(0).pos), (Leg::Back, len - 1));
    assert_eq!(s.mover(), 1);
}

#[test]
fn davies_five_tabas_paid_from_credit_and_scores_kept_for_later() {
    // Davies: "two tâbas to drink, one to wash her clothes and two to come away with", paid
    // from his credit; while she waits, "any other scores of two, four, or six" are kept. The
    // DLP's paraphrase reads the same ("must then roll 1 five times ... Accumulated rolls of 1
    // may be used ... may accumulate individual throws of 2, 4, or 6 to use later").
    for reading in ["davies", "dlp"] {
        five_tabas_and_kept_scores(&engine(reading, &json!({})));
    }
}

fn five_tabas_and_kept_scores(rules: &SpiralRace) {
    let len = rules.track_len();
    let mut s = rules.position(
        &mothers(piece(Leg::Out, len - 4)),
        None,
        &[3, 0, 0, 0],
        0,
        Some(4),
    );
    // Arriving pays three at once from the bank.
    let events = play(rules, &mut s, SpiralMove::Step { to: len });
    assert_eq!(events, ["at-well", "paid", "paid", "paid"]);
    assert_eq!((s.mother(0).paid, s.bank(0)), (3, 0));
    throw(rules, &mut s, 6);
    assert_eq!(legal(rules, &s), [SpiralMove::Keep]);
    assert_eq!(play(rules, &mut s, SpiralMove::Keep), ["kept"]);
    throw(rules, &mut s, 1);
    play(rules, &mut s, SpiralMove::Pay { credit: false });
    throw(rules, &mut s, 1);
    // The fifth tâba: she is free to come away, on the next 2, 4 or 6.
    assert_eq!(
        play(rules, &mut s, SpiralMove::Pay { credit: false }),
        ["paid", "left-well"]
    );
    assert_eq!((s.mother(0).leg, s.mother(0).pos), (Leg::Back, len));
    throw(rules, &mut s, 4);
    // The kept 6 is a move of its own; the 4 in hand is still to be used.
    assert_eq!(
        legal(rules, &s),
        [
            SpiralMove::Step { to: len - 4 },
            SpiralMove::Kept {
                score: 6,
                to: len - 6
            }
        ]
    );
    assert_eq!(
        play(
            rules,
            &mut s,
            SpiralMove::Kept {
                score: 6,
                to: len - 6
            }
        ),
        ["kept-played"]
    );
    assert_eq!(s.throw(), Some(4));
    play(rules, &mut s, SpiralMove::Step { to: len - 10 });
    assert_eq!(s.mother(0).pos, len - 10);
}

#[test]
fn the_credit_that_completes_the_journey_to_the_well() {
    // One hollow short of the well with a tâba banked: spending it is her only move (Ludii),
    // whatever the throw; with nothing banked, a 2 is no use.
    let rules = engine("ludii", &json!({}));
    let len = rules.track_len();
    let short = piece(Leg::Out, len - 1);
    let mut s = rules.position(&mothers(short), None, &[1, 0, 0, 0], 0, Some(6));
    assert_eq!(legal(&rules, &s), [SpiralMove::Credit { to: len }]);
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Credit { to: len }),
        ["credit-out", "at-well"]
    );
    let s = rules.position(&mothers(short), None, &[0, 0, 0, 0], 0, Some(2));
    assert_eq!(legal(&rules, &s), [SpiralMove::Pass]);
    // An overshooting throw is lost under `forfeit`; under `bounce` she counts back.
    let bounce = engine("ludii", &json!({"overshoot": "bounce"}));
    let s = bounce.position(&mothers(short), None, &[0, 0, 0, 0], 0, Some(4));
    assert_eq!(legal(&bounce, &s), [SpiralMove::Step { to: len - 3 }]);
}

#[test]
fn the_first_home_lets_the_hyena_loose() {
    // Ludii: the hyena is loose at once and moves on its controller's next throw; Davies: it
    // must first be paid two tâbas, from the credit he has.
    let ludii = engine("ludii", &json!({}));
    let out = piece(Leg::Out, 5);
    let women = [piece(Leg::Back, 2), out, out, out];
    let mut s = ludii.position(&women, None, &[0, 0, 0, 0], 0, Some(2));
    let events = play(&ludii, &mut s, SpiralMove::Step { to: 0 });
    assert_eq!(events, ["home", "hyena-loose", "hyena-out"]);
    assert_eq!(s.hyena_player(), Some(0));
    // A yômên ends the turn: seat 2 throws; seat 1 moves the hyena on his next turn.
    assert_eq!(s.mover(), 1);

    // Ludii's end test looks only at where the mothers stand: if the first home finds every
    // other mother still in the village, the game is over at once, and everyone has won.
    let mut s = ludii.position(&mothers(piece(Leg::Back, 2)), None, &[0; 4], 0, Some(2));
    play(&ludii, &mut s, SpiralMove::Step { to: 0 });
    assert_eq!(
        ludii.outcome(&s).map(|o| o.result),
        Some(Result_::Win(0b1111))
    );

    let davies = engine("davies", &json!({}));
    let mut s = davies.position(
        &mothers(piece(Leg::Back, 4)),
        None,
        &[1, 0, 0, 0],
        0,
        Some(4),
    );
    let events = play(&davies, &mut s, SpiralMove::Step { to: 0 });
    assert_eq!(events, ["home", "hyena-loose", "release-paid"]);
    let hyena = s.hyena().unwrap();
    assert_eq!((hyena.leg, hyena.paid), (Leg::Village, 1));
    // He throws again (a rabî'), now for the hyena: a tâba pays the second.
    throw(&davies, &mut s, 1);
    assert_eq!(legal(&davies, &s), [SpiralMove::Pay { credit: false }]);
    assert_eq!(
        play(&davies, &mut s, SpiralMove::Pay { credit: false }),
        ["release-paid", "hyena-out"]
    );
    // Double rates: a rabî' is eight hollows.
    throw(&davies, &mut s, 4);
    assert_eq!(legal(&davies, &s), [SpiralMove::Step { to: 8 }]);
}

#[test]
fn the_hyena_eats_the_women_it_overtakes() {
    // The hyena on its way back at 40 throws a rabî' (8 hollows, to 32). Seat 1 (its
    // controller) is home; seat 2 stands on its starting hollow, seat 3 on a hollow it passes,
    // seat 4 on another, still on her way out.
    let ludii = engine("ludii", &json!({}));
    let hyena = piece(Leg::Back, 40);
    let women = [
        piece(Leg::Home, 0),
        piece(Leg::Back, 40),
        piece(Leg::Back, 36),
        piece(Leg::Out, 35),
    ];
    // Ludii sweeps its starting hollow and those it passes, women going either way.
    let mut s = ludii.position(&women, Some((0, hyena)), &[0; 4], 0, Some(4));
    let events = play(&ludii, &mut s, SpiralMove::Step { to: 32 });
    assert_eq!(
        events,
        ["eaten", "eaten", "eaten", "game-end", "survivors-win"]
    );
    assert_eq!(s.eaten(), 3);
    // Every woman left is home: the game is over, and the survivor (seat 1) wins.
    let outcome = ludii.outcome(&s).unwrap();
    assert_eq!(outcome.result, Result_::Win(0b0001));

    // Davies' readers: "overtakes" is passed or landed on, and a woman still going out is not
    // overtaken but met.
    let davies = engine("davies", &json!({}));
    let women = [
        piece(Leg::Home, 0),
        piece(Leg::Back, 40),
        piece(Leg::Back, 32),
        piece(Leg::Out, 35),
    ];
    let mut s = davies.position(&women, Some((0, hyena)), &[0; 4], 0, Some(4));
    let mut events = Vec::new();
    davies.apply(&mut s, SpiralMove::Step { to: 32 }, &mut events);
    let seats: Vec<(&str, u8)> = events
        .iter()
        .map(|e| (e.kind().name(), e.seat + 1))
        .collect();
    assert_eq!(&seats[..2], [("eaten", 3), ("spared-head-on", 4)]);
    assert_eq!(
        s.mother(1).leg,
        Leg::Back,
        "the hollow it starts from is safe"
    );
    assert_eq!(s.mother(2).leg, Leg::Eaten, "the hollow it lands on is not");
    assert_eq!(s.mother(3).leg, Leg::Out);
}

#[test]
fn a_yomen_ends_the_turn_and_the_eaten_are_passed_over() {
    let rules = engine("ludii", &json!({}));
    let women = [
        piece(Leg::Out, 10),
        piece(Leg::Eaten, 0),
        piece(Leg::Out, 5),
        piece(Leg::Out, 7),
    ];
    let mut s = rules.position(&women, Some((3, piece(Leg::Out, 2))), &[0; 4], 0, Some(4));
    play(&rules, &mut s, SpiralMove::Step { to: 14 });
    assert_eq!(s.mover(), 0, "a rabî' lets him throw again");
    throw(&rules, &mut s, 2);
    play(&rules, &mut s, SpiralMove::Step { to: 16 });
    assert_eq!(s.mover(), 2, "seat 2's mother was eaten: seat 3 throws");
    // Where the yômên is not played, it only stops the player.
    let stop = engine("ludii", &json!({"yomen_played": false}));
    let mut s = stop.position(&women, Some((3, piece(Leg::Out, 2))), &[0; 4], 0, None);
    assert_eq!(throw(&stop, &mut s, 2), ["yomen-stops"]);
    assert_eq!((stop.status(&s), s.mover()), (Status::Chance, 2));
}
