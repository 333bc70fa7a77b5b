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
    assert_eq!(events.last(), Some(&SowingEvent::RelayCycle));
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
