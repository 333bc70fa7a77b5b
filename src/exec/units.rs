//! The two file formats of work beyond one process, each with a `format` name and a `version`
//! (raised when a field is renamed or redefined; fields are only ever added under one
//! version): the plan (the command, the corpus's hash, the build, every task with its blocks,
//! the units) and the partial result (what it is part of, and each block's tally with its
//! histograms); and a shard's `I/N`.

use serde::{Deserialize, Serialize};

use super::{SavedBlock, TaskInfo};

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
