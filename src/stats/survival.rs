//! Game lengths when some games were stopped before they ended: the Kaplan–Meier estimate
//! (Kaplan and Meier 1958) of the share of games still going after `t` plies, and its
//! quantiles with 95 % intervals.
//!
//! A game stopped by the run's ply limit is *censored*: its length is only known to be more
//! than the limit. A game the rules proved can never end has no length at all; it stays "still
//! going" for ever, so it is counted as censored beyond every observed length. Finished games
//! are the events. Averaging the lengths of all games as if the stopped ones had ended where
//! they were stopped, as a plain mean does, understates every length the limit touches; the
//! estimate here does not, and says "more than the limit" where the data cannot tell.
//!
//! The survival function `S(t)` is the product over event lengths `tⱼ ≤ t` of
//! `1 − dⱼ/nⱼ` (`dⱼ` games ended at `tⱼ`, `nⱼ` games at risk: still going at `tⱼ`, a game
//! censored at `tⱼ` counted at risk). Its pointwise 95 % interval is the one on the log
//! scale with Greenwood's variance, `exp(ln S ± z·σ)` with `σ² = Σ dⱼ / (nⱼ (nⱼ − dⱼ))`,
//! capped at 1: the default of R's `survfit`. The `p`-quantile is the least length at which
//! `S ≤ 1 − p`; its interval runs from the least length at which the lower limit of `S` is at
//! or below `1 − p` to the least at which the upper limit is (Brookmeyer and Crowley 1982, as
//! `survfit` computes it). A bound that is never reached is absent: more than the longest
//! finished game.

use schemars::JsonSchema;
use serde::Serialize;

use super::portable::{exp, ln};
use super::{Histogram, Z95, round};

/// One quantile of the length, with its 95 % interval. `None` where the estimate never falls
/// that low: the quantile (or bound) lies beyond the longest finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct KmQuantile {
    /// The estimate, in plies; absent (null) when fewer than this share of games finished.
    pub plies: Option<u32>,
    /// Lower bound of the 95 % interval.
    pub lo: Option<u32>,
    /// Upper bound of the 95 % interval; absent (null) when it lies beyond the longest
    /// finished game.
    pub hi: Option<u32>,
}

/// The censoring-aware summary of a run's lengths.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct Km {
    /// Games whose end was seen (the estimate's events).
    pub finished: u64,
    /// Games stopped by the run's ply limit (their length is more than the limit).
    pub censored: u64,
    /// Games the rules proved can never end.
    pub endless: u64,
    /// The 25th percentile of the length.
    pub q25: KmQuantile,
    /// The median length: half the games (endless ones included) had ended by then.
    pub median: KmQuantile,
    /// The 75th percentile.
    pub q75: KmQuantile,
    /// The estimated share of games still going after the longest finished game, with
    /// its 95 % interval `[lo, hi]`: 0 when every game finished.
    pub still_going: [f64; 3],
}

/// One step of the estimate: at `plies`, the share still going and its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// An event length.
    pub plies: u32,
    /// `S(plies)`.
    pub s: f64,
    /// Lower limit of its 95 % interval.
    pub lo: f64,
    /// Upper limit.
    pub hi: f64,
}

/// The Kaplan–Meier estimate from the lengths of finished games, the lengths at which
/// games were censored, and the number of games that can never end.
pub fn kaplan_meier(finished: &Histogram, censored: &Histogram, endless: u64) -> Vec<Step> {
    let ev = finished.counts();
    let ce = censored.counts();
    let mut at_risk = finished.n() + censored.n() + endless;
    let (mut s, mut var) = (1.0f64, 0.0f64);
    let mut steps = Vec::new();
    for t in 0..ev.len().max(ce.len()) {
        let d = ev.get(t).copied().unwrap_or(0);
        let c = ce.get(t).copied().unwrap_or(0);
        if d > 0 {
            let n = at_risk as f64;
            let d_f = d as f64;
            s *= 1.0 - d_f / n;
            let (lo, hi) = if d < at_risk {
                var += d_f / (n * (n - d_f));
                let half = Z95 * var.sqrt();
                let ls = ln(s);
                (exp(ls - half), exp(ls + half).min(1.0))
            } else {
                // Every game at risk ended here: none is left going, with certainty.
                (0.0, 0.0)
            };
            steps.push(Step {
                plies: t as u32,
                s,
                lo,
                hi,
            });
        }
        at_risk -= d + c;
    }
    steps
}

/// The `p`-quantile (0 < p < 1) of the length and its interval, from the estimate's steps.
pub fn quantile(steps: &[Step], p: f64) -> KmQuantile {
    let level = 1.0 - p;
    // A small tolerance, so that an estimate of exactly one half (2 of 4 games) is the
    // median where floating point lands a hair above it.
    let at_or_below = |x: f64| x <= level + 1e-12;
    let first =
        |f: &dyn Fn(&Step) -> f64| steps.iter().find(|s| at_or_below(f(s))).map(|s| s.plies);
    KmQuantile {
        plies: first(&|s| s.s),
        lo: first(&|s| s.lo),
        hi: first(&|s| s.hi),
    }
}

/// The summary of a run's lengths: finished games' lengths, censored games' lengths, and the
/// games that can never end.
pub fn km(finished: &Histogram, censored: &Histogram, endless: u64) -> Km {
    let steps = kaplan_meier(finished, censored, endless);
    let still_going = match steps.last() {
        Some(s) => [round(s.s, 4), round(s.lo, 4), round(s.hi, 4)],
        None if censored.n() + endless > 0 => [1.0, 1.0, 1.0],
        None => [0.0, 0.0, 0.0],
    };
    Km {
        finished: finished.n(),
        censored: censored.n(),
        endless,
        q25: quantile(&steps, 0.25),
        median: quantile(&steps, 0.5),
        q75: quantile(&steps, 0.75),
        still_going,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(values: &[u32]) -> Histogram {
        let mut h = Histogram::default();
        for &v in values {
            h.add(v);
        }
        h
    }

    /// Without censoring the estimate is the empirical distribution: 4 games of 10, 20, 30,
    /// 40 plies leave 3/4, 1/2, 1/4, 0 still going, and the median is 20 (the least length at
    /// which half had ended), the quartiles 10 and 30.
    #[test]
    fn without_censoring_it_is_the_plain_distribution() {
        let steps = kaplan_meier(&hist(&[10, 20, 30, 40]), &hist(&[]), 0);
        let s: Vec<(u32, f64)> = steps.iter().map(|s| (s.plies, s.s)).collect();
        assert_eq!(s, vec![(10, 0.75), (20, 0.5), (30, 0.25), (40, 0.0)]);
        let k = km(&hist(&[10, 20, 30, 40]), &hist(&[]), 0);
        assert_eq!(k.median.plies, Some(20));
        assert_eq!((k.q25.plies, k.q75.plies), (Some(10), Some(30)));
        assert_eq!(k.still_going, [0.0, 0.0, 0.0]);
    }

    /// The textbook case (Kaplan and Meier's own kind of example): lengths 3, 5+, 6, 8+, 10
    /// (+ censored). At 3: 5 at risk, S = 4/5. At 6: 3 at risk (5+ left), S = 4/5 · 2/3 =
    /// 8/15. At 10: 1 at risk, S = 0. Greenwood at 6: 1/(5·4) + 1/(3·2) = 0.05 + 0.1667.
    #[test]
    fn censored_games_leave_the_risk_set_without_ending() {
        let steps = kaplan_meier(&hist(&[3, 6, 10]), &hist(&[5, 8]), 0);
        assert_eq!(steps.len(), 3);
        assert!((steps[0].s - 0.8).abs() < 1e-12);
        assert!((steps[1].s - 8.0 / 15.0).abs() < 1e-12);
        assert_eq!(steps[2].s, 0.0);
        let var: f64 = 1.0 / 20.0 + 1.0 / 6.0;
        let lo = ln(8.0 / 15.0) - Z95 * var.sqrt();
        assert!((steps[1].lo - exp(lo)).abs() < 1e-9, "{:?}", steps[1]);
        assert_eq!(steps[1].hi, 1.0, "capped at 1");
        // The median: S first at or below 1/2 at 10 (8/15 at 6 is above).
        assert_eq!(quantile(&steps, 0.5).plies, Some(10));
    }

    /// A run where most games hit the limit: 3 of 10 finish (at 100, 200, 300), 7 are
    /// censored at 1 000. The median is not reached: more than the limit, stated as absent,
    /// never as the limit itself. The 25th percentile is 300 (S = 0.7 at 300 ≤ 0.75).
    #[test]
    fn a_median_beyond_the_limit_is_absent_not_the_limit() {
        let censored = {
            let mut h = Histogram::default();
            h.add_n(1000, 7);
            h
        };
        let k = km(&hist(&[100, 200, 300]), &censored, 0);
        assert_eq!(k.median.plies, None);
        assert_eq!(k.median.hi, None);
        assert_eq!(k.q25.plies, Some(300));
        assert_eq!((k.finished, k.censored, k.endless), (3, 7, 0));
        assert!((k.still_going[0] - 0.7).abs() < 1e-12);
    }

    /// Endless games never leave the risk set: 2 finished (at 5 and 7) and 2 endless give
    /// S(5) = 3/4, S(7) = 3/4 · 2/3 = 1/2, so the median is 7 and half still go on.
    #[test]
    fn endless_games_stay_at_risk_for_ever() {
        let k = km(&hist(&[5, 7]), &hist(&[]), 2);
        assert_eq!(k.median.plies, Some(7));
        assert!((k.still_going[0] - 0.5).abs() < 1e-12);
        assert_eq!(k.q75.plies, None);
    }

    /// A run in which no game finished has no step: every quantile is absent and every game
    /// still going.
    #[test]
    fn no_finished_game_leaves_everything_unknown() {
        let mut c = Histogram::default();
        c.add_n(50, 4);
        let k = km(&Histogram::default(), &c, 0);
        assert_eq!(
            k.median,
            KmQuantile {
                plies: None,
                lo: None,
                hi: None
            }
        );
        assert_eq!(k.still_going, [1.0, 1.0, 1.0]);
    }

    /// The interval of the median: with 100 games of lengths 1..=100 uncensored, the median
    /// is 50 and its interval (from the pointwise limits) holds it and is about ±10.
    #[test]
    fn the_median_interval_brackets_the_median() {
        let values: Vec<u32> = (1..=100).collect();
        let k = km(&hist(&values), &Histogram::default(), 0);
        let m = k.median;
        assert_eq!(m.plies, Some(50));
        let (lo, hi) = (m.lo.unwrap(), m.hi.unwrap());
        assert!(lo < 50 && hi > 50, "{m:?}");
        assert!((38..=44).contains(&lo) && (56..=62).contains(&hi), "{m:?}");
    }
}
