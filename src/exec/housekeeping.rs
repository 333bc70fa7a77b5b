//! Housekeeping of the results store: what it holds ([`summary`], `ludotrace store`), every
//! run's results as tidy rows with their intervals ([`export`], `ludotrace store export`),
//! and removing what is no longer wanted ([`prune`], `ludotrace store prune`).
//!
//! These read the store's own tables (`tasks`, `blocks`, `runs`, `run_blocks`), never the
//! games again: a run's results are its rows' tallies summed, with the same Wilson and
//! normal intervals `run` prints. Pruning removes runs, then every row no remaining run is
//! made of, then tasks left with neither, and compacts the file, so the space is given back.

use std::path::Path;

use rusqlite::{Connection, params};
use serde::Serialize;

use super::store::{STORE_SCHEMA_VERSION, Store, StoreError};
use crate::sim::saved::SavedTally;
use crate::stats::{Histogram, round, wilson};

/// The version of `store`'s, `store export`'s and `store prune`'s JSON.
pub const STORE_OUTPUT_VERSION: u32 = 1;

/// The commands that ask for runs (`runs.command`).
pub const COMMANDS: [&str; 7] = ["run", "diff", "flags", "ladder", "report", "site", "merge"];

/// What a store holds (`ludotrace store`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct StoreSummary {
    /// Version of this output's shape.
    pub schema_version: u32,
    /// The store's file.
    pub path: String,
    /// Bytes on disk: the file and its write-ahead log.
    pub bytes: u64,
    /// The store's own schema version (`ludotrace schema`'s `store.schema_version`).
    pub store_schema_version: u32,
    /// Whether it was opened read-only (new results are not kept).
    pub read_only: bool,
    /// Tasks (a reading's games as a command plays them: seed, overrides, agents, build).
    pub tasks: u64,
    /// Rows of `blocks`: consecutive games of a task with their tally.
    pub rows: u64,
    /// Games those rows hold (a game in two overlapping rows counted twice).
    pub games: u64,
    /// Rows of `games` (one per game, with `--store-games`).
    pub game_rows: u64,
    /// Runs: the ranges of games commands asked for.
    pub runs: u64,
    /// When the oldest row was written (UTC), if any.
    pub oldest: Option<String>,
    /// When a run was last asked for (UTC), if any.
    pub newest: Option<String>,
    /// Runs by the command that first asked for them.
    pub by_command: Vec<Group>,
    /// Runs by game.
    pub by_game: Vec<Group>,
}

/// Runs grouped by command or game.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Group {
    /// The command or game id.
    pub name: String,
    /// Runs.
    pub runs: u64,
    /// Games those runs asked for.
    pub games: u64,
    /// When the first of them was asked for (UTC).
    pub first: String,
    /// When one was last asked for (UTC).
    pub last: String,
}

/// Every run's results (`ludotrace store export`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct StoreExport {
    /// Version of this output's shape.
    pub schema_version: u32,
    /// The runs, oldest first.
    pub results: Vec<ExportedRun>,
}

/// One run's results.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ExportedRun {
    /// The run's id in the store (`runs.id`).
    pub run: i64,
    /// Game id.
    pub game: String,
    /// Interpretation id.
    pub reading: String,
    /// Overrides, as a JSON object's text.
    pub overrides: String,
    /// Run seed.
    pub seed: u64,
    /// The random streams' key, 16 hex digits.
    pub stream: String,
    /// Ply limit.
    pub max_plies: u32,
    /// The `--agents` list, as a JSON array's text.
    pub agents: String,
    /// The corpus's hash.
    pub corpus_hash: String,
    /// The version and build that played it.
    pub ludotrace: String,
    /// The command that first asked for it.
    pub command: String,
    /// Games asked for: `first_game .. end_game - 1`.
    pub first_game: u64,
    /// One past the last game asked for.
    pub end_game: u64,
    /// Games stored of them (fewer than asked where the run was interrupted).
    pub games: u64,
    /// Whether every game asked for is stored.
    pub complete: bool,
    /// When it was first asked for (UTC).
    pub created: String,
    /// Its metrics.
    pub metrics: Vec<Metric>,
}

/// One metric of a run, with its 95 % interval.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Metric {
    /// `seatN_wins`, `first_mover_wins`, `second_mover_wins`, `draws`, `timeouts` (rates
    /// with Wilson intervals), `mean_plies` (a mean with its normal interval).
    pub metric: String,
    /// The estimate.
    pub estimate: f64,
    /// Lower bound of the 95 % interval.
    pub lo: f64,
    /// Upper bound of the 95 % interval.
    pub hi: f64,
}

/// What to prune: runs that match every filter given.
#[derive(Debug, Clone, Default)]
pub struct PruneFilter {
    /// Runs last asked for more than this many days ago.
    pub older_than_days: Option<u32>,
    /// Runs first asked for by this command.
    pub command: Option<String>,
    /// Runs of this game.
    pub game: Option<String>,
}

/// What a prune removed (`ludotrace store prune`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PruneReport {
    /// Version of this output's shape.
    pub schema_version: u32,
    /// Runs removed.
    pub runs: u64,
    /// Rows of `blocks` removed (no remaining run was made of them).
    pub rows: u64,
    /// Games those rows held.
    pub games: u64,
    /// Rows of `games` removed.
    pub game_rows: u64,
    /// Tasks removed (left with no row and no run).
    pub tasks: u64,
    /// Bytes on disk before.
    pub bytes_before: u64,
    /// Bytes on disk after (the file compacted).
    pub bytes_after: u64,
}

/// The bytes a store takes on disk: its file and its write-ahead log.
pub fn bytes_on_disk(path: &Path) -> u64 {
    let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    size(path) + size(Path::new(&wal))
}

fn count(store: &Store, conn: &Connection, sql: &str) -> Result<u64, StoreError> {
    conn.query_row(sql, [], |r| r.get::<_, Option<i64>>(0))
        .map(|n| n.unwrap_or(0) as u64)
        .map_err(|e| store.sqlite("cannot read it", e))
}

/// Whether the store has its tables (a read-only file may be an empty one).
fn has_tables(conn: &Connection) -> bool {
    conn.query_row(
        "SELECT COUNT(*) FROM sqlite_master WHERE name = 'runs'",
        [],
        |r| r.get::<_, i64>(0),
    )
    .is_ok_and(|n| n > 0)
}

/// What `store` holds.
///
/// # Errors
/// SQLite's.
pub fn summary(store: &Store) -> Result<StoreSummary, StoreError> {
    let conn = store.conn.lock().expect("store lock");
    let mut s = StoreSummary {
        schema_version: STORE_OUTPUT_VERSION,
        path: store.path().display().to_string(),
        bytes: bytes_on_disk(store.path()),
        store_schema_version: STORE_SCHEMA_VERSION,
        read_only: store.read_only(),
        tasks: 0,
        rows: 0,
        games: 0,
        game_rows: 0,
        runs: 0,
        oldest: None,
        newest: None,
        by_command: Vec::new(),
        by_game: Vec::new(),
    };
    if !has_tables(&conn) {
        return Ok(s);
    }
    s.tasks = count(store, &conn, "SELECT COUNT(*) FROM tasks")?;
    s.rows = count(store, &conn, "SELECT COUNT(*) FROM blocks")?;
    s.games = count(store, &conn, "SELECT SUM(games) FROM blocks")?;
    s.game_rows = count(store, &conn, "SELECT COUNT(*) FROM games")?;
    s.runs = count(store, &conn, "SELECT COUNT(*) FROM runs")?;
    let when = |sql: &str| -> Result<Option<String>, StoreError> {
        conn.query_row(sql, [], |r| r.get(0))
            .map_err(|e| store.sqlite("cannot read it", e))
    };
    s.oldest = when("SELECT MIN(created) FROM blocks")?;
    s.newest = when("SELECT MAX(asked) FROM runs")?;
    let groups = |by: &str| -> Result<Vec<Group>, StoreError> {
        conn.prepare(&format!(
            "SELECT {by}, COUNT(*), SUM(runs.end_game - runs.first_game), MIN(runs.created), \
             MAX(runs.asked) FROM runs JOIN tasks ON tasks.id = runs.task \
             GROUP BY {by} ORDER BY {by}"
        ))
        .and_then(|mut st| {
            st.query_map([], |r| {
                Ok(Group {
                    name: r.get(0)?,
                    runs: r.get::<_, i64>(1)? as u64,
                    games: r.get::<_, i64>(2)? as u64,
                    first: r.get(3)?,
                    last: r.get(4)?,
                })
            })?
            .collect()
        })
        .map_err(|e| store.sqlite("cannot read its runs", e))
    };
    s.by_command = groups("runs.command")?;
    s.by_game = groups("tasks.game")?;
    Ok(s)
}

/// Every run's results: its rows' tallies summed, each metric with its 95 % interval.
///
/// # Errors
/// SQLite's, or a tally this version cannot read.
pub fn export(store: &Store) -> Result<StoreExport, StoreError> {
    let conn = store.conn.lock().expect("store lock");
    let mut out = StoreExport {
        schema_version: STORE_OUTPUT_VERSION,
        results: Vec::new(),
    };
    if !has_tables(&conn) {
        return Ok(out);
    }
    let mut runs = conn
        .prepare(
            "SELECT runs.id, game, reading, overrides, seed, stream, max_plies, agents, \
             corpus_hash, ludotrace, command, first_game, end_game, runs.created \
             FROM runs JOIN tasks ON tasks.id = runs.task ORDER BY runs.created, runs.id",
        )
        .map_err(|e| store.sqlite("cannot read its runs", e))?;
    let rows = runs
        .query_map([], |r| {
            Ok(ExportedRun {
                run: r.get(0)?,
                game: r.get(1)?,
                reading: r.get(2)?,
                overrides: r.get(3)?,
                seed: r.get::<_, i64>(4)? as u64,
                stream: r.get(5)?,
                max_plies: r.get(6)?,
                agents: r.get(7)?,
                corpus_hash: r.get(8)?,
                ludotrace: r.get(9)?,
                command: r.get(10)?,
                first_game: r.get::<_, i64>(11)? as u64,
                end_game: r.get::<_, i64>(12)? as u64,
                games: 0,
                complete: false,
                created: r.get(13)?,
                metrics: Vec::new(),
            })
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(|e| store.sqlite("cannot read its runs", e))?;
    let mut tallies = conn
        .prepare(
            "SELECT blocks.id, blocks.tally FROM run_blocks JOIN blocks ON blocks.id = \
             run_blocks.block WHERE run_blocks.run = ?1 ORDER BY blocks.first_game",
        )
        .map_err(|e| store.sqlite("cannot read its rows", e))?;
    for mut run in rows {
        let parts: Vec<(i64, String)> = tallies
            .query_map(params![run.run], |r| Ok((r.get(0)?, r.get(1)?)))
            .and_then(|rows| rows.collect())
            .map_err(|e| store.sqlite("cannot read its rows", e))?;
        let mut sum = Sum::default();
        for (id, text) in parts {
            let t: SavedTally = serde_json::from_str(&text)
                .map_err(|e| store.content(format!("block {id}: its tally: {e}")))?;
            sum.add(&t);
        }
        run.games = sum.games;
        run.complete = sum.games == run.end_game - run.first_game;
        run.metrics = sum.metrics();
        out.results.push(run);
    }
    Ok(out)
}

/// A run's tallies summed: what its metrics are computed from.
#[derive(Default)]
struct Sum {
    games: u64,
    wins: Vec<u64>,
    order_wins: Vec<u64>,
    draws: u64,
    timeouts: u64,
    plies: Histogram,
}

impl Sum {
    fn add(&mut self, t: &SavedTally) {
        let add = |mine: &mut Vec<u64>, theirs: &[u64]| {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        };
        self.games += t.games;
        add(&mut self.wins, &t.wins);
        add(&mut self.order_wins, &t.order_wins);
        self.draws += t.draws;
        self.timeouts += t.timeouts;
        for &(v, n) in &t.plies {
            self.plies.add_n(v, n);
        }
    }

    fn metrics(&self) -> Vec<Metric> {
        let n = self.games;
        let rate = |metric: String, k: u64| {
            let r = wilson(k, n);
            Metric {
                metric,
                estimate: round(r.value, 4),
                lo: round(r.lo, 4),
                hi: round(r.hi, 4),
            }
        };
        let mut out: Vec<Metric> = self
            .wins
            .iter()
            .enumerate()
            .map(|(seat, &k)| rate(format!("seat{}_wins", seat + 1), k))
            .collect();
        let order = ["first_mover_wins", "second_mover_wins"];
        for (name, &k) in order.iter().zip(&self.order_wins) {
            out.push(rate((*name).to_owned(), k));
        }
        out.push(rate("draws".to_owned(), self.draws));
        out.push(rate("timeouts".to_owned(), self.timeouts));
        if n > 0 {
            let s = self.plies.summary();
            out.push(Metric {
                metric: "mean_plies".to_owned(),
                estimate: round(s.mean, 4),
                lo: round(s.mean_ci[0], 4),
                hi: round(s.mean_ci[1], 4),
            });
        }
        out
    }
}

/// Removes the runs that match every filter of `filter`, then the rows no remaining run is
/// made of, then the tasks left with neither, and compacts the file.
///
/// # Errors
/// A read-only store, SQLite's.
pub fn prune(store: &Store, filter: &PruneFilter) -> Result<PruneReport, StoreError> {
    if store.read_only() {
        return Err(store.content(
            "it is read-only (its file or directory may not be written): nothing can be pruned"
                .to_owned(),
        ));
    }
    let bytes_before = bytes_on_disk(store.path());
    let mut conn = store.conn.lock().expect("store lock");
    let sql = |e| store.sqlite("cannot prune", e);
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sql)?;
    let mut cond = vec!["1".to_owned()];
    let mut values: Vec<String> = Vec::new();
    if let Some(days) = filter.older_than_days {
        cond.push(format!(
            "runs.asked < strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-{days} days')"
        ));
    }
    if let Some(c) = &filter.command {
        values.push(c.clone());
        cond.push(format!("runs.command = ?{}", values.len()));
    }
    if let Some(g) = &filter.game {
        values.push(g.clone());
        cond.push(format!(
            "runs.task IN (SELECT id FROM tasks WHERE game = ?{})",
            values.len()
        ));
    }
    tx.execute(
        &format!(
            "CREATE TEMP TABLE doomed AS SELECT runs.id FROM runs WHERE {}",
            cond.join(" AND ")
        ),
        rusqlite::params_from_iter(&values),
    )
    .map_err(sql)?;
    let runs = tx
        .execute(
            "DELETE FROM run_blocks WHERE run IN (SELECT id FROM doomed)",
            [],
        )
        .and_then(|_| tx.execute("DELETE FROM runs WHERE id IN (SELECT id FROM doomed)", []))
        .map_err(sql)? as u64;
    tx.execute_batch(
        "DROP TABLE doomed; \
         CREATE TEMP TABLE orphans AS SELECT id, games FROM blocks \
           WHERE NOT EXISTS (SELECT 1 FROM run_blocks WHERE run_blocks.block = blocks.id);",
    )
    .map_err(sql)?;
    let (rows, games): (i64, Option<i64>) = tx
        .query_row("SELECT COUNT(*), SUM(games) FROM orphans", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .map_err(sql)?;
    let game_rows = tx
        .execute(
            "DELETE FROM games WHERE block IN (SELECT id FROM orphans)",
            [],
        )
        .map_err(sql)? as u64;
    tx.execute(
        "DELETE FROM blocks WHERE id IN (SELECT id FROM orphans)",
        [],
    )
    .map_err(sql)?;
    let tasks = tx
        .execute(
            "DELETE FROM tasks WHERE NOT EXISTS (SELECT 1 FROM blocks WHERE task = tasks.id) \
             AND NOT EXISTS (SELECT 1 FROM runs WHERE task = tasks.id)",
            [],
        )
        .map_err(sql)? as u64;
    tx.execute_batch("DROP TABLE orphans;").map_err(sql)?;
    tx.commit().map_err(sql)?;
    // Give the space back: a deleted row only frees a page inside the file.
    conn.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")
        .map_err(|e| store.sqlite("cannot compact it", e))?;
    drop(conn);
    Ok(PruneReport {
        schema_version: STORE_OUTPUT_VERSION,
        runs,
        rows: rows as u64,
        games: games.unwrap_or(0) as u64,
        game_rows,
        tasks,
        bytes_before,
        bytes_after: bytes_on_disk(store.path()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::store::{Key, RowWrite, TaskWrite};

    fn key(identity: &str, game: &str) -> Key {
        Key {
            identity: identity.into(),
            game: game.into(),
            reading: "davies".into(),
            overrides: "{}".into(),
            stream: 7,
            corpus_hash: "h".into(),
            ludotrace: "v".into(),
            agents: vec!["random".into()],
            swap: false,
            seed: 1,
            max_plies: 100,
        }
    }

    /// A tally of `games` games: seat 1 wins `wins`, the rest are draws, each game 10 plies
    /// long but the first, 20.
    fn tally(games: u64, wins: u64) -> SavedTally {
        SavedTally {
            stalled: 0,
            games,
            wins: vec![wins, 0],
            first_moves: vec![games, 0],
            order_wins: vec![wins, 0],
            draws: games - wins,
            timeouts: 0,
            timeouts_by_reason: vec![],
            ranks: vec![],
            capped: 0,
            ends: vec![("natural".into(), games)],
            plies: vec![(10, games - 1), (20, 1)],
            censored_plies: vec![],
            censored_games: vec![],
            endless_plies: vec![],
            turns: vec![(10, games)],
            passes: vec![(0, games)],
            decisions: 10 * games,
            legal: 20 * games,
            events: vec![],
            uncovered: vec![],
            event_squares: vec![],
            uncovered_squares: vec![],
            agents: vec![],
            metrics: None,
        }
    }

    fn write(store: &Store, key: &Key, run: std::ops::Range<u64>, rows: &[(u64, u64, u64)]) {
        let names: (Vec<String>, Vec<String>) = (vec![], vec![]);
        store
            .write(&[TaskWrite {
                key,
                names: (&names.0, &names.1),
                runs: vec![(run, None)],
                rows: rows
                    .iter()
                    .map(|&(a, b, wins)| RowWrite {
                        games: a..b,
                        tally: Some(tally(b - a, wins)),
                        records: None,
                    })
                    .collect(),
            }])
            .unwrap();
    }

    fn store(dir: &tempfile::TempDir, command: &str) -> Store {
        Store::open(&dir.path().join("s.sqlite"))
            .unwrap()
            .asked_by(command, format!("{command} …"))
    }

    #[test]
    fn a_run_is_exported_as_its_rows_summed_with_intervals() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(&dir, "run");
        write(
            &s,
            &key("a", "seega"),
            0..100,
            &[(0, 40, 30), (40, 100, 20)],
        );
        let e = export(&s).unwrap();
        assert_eq!(e.results.len(), 1);
        let r = &e.results[0];
        assert_eq!(
            (r.games, r.complete, r.command.as_str()),
            (100, true, "run")
        );
        let m = |name: &str| r.metrics.iter().find(|m| m.metric == name).unwrap().clone();
        // 50 wins of 100: Wilson's interval [0.4038, 0.5962].
        let wins = m("seat1_wins");
        assert_eq!((wins.estimate, wins.lo, wins.hi), (0.5, 0.4038, 0.5962));
        assert_eq!(m("draws").estimate, 0.5);
        assert_eq!(m("first_mover_wins").estimate, 0.5);
        // Two games of 20 plies, 98 of 10.
        assert_eq!(m("mean_plies").estimate, 10.2);
        assert!(m("mean_plies").lo < 10.2 && m("mean_plies").hi > 10.2);
        // An interrupted run says so.
        write(&s, &key("a", "seega"), 0..200, &[(100, 150, 0)]);
        let e = export(&s).unwrap();
        let r = e.results.iter().find(|r| r.end_game == 200).unwrap();
        assert_eq!((r.games, r.complete), (50, false));
    }

    #[test]
    fn the_summary_counts_by_command_and_game() {
        let dir = tempfile::tempdir().unwrap();
        write(
            &store(&dir, "run"),
            &key("a", "seega"),
            0..10,
            &[(0, 10, 5)],
        );
        write(
            &store(&dir, "flags"),
            &key("b", "um-el-bagara"),
            0..30,
            &[(0, 30, 5)],
        );
        let s = summary(&store(&dir, "store")).unwrap();
        assert_eq!((s.tasks, s.rows, s.games, s.runs), (2, 2, 40, 2));
        let names = |g: &[Group]| {
            g.iter()
                .map(|g| (g.name.clone(), g.games))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&s.by_command),
            [("flags".to_owned(), 30), ("run".to_owned(), 10)]
        );
        assert_eq!(
            names(&s.by_game),
            [("seega".to_owned(), 10), ("um-el-bagara".to_owned(), 30)]
        );
        assert!(s.oldest.is_some() && s.bytes > 0);
    }

    #[test]
    fn prune_removes_the_runs_that_match_and_the_rows_only_they_hold() {
        let dir = tempfile::tempdir().unwrap();
        let a = key("a", "seega");
        write(&store(&dir, "run"), &a, 0..10, &[(0, 10, 5)]);
        // A flags run of the same task shares the row 0..10 and has its own 10..20.
        write(&store(&dir, "flags"), &a, 0..20, &[(0, 10, 5), (10, 20, 5)]);
        write(
            &store(&dir, "flags"),
            &key("b", "um-el-bagara"),
            0..30,
            &[(0, 30, 5)],
        );
        let s = store(&dir, "store");
        let nothing = prune(
            &s,
            &PruneFilter {
                older_than_days: Some(1),
                ..PruneFilter::default()
            },
        )
        .unwrap();
        assert_eq!((nothing.runs, nothing.rows), (0, 0), "nothing is a day old");
        let p = prune(
            &s,
            &PruneFilter {
                command: Some("flags".into()),
                game: Some("seega".into()),
                ..PruneFilter::default()
            },
        )
        .unwrap();
        // The seega flags run goes, with the row only it held; the run's row 0..10 stays.
        assert_eq!((p.runs, p.rows, p.games, p.tasks), (1, 1, 10, 0));
        let left = summary(&s).unwrap();
        assert_eq!((left.runs, left.rows, left.games), (2, 2, 40));
        let p = prune(
            &s,
            &PruneFilter {
                command: Some("run".into()),
                ..PruneFilter::default()
            },
        )
        .unwrap();
        assert_eq!((p.runs, p.rows, p.tasks), (1, 1, 1));
        assert!(p.bytes_after <= p.bytes_before);
    }
}
