//! The position notation: every position of every reading's games written, read back and
//! played on exactly as the original (the architecture invariant of `games::position`); bad
//! positions refused with the column, the field and the form expected; mangled positions
//! either refused or played without a panic.

use rand::{Rng, RngExt};

use ludotrace::games::{EndReason, Rules, Status};
use ludotrace::registry::{EngineVisitor, GameFamily};
use ludotrace::rng::game_rng;

use crate::util::{readings, with_engine};

/// What a state shows of itself: its notation, its status, its moves or chances.
fn shown<R: Rules>(rules: &R, s: &R::State) -> String {
    let mut moves = Vec::new();
    rules.legal_moves(s, &mut moves);
    let moves: Vec<String> = moves.iter().map(|m| rules.move_text(*m)).collect();
    // The engines' hashes are compared where a seat decides: at a chance step a hash may
    // hold what no longer matters (the throw just used).
    let keys = match rules.status(s) {
        Status::ToMove(_) => (rules.key(s), rules.position_key(s)),
        _ => (None, None),
    };
    format!(
        "{} | {:?} | {} | {:?} | {} | {:?} | {:?} | {} {}",
        rules.position_text(s),
        rules.status(s),
        moves.join(" "),
        rules.chance_outcomes(s),
        rules.state_text(s),
        keys,
        rules.outcome(s),
        rules.evaluate(s, 0),
        rules.evaluate(s, 1),
    )
}

/// Ends a copy may reach apart from the original: what a position does not hold (the
/// positions met before it, when the engine last searched for an endless game).
fn history_end<R: Rules>(rules: &R, s: &R::State) -> bool {
    rules
        .outcome(s)
        .is_some_and(|o| matches!(o.end, EndReason::Repetition | EndReason::Endless))
}

/// Plays `original` and `copy` on with the same choices for `steps` steps; the first
/// difference, if any.
fn play_on<R: Rules>(
    rules: &R,
    mut original: R::State,
    mut copy: R::State,
    steps: usize,
    rng: &mut impl Rng,
) -> Option<String> {
    let mut moves = Vec::new();
    for step in 0..steps {
        let (a, b) = (shown(rules, &original), shown(rules, &copy));
        if a != b {
            if history_end(rules, &original) || history_end(rules, &copy) {
                return None;
            }
            return Some(format!(
                "after {step} step(s) on:\n  original {a}\n  copy     {b}"
            ));
        }
        match rules.status(&original) {
            Status::Over => return None,
            Status::Chance => {
                let k = rng.random_range(0..rules.chance_outcomes(&original).len());
                rules.apply_chance(&mut original, k, &mut ludotrace::games::NoEvents);
                rules.apply_chance(&mut copy, k, &mut ludotrace::games::NoEvents);
            }
            Status::ToMove(_) => {
                rules.legal_moves(&original, &mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                rules.apply(&mut original, mv, &mut ludotrace::games::NoEvents);
                rules.apply(&mut copy, mv, &mut ludotrace::games::NoEvents);
            }
        }
    }
    None
}

/// Every position of a few random games: written, read, written again the same, and played
/// on the same.
struct RoundTrip;

impl EngineVisitor for RoundTrip {
    type Output = Vec<String>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Vec<String> {
        let mut problems = Vec::new();
        let mut positions = 0;
        for game in 0..3u64 {
            let mut rng = game_rng(11, 5, game);
            let mut states = vec![rules.initial()];
            ludotrace::sim::trace(rules, 7, 3, game, 1500, |step| {
                states.push(step.state.clone());
            });
            for (i, s) in states.into_iter().enumerate() {
                // Every position of the first 300 steps, then one in nine.
                if i > 300 && i % 9 != 0 {
                    continue;
                }
                positions += 1;
                let text = rules.position_text(&s);
                let copy = match rules.parse_position(&text) {
                    Ok(copy) => copy,
                    Err(e) => {
                        problems.push(format!("game {game} step {i}: {text}\n  refused: {e}"));
                        continue;
                    }
                };
                if rules.status(&s) == Status::Over {
                    // A game's own end is found again from the position; an end a position
                    // does not hold (a cap reached, a repetition) is not.
                    let natural = rules.outcome(&s).filter(|o| o.end == EndReason::Natural);
                    if let Some(o) = natural
                        && rules.outcome(&copy).map(|c| c.result) != Some(o.result)
                    {
                        problems.push(format!(
                            "game {game} step {i}: {text}\n  over ({:?}), but read back: {:?}",
                            o.result,
                            rules.outcome(&copy)
                        ));
                    }
                    continue;
                }
                if let Some(diff) = play_on(rules, s, copy, 40, &mut rng) {
                    problems.push(format!("game {game} step {i}: {text}\n  {diff}"));
                }
                if problems.len() > 3 {
                    return problems;
                }
            }
        }
        assert!(positions > 30, "too few positions tried");
        problems
    }
}

/// The architecture invariant of `games::position`, on every reading.
#[test]
fn every_position_of_every_reading_reads_back_and_plays_on_the_same() {
    let mut failures = Vec::new();
    for (game, reading) in readings() {
        for p in with_engine(&game, &reading, RoundTrip) {
            failures.push(format!("{game} / {reading}: {p}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Positions with one character changed, dropped or doubled: refused with a message, or
/// played on for a while without a panic.
struct Mangled;

impl EngineVisitor for Mangled {
    type Output = usize;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> usize {
        const CHARS: &[u8] = b"0123456789,/:=.-+xXoO*VWH<>pkf@ ab";
        let mut rng = game_rng(5, 2, 0);
        let mut texts = vec![rules.position_text(&rules.initial())];
        ludotrace::sim::trace(rules, 3, 1, 0, 400, |step| {
            texts.push(rules.position_text(step.state));
        });
        let mut accepted = 0;
        let mut moves = Vec::new();
        for _ in 0..400 {
            let base = texts[rng.random_range(0..texts.len())].as_bytes().to_vec();
            let mut t = base.clone();
            let at = rng.random_range(0..t.len());
            match rng.random_range(0..3) {
                0 => t[at] = CHARS[rng.random_range(0..CHARS.len())],
                1 => {
                    t.remove(at);
                }
                _ => t.insert(at, CHARS[rng.random_range(0..CHARS.len())]),
            }
            let Ok(text) = String::from_utf8(t) else {
                continue;
            };
            match rules.parse_position(&text) {
                Err(e) => {
                    let message = e.to_string();
                    assert!(
                        message.starts_with("column ") && e.column >= 1,
                        "{text}: {message}"
                    );
                }
                Ok(mut s) => {
                    accepted += 1;
                    for _ in 0..60 {
                        match rules.status(&s) {
                            Status::Over => break,
                            Status::Chance => {
                                let k = rng.random_range(0..rules.chance_outcomes(&s).len());
                                rules.apply_chance(&mut s, k, &mut ludotrace::games::NoEvents);
                            }
                            Status::ToMove(_) => {
                                rules.legal_moves(&s, &mut moves);
                                if moves.is_empty() {
                                    break;
                                }
                                let mv = moves[rng.random_range(0..moves.len())];
                                rules.apply(&mut s, mv, &mut ludotrace::games::NoEvents);
                            }
                        }
                    }
                    let _ = rules.position_text(&s);
                }
            }
        }
        accepted
    }
}

#[test]
fn mangled_positions_are_refused_or_played_without_a_panic() {
    for (game, reading) in readings() {
        with_engine(&game, &reading, Mangled);
    }
}

/// Bad positions, each with words its message must hold.
#[test]
fn bad_positions_name_the_column_the_field_and_the_form() {
    struct Refused(&'static str, &'static [&'static str]);
    struct Check(Vec<Refused>);
    impl EngineVisitor for Check {
        type Output = ();
        fn visit<F: GameFamily>(self, rules: &F::Rules) {
            for Refused(text, words) in self.0 {
                let e = match rules.parse_position(text) {
                    Ok(_) => panic!("{text}: read"),
                    Err(e) => e.to_string(),
                };
                for w in words {
                    assert!(e.contains(w), "{text}: {e}\n  lacks {w:?}");
                }
            }
        }
    }
    let cases = [
        (
            "um-el-tuweisat",
            "davies",
            vec![
                Refused("rows=3,3,3/3,3,3", &["field to-move", "missing", "1 or 2"]),
                Refused(
                    "rows=3,3/3,3,3 to-move=1",
                    &[
                        "column 6",
                        "field rows",
                        "has 2 value(s) where this game has 3",
                    ],
                ),
                Refused(
                    "rows=3,3,3/3,x,3 to-move=1",
                    &["column 14", "\"x\" is not each seat's houses"],
                ),
                Refused(
                    "rows=3,3,3/3,3,3 to-move=3",
                    &["column 26", "\"3\" is not the seat"],
                ),
                Refused(
                    "rows=3,3,3/3,3,3 to-move=1 colour=red",
                    &["field colour", "the fields are: rows, to-move, taken"],
                ),
                Refused(
                    "rows=3,3,3/3,3,3 to-move=1 daughters=a1:1",
                    &["field daughters", "this reading has no daughters"],
                ),
                Refused("rows=3,3,3/3,3,3 to-move=1 ply=2 turn=5", &["field turn"]),
                Refused("3,3,3/3,3,3 to-move=1", &["column 1", "field=value"]),
            ],
        ),
        (
            "um-el-banat",
            "davies",
            vec![Refused(
                "rows=4,4,4,4,4,4/4,4,4,4,4,4 to-move=1 daughters=a2:1,c9:2",
                &[
                    "field daughters",
                    "\"c9:2\" is not a house of this board (a1 to a6",
                ],
            )],
        ),
        (
            "seega",
            "davies",
            vec![
                Refused(
                    "board=xxxxx/xxxxx/xx.oo/ooooo/ooooo to-move=1 continue=c3",
                    &[
                        "field continue",
                        "c3 does not hold a piece of the seat to move",
                    ],
                ),
                Refused(
                    "board=xxxxx/xxxxx/xx.oo/ooooo to-move=1",
                    &["field board", "is not 5 rows of 5 cells"],
                ),
                Refused(
                    "board=xxxxx/xxxxx/xxxxx/ooooo/ooooo to-move=1",
                    &["seat 1 has 15 pieces", "more than its 12"],
                ),
            ],
        ),
        (
            "sijat-el-taba",
            "davies",
            vec![
                Refused(
                    "board=OOO....OOO/........../........../........../........../XXX....XXX \
                     to-move=1 throw=3",
                    &["field throw", "\"3\" is not the throw in hand"],
                ),
                Refused(
                    "board=OOO....OOO/........../........../........../........../XXX....XXX \
                     to-move=1 stacks=a1:1:2",
                    &["field stacks", "counters do not stack in this reading"],
                ),
            ],
        ),
        (
            "lib-el-merafib",
            "davies",
            vec![
                Refused(
                    "mothers=V,>999,V,V to-move=1",
                    &[
                        "field mothers",
                        "\">999\" is not a piece",
                        "V in the village",
                    ],
                ),
                Refused(
                    "mothers=V to-move=1",
                    &["has 1 mother(s) where this game has 4"],
                ),
                Refused(
                    "mothers=V,V,V,V to-move=1 hyena=<3",
                    &["field hyena", "is not a piece"],
                ),
            ],
        ),
    ];
    for (game, reading, refused) in cases {
        with_engine(game, reading, Check(refused));
    }
}

/// A position read back is the position written: the start of each family's first reading.
#[test]
fn the_start_of_play_reads_as_written() {
    struct Start;
    impl EngineVisitor for Start {
        type Output = String;
        fn visit<F: GameFamily>(self, rules: &F::Rules) -> String {
            rules.position_text(&rules.initial())
        }
    }
    assert_eq!(
        with_engine("um-el-tuweisat", "ludii", Start),
        "rows=3,3,3/3,3,3 to-move=1"
    );
    assert_eq!(
        with_engine("seega", "davies", Start),
        "board=...../...../...../...../..... to-move=1 hands=12,12 phase=toss"
    );
}

/// The guide documents every field of every family's notation, and the clock's.
#[test]
fn the_guide_lists_every_field() {
    struct Keys;
    impl EngineVisitor for Keys {
        type Output = Vec<&'static str>;
        fn visit<F: GameFamily>(self, rules: &F::Rules) -> Vec<&'static str> {
            rules.position_fields().iter().map(|f| f.key).collect()
        }
    }
    let guide = std::fs::read_to_string(crate::util::root().join("guide/explain.md")).unwrap();
    let mut missing = Vec::new();
    let clock = ludotrace::games::position::CLOCK_FIELDS.map(|f| f.key);
    for (game, reading) in readings() {
        for key in with_engine(&game, &reading, Keys).into_iter().chain(clock) {
            if !guide.contains(&format!("| `{key}` |")) && !missing.contains(&key) {
                missing.push(key);
            }
        }
    }
    assert!(missing.is_empty(), "guide/explain.md lacks {missing:?}");
}
