//! Unit tests of the executor's modes and the units' checks, without the binary.
//!
//! The executor is driven here as the runner drives it (`begin`, then `source` for each
//! block in order, `played` for each block played), with tallies made by hand: which
//! blocks each mode plays, skips, keeps, takes and stores. The same modes with games played
//! through `analysis::play::play_reading` are tested in `analysis/tests.rs` (the executor
//! is a layer below the analyses and does not import them).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::agents::Lineup;
use crate::bind::Bound;
use crate::corpus::{Corpus, CorpusFiles};
use crate::sim::saved::SavedTally;
use crate::sim::{Block, RunSpec, Tally};
use crate::stats::Histogram;

use super::store::{Key, Store};
use super::units::{
    self, PARTIAL_FORMAT, PLAN_FORMAT, PartOf, PartialFile, PlanFile, Shard, UNITS_VERSION,
    all_present, blocks_of, header, read_plan, units_of_plan,
};
use super::{Exec, Mode, Names, SavedBlock, Task, TaskInfo, build};

const GAME: &str = "um-el-bagara";
const HASH: &str = "0123456789abcdef0123456789abcdef";

/// A block's names of counts: no event kind, no place.
const NO_NAMES: Names<'static> = (&[], &[]);

fn mini() -> Corpus {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini");
    let files = CorpusFiles::read_dir(&dir).expect("the mini corpus is there");
    crate::corpus::load(&files)
        .corpus
        .expect("the mini corpus loads")
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

/// The key of `literal`'s blocks with `spec`, under `exec`.
fn key_of(exec: &Exec, b: &Bound, spec: &RunSpec) -> Key {
    let lineup = Lineup::random();
    exec.key(&Task {
        game: GAME,
        reading: "literal",
        bound: b,
        spec,
        lineup: &lineup,
    })
}

/// Keys of `literal` with seeds 7 and 8.
fn keys() -> (Key, Key) {
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let exec = Exec::new(Mode::Play, HASH.to_owned(), None, false);
    (
        key_of(&exec, &b, &spec(8, 7)),
        key_of(&exec, &b, &spec(8, 8)),
    )
}

fn hist(pairs: &[(u32, u64)]) -> Histogram {
    let mut h = Histogram::default();
    for &(v, n) in pairs {
        h.add_n(v, n);
    }
    h
}

/// The shape of a two-seat run without event kinds or places.
fn like() -> Tally {
    Tally {
        wins: vec![0, 0],
        first_moves: vec![0, 0],
        order_wins: vec![0, 0],
        ..Tally::default()
    }
}

/// Two games by hand: each seat moved first once and won once, the first mover both times,
/// in 30 and 41 plies.
fn two_games() -> Tally {
    Tally {
        games: 2,
        wins: vec![1, 1],
        first_moves: vec![1, 1],
        order_wins: vec![2, 0],
        plies: hist(&[(30, 1), (41, 1)]),
        turns: hist(&[(30, 1), (41, 1)]),
        passes: hist(&[(0, 2)]),
        decisions: 71,
        legal: 300,
        ..like()
    }
}

fn saved(t: &Tally) -> String {
    serde_json::to_string(&SavedTally::from(t)).expect("serialises")
}

/// Asks `exec` where block `range` of `key` comes from (for the run `run`).
fn source(exec: &Exec, key: &Key, range: std::ops::Range<u64>, run: Option<i64>) -> Block {
    exec.source(key, range, &like(), false, (NO_NAMES, run))
}

/// The tally of a block `exec` has, or a panic saying what it did instead.
fn had(block: Block) -> Tally {
    match block {
        Block::Have(t) => *t,
        other => panic!("not had: {other:?}"),
    }
}

fn only(set: &[(&str, u64, u64)]) -> Mode {
    Mode::Only(
        set.iter()
            .map(|&(id, a, b)| (id.to_owned(), a, b))
            .collect::<HashSet<_>>(),
        Mutex::new(Vec::new()),
    )
}

fn replay(blocks: &[(&Key, (u64, u64), SavedTally)]) -> Mode {
    Mode::Replay(Mutex::new(
        blocks
            .iter()
            .map(|(k, (a, b), t)| ((k.identity.clone(), *a, *b), t.clone()))
            .collect::<HashMap<_, _>>(),
    ))
}

#[test]
fn a_tasks_identity_is_what_decides_its_games() {
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let exec = Exec::new(Mode::Play, HASH.to_owned(), None, false);
    let id = |exec: &Exec, b: &Bound, s: &RunSpec| key_of(exec, b, s).identity;
    let base = id(&exec, &b, &spec(6, 7));
    // The number of games is not part of it (a block is the same games in any run) …
    assert_eq!(base, id(&exec, &b, &spec(600, 7)));
    // … the seed, the streams, the corpus and the reading's values are.
    assert_ne!(base, id(&exec, &b, &spec(6, 8)));
    let mut other_streams = spec(6, 7);
    other_streams.key ^= 1;
    assert_ne!(base, id(&exec, &b, &other_streams));
    let other_corpus = Exec::new(Mode::Play, "another".to_owned(), None, false);
    assert_ne!(base, id(&other_corpus, &b, &spec(6, 7)));
    assert_ne!(base, id(&exec, &bound(&corpus, "engine"), &spec(6, 7)));
    assert_eq!(base.len(), 64, "a BLAKE3 in hex");
    let k = key_of(&exec, &b, &spec(6, 7));
    assert_eq!((k.game.as_str(), k.reading.as_str()), (GAME, "literal"));
    assert_eq!(
        (k.seed, k.max_plies, k.corpus_hash.as_str()),
        (7, 500, HASH)
    );
    assert_eq!(k.ludotrace, build());
}

#[test]
fn record_notes_each_tasks_blocks_and_plays_none() {
    let (k7, k8) = keys();
    let exec = Exec::new(
        Mode::Record(Mutex::new(Vec::new())),
        HASH.to_owned(),
        None,
        false,
    );
    assert!(!exec.renders());
    assert!(exec.begin(&k7, 0..8).is_none(), "no store, no run");
    for (k, range) in [(&k7, 0..4), (&k7, 0..4), (&k7, 4..8), (&k8, 0..4)] {
        assert!(matches!(source(&exec, k, range, None), Block::Skip));
    }
    assert_eq!(exec.counts(), (0, 0));
    exec.finish().expect("nothing went wrong");
    let Mode::Record(tasks) = exec.into_mode() else {
        panic!("not Record")
    };
    let tasks = tasks.into_inner().expect("not poisoned");
    // One task a key, each block once, in the order asked.
    assert_eq!(tasks.len(), 2);
    let t = &tasks[0];
    assert_eq!(t.identity, k7.identity);
    assert_eq!((t.game.as_str(), t.reading.as_str()), (GAME, "literal"));
    assert_eq!(
        t.stream,
        format!("{:016x}", crate::rng::reading_key(GAME, "literal"))
    );
    assert_eq!((t.seed, t.max_plies, t.swap), (7, 500, false));
    assert_eq!(t.agents, ["random"]);
    assert!(t.overrides.is_empty());
    assert_eq!(t.blocks, [(0, 4), (4, 8)]);
    assert_eq!(tasks[1].identity, k8.identity);
    assert_eq!(tasks[1].seed, 8);
    assert_eq!(tasks[1].blocks, [(0, 4)]);
}

#[test]
fn only_plays_the_listed_blocks_and_keeps_what_it_played() {
    let (k7, k8) = keys();
    let exec = Exec::new(only(&[(&k7.identity, 0, 2)]), HASH.to_owned(), None, false);
    assert!(!exec.renders());
    assert!(matches!(source(&exec, &k7, 0..2, None), Block::Play));
    assert!(matches!(source(&exec, &k7, 2..4, None), Block::Skip));
    assert!(matches!(source(&exec, &k8, 0..2, None), Block::Skip));
    exec.played(&k7, 0..2, &two_games(), (NO_NAMES, None));
    assert_eq!(exec.counts(), (0, 1));
    let Mode::Only(_, kept) = exec.into_mode() else {
        panic!("not Only")
    };
    assert_eq!(
        kept.into_inner().expect("not poisoned"),
        [SavedBlock {
            identity: k7.identity.clone(),
            games: (0, 2),
            tally: SavedTally::from(&two_games()),
        }]
    );
}

#[test]
fn replay_takes_each_block_from_the_partial_results_once() {
    let (k7, k8) = keys();
    let block = SavedTally::from(&two_games());
    let exec = Exec::new(
        replay(&[(&k7, (0, 2), block.clone())]),
        HASH.to_owned(),
        None,
        false,
    );
    assert!(exec.renders());
    let t = had(source(&exec, &k7, 0..2, None));
    assert_eq!(saved(&t), saved(&two_games()), "byte for byte");
    assert_eq!(t.plies.values(), [30, 41]);
    assert_eq!(exec.counts(), (0, 0));
    exec.finish().expect("every block was there");
    // Taken, it is gone; and another task's block was never there.
    assert!(matches!(source(&exec, &k7, 0..2, None), Block::Skip));
    assert!(matches!(source(&exec, &k8, 0..2, None), Block::Skip));
    assert_eq!(
        exec.finish().expect_err("missing").0,
        format!(
            "no partial result holds games 0..2 of {GAME} literal (identity {})",
            k7.identity
        )
    );
    // A block that does not fit its run: another number of games, or of seats.
    let mut three = block.clone();
    three.games = 3;
    let mut seats = block;
    seats.wins.push(0);
    let exec = Exec::new(
        replay(&[(&k7, (0, 2), three), (&k7, (2, 4), seats)]),
        HASH.to_owned(),
        None,
        false,
    );
    assert!(matches!(source(&exec, &k7, 0..2, None), Block::Skip));
    assert!(matches!(source(&exec, &k7, 2..4, None), Block::Skip));
    // The first problem is the one reported.
    assert_eq!(
        exec.finish().expect_err("does not fit").0,
        format!(
            "the partial result for games 0..2 of {GAME} literal does not fit its run: 3 games \
             for a block of 2"
        )
    );
}

#[test]
fn play_without_a_store_plays_every_block() {
    let (k7, _) = keys();
    let exec = Exec::new(Mode::Play, HASH.to_owned(), None, false);
    assert!(exec.renders());
    assert!(exec.begin(&k7, 0..2).is_none());
    assert!(matches!(source(&exec, &k7, 0..2, None), Block::Play));
    exec.played(&k7, 0..2, &two_games(), (NO_NAMES, None));
    assert_eq!(exec.counts(), (0, 1));
    exec.commit().expect("nothing to store");
    exec.finish().expect("nothing went wrong");
}

#[test]
fn play_with_a_store_keeps_each_block_and_takes_it_back() {
    let (k7, k8) = keys();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("results.sqlite");
    let open = || Store::open(&path).expect("the store opens");
    let first = Exec::new(Mode::Play, HASH.to_owned(), Some(open()), false);
    let run = first.begin(&k7, 0..4);
    assert!(run.is_some(), "a run noted");
    let mut second_block = two_games();
    second_block.order_wins = vec![1, 1];
    // Played out of order (workers finish when they finish), merged in game order.
    for (range, t) in [(2..4, second_block.clone()), (0..2, two_games())] {
        assert!(matches!(
            source(&first, &k7, range.clone(), run),
            Block::Play
        ));
        first.played(&k7, range, &t, (NO_NAMES, run));
    }
    first.finish().expect("stored");
    assert_eq!(first.counts(), (0, 2));
    assert_eq!(
        first
            .store()
            .expect("a store")
            .blocks_of(&k7.identity)
            .expect("counted"),
        1,
        "the two blocks make one row"
    );
    drop(first);
    let mut both = two_games();
    both.merge(second_block.clone());
    // Another process on the same store takes the row back as the two blocks folded: the
    // first block's tally holds the second's games, and the second is skipped.
    let second = Exec::new(Mode::Play, HASH.to_owned(), Some(open()), false);
    let run = second.begin(&k7, 0..4);
    assert_eq!(saved(&had(source(&second, &k7, 0..2, run))), saved(&both));
    assert!(matches!(source(&second, &k7, 2..4, run), Block::Skip));
    assert!(matches!(source(&second, &k8, 0..2, None), Block::Play));
    // The same run asked again in the same process (a report's tables share readings) is
    // handed the row again, not skipped as covered by the first asking.
    let again = second.begin(&k7, 0..4);
    assert_eq!(saved(&had(source(&second, &k7, 0..2, again))), saved(&both));
    assert!(matches!(source(&second, &k7, 2..4, again), Block::Skip));
    second.finish().expect("read back");
    assert_eq!(second.counts(), (4, 0));
    drop(second);
    // A run of other blocks whose boundaries the row does not fit (games 0..3, blocks of
    // one game) cannot take it, and plays.
    let third = Exec::new(Mode::Play, HASH.to_owned(), Some(open()), false);
    let run = third.begin(&k7, 0..3);
    assert!(matches!(source(&third, &k7, 0..1, run), Block::Play));
}

#[test]
fn a_read_only_store_gives_what_it_holds_and_keeps_nothing() {
    let (k7, k8) = keys();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("results.sqlite");
    let first = Exec::new(
        Mode::Play,
        HASH.to_owned(),
        Some(Store::open(&path).expect("opens")),
        false,
    );
    let run = first.begin(&k7, 0..2);
    first.played(&k7, 0..2, &two_games(), (NO_NAMES, run));
    first.finish().expect("stored");
    drop(first);
    let mut mode = std::fs::metadata(&path).expect("there").permissions();
    mode.set_readonly(true);
    std::fs::set_permissions(&path, mode).expect("made read-only");
    let before = std::fs::read(&path).expect("read");
    let store = Store::open(&path).expect("opens read-only");
    assert!(store.read_only());
    let exec = Exec::new(Mode::Play, HASH.to_owned(), Some(store), true);
    assert!(!exec.keeps_records(&spec(2, 7)), "no game rows to keep");
    let run = exec.begin(&k7, 0..2);
    assert_eq!(
        saved(&had(source(&exec, &k7, 0..2, run))),
        saved(&two_games())
    );
    let run = exec.begin(&k8, 0..2);
    assert!(matches!(source(&exec, &k8, 0..2, run), Block::Play));
    exec.played(&k8, 0..2, &two_games(), (NO_NAMES, run));
    exec.finish().expect("nothing went wrong");
    assert_eq!(std::fs::read(&path).expect("read"), before, "not written");
    assert_eq!(
        exec.store()
            .expect("a store")
            .blocks_of(&k8.identity)
            .expect("counted"),
        0
    );
}

#[test]
fn replay_stores_what_it_merged_only_once_committed() {
    let (k7, _) = keys();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("results.sqlite");
    let store = Store::open(&path).expect("the store opens");
    let exec = Exec::new(
        replay(&[(&k7, (0, 2), SavedTally::from(&two_games()))]),
        HASH.to_owned(),
        Some(store),
        false,
    );
    // Under Replay a run is a place among those waiting, the first 0.
    let run = exec.begin(&k7, 0..2);
    assert_eq!(run, Some(0));
    had(source(&exec, &k7, 0..2, run));
    exec.finish().expect("whole");
    let stored = |exec: &Exec| {
        exec.store()
            .expect("a store")
            .blocks_of(&k7.identity)
            .expect("counted")
    };
    assert_eq!(
        stored(&exec),
        0,
        "nothing written before the merge is known whole"
    );
    exec.commit().expect("stored");
    assert_eq!(stored(&exec), 1);
    drop(exec);
    let later = Exec::new(
        Mode::Play,
        HASH.to_owned(),
        Some(Store::open(&path).expect("opens")),
        false,
    );
    assert_eq!(
        saved(&had(source(&later, &k7, 0..2, None))),
        saved(&two_games())
    );
    assert_eq!(later.counts(), (1, 0));
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

const PLAN_HASH: &str = "feedfacecafebeef0000111122223333";

fn task_info(blocks: usize) -> TaskInfo {
    TaskInfo {
        identity: "t0".to_owned(),
        game: GAME.to_owned(),
        reading: "literal".to_owned(),
        overrides: serde_json::Map::new(),
        stream: "0000000000000001".to_owned(),
        seed: 1,
        max_plies: 500,
        agents: vec!["random".to_owned()],
        swap: false,
        blocks: (0..blocks as u64).map(|k| (k, k + 1)).collect(),
    }
}

fn plan(units: usize) -> PlanFile {
    PlanFile {
        format: PLAN_FORMAT.to_owned(),
        version: UNITS_VERSION,
        ludotrace: build(),
        corpus_hash: HASH.to_owned(),
        command: vec!["run".to_owned(), GAME.to_owned()],
        tasks: vec![task_info(units)],
        units: (0..units).map(|k| vec![(0, k)]).collect(),
    }
}

#[test]
fn units_of_plan_takes_each_unit_once_and_only_the_plans() {
    let p = plan(3);
    let plan_path = Path::new("plan.json");
    let (a, b, c) = (
        PathBuf::from("a.json"),
        PathBuf::from("b.json"),
        PathBuf::from("c.json"),
    );
    // Units 0 and 2 of 3: theirs (that 1 is missing is `all_present`'s to say).
    let given = [
        (&a, partial(unit(0, 3), Vec::new())),
        (&b, partial(unit(2, 3), Vec::new())),
    ];
    assert_eq!(
        units_of_plan(&p, PLAN_HASH, plan_path, &given).expect("units of the plan"),
        3
    );
    let refused = |given: &[(&PathBuf, PartialFile)]| {
        units_of_plan(&p, PLAN_HASH, plan_path, given)
            .expect_err("refused")
            .0
    };
    assert_eq!(
        refused(&[
            (&a, partial(unit(1, 3), Vec::new())),
            (&b, partial(unit(0, 3), Vec::new())),
            (&c, partial(unit(1, 3), Vec::new())),
        ]),
        "unit 1 is given twice: a.json and c.json"
    );
    // Another plan (its hash shown to twelve digits), a plan of four units, a unit past the
    // end, a shard.
    let other = PartOf::Plan {
        plan: "0123456789abcdef".to_owned(),
        unit: 0,
        units: 3,
    };
    let not_of = |what: &str| {
        format!(
            "c.json: not a unit of the plan plan.json (it is part of {what}): merge only that \
             plan's units"
        )
    };
    assert_eq!(
        refused(&[(&c, partial(other, Vec::new()))]),
        not_of("unit 0 of 3 of plan 0123456789ab")
    );
    let hash12 = &PLAN_HASH[..12];
    assert_eq!(
        refused(&[(&c, partial(unit(0, 4), Vec::new()))]),
        not_of(&format!("unit 0 of 4 of plan {hash12}"))
    );
    assert_eq!(
        refused(&[(&c, partial(unit(3, 3), Vec::new()))]),
        not_of(&format!("unit 3 of 3 of plan {hash12}"))
    );
    let shard = PartOf::Shard {
        shard: 1,
        shards: 4,
    };
    assert_eq!(
        refused(&[(&c, partial(shard, Vec::new()))]),
        not_of("shard 1/4")
    );
}

#[test]
fn all_present_lists_the_missing_the_first_twenty() {
    let paths: Vec<PathBuf> = (0..3).map(|k| PathBuf::from(format!("{k}.json"))).collect();
    let units: Vec<(&PathBuf, PartialFile)> = [0, 2]
        .iter()
        .map(|&k| (&paths[k as usize], partial(unit(k, 3), Vec::new())))
        .collect();
    assert_eq!(
        all_present(&units, 3, "units").expect_err("unit 1").0,
        "1 of 3 units missing: 1"
    );
    assert!(all_present(&units, 2, "units").is_err());
    let mut whole = units;
    whole.push((&paths[1], partial(unit(1, 3), Vec::new())));
    assert!(all_present(&whole, 3, "units").is_ok());
    // Shards count by their index; of 25 with only shard 3: 24 missing, twenty listed.
    let shard = (
        &paths[0],
        partial(
            PartOf::Shard {
                shard: 3,
                shards: 25,
            },
            Vec::new(),
        ),
    );
    assert_eq!(
        all_present(&[shard], 25, "shards").expect_err("missing").0,
        "24 of 25 shards missing: 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, \
         18, 19, 20, …"
    );
    // Exactly twenty missing: no ellipsis.
    assert_eq!(
        all_present(&[], 20, "shards").expect_err("missing").0,
        "20 of 20 shards missing: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, \
         17, 18, 19"
    );
}

fn block(identity: &str, games: (u64, u64)) -> SavedBlock {
    let t = Tally {
        games: games.1 - games.0,
        ..Tally::default()
    };
    SavedBlock {
        identity: identity.to_owned(),
        games,
        tally: SavedTally::from(&t),
    }
}

#[test]
fn blocks_of_refuses_a_block_given_twice() {
    let (a, b) = (PathBuf::from("a.json"), PathBuf::from("b.json"));
    let map = blocks_of(vec![
        (
            &a,
            partial(unit(0, 2), vec![block("t0", (0, 4)), block("t1", (0, 4))]),
        ),
        (&b, partial(unit(1, 2), vec![block("t0", (4, 8))])),
    ])
    .expect("three blocks");
    assert_eq!(map.len(), 3);
    assert_eq!(map[&("t0".to_owned(), 4, 8)].games, 4);
    let e = blocks_of(vec![
        (&a, partial(unit(0, 2), vec![block("t0", (0, 4))])),
        (&b, partial(unit(1, 2), vec![block("t0", (0, 4))])),
    ])
    .expect_err("twice");
    assert_eq!(
        e.0,
        "b.json: games 0..4 of task t0 are in two partial results"
    );
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("written");
    p
}

/// Why `header` refuses `p` (`Header` has no `Debug` for `expect_err`).
fn header_err(p: &Path, why: &str) -> String {
    match header(p) {
        Ok(_) => panic!("{} read, though {why}", p.display()),
        Err(e) => e.0,
    }
}

#[test]
fn header_reads_only_this_builds_formats() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    let head = |format: &str, version: u32, by: &str| {
        serde_json::json!({"format": format, "version": version, "ludotrace": by, "more": 1})
            .to_string()
    };
    for format in [PLAN_FORMAT, PARTIAL_FORMAT] {
        let p = write(d, "ok.json", &head(format, UNITS_VERSION, &build()));
        let h = header(&p).expect("this build's");
        assert_eq!(h.format.as_deref(), Some(format));
    }
    let p = write(d, "v2.json", &head(PLAN_FORMAT, 2, &build()));
    assert_eq!(
        header_err(&p, "version 2"),
        format!(
            "{}: ludotrace-plan version 2, this ludotrace reads version 1",
            p.display()
        )
    );
    let not_ours = |p: &Path| {
        format!(
            "{}: not a ludotrace plan or partial result (no `format: ludotrace-plan` or \
             `ludotrace-partial` with a version)",
            p.display()
        )
    };
    let p = write(d, "other.json", &head("ludotrace-report", 1, &build()));
    assert_eq!(header_err(&p, "another format"), not_ours(&p));
    let p = write(d, "none.json", r#"{"format": "ludotrace-plan"}"#);
    assert_eq!(header_err(&p, "no version"), not_ours(&p));
    let p = write(d, "old.json", &head(PARTIAL_FORMAT, 1, "0.0.1+old"));
    assert_eq!(
        header_err(&p, "another build"),
        format!(
            "{}: made by ludotrace 0.0.1+old, this is {}: a plan's units and its merge must \
             run the binary that made the plan",
            p.display(),
            build()
        )
    );
    let p = write(
        d,
        "anon.json",
        r#"{"format": "ludotrace-plan", "version": 1}"#,
    );
    assert!(header_err(&p, "no build").contains("made by ludotrace (unknown), this is"));
    let p = write(d, "text.json", "plan");
    let e = header_err(&p, "not JSON");
    assert!(
        e.starts_with(&format!(
            "{}:1:1: not a ludotrace plan or partial result (JSON): ",
            p.display()
        )),
        "{e}"
    );
}

#[test]
fn read_plan_checks_the_plan_and_hashes_its_bytes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    let text = serde_json::to_string_pretty(&plan(3)).expect("serialises");
    let p = write(d, "plan.json", &text);
    let (read, hash) = read_plan(&p).expect("a good plan");
    assert_eq!(read.units, [vec![(0, 0)], vec![(0, 1)], vec![(0, 2)]]);
    assert_eq!(hash, blake3::hash(text.as_bytes()).to_hex().to_string());
    let p = write(
        d,
        "partial.json",
        &serde_json::to_string(&partial(unit(0, 3), Vec::new())).expect("serialises"),
    );
    assert_eq!(
        read_plan(&p).expect_err("a partial result").0,
        format!(
            "{}: a partial result, not a plan (`work` takes the plan)",
            p.display()
        )
    );
    let mut empty = plan(3);
    empty.units.clear();
    let p = write(
        d,
        "empty.json",
        &serde_json::to_string(&empty).expect("json"),
    );
    assert_eq!(
        read_plan(&p).expect_err("no units").0,
        format!("{}: the plan has no units", p.display())
    );
    // The task has three blocks (0, 1, 2): block 3 is not there, nor is task 1.
    for (unit, t, b) in [(1, 0, 3), (2, 1, 0)] {
        let mut bad = plan(3);
        bad.units[unit] = vec![(t, b)];
        let p = write(d, "bad.json", &serde_json::to_string(&bad).expect("json"));
        assert_eq!(
            read_plan(&p).expect_err("no such block").0,
            format!(
                "{}: unit {unit} names block {b} of task {t}, which the plan does not have",
                p.display()
            )
        );
    }
}

#[test]
fn a_shard_is_i_of_n_with_i_below_n() {
    assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, of: 4 }));
    assert_eq!(" 0 / 1 ".parse::<Shard>(), Ok(Shard { index: 0, of: 1 }));
    assert_eq!(
        "999999/1000000".parse::<Shard>(),
        Ok(Shard {
            index: 999_999,
            of: 1_000_000
        })
    );
    for bad in ["4/4", "0/0", "1", "a/4", "-1/4", "0/1000001"] {
        assert_eq!(
            bad.parse::<Shard>(),
            Err(format!(
                "expected I/N with 0 ≤ I < N ≤ 1000000, e.g. 0/4, not {bad:?}"
            )),
        );
    }
}

#[test]
fn a_units_output_goes_beside_its_plan() {
    assert_eq!(
        units::unit_path(Path::new("work/night.json"), 3),
        Path::new("work/night.unit-3.json")
    );
    assert_eq!(
        units::unit_path(Path::new("plan"), 0),
        Path::new("plan.unit-0.json")
    );
    // Written whole, through a temporary file that does not stay behind.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let p = dir.path().join("p.json");
    units::write_atomic(&p, "{}").expect("written");
    assert_eq!(std::fs::read_to_string(&p).expect("read"), "{}");
    assert_eq!(std::fs::read_dir(dir.path()).expect("listed").count(), 1);
}
