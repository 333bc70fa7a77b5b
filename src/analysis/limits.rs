//! Whether a verdict measures the rules or the run's ply limit.
//!
//! A game stopped by `--max-plies` (or by `--max-quiet`, raised with it by the same factor)
//! is censored: its outcome is unknown. When either arm of
//! a comparison (`diff`, `flags`' one-at-a-time and switched-off comparisons) has censored
//! games, the two arms are played again with the limit raised ([`RAISES`]: twice and four
//! times, within [`MAX_PLIES`](crate::analysis::play::MAX_PLIES)). Game *i* draws from its own
//! stream whatever the limit, so a game that finished under the limit plays out the same, and
//! a censored one goes on from where it was stopped: the raised runs *are* the censored
//! games replayed further. A metric whose verdict at a raised limit differs from its verdict
//! at the run's limit is **limit-sensitive**: it measures where the limit sits, not what the
//! rules do, and is shown apart from the rule effects and never counted as one.
//!
//! Only the censored games are played again ([`raise`]): the games that finished under the
//! run's limit would finish the same under any higher one, so their counts are kept as they
//! are, and an arm of 2 000 games with 3 censored plays 3 games further, not 2 000.

use std::ops::Range;

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

/// The quiet limit (`--max-quiet`) that goes with a raised ply limit: raised by the same
/// factor, so that a game either limit stopped may go on (`0`, none, stays none).
pub fn quiet_at((run_limit, run_quiet): (u32, u32), limit: u32) -> u32 {
    if run_quiet == 0 {
        return 0;
    }
    run_quiet
        .saturating_mul((limit / run_limit.max(1)).max(1))
        .min(MAX_PLIES)
}

/// Whether a comparison of these arms needs checking at raised limits: the run's limit
/// stopped some game of one of them (a game an engine's own search bound stopped would stop
/// there again at any limit).
pub fn censored(arms: &[&Tally]) -> bool {
    arms.iter().any(|t| t.censored_by_limit() > 0)
}

/// An arm's tally at a raised limit, from `at_run`, its tally at the run's limit `run_limit`:
/// the games that limit stopped are taken out (played again to it, alone) and merged back
/// played to `limit`. `play(games, max_plies)` plays a range of the arm's games, on the
/// arm's own streams, to a limit. The result is the tally of the whole arm played to
/// `limit` (the tests hold it to that), at the cost of the censored games alone.
///
/// The ranges are played one after another: the executor follows one run of a task at a
/// time (which run a stored row may serve), so two ranges of one task are never asked for
/// at once; each range's games are still played side by side.
pub(crate) fn raise(
    at_run: &Tally,
    (run_limit, limit): (u32, u32),
    play: &dyn Fn(Range<u64>, u32) -> Tally,
) -> Tally {
    let mut out = at_run.clone();
    for r in runs(&at_run.censored_games) {
        out.remove(&play(r.clone(), run_limit));
        out.merge(play(r, limit));
    }
    out
}

/// Ascending indices as ranges of consecutive ones.
fn runs(indices: &[u64]) -> Vec<Range<u64>> {
    let mut out: Vec<Range<u64>> = Vec::new();
    for &i in indices {
        match out.last_mut() {
            Some(r) if r.end == i => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn consecutive_indices_make_one_range() {
        assert_eq!(super::runs(&[]), Vec::<std::ops::Range<u64>>::new());
        assert_eq!(
            super::runs(&[3, 4, 5, 9, 11, 12]),
            vec![3..6, 9..10, 11..13]
        );
    }
}
