//! Li'b al-'Aqil's rules through the public API: the distribution and the turned board, the
//! gift, relays on odd counts, captures with the opposite house, and boards scored to sixty.

use ludotrace::bind::{Engine, bind};
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::sowing::{Dir, Sowing, SowingEvent, SowingMove, SowingSetup, SowingState};
use ludotrace::games::{Result_, Rules, Status};
use serde_json::{Value, json};

/// Li'b al-'Aqil's rules as Ludii executes them, on top of the Cow Game's davies reading.
fn board_rules(extra: Value) -> Sowing {
    let evens: Vec<u8> = (2..128).step_by(2).collect();
    let mut overrides = json!({
        "holes": 6, "counters": 6, "direction": "anticlockwise", "min_sow": 1,
        "relay": true, "relay_when": "odd-or-empty", "capture_counts": evens,
        "capture_rows": "any", "chain": "backward", "chain_rows": "any",
        "chain_take": "compulsory", "opposite": "every", "gift": "takes-turn",
        "distribution": "corresponding", "correspond": "opposite", "turn_board": true,
        "stage_end": "cleared", "rounds": "points", "target": 60, "points": "gross",
        "next_distributor": "loser", "starter": "first-seat"
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

fn legal(r: &Sowing, s: &SowingState) -> Vec<SowingMove> {
    let mut out = Vec::new();
    r.legal_moves(s, &mut out);
    out
}

fn play(r: &Sowing, s: &mut SowingState, mv: SowingMove) -> Vec<SowingEvent> {
    let mut events = Vec::new();
    r.play(s, mv, &mut events).unwrap_or_else(|e| panic!("{e}"));
    events
}

fn position(r: &Sowing, a: [u16; 6], b: [u16; 6], stores: [u32; 2]) -> SowingState {
    r.setup(&SowingSetup {
        rows: [a.to_vec(), b.to_vec()],
        stores,
        to_move: 0,
        daughters: vec![],
    })
    .unwrap()
}

#[test]
fn the_distributor_sets_out_corresponding_houses_and_the_other_may_turn_the_board() {
    // Two houses a row, one counter each: four counters in the distributor's hand.
    let r = board_rules(json!({"holes": 2, "counters": 1}));
    let mut s = r.initial();
    assert_eq!(
        r.status(&s),
        Status::ToMove(0),
        "the first seat distributes"
    );
    // Three into a1: its partner b2 (directly opposite, house 3) is empty, so one counter
    // must be kept for it: the only moves left put that one counter there.
    play(&r, &mut s, SowingMove::Distribute { house: 0, count: 3 });
    assert_eq!(
        legal(&r, &s),
        [SowingMove::Distribute { house: 3, count: 1 }]
    );
    let events = play(&r, &mut s, SowingMove::Distribute { house: 3, count: 1 });
    assert_eq!(events, [SowingEvent::Distributed { seat: 0 }]);
    // The other player chooses: keep the board and play first, or turn it round.
    assert_eq!(r.status(&s), Status::ToMove(1));
    assert_eq!(legal(&r, &s), [SowingMove::Keep, SowingMove::Turn]);
    let mut kept = s.clone();
    play(&r, &mut kept, SowingMove::Keep);
    assert_eq!(r.status(&kept), Status::ToMove(1), "he plays first");
    let events = play(&r, &mut s, SowingMove::Turn);
    assert_eq!(events, [SowingEvent::BoardTurned { seat: 1 }]);
    assert_eq!(
        (0..4).map(|h| s.house(h)).collect::<Vec<_>>(),
        [0, 1, 3, 0],
        "each row went to the other side"
    );
    assert_eq!(
        r.status(&s),
        Status::ToMove(0),
        "the distributor now plays first"
    );
    assert_eq!(s.total(), 4);
}

#[test]
fn conventional_distributions_use_only_their_houses() {
    let r = board_rules(json!({"distribution": "conventional-four"}));
    let s = r.initial();
    let houses: std::collections::BTreeSet<u8> = legal(&r, &s)
        .iter()
        .map(|m| match m {
            SowingMove::Distribute { house, .. } => *house,
            other => panic!("{other:?}"),
        })
        .collect();
    // The four middle houses of each row: the two extreme ones of each side stay vacant.
    assert_eq!(
        houses.into_iter().collect::<Vec<_>>(),
        [1, 2, 3, 4, 7, 8, 9, 10]
    );
    // About half (27 to 45 of 72) into the distributor's first house A, the rest into a.
    let half = board_rules(json!({"distribution": "half-and-half"}));
    let mut s = half.initial();
    let counts: Vec<u8> = legal(&half, &s)
        .iter()
        .map(|m| match m {
            SowingMove::Distribute { house: 0, count } => *count,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!((counts[0], counts[counts.len() - 1]), (27, 45));
    play(
        &half,
        &mut s,
        SowingMove::Distribute {
            house: 0,
            count: 30,
        },
    );
    assert_eq!(
        legal(&half, &s),
        [SowingMove::Distribute {
            house: 11,
            count: 42
        }]
    );
}

#[test]
fn an_empty_row_is_given_a_counter() {
    let r = board_rules(json!({}));
    let mut s = position(&r, [0, 2, 0, 0, 3, 0], [0; 6], [30, 37]);
    assert_eq!(
        legal(&r, &s),
        [SowingMove::Gift { house: 1 }, SowingMove::Gift { house: 4 }]
    );
    let events = play(&r, &mut s, SowingMove::Gift { house: 1 });
    // Into the receiver's leftmost house, b1 (house 6); the gift is the giver's turn.
    assert_eq!(events, [SowingEvent::Gift { seat: 0, house: 6 }]);
    assert_eq!((s.house(1), s.house(6)), (1, 1));
    assert_eq!(r.status(&s), Status::ToMove(1));
    // As an extra action, the giver then sows.
    let extra = board_rules(json!({"gift": "extra"}));
    let mut s = position(&extra, [0, 2, 0, 0, 3, 0], [0; 6], [30, 37]);
    play(&extra, &mut s, SowingMove::Gift { house: 4 });
    assert_eq!(extra.status(&s), Status::ToMove(0));
    assert!(
        legal(&extra, &s)
            .iter()
            .all(|m| matches!(m, SowingMove::Sow { .. }))
    );
}

#[test]
fn relays_on_odd_counts_and_captures_even_ones_with_the_opposite_house() {
    let r = board_rules(json!({}));
    // a5 (house 4) sows one counter into a6 (house 5), which held one: two, an even count,
    // taken with the house directly opposite a6, b1 (house 6), and its three counters.
    let mut s = position(&r, [0, 0, 0, 0, 1, 1], [3, 0, 0, 0, 0, 2], [30, 35]);
    let events = play(&r, &mut s, SowingMove::sow(4, Dir::Ccw));
    assert_eq!(
        events,
        [
            SowingEvent::Capture {
                house: 5,
                counters: 2
            },
            SowingEvent::OppositeTaken {
                house: 6,
                counters: 3
            }
        ]
    );
    assert_eq!(s.stores()[0], 35);
    // Into an empty house: one is odd, so Ludii's code relays on; the DLP's "if the last
    // counter falls into an empty hole, the turn ends" stops there.
    let odd = board_rules(json!({"relay_when": "odd"}));
    let mut s = position(&odd, [0, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 1], [30, 35]);
    assert!(play(&odd, &mut s, SowingMove::sow(1, Dir::Ccw)).is_empty());
    assert_eq!(s.house(2), 1);
    let mut s = position(&r, [0, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 1], [30, 35]);
    let events = play(&r, &mut s, SowingMove::sow(1, Dir::Ccw));
    assert!(
        matches!(
            events[0],
            SowingEvent::Relay {
                house: 2,
                counters: 1
            }
        ),
        "{events:?}"
    );
}

fn cleared(r: &Sowing, stores: [u32; 2]) -> (SowingState, Vec<SowingEvent>) {
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

#[test]
fn a_cleared_board_scores_its_excess_and_sixty_wins() {
    let r = board_rules(json!({}));
    let (s, events) = cleared(&r, [66, 6]);
    assert!(
        events.contains(&SowingEvent::BoardScored {
            seat: 0,
            points: 60
        }),
        "{events:?}"
    );
    assert_eq!(r.status(&s), Status::Over);
    assert_eq!(r.outcome(&s).unwrap().result, Result_::Win(1));
    // Short of sixty, a new board is set out, distributed by the loser.
    let (s, events) = cleared(&r, [40, 32]);
    assert!(events.contains(&SowingEvent::BoardScored { seat: 0, points: 8 }));
    assert!(events.contains(&SowingEvent::NextDistributor { seat: 1 }));
    assert_eq!(r.status(&s), Status::ToMove(1));
    assert!(
        legal(&r, &s)
            .iter()
            .all(|m| matches!(m, SowingMove::Distribute { .. }))
    );
    assert_eq!(s.total(), 72);
}

#[test]
fn random_boards_conserve_counters() {
    crate::util::random_play_conserves(&board_rules(json!({})), 72, 10, 2000);
}

#[test]
fn under_the_leftmost_defect_a_gift_to_seat_one_falls_into_his_second_house() {
    let r = board_rules(json!({"ludii_leftmost_quirk": true}));
    let mut s = r
        .setup(&SowingSetup {
            rows: [vec![0; 6], vec![0, 0, 2, 0, 0, 0]],
            stores: [30, 40],
            to_move: 1,
            daughters: vec![],
        })
        .unwrap();
    let events = play(&r, &mut s, SowingMove::Gift { house: 8 });
    assert_eq!(events, [SowingEvent::Gift { seat: 1, house: 1 }]);
}

#[test]
fn with_no_counters_left_in_play_the_points_decide() {
    // A cleared board with nothing taken, and nothing left to set out a new one with: the
    // game ends on the points (here none each: a draw) instead of waiting on an empty hand.
    let r = board_rules(json!({}));
    let (s, _) = cleared(&r, [0, 0]);
    assert_eq!(r.status(&s), Status::Over);
    assert_eq!(r.outcome(&s).unwrap().result, Result_::Draw);
}
