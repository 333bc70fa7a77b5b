//! Issue 16's readings for Li'b al-'Aqil, Um el-Bagara and Um el Tuweisat, each on a worked
//! position: the board that ends when no capture is possible (LA-14 (b)) and the board that
//! can never end, the chain at the house the sowing started from (LA-11 (h), BG-10 (b),
//! TW-13 (b)), a move limit as a rule of the game (BG-09 (a), TW-10 (a), G-4 (a)), exactly
//! sixty (LA-15 (c)), the mirror flip (LA-06 (b)) and Lane's manners of distribution (LA-04).

use ludotrace::bind::{Engine, bind};
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::sowing::{
    Dir, MANNERS, Sowing, SowingEvent, SowingMove, SowingSetup, SowingState,
};
use ludotrace::games::{EndReason, Result_, Rules, Status};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

/// `game`'s reading `interp`, with `overrides`.
fn rules(game: &str, interp: &str, overrides: Value) -> Sowing {
    let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
    let game = corpus.game(game).unwrap();
    let interp = game.interpretation(interp).unwrap();
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

/// A position with seat 0 to move, and the events the rules fire on it at once.
fn position(r: &Sowing, a: &[u16], b: &[u16], stores: [u32; 2]) -> (SowingState, Vec<SowingEvent>) {
    let mut events = Vec::new();
    let s = r
        .setup_with_events(
            &SowingSetup {
                rows: [a.to_vec(), b.to_vec()],
                stores,
                to_move: 0,
                daughters: vec![],
            },
            &mut events,
        )
        .unwrap();
    (s, events)
}

fn sow_take(house: u8, dir: Dir, take: u8) -> SowingMove {
    SowingMove::Sow {
        house,
        dir,
        take,
        quirk: false,
    }
}

/// Plays random games to the end (or `max_plies`); returns how each ended.
fn random_games(r: &Sowing, games: u64, max_plies: u32) -> Vec<Option<(Result_, EndReason)>> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = r.initial();
        let mut moves = Vec::new();
        let mut plies = 0;
        let end = loop {
            match r.status(&s) {
                Status::Over => {
                    let o = r.outcome(&s).unwrap();
                    break Some((o.result, o.end));
                }
                Status::Chance => {
                    let k = rng.random_range(0..r.chance_outcomes(&s).len());
                    r.apply_chance(&mut s, k, &mut ludotrace::games::NoEvents);
                }
                Status::ToMove(_) => {
                    if plies >= max_plies {
                        break None;
                    }
                    r.legal_moves(&s, &mut moves);
                    let mv = moves[rng.random_range(0..moves.len())];
                    r.apply(&mut s, mv, &mut ludotrace::games::NoEvents);
                    plies += 1;
                }
            }
        };
        out.push(end);
    }
    out
}

/// LA-14 (b): a lone counter can never make two or four, so under `lane` the board is
/// finished at once; the counter counts for nobody, and the board's winner gains the excess.
#[test]
fn lane_board_ends_when_no_capture_is_possible() {
    let r = rules("lib-al-aqil", "lane", json!({}));
    let (s, events) = position(&r, &[0, 0, 0, 1, 0, 0], &[0; 6], [10, 4]);
    assert!(events.contains(&SowingEvent::NoCapture), "{events:?}");
    assert!(events.contains(&SowingEvent::Remaining {
        seat: 0,
        counters: 1,
        counted: false
    }));
    assert!(events.contains(&SowingEvent::BoardScored { seat: 0, points: 6 }));
    // The next board is set out: the loser distributes.
    assert_eq!(r.status(&s), Status::ToMove(1));

    // Two counters that can still meet: a6's single counter falls on b1's and makes two.
    let (s, events) = position(&r, &[0, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0], [0, 0]);
    assert!(!events.contains(&SowingEvent::NoCapture), "{events:?}");
    assert_eq!(r.status(&s), Status::ToMove(0));

    // Under the DLP's end (cleared only), the same lone counter does not end the board.
    let cleared = rules("lib-al-aqil", "lane", json!({"stage_end": "cleared"}));
    let (_, events) = position(&cleared, &[0, 0, 0, 1, 0, 0], &[0; 6], [10, 4]);
    assert!(!events.contains(&SowingEvent::NoCapture), "{events:?}");
}

/// Under the DLP's reading a lone counter is given back and forth for ever and the board can
/// never be cleared: the engine proves it at once and reports an endless game.
#[test]
fn a_board_that_can_never_end_is_endless() {
    let r = rules("lib-al-aqil", "dlp", json!({}));
    let (s, events) = position(&r, &[1, 0, 0, 0, 0, 0], &[0; 6], [30, 41]);
    assert!(events.contains(&SowingEvent::Endless), "{events:?}");
    let o = r.outcome(&s).unwrap();
    assert_eq!((o.result, o.end), (Result_::Unfinished, EndReason::Endless));

    // Three counters under the opponent-row capture: still searched, not yet endless.
    let r = rules("lib-al-aqil", "dlp", json!({}));
    let (s, events) = position(&r, &[1, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0], [0, 0]);
    assert!(!events.contains(&SowingEvent::Endless), "{events:?}");
    assert_eq!(r.status(&s), Status::ToMove(0));
}

/// `lane` boards finish under LA-14 (b): every random game ends by its own rules.
#[test]
fn lane_boards_finish() {
    let r = rules("lib-al-aqil", "lane", json!({}));
    for (seed, end) in random_games(&r, 30, 20_000).into_iter().enumerate() {
        let (result, reason) = end.unwrap_or_else(|| panic!("game {seed} did not end"));
        assert_eq!(reason, EndReason::Natural, "game {seed}");
        assert!(matches!(result, Result_::Win(_)), "game {seed}: {result:?}");
    }
}

/// The two options that alone made every `lane` game endless, with the DLP's end: each game
/// now ends, or is reported as endless, instead of running to the ply limit.
#[test]
fn lane_options_that_cannot_clear_are_reported_endless() {
    for extra in [
        json!({"stage_end": "cleared", "capture_rows": "opponent"}),
        json!({"stage_end": "cleared", "gift": "takes-turn"}),
    ] {
        let r = rules("lib-al-aqil", "lane", extra.clone());
        let ends = random_games(&r, 10, 20_000);
        assert!(ends.iter().all(Option::is_some), "{extra}: {ends:?}");
        assert!(
            ends.iter()
                .flatten()
                .any(|&(_, reason)| reason == EndReason::Endless),
            "{extra}: {ends:?}"
        );
        // Under the board end when no capture is possible, the same options finish.
        let mut ended = extra.clone();
        ended["stage_end"] = json!("no-capture");
        let r = rules("lib-al-aqil", "lane", ended);
        for end in random_games(&r, 10, 20_000) {
            assert_eq!(end.map(|e| e.1), Some(EndReason::Natural), "{extra}");
        }
    }
}

/// LA-11 (h) under `lane`: a1's 25 counters go twice round and one more into a2, which held
/// one and now holds four, an even count: it is taken with its opposite b5. The beyt before
/// it is a1, the origin, refilled with two on the laps: Ludii's chain never examines it, the
/// other reading takes it.
#[test]
fn lane_chain_may_take_the_origin() {
    let a = [25, 1, 0, 0, 0, 0];
    let stop = rules("lib-al-aqil", "lane", json!({}));
    let (mut s, _) = position(&stop, &a, &[0; 6], [0, 0]);
    let events = play(&stop, &mut s, SowingMove::sow(0, Dir::Ccw));
    assert!(events.contains(&SowingEvent::Capture {
        house: 1,
        counters: 4
    }));
    assert!(events.contains(&SowingEvent::OppositeTaken {
        house: 10,
        counters: 2
    }));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SowingEvent::Chain { .. }))
    );
    assert_eq!(s.stores(), [6, 0]);
    assert_eq!(s.house(0), 2, "the origin keeps its two");

    let take = rules("lib-al-aqil", "lane", json!({"chain_origin": "take"}));
    let (mut s, _) = position(&take, &a, &[0; 6], [0, 0]);
    let events = play(&take, &mut s, SowingMove::sow(0, Dir::Ccw));
    assert!(events.contains(&SowingEvent::Chain {
        house: 0,
        counters: 2
    }));
    assert!(events.contains(&SowingEvent::ChainOrigin { house: 0 }));
    assert_eq!(s.stores(), [8, 0]);
    assert_eq!(s.house(0), 0);
}

/// BG-10 (b) under `davies`: a5's 21 counters go twice round (two into a5 itself) and the
/// last falls on b1's one, making four, which is eaten. Davies' chain runs back over the
/// houses the earlier counters fell into: a5 now holds two, so it goes too; a4's three stops
/// the chain. Ludii's chain stops at a5 without looking at it.
#[test]
fn bagara_chain_may_take_the_origin() {
    let (a, b) = ([1, 1, 1, 1, 21], [1, 1, 1, 1, 1]);
    let stop = rules("um-el-bagara", "davies", json!({}));
    let (s, _) = position(&stop, &a, &b, [0, 0]);
    let from_a5: Vec<SowingMove> = legal(&stop, &s)
        .into_iter()
        .filter(|m| matches!(m, SowingMove::Sow { house: 4, .. }))
        .collect();
    assert_eq!(from_a5, [sow_take(4, Dir::Ccw, 1)]);

    let take = rules("um-el-bagara", "davies", json!({"chain_origin": "take"}));
    let (mut s, _) = position(&take, &a, &b, [0, 0]);
    let from_a5: Vec<SowingMove> = legal(&take, &s)
        .into_iter()
        .filter(|m| matches!(m, SowingMove::Sow { house: 4, .. }))
        .collect();
    assert_eq!(
        from_a5,
        [sow_take(4, Dir::Ccw, 1), sow_take(4, Dir::Ccw, 2)],
        "Davies' chain is granted house by house"
    );
    let events = play(&take, &mut s, sow_take(4, Dir::Ccw, 2));
    assert!(events.contains(&SowingEvent::Capture {
        house: 5,
        counters: 4
    }));
    assert!(events.contains(&SowingEvent::Chain {
        house: 4,
        counters: 2
    }));
    assert!(events.contains(&SowingEvent::ChainOrigin { house: 4 }));
    assert_eq!(s.stores(), [6, 0]);
}

/// TW-13 (b) under `davies`, with the origin passed over on laps (TW-09 (b)): a3's six
/// counters go round the five other houses and the sixth makes two in b1, which is eaten.
/// The chain then meets a3, passed over by the sowing: Ludii's stops there; under the other
/// reading it passes over it too and goes back past it, taking a2 and a1, which the laps made
/// two each. (With the origin refilled, the origin itself can never be taken here: a sowing
/// that leaves two in it leaves three or more in the last house, which does not eat.)
#[test]
fn tuweisat_chain_may_go_back_past_the_origin() {
    let (a, b) = ([1, 1, 6], [0, 0, 0]);
    let stop = rules("um-el-tuweisat", "davies", json!({"skip_origin": true}));
    let (s, _) = position(&stop, &a, &b, [0, 0]);
    let from_a3: Vec<SowingMove> = legal(&stop, &s)
        .into_iter()
        .filter(|m| {
            matches!(
                m,
                SowingMove::Sow {
                    house: 2,
                    dir: Dir::Ccw,
                    ..
                }
            )
        })
        .collect();
    assert_eq!(from_a3, [sow_take(2, Dir::Ccw, 1)]);

    let take = rules(
        "um-el-tuweisat",
        "davies",
        json!({"skip_origin": true, "chain_origin": "take"}),
    );
    let (mut s, _) = position(&take, &a, &b, [0, 0]);
    let from_a3: Vec<SowingMove> = legal(&take, &s)
        .into_iter()
        .filter(|m| {
            matches!(
                m,
                SowingMove::Sow {
                    house: 2,
                    dir: Dir::Ccw,
                    ..
                }
            )
        })
        .collect();
    assert_eq!(
        from_a3,
        [
            sow_take(2, Dir::Ccw, 1),
            sow_take(2, Dir::Ccw, 2),
            sow_take(2, Dir::Ccw, 3)
        ]
    );
    let events = play(&take, &mut s, sow_take(2, Dir::Ccw, 3));
    assert!(events.contains(&SowingEvent::Capture {
        house: 3,
        counters: 2
    }));
    assert!(events.contains(&SowingEvent::Chain {
        house: 1,
        counters: 2
    }));
    assert!(events.contains(&SowingEvent::Chain {
        house: 0,
        counters: 2
    }));
    assert_eq!(s.stores(), [6, 0]);
}

/// BG-09 (a), TW-10 (a): the move limit is a rule of the game; the game is drawn when it is
/// reached, whatever the takings.
#[test]
fn a_move_limit_draws_the_game() {
    for game in ["um-el-bagara", "um-el-tuweisat"] {
        let r = rules(
            game,
            "davies",
            json!({"move_limit": {"moves": 3, "outcome": "draw"}}),
        );
        let mut s = r.initial();
        let mut events = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut moves = Vec::new();
        for _ in 0..3 {
            match r.status(&s) {
                Status::Chance => r.apply_chance(&mut s, 0, &mut events),
                Status::ToMove(_) => {}
                Status::Over => panic!("{game}: over before the limit"),
            }
            r.legal_moves(&s, &mut moves);
            r.apply(&mut s, moves[rng.random_range(0..moves.len())], &mut events);
        }
        let o = r.outcome(&s).unwrap_or_else(|| panic!("{game}: not over"));
        assert_eq!(
            (o.result, o.end),
            (Result_::Draw, EndReason::Natural),
            "{game}"
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, SowingEvent::MoveLimit { plies: 3, .. })),
            "{game}: {events:?}"
        );
    }
    // The corpus offers it as an option of each game.
    for game in ["um-el-bagara", "um-el-tuweisat", "lib-al-aqil"] {
        let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
        let choice = corpus.game(game).unwrap().choice("move-limit").unwrap();
        assert!(choice.options.iter().any(|o| o.id == "limit"), "{game}");
    }
}

/// LA-15 (c): with the target at four, a board won by six counts for nothing; a board won by
/// four wins the game.
#[test]
fn exactly_the_target() {
    let r = rules(
        "lib-al-aqil",
        "lane",
        json!({"target": 4, "target_reach": "exactly"}),
    );
    let (s, events) = position(&r, &[0, 0, 0, 1, 0, 0], &[0; 6], [7, 1]);
    assert!(events.contains(&SowingEvent::TargetPassed { seat: 0, points: 6 }));
    assert!(r.outcome(&s).is_none(), "a new board follows");
    let (s, _) = position(&r, &[0, 0, 0, 1, 0, 0], &[0; 6], [5, 1]);
    assert_eq!(r.outcome(&s).map(|o| o.result), Some(Result_::Win(1)));
    // Sixty or more: the board won by six wins.
    let at_least = rules("lib-al-aqil", "lane", json!({"target": 4}));
    let (s, _) = position(&at_least, &[0, 0, 0, 1, 0, 0], &[0; 6], [7, 1]);
    assert_eq!(
        at_least.outcome(&s).map(|o| o.result),
        Some(Result_::Win(1))
    );
}

/// LA-06 (b): turned by a mirror flip, each house goes to the one directly opposite.
#[test]
fn the_mirror_flip() {
    let two = json!({
        "holes": 2, "counters": 1, "distribution": "corresponding",
        "correspond": "opposite", "starter": "first-seat"
    });
    for (turn, board) in [("half-turn", [0, 1, 3, 0]), ("mirror", [1, 0, 0, 3])] {
        let mut overrides = two.clone();
        overrides["board_turn"] = json!(turn);
        let r = rules("lib-al-aqil", "lane", overrides);
        let mut s = r.initial();
        play(&r, &mut s, SowingMove::Distribute { house: 0, count: 3 });
        play(&r, &mut s, SowingMove::Distribute { house: 3, count: 1 });
        let events = play(&r, &mut s, SowingMove::Turn);
        assert_eq!(events, [SowingEvent::BoardTurned { seat: 1 }]);
        assert_eq!(
            (0..4).map(|h| s.house(h)).collect::<Vec<_>>(),
            board,
            "{turn}"
        );
    }
}

/// LA-04: Lane's manners, each alone, and all of them at the distributor's option.
#[test]
fn lanes_manners_of_distribution() {
    let manner = |d: &str| {
        rules(
            "lib-al-aqil",
            "lane",
            json!({"distribution": d, "starter": "first-seat"}),
        )
    };
    // At his option: first the manner, a decision of his.
    let r = manner("lane-manners");
    let mut s = r.initial();
    assert_eq!(
        legal(&r, &s),
        (0..MANNERS.len() as u8)
            .map(|manner| SowingMove::Manner { manner })
            .collect::<Vec<_>>()
    );
    let one = MANNERS
        .iter()
        .position(|m| format!("{m:?}") == "OneASide")
        .unwrap() as u8;
    let events = play(&r, &mut s, SowingMove::Manner { manner: one });
    assert_eq!(events, [SowingEvent::Manner { manner: one }]);
    // One beyt on each side: any beyt first (keeping one counter for its partner) ...
    assert_eq!(legal(&r, &s).len(), 12 * 71);
    play(
        &r,
        &mut s,
        SowingMove::Distribute {
            house: 2,
            count: 30,
        },
    );
    // ... then only that beyt and its corresponding beyt (b3, the same position: `lane`).
    let houses: std::collections::BTreeSet<u8> = legal(&r, &s)
        .iter()
        .map(|m| match m {
            SowingMove::Distribute { house, .. } => *house,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(houses.into_iter().collect::<Vec<_>>(), [2, 8]);
    play(
        &r,
        &mut s,
        SowingMove::Distribute {
            house: 8,
            count: 42,
        },
    );
    assert_eq!(r.status(&s), Status::ToMove(1), "the other keeps or turns");

    // In all the beyts: the first beyt may take at most 72 − 11.
    let r = manner("all-houses");
    let s = r.initial();
    let most = legal(&r, &s)
        .iter()
        .map(|m| match m {
            SowingMove::Distribute { count, .. } => *count,
            other => panic!("{other:?}"),
        })
        .max();
    assert_eq!(most, Some(61));

    // Any manner at all (LA-04 (c)): all 72 into one beyt.
    let r = manner("free");
    let mut s = r.initial();
    play(
        &r,
        &mut s,
        SowingMove::Distribute {
            house: 5,
            count: 72,
        },
    );
    assert_eq!(r.status(&s), Status::ToMove(1));

    // Each manner plays to the end.
    for d in ["lane-manners", "one-a-side", "all-houses", "free"] {
        let r = manner(d);
        for end in random_games(&r, 5, 20_000) {
            assert_eq!(end.map(|e| e.1), Some(EndReason::Natural), "{d}");
        }
    }
}
