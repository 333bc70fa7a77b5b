//! Work beyond one process: `plan` splits a command that plays games into units, `work`
//! computes one unit into a file of partial results, `run --shard I/N` computes every N-th
//! block, and `merge` joins partial results into the output one process prints.
//!
//! None of these knows what `run`, `diff`, `flags` or `assess` compute. Each runs the planned
//! command itself, through [`Exec`] in another mode: recording the tasks it would play (`plan`),
//! playing only a unit's blocks (`work`, `--shard`), or taking every block from the partial
//! results (`merge`). So a merged result is the single run's by construction: the same code
//! renders the same integer sums, and blocks are folded in the order of their games.
//!
//! Two formats of their own, each with a `format` name and a `version` (raised when a field
//! is renamed or redefined; fields are only ever added under one version): the plan (the
//! command, the corpus's hash, the build, every task with its blocks, the units) and the
//! partial result (what it is part of, and each block's tally with its histograms).
//!
//! **Architecture Invariant:** a unit or shard never writes the results store; `merge` does,
//! once every block is present exactly once and from the same plan, corpus and build.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{Cli, Command, Games};
use crate::analysis::Error;
use crate::exec::units::{
    MAX_UNITS, PARTIAL_FORMAT, PLAN_FORMAT, PartOf, PartialFile, PlanFile, Shard, UNITS_VERSION,
    all_present, blocks_of, describe, header, read_json, read_plan, unit_path, units_of_plan,
    write_atomic,
};
use crate::exec::{Exec, Mode, SavedBlock, TaskInfo, build};
use crate::present::{Format, Out};

/// The argument list of the command a plan or shard runs: `command` with the outer
/// `--corpus` put in front where the command gives none, so that a worker reads the corpus
/// the plan was made from whatever its environment says.
fn command_of(outer: &Cli, command: &[String]) -> Result<Vec<String>, Error> {
    let inner = parse(command)?;
    let mut argv = command.to_vec();
    if (inner.corpus.is_none() || inner.corpus_from_env)
        && let Some(dir) = &outer.corpus
    {
        argv.splice(0..0, ["--corpus".to_owned(), dir.display().to_string()]);
    }
    Ok(argv)
}

/// Parses a planned command.
fn parse(command: &[String]) -> Result<Cli, Error> {
    Cli::try_from_args(std::iter::once("ludotrace".to_owned()).chain(command.iter().cloned()))
        .map_err(|e| {
            Error::Usage(format!(
                "the command `{}` does not parse: {}",
                command.join(" "),
                e.to_string().trim().trim_start_matches("error: ")
            ))
        })
}

/// Refuses a command that cannot be cut into units.
fn plannable(cli: &Cli) -> Result<(), Error> {
    // (LUDOTRACE_STORE in the environment is no option of the command's.)
    let store_option = |w: &String| {
        ["--store", "--no-store", "--store-games"]
            .iter()
            .any(|o| w == o || w.starts_with(&format!("{o}=")))
    };
    if cli.argv.iter().any(store_option) {
        return Err(Error::Usage(
            "store options go to `merge` (the one step that writes a store), not into the \
             planned command"
                .to_owned(),
        ));
    }
    match &cli.command {
        Command::Run { shard: Some(_), .. } => Err(Error::Usage(
            "a planned run cannot be a shard: the plan cuts it into units itself".to_owned(),
        )),
        Command::Run { .. } if cli.format == Format::Csv => Err(Error::Usage(
            "partial results keep each block's totals, not its games: a planned run prints \
             table, json or markdown, not csv (a single `run --format csv` prints its games)"
                .to_owned(),
        )),
        Command::Run { .. } | Command::Flags { .. } | Command::Assess { .. } => Ok(()),
        Command::Diff { play, .. } if play.games == Games::Auto => Err(Error::Usage(
            "`diff --games auto` decides how many games to play from the games played, so \
             its units cannot be known beforehand; plan it with a number of games (-n)"
                .to_owned(),
        )),
        Command::Diff { .. } => Ok(()),
        other => Err(Error::Usage(format!(
            "`{}` does not play games in units; plan `run`, `diff`, `flags` or `assess`",
            super::command_name(other)
        ))),
    }
}

/// Runs a parsed command through `exec`, rendering into `out`: the command's own code.
fn execute(cli: &Cli, exec: &Exec, out: &mut Out) -> Result<(), Error> {
    let files = super::files(cli)?;
    let corpus = super::load(cli)?;
    super::play_command(cli, out, &corpus, &files, exec)?;
    Ok(exec.finish()?)
}

/// The corpus hash of a parsed command's corpus.
fn hash_of(cli: &Cli) -> Result<String, Error> {
    Ok(super::run::corpus_hash(&super::files(cli)?))
}

/// The tasks a command plays, recorded without playing.
fn record(cli: &Cli, hash: &str) -> Result<Vec<TaskInfo>, Error> {
    let exec = Exec::new(
        Mode::Record(Mutex::new(Vec::new())),
        hash.to_owned(),
        None,
        false,
    );
    execute(cli, &exec, &mut Out::discard(cli.format))?;
    match exec.into_mode() {
        Mode::Record(tasks) => Ok(tasks.into_inner().expect("record lock")),
        _ => unreachable!("made in record mode"),
    }
}

/// Plays only `blocks` of a command, and returns them.
fn only(
    cli: &Cli,
    hash: &str,
    blocks: HashSet<(String, u64, u64)>,
) -> Result<Vec<SavedBlock>, Error> {
    let exec = Exec::new(
        Mode::Only(blocks, Mutex::new(Vec::new())),
        hash.to_owned(),
        None,
        false,
    );
    execute(cli, &exec, &mut Out::discard(cli.format))?;
    match exec.into_mode() {
        Mode::Only(_, kept) => {
            // Played in any order by the workers; kept in one, so a unit's file is the same
            // bytes at any thread count.
            let mut kept = kept.into_inner().expect("only lock");
            kept.sort_by(|a, b| (&a.identity, a.games).cmp(&(&b.identity, b.games)));
            Ok(kept)
        }
        _ => unreachable!("made in only mode"),
    }
}

/// `ludotrace plan`.
///
/// # Errors
/// A command that cannot be planned, a corpus that does not load, an output that exists.
pub fn plan(
    outer: &Cli,
    units: Option<u64>,
    out_file: Option<&Path>,
    command: &[String],
) -> Result<i32, Error> {
    let argv = command_of(outer, command)?;
    let inner = parse(&argv)?;
    plannable(&inner)?;
    let hash = hash_of(&inner)?;
    let tasks = record(&inner, &hash)?;
    let pairs: Vec<(usize, usize)> = tasks
        .iter()
        .enumerate()
        .flat_map(|(t, info)| (0..info.blocks.len()).map(move |b| (t, b)))
        .collect();
    let count = match units {
        Some(n) if !(1..=MAX_UNITS).contains(&n) => {
            return Err(Error::Usage(format!(
                "--units must be 1 to {MAX_UNITS}, not {n}"
            )));
        }
        Some(n) => n.min(pairs.len() as u64) as usize,
        None => pairs.len(),
    };
    let mut cut: Vec<Vec<(usize, usize)>> = vec![Vec::new(); count];
    for (k, p) in pairs.iter().enumerate() {
        cut[k % count].push(*p);
    }
    let plan = PlanFile {
        format: PLAN_FORMAT.to_owned(),
        version: UNITS_VERSION,
        ludotrace: build(),
        corpus_hash: hash,
        command: argv,
        tasks,
        units: cut,
    };
    let text = serde_json::to_string_pretty(&plan).expect("plans serialise") + "\n";
    match out_file {
        None => {
            let mut out = Out::new(Format::Json, None);
            out.raw(&text);
            out.flush()?;
        }
        Some(path) => {
            if path.exists() && std::fs::read(path).ok().as_deref() != Some(text.as_bytes()) {
                return Err(Error::Usage(format!(
                    "{} exists and holds something else: remove it, or choose another -o \
                     (a plan replaces only the same plan)",
                    path.display()
                )));
            }
            write_atomic(path, &text)?;
            // The number of units alone on stdout, for a script's `--array=0-$((K - 1))`.
            let mut out = Out::new(Format::Table, None);
            out.line(&plan.units.len().to_string());
            out.flush()?;
            if !outer.quiet {
                // A task is a reading, a diff's arm or a global design's row.
                let tasks = plan.tasks.len();
                anstream::eprintln!(
                    "ludotrace: {}: {} unit{} ({} block{} of {} task{}: readings, arms or \
                     design rows); run `ludotrace work {} \
                     --unit K` for K = 0 to {}, then `ludotrace merge {} <outputs>`",
                    path.display(),
                    plan.units.len(),
                    if plan.units.len() == 1 { "" } else { "s" },
                    pairs.len(),
                    if pairs.len() == 1 { "" } else { "s" },
                    tasks,
                    if tasks == 1 { "" } else { "s" },
                    path.display(),
                    plan.units.len().saturating_sub(1),
                    path.display()
                );
            }
        }
    }
    Ok(0)
}

/// The parsed command of a plan or partial results, with the outer options that shape the
/// output (format, width, quiet) and threads.
fn inner_of(outer: &Cli, argv: &[String], threads: Option<usize>) -> Result<Cli, Error> {
    let mut inner = parse(argv)?;
    if outer.format_given {
        inner.format = outer.format;
        inner.format_given = true;
    }
    inner.quiet |= outer.quiet;
    if outer.width.is_some() {
        inner.width = outer.width;
    }
    inner.store.clone_from(&outer.store);
    inner.no_store = outer.no_store;
    inner.store_games = outer.store_games;
    if let Some(t) = threads {
        match &mut inner.command {
            Command::Run { play, .. }
            | Command::Diff { play, .. }
            | Command::Flags { play, .. } => {
                play.threads = Some(t);
            }
            Command::Assess { threads, .. } => *threads = Some(t),
            _ => {}
        }
    }
    Ok(inner)
}

/// `ludotrace work`.
///
/// # Errors
/// A plan that cannot be read or was made by another build or from another corpus, a unit
/// out of range, an output that exists and is not this unit's.
pub fn work(
    outer: &Cli,
    plan_path: &Path,
    unit: u64,
    out_file: Option<&Path>,
    threads: Option<usize>,
) -> Result<i32, Error> {
    let (plan, plan_hash) = read_plan(plan_path)?;
    let units = plan.units.len() as u64;
    let Some(blocks) = plan.units.get(unit as usize) else {
        return Err(Error::Usage(format!(
            "{} has units 0 to {}, not {unit}",
            plan_path.display(),
            units.saturating_sub(1)
        )));
    };
    if outer.store.is_some() || outer.store_games {
        return Err(Error::Usage(
            "a unit writes its partial results to its own file, never a store: `merge` \
             stores them (give it the store options)"
                .to_owned(),
        ));
    }
    let inner = inner_of(outer, &plan.command, threads)?;
    plannable(&inner)?;
    let hash = hash_of(&inner)?;
    if hash != plan.corpus_hash {
        return Err(Error::Usage(format!(
            "{}: the plan was made from corpus {}, this corpus is {hash}: work a plan with the \
             corpus it was made from",
            plan_path.display(),
            plan.corpus_hash
        )));
    }
    let path = out_file.map_or_else(|| unit_path(plan_path, unit), Path::to_path_buf);
    let part_of = PartOf::Plan {
        plan: plan_hash,
        unit,
        units,
    };
    if path.exists() {
        let theirs = read_json::<serde_json::Value>(&path, "JSON")
            .ok()
            .and_then(|v| serde_json::from_value::<PartOf>(v.get("part_of")?.clone()).ok());
        if theirs.as_ref() != Some(&part_of) {
            return Err(Error::Usage(format!(
                "{} exists and is not this unit's output: remove it, or choose another --out",
                path.display()
            )));
        }
    }
    let want: HashSet<(String, u64, u64)> = blocks
        .iter()
        .map(|&(t, b)| {
            let task = &plan.tasks[t];
            let (first, end) = task.blocks[b];
            (task.identity.clone(), first, end)
        })
        .collect();
    let kept = only(&inner, &hash, want.clone())?;
    let got: HashSet<(String, u64, u64)> = kept
        .iter()
        .map(|b| (b.identity.clone(), b.games.0, b.games.1))
        .collect();
    if got != want {
        return Err(Error::Usage(format!(
            "{}: its command no longer plays unit {unit}'s blocks ({} of {} met): the plan \
             does not match this binary and corpus",
            plan_path.display(),
            got.intersection(&want).count(),
            want.len()
        )));
    }
    let partial = PartialFile {
        format: PARTIAL_FORMAT.to_owned(),
        version: UNITS_VERSION,
        ludotrace: build(),
        corpus_hash: hash,
        command: plan.command,
        part_of,
        blocks: kept,
    };
    write_atomic(
        &path,
        &(serde_json::to_string(&partial).expect("partials serialise") + "\n"),
    )?;
    if !outer.quiet {
        anstream::eprintln!(
            "ludotrace: unit {unit} of {units}: wrote {}",
            path.display()
        );
    }
    Ok(0)
}

/// `ludotrace run … --shard I/N`: prints the shard's partial results.
///
/// # Errors
/// As `run`'s.
pub fn shard(outer: &Cli, shard: Shard) -> Result<i32, Error> {
    // The command as typed, less --shard and the store options (a shard writes no store).
    let mut argv = Vec::new();
    let mut words = outer.argv.iter().skip(1);
    while let Some(w) = words.next() {
        if w == "--shard" || w == "--store" {
            words.next();
        } else if !["--shard=", "--store=", "--no-store", "--store-games"]
            .iter()
            .any(|o| w.starts_with(o))
        {
            argv.push(w.clone());
        }
    }
    let argv = command_of(outer, &argv)?;
    let inner = parse(&argv)?;
    plannable(&inner)?;
    let hash = hash_of(&inner)?;
    let tasks = record(&inner, &hash)?;
    let want: HashSet<(String, u64, u64)> = tasks
        .iter()
        .flat_map(|t| {
            t.blocks
                .iter()
                .enumerate()
                .filter(|&(b, _)| b as u64 % shard.of == shard.index)
                .map(|(_, &(first, end))| (t.identity.clone(), first, end))
        })
        .collect();
    let kept = only(&inner, &hash, want)?;
    let partial = PartialFile {
        format: PARTIAL_FORMAT.to_owned(),
        version: UNITS_VERSION,
        ludotrace: build(),
        corpus_hash: hash,
        command: argv,
        part_of: PartOf::Shard {
            shard: shard.index,
            shards: shard.of,
        },
        blocks: kept,
    };
    let mut out = Out::new(Format::Json, None);
    out.raw(&(serde_json::to_string(&partial).expect("partials serialise") + "\n"));
    out.flush()?;
    Ok(0)
}

/// `ludotrace merge`.
///
/// # Errors
/// A missing, duplicated or foreign unit or shard, files of another build or corpus.
pub fn merge(outer: &Cli, files: &[PathBuf]) -> Result<i32, Error> {
    if outer.store_games {
        return Err(Error::Usage(
            "--store-games keeps the games of a run played here; partial results carry each \
             block's totals only (merge stores the blocks)"
                .to_owned(),
        ));
    }
    let first = header(&files[0])?;
    let (plan, parts) = if first.format.as_deref() == Some(PLAN_FORMAT) {
        (Some(read_plan(&files[0])?), &files[1..])
    } else {
        (None, files)
    };
    if parts.is_empty() {
        return Err(Error::Usage(
            "merge needs the units' outputs after the plan".to_owned(),
        ));
    }
    let mut partials = Vec::new();
    for path in parts {
        let h = header(path)?;
        if h.format.as_deref() == Some(PLAN_FORMAT) {
            return Err(Error::Usage(format!(
                "{}: a plan; give the plan first, then its units' outputs",
                path.display()
            )));
        }
        let p: PartialFile = read_json(path, "ludotrace partial results")?;
        partials.push((path, p));
    }
    // Every part must belong to the same whole, each exactly once.
    let (command, corpus_hash, expected) = match &plan {
        Some((plan, hash)) => (
            plan.command.clone(),
            plan.corpus_hash.clone(),
            units_of_plan(plan, hash, &files[0], &partials)?,
        ),
        None => {
            let (_, p0) = &partials[0];
            let PartOf::Shard { shards, .. } = p0.part_of else {
                return Err(Error::Usage(format!(
                    "{}: a unit of a plan: give the plan first (`ludotrace merge PLAN \
                     OUTPUTS…`)",
                    partials[0].0.display()
                )));
            };
            if !(1..=MAX_UNITS).contains(&shards) {
                return Err(Error::Usage(format!(
                    "{}: {shards} shards; a run is cut into 1 to {MAX_UNITS}",
                    partials[0].0.display()
                )));
            }
            // Shards are of one run when their commands play the same blocks: the options
            // that change nothing (threads, quiet, width, a default spelt out) may differ.
            let mut tasks: HashMap<&[String], Vec<TaskInfo>> = HashMap::new();
            for (_, p) in &partials {
                if !tasks.contains_key(p.command.as_slice()) {
                    let inner = inner_of(outer, &p.command, None)?;
                    plannable(&inner)?;
                    tasks.insert(&p.command, record(&inner, &hash_of(&inner)?)?);
                }
            }
            let same =
                |p: &PartialFile| tasks[p.command.as_slice()] == tasks[p0.command.as_slice()];
            let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
            for (path, p) in &partials {
                match p.part_of {
                    PartOf::Shard { shard, shards: n } if n == shards && shard < n && same(p) => {
                        if let Some(other) = seen.insert(shard, path) {
                            return Err(Error::Usage(format!(
                                "shard {shard}/{shards} is given twice: {} and {}",
                                other.display(),
                                path.display()
                            )));
                        }
                    }
                    _ => {
                        return Err(Error::Usage(format!(
                            "{}: not a shard of the same run as {} ({}, `{}`): merge the N \
                             shards of one `run --shard I/N`",
                            path.display(),
                            partials[0].0.display(),
                            describe(&p0.part_of),
                            p0.command.join(" ")
                        )));
                    }
                }
            }
            (p0.command.clone(), p0.corpus_hash.clone(), shards)
        }
    };
    let what = if plan.is_some() { "units" } else { "shards" };
    all_present(&partials, expected, what)?;
    for (path, p) in &partials {
        if p.corpus_hash != corpus_hash || (plan.is_some() && p.command != command) {
            return Err(Error::Usage(format!(
                "{}: computed from another corpus or command than the others",
                path.display()
            )));
        }
    }
    let blocks = blocks_of(partials)?;
    let inner = inner_of(outer, &command, None)?;
    plannable(&inner)?;
    if inner.format == Format::Csv {
        return Err(Error::Usage(
            "partial results keep each block's totals, not its games: merge prints table, \
             json or markdown, not csv"
                .to_owned(),
        ));
    }
    let hash = hash_of(&inner)?;
    if hash != corpus_hash {
        return Err(Error::Usage(format!(
            "the partial results were computed from corpus {corpus_hash}, this corpus is \
             {hash}: merge with the corpus they were computed from"
        )));
    }
    let store = super::open_store(&inner)?;
    let exec = Exec::new(
        Mode::Replay(Mutex::new(blocks)),
        hash,
        store,
        inner.store_games,
    );
    let mut out = Out::new(inner.format, super::args::table_width(inner.width));
    execute(&inner, &exec, &mut out)?;
    if let Mode::Replay(left) = exec.mode() {
        let left = left.lock().expect("replay lock");
        if let Some((identity, a, b)) = left.keys().next() {
            return Err(Error::Usage(format!(
                "{} block(s) of the partial results belong to no task of the command (games \
                 {a}..{b} of task {identity}, …): they are not this command's",
                left.len()
            )));
        }
    }
    exec.commit()?;
    out.flush()?;
    Ok(0)
}
