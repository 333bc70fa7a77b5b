//! Relay sowing ("picks it up ... and goes on distributing"), and the detection of moves and
//! replays that would go on for ever (they end the game unfinished, counted as timeouts).

use ludotrace::bind::{Engine, bind};
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::sowing::{Dir, Sowing, SowingEvent, SowingMove, SowingSetup};
use ludotrace::games::{EndReason, Result_, Rules, Status};
use serde_json::json;

/// Um el-Bagara's davies reading with overrides: a relay board for these tests.
fn rules(overrides: serde_json::Value) -> Sowing {
    let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("um-el-bagara").unwrap();
    let interp = game.interpretation("davies").unwrap();
    let overrides = overrides.as_object().unwrap().clone();
    match bind(game, interp, &overrides).unwrap().engine {
        Engine::Sowing(r) => r,
        other => panic!("not a sowing game: {other:?}"),
    }
}

#[test]
fn a_relay_sows_on_from_an_occupied_house_and_stops_in_an_empty_one() {
    // Two houses a row, anticlockwise: a1 a2 | b1 b2 in circuit order.
    let r = rules(json!({
        "holes": 2, "relay": true, "direction": "anticlockwise", "min_sow": 1,
        "starter": "first-seat", "capture_counts": [4],
        // Three counters and a capture only on four: a board that can never end, which the
        // engine would end as endless before the move; a repetition rule lets it be played.
        "repetition": "draw"
    }));
    let mut s = r
        .setup(&SowingSetup {
            rows: [vec![2, 0], vec![1, 0]],
            stores: [0, 0],
            to_move: 0,
            daughters: vec![],
        })
        .unwrap();
    let mut events = Vec::new();
    // a1's two counters fall into a2 and b1; b1 held one, so its two are sown on, into b2
    // and a1, which the first lap emptied: the relay stops there.
    r.play(&mut s, SowingMove::sow(0, Dir::Ccw), &mut events)
        .unwrap();
    assert_eq!((0..4).map(|h| s.house(h)).collect::<Vec<_>>(), [1, 1, 0, 1]);
    assert_eq!(
        events,
        [SowingEvent::Relay {
            house: 2,
            counters: 2
        }]
    );
    assert_eq!(s.total(), 3);
}

#[test]
fn without_relay_the_same_sowing_ends_with_its_last_counter() {
    let r = rules(json!({
        "holes": 2, "direction": "anticlockwise", "min_sow": 1, "starter": "first-seat",
        "capture_counts": [4], "repetition": "draw"
    }));
    let mut s = r
        .setup(&SowingSetup {
            rows: [vec![2, 0], vec![1, 0]],
            stores: [0, 0],
            to_move: 0,
            daughters: vec![],
        })
        .unwrap();
    let mut events = Vec::new();
    r.play(&mut s, SowingMove::sow(0, Dir::Ccw), &mut events)
        .unwrap();
    assert_eq!((0..4).map(|h| s.house(h)).collect::<Vec<_>>(), [0, 1, 2, 0]);
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn a_relay_that_cycles_for_ever_is_detected_and_the_game_is_unfinished() {
    // One house a row, the origin skipped: three counters bounce between a1 and b1 for ever.
    let r = rules(json!({
        "holes": 1, "relay": true, "skip_origin": true, "direction": "anticlockwise",
        "min_sow": 1, "starter": "first-seat", "capture_counts": [127]
    }));
    let mut s = r
        .setup(&SowingSetup {
            rows: [vec![2], vec![1]],
            stores: [0, 0],
            to_move: 0,
            daughters: vec![],
        })
        .unwrap();
    let mut events = Vec::new();
    r.play(&mut s, SowingMove::sow(0, Dir::Ccw), &mut events)
        .unwrap();
    // a1 2 → b1 3 (the origin skipped), relayed → a1 3, relayed → b1 3: two sowings a lap.
    assert_eq!(events.last(), Some(&SowingEvent::RelayCycle { sowings: 2 }));
    assert_eq!(r.status(&s), Status::Over);
    let o = r.outcome(&s).unwrap();
    assert_eq!((o.result, o.end), (Result_::Unfinished, EndReason::Cycle));
    assert_eq!(s.total(), 3, "no counter is lost when the cycle is cut");
}

#[test]
fn a_tie_replayed_before_any_decision_is_unfinished_not_an_endless_loop() {
    // One counter a house and singles frozen: nobody can ever move, every game is 3-3, and a
    // replay would tie again at once. With a lot to begin, each replay is a chance step
    // without a decision, so nothing else would stop it.
    let r = rules(json!({ "counters": 1, "tie": "replay", "holes": 3 }));
    let mut s = r.initial();
    let mut events = Vec::new();
    assert_eq!(r.status(&s), Status::Chance);
    r.apply_chance(&mut s, 0, &mut events);
    assert_eq!(r.status(&s), Status::Over);
    let o = r.outcome(&s).unwrap();
    assert_eq!((o.result, o.end), (Result_::Unfinished, EndReason::Cycle));
    assert!(events.contains(&SowingEvent::ReplayCycle), "{events:?}");
}

/// The three counters of `a_relay_that_cycles_for_ever_...` bouncing between a1 and b1: after
/// the first sowing b1 holds three (the relay's first position), then a1 three, then b1 again.
fn bouncing(overrides: serde_json::Value) -> (Sowing, ludotrace::games::sowing::SowingState) {
    let mut o = json!({
        "holes": 1, "relay": true, "skip_origin": true, "direction": "anticlockwise",
        "min_sow": 1, "starter": "first-seat", "capture_counts": [127]
    });
    for (k, v) in overrides.as_object().unwrap() {
        o[k] = v.clone();
    }
    let r = rules(o);
    let s = r
        .setup(&SowingSetup {
            rows: [vec![2], vec![1]],
            stores: [0, 0],
            to_move: 0,
            daughters: vec![],
        })
        .unwrap();
    (r, s)
}

/// UB-06 (c): a relay found to cycle is a standstill. The relay first comes back to a
/// position it has been at when b1 holds three again: the move ends with the board as it was
/// then (a1 empty, b1 three), and the game goes on.
#[test]
fn a_relay_that_cycles_stands_still_where_it_first_came_back() {
    // (Three counters and a capture only on 127 can never end a board: the repetition rule
    // keeps the engine from ending the game as endless before the move.)
    let (r, mut s) = bouncing(json!({"relay_cycle": "standstill", "repetition": "draw"}));
    let mut events = Vec::new();
    r.play(&mut s, SowingMove::sow(0, Dir::Ccw), &mut events)
        .unwrap();
    assert_eq!(events.last(), Some(&SowingEvent::RelayStandstill));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SowingEvent::RelayCycle { .. }))
    );
    assert_eq!((s.house(0), s.house(1)), (0, 3));
    assert_eq!(r.status(&s), Status::ToMove(1), "the game goes on");
    assert_eq!(s.total(), 3);
}

/// UB-06 (b): a relay's cap. With one pick-up allowed, b1's three are sown on into a1, and
/// there the relay stands still (a1 three, b1 empty); with two, a1's three go back to b1.
#[test]
fn a_capped_relay_stands_still_at_its_cap() {
    let (r, mut s) = bouncing(json!({"relay_cap": 1, "repetition": "draw"}));
    let mut events = Vec::new();
    r.play(&mut s, SowingMove::sow(0, Dir::Ccw), &mut events)
        .unwrap();
    assert_eq!(
        events,
        [
            SowingEvent::Lap { counters: 2 },
            SowingEvent::Relay {
                house: 1,
                counters: 3
            },
            SowingEvent::Lap { counters: 3 },
            SowingEvent::RelayCapped { house: 0 }
        ]
    );
    assert_eq!((s.house(0), s.house(1)), (3, 0));
    assert_eq!(r.status(&s), Status::ToMove(1));
    let (r, mut s) = bouncing(json!({"relay_cap": 2, "repetition": "draw"}));
    let mut events = Vec::new();
    r.play(&mut s, SowingMove::sow(0, Dir::Ccw), &mut events)
        .unwrap();
    assert_eq!(events.last(), Some(&SowingEvent::RelayCapped { house: 1 }));
    assert_eq!((s.house(0), s.house(1)), (0, 3));
    // A cap of none is refused, naming the parameter.
    let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game("um-el-banat").unwrap();
    let interp = game.interpretation("davies").unwrap();
    let Err(err) = bind(game, interp, json!({"relay_cap": 0}).as_object().unwrap()) else {
        panic!("relay_cap = 0 is refused");
    };
    assert!(err.to_string().contains("relay_cap"), "{err}");
}
