//! The fields that open every played output (`run`, `diff`, `diff --against`, `flags`): what
//! was played, with which corpus and seed, by whom. Declared once and flattened into each
//! output, so the four contracts cannot drift apart: a field added here is added to all four,
//! with one meaning.

use schemars::JsonSchema;
use serde::Serialize;

use crate::agents::Lineup;
use crate::analysis::OUTPUT_SCHEMA_VERSION;

/// The identity of a played result: enough, with the reading's fields beside it, to play it
/// again.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Header {
    /// Always 1.
    pub schema_version: u32,
    /// The ludotrace version that produced it.
    pub ludotrace: String,
    /// BLAKE3 of the corpus files (paths and contents).
    pub corpus_hash: String,
    /// Game id.
    pub game: String,
    /// Run seed.
    pub seed: u64,
    /// Games played of each reading (of each arm, in a comparison).
    pub games: u64,
    /// The ply limit applied to readings without an engine cap (part of the result's
    /// identity).
    pub max_plies: u32,
    /// The quiet limit (`--max-quiet`): plies with no change in any seat's material after
    /// which a game of a reading without an engine cap was stopped, censored (part of the
    /// result's identity). Absent when none was set.
    #[serde(skip_serializing_if = "is_zero")]
    pub max_quiet: u32,
    /// The agent of each seat (with `swap`, in game 0: game i rotates them by i places,
    /// seat s played by the agent at seat (s + i) mod k of the `--agents` list of k).
    pub agents: Vec<String>,
    /// Whether the agents rotated over the seats game by game (`--swap`). Absent when not.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub swap: bool,
    /// The `--agents` list as given, before it is cycled over the seats.
    pub lineup: Vec<String>,
}

/// What was played: the game, the corpus's hash, the run's seed, games and ply limit.
pub struct Played<'a> {
    /// Game id.
    pub game: &'a str,
    /// BLAKE3 of the corpus files.
    pub corpus_hash: &'a str,
    /// Run seed.
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// Quiet limit (`0`: none).
    pub max_quiet: u32,
}

impl Header {
    /// The header of a result played with `lineup` over `seats` seats.
    pub fn new(played: Played<'_>, lineup: &Lineup, seats: usize) -> Self {
        Self {
            schema_version: OUTPUT_SCHEMA_VERSION,
            ludotrace: env!("CARGO_PKG_VERSION").to_owned(),
            corpus_hash: played.corpus_hash.to_owned(),
            game: played.game.to_owned(),
            seed: played.seed,
            games: played.games,
            max_plies: played.max_plies,
            max_quiet: played.max_quiet,
            agents: lineup.seating(seats),
            swap: lineup.swap(),
            lineup: lineup.agents().iter().map(ToString::to_string).collect(),
        }
    }
}

/// Whether a limit is unset (a field left out of the JSON when it is).
fn is_zero(n: &u32) -> bool {
    *n == 0
}
