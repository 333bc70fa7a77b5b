//! The two file formats of work beyond one process, each with a `format` name and a `version`
//! (raised when a field is renamed or redefined; fields are only ever added under one
//! version): the plan (the command, the corpus's hash, the build, every task with its blocks,
//! the units) and the partial result (what it is part of, and each block's tally with its
//! histograms); and a shard's `I/N`.

use serde::{Deserialize, Serialize};

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::sim::saved::SavedTally;

use super::{ExecError, SavedBlock, TaskInfo, build};

/// The plan format's name and version.
pub const PLAN_FORMAT: &str = "ludotrace-plan";
/// The partial results format's name.
pub const PARTIAL_FORMAT: &str = "ludotrace-partial";
/// The version of both formats.
pub const UNITS_VERSION: u32 = 1;
/// The most units or shards a plan or run may be cut into.
pub const MAX_UNITS: u64 = 1_000_000;

/// A plan: a command cut into units.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanFile {
    /// Always `ludotrace-plan`.
    pub format: String,
    /// The format's version.
    pub version: u32,
    /// The version and build that made it (units and merge must be the same build).
    pub ludotrace: String,
    /// BLAKE3 of the corpus files.
    pub corpus_hash: String,
    /// The planned command, as typed after `ludotrace` (with `--corpus DIR` where it reads
    /// one).
    pub command: Vec<String>,
    /// The readings the command plays, each with its blocks of games.
    pub tasks: Vec<TaskInfo>,
    /// Unit k: its blocks, as (task index, block index) pairs.
    pub units: Vec<Vec<(usize, usize)>>,
}

/// What a partial result is a part of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", tag = "kind", deny_unknown_fields)]
pub enum PartOf {
    /// Unit `unit` of `units` of the plan whose file hashes to `plan`.
    Plan {
        /// BLAKE3 of the plan file.
        plan: String,
        /// The unit.
        unit: u64,
        /// The plan's units.
        units: u64,
    },
    /// Shard `shard` of `shards` of `run --shard`.
    Shard {
        /// The shard, I of I/N.
        shard: u64,
        /// N.
        shards: u64,
    },
}

/// Partial results: some blocks of a command.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PartialFile {
    /// Always `ludotrace-partial`.
    pub format: String,
    /// The format's version.
    pub version: u32,
    /// The version and build that computed it.
    pub ludotrace: String,
    /// BLAKE3 of the corpus files.
    pub corpus_hash: String,
    /// The command, as typed after `ludotrace` (without `--shard`).
    pub command: Vec<String>,
    /// What it is part of.
    pub part_of: PartOf,
    /// Its blocks, in the order played.
    pub blocks: Vec<SavedBlock>,
}

/// `--shard I/N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// I.
    pub index: u64,
    /// N.
    pub of: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("expected I/N with 0 ≤ I < N ≤ {MAX_UNITS}, e.g. 0/4, not {s:?}");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, of): (u64, u64) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if of == 0 || of > MAX_UNITS || index >= of {
            return Err(bad());
        }
        Ok(Shard { index, of })
    }
}

/// Writes `text` to `path` through a temporary file renamed into place, so that a reader
/// (or a rerun after a kill) never sees half a file.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), ExecError> {
    let err = |e: std::io::Error| ExecError(format!("{}: cannot write it: {e}", path.display()));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

/// Reads a file of one of our formats, with the place of a syntax error.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T, ExecError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ExecError(format!("{}: cannot read it: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        ExecError(format!(
            "{}:{}:{}: not {what}: {}",
            path.display(),
            e.line(),
            e.column(),
            crate::family::plain_type_words(&e.to_string())
        ))
    })
}

/// What a file of ours says it is, read first so that a plan and a partial result (and
/// anything else) are told apart with a clear message.
#[derive(Deserialize)]
pub struct Header {
    /// `format`.
    pub format: Option<String>,
    /// `version`.
    pub version: Option<u32>,
    /// The build that made it.
    pub ludotrace: Option<String>,
}

/// Reads what a file says it is, and checks that this build reads it.
///
/// # Errors
/// Unreadable, not one of the two formats, another version or build.
pub fn header(path: &Path) -> Result<Header, ExecError> {
    let h: Header = read_json(path, "a ludotrace plan or partial result (JSON)")?;
    match (&h.format, h.version) {
        (Some(f), Some(v)) if (f == PLAN_FORMAT || f == PARTIAL_FORMAT) && v == UNITS_VERSION => {}
        (Some(f), Some(v)) if f == PLAN_FORMAT || f == PARTIAL_FORMAT => {
            return Err(ExecError(format!(
                "{}: {f} version {v}, this ludotrace reads version {UNITS_VERSION}",
                path.display()
            )));
        }
        _ => {
            return Err(ExecError(format!(
                "{}: not a ludotrace plan or partial result (no `format: {PLAN_FORMAT}` or \
                 `{PARTIAL_FORMAT}` with a version)",
                path.display()
            )));
        }
    }
    if h.ludotrace.as_deref() != Some(build().as_str()) {
        return Err(ExecError(format!(
            "{}: made by ludotrace {}, this is {}: a plan's units and its merge must run the \
             binary that made the plan",
            path.display(),
            h.ludotrace.as_deref().unwrap_or("(unknown)"),
            build()
        )));
    }
    Ok(h)
}

/// The default output of unit `k` of `plan`: `NAME.unit-K.json` beside `NAME.json`.
pub fn unit_path(plan: &Path, k: u64) -> PathBuf {
    let stem = plan
        .file_stem()
        .map_or_else(|| "plan".into(), |s| s.to_string_lossy().into_owned());
    plan.with_file_name(format!("{stem}.unit-{k}.json"))
}

/// Reads and checks a plan.
pub fn read_plan(path: &Path) -> Result<(PlanFile, String), ExecError> {
    header(path)?;
    let h = read_json::<serde_json::Value>(path, "JSON")?;
    if h.get("format").and_then(|f| f.as_str()) != Some(PLAN_FORMAT) {
        return Err(ExecError(format!(
            "{}: a partial result, not a plan (`work` takes the plan)",
            path.display()
        )));
    }
    let plan: PlanFile = read_json(path, "a ludotrace plan")?;
    let bytes = std::fs::read(path)
        .map_err(|e| ExecError(format!("{}: cannot read it: {e}", path.display())))?;
    if plan.units.is_empty() {
        return Err(ExecError(format!(
            "{}: the plan has no units",
            path.display()
        )));
    }
    for (k, unit) in plan.units.iter().enumerate() {
        for &(t, b) in unit {
            if plan.tasks.get(t).is_none_or(|task| b >= task.blocks.len()) {
                return Err(ExecError(format!(
                    "{}: unit {k} names block {b} of task {t}, which the plan does not have",
                    path.display()
                )));
            }
        }
    }
    Ok((plan, blake3::hash(&bytes).to_hex().to_string()))
}

/// What a partial result is a part of, in words.
pub fn describe(p: &PartOf) -> String {
    match p {
        PartOf::Plan { plan, unit, units } => {
            let short: String = plan.chars().take(12).collect();
            format!("unit {unit} of {units} of plan {short}")
        }
        PartOf::Shard { shard, shards } => format!("shard {shard}/{shards}"),
    }
}

/// Checks that every partial result is a unit of `plan` (whose file, `plan_path`, hashes to
/// `hash`), each unit at most once, and returns the plan's number of units.
///
/// # Errors
/// A part of another plan or a shard, a unit given twice.
pub fn units_of_plan(
    plan: &PlanFile,
    hash: &str,
    plan_path: &Path,
    partials: &[(&PathBuf, PartialFile)],
) -> Result<u64, ExecError> {
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    for (path, p) in partials {
        match &p.part_of {
            PartOf::Plan {
                plan: h,
                unit,
                units,
            } if h == hash && *units == plan.units.len() as u64 && unit < units => {
                if let Some(other) = seen.insert(*unit, path) {
                    return Err(ExecError(format!(
                        "unit {unit} is given twice: {} and {}",
                        other.display(),
                        path.display()
                    )));
                }
            }
            _ => {
                return Err(ExecError(format!(
                    "{}: not a unit of the plan {} (it is part of {}): merge only \
                     that plan's units",
                    path.display(),
                    plan_path.display(),
                    describe(&p.part_of)
                )));
            }
        }
    }
    Ok(plan.units.len() as u64)
}

/// Checks that parts `0..expected` (`what`: units or shards) are all given.
///
/// # Errors
/// The missing ones, the first twenty listed.
pub fn all_present(
    partials: &[(&PathBuf, PartialFile)],
    expected: u64,
    what: &str,
) -> Result<(), ExecError> {
    let given: HashSet<u64> = partials
        .iter()
        .map(|(_, p)| match p.part_of {
            PartOf::Plan { unit, .. } => unit,
            PartOf::Shard { shard, .. } => shard,
        })
        .collect();
    let missing: Vec<String> = (0..expected)
        .filter(|k| !given.contains(k))
        .map(|k| k.to_string())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(ExecError(format!(
        "{} of {expected} {what} missing: {}{}",
        missing.len(),
        missing
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join(", "),
        if missing.len() > 20 { ", …" } else { "" }
    )))
}

/// Every block of the partial results, by (task identity, first game, end game): what a
/// merge replays.
///
/// # Errors
/// A block in two partial results.
pub fn blocks_of(
    partials: Vec<(&PathBuf, PartialFile)>,
) -> Result<HashMap<(String, u64, u64), SavedTally>, ExecError> {
    let mut blocks = HashMap::new();
    for (path, p) in partials {
        for b in p.blocks {
            let at = (b.identity, b.games.0, b.games.1);
            if blocks.insert(at.clone(), b.tally).is_some() {
                return Err(ExecError(format!(
                    "{}: games {}..{} of task {} are in two partial results",
                    path.display(),
                    at.1,
                    at.2,
                    at.0
                )));
            }
        }
    }
    Ok(blocks)
}
