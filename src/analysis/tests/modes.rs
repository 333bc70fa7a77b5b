//! The executor's modes under the analyses: a store, plans, units, shards and merges give
//! the single run's tallies (kept apart from `tests.rs`, which holds the analyses' own).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Mutex;

use super::{GAME, hidden};
use crate::agents::Lineup;
use crate::bind::Bound;
use crate::corpus::Corpus;
use crate::exec::store::Store;
use crate::exec::units::{PARTIAL_FORMAT, PartOf, PartialFile, UNITS_VERSION, blocks_of};
use crate::exec::{Exec, Mode, SavedBlock, Task, build};
use crate::sim::saved::SavedTally;
use crate::sim::{RunSpec, Tally};

const HASH: &str = "0123456789abcdef0123456789abcdef";
const PLAN_HASH: &str = "feedfacecafebeef0000111122223333";

fn mini() -> Corpus {
    super::mini().1
}

fn bound(corpus: &Corpus, reading: &str) -> Bound {
    let g = &corpus.games[0];
    let i = g.interpretation(reading).expect("a reading");
    crate::bind::bind(g, i, &serde_json::Map::new()).expect("binds")
}

fn spec(games: u64, seed: u64) -> RunSpec {
    RunSpec {
        games,
        seed,
        key: crate::rng::reading_key(GAME, "literal"),
        max_plies: 500,
        max_quiet: 0,
        keep_records: false,
        metrics: false,
    }
}

/// Games `games` of `literal` (of a run of `spec`) through `exec`.
fn play(exec: &Exec, b: &Bound, spec: &RunSpec, games: std::ops::Range<u64>) -> Tally {
    let lineup = Lineup::random();
    let task = Task {
        game: GAME,
        reading: "literal",
        bound: b,
        spec,
        lineup: &lineup,
    };
    let pool = crate::analysis::play::pool(Some(1)).expect("a pool");
    crate::analysis::play::play_reading(exec, &task, games, &pool, &hidden())
}

/// A raised limit plays the censored games alone, and its tally is the whole arm's
/// played to that limit, count for count: so `diff` and `flags` may replay only them.
/// With a results store too, whose rows of the whole arm must not serve a game of it.
#[test]
fn a_raised_limit_replays_the_censored_games_alone_and_equals_the_whole_arm() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("results.sqlite");
    for store in [None, Some(()), Some(())] {
        let store = store.map(|()| Store::open(&path).expect("the store opens"));
        raised_equals_whole(&Exec::new(Mode::Play, HASH.to_owned(), store, false));
    }
}

fn raised_equals_whole(exec: &Exec) {
    const LOW: u32 = 60;
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let at = |max_plies| RunSpec {
        max_plies,
        max_quiet: 0,
        ..spec(80, 7)
    };
    let run = play(exec, &b, &at(LOW), 0..80);
    let stopped = run.censored_by_limit();
    assert!(stopped > 1 && stopped < 80, "{stopped} of 80 censored");
    assert_eq!(run.censored_games.len() as u64, stopped);
    let replayed = std::sync::atomic::AtomicU64::new(0);
    let raise = |limit| {
        crate::analysis::limits::raise(&run, (LOW, limit), &|games, m| {
            replayed.fetch_add(
                games.end - games.start,
                std::sync::atomic::Ordering::Relaxed,
            );
            play(exec, &b, &at(m), games)
        })
    };
    for limit in [2 * LOW, 4 * LOW] {
        let direct = play(exec, &b, &at(limit), 0..80);
        assert_eq!(saved(&raise(limit)), saved(&direct), "at {limit} plies");
    }
    let direct = play(exec, &b, &at(4 * LOW), 0..80);
    assert!(
        direct.censored_by_limit() < stopped,
        "some censored game ends further on"
    );
    // Each censored game twice a limit (to the run's limit, to the raised one).
    assert_eq!(
        replayed.load(std::sync::atomic::Ordering::Relaxed),
        2 * 2 * stopped
    );
}

fn identity(exec: &Exec, b: &Bound, spec: &RunSpec) -> String {
    let lineup = Lineup::random();
    exec.key(&Task {
        game: GAME,
        reading: "literal",
        bound: b,
        spec,
        lineup: &lineup,
    })
    .identity
}

fn saved(t: &Tally) -> String {
    serde_json::to_string(&SavedTally::from(t)).expect("serialises")
}

fn only(set: &[(&str, u64, u64)]) -> Mode {
    Mode::Only(
        set.iter()
            .map(|&(id, a, b)| (id.to_owned(), a, b))
            .collect::<HashSet<_>>(),
        Mutex::new(Vec::new()),
    )
}

fn kept(exec: Exec) -> Vec<SavedBlock> {
    match exec.into_mode() {
        Mode::Only(_, kept) => kept.into_inner().expect("not poisoned"),
        _ => panic!("not Only"),
    }
}

fn partial(part_of: PartOf, blocks: Vec<SavedBlock>) -> PartialFile {
    PartialFile {
        format: PARTIAL_FORMAT.to_owned(),
        version: UNITS_VERSION,
        ludotrace: build(),
        corpus_hash: HASH.to_owned(),
        command: vec!["run".to_owned(), GAME.to_owned()],
        part_of,
        blocks,
    }
}

fn unit(k: u64, units: u64) -> PartOf {
    PartOf::Plan {
        plan: PLAN_HASH.to_owned(),
        unit: k,
        units,
    }
}

#[test]
fn record_notes_each_task_and_its_blocks_without_playing() {
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let exec = Exec::new(
        Mode::Record(Mutex::new(Vec::new())),
        HASH.to_owned(),
        None,
        false,
    );
    assert!(!exec.renders());
    let s = spec(6, 7);
    // Two rounds of one task (as `diff --games auto` plays on), the first asked twice.
    let t = play(&exec, &b, &s, 0..3);
    assert_eq!(t.games, 0, "nothing is played");
    play(&exec, &b, &s, 0..3);
    play(&exec, &b, &s, 3..6);
    // Another task: 200 games are blocks of ⌈200/64⌉ = 4, fifty of them.
    let long = spec(200, 8);
    play(&exec, &b, &long, 0..200);
    assert_eq!(exec.counts(), (0, 0));
    let (id, long_id) = (identity(&exec, &b, &s), identity(&exec, &b, &long));
    let Mode::Record(tasks) = exec.into_mode() else {
        panic!("not Record")
    };
    let tasks = tasks.into_inner().expect("not poisoned");
    assert_eq!(tasks.len(), 2);
    let first = &tasks[0];
    assert_eq!(
        (
            first.identity.as_str(),
            first.game.as_str(),
            first.reading.as_str()
        ),
        (id.as_str(), GAME, "literal")
    );
    assert_eq!(
        first.stream,
        format!("{:016x}", crate::rng::reading_key(GAME, "literal"))
    );
    assert_eq!((first.seed, first.max_plies, first.swap), (7, 500, false));
    assert_eq!(first.agents, ["random"]);
    assert!(first.overrides.is_empty());
    assert_eq!(
        first.blocks,
        [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]
    );
    let second = &tasks[1];
    assert_eq!(second.identity, long_id);
    assert_eq!(second.blocks.len(), 50);
    assert_eq!(second.blocks[..2], [(0, 4), (4, 8)]);
    assert_eq!(second.blocks[49], (196, 200));
}

#[test]
fn only_plays_the_listed_blocks_and_keeps_them() {
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let s = spec(6, 7);
    let probe = Exec::new(Mode::Play, HASH.to_owned(), None, false);
    let id = identity(&probe, &b, &s);
    // Blocks 1 and 4, and one of another task (never asked for here).
    let exec = Exec::new(
        only(&[(&id, 1, 2), (&id, 4, 5), ("another", 0, 1)]),
        HASH.to_owned(),
        None,
        false,
    );
    assert!(!exec.renders());
    let t = play(&exec, &b, &s, 0..6);
    assert_eq!(t.games, 2);
    assert_eq!(exec.counts(), (0, 2));
    let mut blocks = kept(exec);
    blocks.sort_by_key(|b| b.games);
    let games: Vec<(u64, u64)> = blocks.iter().map(|b| b.games).collect();
    assert_eq!(games, [(1, 2), (4, 5)]);
    for k in &blocks {
        assert_eq!(k.identity, id);
        assert_eq!(k.tally.games, 1);
    }
}

#[test]
fn replaying_the_units_blocks_gives_the_played_tally_byte_for_byte() {
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let s = spec(6, 7);
    let played = play(
        &Exec::new(Mode::Play, HASH.to_owned(), None, false),
        &b,
        &s,
        0..6,
    );
    assert_eq!(played.games, 6);
    let id = identity(&Exec::new(Mode::Play, HASH.to_owned(), None, false), &b, &s);
    // Two units: the even blocks and the odd ones.
    let unit_of = |blocks: &[u64]| {
        let set: Vec<(&str, u64, u64)> = blocks.iter().map(|&k| (id.as_str(), k, k + 1)).collect();
        let exec = Exec::new(only(&set), HASH.to_owned(), None, false);
        play(&exec, &b, &s, 0..6);
        kept(exec)
    };
    let (even, odd) = (unit_of(&[0, 2, 4]), unit_of(&[1, 3, 5]));
    let (pe, po) = (PathBuf::from("u0.json"), PathBuf::from("u1.json"));
    let map = blocks_of(vec![
        (&pe, partial(unit(0, 2), even.clone())),
        (&po, partial(unit(1, 2), odd)),
    ])
    .expect("no block twice");
    assert_eq!(map.len(), 6);
    let exec = Exec::new(Mode::Replay(Mutex::new(map)), HASH.to_owned(), None, false);
    assert!(exec.renders());
    let replayed = play(&exec, &b, &s, 0..6);
    exec.finish().expect("every block was there");
    assert_eq!(
        exec.counts(),
        (0, 0),
        "nothing played, nothing from a store"
    );
    assert_eq!(saved(&replayed), saved(&played));
    assert_eq!(replayed.kind_names, played.kind_names);
    assert_eq!(replayed.place_names, played.place_names);
    // Only the even unit: the first block missing is games 1..2, and the merge says so.
    let map = blocks_of(vec![(&pe, partial(unit(0, 2), even.clone()))]).expect("one unit");
    let exec = Exec::new(Mode::Replay(Mutex::new(map)), HASH.to_owned(), None, false);
    let short = play(&exec, &b, &s, 0..6);
    assert_eq!(short.games, 3);
    assert_eq!(
        exec.finish().expect_err("blocks missing").0,
        format!("no partial result holds games 1..2 of {GAME} literal (identity {id})")
    );
}

#[test]
fn a_store_gives_back_what_was_played_into_it() {
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let s = spec(6, 7);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("results.sqlite");
    let open = || Store::open(&path).expect("the store opens");
    let first = Exec::new(Mode::Play, HASH.to_owned(), Some(open()), false);
    let played = play(&first, &b, &s, 0..6);
    first.finish().expect("stored");
    assert_eq!(first.counts(), (0, 6), "six blocks played");
    drop(first);
    let second = Exec::new(Mode::Play, HASH.to_owned(), Some(open()), false);
    let taken = play(&second, &b, &s, 0..6);
    second.finish().expect("read back");
    assert_eq!(second.counts(), (6, 0), "six blocks taken");
    assert_eq!(saved(&taken), saved(&played));
    // Another seed is another task: nothing to take.
    let third = Exec::new(Mode::Play, HASH.to_owned(), Some(open()), false);
    play(&third, &b, &spec(6, 8), 0..2);
    assert_eq!(third.counts(), (0, 2));
}

/// A quiet limit (`--max-quiet`) stops games in which nothing is taken for that long: they
/// are censored (never a result), listed among the games a raised limit plays further, and
/// raising it with the ply limit (`limits::quiet_at`) replays those games alone to the very
/// tally of the whole arm played to both raised limits.
#[test]
fn a_quiet_limit_censors_and_is_raised_with_the_ply_limit() {
    let corpus = crate::corpus::load(&crate::corpus::CorpusFiles::embedded())
        .corpus
        .expect("the built-in corpus loads");
    let g = corpus.game("seega").expect("seega");
    let b = crate::bind::bind(
        g,
        g.interpretation("davies").expect("davies"),
        &serde_json::Map::new(),
    )
    .expect("binds");
    let exec = Exec::new(Mode::Play, HASH.to_owned(), None, false);
    let lineup = Lineup::random();
    let pool = crate::analysis::play::pool(Some(1)).expect("a pool");
    let play = |(max_plies, max_quiet): (u32, u32), games: std::ops::Range<u64>| {
        let spec = RunSpec {
            games: 200,
            seed: 3,
            key: crate::rng::reading_key("seega", "davies"),
            max_plies,
            max_quiet,
            keep_records: false,
            metrics: false,
        };
        let task = Task {
            game: "seega",
            reading: "davies",
            bound: &b,
            spec: &spec,
            lineup: &lineup,
        };
        crate::analysis::play::play_reading(&exec, &task, games, &pool, &hidden())
    };
    const PLIES: u32 = 20_000;
    const QUIET: u32 = 256;
    let run = play((PLIES, QUIET), 0..200);
    let quiet = run
        .timeouts_by_reason
        .iter()
        .find(|(n, _)| *n == "quiet-limit")
        .map_or(0, |&(_, c)| c);
    assert!(
        quiet > 0,
        "some random game of Seega goes 256 plies with nothing taken"
    );
    assert_eq!(run.censored_by_limit(), quiet);
    assert_eq!(run.censored(), quiet, "censored, never a result");
    assert_eq!(run.censored_games.len() as u64, quiet);
    assert!(run.stalled > 0 && run.stalled <= quiet);
    // Without the quiet limit those games go on: it stopped them, not the rules.
    let unlimited = play((PLIES, 0), 0..200);
    assert!(unlimited.censored() < quiet);
    for limit in crate::analysis::limits::raised(PLIES) {
        let q = crate::analysis::limits::quiet_at((PLIES, QUIET), limit);
        assert_eq!(q, QUIET * (limit / PLIES));
        let raised = crate::analysis::limits::raise(&run, (PLIES, limit), &|games, m| {
            play(
                (m, crate::analysis::limits::quiet_at((PLIES, QUIET), m)),
                games,
            )
        });
        assert_eq!(
            saved(&raised),
            saved(&play((limit, q), 0..200)),
            "at {limit}"
        );
    }
}
