//! Beyond one process: the results store (round trip, its schema, reruns, two writers, a run
//! killed midway), and `plan`/`work`/`merge` and `run --shard`, which must give the single
//! process's bytes for `run`, `diff` and `flags` at any number of units, and refuse a
//! missing, duplicated or foreign part.

use std::path::{Path, PathBuf};

use crate::util::{bin, fails, fresh_store, run};

/// `ludotrace ARGS` with the store at `store` (or none), which must succeed: (stdout, stderr).
fn with_store(store: Option<&Path>, args: &[&str]) -> (String, String) {
    let mut cmd = bin();
    match store {
        Some(s) => cmd.env("LUDOTRACE_STORE", s),
        None => cmd.arg("--no-store"),
    };
    let (code, out, err) = run(cmd.args(args));
    assert_eq!(code, 0, "ludotrace {args:?}: {err}");
    (out, err)
}

fn single(args: &[&str]) -> String {
    with_store(None, args).0
}

/// Plans `command` into `units` units (all blocks apart with `None`), works every unit in
/// `dir`, merges them with `merge_args`, and returns the merged output.
fn planned(dir: &Path, units: Option<u64>, command: &[&str], merge_args: &[&str]) -> String {
    let plan = dir.join("plan.json");
    let _ = std::fs::remove_file(&plan);
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().contains(".unit-") {
            std::fs::remove_file(p).unwrap();
        }
    }
    let plan_s = plan.to_str().unwrap().to_owned();
    let mut args: Vec<String> = vec!["plan".into(), "-q".into(), "-o".into(), plan_s.clone()];
    if let Some(n) = units {
        args.extend(["--units".into(), n.to_string()]);
    }
    args.extend(command.iter().map(|s| (*s).to_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    single(&args);
    let parsed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let count = parsed["units"].as_array().unwrap().len();
    if let Some(n) = units {
        assert!(count as u64 <= n);
    }
    let mut outputs = Vec::new();
    for k in 0..count {
        // Units run in any order: the last first.
        let k = count - 1 - k;
        single(&["work", &plan_s, "--unit", &k.to_string(), "-q"]);
        outputs.push(dir.join(format!("plan.unit-{k}.json")));
    }
    let mut args: Vec<String> = merge_args.iter().map(|s| (*s).to_owned()).collect();
    args.push("merge".into());
    args.push(plan_s);
    args.extend(outputs.iter().map(|p| p.to_str().unwrap().to_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    single(&args)
}

#[test]
fn planned_units_merge_into_the_single_runs_bytes() {
    let dir = tempfile::tempdir().unwrap();
    // (command, options of `merge`, unit counts: `None` is one unit a block).
    let some: &[Option<u64>] = &[Some(1), Some(4)];
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [Option<u64>]);
    let cases: &[Case] = &[
        (
            &["run", "um-el-bagara", "--all-interpretations", "-n", "300"],
            &[],
            some,
        ),
        (
            &["run", "um-el-bagara", "--all-interpretations", "-n", "300"],
            &["--format", "json"],
            &[Some(7)],
        ),
        // Six games of one reading: six blocks, each a unit.
        (
            &["run", "um-el-bagara", "-n", "6"],
            &["--format", "json"],
            &[None],
        ),
        (
            &[
                "run",
                "seega",
                "-n",
                "40",
                "--agents",
                "greedy,random",
                "--swap",
                "--format",
                "json",
            ],
            &[],
            some,
        ),
        (
            &[
                "diff",
                "um-el-tuweisat",
                "ludii-1.0.8",
                "ludii-intended",
                "-n",
                "200",
            ],
            &["--format", "json"],
            some,
        ),
        (
            &["flags", "seega", "-n", "20"],
            &["--format", "markdown"],
            some,
        ),
        // Censored games, played again at raised limits: which ones, the plan cannot know;
        // `merge` plays them.
        (
            &[
                "diff",
                "um-el-banat",
                "--against",
                "davies",
                "-n",
                "12",
                "--max-plies",
                "1500",
            ],
            &["--format", "json"],
            &[Some(3)],
        ),
        (
            &[
                "flags",
                "um-el-bagara",
                "-n",
                "10",
                "--global",
                "--design",
                "96",
                "--global-games",
                "8",
            ],
            &["--format", "json"],
            &[Some(3)],
        ),
    ];
    for (command, merge_args, counts) in cases {
        let mut args: Vec<&str> = merge_args.to_vec();
        args.extend(*command);
        let want = single(&args);
        for &units in *counts {
            let got = planned(dir.path(), units, command, merge_args);
            assert!(
                got == want,
                "{command:?} in {units:?} units differs from the single run:\n{}",
                similar::TextDiff::from_lines(&want, &got).unified_diff()
            );
        }
    }
}

#[test]
fn shards_merge_into_the_single_runs_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let command = ["run", "um-el-bagara", "--all-interpretations", "-n", "500"];
    let mut json = vec!["--format", "json"];
    json.extend(command);
    let want = single(&json);
    for n in [1u64, 2, 5] {
        let mut files = Vec::new();
        for i in 0..n {
            let mut args: Vec<String> = command.iter().map(|s| (*s).to_owned()).collect();
            args.extend(["--shard".into(), format!("{i}/{n}")]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let path = dir.path().join(format!("s{i}.json"));
            std::fs::write(&path, single(&args)).unwrap();
            files.push(path);
        }
        let mut args = vec!["merge".to_owned()];
        args.extend(files.iter().rev().map(|p| p.to_str().unwrap().to_owned()));
        args.extend(["--format".into(), "json".into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(single(&args), want, "{n} shards");
    }
}

#[test]
fn merge_refuses_a_missing_duplicated_or_foreign_part() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (plan, other) = (d("plan.json"), d("other.json"));
    single(&[
        "plan",
        "-q",
        "-o",
        &plan,
        "--units",
        "3",
        "run",
        "um-el-bagara",
        "-n",
        "200",
    ]);
    single(&[
        "plan",
        "-q",
        "-o",
        &other,
        "--units",
        "3",
        "run",
        "um-el-bagara",
        "-n",
        "300",
    ]);
    for k in ["0", "1", "2"] {
        single(&["work", &plan, "--unit", k, "-q"]);
        single(&["work", &other, "--unit", k, "-q"]);
    }
    let unit = |p: &str, k: u64| p.replace(".json", &format!(".unit-{k}.json"));
    let err = fails(&["merge", &plan, &unit(&plan, 0), &unit(&plan, 2)]);
    assert!(err.contains("1 of 3 units missing: 1"), "{err}");
    let err = fails(&[
        "merge",
        &plan,
        &unit(&plan, 0),
        &unit(&plan, 1),
        &unit(&plan, 1),
        &unit(&plan, 2),
    ]);
    assert!(err.contains("unit 1 is given twice"), "{err}");
    let err = fails(&[
        "merge",
        &plan,
        &unit(&plan, 0),
        &unit(&other, 1),
        &unit(&plan, 2),
    ]);
    assert!(err.contains("not a unit of the plan"), "{err}");
    // A unit merged without its plan, a plan given twice, a file that is not ours.
    let err = fails(&["merge", &unit(&plan, 0)]);
    assert!(err.contains("give the plan first"), "{err}");
    let err = fails(&["merge", &plan, &plan]);
    assert!(err.contains("a plan; give the plan first"), "{err}");
    std::fs::write(d("notes.json"), "{\"format\": \"something\"}").unwrap();
    let err = fails(&["merge", &plan, &d("notes.json")]);
    assert!(
        err.contains("not a ludotrace plan or partial result"),
        "{err}"
    );
    std::fs::write(
        d("broken.json"),
        "{\n  \"format\": \"ludotrace-plan\",\n  oops\n}",
    )
    .unwrap();
    let err = fails(&["work", &d("broken.json"), "--unit", "0"]);
    assert!(
        err.contains("broken.json:3:3"),
        "file, line and column: {err}"
    );
    // A shard of another run, a shard twice, a shard missing.
    let shard = |n: &str, i: &str, name: &str| {
        let path = d(name);
        std::fs::write(
            &path,
            single(&["run", "um-el-bagara", "-n", n, "--shard", i]),
        )
        .unwrap();
        path
    };
    let (a0, a1, b1) = (
        shard("200", "0/2", "a0"),
        shard("200", "1/2", "a1"),
        shard("300", "1/2", "b1"),
    );
    let err = fails(&["merge", &a0, &b1]);
    assert!(err.contains("not a shard of the same run"), "{err}");
    let err = fails(&["merge", &a0, &a0]);
    assert!(err.contains("shard 0/2 is given twice"), "{err}");
    let err = fails(&["merge", &a1]);
    assert!(err.contains("1 of 2 shards missing: 0"), "{err}");
    // Numbers a user types.
    let err = fails(&["work", &plan, "--unit", "3"]);
    assert!(err.contains("units 0 to 2, not 3"), "{err}");
    for bad in ["3/3", "1/0", "x", "1/2000000"] {
        let err = fails(&["run", "um-el-bagara", "--shard", bad]);
        assert!(err.contains("I/N"), "{bad}: {err}");
    }
    let err = fails(&["plan", "--units", "0", "run", "um-el-bagara"]);
    assert!(err.contains("--units must be 1 to"), "{err}");
    let err = fails(&[
        "plan",
        "diff",
        "um-el-bagara",
        "davies",
        "ludii-1.0.8",
        "--games",
        "auto",
    ]);
    assert!(err.contains("--games auto"), "{err}");
    let err = fails(&["plan", "list"]);
    assert!(
        err.contains("plan `run`, `diff`, `flags` or `assess`"),
        "{err}"
    );
    let err = fails(&["plan", "run", "um-el-bagara", "--store-games"]);
    assert!(err.contains("store options go to `merge`"), "{err}");
    // A unit's output is never written over something else.
    std::fs::write(d("mine.txt"), "my notes").unwrap();
    let err = fails(&["work", &plan, "--unit", "0", "--out", &d("mine.txt")]);
    assert!(err.contains("is not this unit's output"), "{err}");
    assert_eq!(std::fs::read_to_string(d("mine.txt")).unwrap(), "my notes");
}

#[test]
fn a_plan_is_worked_only_with_its_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = crate::util::mini_corpus();
    let c = corpus.path().to_str().unwrap();
    let plan = dir.path().join("plan.json");
    let plan = plan.to_str().unwrap();
    let game = "um-el-bagara";
    single(&[
        "--corpus", c, "plan", "-q", "-o", plan, "run", game, "-n", "100",
    ]);
    let text = std::fs::read_to_string(plan).unwrap();
    assert!(
        text.contains("\"--corpus\""),
        "the plan names its corpus: {text}"
    );
    // The corpus changes after the plan was made.
    let file = std::fs::read_dir(corpus.path().join("sources"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut yaml = std::fs::read_to_string(&file).unwrap();
    yaml.push_str("\n# edited\n");
    std::fs::write(&file, yaml).unwrap();
    let err = fails(&["work", plan, "--unit", "0"]);
    assert!(err.contains("the plan was made from corpus"), "{err}");
}

/// Opens a store read-only, for counting what a run wrote: its rows (id, first game, end
/// game, when written).
fn blocks(store: &Path) -> Vec<(i64, i64, i64, String)> {
    let conn =
        rusqlite::Connection::open_with_flags(store, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    // (A store being created may not have its tables yet.)
    let Ok(mut stmt) =
        conn.prepare("SELECT id, first_game, end_game, created FROM blocks ORDER BY id")
    else {
        return Vec::new();
    };
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn the_store_keeps_blocks_and_games_and_a_rerun_takes_them() {
    let store = fresh_store();
    let args = [
        "run",
        "um-el-bagara",
        "--all-interpretations",
        "-n",
        "300",
        "--format",
        "json",
    ];
    let (first, err) = with_store(Some(&store), &args);
    assert!(!err.contains("taken from the results store"), "{err}");
    let (again, err) = with_store(Some(&store), &args);
    assert_eq!(first, again);
    assert!(err.contains("taken from the results store"), "{err}");
    assert_eq!(first, single(&args));
    // The schema a user queries: blocks by reading, the results view, per-game rows.
    let csv = ["run", "um-el-bagara", "-n", "300", "--format", "csv"];
    let mut with_games = vec!["--store-games"];
    with_games.extend(csv);
    let (rows, _) = with_store(Some(&store), &with_games);
    assert_eq!(rows, single(&csv));
    // Per-game rows come back as the CSV's rows, from the store.
    let (again, err) = with_store(Some(&store), &csv);
    assert_eq!(again, rows);
    assert!(err.contains("taken from the results store"), "{err}");
    let conn = rusqlite::Connection::open(&store).unwrap();
    let version: String = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, "2");
    let json: serde_json::Value = serde_json::from_str(&first).unwrap();
    for r in json["runs"].as_array().unwrap() {
        let reading = r["interpretation"].as_str().unwrap();
        let (games, draws, wins): (i64, i64, String) = conn
            .query_row(
                "SELECT SUM(games), SUM(draws), json_group_array(wins) FROM blocks \
                 JOIN tasks ON tasks.id = blocks.task WHERE game = 'um-el-bagara' \
                 AND reading = ?1 AND overrides = '{}' AND seed = 1",
                [reading],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(games, 300, "{reading}");
        assert_eq!(draws, r["results"]["draws"].as_i64().unwrap(), "{reading}");
        let by_block: Vec<String> = serde_json::from_str(&wins).unwrap();
        let p1: i64 = by_block
            .iter()
            .map(|w| serde_json::from_str::<Vec<i64>>(w).unwrap()[0])
            .sum();
        assert_eq!(p1, r["results"]["wins"][0].as_i64().unwrap(), "{reading}");
    }
    let (rows, wins): (i64, i64) = conn
        .query_row(
            "SELECT COUNT(*), SUM(winner = 1) FROM games JOIN blocks ON games.block = blocks.id \
             JOIN tasks ON tasks.id = blocks.task WHERE tasks.reading = 'davies'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let davies = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["interpretation"] == "davies")
        .unwrap();
    assert_eq!(rows, 300);
    assert_eq!(wins, davies["results"]["wins"][0].as_i64().unwrap());
    // The view counts each run's games once, whichever runs share blocks.
    let (view, p1, complete): (i64, i64, bool) = conn
        .query_row(
            "SELECT games, p1_wins, complete FROM results WHERE reading = 'davies' \
             AND first_game = 0 AND end_game = 300",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (view, p1, complete),
        (300, davies["results"]["wins"][0].as_i64().unwrap(), true)
    );
}

#[test]
fn two_processes_share_a_store() {
    let store = fresh_store();
    // 64 blocks a reading.
    let args = [
        "run",
        "um-el-bagara",
        "--all-interpretations",
        "-n",
        "2048",
        "--format",
        "json",
    ];
    let mut children: Vec<std::process::Child> = (0..2)
        .map(|_| {
            std::process::Command::new(env!("CARGO_BIN_EXE_ludotrace"))
                .env("LUDOTRACE_STORE", &store)
                .env("NO_COLOR", "1")
                .env_remove("LUDOTRACE_CORPUS")
                .args(args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let want = single(&args);
    for child in children.drain(..) {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
    }
    // Each run whole once, whoever wrote its rows (both may have played a game, and a row
    // both wrote is written once).
    let json: serde_json::Value = serde_json::from_str(&want).unwrap();
    let readings = json["runs"].as_array().unwrap().len();
    let conn = rusqlite::Connection::open(&store).unwrap();
    let runs: Vec<(i64, bool)> = conn
        .prepare("SELECT games, complete FROM results")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(runs, vec![(2048, true); readings]);
    let twice: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM (SELECT task, first_game, end_game FROM blocks \
             GROUP BY task, first_game, end_game HAVING COUNT(*) > 1)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(twice, 0);
}

#[test]
fn a_killed_run_resumes_from_its_finished_blocks() {
    let store = fresh_store();
    // Long enough to kill midway in any build (the debug profile is optimised too): 64
    // blocks of one skilled game each.
    let agents = "mcts:600,random";
    let args = [
        "run",
        "um-el-bagara",
        "-n",
        "64",
        "--agents",
        agents,
        "--threads",
        "1",
        "--format",
        "json",
    ];
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ludotrace"))
        .env("LUDOTRACE_STORE", &store)
        .env("NO_COLOR", "1")
        .env_remove("LUDOTRACE_CORPUS")
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for a few finished blocks (written at least once a second), then kill without
    // warning.
    let games = |rows: &[(i64, i64, i64, String)]| rows.iter().map(|r| r.2 - r.1).sum::<i64>();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    loop {
        std::thread::sleep(std::time::Duration::from_millis(5));
        if store.exists() && games(&blocks(&store)) >= 3 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no block stored in time"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    let before = blocks(&store);
    assert!(
        (3..64).contains(&games(&before)),
        "killed midway: {} of 64 blocks",
        games(&before)
    );
    let (resumed, err) = with_store(Some(&store), &args);
    assert_eq!(
        resumed,
        single(&args),
        "the resumed run prints the uninterrupted run's bytes"
    );
    // Only the missing blocks were played: the finished ones were taken, untouched.
    assert!(
        err.contains(&format!(
            "{} of 64 blocks of games taken from the results store",
            games(&before)
        )),
        "{err}"
    );
    let after = blocks(&store);
    assert_eq!(games(&after), 64);
    assert_eq!(after[..before.len()], before[..]);
    // The run is one row of the results view, complete now.
    let conn = rusqlite::Connection::open(&store).unwrap();
    let runs: Vec<(i64, bool)> = conn
        .prepare("SELECT games, complete FROM results")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(runs, vec![(64, true)]);
}

#[test]
fn bad_stores_are_refused_with_their_path() {
    let dir = tempfile::tempdir().unwrap();
    let not_sqlite: PathBuf = dir.path().join("notes.sqlite");
    std::fs::write(
        &not_sqlite,
        "my notes, which are not a database at all, long enough",
    )
    .unwrap();
    let err = fails(&[
        "--store",
        not_sqlite.to_str().unwrap(),
        "run",
        "um-el-bagara",
        "-n",
        "10",
    ]);
    assert!(
        err.contains("notes.sqlite") && err.contains("--no-store"),
        "{err}"
    );
    assert!(
        std::fs::read_to_string(&not_sqlite)
            .unwrap()
            .starts_with("my notes"),
        "left as it was"
    );
    let err = fails(&[
        "--store",
        dir.path().to_str().unwrap(),
        "run",
        "um-el-bagara",
        "-n",
        "10",
    ]);
    assert!(err.contains("results store"), "{err}");
}

/// Edits a JSON file in place.
fn edit(path: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    change(&mut v);
    std::fs::write(path, serde_json::to_string(&v).unwrap()).unwrap();
}

#[test]
fn merge_refuses_tampered_parts_and_stores_nothing_then() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let plan = d("plan.json");
    single(&[
        "plan",
        "-q",
        "-o",
        &plan,
        "--units",
        "2",
        "run",
        "um-el-bagara",
        "-n",
        "600",
    ]);
    for k in ["0", "1"] {
        single(&["work", &plan, "--unit", k, "-q"]);
    }
    let (u0, u1) = (d("plan.unit-0.json"), d("plan.unit-1.json"));
    let store = fresh_store();
    let merge = |args: &[&str]| {
        let mut cmd = bin();
        cmd.env("LUDOTRACE_STORE", &store).args(args);
        run(&mut cmd)
    };
    // A block that claims a game less than its range: refused, and nothing stored.
    let good = std::fs::read_to_string(&u1).unwrap();
    edit(Path::new(&u1), |v| {
        let t = &mut v["blocks"][0]["tally"];
        t["games"] = (t["games"].as_u64().unwrap() - 1).into();
        t["wins"][0] = (t["wins"][0].as_u64().unwrap().saturating_sub(1)).into();
    });
    let (code, out, err) = merge(&["merge", &plan, &u0, &u1]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("games for a block of"), "{err}");
    assert!(
        !store.exists() || blocks(&store).is_empty(),
        "a failed merge stores nothing"
    );
    // A length no game can have (which would otherwise be a vast histogram).
    std::fs::write(&u1, &good).unwrap();
    edit(Path::new(&u1), |v| {
        v["blocks"][0]["tally"]["plies"][0][0] = u32::MAX.into();
    });
    let (code, _, err) = merge(&["merge", &plan, &u0, &u1]);
    assert_eq!(code, 2);
    assert!(err.contains("beyond any game's length"), "{err}");
    // A unit number the plan does not have, a block missing.
    std::fs::write(&u1, &good).unwrap();
    edit(Path::new(&u1), |v| v["part_of"]["unit"] = 9.into());
    let (code, _, err) = merge(&["merge", &plan, &u0, &u1]);
    assert_eq!(code, 2);
    assert!(err.contains("not a unit of the plan"), "{err}");
    std::fs::write(&u1, &good).unwrap();
    edit(Path::new(&u1), |v| {
        v["blocks"].as_array_mut().unwrap().pop();
    });
    let (code, _, err) = merge(&["merge", &plan, &u0, &u1]);
    assert_eq!(code, 2);
    assert!(err.contains("no partial result holds games"), "{err}");
    assert!(
        !store.exists() || blocks(&store).is_empty(),
        "a failed merge stores nothing"
    );
    // Whole again: merged, and stored.
    std::fs::write(&u1, &good).unwrap();
    let (code, _, err) = merge(&["merge", &plan, &u0, &u1]);
    assert_eq!(code, 0, "{err}");
    let rows = blocks(&store);
    assert_eq!(
        rows.iter().map(|r| r.2 - r.1).sum::<i64>(),
        600,
        "600 games stored"
    );
    assert_eq!(rows.len(), 1, "the merged blocks of 10 in one row");
    // A plan whose command was edited into one that plays nothing, or writes files.
    for command in [
        vec!["list"],
        vec!["report", "um-el-bagara", "--out", &d("r")],
    ] {
        edit(Path::new(&plan), |v| {
            v["command"] = serde_json::json!(command)
        });
        let err = fails(&["work", &plan, "--unit", "0"]);
        assert!(err.contains("does not play games in units"), "{err}");
        assert!(!dir.path().join("r").exists());
    }
    // Units write no store; merge stores no games it was not given.
    let err = fails(&["work", &plan, "--unit", "0", "--store-games"]);
    assert!(err.contains("never a store"), "{err}");
    let err = fails(&["--store-games", "merge", &plan, &u0, &u1]);
    assert!(err.contains("--store-games"), "{err}");
    // plan -o never replaces a file that is not the same plan, text or not.
    std::fs::write(d("precious.bin"), [0xff, 0xfe, 0x00, 0x01]).unwrap();
    let err = fails(&["plan", "-o", &d("precious.bin"), "run", "um-el-bagara"]);
    assert!(err.contains("holds something else"), "{err}");
    assert_eq!(
        std::fs::read(d("precious.bin")).unwrap(),
        [0xff, 0xfe, 0x00, 0x01]
    );
}

#[test]
fn shards_of_one_run_merge_whatever_options_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let s0 = dir.path().join("s0.json");
    let s1 = dir.path().join("s1.json");
    let run_ = ["run", "um-el-bagara", "-n", "300"];
    std::fs::write(
        &s0,
        single(&[&run_[..], &["--shard", "0/2", "--threads", "1"]].concat()),
    )
    .unwrap();
    std::fs::write(
        &s1,
        single(&[&run_[..], &["--seed", "1", "-q", "--shard=1/2"]].concat()),
    )
    .unwrap();
    let merged = single(&[
        "merge",
        s0.to_str().unwrap(),
        s1.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(merged, single(&[&run_[..], &["--format", "json"]].concat()));
    // An empty LUDOTRACE_STORE is unset, not an error.
    let (code, _, err) = run(bin()
        .env("LUDOTRACE_STORE", "")
        .args(["--no-store", "list"]));
    assert_eq!(code, 0, "{err}");
}
