//! The results store: the games a command plays, kept in one SQLite file (rusqlite, SQLite
//! compiled in) under their task's identity and range of game indices, so that an
//! interrupted run resumes where it stopped, a rerun prints the same bytes without playing
//! again, and anyone can query the results from R or pandas.
//!
//! The store owns its schema ([`SCHEMA`], documented in the guide and by `ludotrace
//! schema`), and nothing else: what a task's identity covers, which stored rows a run may
//! take and how the blocks the runner plays are gathered into rows is decided by the
//! executor (`exec`), which hands it a [`Key`] and a batch of writes ([`TaskWrite`]). A task's
//! key columns and names are kept once (`tasks`); a row of `blocks` holds the tally of any
//! number of consecutive games of it (the executor merges the runner's blocks before they are
//! written), so the store grows with the rows written, not with the runner's blocks. A batch
//! is one transaction, so a process killed mid-run leaves whole rows and no half of one. Two
//! processes may share a store: SQLite's write-ahead log lets readers go on while one
//! writes, writers wait their turn (a busy timeout), and a row two processes both wrote is
//! the same games (the identity decides them), so the second write is a no-op.
//!
//! A store this process may not write (a read-only file or directory, an archive) is opened
//! read-only: it gives what it holds and takes nothing ([`Store::read_only`]).

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use crate::sim::saved::{Invalid, SavedGame, SavedTally};

/// The store's schema version (`meta.schema_version`): raised when a table or column is
/// renamed or redefined; columns and tables are only ever added under one version. Version 2
/// keeps a task's key once (`tasks`) and a row of `blocks` per range of consecutive games.
pub const STORE_SCHEMA_VERSION: u32 = 2;

/// The schema, as SQL (what a new store is created with).
pub const SCHEMA: &str = "\
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,  -- 'schema_version'
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tasks (  -- one reading's games as a command plays them: what its rows depend on
  id          INTEGER PRIMARY KEY,
  identity    TEXT NOT NULL UNIQUE,  -- BLAKE3 of all its games depend on (below, plus every parameter value and flag place)
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
  event_names TEXT NOT NULL,     -- JSON array: the event kinds, by the tallies' index
  place_names TEXT NOT NULL,     -- JSON array: the uncovered places, by the tallies' index
  created     TEXT NOT NULL      -- when it was first written, UTC
);
CREATE TABLE IF NOT EXISTS blocks (  -- consecutive games of a task, their tally
  id          INTEGER PRIMARY KEY,
  task        INTEGER NOT NULL REFERENCES tasks (id),
  first_game  INTEGER NOT NULL,  -- the row is games first_game .. end_game - 1 of its task
  end_game    INTEGER NOT NULL,
  games       INTEGER NOT NULL,  -- games in the row
  wins        TEXT NOT NULL,     -- JSON array: wins by seat (seat 1 first)
  draws       INTEGER NOT NULL,
  timeouts    INTEGER NOT NULL,
  capped      INTEGER NOT NULL,
  plies       INTEGER NOT NULL,  -- plies summed over the row's games
  tally       TEXT NOT NULL,     -- JSON: the row's full tally (histograms, events by kind index)
  has_games   INTEGER NOT NULL,  -- 1 when the row's games have rows in `games` (--store-games)
  created     TEXT NOT NULL,     -- when it was written, UTC
  UNIQUE (task, first_game, end_game)
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
  id           INTEGER PRIMARY KEY,
  task         INTEGER NOT NULL REFERENCES tasks (id),
  first_game   INTEGER NOT NULL,  -- the games a command asked for: first_game .. end_game - 1
  end_game     INTEGER NOT NULL,
  command      TEXT NOT NULL,     -- the command that first asked: run, diff, flags, report, site or merge
  command_line TEXT NOT NULL,     -- its arguments, as given
  created      TEXT NOT NULL,     -- when it was first asked for, UTC
  asked        TEXT NOT NULL,     -- when it was last asked for, UTC
  UNIQUE (task, first_game, end_game)
);
CREATE TABLE IF NOT EXISTS run_blocks (  -- which rows make up which run (runs may share rows)
  run   INTEGER NOT NULL REFERENCES runs (id),
  block INTEGER NOT NULL REFERENCES blocks (id),
  PRIMARY KEY (run, block)
);
CREATE INDEX IF NOT EXISTS run_blocks_by_block ON run_blocks (block);
-- One row per run, its rows summed: each game counted once (rows of runs of other sizes may
-- overlap, so sum rows through a run, not by task). `complete` is 0 for a run that was
-- interrupted before all its games were stored.
CREATE VIEW IF NOT EXISTS results AS
  SELECT runs.id AS run, tasks.identity, tasks.game, tasks.reading, tasks.overrides,
         tasks.stream, tasks.corpus_hash, tasks.ludotrace, tasks.agents, tasks.swap,
         tasks.seed, tasks.max_plies, runs.command, runs.first_game, runs.end_game,
         runs.created, runs.asked,
         SUM(blocks.games) = runs.end_game - runs.first_game AS complete,
         SUM(blocks.games) AS games,
         SUM(json_extract(blocks.wins, '$[0]')) AS p1_wins,
         SUM(json_extract(blocks.wins, '$[1]')) AS p2_wins,
         SUM(blocks.draws) AS draws, SUM(blocks.timeouts) AS timeouts,
         SUM(blocks.capped) AS capped, SUM(blocks.plies) AS plies
  FROM runs JOIN tasks ON tasks.id = runs.task
            JOIN run_blocks ON run_blocks.run = runs.id
            JOIN blocks ON blocks.id = run_blocks.block
  GROUP BY runs.id;
";

/// What a task's rows are stored under: its identity and the inputs it is made of, in
/// columns a query can select on.
#[derive(Debug, Clone)]
pub struct Key {
    /// BLAKE3 (hex) of everything the task's games depend on.
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

/// A stored row of a task: consecutive games and whether their games have rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// Its id (`blocks.id`).
    pub id: i64,
    /// Its first game.
    pub first: u64,
    /// One past its last game.
    pub end: u64,
    /// Whether its games have rows in `games`.
    pub has_games: bool,
}

/// A row as read back.
#[derive(Debug, Clone)]
pub struct StoredBlock {
    /// Its tally.
    pub tally: SavedTally,
    /// Its games, in order, when asked for.
    pub games: Option<Vec<SavedGame>>,
}

/// What one transaction writes of a task: the runs asked of it, its new rows and the rows
/// taken for those runs.
#[derive(Debug)]
pub struct TaskWrite<'a> {
    /// The task.
    pub key: &'a Key,
    /// Its event kinds and uncovered places, by the tallies' index.
    pub names: (&'a [String], &'a [String]),
    /// The runs asked (their games), each with, once this process has every game of it,
    /// the rows it made it of (its links are then replaced by these: each game linked once,
    /// the run whole).
    pub runs: Vec<RunWrite>,
    /// Rows: new ones with their tally (and games with `--store-games`), or rows taken from
    /// the store (no tally), each linked to the runs that contain it.
    pub rows: Vec<RowWrite>,
}

/// A run of a [`TaskWrite`]: its games and, once whole, the rows it is made of.
pub type RunWrite = (Range<u64>, Option<Vec<Range<u64>>>);

/// A row of a [`TaskWrite`].
#[derive(Debug)]
pub struct RowWrite {
    /// Its games.
    pub games: Range<u64>,
    /// Its tally, for a row played here; `None` for a row taken from the store.
    pub tally: Option<SavedTally>,
    /// Its games, when they are kept (`--store-games`).
    pub records: Option<Vec<SavedGame>>,
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

/// How many times a store's opening asks again for the write-ahead log while another
/// process holds the file (50 ms apart: a minute in all).
const WAL_RETRIES: u32 = 1_200;

/// An open results store.
pub struct Store {
    path: PathBuf,
    // A connection is used from one thread at a time (behind the lock).
    pub(super) conn: Mutex<Connection>,
    read_only: bool,
    /// The command that asks, and its arguments (`runs.command`, `runs.command_line`).
    command: (String, String),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .field("read_only", &self.read_only)
            .finish()
    }
}

/// Whether this process may write the file at `path` and its directory (where SQLite keeps
/// its write-ahead log): a file or directory whose mode has no write bit is read-only even
/// to root, who could write it (an archived store is kept so on purpose).
fn writable(path: &Path) -> bool {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let ok = |p: &Path| !std::fs::metadata(p).is_ok_and(|m| m.permissions().readonly());
    ok(dir) && ok(path)
}

/// `path` as an SQLite URI with `query` (the characters a URI gives meaning to escaped).
fn uri(path: &Path, query: &str) -> String {
    let mut s = String::from("file:");
    for c in path.to_string_lossy().chars() {
        match c {
            '%' | '?' | '#' => s.push_str(&format!("%{:02X}", c as u32)),
            _ => s.push(c),
        }
    }
    format!("{s}?{query}")
}

impl Store {
    /// Opens the store at `path`, creating it (and its directory) if it does not exist; a
    /// store this process may not write is opened read-only ([`Store::read_only`]).
    ///
    /// # Errors
    /// A directory that cannot be made, a file that is not SQLite, a store of another
    /// schema.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let err = |what: &str, e: &dyn std::fmt::Display| StoreError::Sqlite {
            path: path.to_owned(),
            message: format!("{what}: {e}"),
        };
        if path.exists() && !writable(path) {
            return Store::open_read_only(path);
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| err("cannot create its directory", &e))?;
        }
        let conn = Connection::open(path).map_err(|e| err("cannot open", &e))?;
        // SQLite opens a file it may not write read-only, silently: then so do we.
        if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            drop(conn);
            return Store::open_read_only(path);
        }
        // Writers wait for each other (two processes on one store) rather than fail.
        conn.busy_timeout(std::time::Duration::from_secs(300))
            .map_err(|e| err("cannot set the busy timeout", &e))?;
        Store::check_content(path, &conn)?;
        // Two processes opening a new store at once may both ask for the log; SQLite answers
        // the second "busy" at once rather than through the busy timeout, so it asks again.
        let mut wal = conn.pragma_update(None, "journal_mode", "WAL");
        for _ in 0..WAL_RETRIES {
            match &wal {
                Err(rusqlite::Error::SqliteFailure(f, _))
                    if f.code == rusqlite::ErrorCode::DatabaseBusy =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    wal = conn.pragma_update(None, "journal_mode", "WAL");
                }
                _ => break,
            }
        }
        match wal {
            Ok(()) => {}
            // A file whose directory or log this process may not write.
            Err(rusqlite::Error::SqliteFailure(f, _))
                if matches!(
                    f.code,
                    rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen
                ) =>
            {
                drop(conn);
                return Store::open_read_only(path);
            }
            Err(e) => return Err(err("cannot use a write-ahead log", &e)),
        }
        // A transaction is durable once committed: the point of a store that survives kills.
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| err("cannot set synchronous", &e))?;
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; {SCHEMA} INSERT OR IGNORE INTO meta VALUES ('schema_version', '{STORE_SCHEMA_VERSION}'); COMMIT;"
        ))
        .map_err(|e| err("cannot create the schema", &e))?;
        Store::check_version(path, &conn)?;
        Ok(Store {
            path: path.to_owned(),
            conn: Mutex::new(conn),
            read_only: false,
            command: (String::new(), String::new()),
        })
    }

    /// Opens `path` read-only: through SQLite's shared memory where it can make it, else as
    /// an immutable file (a read-only directory on a system that cannot share memory
    /// without a file beside the store).
    fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let err = |what: &str, e: &dyn std::fmt::Display| StoreError::Sqlite {
            path: path.to_owned(),
            message: format!("{what}: {e}"),
        };
        if !path.exists() {
            return Err(err(
                "cannot create it",
                &"its directory is read-only; give --store a file in a directory you may write",
            ));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let probe = |query: &str| -> Result<Connection, rusqlite::Error> {
            let conn = Connection::open_with_flags(uri(path, query), flags)?;
            conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })?;
            Ok(conn)
        };
        // In a directory it may not write, SQLite could not make the files readers share
        // (and root, who could, should not litter an archive): read it as an immutable file.
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let tries = if writable(dir) {
            ["mode=ro", "mode=ro&immutable=1"]
        } else {
            ["mode=ro&immutable=1", "mode=ro"]
        };
        let conn = probe(tries[0])
            .or_else(|_| probe(tries[1]))
            .map_err(|e| err("cannot open it read-only", &e))?;
        conn.busy_timeout(std::time::Duration::from_secs(300))
            .map_err(|e| err("cannot set the busy timeout", &e))?;
        let empty = Store::check_content(path, &conn)?;
        if !empty {
            Store::check_version(path, &conn)?;
        }
        Ok(Store {
            path: path.to_owned(),
            conn: Mutex::new(conn),
            read_only: true,
            command: (String::new(), String::new()),
        })
    }

    /// Refuses another program's database: a file with tables must already be a store.
    /// Returns whether it has no tables yet.
    fn check_content(path: &Path, conn: &Connection) -> Result<bool, StoreError> {
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
            .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
            .map_err(|e| StoreError::Sqlite {
                path: path.to_owned(),
                message: format!("not a SQLite database: {e}"),
            })?;
        if tables.is_empty() {
            return Ok(true);
        }
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
        Store::check_version(path, conn)?;
        Ok(false)
    }

    /// Refuses a store of another schema version, saying what to do.
    fn check_version(path: &Path, conn: &Connection) -> Result<(), StoreError> {
        let version: String = conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| StoreError::Sqlite {
                path: path.to_owned(),
                message: format!("cannot read its schema version: {e}"),
            })?;
        let message = match version.parse::<u32>() {
            Ok(v) if v == STORE_SCHEMA_VERSION => return Ok(()),
            // Every row's identity names the build that played it, so an older store's
            // games would never be taken again: nothing in it is worth converting.
            Ok(v) if v < STORE_SCHEMA_VERSION => format!(
                "schema version {v}, written by an earlier ludotrace; this one keeps results \
                 as version {STORE_SCHEMA_VERSION}, and would never take that store's games \
                 again (they were played by another build). Move the file away (the ludotrace \
                 that wrote it still reads it) or delete it, and rerun: a new store is made"
            ),
            _ => format!(
                "schema version {version}, this ludotrace reads version \
                 {STORE_SCHEMA_VERSION}: use another --store, or a ludotrace that reads it"
            ),
        };
        Err(StoreError::Content {
            path: path.to_owned(),
            message,
        })
    }

    /// The command that asks for runs, and its arguments as given (kept with each run).
    #[must_use]
    pub fn asked_by(mut self, command: &str, line: String) -> Store {
        self.command = (command.to_owned(), line);
        self
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether it was opened read-only: it gives what it holds, and new results are not
    /// kept.
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    pub(super) fn sqlite(&self, what: &str, e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.path.clone(),
            message: format!("{what}: {e}"),
        }
    }

    pub(super) fn content(&self, what: String) -> StoreError {
        StoreError::Content {
            path: self.path.clone(),
            message: what,
        }
    }

    /// Whether the store has its tables (a read-only file may be empty).
    fn has_tables(conn: &Connection) -> bool {
        conn.query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'tasks'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .is_ok_and(|n| n > 0)
    }

    /// The stored rows of `identity`, by first game, then end.
    ///
    /// # Errors
    /// SQLite's.
    pub fn rows(&self, identity: &str) -> Result<Vec<Row>, StoreError> {
        let conn = self.conn.lock().expect("store lock");
        if !Store::has_tables(&conn) {
            return Ok(Vec::new());
        }
        let mut st = conn
            .prepare_cached(
                "SELECT blocks.id, first_game, end_game, has_games FROM blocks \
                 JOIN tasks ON tasks.id = blocks.task WHERE identity = ?1 \
                 ORDER BY first_game, end_game",
            )
            .map_err(|e| self.sqlite("cannot read rows", e))?;
        st.query_map([identity], |r| {
            Ok(Row {
                id: r.get(0)?,
                first: r.get::<_, i64>(1)? as u64,
                end: r.get::<_, i64>(2)? as u64,
                has_games: r.get(3)?,
            })
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| self.sqlite("cannot read rows", e))
    }

    /// How many rows of `identity` are stored (for tests and progress).
    ///
    /// # Errors
    /// SQLite's.
    pub fn blocks_of(&self, identity: &str) -> Result<u64, StoreError> {
        self.rows(identity).map(|r| r.len() as u64)
    }

    /// Row `row`'s tally, with its games where `with_games` asks (the row must have them).
    ///
    /// # Errors
    /// SQLite's, or a row this version cannot read back.
    pub fn block(&self, row: &Row, with_games: bool) -> Result<StoredBlock, StoreError> {
        let conn = self.conn.lock().expect("store lock");
        let (id, games) = (row.id, row.first..row.end);
        let (tally, kinds, places): (String, String, String) = conn
            .prepare_cached(
                "SELECT tally, event_names, place_names FROM blocks \
                 JOIN tasks ON tasks.id = blocks.task WHERE blocks.id = ?1",
            )
            .and_then(|mut st| st.query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))))
            .map_err(|e| self.sqlite("cannot read a block", e))?;
        let bad = |what: &str, e: &dyn std::fmt::Display| {
            self.content(format!(
                "block {id} (games {}..{}): {what}: {e}",
                games.start, games.end
            ))
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
            return Ok(StoredBlock { tally, games: None });
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
            return Err(bad(
                "its games",
                &format!("{} rows for {} games", out.len(), games.end - games.start),
            ));
        }
        Ok(StoredBlock {
            tally,
            games: Some(out),
        })
    }

    /// Writes `batch` in one transaction: each task's key (once), the runs asked of it, its
    /// new rows (a row already stored is kept: the same identity plays the same games; its
    /// games are added if it had none) and the links of every row, new or taken, to the runs
    /// that contain it. A read-only store writes nothing.
    ///
    /// # Errors
    /// SQLite's.
    pub fn write(&self, batch: &[TaskWrite]) -> Result<(), StoreError> {
        if self.read_only || batch.is_empty() {
            return Ok(());
        }
        let mut conn = self.conn.lock().expect("store lock");
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| self.sqlite("cannot begin a transaction", e))?;
        let json = |v: &dyn erased::Json| v.json();
        const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";
        for task in batch {
            let key = task.key;
            tx.prepare_cached(&format!(
                "INSERT INTO tasks (identity, game, reading, overrides, stream, corpus_hash, \
                 ludotrace, agents, swap, seed, max_plies, event_names, place_names, created) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, {NOW}) \
                 ON CONFLICT (identity) DO NOTHING"
            ))
            .and_then(|mut st| {
                st.execute(params![
                    key.identity,
                    key.game,
                    key.reading,
                    key.overrides,
                    format!("{:016x}", key.stream),
                    key.corpus_hash,
                    key.ludotrace,
                    json(&key.agents),
                    key.swap,
                    // SQLite's integers are signed: a seed above 2^63 - 1 as its two's
                    // complement.
                    key.seed as i64,
                    key.max_plies,
                    json(&task.names.0),
                    json(&task.names.1),
                ])
            })
            .map_err(|e| self.sqlite("cannot write a task", e))?;
            let task_id: i64 = tx
                .prepare_cached("SELECT id FROM tasks WHERE identity = ?1")
                .and_then(|mut st| st.query_row([&key.identity], |r| r.get(0)))
                .map_err(|e| self.sqlite("cannot read back a task", e))?;
            let mut runs = Vec::with_capacity(task.runs.len());
            for (games, whole) in &task.runs {
                tx.prepare_cached(&format!(
                    "INSERT INTO runs (task, first_game, end_game, command, command_line, \
                     created, asked) VALUES (?1, ?2, ?3, ?4, ?5, {NOW}, {NOW}) \
                     ON CONFLICT (task, first_game, end_game) DO UPDATE SET asked = excluded.asked"
                ))
                .and_then(|mut st| {
                    st.execute(params![
                        task_id,
                        games.start as i64,
                        games.end as i64,
                        self.command.0,
                        self.command.1
                    ])
                })
                .map_err(|e| self.sqlite("cannot write a run", e))?;
                let id: i64 = tx
                    .prepare_cached(
                        "SELECT id FROM runs WHERE task = ?1 AND first_game = ?2 AND end_game = ?3",
                    )
                    .and_then(|mut st| {
                        st.query_row(
                            params![task_id, games.start as i64, games.end as i64],
                            |r| r.get(0),
                        )
                    })
                    .map_err(|e| self.sqlite("cannot read back a run", e))?;
                runs.push((games.clone(), id, whole.as_ref()));
            }
            for row in &task.rows {
                let at = params![task_id, row.games.start as i64, row.games.end as i64];
                if let Some(tally) = &row.tally {
                    let plies: u64 = tally.plies.iter().map(|&(v, c)| u64::from(v) * c).sum();
                    tx.prepare_cached(&format!(
                        "INSERT INTO blocks (task, first_game, end_game, games, wins, draws, \
                         timeouts, capped, plies, tally, has_games, created) VALUES (?1, ?2, \
                         ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 0, {NOW}) \
                         ON CONFLICT (task, first_game, end_game) DO NOTHING"
                    ))
                    .and_then(|mut st| {
                        st.execute(params![
                            task_id,
                            row.games.start as i64,
                            row.games.end as i64,
                            tally.games as i64,
                            json(&tally.wins),
                            tally.draws as i64,
                            tally.timeouts as i64,
                            tally.capped as i64,
                            plies as i64,
                            json(tally),
                        ])
                    })
                    .map_err(|e| self.sqlite("cannot write a block", e))?;
                }
                let found: Option<(i64, bool)> = tx
                    .prepare_cached(
                        "SELECT id, has_games FROM blocks WHERE task = ?1 AND first_game = ?2 \
                         AND end_game = ?3",
                    )
                    .and_then(|mut st| st.query_row(at, |r| Ok((r.get(0)?, r.get(1)?))).optional())
                    .map_err(|e| self.sqlite("cannot read back a block", e))?;
                // A row taken and since pruned by another process is not linked.
                let Some((id, has)) = found else { continue };
                // Linked to the runs that contain it, unless another process linked rows of
                // the same games (two processes playing one run): a run's rows never
                // overlap, so the view counts each game once.
                for (games, run, whole) in &runs {
                    if whole.is_some() || row.games.start < games.start || games.end < row.games.end
                    {
                        continue;
                    }
                    let overlaps: i64 = tx
                        .prepare_cached(
                            "SELECT COUNT(*) FROM run_blocks JOIN blocks ON blocks.id = \
                             run_blocks.block WHERE run_blocks.run = ?1 AND blocks.id != ?2 \
                             AND blocks.first_game < ?3 AND blocks.end_game > ?4",
                        )
                        .and_then(|mut st| {
                            st.query_row(
                                params![run, id, row.games.end as i64, row.games.start as i64],
                                |r| r.get(0),
                            )
                        })
                        .map_err(|e| self.sqlite("cannot link a block to its run", e))?;
                    if overlaps == 0 {
                        tx.prepare_cached(
                            "INSERT OR IGNORE INTO run_blocks (run, block) VALUES (?1, ?2)",
                        )
                        .and_then(|mut st| st.execute([*run, id]))
                        .map_err(|e| self.sqlite("cannot link a block to its run", e))?;
                    }
                }
                let (games, names) = (row.records.as_deref(), task.names);
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
            }
            // A run this process has whole is made of its rows, whatever others linked.
            for (_, run, whole) in &runs {
                let Some(rows) = whole else { continue };
                tx.execute("DELETE FROM run_blocks WHERE run = ?1", [run])
                    .map_err(|e| self.sqlite("cannot relink a run", e))?;
                for r in *rows {
                    tx.prepare_cached(
                        "INSERT OR IGNORE INTO run_blocks (run, block) SELECT ?1, id FROM \
                         blocks WHERE task = ?2 AND first_game = ?3 AND end_game = ?4",
                    )
                    .and_then(|mut st| {
                        st.execute(params![run, task_id, r.start as i64, r.end as i64])
                    })
                    .map_err(|e| self.sqlite("cannot link a block to its run", e))?;
                }
            }
        }
        tx.commit().map_err(|e| self.sqlite("cannot commit", e))
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
            stalled: 0,
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
            censored_plies: vec![],
            censored_games: vec![],
            endless_plies: vec![],
            turns: vec![(5, games)],
            passes: vec![(0, games)],
            decisions: 5 * games,
            legal: 10 * games,
            events: vec![(1, 2)],
            uncovered: vec![],
            event_squares: vec![4],
            uncovered_squares: vec![],
            agents: vec![],
            metrics: None,
        }
    }

    fn write(store: &Store, runs: &[RunWrite], rows: Vec<RowWrite>) {
        let names = (vec!["sow".to_owned()], vec![]);
        store
            .write(&[TaskWrite {
                key: &key(),
                names: (&names.0, &names.1),
                runs: runs.to_vec(),
                rows,
            }])
            .unwrap();
    }

    fn row(games: Range<u64>, records: Option<Vec<SavedGame>>) -> RowWrite {
        RowWrite {
            tally: Some(tally(games.end - games.start)),
            games,
            records,
        }
    }

    fn game(index: u64) -> SavedGame {
        SavedGame {
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
        }
    }

    #[test]
    fn blocks_and_games_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/store.sqlite");
        let store = Store::open(&path).unwrap();
        assert!(!store.read_only());
        assert!(store.rows("abc").unwrap().is_empty());
        write(&store, &[(0..2, None)], vec![row(0..2, None)]);
        let rows = store.rows("abc").unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].first, rows[0].end, rows[0].has_games),
            (0, 2, false)
        );
        let got = store.block(&rows[0], false).unwrap();
        assert_eq!(got.tally, tally(2));
        // The same row again, with its games: the row is kept, its games added.
        let games = vec![game(0), game(1)];
        write(
            &store,
            &[(0..2, None)],
            vec![row(0..2, Some(games.clone()))],
        );
        let rows = store.rows("abc").unwrap();
        assert_eq!(rows.len(), 1);
        assert!(rows[0].has_games);
        let got = store.block(&rows[0], true).unwrap();
        assert_eq!(got.games.unwrap(), games);
        assert_eq!(store.blocks_of("abc").unwrap(), 1);
        // Reopening finds it; the view sums it, once however often it was linked.
        drop(store);
        let store = Store::open(&path).unwrap();
        let conn = store.conn.lock().unwrap();
        let (games, seed, complete): (i64, i64, bool) = conn
            .query_row("SELECT games, seed, complete FROM results", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!((games, seed as u64, complete), (2, u64::MAX, true));
    }

    #[test]
    fn a_runs_rows_never_overlap_and_a_whole_run_is_made_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        let store = Store::open(&path).unwrap();
        let view = |store: &Store| -> (i64, i64, bool) {
            let conn = store.conn.lock().unwrap();
            conn.query_row(
                "SELECT games, (SELECT COUNT(*) FROM run_blocks), complete FROM results",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap()
        };
        // One process linked games 0..2 of the run; another's 0..4 overlaps them and is not
        // linked until that process has the run whole.
        write(&store, &[(0..8, None)], vec![row(0..2, None)]);
        write(&store, &[(0..8, None)], vec![row(0..4, None)]);
        assert_eq!(view(&store), (2, 1, false));
        write(&store, &[(0..8, None)], vec![row(4..8, None)]);
        assert_eq!(view(&store), (6, 2, false));
        write(&store, &[(0..8, Some(vec![0..4, 4..8]))], vec![]);
        assert_eq!(view(&store), (8, 2, true));
    }

    #[test]
    fn an_older_store_is_refused_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        let old = Connection::open(&path).unwrap();
        old.execute_batch(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); \
             INSERT INTO meta VALUES ('schema_version', '1'); CREATE TABLE blocks (id INTEGER);",
        )
        .unwrap();
        drop(old);
        let e = Store::open(&path).unwrap_err().to_string();
        assert!(
            e.contains("schema version 1") && e.contains("Move the file away"),
            "{e}"
        );
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
