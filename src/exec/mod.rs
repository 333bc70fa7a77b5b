//! How a command's games get played: the one door every command that plays (`run`, `diff`,
//! `flags`, `report`, `site`) goes through, block by block.
//!
//! A command describes each reading it plays as a [`Task`] and asks [`Exec::play`] for the
//! tally of some of its games. What happens to each block of those games depends on the
//! mode, which the command never sees:
//! - [`Mode::Play`]: blocks found in the results store are taken from it, the others played
//!   and each written to the store as it finishes (one transaction a block);
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

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

pub mod store;
#[cfg(test)]
mod tests;
pub mod units;

use crate::agents::Lineup;
use crate::bind::Bound;
use crate::sim::saved::{SavedGame, SavedTally};
use crate::sim::{Block, RunSpec, Tally};
use store::{Key, Store, StoreError};

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
    /// Under [`Mode::Replay`], the runs and blocks to store once the merge is known to be
    /// whole ([`Exec::commit`]): a merge that fails writes nothing.
    pending: Mutex<Vec<Pending>>,
}

/// A run replayed from partial results, waiting to be stored.
struct Pending {
    key: Key,
    games: Range<u64>,
    blocks: Vec<PendingBlock>,
}

/// A block of a [`Pending`] run: its games, its tally, its event kinds and places.
type PendingBlock = (Range<u64>, SavedTally, Vec<String>, Vec<String>);

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
            pending: Mutex::new(Vec::new()),
        }
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
        });
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
            || (self.store_games && self.store.is_some() && matches!(self.mode, Mode::Play))
    }

    /// Notes in the store that games `games` of a task are asked for (a run its blocks are
    /// linked to), where the mode writes the store. Returns the run's id (under
    /// [`Mode::Replay`], its place among the runs waiting for [`Exec::commit`]).
    pub fn begin(&self, key: &Key, games: Range<u64>) -> Option<i64> {
        let store = self.store.as_ref()?;
        match self.mode {
            Mode::Play => {}
            Mode::Replay(_) => {
                let mut pending = self.pending.lock().expect("pending lock");
                pending.push(Pending {
                    key: key.clone(),
                    games,
                    blocks: Vec::new(),
                });
                return Some(pending.len() as i64 - 1);
            }
            Mode::Record(_) | Mode::Only(..) => return None,
        }
        let blocks = crate::sim::block_ranges(games.clone()).count() as u64;
        match store.begin_run(key, games, blocks) {
            Ok(id) => Some(id),
            Err(e) => {
                self.fail(e.to_string());
                None
            }
        }
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
                if set.contains(&at) {
                    Block::Play
                } else {
                    Block::Skip
                }
            }
            Mode::Replay(blocks) => {
                let saved = blocks.lock().expect("replay lock").remove(&at);
                match saved.map(|s| (s.clone(), s.into_tally(like, range.end - range.start))) {
                    Some((s, Ok(t))) => {
                        if let Some(run) = run {
                            self.pending.lock().expect("pending lock")[run as usize]
                                .blocks
                                .push((range, s, names.0.to_vec(), names.1.to_vec()));
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
                match store.get(&key.identity, range.clone(), records) {
                    Ok(None) => Block::Play,
                    Ok(Some(stored)) => {
                        let tally = stored
                            .tally
                            .into_tally(like, range.end - range.start)
                            .and_then(|mut t| {
                                if let Some(games) = stored.games {
                                    t.records = games
                                        .into_iter()
                                        .map(SavedGame::into_record)
                                        .collect::<Result<_, _>>()?;
                                }
                                Ok(t)
                            });
                        match tally {
                            Ok(t) => {
                                self.counts.lock().expect("counts lock").0 += 1;
                                if let Some(run) = run
                                    && let Err(e) = store.link(run, &key.identity, range)
                                {
                                    self.fail(e.to_string());
                                }
                                Block::Have(Box::new(t))
                            }
                            Err(e) => {
                                self.fail(format!(
                                    "results store {}: a stored block of {} {} cannot be read \
                                     back ({e}); remove the store or use another --store",
                                    store.path().display(),
                                    key.game,
                                    key.reading
                                ));
                                Block::Play
                            }
                        }
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
            Mode::Play => self.put(key, range, tally, names, run),
            Mode::Record(_) | Mode::Replay(_) => {}
        }
    }

    /// Writes a block to the store, if there is one.
    fn put(&self, key: &Key, range: Range<u64>, tally: &Tally, names: Names, run: Option<i64>) {
        let Some(store) = &self.store else { return };
        let games: Option<Vec<SavedGame>> = (self.store_games && !tally.records.is_empty())
            .then(|| tally.records.iter().map(SavedGame::from).collect());
        if let Err(e) = store.put(
            key,
            range,
            &SavedTally::from(tally),
            names,
            games.as_deref(),
            run,
        ) {
            self.fail(e.to_string());
        }
    }

    /// Stores what a merge replayed (see [`Exec::begin`]): called once the merge is known to
    /// be whole.
    ///
    /// # Errors
    /// The store's.
    pub fn commit(&self) -> Result<(), ExecError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let store_err = |e: StoreError| ExecError(e.to_string());
        for run in self.pending.lock().expect("pending lock").drain(..) {
            let blocks = crate::sim::block_ranges(run.games.clone()).count() as u64;
            let id = store
                .begin_run(&run.key, run.games, blocks)
                .map_err(store_err)?;
            for (range, tally, kinds, places) in run.blocks {
                store
                    .put(&run.key, range, &tally, (&kinds, &places), None, Some(id))
                    .map_err(store_err)?;
            }
        }
        Ok(())
    }

    /// The first problem met, if any: the command's result is not to be trusted (or, for a
    /// store, not all of it was kept).
    ///
    /// # Errors
    /// That problem, as a usage or input error.
    pub fn finish(&self) -> Result<(), ExecError> {
        match self.failure.lock().expect("failure lock").take() {
            Some(m) => Err(ExecError(m)),
            None => Ok(()),
        }
    }
}
