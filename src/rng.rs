//! The seeded randomness every game is played with: the key of a reading, the generator of
//! each game of a run, and the two draws made from it (a legal move, a chance outcome).
//!
//! Game *i* of a run draws every random choice from its own
//! `ChaCha8Rng::seed_from_u64(mix(run_seed, reading_key))` with `set_stream(i)`, a portable
//! generator, so a game's course depends only on (seed, reading, i). The simulator (`sim`)
//! and the skilled players (`agents`) both draw through here, so that a game of random agents
//! is the very game `ludotrace run` plays.
//!
//! Architecture Invariant: a leaf. It imports nothing of the crate, so that `sim` and
//! `agents` can share it without either importing the other's way back.

use rand::rngs::ChaCha8Rng;
use rand::{Rng, RngExt, SeedableRng};

/// SplitMix64's output function: a bijective mixer of 64-bit values.
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of a reading: FNV-1a of `game/interpretation`, stable across versions and
/// machines.
pub fn reading_key(game: &str, interpretation: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in game.bytes().chain([b'/']).chain(interpretation.bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The generator of game `index` of a run.
pub fn game_rng(seed: u64, key: u64, index: u64) -> ChaCha8Rng {
    let mut rng = run_rng(seed, key);
    rng.set_stream(index);
    rng
}

/// The generator every game of a run starts from, before [`game_rng`] sets its stream: the
/// same for all of them. A block seeds it once and sets the stream per game:
/// `set_stream` also rewinds the generator to the stream's start and drops what it had
/// buffered, so each game draws exactly what a freshly seeded [`game_rng`] would, without
/// the cost of seeding per game (a PCG expansion and the ChaCha set-up, which short games
/// feel).
pub(crate) fn run_rng(seed: u64, key: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(splitmix64(seed ^ splitmix64(key)))
}

/// Uniform random play's draw of one of `n` legal moves (`0 < n`): exactly rand 0.10's
/// `rng.random_range(0..n)` for a `usize` range that fits in 32 bits (as the number of legal
/// moves always does), written out so that it inlines into the playout loop, where rand's
/// own is a call per decision. rand samples such a range as `u32` by Canon's method (the
/// crate's default, without its `unbiased` feature): the high word of a 32×32-bit product
/// and, when the low word lies in the biased zone, a second draw whose high word may carry
/// into the result. A test holds it equal to rand's over many ranges and draws: a newer rand
/// that changed its method would show there, not as silently different games.
#[inline(always)]
pub fn draw(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    let m = u64::from(rng.next_u32()) * u64::from(n);
    let (mut result, lo) = ((m >> 32) as u32, m as u32);
    if lo > n.wrapping_neg() {
        let hi = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
        result += u32::from(lo.checked_add(hi).is_none());
    }
    result
}

/// Picks a chance outcome by its weight: the one draw `run` makes for a chance step.
pub fn sample(weights: &[u32], rng: &mut ChaCha8Rng) -> usize {
    let total: u32 = weights.iter().sum();
    let mut x = rng.random_range(0..total);
    let mut k = 0;
    while x >= weights[k] {
        x -= weights[k];
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block's one generator, moved to each game's stream after drawing from the last
    /// (any number of words, past a block boundary or not), draws what a generator seeded
    /// for that game alone draws: the equivalence `block` rests on.
    #[test]
    fn a_reused_generator_draws_each_games_stream() {
        let mut reused = run_rng(11, 42);
        for index in [0u64, 1, 2, 7, 1000, u64::MAX] {
            reused.set_stream(index);
            let mut fresh = game_rng(11, 42, index);
            for word in 0..(5 + index % 7 * 61) {
                assert_eq!(
                    reused.next_u32(),
                    fresh.next_u32(),
                    "game {index}, word {word}"
                );
            }
        }
    }

    /// The inlined draw is rand's `random_range(0..n)`, draw for draw, on small ranges (the
    /// number of legal moves) and on large ones, where the biased zone and its second draw
    /// are common.
    #[test]
    fn draw_is_rands_random_range() {
        let ranges = (1u32..=300).chain([
            1 << 16,
            (1 << 31) - 1,
            1 << 31,
            (1 << 31) + 1,
            3_000_000_000,
            u32::MAX - 1,
            u32::MAX,
        ]);
        for n in ranges {
            let mut ours = game_rng(7, u64::from(n), 3);
            let mut rands = game_rng(7, u64::from(n), 3);
            for _ in 0..2000 {
                let want = rands.random_range(0..n as usize);
                assert_eq!(draw(&mut ours, n) as usize, want, "range 0..{n}");
            }
            // Both generators are in the same place: the same number of words was drawn.
            assert_eq!(ours.next_u64(), rands.next_u64(), "range 0..{n}");
        }
    }
}
