//! Li'b el-Merafib's readings that the engine once declined, each on a worked position: the
//! hyena paid only with fresh tâbas (HY-15 (b)) and what his costs then change, measured over
//! seeded games; Davies' degrees of defeat as ranks (HY-22); a game that can no longer end,
//! ended as endless; the credit step into the village made compulsory.

use ludotrace::bind;
use ludotrace::corpus::{self, CorpusFiles};
use ludotrace::family::FamilyParams;
use ludotrace::family::spiral_race::SpiralRaceParams;
use ludotrace::games::spiral_race::{Leg, Piece, SpiralMove, SpiralRace, SpiralRaceState};
use ludotrace::games::{EndReason, Event, EventKind, Result_, Rules, Status};
use ludotrace::rng::{self, game_rng};
use rand::RngExt;
use serde_json::json;

use crate::hyena::{engine, piece};

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
fn throw(rules: &SpiralRace, s: &mut SpiralRaceState, throw: u8) {
    assert_eq!(rules.status(s), Status::Chance, "{}", rules.state_text(s));
    let k = [1, 2, 4, 6].iter().position(|&t| t == throw).unwrap();
    rules.apply_chance(s, k, &mut Vec::new());
}

// ---------------------------------------------------------------------------------------------
// HY-15 (b): the hyena pays only with tâbas thrown after his mother is home
// ---------------------------------------------------------------------------------------------

#[test]
fn a_fresh_hyena_pays_nothing_from_his_mothers_credit() {
    // Seat 1's mother comes home with three tâbas to her son's credit. Under HY-15 (a) two of
    // them pay the hyena's release at once ("on payment of two tâbas") and he is out; under
    // (b) they are set aside, and the hyena waits for two tâbas thrown for him.
    let out = piece(Leg::Out, 5);
    let women = [piece(Leg::Back, 4), out, out, out];

    let credit = engine("davies", &json!({}));
    let mut s = credit.position(&women, None, &[3, 0, 0, 0], 0, Some(4));
    let events = play(&credit, &mut s, SpiralMove::Step { to: 0 });
    assert_eq!(
        events,
        [
            "home",
            "hyena-loose",
            "release-paid",
            "release-paid",
            "hyena-out"
        ]
    );
    assert_eq!((s.hyena().unwrap().leg, s.bank(0)), (Leg::Out, 1));

    let fresh = engine("davies", &json!({"hyena_purse": "fresh"}));
    let mut s = fresh.position(&women, None, &[3, 0, 0, 0], 0, Some(4));
    let events = play(&fresh, &mut s, SpiralMove::Step { to: 0 });
    assert_eq!(events, ["home", "credit-set-aside", "hyena-loose"]);
    let hyena = s.hyena().unwrap();
    assert_eq!((hyena.leg, hyena.paid), (Leg::Village, 0));
    assert_eq!((s.bank(0), s.set_aside(0)), (0, 3));
    // A rabî' cannot move him, and nothing banked pays: it is lost.
    throw(&fresh, &mut s, 4);
    assert_eq!(legal(&fresh, &s), [SpiralMove::Pass]);
    play(&fresh, &mut s, SpiralMove::Pass);
    // Two tâbas thrown for him pay his way out.
    throw(&fresh, &mut s, 1);
    assert_eq!(legal(&fresh, &s), [SpiralMove::Pay { credit: false }]);
    assert_eq!(
        play(&fresh, &mut s, SpiralMove::Pay { credit: false }),
        ["release-paid"]
    );
    throw(&fresh, &mut s, 1);
    assert_eq!(
        play(&fresh, &mut s, SpiralMove::Pay { credit: false }),
        ["release-paid", "hyena-out"]
    );
    // The tâbas he banks on his way out are his: they pay at the well.
    assert_eq!(s.set_aside(0), 3);
}

/// Totals over `games` seeded random games (uniform random decisions).
struct Totals {
    games: u64,
    eaten: u64,
    plies: u64,
}

fn play_out(rules: &SpiralRace, games: u64) -> Totals {
    let mut t = Totals {
        games: 0,
        eaten: 0,
        plies: 0,
    };
    let mut buf = Vec::new();
    for game in 0..games {
        let mut rng = game_rng(16, 15, game);
        let mut s = rules.initial();
        loop {
            match rules.status(&s) {
                Status::Over => break,
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(&s), &mut rng);
                    rules.apply_chance(&mut s, k, &mut Vec::new());
                }
                Status::ToMove(_) => {
                    assert!(rules.plies(&s) < 20_000, "a game of {game} does not end");
                    rules.legal_moves(&s, &mut buf);
                    let mv = buf[rng.random_range(0..buf.len())];
                    rules.apply(&mut s, mv, &mut Vec::new());
                }
            }
        }
        let o = rules.outcome(&s).unwrap();
        assert_eq!(o.end, EndReason::Natural);
        t.games += 1;
        t.eaten += u64::from(s.eaten());
        t.plies += u64::from(rules.plies(&s));
    }
    t
}

#[test]
fn the_hyenas_costs_change_the_game_only_when_paid_with_fresh_tabas() {
    // Measured with `ludotrace run lib-el-merafib -i davies -n 2000 --format csv --set
    // hyena_purse=P --set hyena_well_cost=W` (women eaten a game, 95 % intervals):
    //   credit, W = 1: 0.344 [0.315, 0.373];   credit, W = 10: 0.343 [0.314, 0.372]
    //   fresh,  W = 1: 0.232 [0.207, 0.256];   fresh,  W = 10: 0.145 [0.127, 0.164]
    // Paid from the credit piled up on the way (81 steps), ten tâbas at the well cost the
    // hyena nothing he did not already hold; paid with fresh tâbas they hold him at the well
    // while the women get home. Here, at a fixed seed, the fresh hyena's dearer well saves
    // well over a quarter of the women he would have eaten, the credited one's about none.
    let games = 600;
    let eaten = |purse: &str, cost: u8| {
        let rules = engine(
            "davies",
            &json!({"hyena_purse": purse, "hyena_well_cost": cost}),
        );
        let t = play_out(&rules, games);
        assert_eq!(t.games, games);
        (t.eaten as f64 / games as f64, t.plies as f64 / games as f64)
    };
    let (fresh_cheap, fresh_cheap_len) = eaten("fresh", 1);
    let (fresh_dear, fresh_dear_len) = eaten("fresh", 10);
    let (credit_cheap, _) = eaten("credit", 1);
    let (credit_dear, _) = eaten("credit", 10);
    eprintln!(
        "eaten a game: fresh {fresh_cheap:.3} → {fresh_dear:.3} (plies {fresh_cheap_len:.1} → \
         {fresh_dear_len:.1}); credit {credit_cheap:.3} → {credit_dear:.3}"
    );
    assert!(
        fresh_dear < 0.75 * fresh_cheap,
        "fresh: {fresh_cheap} → {fresh_dear}"
    );
    assert!(
        (credit_dear - credit_cheap).abs() < 0.06,
        "credit: {credit_cheap} → {credit_dear}"
    );
    // Fewer eaten women come home, and their coming home is what ends the game.
    assert!(fresh_dear_len > fresh_cheap_len);
}

// ---------------------------------------------------------------------------------------------
// HY-22: the degrees of defeat
// ---------------------------------------------------------------------------------------------

#[test]
fn the_degrees_of_defeat_rank_the_players() {
    // Davies: the hyena "may be said to be the winner, but there are degrees of defeat. The
    // player whose mother gets eaten by the hyaena is rudely mocked by the one who manages to
    // get the old lady safely back to the village." Seat 1 is home and holds the hyena, on
    // his way back at 20; seat 2 is at 6, seat 3 at 14 and seat 4 at 2, all going home.
    let rules = engine("davies", &json!({}));
    let women = [
        piece(Leg::Home, 0),
        piece(Leg::Back, 6),
        piece(Leg::Back, 14),
        piece(Leg::Back, 2),
    ];
    let mut s = rules.position(&women, Some((0, piece(Leg::Back, 20))), &[0; 4], 0, Some(4));
    // A rabî' takes him eight hollows, to 12, past seat 3: she is eaten.
    assert_eq!(play(&rules, &mut s, SpiralMove::Step { to: 12 }), ["eaten"]);
    // A yômên, four hollows to 8: nobody there; the sticks pass.
    throw(&rules, &mut s, 2);
    play(&rules, &mut s, SpiralMove::Step { to: 8 });
    // Seat 2 throws a séta and is home; seat 4, a yômên, and is home: every woman is home or
    // eaten, and the game is over.
    throw(&rules, &mut s, 6);
    play(&rules, &mut s, SpiralMove::Step { to: 0 });
    throw(&rules, &mut s, 2);
    assert_eq!(s.mover(), 3);
    play(&rules, &mut s, SpiralMove::Step { to: 0 });
    let o = rules.outcome(&s).unwrap();
    assert_eq!(o.result, Result_::Win(0b0001));
    // The hyena's player first; then the others in the order they came home; the eaten last.
    assert_eq!(o.ranks[..4], [1, 2, 4, 3]);

    // The first woman eaten ends the game (HY-21 (c)): two eaten by one move share the last
    // place, and one still on her way ranks above them.
    let rules = engine("davies", &json!({"end": "first-eaten"}));
    let women = [
        piece(Leg::Home, 0),
        piece(Leg::Back, 16),
        piece(Leg::Back, 14),
        piece(Leg::Out, 30),
    ];
    let mut s = rules.position(&women, Some((0, piece(Leg::Back, 20))), &[0; 4], 0, Some(4));
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Step { to: 12 }),
        ["eaten", "eaten", "game-end", "hyena-wins"]
    );
    let o = rules.outcome(&s).unwrap();
    assert_eq!(o.ranks[..4], [1, 3, 3, 2]);
}

// ---------------------------------------------------------------------------------------------
// A game that can no longer end
// ---------------------------------------------------------------------------------------------

#[test]
fn a_hyena_who_can_never_come_home_ends_the_game_as_endless() {
    // davies with the end "when the hyena is back in the village" (HY-21 (b)): on 81 steps he
    // leaves the well from hollow 81 and moves 4, 8 or 12 at a time, with no credit step, so
    // he can never land on the village exactly. Binding refuses the combination (the family's
    // static check: no game of it can end); the engine built from the same parameters proves
    // it in play, the game over as soon as he is loose.
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("lib-el-merafib").unwrap();
    let davies = game.interpretation("davies").unwrap();
    let end: serde_json::Map<String, serde_json::Value> =
        json!({"end": "hyena-home"}).as_object().cloned().unwrap();
    let refused = bind::bind(game, davies, &end).err().map(|e| e.to_string());
    assert!(
        refused
            .as_deref()
            .is_some_and(|e| e.contains("cannot end") && e.contains("81 is not a multiple of 4")),
        "{refused:?}"
    );
    let mut values = davies.param_values();
    values.extend(end);
    let params = SpiralRaceParams::from_values(&values).unwrap();
    assert!(FamilyParams::cannot_end(&params).is_some());
    let rules = SpiralRace::new(&params).unwrap();
    let out = piece(Leg::Out, 5);
    let women = [piece(Leg::Back, 4), out, out, out];
    let mut s = rules.position(&women, None, &[0; 4], 0, Some(4));
    let events = play(&rules, &mut s, SpiralMove::Step { to: 0 });
    assert_eq!(events, ["home", "hyena-loose", "never-home"]);
    let o = rules.outcome(&s).unwrap();
    assert_eq!((o.result, o.end), (Result_::Unfinished, EndReason::Endless));
    assert!(!o.is_ranked());

    // dlp, same end: his tâba moves him two and is never banked on his way back, and a credit
    // moves him one. Two hollows from home with one credit left, he may step home on his
    // tâba; spending the credit instead leaves him one hollow out with nothing to spend, and
    // the game can no longer end.
    let rules = engine("dlp", &json!({"end": "hyena-home"}));
    let home = piece(Leg::Home, 0);
    let women = [home, home, piece(Leg::Eaten, 0), home];
    let hyena = Some((0, piece(Leg::Back, 2)));
    let s0 = rules.position(&women, hyena, &[1, 0, 0, 0], 0, Some(1));
    assert_eq!(
        legal(&rules, &s0),
        [SpiralMove::Step { to: 0 }, SpiralMove::Credit { to: 1 }]
    );
    let mut s = s0.clone();
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Step { to: 0 }),
        ["hyena-home", "game-end", "hyena-wins"]
    );
    let mut s = s0;
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Credit { to: 1 }),
        ["hyena-credit", "never-home"]
    );
    assert_eq!(rules.outcome(&s).unwrap().end, EndReason::Endless);
}

// ---------------------------------------------------------------------------------------------
// The credit step into the village: optional or compulsory
// ---------------------------------------------------------------------------------------------

#[test]
fn the_credit_step_into_the_village_optional_or_forced() {
    // One hollow from home with a credit and a tâba in hand: as the engine played it (and
    // the readings keep), she may bank the tâba and keep her credit; forced, as one hollow
    // from the well, the credit takes her home (the tâba marked down first).
    let out = piece(Leg::Out, 5);
    let women = [piece(Leg::Back, 1), out, out, out];
    let optional = engine("davies", &json!({}));
    let s = optional.position(&women, None, &[1, 0, 0, 0], 0, Some(1));
    assert_eq!(
        legal(&optional, &s),
        [SpiralMove::Bank, SpiralMove::Credit { to: 0 }]
    );
    let forced = engine("davies", &json!({"return_credit_forced": true}));
    let mut s = forced.position(&women, None, &[1, 0, 0, 0], 0, Some(1));
    assert_eq!(legal(&forced, &s), [SpiralMove::Credit { to: 0 }]);
    let events = play(&forced, &mut s, SpiralMove::Credit { to: 0 });
    assert_eq!(events[..3], ["banked", "return-credit", "home"]);
    // A yômên gives way to it too.
    let s = forced.position(&women, None, &[1, 0, 0, 0], 0, Some(2));
    assert_eq!(legal(&forced, &s), [SpiralMove::Credit { to: 0 }]);
}

// ---------------------------------------------------------------------------------------------
// The well: the credit that carries her in (HY-09 (b)), coming away (HY-10 (b)), kept scores
// (HY-11 (c), (d))
// ---------------------------------------------------------------------------------------------

#[test]
fn the_credit_into_the_well_is_the_first_of_her_five() {
    // HY-09 (b): of the five tâbas ("two tâbas to drink, one to wash her clothes and two to
    // come away with") the credit that completed her journey counts as the first.
    let rules = engine("davies", &json!({"credit_entry_pays": true}));
    let len = rules.track_len();
    let out = piece(Leg::Out, 5);
    // One hollow short, with a credit: the step is her only move, and pays one of the five.
    let mut s = rules.position(
        &[piece(Leg::Out, len - 1), out, out, out],
        None,
        &[1, 0, 0, 0],
        0,
        Some(4),
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Credit { to: len }),
        ["credit-out", "at-well", "entry-paid"]
    );
    assert_eq!((s.mother(0).leg, s.mother(0).paid), (Leg::Well, 1));
    // Four more tâbas and she is free.
    for _ in 0..3 {
        throw(&rules, &mut s, 1);
        assert_eq!(
            play(&rules, &mut s, SpiralMove::Pay { credit: false }),
            ["paid"]
        );
    }
    throw(&rules, &mut s, 1);
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Pay { credit: false }),
        ["paid", "left-well"]
    );
    // Landing in the well exactly on a throw, she owes all five.
    let mut s = rules.position(
        &[piece(Leg::Out, len - 2), out, out, out],
        None,
        &[0; 4],
        0,
        Some(2),
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Step { to: len }),
        ["at-well"]
    );
    assert_eq!(s.mother(0).paid, 0);
}

#[test]
fn the_two_tabas_to_come_away_with_move_her_two_hollows() {
    // HY-10 (b): "two to come away with" each move her a hollow out of the well.
    let rules = engine("davies", &json!({"well_exit": "two-last"}));
    let len = rules.track_len();
    let out = piece(Leg::Out, 5);
    let waiting = Piece {
        paid: 4,
        ..piece(Leg::Well, len)
    };
    let mut s = rules.position(&[waiting, out, out, out], None, &[0; 4], 0, Some(1));
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Pay { credit: false }),
        ["paid", "left-well"]
    );
    assert_eq!((s.mother(0).leg, s.mother(0).pos), (Leg::Back, len - 2));
    // A cost of nothing leaves no tâba to come away with: refused, as under with-last.
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("lib-el-merafib").unwrap();
    let overrides = json!({"well_exit": "two-last", "well_cost": 0});
    let err = bind::bind(
        game,
        game.interpretation("davies").unwrap(),
        overrides.as_object().unwrap(),
    )
    .map(|_| ())
    .unwrap_err();
    assert!(err.to_string().contains("two-last"), "{err}");
}

#[test]
fn kept_scores_one_a_turn() {
    // HY-11 (d): the scores marked down "for later use" are spent one a turn.
    let out = piece(Leg::Out, 5);
    let back = Piece {
        kept: [2, 0, 0],
        ..piece(Leg::Back, 30)
    };
    let women = [back, out, out, out];
    let any = engine("davies", &json!({}));
    let mut s = any.position(&women, None, &[0; 4], 0, Some(4));
    play(&any, &mut s, SpiralMove::Kept { score: 2, to: 28 });
    assert_eq!(
        legal(&any, &s),
        [
            SpiralMove::Step { to: 24 },
            SpiralMove::Kept { score: 2, to: 26 }
        ]
    );
    let one = engine("davies", &json!({"well_banking": "one-a-turn"}));
    let mut s = one.position(&women, None, &[0; 4], 0, Some(4));
    assert_eq!(
        legal(&one, &s),
        [
            SpiralMove::Step { to: 26 },
            SpiralMove::Kept { score: 2, to: 28 }
        ]
    );
    play(&one, &mut s, SpiralMove::Kept { score: 2, to: 28 });
    assert_eq!(legal(&one, &s), [SpiralMove::Step { to: 24 }]);
    // Her next turn, the other may be played (the others, home before any hyena is loose,
    // have nothing to throw for here).
    let home = piece(Leg::Home, 0);
    let mut s = one.position(&[back, home, home, home], None, &[0; 4], 0, Some(4));
    play(&one, &mut s, SpiralMove::Kept { score: 2, to: 28 });
    play(&one, &mut s, SpiralMove::Step { to: 24 });
    throw(&one, &mut s, 2);
    assert_eq!(legal(&one, &s), [SpiralMove::Step { to: 22 }]);
    play(&one, &mut s, SpiralMove::Step { to: 22 });
    assert_eq!(s.mover(), 0);
    throw(&one, &mut s, 4);
    assert_eq!(
        legal(&one, &s),
        [
            SpiralMove::Step { to: 18 },
            SpiralMove::Kept { score: 2, to: 20 }
        ]
    );
}

#[test]
fn kept_scores_left_over_are_the_hyenas() {
    // HY-11 (c): seat 1's mother comes home with a rabî' still marked down; her player is the
    // hyena, and the rabî' is his, at double rates: eight hollows.
    let rules = engine("davies", &json!({"well_banking": "hyena"}));
    let out = piece(Leg::Out, 5);
    let back = Piece {
        kept: [0, 1, 0],
        ..piece(Leg::Back, 4)
    };
    let mut s = rules.position(&[back, out, out, out], None, &[2, 0, 0, 0], 0, Some(4));
    assert_eq!(
        legal(&rules, &s),
        [
            SpiralMove::Step { to: 0 },
            SpiralMove::Kept { score: 4, to: 0 }
        ]
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Step { to: 0 }),
        [
            "home",
            "hyena-loose",
            "release-paid",
            "release-paid",
            "hyena-out"
        ]
    );
    throw(&rules, &mut s, 6);
    assert_eq!(
        legal(&rules, &s),
        [
            SpiralMove::Step { to: 12 },
            SpiralMove::Kept { score: 4, to: 8 }
        ]
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Kept { score: 4, to: 8 }),
        ["hyena-kept"]
    );
    // The séta thrown is still his to play.
    assert_eq!(legal(&rules, &s), [SpiralMove::Step { to: 20 }]);
    // Under the scores kept for her alone, they are lost with her coming home.
    let own = engine("davies", &json!({}));
    let mut s = own.position(&[back, out, out, out], None, &[2, 0, 0, 0], 0, Some(4));
    play(&own, &mut s, SpiralMove::Step { to: 0 });
    throw(&own, &mut s, 6);
    assert_eq!(legal(&own, &s), [SpiralMove::Step { to: 12 }]);
}

// ---------------------------------------------------------------------------------------------
// HY-21 (e): the hyena goes round again
// ---------------------------------------------------------------------------------------------

#[test]
fn the_hyena_home_with_women_out_sets_off_again() {
    // dlp's hyena two hollows from home, a tâba in hand (two hollows for him); seat 2's
    // mother is still far out on her way back.
    let home = piece(Leg::Home, 0);
    let women = [home, piece(Leg::Back, 30), home, home];
    let hyena = Some((0, piece(Leg::Back, 2)));
    let stays = engine("dlp", &json!({}));
    let mut s = stays.position(&women, hyena, &[0; 4], 0, Some(1));
    assert_eq!(
        play(&stays, &mut s, SpiralMove::Step { to: 0 }),
        ["hyena-home"]
    );
    assert_eq!(s.hyena().unwrap().leg, Leg::Home);
    assert_eq!(s.mover(), 1);

    let again = engine("dlp", &json!({"hyena_again": true}));
    let mut s = again.position(&women, hyena, &[0; 4], 0, Some(1));
    assert_eq!(
        play(&again, &mut s, SpiralMove::Step { to: 0 }),
        ["hyena-home", "hyena-again"]
    );
    let h = s.hyena().unwrap();
    assert_eq!((h.leg, h.pos, h.paid), (Leg::Village, 0, 0));
    // His player throws on, for the hyena: two tâbas pay his release again.
    assert_eq!(s.mover(), 0);
    throw(&again, &mut s, 1);
    assert_eq!(legal(&again, &s), [SpiralMove::Pay { credit: false }]);
    // Where his coming home ends the game, going round again is refused.
    let corpus = corpus::load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("lib-el-merafib").unwrap();
    let overrides = json!({"hyena_again": true, "end": "hyena-home"});
    let err = bind::bind(
        game,
        game.interpretation("dlp").unwrap(),
        overrides.as_object().unwrap(),
    )
    .map(|_| ())
    .unwrap_err();
    assert!(err.to_string().contains("hyena_again"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// HY-08 (e): the credit into the well at her player's choice; HY-20 (b): eaten at the well
// ---------------------------------------------------------------------------------------------

#[test]
fn the_credit_into_the_well_at_her_players_choice() {
    // Davies: one day short of the well she "may then use one of her son's credit of tâbas to
    // complete the journey". Under last-hollow the step is her only move; under
    // last-hollow-optional her player may bank a tâba instead, or let a throw go, and keep it.
    let out = piece(Leg::Out, 5);
    let forced = engine("davies", &json!({"out_credit": "last-hollow"}));
    let len = forced.track_len();
    let women = [piece(Leg::Out, len - 1), out, out, out];
    for t in [1, 4] {
        let s = forced.position(&women, None, &[1, 0, 0, 0], 0, Some(t));
        assert_eq!(legal(&forced, &s), [SpiralMove::Credit { to: len }]);
    }
    let may = engine("davies", &json!({"out_credit": "last-hollow-optional"}));
    let mut s = may.position(&women, None, &[1, 0, 0, 0], 0, Some(1));
    assert_eq!(
        legal(&may, &s),
        [SpiralMove::Bank, SpiralMove::Credit { to: len }]
    );
    play(&may, &mut s, SpiralMove::Bank);
    assert_eq!((s.mother(0).pos, s.bank(0)), (len - 1, 2));
    throw(&may, &mut s, 4);
    assert_eq!(
        legal(&may, &s),
        [SpiralMove::Credit { to: len }, SpiralMove::Pass]
    );
    assert_eq!(play(&may, &mut s, SpiralMove::Pass), ["declined"]);
    assert_eq!(s.bank(0), 2);
}

#[test]
fn a_woman_at_the_well_once_the_hyena_has_drunk() {
    // "He cannot eat before drinking." Seat 1's hyena pays his tenth tâba at the well, where
    // seat 2's mother is still paying hers.
    let len = engine("davies", &json!({})).track_len();
    let hyena = Some((
        0,
        Piece {
            paid: 9,
            ..piece(Leg::Well, len)
        },
    ));
    let women = [
        piece(Leg::Home, 0),
        Piece {
            paid: 2,
            ..piece(Leg::Well, len)
        },
        piece(Leg::Out, 5),
        piece(Leg::Back, 40),
    ];
    let safe = engine("davies", &json!({}));
    let mut s = safe.position(&women, hyena, &[0; 4], 0, Some(1));
    assert_eq!(
        play(&safe, &mut s, SpiralMove::Pay { credit: false }),
        ["hyena-paid", "hyena-left-well"]
    );
    assert_eq!(s.mother(1).leg, Leg::Well);
    let eaten = engine("davies", &json!({"eats_at_well": true}));
    let mut s = eaten.position(&women, hyena, &[0; 4], 0, Some(1));
    assert_eq!(
        play(&eaten, &mut s, SpiralMove::Pay { credit: false }),
        ["hyena-paid", "eaten", "hyena-left-well"]
    );
    assert_eq!((s.mother(1).leg, s.eaten()), (Leg::Eaten, 1));
}

// ---------------------------------------------------------------------------------------------
// HY-24 (b): a mother blocks the others
// ---------------------------------------------------------------------------------------------

#[test]
fn a_mother_blocks_the_hollow_she_stands_on() {
    // Seat 1's mother at 10 throws a rabî': four hollows, onto seat 2's mother at 14.
    let women = [
        piece(Leg::Out, 10),
        piece(Leg::Out, 14),
        piece(Leg::Back, 12),
        piece(Leg::Village, 0),
    ];
    let share = engine("davies", &json!({}));
    let s = share.position(&women, None, &[0; 4], 0, Some(4));
    assert_eq!(legal(&share, &s), [SpiralMove::Step { to: 14 }]);
    let block = engine("davies", &json!({"mothers_block": true}));
    let mut s = block.position(&women, None, &[0; 4], 0, Some(4));
    assert_eq!(legal(&block, &s), [SpiralMove::Pass]);
    assert_eq!(play(&block, &mut s, SpiralMove::Pass), ["unusable"]);
    // A yômên to 12, where seat 3 stands on her way back, is blocked too; a séta to 16 is not.
    throw(&block, &mut s, 6);
    assert_eq!(legal(&block, &s), [SpiralMove::Step { to: 16 }]);
    let mut s = block.position(&women, None, &[0; 4], 0, Some(2));
    assert_eq!(legal(&block, &s), [SpiralMove::Pass]);
    play(&block, &mut s, SpiralMove::Pass);
    assert_eq!(s.mover(), 1);
}

// ---------------------------------------------------------------------------------------------
// HY-18 (b): scores marked down for the hyena at the well
// ---------------------------------------------------------------------------------------------

#[test]
fn scores_marked_down_for_the_hyena_at_the_well() {
    // A rabî' thrown while the hyena pays at the well: lost (HY-18 (a)), or marked down for
    // him as for a waiting mother (HY-18 (b)), to move him eight hollows on his way back.
    let len = engine("davies", &json!({})).track_len();
    let out = piece(Leg::Out, 5);
    let women = [piece(Leg::Home, 0), out, out, out];
    let paying = Some((
        0,
        Piece {
            paid: 3,
            ..piece(Leg::Well, len)
        },
    ));
    let lost = engine("davies", &json!({}));
    let s = lost.position(&women, paying, &[0; 4], 0, Some(4));
    assert_eq!(legal(&lost, &s), [SpiralMove::Pass]);
    let keeps = engine("davies", &json!({"hyena_keeps": true}));
    let mut s = keeps.position(&women, paying, &[0; 4], 0, Some(4));
    assert_eq!(legal(&keeps, &s), [SpiralMove::Keep]);
    assert_eq!(play(&keeps, &mut s, SpiralMove::Keep), ["hyena-marked"]);
    assert_eq!(s.hyena().unwrap().kept, [0, 1, 0]);
    // On his way back, at 40, a yômên in hand: four hollows on it, or eight on the rabî'
    // marked down, the yômên still to play.
    let back = Some((
        0,
        Piece {
            kept: [0, 1, 0],
            ..piece(Leg::Back, 40)
        },
    ));
    let mut s = keeps.position(&women, back, &[0; 4], 0, Some(2));
    assert_eq!(
        legal(&keeps, &s),
        [
            SpiralMove::Step { to: 36 },
            SpiralMove::Kept { score: 4, to: 32 }
        ]
    );
    assert_eq!(
        play(&keeps, &mut s, SpiralMove::Kept { score: 4, to: 32 }),
        ["hyena-kept"]
    );
    assert_eq!(legal(&keeps, &s), [SpiralMove::Step { to: 28 }]);
}

// ---------------------------------------------------------------------------------------------
// HY-08 (c): credits at any time on the way out
// ---------------------------------------------------------------------------------------------

#[test]
fn credits_spent_at_any_time_on_the_way_out() {
    // HY-08 (c): "at any time, one hollow for each credit, to put her parity right early".
    let rules = engine("davies", &json!({"out_credit": "any-time"}));
    let len = rules.track_len();
    let out = piece(Leg::Out, 5);
    let mut s = rules.position(
        &[piece(Leg::Out, 10), out, out, out],
        None,
        &[2, 0, 0, 0],
        0,
        Some(4),
    );
    assert_eq!(
        legal(&rules, &s),
        [SpiralMove::Step { to: 14 }, SpiralMove::Credit { to: 11 }]
    );
    assert_eq!(
        play(&rules, &mut s, SpiralMove::Credit { to: 11 }),
        ["credit-out"]
    );
    // The rabî' is still in hand.
    assert_eq!((s.mover(), s.throw()), (0, Some(4)));
    play(&rules, &mut s, SpiralMove::Credit { to: 12 });
    assert_eq!(legal(&rules, &s), [SpiralMove::Step { to: 16 }]);
    play(&rules, &mut s, SpiralMove::Step { to: 16 });
    assert_eq!(s.bank(0), 0);
    // A throw she cannot use: she may spend a credit, or keep it and let the throw go.
    let s = rules.position(
        &[piece(Leg::Out, len - 2), out, out, out],
        None,
        &[1, 0, 0, 0],
        0,
        Some(4),
    );
    assert_eq!(
        legal(&rules, &s),
        [SpiralMove::Credit { to: len - 1 }, SpiralMove::Pass]
    );
}
