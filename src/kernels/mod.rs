//! Hand-specialised playout kernels: the speed limit the engines are measured against.
//!
//! The engines (`crate::games`) interpret a reading's parameters; a kernel here is one
//! reading's random playout written out by hand, with nothing interpreted: a packed board,
//! tables built once, the k-th legal move found without listing the moves, no events, no
//! allocation. There are two, for the readings issue 17 measures: Um el-Bagara `ludii-1.0.8`
//! ([`bagara`]) and Seega 5×5 `ludii-1.0.8` ([`seega`]). They exist for two reasons: a bench
//! (`benches/kernels.rs`) reports the engine's speed as a fraction of its kernel's in the
//! same run, which says how much the interpretation costs and what is left to gain, and a
//! test (`tests/kernels.rs`) holds every kernel game equal to the engine's, which makes the
//! kernel an independent check of the engine's rules on those readings.
//!
//! A kernel plays **the very same games** as the engine from the same random draws: game `i`
//! of a run uses [`crate::rng::game_rng`]`(seed, key, i)`, each decision draws
//! `rng.random_range(0..n)` over the `n` legal moves (a forced pass counting as one move) and
//! plays the move at that index in [`crate::games::Rules::legal_moves`] order, and the end
//! rules, the engine cap and the scores are the reading's. What a kernel does *not* do that
//! the engine does: it reports no events (so no event counts and no uncovered-rule flags, no
//! [`crate::sim::Coverage`]), keeps no histograms or per-seat order tallies (only
//! [`Tally`]'s few counts), plays no other reading (no parameters: the numbers are in the
//! code), and checks nothing (a kernel trusts its own tables; the equality test is its
//! guard).
//!
//! Compiled only with the cargo feature `kernels`: nothing in the command line uses them.

pub mod bagara;
pub mod seega;

use rand::rngs::ChaCha8Rng;

use crate::games::{EndReason, Outcome, Result_};

/// The engine's draw ([`crate::rng::draw`]), the one both play by.
#[inline(always)]
fn draw(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    crate::rng::draw(rng, n)
}

/// One kernel game, in the terms of the engine's record ([`crate::sim::GameRecord`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// How it ended: the outcome the engine reports (result, end reason, scores; unranked).
    pub outcome: Outcome,
    /// Decisions, forced passes included.
    pub plies: u32,
    /// Turns: runs of decisions by the same seat.
    pub turns: u32,
    /// Passes.
    pub passes: u32,
}

/// The few aggregates a bench or a test compares: wins per seat, draws, games stopped by the
/// engine cap, and plies over all games. (Neither kernel's reading has a timeout: both have
/// Ludii's cap, so every game ends.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games won by each seat.
    pub wins: [u64; 2],
    /// Games nobody won (capped games included).
    pub draws: u64,
    /// Games that reached the engine cap.
    pub capped: u64,
    /// Plies over all games.
    pub plies: u64,
}

impl Tally {
    /// Counts one game.
    #[inline]
    pub fn add(&mut self, game: &Game) {
        self.games += 1;
        match game.outcome.result {
            Result_::Win(mask) => {
                for (seat, w) in self.wins.iter_mut().enumerate() {
                    *w += u64::from(mask >> seat & 1);
                }
            }
            Result_::Draw | Result_::Unfinished => self.draws += 1,
        }
        self.capped += u64::from(game.outcome.end.capped());
        self.plies += u64::from(game.plies);
    }
}

/// The outcome of a finished game, as the engines build it.
#[inline]
fn outcome(result: Result_, end: EndReason, scores: [u32; 2]) -> Outcome {
    Outcome {
        result,
        end,
        scores,
        ranks: Outcome::UNRANKED,
    }
}

/// Plays games `range` of the run (`seed`, `key`) with a kernel's `playout`, each from its
/// own generator as the simulator seeds it, calling `each(index, game)` in order.
#[inline]
fn play_games(
    playout: impl Fn(&mut ChaCha8Rng) -> Game,
    seed: u64,
    key: u64,
    range: std::ops::Range<u64>,
    mut each: impl FnMut(u64, Game),
) {
    for index in range {
        let mut rng = crate::rng::game_rng(seed, key, index);
        each(index, playout(&mut rng));
    }
}

/// Plays games `range` of the run (`seed`, `key`) with a kernel's `playout` and counts them.
#[inline]
fn tally_games(
    playout: impl Fn(&mut ChaCha8Rng) -> Game,
    seed: u64,
    key: u64,
    range: std::ops::Range<u64>,
) -> Tally {
    let mut t = Tally::default();
    play_games(playout, seed, key, range, |_, g| t.add(&g));
    t
}
