//! The results store: every block of games a command plays, kept in one SQLite file (rusqlite,
//! SQLite compiled in) under the block's identity, so that an interrupted run resumes where it
//! stopped, a rerun prints the same bytes without playing again, and anyone can query the
//! results from R or pandas.
//!
//! The store owns its schema ([`SCHEMA`], documented in the README and by `ludotrace
//! schema`), and nothing else: what a block's identity covers and when a block may be taken
//! is decided by the caller (`cli::exec`), which hands it a [`Key`]. Each block is written in
//! its own transaction, so a process killed mid-run leaves every finished block and no half of
//! one. Two processes may share a store: SQLite's write-ahead log lets readers go on while one
//! writes, writers wait their turn (a busy timeout), and a block two processes both played is
//! the same block (the identity decides its games), so the second write is a no-op.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use crate::sim::saved::{Invalid, SavedGame, SavedTally};

/// The store's schema version (`meta.schema_version`): raised when a table or column is
/// renamed or redefined; columns and tables are only ever added under one version.
pub const STORE_SCHEMA_VERSION: u32 = 1;

/// The schema, as SQL (what a new store is created with).
pub const SCHEMA: &str = "\
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,  -- 'schema_version'
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS blocks (
  id          INTEGER PRIMARY KEY,
  identity    TEXT NOT NULL,     -- BLAKE3 of all a block's games depend on (below, plus every parameter value and flag place)
  first_game  INTEGER NOT NULL,  -- the block is games first_game .. end_game - 1 of its run
  end_game    INTEGER NOT NULL,
  game        TEXT NOT NULL,     -- game id
  reading     TEXT NOT NULL,     -- interpretation id
  overrides   TEXT NOT NULL,     -- JSON object: --set, --choose and --each-option values, parameter -> value
  stream      TEXT NOT NULL,     -- the random streams' key, 16 hex digits (a diff arm and a design row have their own)
  corpus_hash TEXT NOT NULL,     -- BLAKE3 of the corpus files
  ludotrace   TEXT NOT NULL,     -- version and build that played it
  agents      TEXT NOT NULL,     -- JSON array: the --agents list as given
  swap        INTEGER NOT NULL,  -- 1 when the agents rotated over the seats game by game
  seed        INTEGER NOT NULL,  -- run seed (seeds above 2^63-1 as their two's-complement)
  max_plies   INTEGER NOT NULL,
  games       INTEGER NOT NULL,  -- games in the block
  wins        TEXT NOT NULL,     -- JSON array: wins by seat (seat 1 first)
  draws       INTEGER NOT NULL,
  timeouts    INTEGER NOT NULL,
  capped      INTEGER NOT NULL,
  plies       INTEGER NOT NULL,  -- plies summed over the block's games
  tally       TEXT NOT NULL,     -- JSON: the block's full tally (histograms, events by kind index)
  event_names TEXT NOT NULL,     -- JSON array: the event kinds, by the tally's index
  place_names TEXT NOT NULL,     -- JSON array: the uncovered places, by the tally's index
  has_games   INTEGER NOT NULL,  -- 1 when the block's games have rows in `games` (--store-games)
  created     TEXT NOT NULL,     -- when it was written, UTC
  UNIQUE (identity, first_game, end_game)
);
CREATE TABLE IF NOT EXISTS games (
  block       INTEGER NOT NULL REFERENCES blocks (id),
  game_index  INTEGER NOT NULL,  -- the game's index in its run
  outcome     TEXT NOT NULL,     -- win, draw or timeout
  winner      INTEGER,           -- the winning seat (1-based) when one seat won
  winners     TEXT NOT NULL,     -- JSON array of winning seats (1-based)
  end_reason  TEXT NOT NULL,     -- natural, all-pass-draw, repetition, turn-cap, move-cap, cycle, endless; for a timeout ply-limit, cycle or endless
  first_mover INTEGER,           -- the seat (1-based) that made the first decision of play
  plies       INTEGER NOT NULL,
  turns       INTEGER NOT NULL,
  passes      INTEGER NOT NULL,
  score1      INTEGER,           -- final scores, where the game scores (NULL for a timeout)
  score2      INTEGER,
  ranks       TEXT,              -- JSON array of places by seat, where the game ranks its players
  events      TEXT NOT NULL,     -- JSON object: event kind -> occurrences (kinds that occurred)
  flags       TEXT NOT NULL,     -- JSON object: uncovered place -> occurrences (places flagged)
  PRIMARY KEY (block, game_index)
);
CREATE TABLE IF NOT EXISTS runs (
  id          INTEGER PRIMARY KEY,
  identity    TEXT NOT NULL,     -- the identity of its blocks
  first_game  INTEGER NOT NULL,  -- the games a command asked for: first_game .. end_game - 1
  end_game    INTEGER NOT NULL,
  blocks      INTEGER NOT NULL,  -- the blocks they are played in
  game        TEXT NOT NULL,
  reading     TEXT NOT NULL,
  overrides   TEXT NOT NULL,
  stream      TEXT NOT NULL,
  corpus_hash TEXT NOT NULL,
  ludotrace   TEXT NOT NULL,
  agents      TEXT NOT NULL,
  swap        INTEGER NOT NULL,
  seed        INTEGER NOT NULL,
  max_plies   INTEGER NOT NULL,
  created     TEXT NOT NULL,     -- when it was first asked for, UTC
  UNIQUE (identity, first_game, end_game)
);
CREATE TABLE IF NOT EXISTS run_blocks (  -- which blocks make up which run (runs may share blocks)
  run   INTEGER NOT NULL REFERENCES runs (id),
  block INTEGER NOT NULL REFERENCES blocks (id),
  PRIMARY KEY (run, block)
);
-- One row per run, its blocks summed: each game counted once (blocks of runs of other sizes
-- may overlap, so sum blocks through a run, not by identity). `complete` is 0 for a run that
-- was interrupted before all its blocks were stored.
CREATE VIEW IF NOT EXISTS results AS
  SELECT runs.id AS run, runs.identity, runs.game, runs.reading, runs.overrides, runs.stream,
         runs.corpus_hash, runs.ludotrace, runs.agents, runs.swap, runs.seed, runs.max_plies,
         runs.first_game, runs.end_game, runs.created,
         COUNT(blocks.id) = runs.blocks AS complete,
         SUM(blocks.games) AS games,
         SUM(json_extract(blocks.wins, '$[0]')) AS p1_wins,
         SUM(json_extract(blocks.wins, '$[1]')) AS p2_wins,
         SUM(blocks.draws) AS draws, SUM(blocks.timeouts) AS timeouts,
         SUM(blocks.capped) AS capped, SUM(blocks.plies) AS plies
  FROM runs JOIN run_blocks ON run_blocks.run = runs.id
            JOIN blocks ON blocks.id = run_blocks.block
  GROUP BY runs.id;
";

/// What a block is stored under: its identity and the inputs it is made of, in columns a
/// query can select on.
#[derive(Debug, Clone)]
pub struct Key {
    /// BLAKE3 (hex) of everything the block's games depend on.
    pub identity: String,
    /// Game id.
    pub game: String,
    /// Interpretation id.
    pub reading: String,
    /// Overrides, as a JSON object.
    pub overrides: String,
    /// The streams' key.
    pub stream: u64,
    /// BLAKE3 of the corpus.
    pub corpus_hash: String,
    /// Version and build.
    pub ludotrace: String,
    /// The `--agents` list.
    pub agents: Vec<String>,
    /// `--swap`.
    pub swap: bool,
    /// Run seed.
    pub seed: u64,
    /// Ply limit.
    pub max_plies: u32,
}

/// The columns of a [`Key`] that `blocks` and `runs` both carry, in [`Key::values`]' order.
const KEY_COLUMNS: &str = "identity, game, reading, overrides, stream, corpus_hash, ludotrace, agents, swap, seed, max_plies";

impl Key {
    /// The values of [`KEY_COLUMNS`], for a statement's parameters.
    fn values(&self) -> Vec<Box<dyn rusqlite::ToSql + '_>> {
        vec![
            Box::new(&self.identity),
            Box::new(&self.game),
            Box::new(&self.reading),
            Box::new(&self.overrides),
            Box::new(format!("{:016x}", self.stream)),
            Box::new(&self.corpus_hash),
            Box::new(&self.ludotrace),
            Box::new(serde_json::to_string(&self.agents).expect("strings serialise")),
            Box::new(self.swap),
            // SQLite's integers are signed: a seed above 2^63 - 1 as its two's complement.
            Box::new(self.seed as i64),
            Box::new(self.max_plies),
        ]
    }
}

/// `INSERT INTO table (KEY_COLUMNS, more…, created) VALUES (?, …, now)`, a row once per
/// identity and range of games.
fn insert_keyed(table: &str, more: &[&str]) -> String {
    let marks = vec!["?"; 11 + more.len()].join(", ");
    format!(
        "INSERT INTO {table} ({KEY_COLUMNS}, {}, created) VALUES ({marks}, \
         strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) \
         ON CONFLICT (identity, first_game, end_game) DO NOTHING",
        more.join(", ")
    )
}

/// A block as stored.
#[derive(Debug, Clone)]
pub struct StoredBlock {
    /// Its tally.
    pub tally: SavedTally,
    /// Its games, in order, when they were stored.
    pub games: Option<Vec<SavedGame>>,
}

/// A store that cannot be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("results store {path}: {message}")]
    Sqlite {
        /// The store file.
        path: PathBuf,
        /// SQLite's message, with what was being done.
        message: String,
    },
    /// The file holds something this version cannot read.
    #[error("results store {path}: {message}")]
    Content {
        /// The store file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// An open results store.
pub struct Store {
    path: PathBuf,
    // A connection is used from one thread at a time: the runner asks and tells the store
    // from the calling thread, between windows of blocks.
    conn: Mutex<Connection>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

impl Store {
    /// Opens the store at `path`, creating it (and its directory) if it does not exist.
    ///
    /// # Errors
    /// A directory that cannot be made, a file that is not SQLite, a store of a later schema.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let err = |what: &str, e: &dyn std::fmt::Display| StoreError::Sqlite {
            path: path.to_owned(),
            message: format!("{what}: {e}"),
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| err("cannot create its directory", &e))?;
        }
        let conn = Connection::open(path).map_err(|e| err("cannot open", &e))?;
        // Writers wait for each other (two processes on one store) rather than fail.
        conn.busy_timeout(std::time::Duration::from_secs(300))
            .map_err(|e| err("cannot set the busy timeout", &e))?;
        // Another program's database is never written to: a file with tables must already
        // be a store (a new store's tables and version are made in one transaction, so a
        // second process sees all of them or none).
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
            .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
            .map_err(|e| err("not a SQLite database", &e))?;
        if !tables.is_empty() {
            let ours: Option<String> = conn
                .query_row(
                    "SELECT value FROM meta WHERE key = 'schema_version'",
                    [],
                    |r| r.get(0),
                )
                .optional()
                .ok()
                .flatten();
            if ours.is_none() || !tables.iter().any(|t| t == "blocks") {
                return Err(StoreError::Content {
                    path: path.to_owned(),
                    message: format!(
                        "a SQLite database that is not a ludotrace results store (its tables: \
                         {}); give --store a new file or a store",
                        tables.join(", ")
                    ),
                });
            }
        }
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| err("cannot use a write-ahead log", &e))?;
        // A transaction is durable once committed: the point of a store that survives kills.
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| err("cannot set synchronous", &e))?;
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; {SCHEMA} INSERT OR IGNORE INTO meta VALUES ('schema_version', '{STORE_SCHEMA_VERSION}'); COMMIT;"
        ))
        .map_err(|e| err("cannot create the schema", &e))?;
        let version: String = conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| err("cannot read its schema version", &e))?;
        if version != STORE_SCHEMA_VERSION.to_string() {
            return Err(StoreError::Content {
                path: path.to_owned(),
                message: format!(
                    "schema version {version}, this ludotrace reads version \
                     {STORE_SCHEMA_VERSION}: use another --store, or a ludotrace that reads it"
                ),
            });
        }
        Ok(Store {
            path: path.to_owned(),
            conn: Mutex::new(conn),
        })
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn sqlite(&self, what: &str, e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.path.clone(),
            message: format!("{what}: {e}"),
        }
    }

    fn content(&self, what: String) -> StoreError {
        StoreError::Content {
            path: self.path.clone(),
            message: what,
        }
    }

    /// The block `games` of `identity`, if stored; with its games only where `with_games`
    /// asks and they were stored (else `None`: the block must be played again to have them).
    ///
    /// # Errors
    /// SQLite's, or a row this version cannot read back.
    pub fn get(
        &self,
        identity: &str,
        games: std::ops::Range<u64>,
        with_games: bool,
    ) -> Result<Option<StoredBlock>, StoreError> {
        let conn = self.conn.lock().expect("store lock");
        // Statements are prepared once per connection (cached): a run asks once a block.
        let row: Option<(i64, String, String, String, bool)> = conn
            .prepare_cached(
                "SELECT id, tally, event_names, place_names, has_games FROM blocks \
                 WHERE identity = ?1 AND first_game = ?2 AND end_game = ?3",
            )
            .and_then(|mut st| {
                st.query_row(
                    params![identity, games.start as i64, games.end as i64],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
                )
                .optional()
            })
            .map_err(|e| self.sqlite("cannot read a block", e))?;
        let Some((id, tally, kinds, places, has_games)) = row else {
            return Ok(None);
        };
        if with_games && !has_games {
            return Ok(None);
        }
        let bad = |what: &str, e: &dyn std::fmt::Display| {
            self.content(format!("block {id} ({identity}): {what}: {e}"))
        };
        let tally: SavedTally = serde_json::from_str(&tally).map_err(|e| bad("its tally", &e))?;
        if tally.games != games.end - games.start {
            return Err(bad(
                "its tally",
                &format!(
                    "{} games for a block of {}",
                    tally.games,
                    games.end - games.start
                ),
            ));
        }
        if !with_games {
            return Ok(Some(StoredBlock { tally, games: None }));
        }
        let kinds: Vec<String> =
            serde_json::from_str(&kinds).map_err(|e| bad("its event names", &e))?;
        let places: Vec<String> =
            serde_json::from_str(&places).map_err(|e| bad("its place names", &e))?;
        let mut stmt = conn
            .prepare(
                "SELECT game_index, outcome, winners, end_reason, first_mover, plies, turns, \
                 passes, score1, score2, ranks, events, flags FROM games WHERE block = ?1 \
                 ORDER BY game_index",
            )
            .map_err(|e| self.sqlite("cannot read games", e))?;
        let rows = stmt
            .query_map([id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    (
                        r.get::<_, i64>(5)?,
                        r.get::<_, i64>(6)?,
                        r.get::<_, i64>(7)?,
                    ),
                    (r.get::<_, Option<i64>>(8)?, r.get::<_, Option<i64>>(9)?),
                    r.get::<_, Option<String>>(10)?,
                    r.get::<_, String>(11)?,
                    r.get::<_, String>(12)?,
                ))
            })
            .map_err(|e| self.sqlite("cannot read games", e))?;
        let mut out = Vec::new();
        for row in rows {
            let (
                index,
                outcome,
                winners,
                end,
                first,
                (plies, turns, passes),
                scores,
                ranks,
                ev,
                fl,
            ) = row.map_err(|e| self.sqlite("cannot read a game", e))?;
            let game = (|| -> Result<SavedGame, String> {
                let (outcome, end) = SavedGame::names(&outcome, &end).map_err(|Invalid(e)| e)?;
                let winners: Vec<u8> = serde_json::from_str(&winners).map_err(|e| e.to_string())?;
                let counts = |text: &str, names: &[String]| -> Result<Vec<u64>, String> {
                    let map: std::collections::BTreeMap<String, u64> =
                        serde_json::from_str(text).map_err(|e| e.to_string())?;
                    if let Some(k) = map.keys().find(|k| !names.contains(k)) {
                        return Err(format!("`{k}` is not one of the block's names"));
                    }
                    Ok(names
                        .iter()
                        .map(|n| map.get(n).copied().unwrap_or(0))
                        .collect())
                };
                let num = |v: i64| u32::try_from(v).map_err(|e| e.to_string());
                Ok(SavedGame {
                    index: u64::try_from(index).map_err(|e| e.to_string())?,
                    outcome,
                    winners: winners
                        .iter()
                        .map(|&s| s.checked_sub(1).ok_or("seat 0 in winners"))
                        .collect::<Result<_, _>>()?,
                    end,
                    first_mover: first
                        .map(|s| u8::try_from(s - 1).map_err(|e| e.to_string()))
                        .transpose()?,
                    plies: num(plies)?,
                    turns: num(turns)?,
                    passes: num(passes)?,
                    scores: match scores {
                        (Some(a), Some(b)) => Some([num(a)?, num(b)?]),
                        _ => None,
                    },
                    ranks: ranks
                        .map(|r| -> Result<[u8; 8], String> {
                            let v: Vec<u8> = serde_json::from_str(&r).map_err(|e| e.to_string())?;
                            let mut a = [0u8; 8];
                            if v.len() > 8 {
                                return Err("more than 8 ranks".to_owned());
                            }
                            a[..v.len()].copy_from_slice(&v);
                            Ok(a)
                        })
                        .transpose()?,
                    events: counts(&ev, &kinds)?
                        .into_iter()
                        .map(|c| u32::try_from(c).map_err(|e| e.to_string()))
                        .collect::<Result<_, _>>()?,
                    flags: counts(&fl, &places)?,
                })
            })()
            .map_err(|e| bad(&format!("game {index}"), &e))?;
            out.push(game);
        }
        if out.len() as u64 != games.end - games.start {
            return Ok(None);
        }
        Ok(Some(StoredBlock {
            tally,
            games: Some(out),
        }))
    }

    /// Notes that a command asks for games `games` of `key`, played in `blocks` blocks: a
    /// run, which its blocks are linked to as they are stored or taken. Returns its id.
    ///
    /// # Errors
    /// SQLite's.
    pub fn begin_run(
        &self,
        key: &Key,
        games: std::ops::Range<u64>,
        blocks: u64,
    ) -> Result<i64, StoreError> {
        let conn = self.conn.lock().expect("store lock");
        let mut values = key.values();
        values.extend(
            [games.start as i64, games.end as i64, blocks as i64].map(|v| {
                let v: Box<dyn rusqlite::ToSql> = Box::new(v);
                v
            }),
        );
        conn.prepare_cached(&insert_keyed("runs", &["first_game", "end_game", "blocks"]))
            .and_then(|mut st| st.execute(rusqlite::params_from_iter(values)))
            .map_err(|e| self.sqlite("cannot write a run", e))?;
        conn.query_row(
            "SELECT id FROM runs WHERE identity = ?1 AND first_game = ?2 AND end_game = ?3",
            params![key.identity, games.start as i64, games.end as i64],
            |r| r.get(0),
        )
        .map_err(|e| self.sqlite("cannot read back a run", e))
    }

    /// Links a stored block to a run (a block taken from the store for it).
    ///
    /// # Errors
    /// SQLite's.
    pub fn link(
        &self,
        run: i64,
        identity: &str,
        range: std::ops::Range<u64>,
    ) -> Result<(), StoreError> {
        let conn = self.conn.lock().expect("store lock");
        conn.execute(
            "INSERT OR IGNORE INTO run_blocks (run, block) SELECT ?1, id FROM blocks \
             WHERE identity = ?2 AND first_game = ?3 AND end_game = ?4",
            params![run, identity, range.start as i64, range.end as i64],
        )
        .map(|_| ())
        .map_err(|e| self.sqlite("cannot link a block to its run", e))
    }

    /// Stores block `range` of `key` in one transaction: its tally, and its games when
    /// given, linked to `run`. A block already stored is kept (the same identity plays the
    /// same games); its games are added if it had none.
    ///
    /// # Errors
    /// SQLite's.
    pub fn put(
        &self,
        key: &Key,
        range: std::ops::Range<u64>,
        tally: &SavedTally,
        names: (&[String], &[String]),
        games: Option<&[SavedGame]>,
        run: Option<i64>,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn.lock().expect("store lock");
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| self.sqlite("cannot begin a transaction", e))?;
        let json = |v: &dyn erased::Json| v.json();
        let plies: u64 = tally.plies.iter().map(|&(v, c)| u64::from(v) * c).sum();
        let mut values = key.values();
        let more: [Box<dyn rusqlite::ToSql>; 12] = [
            Box::new(range.start as i64),
            Box::new(range.end as i64),
            Box::new(tally.games as i64),
            Box::new(json(&tally.wins)),
            Box::new(tally.draws as i64),
            Box::new(tally.timeouts as i64),
            Box::new(tally.capped as i64),
            Box::new(plies as i64),
            Box::new(json(tally)),
            Box::new(json(&names.0)),
            Box::new(json(&names.1)),
            Box::new(false),
        ];
        values.extend(more);
        tx.prepare_cached(&insert_keyed(
            "blocks",
            &[
                "first_game",
                "end_game",
                "games",
                "wins",
                "draws",
                "timeouts",
                "capped",
                "plies",
                "tally",
                "event_names",
                "place_names",
                "has_games",
            ],
        ))
        .and_then(|mut st| st.execute(rusqlite::params_from_iter(values)))
        .map_err(|e| self.sqlite("cannot write a block", e))?;
        let (id, has): (i64, bool) = tx
            .prepare_cached(
                "SELECT id, has_games FROM blocks WHERE identity = ?1 AND first_game = ?2 \
                     AND end_game = ?3",
            )
            .and_then(|mut st| {
                st.query_row(
                    params![key.identity, range.start as i64, range.end as i64],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
            })
            .map_err(|e| self.sqlite("cannot read back a block", e))?;
        if let Some(run) = run {
            tx.prepare_cached("INSERT OR IGNORE INTO run_blocks (run, block) VALUES (?1, ?2)")
                .and_then(|mut st| st.execute([run, id]))
                .map_err(|e| self.sqlite("cannot link a block to its run", e))?;
        }
        if let Some(games) = games
            && !has
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO games (block, game_index, outcome, winner, \
                     winners, end_reason, first_mover, plies, turns, passes, score1, score2, \
                     ranks, events, flags) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, \
                     ?11, ?12, ?13, ?14, ?15)",
                )
                .map_err(|e| self.sqlite("cannot write games", e))?;
            let named = |counts: &mut dyn Iterator<Item = u64>, names: &[String]| {
                let map: serde_json::Map<String, serde_json::Value> = names
                    .iter()
                    .zip(counts)
                    .filter(|&(_, c)| c > 0)
                    .map(|(n, c)| (n.clone(), c.into()))
                    .collect();
                serde_json::Value::Object(map).to_string()
            };
            for g in games {
                let winners: Vec<u8> = g.winners.iter().map(|s| s + 1).collect();
                stmt.execute(params![
                    id,
                    g.index as i64,
                    g.outcome,
                    (winners.len() == 1).then(|| winners[0]),
                    json(&winners),
                    g.end,
                    g.first_mover.map(|s| s + 1),
                    g.plies,
                    g.turns,
                    g.passes,
                    g.scores.map(|s| s[0]),
                    g.scores.map(|s| s[1]),
                    g.ranks.map(|r| {
                        let n = r.iter().rposition(|&k| k != 0).map_or(0, |i| i + 1);
                        json(&r[..n].to_vec())
                    }),
                    named(&mut g.events.iter().map(|&c| u64::from(c)), names.0),
                    named(&mut g.flags.iter().copied(), names.1),
                ])
                .map_err(|e| self.sqlite("cannot write a game", e))?;
            }
            drop(stmt);
            tx.execute("UPDATE blocks SET has_games = 1 WHERE id = ?1", [id])
                .map_err(|e| self.sqlite("cannot mark a block's games", e))?;
        }
        tx.commit()
            .map_err(|e| self.sqlite("cannot commit a block", e))
    }

    /// How many blocks of `identity` are stored (for tests and progress).
    ///
    /// # Errors
    /// SQLite's.
    pub fn blocks_of(&self, identity: &str) -> Result<u64, StoreError> {
        let conn = self.conn.lock().expect("store lock");
        conn.query_row(
            "SELECT COUNT(*) FROM blocks WHERE identity = ?1",
            [identity],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n as u64)
        .map_err(|e| self.sqlite("cannot count blocks", e))
    }
}

/// JSON text of the few value types the store writes, without a generic closure.
mod erased {
    pub trait Json {
        fn json(&self) -> String;
    }

    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).expect("store values serialise")
        }
    }
}

/// The default store: `ludotrace/results.sqlite` in the user's data directory
/// (`$XDG_DATA_HOME`, else `~/.local/share`; `%APPDATA%` on Windows), or `None` where no
/// home is known.
pub fn default_path() -> Option<PathBuf> {
    let nonempty = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        nonempty("APPDATA")
    } else {
        nonempty("XDG_DATA_HOME").or_else(|| nonempty("HOME").map(|h| h.join(".local/share")))
    }?;
    Some(base.join("ludotrace").join("results.sqlite"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Key {
        Key {
            identity: "abc".into(),
            game: "g".into(),
            reading: "r".into(),
            overrides: "{}".into(),
            stream: 7,
            corpus_hash: "h".into(),
            ludotrace: "v".into(),
            agents: vec!["random".into()],
            swap: false,
            seed: u64::MAX,
            max_plies: 10,
        }
    }

    fn tally(games: u64) -> SavedTally {
        SavedTally {
            games,
            wins: vec![games, 0],
            first_moves: vec![games, 0],
            order_wins: vec![games, 0],
            draws: 0,
            timeouts: 0,
            timeouts_by_reason: vec![],
            ranks: vec![],
            capped: 0,
            ends: vec![("natural".into(), games)],
            plies: vec![(5, games)],
            turns: vec![(5, games)],
            passes: vec![(0, games)],
            decisions: 5 * games,
            legal: 10 * games,
            events: vec![(1, 2)],
            uncovered: vec![],
            event_squares: vec![4],
            uncovered_squares: vec![],
            agents: vec![],
        }
    }

    #[test]
    fn blocks_and_games_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/store.sqlite");
        let store = Store::open(&path).unwrap();
        let names = (vec!["sow".to_owned()], vec![]);
        assert!(store.get("abc", 0..2, false).unwrap().is_none());
        let run = store.begin_run(&key(), 0..2, 1).unwrap();
        assert_eq!(store.begin_run(&key(), 0..2, 1).unwrap(), run);
        store
            .put(&key(), 0..2, &tally(2), (&names.0, &names.1), None, None)
            .unwrap();
        let got = store.get("abc", 0..2, false).unwrap().unwrap();
        assert_eq!(got.tally, tally(2));
        // Without games stored, a caller that needs them must play the block again.
        assert!(store.get("abc", 0..2, true).unwrap().is_none());
        let game = |index| SavedGame {
            index,
            outcome: "win",
            winners: vec![0],
            end: "natural",
            first_mover: Some(1),
            plies: 5,
            turns: 5,
            passes: 0,
            scores: Some([3, 1]),
            ranks: None,
            events: vec![2],
            flags: vec![],
        };
        let games = [game(0), game(1)];
        store
            .put(
                &key(),
                0..2,
                &tally(2),
                (&names.0, &names.1),
                Some(&games),
                Some(run),
            )
            .unwrap();
        let got = store.get("abc", 0..2, true).unwrap().unwrap();
        assert_eq!(got.games.unwrap(), games.to_vec());
        assert_eq!(store.blocks_of("abc").unwrap(), 1);
        // Reopening finds it; the view sums it.
        drop(store);
        let store = Store::open(&path).unwrap();
        let conn = store.conn.lock().unwrap();
        let (games, seed): (i64, i64) = conn
            .query_row("SELECT games, seed FROM results", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((games, seed as u64), (2, u64::MAX));
    }

    #[test]
    fn another_programs_database_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.db");
        let other = Connection::open(&path).unwrap();
        other
            .execute_batch("CREATE TABLE meta (key TEXT, value TEXT); CREATE TABLE notes (t TEXT);")
            .unwrap();
        drop(other);
        let before = std::fs::read(&path).unwrap();
        let e = Store::open(&path).unwrap_err().to_string();
        assert!(
            e.contains("not a ludotrace results store") && e.contains("notes"),
            "{e}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before, "not written to");
    }

    #[test]
    fn a_file_that_is_not_a_store_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(
            &path,
            "this is not SQLite, and it is long enough to have a header",
        )
        .unwrap();
        let e = Store::open(&path).unwrap_err().to_string();
        assert!(e.contains("notes.txt"), "{e}");
    }
}
