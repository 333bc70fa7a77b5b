//! Li'b el-Merafib, the hyena game, on positions built with `SpiralRace::position`: a mother
//! paying her way out of the well under each reading, the hyena's release, the hyena eating
//! the women it overtakes, a throw that cannot be used, the credit into the well, the turn;
//! credit steps (into the well, into the village, the hyena's) and the tâba thrown with them;
//! costs of 0 and the numeric parameters at their bounds. A tâba ledger walks random games of
//! every reading: the bank moves only by tâbas marked down and credits spent, and no credit
//! step drops the tâba thrown with it (the loss it would have caught went unseen by win rates).

use ludotrace::bind::{self, Engine};
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::family::spiral_race::{HyenaTaba, Leave, OutCredit};
use ludotrace::games::spiral_race::{
    Leg, Piece, SpiralMove, SpiralRace, SpiralRaceEvent, SpiralRaceState,
};
use ludotrace::games::{EndReason, Event, EventKind, Result_, Rules, Status};
use ludotrace::rng::{self, game_rng};
use rand::RngExt;
use serde_json::{Map, Value, json};

/// The spiral-race engine of a reading of the embedded corpus, with overrides.
pub(crate) fn engine(reading: &str, overrides: &Value) -> SpiralRace {
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

/// A piece on `leg` at hollow `pos`, having paid nothing and kept nothing.
pub(crate) fn piece(leg: Leg, pos: u16) -> Piece {
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

// ---------------------------------------------------------------------------------------------
// A credit step and the tâba thrown with it
// ---------------------------------------------------------------------------------------------

#[test]
fn a_taba_thrown_with_the_credit_into_the_well_is_marked_down() {
    // Davies: a tâba "is ... marked down on the sand to the credit of the player", and one
    // hollow short of the well the mother "may then use one of her son's credit of tâbas".
    // Where the step is compulsory (last-hollow, Ludii's and the editors'; `davies` leaves it
    // to the player, as his "may" does), with a tâba in hand there the credit step is her
    // only move; the tâba is banked first, and at the well (credits paid at once) it pays.
    let rules = engine("davies", &json!({"out_credit": "last-hollow"}));
    let len = rules.track_len();
    let short = piece(Leg::Out, len - 1);
    let mut s = rules.position(&mothers(short), None, &[1, 0, 0, 0], 0, Some(1));
    assert_eq!(legal(&rules, &s), [SpiralMove::Credit { to: len }]);
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Credit { to: len }),
        ["banked", "credit-out", "at-well", "paid"]
    );
    assert_eq!(
        (s.mother(0).leg, s.mother(0).paid, s.bank(0)),
        (Leg::Well, 1, 0)
    );
    // A 2, 4 or 6 gives way to the credit: one credit spent, nothing banked.
    let mut s = rules.position(&mothers(short), None, &[2, 0, 0, 0], 0, Some(4));
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Credit { to: len }),
        ["credit-out", "at-well", "paid"]
    );
    assert_eq!((s.mother(0).paid, s.bank(0)), (1, 0));
    // Ludii makes one move per throw: its automatic step uses the tâba in hand up, and the
    // `ludii` reading says so with an event (ludii_credit_drops_taba).
    let ludii = engine("ludii", &json!({}));
    let len = ludii.track_len();
    let at_short = |rules: &SpiralRace| {
        rules.position(
            &mothers(piece(Leg::Out, len - 1)),
            None,
            &[1, 0, 0, 0],
            0,
            Some(1),
        )
    };
    let mut s = at_short(&ludii);
    assert_eq!(
        play(&ludii, &mut s, SpiralMove::Credit { to: len }),
        ["taba-dropped", "credit-out", "at-well"]
    );
    assert_eq!((s.mother(0).paid, s.bank(0)), (0, 0));
    // Without the quirk, Ludii's each-throw payment keeps the tâba banked for the well.
    let kept = engine("ludii", &json!({"ludii_credit_drops_taba": false}));
    let mut s = at_short(&kept);
    assert_eq!(
        play(&kept, &mut s, SpiralMove::Credit { to: len }),
        ["banked", "credit-out", "at-well"]
    );
    assert_eq!((s.mother(0).paid, s.bank(0)), (0, 1));
    // Credits anywhere on the way out: a credit step with a tâba in hand costs nothing net.
    let any = engine("davies", &json!({"out_credit": "any-hollow"}));
    let mut s = any.position(
        &mothers(piece(Leg::Out, 10)),
        None,
        &[1, 0, 0, 0],
        0,
        Some(1),
    );
    assert_eq!(
        legal(&any, &s),
        [SpiralMove::Bank, SpiralMove::Credit { to: 11 }]
    );
    assert_eq!(
        play(&any, &mut s, SpiralMove::Credit { to: 11 }),
        ["banked", "credit-out"]
    );
    assert_eq!((s.mother(0).pos, s.bank(0)), (11, 1));
}

#[test]
fn a_taba_thrown_with_the_credit_into_the_village_is_marked_down() {
    // The way back "in the same manner": one hollow from home, a credit may take her in. It is
    // one move among others (she may bank the tâba and keep her credit), unlike the way out;
    // taken with a tâba in hand, the tâba is banked first, and here pays the hyena's release.
    for reading in ["davies", "dlp"] {
        let rules = engine(reading, &json!({}));
        let out = piece(Leg::Out, 5);
        let women = [piece(Leg::Back, 1), out, out, out];
        let s = rules.position(&women, None, &[1, 0, 0, 0], 0, Some(1));
        assert_eq!(
            legal(&rules, &s),
            [SpiralMove::Bank, SpiralMove::Credit { to: 0 }],
            "{reading}"
        );
        let mut banked = s.clone();
        assert_eq!(play(&rules, &mut banked, SpiralMove::Bank), ["banked"]);
        assert_eq!((banked.mother(0).pos, banked.bank(0)), (1, 2));
        let mut s = s;
        assert_eq!(
            play(&rules, &mut s, SpiralMove::Credit { to: 0 }),
            [
                "banked",
                "return-credit",
                "home",
                "hyena-loose",
                "release-paid"
            ],
            "{reading}"
        );
        assert_eq!(s.mother(0).leg, Leg::Home);
        assert_eq!((s.hyena().unwrap().paid, s.bank(0)), (1, 0), "{reading}");
        // A yômên cannot land on the village from one hollow out: the credit is her only move,
        // and the throw gives way to it.
        let mut s = rules.position(&women, None, &[1, 0, 0, 0], 0, Some(2));
        assert_eq!(legal(&rules, &s), [SpiralMove::Credit { to: 0 }]);
        play(&rules, &mut s, SpiralMove::Credit { to: 0 });
        assert_eq!((s.hyena().unwrap().paid, s.bank(0)), (0, 0), "{reading}");
    }
}

#[test]
fn a_taba_thrown_with_the_hyenas_credit_step() {
    // The DLP's hyena: on his way out a tâba moves him two or is banked, and a credit moves
    // him one; taking the credit with a tâba in hand banks the tâba. On his way back a tâba
    // moves him two (it is never banked there), so a credit step takes the throw's place.
    let rules = engine("dlp", &json!({}));
    let home = piece(Leg::Home, 0);
    let out = piece(Leg::Out, 5);
    let women = [home, out, out, out];
    let mut s = rules.position(
        &women,
        Some((0, piece(Leg::Out, 10))),
        &[1, 0, 0, 0],
        0,
        Some(1),
    );
    assert_eq!(
        legal(&rules, &s),
        [
            SpiralMove::Bank,
            SpiralMove::Step { to: 12 },
            SpiralMove::Credit { to: 11 }
        ]
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Credit { to: 11 }),
        ["hyena-banked", "hyena-credit"]
    );
    assert_eq!((s.hyena().unwrap().pos, s.bank(0)), (11, 1));
    let mut s = rules.position(
        &women,
        Some((0, piece(Leg::Back, 30))),
        &[1, 0, 0, 0],
        0,
        Some(1),
    );
    assert_eq!(
        legal(&rules, &s),
        [SpiralMove::Step { to: 28 }, SpiralMove::Credit { to: 29 }]
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Credit { to: 29 }),
        ["hyena-credit"]
    );
    assert_eq!(s.bank(0), 0);
}

/// Events of a step, by kind name.
fn count(events: &[SpiralRaceEvent], names: &[&str]) -> u32 {
    events
        .iter()
        .filter(|e| names.contains(&e.kind().name()))
        .count() as u32
}

/// The tâba ledger of one step: the seat's bank after it is the bank before, plus the tâbas
/// marked down, less the credits spent (a credit step, a banked tâba paid by a 2, 4 or 6, or
/// paid at once where one is owed). And a tâba in hand goes somewhere: paid, banked, moved
/// with, or let go by a pass; never dropped by a credit step where the reading banks it.
fn check_ledger(
    rules: &SpiralRace,
    before: &SpiralRaceState,
    mv: Option<SpiralMove>,
    after: &SpiralRaceState,
    events: &[SpiralRaceEvent],
) -> Result<(), String> {
    let seat = before.mover();
    let p = rules.params();
    let payments = count(events, &["paid", "release-paid", "hyena-paid"]);
    let mut banked = count(events, &["banked", "hyena-banked"]);
    if mv == Some(SpiralMove::Leave) && p.leave == Leave::ReleaseAndBank {
        banked += 1;
    }
    // A credit step spends one banked tâba; every payment but the one a thrown tâba makes
    // (`pay`) comes from the bank (`pay credit`, and payments made at once on arrival).
    let spent = u32::from(matches!(mv, Some(SpiralMove::Credit { .. })));
    let from_throw = u32::from(mv == Some(SpiralMove::Pay { credit: false }));
    let from_bank = payments - from_throw;
    // A mother home under `hyena_purse: fresh` takes her left-over credit out of the bank.
    let set_aside = i64::from(after.set_aside(seat)) - i64::from(before.set_aside(seat));
    let expected = i64::from(before.bank(seat)) + i64::from(banked)
        - i64::from(spent)
        - i64::from(from_bank)
        - set_aside;
    if i64::from(after.bank(seat)) != expected {
        return Err(format!(
            "{mv:?}: bank {} → {}, expected {expected} ({banked} banked, {spent} spent, {from_bank} paid from the bank)",
            before.bank(seat),
            after.bank(seat)
        ));
    }
    // Under `any-time` a credit step on her way out leaves the throw in hand.
    let beside = p.out_credit == OutCredit::AnyTime
        && before.mother(seat).leg == Leg::Out
        && after.throw() == Some(1);
    if let Some(SpiralMove::Credit { .. }) = mv
        && before.throw() == Some(1)
        && !beside
    {
        let hyena_back = before.mother(seat).leg == Leg::Home
            && before.hyena().is_some_and(|h| h.leg == Leg::Back);
        let taba_is_a_move = hyena_back && p.hyena_taba == HyenaTaba::DoubleOrBank;
        // Ludii's automatic step into the well drops it, where the reading emulates Ludii,
        // and says so with an event.
        let dropped = count(events, &["taba-dropped"]);
        if dropped > 0 && !p.ludii_credit_drops_taba {
            return Err(format!("{mv:?}: a tâba dropped without Ludii's quirk"));
        }
        if !taba_is_a_move && banked + dropped != 1 {
            return Err(format!(
                "{mv:?}: the tâba thrown with the credit step was lost"
            ));
        }
    }
    Ok(())
}

/// Plays `games` seeded random games, checking the ledger at every step; returns how many
/// ended by the rules (not at a cap or at `max_plies`).
fn walk_ledger(rules: &SpiralRace, label: &str, games: u64, max_plies: u32) -> u64 {
    let mut natural = 0;
    let mut buf = Vec::new();
    for game in 0..games {
        let mut rng = game_rng(14, 3, game);
        let mut s = rules.initial();
        let mut trail: Vec<String> = Vec::new();
        loop {
            let before = s.clone();
            let mut events = Vec::new();
            let mv = match rules.status(&s) {
                Status::Over => {
                    if rules
                        .outcome(&s)
                        .is_some_and(|o| o.end == EndReason::Natural)
                    {
                        natural += 1;
                    }
                    break;
                }
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(&s), &mut rng);
                    rules.apply_chance(&mut s, k, &mut events);
                    None
                }
                Status::ToMove(_) => {
                    if rules.plies(&s) >= max_plies {
                        break;
                    }
                    rules.legal_moves(&s, &mut buf);
                    let mv = buf[rng.random_range(0..buf.len())];
                    rules.apply(&mut s, mv, &mut events);
                    Some(mv)
                }
            };
            trail.push(format!("{mv:?} → {}", rules.state_text(&s)));
            if trail.len() > 6 {
                trail.remove(0);
            }
            if let Err(e) = check_ledger(rules, &before, mv, &s, &events) {
                panic!(
                    "{label}, game {game}: {e}\n  before: {}\n  last steps:\n    {}",
                    rules.state_text(&before),
                    trail.join("\n    ")
                );
            }
        }
    }
    natural
}

#[test]
fn every_taba_thrown_is_paid_banked_moved_or_let_go() {
    // Over random games of every reading and of parameter values no reading uses, the bank
    // moves only by tâbas marked down and credits spent, and no credit step drops the tâba
    // thrown with it.
    let mut cases: Vec<(&str, Value)> = ["davies", "dlp", "ludii"]
        .into_iter()
        .map(|r| (r, json!({})))
        .collect();
    cases.extend([
        (
            "davies",
            json!({"out_credit": "any-hollow", "leave": "release-and-bank"}),
        ),
        (
            "davies",
            json!({"hyena_credit_step": 2, "hyena_taba": "double-or-bank"}),
        ),
        (
            "davies",
            json!({"hyena_credit_step": 1, "end": "hyena-home", "village_exact": false}),
        ),
        (
            "dlp",
            json!({"well_banking": "added", "well_exit": "with-last", "track_len": 9}),
        ),
        (
            "ludii",
            json!({"return_taba": "bank", "out_credit": "any-hollow"}),
        ),
        (
            "ludii",
            json!({"well_cost": 0, "hyena_well_cost": 0, "hyena_release_cost": 0}),
        ),
        ("davies", json!({"hyena_purse": "fresh", "credit_entry_pays": true})),
        (
            "davies",
            json!({"well_exit": "two-last", "well_banking": "one-a-turn", "winner": "ranking"}),
        ),
        (
            "dlp",
            json!({"well_banking": "hyena", "hyena_again": true, "track_len": 21}),
        ),
        ("dlp", json!({"end": "hyena-home", "return_credit_forced": true})),
        (
            "davies",
            json!({"out_credit": "last-hollow-optional", "eats_at_well": true, "end": "first-eaten"}),
        ),
        ("ludii", json!({"mothers_block": true, "players": 8})),
        ("davies", json!({"out_credit": "any-time", "track_len": 40})),
        (
            "dlp",
            json!({"hyena_keeps": true, "well_banking": "hyena", "track_len": 30}),
        ),
        (
            "ludii",
            json!({"hyena_purse": "fresh", "hyena_release_cost": 2, "return_taba": "bank", "return_credit_forced": true}),
        ),
    ]);
    for (reading, overrides) in cases {
        let rules = engine(reading, &overrides);
        let label = format!("{reading} + {overrides}");
        walk_ledger(&rules, &label, 60, 20_000);
    }
}

// ---------------------------------------------------------------------------------------------
// Zero costs and the bounds of the numeric parameters
// ---------------------------------------------------------------------------------------------

#[test]
fn a_cost_of_nothing_is_paid_on_arrival() {
    // Davies' reading with nothing to pay at the well: she arrives, is paid up, and is
    // released at once (well_exit: released), to leave on the next 2, 4 or 6.
    let rules = engine("davies", &json!({"well_cost": 0}));
    let len = rules.track_len();
    let mut s = rules.position(
        &mothers(piece(Leg::Out, len - 4)),
        None,
        &[0; 4],
        0,
        Some(4),
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Step { to: len }),
        ["at-well", "left-well"]
    );
    assert_eq!((s.mother(0).leg, s.mother(0).pos), (Leg::Back, len));
    throw(&rules, &mut s, 6);
    assert_eq!(legal(&rules, &s), [SpiralMove::Step { to: len - 6 }]);
    // Ludii's exit (next-throw): any next throw takes her out.
    let ludii = engine("ludii", &json!({"well_cost": 0}));
    let len = ludii.track_len();
    let mut s = ludii.position(
        &mothers(piece(Leg::Out, len - 4)),
        None,
        &[0; 4],
        0,
        Some(4),
    );
    assert_eq!(
        play(&ludii, &mut s, SpiralMove::Step { to: len }),
        ["at-well"]
    );
    throw(&ludii, &mut s, 1);
    assert_eq!(legal(&ludii, &s), [SpiralMove::Exit { to: len - 1 }]);

    // The hyena with nothing to pay at the well, and nothing to leave the village.
    let rules = engine(
        "davies",
        &json!({"hyena_well_cost": 0, "hyena_release_cost": 0}),
    );
    let len = rules.track_len();
    let out = piece(Leg::Out, 5);
    let mut s = rules.position(
        &[piece(Leg::Back, 4), out, out, out],
        None,
        &[0; 4],
        0,
        Some(4),
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Step { to: 0 }),
        ["home", "hyena-loose", "hyena-out"]
    );
    let women = [piece(Leg::Home, 0), out, out, out];
    let mut s = rules.position(
        &women,
        Some((0, piece(Leg::Out, len - 8))),
        &[0; 4],
        0,
        Some(4),
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Step { to: len }),
        ["hyena-at-well", "hyena-left-well"]
    );
    assert_eq!(s.hyena().unwrap().leg, Leg::Back);
}

#[test]
fn zero_costs_play_games_that_end() {
    // Every cost of the family at 0, one at a time and all together, under every reading:
    // every game ends by the rules.
    let costs = [
        json!({"well_cost": 0}),
        json!({"hyena_well_cost": 0}),
        json!({"hyena_release_cost": 0}),
        json!({"well_cost": 0, "hyena_well_cost": 0, "hyena_release_cost": 0}),
        json!({"well_cost": 0, "well_exit": "next-throw"}),
        json!({"hyena_well_cost": 0, "end": "hyena-home", "village_exact": false}),
    ];
    for reading in ["davies", "dlp", "ludii"] {
        for overrides in &costs {
            let rules = engine(reading, overrides);
            let label = format!("{reading} + {overrides}");
            let games = 40;
            let natural = walk_ledger(&rules, &label, games, 20_000);
            assert_eq!(natural, games, "{label}: every game ends by the rules");
        }
    }
}

#[test]
fn a_cost_of_nothing_with_nothing_to_leave_with_is_refused() {
    // Under well_exit: with-last the last tâba paid takes the piece out of the well; with a
    // cost of 0 there is none, so nothing would: refused at bind, naming the parameter.
    for param in ["well_cost", "hyena_well_cost"] {
        let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
        let game = corpus.game("lib-el-merafib").unwrap();
        let interp = game.interpretation("davies").unwrap();
        let overrides = json!({param: 0, "well_exit": "with-last"});
        let err = bind::bind(game, interp, overrides.as_object().unwrap())
            .err()
            .unwrap_or_else(|| panic!("{param} = 0 with with-last was accepted"))
            .to_string();
        assert!(
            err.contains(&format!("{param} = 0")) && err.contains("1 to 255"),
            "{err}"
        );
    }
}

#[test]
fn the_numeric_parameters_at_their_bounds_play_games_that_end() {
    // The shortest and longest spirals, the fewest and most players, and the kept scores all
    // added to a first move that an exact village on a short spiral cannot take (they are lost
    // with it, or the mother would wait at the well for ever).
    let bounds = [
        json!({"track_len": 3}),
        json!({"track_len": 250, "players": 8}),
        json!({"track_len": 3, "players": 8}),
        json!({"players": 2}),
        json!({"track_len": 3, "well_banking": "added"}),
        json!({"track_len": 9, "well_banking": "added"}),
    ];
    for reading in ["davies", "dlp"] {
        for overrides in &bounds {
            let rules = engine(reading, overrides);
            let label = format!("{reading} + {overrides}");
            let natural = walk_ledger(&rules, &label, 12, 20_000);
            assert_eq!(natural, 12, "{label}: every game ends by the rules");
        }
    }
    for overrides in &bounds[..4] {
        let rules = engine("ludii", overrides);
        let natural = walk_ledger(&rules, &format!("ludii + {overrides}"), 12, 20_000);
        assert_eq!(
            natural, 12,
            "ludii + {overrides}: every game ends by the rules"
        );
    }
}
