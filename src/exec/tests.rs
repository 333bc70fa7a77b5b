//! Unit tests of the executor's modes and the units' checks, without the binary.
//!
//! The games played are of the tiny corpus in `tests/fixtures/mini` (Um el-Bagara's
//! `literal` reading), six at a time on one thread: a run of six games is six blocks of one
//! game (`block_len(6)` = ⌈6/64⌉ = 1).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::ProgressBar;

use crate::agents::Lineup;
use crate::bind::Bound;
use crate::corpus::{Corpus, CorpusFiles};
use crate::sim::saved::SavedTally;
use crate::sim::{RunSpec, Tally};

use super::units::{
    self, PARTIAL_FORMAT, PLAN_FORMAT, PartOf, PartialFile, PlanFile, Shard, UNITS_VERSION,
    all_present, blocks_of, header, read_plan, units_of_plan,
};
use super::{Exec, Mode, SavedBlock, Task, TaskInfo, build};

const GAME: &str = "um-el-bagara";
const HASH: &str = "0123456789abcdef0123456789abcdef";

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
        key: crate::sim::reading_key(GAME, "literal"),
        max_plies: 500,
        keep_records: false,
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
    crate::analysis::play::play_reading(exec, &task, games, &pool, &ProgressBar::hidden())
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

#[test]
fn a_tasks_identity_is_what_decides_its_games() {
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let exec = Exec::new(Mode::Play, HASH.to_owned(), None, false);
    let id = identity(&exec, &b, &spec(6, 7));
    // The number of games is not part of it (a block is the same games in any run) …
    assert_eq!(id, identity(&exec, &b, &spec(600, 7)));
    // … the seed, the streams, the corpus and the reading's values are.
    assert_ne!(id, identity(&exec, &b, &spec(6, 8)));
    let mut other_key = spec(6, 7);
    other_key.key ^= 1;
    assert_ne!(id, identity(&exec, &b, &other_key));
    let other_corpus = Exec::new(Mode::Play, "another".to_owned(), None, false);
    assert_ne!(id, identity(&other_corpus, &b, &spec(6, 7)));
    assert_ne!(id, identity(&exec, &bound(&corpus, "engine"), &spec(6, 7)));
    assert_eq!(id.len(), 64, "a BLAKE3 in hex");
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
        format!("{:016x}", crate::sim::reading_key(GAME, "literal"))
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
    // A block whose tally is not of its games' number.
    let mut map: HashMap<(String, u64, u64), SavedTally> = HashMap::new();
    let mut wrong = even[0].tally.clone();
    wrong.games = 2;
    map.insert((id.clone(), even[0].games.0, even[0].games.1), wrong);
    let exec = Exec::new(Mode::Replay(Mutex::new(map)), HASH.to_owned(), None, false);
    play(&exec, &b, &s, 0..1);
    assert_eq!(
        exec.finish().expect_err("does not fit").0,
        format!(
            "the partial result for games 0..1 of {GAME} literal does not fit its run: 2 games \
             for a block of 1"
        )
    );
}

#[test]
fn a_store_gives_back_what_was_played_into_it() {
    let corpus = mini();
    let b = bound(&corpus, "literal");
    let s = spec(6, 7);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("results.sqlite");
    let open = || super::store::Store::open(&path).expect("the store opens");
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
