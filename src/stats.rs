//! Statistics for simulated outcomes: intervals on rates and summaries of lengths.
//!
//! Everything here is a pure function of integer counts, so a result does not depend on the
//! order in which games were aggregated (and therefore not on thread count). The tests and
//! intervals that compare two readings (`ludotrace diff`) are in [`compare`]; lengths of runs
//! in which some games were stopped before they ended, in [`survival`].

pub mod compare;
pub mod portable;
pub mod survival;

use schemars::JsonSchema;
use serde::Serialize;

/// The 97.5 % quantile of the standard normal distribution (a two-sided 95 % interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// A rate with its Wilson score 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct Rate {
    /// The observed proportion.
    pub value: f64,
    /// Lower bound of the 95 % interval.
    pub lo: f64,
    /// Upper bound of the 95 % interval.
    pub hi: f64,
}

/// The Wilson score interval for `k` successes in `n` trials (Wilson 1927): it stays inside
/// [0, 1] and behaves at rates near 0 or 1, where the normal approximation does not.
pub fn wilson(k: u64, n: u64) -> Rate {
    if n == 0 {
        return Rate {
            value: 0.0,
            lo: 0.0,
            hi: 1.0,
        };
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Rate {
        value: p,
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    }
}

/// A histogram of non-negative integer values (plies, turns, passes per game).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
}

impl Histogram {
    /// Counts one value.
    pub fn add(&mut self, value: u32) {
        let v = value as usize;
        if v >= self.counts.len() {
            self.counts.resize(v + 1, 0);
        }
        self.counts[v] += 1;
    }

    /// Counts one value `n` times.
    pub fn add_n(&mut self, value: u32, n: u64) {
        let v = value as usize;
        if v >= self.counts.len() {
            self.counts.resize(v + 1, 0);
        }
        self.counts[v] += n;
    }

    /// Adds another histogram into this one.
    pub fn merge(&mut self, other: &Histogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// Takes out values counted in this one (a part of it): the histogram as if they had
    /// never been added, trailing empty counts included.
    ///
    /// # Panics
    /// If `other` counts a value more often than this one: it is not a part.
    pub fn remove(&mut self, other: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a = a
                .checked_sub(*b)
                .expect("a histogram removes only a part of it");
        }
        assert!(
            other.counts.len() <= self.counts.len()
                || other.counts[self.counts.len()..].iter().all(|&c| c == 0),
            "a histogram removes only a part of it"
        );
        while self.counts.last() == Some(&0) {
            self.counts.pop();
        }
    }

    /// Every value counted, in ascending order: the sample, for the tests and intervals that
    /// need one (a million games are four megabytes).
    pub fn values(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.n() as usize);
        for (v, &c) in self.counts.iter().enumerate() {
            out.extend(std::iter::repeat_n(v as u32, c as usize));
        }
        out
    }

    /// Number of values.
    pub fn n(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The summary (all zeros when empty).
    pub fn summary(&self) -> Summary {
        let n = self.n();
        if n == 0 {
            return Summary::default();
        }
        let mut sum = 0u128;
        let mut sum_sq = 0u128;
        for (v, &c) in self.counts.iter().enumerate() {
            sum += v as u128 * u128::from(c);
            sum_sq += (v as u128) * (v as u128) * u128::from(c);
        }
        let nf = n as f64;
        let mean = sum as f64 / nf;
        // The sample standard deviation, from exact integer sums.
        let sd = if n > 1 {
            let var = (sum_sq as f64 - (sum as f64) * (sum as f64) / nf) / (nf - 1.0);
            var.max(0.0).sqrt()
        } else {
            0.0
        };
        let min = self.counts.iter().position(|&c| c > 0).unwrap_or(0) as u32;
        let max = self.counts.iter().rposition(|&c| c > 0).unwrap_or(0) as u32;
        // The median averages the two middle values of an even count; p10 and p90 are
        // nearest-rank percentiles (the smallest value with at least that share at or below).
        let median = if n % 2 == 1 {
            f64::from(self.rank(n / 2 + 1))
        } else {
            (f64::from(self.rank(n / 2)) + f64::from(self.rank(n / 2 + 1))) / 2.0
        };
        let half = 1.96 * sd / nf.sqrt();
        Summary {
            mean: round(mean, 4),
            mean_ci: [round(mean - half, 4), round(mean + half, 4)],
            sd: round(sd, 4),
            median,
            min,
            max,
            p10: self.rank(n.div_ceil(10).max(1)),
            p90: self.rank((9 * n).div_ceil(10).max(1)),
            km: None,
        }
    }

    /// How many values were counted at each value, from 0 to the largest.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The value of 1-based rank `r` (the largest value when `r` exceeds the count).
    pub fn rank(&self, r: u64) -> u32 {
        let mut seen = 0;
        for (v, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= r {
                return v as u32;
            }
        }
        self.counts.len().saturating_sub(1) as u32
    }
}

/// Mean, spread and quantiles of a per-game count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, JsonSchema)]
pub struct Summary {
    /// Mean.
    pub mean: f64,
    /// The 95 % confidence interval of the mean, `[lo, hi]`: mean ± 1.96 · sd / √n (the
    /// normal approximation, sound for the hundreds of games a run plays; a single game gives
    /// `[mean, mean]`).
    pub mean_ci: [f64; 2],
    /// Sample standard deviation.
    pub sd: f64,
    /// Median (the mean of the two middle values for an even count; written as an integer
    /// when it is one).
    #[serde(serialize_with = "whole_as_integer")]
    pub median: f64,
    /// Smallest.
    pub min: u32,
    /// Largest.
    pub max: u32,
    /// 10th percentile (nearest rank).
    pub p10: u32,
    /// 90th percentile (nearest rank).
    pub p90: u32,
    /// The censoring-aware summary (plies of a run only): the figures above count a game
    /// stopped by the run's limit as if it had ended there, this one does not
    /// ([`survival`]). Absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub km: Option<survival::Km>,
}

fn whole_as_integer<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        s.serialize_i64(*x as i64)
    } else {
        s.serialize_f64(*x)
    }
}

/// Rounds to `digits` decimals (for output that is stable to read and diff).
pub fn round(x: f64, digits: i32) -> f64 {
    // 10^digits by exact multiplications (exact to 10^22), not a platform's `powi`.
    let f = (0..digits.unsigned_abs()).fold(1.0f64, |f, _| f * 10.0);
    let f = if digits < 0 { 1.0 / f } else { f };
    (x * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), Table I: 81/263 gives 0.2553 to 0.3662.
        let r = wilson(81, 263);
        assert!((r.lo - 0.2553).abs() < 1e-4, "{r:?}");
        assert!((r.hi - 0.3662).abs() < 1e-4, "{r:?}");
        // 0/10: 0 to 0.2775.
        let r = wilson(0, 10);
        assert_eq!(r.lo, 0.0);
        assert!((r.hi - 0.2775).abs() < 1e-4, "{r:?}");
    }

    #[test]
    fn summary_of_small_sets() {
        let mut h = Histogram::default();
        for v in [3, 1, 4, 1, 5] {
            h.add(v);
        }
        let s = h.summary();
        assert_eq!((s.min, s.max, s.median), (1, 5, 3.0));
        assert!((s.mean - 2.8).abs() < 1e-9);
        assert!((s.sd - 1.7889).abs() < 1e-4);
        assert_eq!((s.p10, s.p90), (1, 5));
        // 2.8 ± 1.96 · 1.78885 / √5 = 2.8 ± 1.5680.
        assert!((s.mean_ci[0] - 1.232).abs() < 1e-3, "{:?}", s.mean_ci);
        assert!((s.mean_ci[1] - 4.368).abs() < 1e-3, "{:?}", s.mean_ci);
        h.add(9);
        assert_eq!(h.summary().median, 3.5);
    }
}
