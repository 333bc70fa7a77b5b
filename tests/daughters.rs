//! Um el Banât's rules through the public API: daughters begotten, pecked and given a drink
//! (Davies' Fig. 9 narrative, step by step), relay stops, and the reckoning in fours between
//! stages with each case of borrowing.

use ludotrace::bind::{Engine, bind};
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::sowing::{Dir, Sowing, SowingEvent, SowingMove, SowingSetup, SowingState};
use ludotrace::games::{Result_, Rules, Status};
use serde_json::{Value, json};

/// Um el Banât's rules as Davies gives them, on top of the Cow Game's davies reading: six
/// houses of four, anticlockwise, any house may be sown, relay, daughters in the opponent's
/// houses, no captures by count, stages reckoned in fours.
fn daughters_rules(extra: Value) -> Sowing {
    let mut overrides = json!({
        "holes": 6, "counters": 4, "direction": "anticlockwise", "min_sow": 1,
        "relay": true, "capture_counts": [], "chain": "none", "starter": "first-seat",
        "daughters": "opponent-houses", "daughter_count": 4, "own_count": "relay", "peck": 2,
        "pecked": "pecker", "emptied_daughter": "keeps-mark", "stage_end": "only-daughters",
        "rounds": "fours", "borrowing": "transfer", "extra_houses": "downstream",
        "round_starter": "larger", "driven_off": "reckoning"
    });
    for (k, v) in extra.as_object().unwrap() {
        overrides[k] = v.clone();
    }
    let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("um-el-bagara").unwrap();
    let interp = game.interpretation("davies").unwrap();
    match bind(game, interp, overrides.as_object().unwrap())
        .unwrap()
        .engine
    {
        Engine::Sowing(r) => r,
        other => panic!("not a sowing game: {other:?}"),
    }
}

fn play(r: &Sowing, s: &mut SowingState, house: usize) -> Vec<SowingEvent> {
    let mut events = Vec::new();
    r.play(s, SowingMove::sow(house, Dir::Ccw), &mut events)
        .unwrap_or_else(|e| panic!("{e}"));
    events
}

fn peck(house: usize, counters: u16) -> SowingEvent {
    SowingEvent::Peck {
        house: house as u8,
        counters,
    }
}

/// Davies 1925: 143–144, Fig. 9: "B has two daughters in houses D1 and D2. If A is to move,
/// he can begin with the two counters in house X, drop one into W and the other into D1, from
/// which he then removes two from the board. Moving again, he can pick up the one counter just
/// dropped into W, drop it into D1 and again remove two. Playing again from Y, he again
/// removes two, after which he can again score by playing from W. D2, on the other hand, is
/// much more immune from 'pecking'. It is true that by moving from Z, A can 'peck' at her
/// once, but he cannot repeat the process."
///
/// The figure is lost; this position matches the words. A (seat 0) sows anticlockwise along
/// his row a1…a6 (houses 0…5): Y = a1 (3 counters), X = a2 (2), W = a3 (empty), D1 = a4 (B's
/// daughter, 6), Z = a5 (1), D2 = a6 (B's daughter, 5). B's row holds ordinary counters.
#[test]
fn davies_fig_9_pecking_sequence() {
    let r = daughters_rules(json!({}));
    let (y, x, w, d1, z, d2) = (0, 1, 2, 3, 4, 5);
    let mut s = r
        .setup(&SowingSetup {
            rows: [vec![3, 2, 0, 6, 1, 5], vec![2, 2, 2, 2, 2, 2]],
            stores: [0, 0],
            to_move: 0,
            daughters: vec![(d1, 1), (d2, 1)],
        })
        .unwrap();
    // X: one into W, the other into D1, which is pecked; A plays again.
    assert_eq!(play(&r, &mut s, x), [peck(d1, 2)]);
    assert_eq!((s.house(w), s.house(d1), s.stores()[0]), (1, 5, 2));
    assert_eq!(r.status(&s), Status::ToMove(0), "he plays again");
    // W's single counter into D1: pecked again.
    assert_eq!(play(&r, &mut s, w), [peck(d1, 2)]);
    assert_eq!((s.house(d1), s.stores()[0]), (4, 4));
    // From Y: through X and W into D1, pecked a third time.
    assert_eq!(play(&r, &mut s, y), [peck(d1, 2)]);
    assert_eq!((s.house(x), s.house(w), s.house(d1)), (1, 1, 3));
    // And again from W.
    assert_eq!(play(&r, &mut s, w), [peck(d1, 2)]);
    assert_eq!((s.house(d1), s.stores()[0]), (2, 8));
    // D2: Z pecks her once...
    assert_eq!(play(&r, &mut s, z), [peck(d2, 2)]);
    assert_eq!(r.status(&s), Status::ToMove(0));
    // ...but no move of A's reaches her again: his only sowable house is X, whose counter
    // stops in the empty W.
    let mut legal = Vec::new();
    r.legal_moves(&s, &mut legal);
    assert_eq!(legal, [SowingMove::sow(x, Dir::Ccw)]);
    let events = play(&r, &mut s, x);
    assert!(events.is_empty(), "{events:?}");
    assert_eq!(
        r.status(&s),
        Status::ToMove(1),
        "the move stopped in an empty house"
    );
    // A daughter's house is never sown.
    let mut legal = Vec::new();
    r.legal_moves(&s, &mut legal);
    assert!(
        legal
            .iter()
            .all(|m| matches!(m, SowingMove::Sow { house, .. } if *house >= 6))
    );
    assert_eq!(
        s.total(),
        3 + 2 + 6 + 1 + 5 + 12,
        "pecked counters are the pecker's"
    );
}

#[test]
fn four_in_an_opponents_house_begets_a_daughter_and_four_in_ones_own_relays_on() {
    let r = daughters_rules(json!({}));
    // a6's two counters fall into b1 and b2; b2 held three: four, a daughter for A.
    let mut s = r
        .setup(&SowingSetup {
            rows: [vec![0, 0, 0, 0, 0, 2], vec![1, 3, 0, 0, 0, 1]],
            stores: [0, 0],
            to_move: 0,
            daughters: vec![],
        })
        .unwrap();
    let events = play(&r, &mut s, 5);
    assert_eq!(events, [SowingEvent::Daughter { house: 7 }]);
    assert_eq!(s.daughter(7), Some(0));
    assert_eq!(r.status(&s), Status::ToMove(1));
    // In his own row, four relays on under Davies ("in other cases he picks it up")...
    let own = SowingSetup {
        rows: [vec![2, 0, 3, 0, 0, 0], vec![1, 0, 0, 0, 0, 1]],
        stores: [0, 0],
        to_move: 0,
        daughters: vec![],
    };
    let mut s = r.setup(&own).unwrap();
    let events = play(&r, &mut s, 0);
    assert!(
        matches!(
            events[0],
            SowingEvent::Relay {
                house: 2,
                counters: 4
            }
        ),
        "{events:?}"
    );
    // ...and stops as Ludii has it.
    let stop = daughters_rules(json!({"own_count": "stop"}));
    let mut s = stop.setup(&own).unwrap();
    assert_eq!(
        play(&stop, &mut s, 0),
        [SowingEvent::OwnCountStop { house: 2 }]
    );
    assert_eq!(s.house(2), 4);
}

#[test]
fn a_father_gives_his_daughter_a_drink_and_his_move_stops() {
    let r = daughters_rules(json!({}));
    // A's own daughter in b1 (house 6); A sows a6's single counter into her.
    let mut s = r
        .setup(&SowingSetup {
            rows: [vec![0, 0, 0, 0, 0, 1], vec![5, 0, 0, 0, 0, 1]],
            stores: [0, 0],
            to_move: 0,
            daughters: vec![(6, 0)],
        })
        .unwrap();
    assert_eq!(play(&r, &mut s, 5), [SowingEvent::Drink { house: 6 }]);
    assert_eq!(s.house(6), 6);
    assert_eq!(r.status(&s), Status::ToMove(1));
}

/// A position whose stage is complete (only daughters hold counters), reckoned at once.
fn reckon(r: &Sowing, stores: [u32; 2]) -> (SowingState, Vec<SowingEvent>) {
    let mut events = Vec::new();
    let s = r
        .setup_with_events(
            &SowingSetup {
                rows: [vec![0; 6], vec![0; 6]],
                stores,
                to_move: 0,
                daughters: vec![],
            },
            &mut events,
        )
        .unwrap();
    (s, events)
}

fn houses_of(s: &SowingState, seat: usize) -> Vec<usize> {
    (0..12).filter(|&h| s.owner(h) == Some(seat)).collect()
}

#[test]
fn reckoning_exact_fours_gives_one_house_per_four() {
    // Davies: "B has eight houses and A only four".
    let r = daughters_rules(json!({}));
    let (s, events) = reckon(&r, [16, 32]);
    assert!(events.contains(&SowingEvent::ExactFours), "{events:?}");
    assert_eq!(houses_of(&s, 1).len(), 8);
    // B's extra houses lie downstream of his row: A's first two houses (a1, a2).
    assert_eq!(houses_of(&s, 0), [2, 3, 4, 5]);
    assert!((0..12).all(|h| s.house(h) == 4));
    assert_eq!(r.status(&s), Status::ToMove(1), "the larger holder begins");
    // Upstream instead: the two houses of A's row that sow into B's (a5, a6).
    let up = daughters_rules(json!({"extra_houses": "upstream"}));
    let (s, _) = reckon(&up, [16, 32]);
    assert_eq!(houses_of(&s, 0), [0, 1, 2, 3]);
}

#[test]
fn reckoning_three_over_borrows_one_from_the_other() {
    let r = daughters_rules(json!({}));
    let (s, events) = reckon(&r, [27, 21]);
    assert!(
        events.contains(&SowingEvent::BorrowThree { seat: 0 }),
        "{events:?}"
    );
    assert_eq!((houses_of(&s, 0).len(), houses_of(&s, 1).len()), (7, 5));
    assert_eq!(s.total(), 48);
}

#[test]
fn reckoning_two_or_one_over_is_borrowed_back() {
    let r = daughters_rules(json!({}));
    let (s, events) = reckon(&r, [26, 22]);
    assert!(
        events.contains(&SowingEvent::BorrowBackTwo { seat: 1 }),
        "{events:?}"
    );
    assert_eq!((houses_of(&s, 0).len(), houses_of(&s, 1).len()), (6, 6));
    let (s, events) = reckon(&r, [23, 25]);
    assert!(
        events.contains(&SowingEvent::BorrowBackOne { seat: 0 }),
        "{events:?}"
    );
    assert_eq!((houses_of(&s, 0).len(), houses_of(&s, 1).len()), (6, 6));
    assert_eq!(s.total(), 48);
}

#[test]
fn a_player_left_without_a_house_is_driven_off() {
    // 47 and 1: the larger holder's three over borrows the other's last counter.
    let r = daughters_rules(json!({}));
    let (s, events) = reckon(&r, [47, 1]);
    assert!(
        events.contains(&SowingEvent::DrivenOff { seat: 1 }),
        "{events:?}"
    );
    assert_eq!(r.status(&s), Status::Over);
    assert_eq!(r.outcome(&s).unwrap().result, Result_::Win(1));
    assert_eq!(s.total(), 48);
    // Under "empty hand" (Ludii), a player with no counters at all is out before borrowing,
    // and no reckoning takes place.
    let ludii = daughters_rules(json!({"driven_off": "empty-hand"}));
    let (s, events) = reckon(&ludii, [48, 0]);
    assert!(
        events.contains(&SowingEvent::DrivenOff { seat: 1 }),
        "{events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SowingEvent::Reckoning { .. }))
    );
    assert_eq!(r.outcome(&s).unwrap().result, Result_::Win(1));
}

#[test]
fn a_borrowing_as_debt_is_repaid_at_the_next_reckoning() {
    use rand::{RngExt, SeedableRng};
    let r = daughters_rules(json!({"borrowing": "debt"}));
    // First reckoning: 27-21, A borrows one and owes it.
    let (mut s, events) = reckon(&r, [27, 21]);
    assert!(events.contains(&SowingEvent::BorrowThree { seat: 0 }));
    // Play the next stage out (seeded random moves) up to its reckoning: the debt is repaid
    // there, before the new holdings are divided.
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
    let mut moves = Vec::new();
    for _ in 0..20_000 {
        assert_eq!(
            r.status(&s),
            Status::ToMove(s.mover()),
            "the stage ends first"
        );
        r.legal_moves(&s, &mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        let mut events = Vec::new();
        r.play(&mut s, mv, &mut events).unwrap();
        if let Some(i) = events
            .iter()
            .position(|e| matches!(e, SowingEvent::Reckoning { .. }))
        {
            assert!(
                events[..i].contains(&SowingEvent::DebtRepaid {
                    seat: 0,
                    counters: 1
                }),
                "{events:?}"
            );
            return;
        }
    }
    panic!("no second reckoning in 20 000 plies");
}

#[test]
fn random_stages_conserve_counters() {
    crate::util::random_play_conserves(&daughters_rules(json!({})), 48, 20, 3000);
}

#[test]
fn under_the_leftmost_defect_seat_one_fills_from_his_second_house() {
    // Ludii's (map "LeftMost" {(pair P1 0) …}) read with the map-value-0 defect: A's filling
    // starts at a2 (house 1), so after his eight houses (a2…a6, b1…b3) B fills b4…b6 and a1.
    let r = daughters_rules(json!({"ludii_leftmost_quirk": true}));
    let (s, _) = reckon(&r, [32, 16]);
    assert_eq!(houses_of(&s, 0), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(houses_of(&s, 1), [0, 9, 10, 11]);
}

#[test]
fn before_move_a_house_emptied_during_the_move_relays_on() {
    // a1's twelve counters go round the circuit; the last falls back into a1, emptied by this
    // very move. Read "previously empty" as empty now, the move stops there; read as empty
    // before the move, a1 held twelve, so its single counter is sown on.
    let position = SowingSetup {
        rows: [vec![12, 0, 0, 0, 0, 0], vec![0; 6]],
        stores: [0, 36],
        to_move: 0,
        daughters: vec![],
    };
    let now = daughters_rules(json!({}));
    let mut s = now.setup(&position).unwrap();
    assert_eq!(play(&now, &mut s, 0), [SowingEvent::Lap { counters: 12 }]);
    let before = daughters_rules(json!({"empty_stops": "before-move"}));
    let mut s = before.setup(&position).unwrap();
    let events = play(&before, &mut s, 0);
    assert_eq!(
        events[..2],
        [
            SowingEvent::Lap { counters: 12 },
            SowingEvent::Relay {
                house: 0,
                counters: 1
            }
        ]
    );
}

#[test]
fn a_completed_stage_is_reckoned_before_anyone_is_driven_off() {
    // Only daughters hold counters: under "no counters" both players' own houses are bare,
    // but the stage is complete, so it is reckoned (8 and 40: two houses and ten).
    let r = daughters_rules(json!({"driven_off": "no-counters"}));
    let mut events = Vec::new();
    r.setup_with_events(
        &SowingSetup {
            rows: [vec![40, 0, 0, 0, 0, 0], vec![8, 0, 0, 0, 0, 0]],
            stores: [0, 0],
            to_move: 0,
            daughters: vec![(0, 1), (6, 0)],
        },
        &mut events,
    )
    .unwrap();
    assert!(
        events.contains(&SowingEvent::Reckoning {
            holdings: [8, 40],
            houses: [2, 10]
        }),
        "{events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SowingEvent::DrivenOff { .. }))
    );
}
