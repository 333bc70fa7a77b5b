//! How a command's games get played: the one door every command that plays (`run`, `diff`,
//! `flags`, `report`, `site`) goes through, block by block.
//!
//! A command describes each reading it plays as a [`Task`] and asks [`Exec::play`] for the
//! tally of some of its games. What happens to each block of those games depends on the
//! mode, which the command never sees:
//! - [`Mode::Play`]: blocks found in the results store are taken from it, the others played
//!   and written to the store: the blocks of a task played one after another are merged into
//!   one row and written in one transaction with the others waiting, when the next task
//!   begins, at least every second while a task plays, and when the command is done, so the
//!   store grows by rows of many games and a killed run loses at most a second of play;
//! - [`Mode::Record`]: nothing is played; the tasks and their blocks are noted (`plan`, and
//!   the check that a unit's command still makes the plan's tasks);
//! - [`Mode::Only`]: only the listed blocks are played, and kept (`work --unit`, `run
//!   --shard`);
//! - [`Mode::Replay`]: every block comes from partial results read back (`merge`).
//!
//! The command renders whatever tallies it is given, so under `Record` and `Only` its output
//! is discarded; under `Play` and `Replay` it is the command's output, the same bytes either
//! way, since a block is the same integer sums wherever it was played.
//!
//! **Architecture Invariant:** a block is named by its task's identity (a BLAKE3 of the
//! build, the corpus, the game, the reading, every parameter value and flag place, the
//! random streams' key, the agents, the seed and the ply limit) and its range of game
//! indices; nothing else about a run may change what a block holds.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub mod housekeeping;
pub mod store;
#[cfg(test)]
mod tests;
pub mod units;

use crate::agents::Lineup;
use crate::bind::Bound;
use crate::sim::saved::{SavedGame, SavedTally};
use crate::sim::{Block, RunSpec, Tally};
use store::{Key, Row, RowWrite, Store, TaskWrite};

/// A problem met while playing through the executor (a store that failed, a partial result
/// that does not fit), with the message the user sees.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ExecError(pub String);

/// The version and build of this binary: what a store block, a plan and a partial result
/// carry, so that results of another build (another engine) are never mixed in.
pub fn build() -> String {
    format!(
        "{}+{}",
        env!("CARGO_PKG_VERSION"),
        env!("LUDOTRACE_SOURCE_HASH")
    )
}

/// A run's event kinds and uncovered places, by index: the names of a tally's counts.
pub type Names<'a> = (&'a [String], &'a [String]);

/// One reading's games as a command plays them.
pub struct Task<'a> {
    /// Game id.
    pub game: &'a str,
    /// Interpretation id.
    pub reading: &'a str,
    /// The reading bound to its engine.
    pub bound: &'a Bound,
    /// Seed, streams' key, ply limit.
    pub spec: &'a RunSpec,
    /// Who plays.
    pub lineup: &'a Lineup,
}

/// A task as noted by [`Mode::Record`]: its key and the blocks asked of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskInfo {
    /// The identity of its blocks.
    pub identity: String,
    /// Game id.
    pub game: String,
    /// Interpretation id.
    pub reading: String,
    /// Overrides, parameter → value.
    pub overrides: serde_json::Map<String, serde_json::Value>,
    /// The streams' key, 16 hex digits.
    pub stream: String,
    /// Run seed.
    pub seed: u64,
    /// Ply limit.
    pub max_plies: u32,
    /// The `--agents` list.
    pub agents: Vec<String>,
    /// `--swap`.
    pub swap: bool,
    /// Its blocks, as `[first game, end game)`, in order.
    pub blocks: Vec<(u64, u64)>,
}

/// A block played under [`Mode::Only`]: what a partial result holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedBlock {
    /// Its task's identity.
    pub identity: String,
    /// Its games, `[first, end)`.
    pub games: (u64, u64),
    /// Its tally.
    pub tally: SavedTally,
}

/// What [`Exec::play`] does with blocks.
pub enum Mode {
    /// Play, through the store where there is one.
    Play,
    /// Play nothing; note the tasks.
    Record(Mutex<Vec<TaskInfo>>),
    /// Play only these blocks (identity, first game, end game), and keep them.
    Only(HashSet<(String, u64, u64)>, Mutex<Vec<SavedBlock>>),
    /// Take every block from these.
    Replay(Mutex<HashMap<(String, u64, u64), SavedTally>>),
}

/// How a command plays games.
pub struct Exec {
    store: Option<Store>,
    store_games: bool,
    corpus_hash: String,
    mode: Mode,
    /// The first problem met while playing (a store that failed, a partial result that does
    /// not fit): [`Exec::finish`] reports it once the command is done.
    failure: Mutex<Option<String>>,
    /// Blocks taken from the store, and played, by this process.
    counts: Mutex<(u64, u64)>,
    /// What this process asked of each task (by identity) and has yet to write.
    tasks: Mutex<HashMap<String, TaskState>>,
    /// When the store was last written.
    written: Mutex<Instant>,
    /// Whether blocks no partial result holds are played here under [`Mode::Replay`]
    /// ([`Exec::beyond_plan`]).
    beyond_plan: std::sync::atomic::AtomicBool,
}

/// How often, at least, the blocks played are written while a task plays: what a killed run
/// loses at most. Each write is one transaction of a few rows, so a second costs nothing
/// measurable.
const WRITE_EVERY: Duration = Duration::from_secs(1);

/// One task as this process plays it through the store.
struct TaskState {
    key: Key,
    names: (Vec<String>, Vec<String>),
    /// The runs asked of it.
    runs: Vec<RunState>,
    /// The run in play (its place in `runs`), whose block boundaries a stored row must fit.
    current: Option<usize>,
    /// Its rows in the store, read at the first block asked (`None`: to read).
    stored: Option<Vec<Row>>,
    /// The games of the last row taken: blocks inside it are in its tally already.
    covered: Range<u64>,
    /// Blocks played here (or replayed) and not yet written, by run and first game:
    /// consecutive blocks of a run merged into one tally.
    pending: BTreeMap<(usize, u64), (u64, Tally)>,
    /// Rows taken from the store for a run and not yet linked to it.
    taken: Vec<(usize, Range<u64>)>,
}

/// A run of a task as this process asks it.
struct RunState {
    games: Range<u64>,
    /// Whether it is in the store's `runs`.
    written: bool,
    /// The rows this process made it of so far (played and written, or taken).
    rows: Vec<Range<u64>>,
    /// Whether its links were replaced by `rows` once they made it whole.
    whole: bool,
}

impl TaskState {
    fn new(key: &Key) -> TaskState {
        TaskState {
            key: key.clone(),
            names: (Vec::new(), Vec::new()),
            runs: Vec::new(),
            current: None,
            stored: None,
            covered: 0..0,
            pending: BTreeMap::new(),
            taken: Vec::new(),
        }
    }

    /// Adds a block of run `run` to the pending rows, merged with the blocks of the run it
    /// follows and precedes (in game order, so the merged tally is the one the runner folds).
    fn add(&mut self, run: Option<i64>, range: Range<u64>, mut tally: Tally) {
        // A block outside any run (a caller that began none) is a row of its own run.
        let run = run.map_or(usize::MAX, |r| r as usize);
        let mut start = range.start;
        let mut end = range.end;
        if let Some((&(r, s), &(e, _))) = self.pending.range((run, 0)..(run, start)).next_back()
            && e == start
        {
            let (_, mut before) = self.pending.remove(&(r, s)).expect("just seen");
            before.merge(tally);
            tally = before;
            start = s;
        }
        if let Some((e, after)) = self.pending.remove(&(run, end)) {
            tally.merge(after);
            end = e;
        }
        self.pending.insert((run, start), (end, tally));
    }
}

impl Exec {
    /// An executor of `mode` for the corpus `corpus_hash`, with a store (or none).
    pub fn new(mode: Mode, corpus_hash: String, store: Option<Store>, store_games: bool) -> Exec {
        Exec {
            store,
            store_games,
            corpus_hash,
            mode,
            failure: Mutex::new(None),
            counts: Mutex::new((0, 0)),
            tasks: Mutex::new(HashMap::new()),
            written: Mutex::new(Instant::now()),
            beyond_plan: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Runs `f` with the blocks that no partial result holds played here under
    /// [`Mode::Replay`], and none played under [`Mode::Only`]. A plan notes the tasks of a command
    /// before any game is played, so it cannot foresee the games a result decides on: the
    /// censored games that `diff` and `flags` play again at raised limits
    /// ([`crate::analysis::limits`]). `merge`, which has the results, plays those few games
    /// itself; they are the same games wherever they are played.
    pub fn beyond_plan<T>(&self, f: impl FnOnce() -> T) -> T {
        use std::sync::atomic::Ordering;
        let before = self.beyond_plan.swap(true, Ordering::SeqCst);
        let out = f();
        self.beyond_plan.store(before, Ordering::SeqCst);
        out
    }

    /// The mode.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The mode, taken back (the tasks noted, the blocks played).
    pub fn into_mode(self) -> Mode {
        self.mode
    }

    /// The store, if any.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Whether the output the command renders is its real output (not under `Record` or
    /// `Only`, where its tallies are empty or partial).
    pub fn renders(&self) -> bool {
        matches!(self.mode, Mode::Play | Mode::Replay(_))
    }

    /// Blocks taken from the store and blocks played, so far.
    pub fn counts(&self) -> (u64, u64) {
        *self.counts.lock().expect("counts lock")
    }

    /// The key of a task's blocks.
    pub fn key(&self, task: &Task) -> Key {
        let agents: Vec<String> = task
            .lineup
            .agents()
            .iter()
            .map(ToString::to_string)
            .collect();
        let provenance: Vec<(&str, Option<(String, &str)>)> = task
            .bound
            .provenance
            .iter()
            .map(|(p, c)| {
                (
                    p.as_str(),
                    c.as_ref()
                        .map(|(class, place)| (format!("{class:?}"), place.as_str())),
                )
            })
            .collect();
        let identity = serde_json::json!({
            "ludotrace": build(),
            "corpus_hash": self.corpus_hash,
            "game": task.game,
            "reading": task.reading,
            "stream": task.spec.key,
            "values": task.bound.values,
            "provenance": provenance,
            "agents": agents,
            "swap": task.lineup.swap(),
            "seed": task.spec.seed,
            "max_plies": task.spec.max_plies,
            "max_quiet": task.spec.max_quiet,
        });
        // A measured run's blocks hold what an unmeasured one's lack: another identity.
        // (Added only when set, so that every other run keeps its key.)
        let mut identity = identity;
        if task.spec.metrics {
            identity["metrics"] = serde_json::Value::Bool(true);
        }
        Key {
            identity: blake3::hash(identity.to_string().as_bytes())
                .to_hex()
                .to_string(),
            game: task.game.to_owned(),
            reading: task.reading.to_owned(),
            overrides: serde_json::Value::Object(task.bound.overrides.clone()).to_string(),
            stream: task.spec.key,
            corpus_hash: self.corpus_hash.clone(),
            ludotrace: build(),
            agents,
            swap: task.lineup.swap(),
            seed: task.spec.seed,
            max_plies: task.spec.max_plies,
        }
    }

    fn fail(&self, message: String) {
        let mut f = self.failure.lock().expect("failure lock");
        if f.is_none() {
            *f = Some(message);
        }
    }

    /// Whether games must be kept per game: for CSV (`spec.keep_records`) or for the store's
    /// game rows (`--store-games`, under [`Mode::Play`]).
    pub fn keeps_records(&self, spec: &RunSpec) -> bool {
        spec.keep_records
            || (self.store_games
                && self.store.as_ref().is_some_and(|s| !s.read_only())
                && matches!(self.mode, Mode::Play))
    }

    /// Notes that games `games` of a task are asked for (a run, which the rows it is made
    /// of are linked to in the store), where the mode writes the store; under
    /// [`Mode::Play`], first writes what the tasks before it played. Returns the run's place
    /// among the task's runs.
    pub fn begin(&self, key: &Key, games: Range<u64>) -> Option<i64> {
        self.store.as_ref()?;
        match self.mode {
            Mode::Play => self.write(),
            Mode::Replay(_) => {}
            Mode::Record(_) | Mode::Only(..) => return None,
        }
        let mut tasks = self.tasks.lock().expect("tasks lock");
        let task = tasks
            .entry(key.identity.clone())
            .or_insert_with(|| TaskState::new(key));
        // A row taken for an earlier run of this task covers nothing of this one: this run
        // is handed its own rows, from its first block.
        task.covered = 0..0;
        let place = match task.runs.iter().position(|r| r.games == games) {
            Some(p) => {
                // Asked again: made again of what it takes now.
                task.runs[p].rows.clear();
                task.runs[p].whole = false;
                p
            }
            None => {
                task.runs.push(RunState {
                    games,
                    written: false,
                    rows: Vec::new(),
                    whole: false,
                });
                task.runs.len() - 1
            }
        };
        task.current = Some(place);
        Some(place as i64)
    }

    /// The longest stored row of `task` that starts at block `range` and ends on a block
    /// boundary of the run in play (or exactly at the block's end when no run was begun),
    /// with its games where `records` asks for them.
    fn row_for(&self, task: &mut TaskState, range: &Range<u64>, records: bool) -> Option<Row> {
        let store = self.store.as_ref()?;
        if task.stored.is_none() {
            match store.rows(&task.key.identity) {
                Ok(rows) => task.stored = Some(rows),
                Err(e) => {
                    self.fail(e.to_string());
                    task.stored = Some(Vec::new());
                }
            }
        }
        let fits = |r: &Row| match task.current.map(|c| &task.runs[c].games) {
            Some(run) => {
                let len = crate::sim::block_len(run.end - run.start);
                r.end <= run.end && (r.end == run.end || (r.end - run.start).is_multiple_of(len))
            }
            None => r.end == range.end,
        };
        task.stored
            .as_ref()?
            .iter()
            .filter(|r| r.first == range.start && r.end >= range.end)
            .filter(|r| (!records || r.has_games) && fits(r))
            .max_by_key(|r| r.end)
            .copied()
    }

    /// Where block `range` of a task comes from (called by the runner, in order), for the
    /// run `run` (see [`Exec::begin`]).
    pub fn source(
        &self,
        key: &Key,
        range: Range<u64>,
        like: &Tally,
        records: bool,
        (names, run): (Names, Option<i64>),
    ) -> Block {
        let at = (key.identity.clone(), range.start, range.end);
        match &self.mode {
            Mode::Record(tasks) => {
                let mut tasks = tasks.lock().expect("record lock");
                let info = match tasks.iter_mut().rev().find(|t| t.identity == key.identity) {
                    Some(t) => t,
                    None => {
                        tasks.push(TaskInfo {
                            identity: key.identity.clone(),
                            game: key.game.clone(),
                            reading: key.reading.clone(),
                            overrides: serde_json::from_str(&key.overrides).unwrap_or_default(),
                            stream: format!("{:016x}", key.stream),
                            seed: key.seed,
                            max_plies: key.max_plies,
                            agents: key.agents.clone(),
                            swap: key.swap,
                            blocks: Vec::new(),
                        });
                        tasks.last_mut().expect("just pushed")
                    }
                };
                if !info.blocks.contains(&(range.start, range.end)) {
                    info.blocks.push((range.start, range.end));
                }
                Block::Skip
            }
            Mode::Only(set, _) => {
                // A unit's output is discarded, and a block played beyond the plan (the
                // same game asked again) would be kept twice: `merge` plays those.
                if set.contains(&at) && !self.beyond_plan.load(std::sync::atomic::Ordering::SeqCst)
                {
                    Block::Play
                } else {
                    Block::Skip
                }
            }
            Mode::Replay(blocks) => {
                let saved = blocks.lock().expect("replay lock").remove(&at);
                match saved.map(|s| (s.clone(), s.into_tally(like, range.end - range.start))) {
                    Some((s, Ok(t))) => {
                        if self.store.is_some() {
                            let kept = s.into_tally(like, range.end - range.start);
                            let mut tasks = self.tasks.lock().expect("tasks lock");
                            let task = tasks
                                .entry(key.identity.clone())
                                .or_insert_with(|| TaskState::new(key));
                            task.names = (names.0.to_vec(), names.1.to_vec());
                            task.add(run, range, kept.expect("read back once already"));
                        }
                        Block::Have(Box::new(t))
                    }
                    Some((_, Err(e))) => {
                        self.fail(format!(
                            "the partial result for games {}..{} of {} {} does not fit its run: {e}",
                            range.start, range.end, key.game, key.reading
                        ));
                        Block::Skip
                    }
                    None if self.beyond_plan.load(std::sync::atomic::Ordering::SeqCst) => {
                        Block::Play
                    }
                    None => {
                        self.fail(format!(
                            "no partial result holds games {}..{} of {} {} (identity {})",
                            range.start, range.end, key.game, key.reading, key.identity
                        ));
                        Block::Skip
                    }
                }
            }
            Mode::Play => {
                let Some(store) = &self.store else {
                    return Block::Play;
                };
                let mut tasks = self.tasks.lock().expect("tasks lock");
                let task = tasks
                    .entry(key.identity.clone())
                    .or_insert_with(|| TaskState::new(key));
                // A block inside the row taken before it: that row's tally has its games.
                if task.covered.start <= range.start && range.end <= task.covered.end {
                    self.counts.lock().expect("counts lock").0 += 1;
                    return Block::Skip;
                }
                let Some(row) = self.row_for(task, &range, records) else {
                    return Block::Play;
                };
                let tally = store.block(&row, records).and_then(|stored| {
                    stored
                        .tally
                        .into_tally(like, row.end - row.first)
                        .and_then(|mut t| {
                            if let Some(games) = stored.games {
                                t.records = games
                                    .into_iter()
                                    .map(SavedGame::into_record)
                                    .collect::<Result<_, _>>()?;
                            }
                            Ok(t)
                        })
                        .map_err(|e| {
                            store.content(format!(
                                "a stored block of {} {} cannot be read back ({e}); remove \
                                 the store or use another --store",
                                key.game, key.reading
                            ))
                        })
                });
                match tally {
                    Ok(t) => {
                        self.counts.lock().expect("counts lock").0 += 1;
                        task.covered = row.first..row.end;
                        if let Some(c) = task.current {
                            task.taken.push((c, row.first..row.end));
                        }
                        Block::Have(Box::new(t))
                    }
                    Err(e) => {
                        self.fail(e.to_string());
                        Block::Play
                    }
                }
            }
        }
    }

    /// A block played here, `names` its event kinds and places (called by the runner as each
    /// block is played, from its worker).
    pub fn played(
        &self,
        key: &Key,
        range: Range<u64>,
        tally: &Tally,
        (names, run): (Names, Option<i64>),
    ) {
        self.counts.lock().expect("counts lock").1 += 1;
        match &self.mode {
            Mode::Only(_, kept) => kept.lock().expect("only lock").push(SavedBlock {
                identity: key.identity.clone(),
                games: (range.start, range.end),
                tally: SavedTally::from(tally),
            }),
            Mode::Play => {
                if self.store.as_ref().is_none_or(Store::read_only) {
                    return;
                }
                let mut tally = tally.clone();
                if !self.store_games {
                    tally.records = Vec::new();
                }
                {
                    let mut tasks = self.tasks.lock().expect("tasks lock");
                    let task = tasks
                        .entry(key.identity.clone())
                        .or_insert_with(|| TaskState::new(key));
                    if task.names.0.is_empty() && task.names.1.is_empty() {
                        task.names = (names.0.to_vec(), names.1.to_vec());
                    }
                    task.add(run, range, tally);
                }
                if self.written.lock().expect("written lock").elapsed() >= WRITE_EVERY {
                    self.write();
                }
            }
            Mode::Record(_) | Mode::Replay(_) => {}
        }
    }

    /// Writes what every task has waiting (the blocks played, merged into rows; the rows
    /// taken; the runs asked) to the store in one transaction.
    fn write(&self) {
        let Some(store) = &self.store else { return };
        let mut tasks = self.tasks.lock().expect("tasks lock");
        let mut batch = Vec::new();
        for task in tasks.values_mut() {
            let unwritten = task.runs.iter().any(|r| !r.written);
            if task.pending.is_empty() && task.taken.is_empty() && !unwritten {
                continue;
            }
            let mut rows: Vec<RowWrite> = Vec::new();
            for ((run, first), (end, t)) in std::mem::take(&mut task.pending) {
                if let Some(r) = task.runs.get_mut(run) {
                    r.rows.push(first..end);
                }
                rows.push(RowWrite {
                    games: first..end,
                    records: (self.store_games && !t.records.is_empty())
                        .then(|| t.records.iter().map(SavedGame::from).collect()),
                    tally: Some(SavedTally::from(&t)),
                });
            }
            for (run, games) in std::mem::take(&mut task.taken) {
                if let Some(r) = task.runs.get_mut(run) {
                    r.rows.push(games.clone());
                }
                rows.push(RowWrite {
                    games,
                    tally: None,
                    records: None,
                });
            }
            // Each run not yet whole, with its rows once they make it whole (then its links
            // are replaced by them: another process's rows of the same games may be linked).
            let runs: Vec<store::RunWrite> = task
                .runs
                .iter_mut()
                .filter(|r| !r.whole)
                .map(|r| {
                    r.written = true;
                    let have: u64 = r.rows.iter().map(|g| g.end - g.start).sum();
                    r.whole = have == r.games.end - r.games.start;
                    (r.games.clone(), r.whole.then(|| r.rows.clone()))
                })
                .collect();
            // Rows written here may be taken by a later run of this process.
            task.stored = None;
            batch.push((task.key.clone(), task.names.clone(), runs, rows));
        }
        let writes: Vec<TaskWrite> = batch
            .iter_mut()
            .map(|(key, names, runs, rows)| TaskWrite {
                key,
                names: (&names.0, &names.1),
                runs: std::mem::take(runs),
                rows: std::mem::take(rows),
            })
            .collect();
        if let Err(e) = store.write(&writes) {
            self.fail(e.to_string());
        }
        *self.written.lock().expect("written lock") = Instant::now();
    }

    /// Stores what a merge replayed (see [`Exec::begin`]): called once the merge is known to
    /// be whole.
    ///
    /// # Errors
    /// The store's.
    pub fn commit(&self) -> Result<(), ExecError> {
        self.write();
        match self.failure.lock().expect("failure lock").take() {
            Some(m) => Err(ExecError(m)),
            None => Ok(()),
        }
    }

    /// The first problem met, if any: the command's result is not to be trusted (or, for a
    /// store, not all of it was kept).
    ///
    /// # Errors
    /// That problem, as a usage or input error.
    pub fn finish(&self) -> Result<(), ExecError> {
        if matches!(self.mode, Mode::Play) {
            self.write();
        }
        match self.failure.lock().expect("failure lock").take() {
            Some(m) => Err(ExecError(m)),
            None => Ok(()),
        }
    }
}
