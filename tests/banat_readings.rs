//! Um el Banât's register readings made playable (issue 16), each on a worked position: whose
//! remainder the borrowing makes up (UB-18), counters that make no house, an empty daughter's
//! house (UB-07 c), a stage that cannot end (UB-09 b, c), a player short of a full four
//! (UB-14 b), the extra houses placed by choice (UB-11 c), the houses a player may sow
//! (UB-19 b), Ludii's end of the game (ENC-2.6 a) and equal holdings as turns run (ENC-2.5 b).
//! Relay caps and standstills (UB-06 b, c) are in `sowing_relay`.

use ludotrace::bind::{Engine, bind};
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::sowing::{Dir, Sowing, SowingEvent, SowingMove, SowingSetup, SowingState};
use ludotrace::games::{Result_, Rules, Status};
use serde_json::{Value, json};

/// A reading of Um el Banât with overrides.
fn banat(interp: &str, overrides: Value) -> Sowing {
    let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("um-el-banat").unwrap();
    let interp = game.interpretation(interp).unwrap();
    match bind(game, interp, overrides.as_object().unwrap())
        .unwrap()
        .engine
    {
        Engine::Sowing(r) => r,
        other => panic!("not a sowing game: {other:?}"),
    }
}

fn houses_of(s: &SowingState, seat: usize) -> usize {
    (0..12).filter(|&h| s.owner(h) == Some(seat)).count()
}

/// A stage that began with `stake` and ended (only daughters left, none here) with `stores`,
/// reckoned at once.
fn reckon(r: &Sowing, stores: [u32; 2], stake: [u32; 2]) -> (SowingState, Vec<SowingEvent>) {
    let mut events = Vec::new();
    let s = r
        .setup_in_stage(
            &SowingSetup {
                rows: [vec![0; 6], vec![0; 6]],
                stores,
                to_move: 0,
                daughters: vec![],
            },
            Some(stake),
            &mut events,
        )
        .unwrap();
    (s, events)
}

fn reckoning(events: &[SowingEvent]) -> ([u32; 2], [u8; 2]) {
    events
        .iter()
        .find_map(|e| match *e {
            SowingEvent::Reckoning { holdings, houses } => Some((holdings, houses)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no reckoning in {events:?}"))
}

/// UB-18, the register's worked stage: B (seat 1) began it with 32 counters (eight houses),
/// A with 16 (four), and A gained two: B 30, A 18. Davies: "if B has gained a multiple of four
/// plus two counters or one, A borrows these back to make up his last house", with the
/// gainer in B's place: B borrows A's two back and keeps eight houses to A's four. The DLP's
/// larger holder (B, two over) has A borrow B's two: A five houses, B seven.
#[test]
fn ub18_the_gainers_remainder_and_the_larger_holders_differ_on_two_over() {
    let davies = banat("davies", json!({}));
    let (s, events) = reckon(&davies, [18, 30], [16, 32]);
    assert!(
        events.contains(&SowingEvent::GainerBorrowing { seat: 0 }),
        "{events:?}"
    );
    assert!(
        events.contains(&SowingEvent::BorrowBackTwo { seat: 1 }),
        "B borrows the two back: {events:?}"
    );
    assert_eq!(reckoning(&events), ([18, 30], [4, 8]));
    assert_eq!((houses_of(&s, 0), houses_of(&s, 1)), (4, 8));
    assert_eq!(s.total(), 48);

    let dlp = banat("dlp", json!({}));
    let (s, events) = reckon(&dlp, [18, 30], [16, 32]);
    assert!(
        events.contains(&SowingEvent::BorrowBackTwo { seat: 0 }),
        "A borrows B's two: {events:?}"
    );
    assert_eq!(reckoning(&events), ([18, 30], [5, 7]));
    assert_eq!((houses_of(&s, 0), houses_of(&s, 1)), (5, 7));
    // The same stage under davies with the basis overridden plays as the DLP.
    let (_, events) = reckon(
        &banat("davies", json!({"borrowing_basis": "larger-holder"})),
        [18, 30],
        [16, 32],
    );
    assert_eq!(reckoning(&events).1, [5, 7]);
}

/// UB-18: "With a remainder of three or one, or when the gainer is the larger holder, they
/// agree." A gains three (19 to B's 29): A borrows one from B by his remainder, and by B's
/// remainder of one A borrows it back; either way A has five houses.
#[test]
fn ub18_the_two_bases_agree_on_three_or_one_over() {
    for interp in ["davies", "dlp"] {
        let (_, events) = reckon(&banat(interp, json!({})), [19, 29], [16, 32]);
        assert_eq!(reckoning(&events).1, [5, 7], "{interp}");
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, SowingEvent::GainerBorrowing { .. })),
            "{events:?}"
        );
    }
    // The first stage: both began with 24, B gains two (A 22, B 26). The gainer is the larger
    // holder, so both bases have A borrow B's two: six houses each.
    let (_, events) = reckon(&banat("davies", json!({})), [22, 26], [24, 24]);
    assert_eq!(reckoning(&events).1, [6, 6]);
}

/// A whole first stage played out under `davies`: the stake the gainer is measured from is
/// the board the stage began with (24 each), and every reckoning keeps the 48 counters.
#[test]
fn ub18_random_stages_under_the_gainers_remainder_conserve_counters() {
    crate::util::random_play_conserves(
        &banat("davies", json!({"starter": "first-seat"})),
        48,
        20,
        3000,
    );
}

/// Counters that make no house: with pecked counters out of play, A 18 and B 25 (five pecked
/// away): B's one over is borrowed back, A holds 19, four houses and three over. Out of play
/// by default; `kept`, A holds them through the next stage.
#[test]
fn unhoused_counters_leave_play_or_are_kept_for_the_next_reckoning() {
    let out = banat(
        "davies",
        json!({"pecked": "discarded", "borrowing_basis": "larger-holder"}),
    );
    let (s, events) = reckon(&out, [18, 25], [24, 24]);
    assert_eq!(reckoning(&events), ([18, 25], [4, 6]));
    assert_eq!(s.stores(), [0, 0]);
    assert_eq!(
        s.total(),
        43,
        "the three are out of play, still counted in the total"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SowingEvent::UnhousedKept { .. }))
    );

    let kept = banat(
        "davies",
        json!({"pecked": "discarded", "borrowing_basis": "larger-holder", "unhoused": "kept"}),
    );
    let (s, events) = reckon(&kept, [18, 25], [24, 24]);
    assert_eq!(reckoning(&events), ([18, 25], [4, 6]));
    assert!(
        events.contains(&SowingEvent::UnhousedKept {
            seat: 0,
            counters: 3
        }),
        "{events:?}"
    );
    assert_eq!(s.stores(), [3, 0], "A keeps his three in hand");
    assert_eq!(s.total(), 43);
}

/// UB-07 (c): B's daughter in a6 has been pecked empty; A's single counter in a5 falls into
/// her. Kept as a daughter, she is pecked (the last counter alone) and A plays again; read as
/// "a house previously empty", the move stops there with no peck.
#[test]
fn ub07c_an_empty_daughters_house_stops_the_move_without_a_peck() {
    let position = SowingSetup {
        rows: [vec![2, 0, 0, 0, 1, 0], vec![2, 2, 2, 2, 2, 2]],
        stores: [0, 0],
        to_move: 0,
        daughters: vec![(5, 1)],
    };
    let keeps = banat("davies", json!({}));
    let mut s = keeps.setup(&position).unwrap();
    let mut events = Vec::new();
    keeps
        .play(&mut s, SowingMove::sow(4, Dir::Ccw), &mut events)
        .unwrap();
    assert_eq!(
        events,
        [SowingEvent::Peck {
            house: 5,
            counters: 1
        }]
    );
    assert_eq!(keeps.status(&s), Status::ToMove(0), "a peck plays again");

    let stops = banat("davies", json!({"emptied_daughter": "empty-stops"}));
    let mut s = stops.setup(&position).unwrap();
    let mut events = Vec::new();
    stops
        .play(&mut s, SowingMove::sow(4, Dir::Ccw), &mut events)
        .unwrap();
    assert_eq!(events, [SowingEvent::EmptyDaughterStop { house: 5 }]);
    assert_eq!((s.house(5), s.daughter(5)), (1, Some(1)));
    assert_eq!(stops.status(&s), Status::ToMove(1), "the move stopped");
    assert_eq!(s.stores(), [0, 0]);
}

/// UB-09 (b) and (c): a stage that cannot end. No daughter is on the board and only two
/// single counters, A's in a1 and B's in b1, so the board can never be reduced to daughters:
/// each move sows one counter into the next house, round and round the circuit. Each player
/// plays the first move listed; the positions recur.
#[test]
fn ub09_a_recurring_position_ends_the_stage_and_it_is_reckoned() {
    let position = SowingSetup {
        rows: [vec![1, 0, 0, 0, 0, 0], vec![1, 0, 0, 0, 0, 0]],
        stores: [23, 23],
        to_move: 0,
        daughters: vec![],
    };
    let play_out = |r: &Sowing| {
        let mut s = r.setup(&position).unwrap();
        let mut all = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..400 {
            if r.status(&s) == Status::Over || all.contains(&SowingEvent::StageRepetition) {
                break;
            }
            r.legal_moves(&s, &mut moves);
            r.play(&mut s, moves[0], &mut all).unwrap();
        }
        (s, all)
    };
    // Without a rule the stage goes on.
    let (_, events) = play_out(&banat("davies", json!({})));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SowingEvent::Reckoning { .. }))
    );

    // (b): reckoned as if complete; the counters left in ordinary houses go to the house's
    // owner, as the reading's `blocked-player: pass` counts them at a stage's end.
    let b = banat("davies", json!({"repetition": "reckon"}));
    let (s, events) = play_out(&b);
    let i = events
        .iter()
        .position(|e| *e == SowingEvent::StageRepetition)
        .unwrap_or_else(|| panic!("no repetition: {events:?}"));
    assert_eq!(events[i - 1], SowingEvent::Repetition);
    let (holdings, houses) = reckoning(&events[i..]);
    assert_eq!(
        holdings,
        [23 + left_in(&events[i..], 0), 23 + left_in(&events[i..], 1)]
    );
    assert_eq!(holdings[0] + holdings[1], 48);
    assert_eq!(houses[0] + houses[1], 12);
    assert_ne!(
        b.status(&s),
        Status::Over,
        "play goes on with the next stage"
    );

    // (c): reckoned by takings and daughters alone; the two single counters leave play.
    let c = banat("davies", json!({"repetition": "reckon-takings"}));
    let (s, events) = play_out(&c);
    let i = events
        .iter()
        .position(|e| *e == SowingEvent::StageRepetition)
        .unwrap_or_else(|| panic!("no repetition: {events:?}"));
    assert_eq!(reckoning(&events[i..]).0, [23, 23]);
    assert_eq!(s.total(), 48, "out of play, still counted in the total");
}

/// The counters left in `seat`'s ordinary houses at a stage's end, from its `remaining` event.
fn left_in(events: &[SowingEvent], seat: usize) -> u32 {
    events
        .iter()
        .find_map(|e| match *e {
            SowingEvent::Remaining {
                seat: s, counters, ..
            } if s == seat => Some(counters),
            _ => None,
        })
        .unwrap_or(0)
}

/// UB-14 (b): A ends a stage with three counters. By the borrowing arithmetic (a) he borrows
/// one and keeps a house; with "any player without a full four is off the board" he is out.
#[test]
fn ub14b_a_player_without_a_full_four_is_driven_off() {
    let a = banat("davies", json!({}));
    let (s, events) = reckon(&a, [3, 45], [4, 44]);
    assert_eq!(reckoning(&events).1, [1, 11]);
    assert_ne!(a.status(&s), Status::Over);

    let b = banat("davies", json!({"driven_off": "no-full-four"}));
    let (s, events) = reckon(&b, [3, 45], [4, 44]);
    assert!(
        events.contains(&SowingEvent::DrivenOff { seat: 0 }),
        "{events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SowingEvent::Reckoning { .. }))
    );
    assert_eq!(b.outcome(&s).unwrap().result, Result_::Win(2));
    // Four exactly is a full four.
    let (s, _) = reckon(&b, [4, 44], [8, 40]);
    assert_ne!(b.status(&s), Status::Over);
}

/// UB-11 (c): the holder of more houses chooses where his extra houses lie. B ends the stage
/// with 32 to A's 16 ("B has eight houses and A only four"); before the next stage B chooses,
/// as a move of his, between the two houses of A's row his row sows into (a1, a2) and the two
/// that sow into it (a5, a6).
#[test]
fn ub11c_the_larger_holder_chooses_where_his_extra_houses_lie() {
    let r = banat("davies", json!({"extra_houses": "chosen"}));
    for (downstream, a_houses) in [(true, [2, 3, 4, 5]), (false, [0, 1, 2, 3])] {
        let (mut s, events) = reckon(&r, [16, 32], [24, 24]);
        assert_eq!(reckoning(&events).1, [4, 8]);
        assert_eq!(r.status(&s), Status::ToMove(1), "B places his extra houses");
        let mut legal = Vec::new();
        r.legal_moves(&s, &mut legal);
        assert_eq!(
            legal,
            [
                SowingMove::PlaceExtra { downstream: true },
                SowingMove::PlaceExtra { downstream: false }
            ]
        );
        let mut events = Vec::new();
        r.play(&mut s, SowingMove::PlaceExtra { downstream }, &mut events)
            .unwrap();
        assert_eq!(events[0], SowingEvent::ExtraHousesChosen { seat: 1 });
        let a: Vec<usize> = (0..12).filter(|&h| s.owner(h) == Some(0)).collect();
        assert_eq!(a, a_houses, "downstream {downstream}");
        assert_eq!(houses_of(&s, 1), 8);
        assert!((0..12).all(|h| s.house(h) == 4));
        // `davies` begins the stage with whoever would have moved next (A, seat 0, here).
        assert_eq!(r.status(&s), Status::ToMove(0));
    }
    // Equal holdings leave no extra houses and nothing to choose.
    let (s, _) = reckon(&r, [24, 24], [24, 24]);
    assert_eq!(r.status(&s), Status::ToMove(0));
}

/// UB-19 (b): after a reset that gives B eight houses, two of them in A's row, B may sow
/// only the houses of his own row; under Davies' "one of his own houses" he may sow all eight.
#[test]
fn ub19b_only_the_houses_of_ones_own_row_are_sown() {
    let sown = |r: &Sowing| {
        let (mut s, _) = reckon(r, [16, 32], [24, 24]);
        // `davies` gives the next stage to A; A sows a3 so that B is to move.
        let mut events = Vec::new();
        r.play(&mut s, SowingMove::sow(2, Dir::Ccw), &mut events)
            .unwrap();
        while r.status(&s) == Status::ToMove(0) {
            let mut legal = Vec::new();
            r.legal_moves(&s, &mut legal);
            r.play(&mut s, legal[0], &mut events).unwrap();
        }
        let mut legal = Vec::new();
        r.legal_moves(&s, &mut legal);
        let mut houses: Vec<usize> = legal
            .iter()
            .filter_map(|m| match *m {
                SowingMove::Sow { house, .. } => Some(usize::from(house)),
                _ => None,
            })
            .collect();
        houses.sort_unstable();
        (s, houses)
    };
    let owns = banat("davies", json!({}));
    let (s, houses) = sown(&owns);
    assert!(
        houses.iter().any(|&h| h < 6),
        "B sows in A's row: {houses:?}"
    );
    assert!(houses.iter().all(|&h| s.owner(h) == Some(1)));
    let own_row = banat("davies", json!({"sow_from": "own-row"}));
    let (s, houses) = sown(&own_row);
    assert!(!houses.is_empty());
    assert!(
        houses.iter().all(|&h| h >= 6 && s.owner(h) == Some(1)),
        "{houses:?}"
    );
}

/// ENC-2.6 (a), Ludii's end of the game: 47 and 1. The larger holder's three over borrow A's
/// last counter, and the reckoning leaves him no house. Under the reading's UB-14 (c) he is off
/// the board at once; under Ludii's empty hand before the borrowing he is not (his hand held
/// one): he owns no house in the next stage and passes through it. Where daughters are
/// begotten only in the houses the opponent owns, that stage can never end.
#[test]
fn enc26a_a_player_left_without_a_house_passes_through_the_next_stage() {
    let ub14c = banat("ludii", json!({}));
    let (s, events) = reckon(&ub14c, [1, 47], [4, 44]);
    assert!(
        events.contains(&SowingEvent::DrivenOff { seat: 0 }),
        "{events:?}"
    );
    assert_eq!(ub14c.status(&s), Status::Over);

    let ludii = banat("ludii", json!({"driven_off": "empty-hand-only"}));
    let (mut s, events) = reckon(&ludii, [1, 47], [4, 44]);
    assert_eq!(reckoning(&events).1, [0, 12]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SowingEvent::DrivenOff { .. }))
    );
    assert_eq!(houses_of(&s, 0), 0);
    // B (the larger holder) begins; A only passes.
    assert_eq!(ludii.status(&s), Status::ToMove(1));
    let mut legal = Vec::new();
    ludii.legal_moves(&s, &mut legal);
    let mut events = Vec::new();
    ludii.play(&mut s, legal[0], &mut events).unwrap();
    if ludii.status(&s) == Status::ToMove(0) {
        ludii.legal_moves(&s, &mut legal);
        assert_eq!(legal, [SowingMove::Pass]);
    }
    // An empty hand at the reckoning drives him off.
    let (s, events) = reckon(&ludii, [0, 48], [0, 48]);
    assert!(
        events.contains(&SowingEvent::DrivenOff { seat: 0 }),
        "{events:?}"
    );
    assert_eq!(ludii.status(&s), Status::Over);

    // Under davies' daughters in the houses the opponent owns, B can beget none: endless.
    let davies = banat("davies", json!({"driven_off": "empty-hand-only"}));
    let (s, events) = reckon(&davies, [1, 47], [4, 44]);
    assert!(events.contains(&SowingEvent::StageEndless), "{events:?}");
    let o = davies.outcome(&s).unwrap();
    assert_eq!(
        (o.result, o.end),
        (Result_::Unfinished, ludotrace::games::EndReason::Endless)
    );
}

/// ENC-2.5 (b): on equal holdings (24 each) Ludii's `larger` gives the first move of the
/// next stage to the first seat; decided as turns run, the player after the one who completed
/// the stage moves first (here B, seat 1, would have moved next).
#[test]
fn enc25b_equal_holdings_begin_as_turns_run() {
    let stage_end = |r: &Sowing| {
        let mut events = Vec::new();
        r.setup_in_stage(
            &SowingSetup {
                rows: [vec![0; 6], vec![0; 6]],
                stores: [24, 24],
                to_move: 1,
                daughters: vec![],
            },
            None,
            &mut events,
        )
        .unwrap()
    };
    let larger = banat("dlp", json!({}));
    assert_eq!(larger.status(&stage_end(&larger)), Status::ToMove(0));
    let turns = banat("dlp", json!({"round_starter": "larger-else-continue"}));
    assert_eq!(turns.status(&stage_end(&turns)), Status::ToMove(1));
    // Unequal holdings: the larger holder, as under `larger`.
    let (s, _) = reckon(&turns, [20, 28], [24, 24]);
    assert_eq!(turns.status(&s), Status::ToMove(1));
    let (s, _) = reckon(&turns, [28, 20], [24, 24]);
    assert_eq!(turns.status(&s), Status::ToMove(0));
}

/// Stages that cannot be played, their holdings trading places stage by stage ([4, 6], then
/// [6, 4], …): a cycle of two idle stages, found as a cycle (a timeout), not followed into a
/// stack overflow. (With unhoused counters kept, a blocked player ending the stage
/// uncounted, and the marks kept, game 37 of seed 1 reaches it.)
#[test]
fn idle_stages_that_trade_places_are_a_cycle() {
    let v = crate::util::json(&[
        "run",
        "um-el-banat",
        "-i",
        "davies",
        "--choose",
        "unhoused=kept",
        "--choose",
        "blocked-player=stage-ends-uncounted",
        "--choose",
        "daughters-carry=kept",
        "-n",
        "40",
        "--format",
        "json",
    ]);
    let cycles = v["results"]["timeouts_by_reason"]["cycle"]
        .as_u64()
        .unwrap();
    assert!(cycles >= 1, "{}", v["results"]);
    assert_eq!(v["events"]["stage-cycle"]["games"].as_u64(), Some(cycles));
}
