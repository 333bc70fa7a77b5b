//! Seeded simulation: random playouts of any engine, in parallel, aggregated in game order.
//!
//! Game *i* of a run draws every random choice (chance steps and moves) from its own
//! `ChaCha8Rng::seed_from_u64(mix(run_seed, reading_key))` with `set_stream(i)`, a portable
//! generator ([`crate::rng`] makes it and its draws), so a game's course depends only on
//! (seed, reading, i). Games are simulated in blocks whose length depends only on the number
//! of games ([`block_len`]), whatever the thread count, and blocks are combined in order;
//! every aggregate is an integer sum, so results are identical at any thread count (and
//! would be at any block length).
//!
//! The random agent picks uniformly among the listed legal moves, as Ludii does (a move
//! listed twice is twice as likely).
//!
//! Architecture Invariant: this module knows engines only through the `Rules` trait and
//! readings only through a 64-bit key; it does no I/O beyond an optional progress callback.
//! It plays the skilled players' games too ([`play_game`]), so it imports `agents`; `agents`
//! never imports it back.
//!
//! One concern a file, re-exported here so that every path is `sim::…`:
//!
//! - `runner`: a run cut into blocks, played in parallel and folded in game order;
//! - `playout`: the loop that plays one game (random play, agents, a traced game);
//! - `tally`: what a run counts, and the event counter a game fills;
//! - `record`: how one game ended, and its record;
//! - `metrics`: what `assess` measures of each game (decisions, leads, repeated positions,
//!   board coverage) and its sums over games.

pub mod playthrough;
pub mod saved;

mod metrics;
mod playout;
mod record;
mod runner;
mod tally;

pub use metrics::{GameMetrics, GameObserver, MEASURES, Measure, MetricTally, Moments, UNIT, t95};
pub use playout::{QUIET_CHECK, TraceStep, play, play_game, trace, trace_replaying, trace_with};
pub use record::{GameEnd, GameRecord, Timeout, game_end};
pub use runner::{
    BLOCK, Block, Blocks, MIN_BLOCKS, block, block_len, block_of, block_ranges, run, run_blocks,
    run_games,
};
pub use tally::{AgentTally, Coverage, Tally, per_game};

/// The default ply limit for readings without an engine cap: one number for every reading,
/// high enough that no source-named reading has more than 1 % of its games censored under
/// random play (measured at 1 000 games, seed 1: Um el Banât `dlp`, whose median game is
/// about 17 000 plies, has 1.7 % censored at 100 000 and 0.1 % at 200 000; every other
/// reading none). A limit belongs to the experiment, not to the game: a game it stops is
/// censored, and `diff` and `flags` check their verdicts at twice and four times it.
pub const DEFAULT_MAX_PLIES: u32 = 200_000;

/// What a run plays.
#[derive(Debug, Clone, Copy)]
pub struct RunSpec {
    /// Number of games.
    pub games: u64,
    /// The run seed.
    pub seed: u64,
    /// The reading's key ([`crate::rng::reading_key`]).
    pub key: u64,
    /// Plies after which a game of a reading without an engine cap is a timeout.
    pub max_plies: u32,
    /// Plies with no change in any seat's material after which a game of a reading without
    /// an engine cap is a timeout (`0`: never).
    pub max_quiet: u32,
    /// Keep one record per game (for CSV output).
    pub keep_records: bool,
    /// Measure every game for `assess` ([`GameMetrics`]): the decisions are listed (random
    /// play's very games, without its shortcuts) and every position after one is looked at.
    pub metrics: bool,
}

/// The most games one run may play: a bound that keeps every count, index and block range
/// far from overflow.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// A number of games no run may play: none, or more than [`MAX_GAMES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a run plays 1 to {MAX_GAMES} games, not {given}")]
pub struct GamesError {
    /// The number refused.
    pub given: u64,
}

/// The one rule on the number of games of a run: 1 to [`MAX_GAMES`]. The command line checks
/// each number of games a user gives by it, and the runner the games it is asked to play, so
/// that the two cannot disagree.
///
/// # Errors
/// [`GamesError`], for none or more than [`MAX_GAMES`].
pub fn check_games(games: u64) -> Result<u64, GamesError> {
    if (1..=MAX_GAMES).contains(&games) {
        Ok(games)
    } else {
        Err(GamesError { given: games })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run has 1 to `MAX_GAMES` games; the refusal says so in the user's terms.
    #[test]
    fn a_run_has_one_to_max_games() {
        assert_eq!(check_games(1), Ok(1));
        assert_eq!(check_games(MAX_GAMES), Ok(MAX_GAMES));
        for n in [0, MAX_GAMES + 1, u64::MAX] {
            assert_eq!(check_games(n), Err(GamesError { given: n }));
        }
        assert_eq!(
            GamesError { given: 0 }.to_string(),
            "a run plays 1 to 1000000000 games, not 0"
        );
    }
}
