//! Whether a verdict measures the rules or the run's ply limit.
//!
//! A game stopped by `--max-plies` is censored: its outcome is unknown. When either arm of
//! a comparison (`diff`, `flags`' one-at-a-time and switched-off comparisons) has censored
//! games, the two arms are played again with the limit raised ([`RAISES`]: twice and four
//! times, within [`MAX_PLIES`](crate::analysis::play::MAX_PLIES)). Game *i* draws from its own
//! stream whatever the limit, so a game that finished under the limit plays out the same, and
//! a censored one goes on from where it was stopped: the raised runs *are* the censored
//! games replayed further. A metric whose verdict at a raised limit differs from its verdict
//! at the run's limit is **limit-sensitive**: it measures where the limit sits, not what the
//! rules do, and is shown apart from the rule effects and never counted as one.

use crate::analysis::play::MAX_PLIES;
use crate::sim::Tally;

/// The factors by which a limit is raised to test a verdict.
pub const RAISES: [u32; 2] = [2, 4];

/// The raised limits of a run's limit: each of [`RAISES`] times it, within the largest
/// limit, leaving out any not above it (a run at the ceiling has none).
pub fn raised(max_plies: u32) -> Vec<u32> {
    let mut out: Vec<u32> = RAISES
        .iter()
        .map(|&k| max_plies.saturating_mul(k).min(MAX_PLIES))
        .filter(|&m| m > max_plies)
        .collect();
    out.dedup();
    out
}

/// Whether a comparison of these arms needs checking at raised limits: the run's limit
/// stopped some game of one of them (a game an engine's own search bound stopped would stop
/// there again at any limit).
pub fn censored(arms: &[&Tally]) -> bool {
    arms.iter().any(|t| t.censored_by_limit() > 0)
}
