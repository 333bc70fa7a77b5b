//! Variance-based global sensitivity over a game's option space: how much of the variance of
//! an outcome each open point accounts for, alone (first-order index) and with every
//! interaction it takes part in (total index).
//!
//! The design is Saltelli's (Saltelli et al. 2010, "Variance based sensitivity analysis of
//! model output", *Computer Physics Communications* 181): two independent samples `A` and `B`
//! of `rows` readings each, and for each factor `i` the sample `AB_i`, which is `A` with
//! column `i` taken from `B`; `rows · (k + 2)` readings for `k` factors. Each column of `A`
//! and of `B` is space-filling on its own: every level of the factor appears `rows / levels`
//! times (the remainder spread at random), in a seeded random order.
//!
//! Estimators, with `f` an outcome observed by simulation, `V` its variance over `A` and `B`:
//! first order `S_i = mean(f_B · (f_ABi − f_A)) / V` (Saltelli 2010, their (b)); total
//! `ST_i = mean((f_A − f_ABi)²) / (2V)` (Jansen 1999). A simulated outcome carries sampling
//! noise of known variance (a rate of `g` games: `p(1 − p)/(g − 1)`), which would inflate `V`
//! and every total index; each is corrected by the noise the observations involved carry, so
//! that an open point without effect comes out at zero, not at the noise. Intervals are
//! percentile bootstraps over the rows (the whole estimate, `V` included, recomputed on each
//! resample).
//!
//! A reading that cannot be played (an engine refuses the combination) is missing: a row is
//! used for a factor only where `A`, `B` and `AB_i` were all played, and the number of rows
//! used is reported with each index.
//!
//! Architecture Invariant: nothing here plays a game. The caller observes each design point
//! (a combination of levels) once; the same combination always gets the same observation.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use schemars::JsonSchema;
use serde::Serialize;

use crate::sim::splitmix64;
use crate::stats::Rate;

/// A design: `a[r]` and `b[r]` are rows of levels, one per factor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Design {
    /// Sample A.
    pub a: Vec<Vec<usize>>,
    /// Sample B.
    pub b: Vec<Vec<usize>>,
}

impl Design {
    /// A seeded design of `rows` rows over factors with `levels[i]` levels each (every entry
    /// at least 1).
    pub fn new(levels: &[usize], rows: usize, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(splitmix64(seed ^ 0x5a17_e111_d35e_0001));
        let mut column = |n: usize| -> Vec<usize> {
            // Each level rows / n times, the remainder on levels drawn without repeats.
            let mut out: Vec<usize> = (0..rows).map(|r| r % n).collect();
            shuffle(&mut out, &mut rng);
            out
        };
        let mut sample = || -> Vec<Vec<usize>> {
            let columns: Vec<Vec<usize>> = levels.iter().map(|&n| column(n.max(1))).collect();
            (0..rows)
                .map(|r| columns.iter().map(|c| c[r]).collect())
                .collect()
        };
        let a = sample();
        let b = sample();
        Design { a, b }
    }

    /// Row `r` of `AB_i`: `A`'s row with factor `i` from `B`.
    pub fn ab(&self, r: usize, i: usize) -> Vec<usize> {
        let mut row = self.a[r].clone();
        row[i] = self.b[r][i];
        row
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.a.len()
    }

    /// Every distinct combination the design asks for, in the order first asked: `A`, `B`,
    /// then each `AB_i` row by row.
    pub fn points(&self) -> Vec<Vec<usize>> {
        let k = self.a.first().map_or(0, Vec::len);
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        let all = self.a.iter().cloned().chain(self.b.iter().cloned()).chain(
            (0..self.rows())
                .flat_map(|r| (0..k).map(move |i| (r, i)))
                .map(|(r, i)| self.ab(r, i)),
        );
        for p in all {
            if seen.insert(p.clone()) {
                out.push(p);
            }
        }
        out
    }
}

/// Fisher–Yates with 32-bit draws (the same on every platform).
fn shuffle(v: &mut [usize], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=(i as u32)) as usize;
        v.swap(i, j);
    }
}

/// An outcome observed at one design point: its value and the variance of the sampling
/// noise in it (0 for an exact value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observed {
    /// The value.
    pub value: f64,
    /// Its sampling variance.
    pub noise: f64,
}

/// One factor's indices for one outcome.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Indices {
    /// First-order index (the share of the variance the factor explains alone), with its
    /// bootstrap 95 % interval.
    pub first_order: Rate,
    /// Total index (its share with every interaction it takes part in), with its interval.
    pub total: Rate,
    /// Rows of the design used (those whose `A`, `B` and `AB_i` readings were all played).
    pub rows: usize,
}

/// The estimates `(S_i, ST_i)` of factor `i` over a set of rows, from observations looked up
/// by combination; `None` with fewer than two rows.
fn estimate(
    design: &Design,
    rows: &[usize],
    i: usize,
    obs: &dyn Fn(&[usize]) -> Option<Observed>,
) -> Option<(f64, f64)> {
    let mut seen = Vec::with_capacity(rows.len());
    for &r in rows {
        let (a, b, ab) = (&design.a[r], &design.b[r], design.ab(r, i));
        if let (Some(fa), Some(fb), Some(fab)) = (obs(a), obs(b), obs(&ab)) {
            seen.push((r, fa, fb, fab));
        }
    }
    if seen.len() < 2 {
        return None;
    }
    // V from the A and B values of the rows (each counted as drawn), less their mean noise;
    // the products centred on their mean, which leaves their expectation as it is and
    // takes most of their spread away.
    let m = 2.0 * seen.len() as f64;
    let mean = seen
        .iter()
        .map(|(_, a, b, _)| a.value + b.value)
        .sum::<f64>()
        / m;
    let noise = seen
        .iter()
        .map(|(_, a, b, _)| a.noise + b.noise)
        .sum::<f64>()
        / m;
    let spread = seen
        .iter()
        .map(|(_, a, b, _)| (a.value - mean).powi(2) + (b.value - mean).powi(2))
        .sum::<f64>()
        / (m - 1.0);
    let var = spread - noise;
    if var <= 1e-12 {
        return Some((0.0, 0.0));
    }
    let (mut first, mut total) = (0.0, 0.0);
    for (r, fa, fb, fab) in &seen {
        let (a, b, ab) = (&design.a[*r], &design.b[*r], design.ab(*r, i));
        // A product or a square holds a noise term where its two observations are of the
        // same combination (one observation, counted twice): corrected accordingly; where
        // they differ, the noises are independent and the square holds both.
        let mut f = (fb.value - mean) * (fab.value - fa.value);
        if *b == ab {
            f -= fb.noise;
        }
        if b == a {
            f += fb.noise;
        }
        let mut t = (fa.value - fab.value).powi(2);
        if *a != ab {
            t -= fa.noise + fab.noise;
        }
        first += f;
        total += t;
    }
    let n = seen.len() as f64;
    Some((first / n / var, total / n / (2.0 * var)))
}

/// The first-order and total indices of every factor for one outcome, with percentile
/// bootstrap intervals from `resamples` resamples of the rows (seeded by `seed`). A factor
/// with fewer than two usable rows gets `None`.
pub fn indices(
    design: &Design,
    obs: &dyn Fn(&[usize]) -> Option<Observed>,
    resamples: usize,
    seed: u64,
) -> Vec<Option<Indices>> {
    let k = design.a.first().map_or(0, Vec::len);
    let all: Vec<usize> = (0..design.rows()).collect();
    (0..k)
        .map(|i| {
            let usable: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&r| {
                    obs(&design.a[r]).is_some()
                        && obs(&design.b[r]).is_some()
                        && obs(&design.ab(r, i)).is_some()
                })
                .collect();
            let (s, st) = estimate(design, &usable, i, obs)?;
            let mut rng =
                ChaCha8Rng::seed_from_u64(splitmix64(seed ^ splitmix64(0xb007_0000 + i as u64)));
            let mut firsts = Vec::with_capacity(resamples);
            let mut totals = Vec::with_capacity(resamples);
            for _ in 0..resamples {
                let pick: Vec<usize> = (0..usable.len())
                    .map(|_| usable[rng.random_range(0..usable.len() as u32) as usize])
                    .collect();
                if let Some((s, st)) = estimate(design, &pick, i, obs) {
                    firsts.push(s);
                    totals.push(st);
                }
            }
            Some(Indices {
                first_order: interval(s, &mut firsts),
                total: interval(st, &mut totals),
                rows: usable.len(),
            })
        })
        .collect()
}

/// A point estimate with the 2.5 % and 97.5 % quantiles of its bootstrap replicates,
/// rounded to 4 places (what a report prints).
fn interval(value: f64, replicates: &mut [f64]) -> Rate {
    replicates.sort_by(f64::total_cmp);
    let q = |p: f64| -> f64 {
        if replicates.is_empty() {
            return value;
        }
        let at = (p * (replicates.len() - 1) as f64).round() as usize;
        replicates[at]
    };
    let r4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
    Rate {
        value: r4(value),
        lo: r4(q(0.025).min(value)),
        hi: r4(q(0.975).max(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic game: at a combination, `games` seeded games each won by the first mover
    /// with probability `p(combination)`; observed as a rate with its sampling variance.
    fn play(p: impl Fn(&[usize]) -> f64, games: u64) -> impl Fn(&[usize]) -> Option<Observed> {
        move |c: &[usize]| {
            let key = c.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
                (h ^ x as u64).wrapping_mul(0x100_0000_01b3)
            });
            let mut rng = ChaCha8Rng::seed_from_u64(key);
            let pc = p(c);
            let wins = (0..games)
                .filter(|_| rng.random_range(0..1_000_000u32) < (pc * 1e6) as u32)
                .count() as f64;
            let g = games as f64;
            let rate = wins / g;
            Some(Observed {
                value: rate,
                noise: rate * (1.0 - rate) / (g - 1.0),
            })
        }
    }

    #[test]
    fn the_design_is_balanced_and_seeded() {
        let d = Design::new(&[2, 3, 5], 30, 7);
        assert_eq!(d, Design::new(&[2, 3, 5], 30, 7));
        assert_ne!(d, Design::new(&[2, 3, 5], 30, 8));
        for (i, &n) in [2usize, 3, 5].iter().enumerate() {
            for level in 0..n {
                let count = d.a.iter().filter(|r| r[i] == level).count();
                assert_eq!(count, 30 / n, "factor {i} level {level}");
            }
        }
        assert!(d.points().len() <= 30 * 5);
    }

    /// The outcome depends on factor 1 only: its indices are near 1, the others' near 0.
    #[test]
    fn one_factor_alone() {
        let levels = [3, 2, 4, 2];
        let d = Design::new(&levels, 200, 1);
        let f = play(|c| if c[1] == 1 { 0.8 } else { 0.2 }, 400);
        let ix = indices(&d, &f, 300, 1);
        for (i, x) in ix.iter().enumerate() {
            let x = x.as_ref().unwrap();
            if i == 1 {
                for r in [x.first_order, x.total] {
                    assert!(r.value > 0.75 && r.lo > 0.5, "{x:?}");
                }
            } else {
                assert!(x.first_order.value.abs() < 0.15, "{i}: {x:?}");
                assert!(
                    x.total.value.abs() < 0.02 && x.total.hi < 0.05,
                    "{i}: {x:?}"
                );
            }
        }
    }

    /// The outcome depends on factors 0 and 2 only through their interaction (an exclusive
    /// or): neither has a first-order effect, both have a total index near 1.
    #[test]
    fn a_pair_only_together() {
        let levels = [2, 3, 2, 2];
        let d = Design::new(&levels, 300, 2);
        let f = play(|c| if (c[0] == 1) != (c[2] == 1) { 0.9 } else { 0.1 }, 400);
        let ix = indices(&d, &f, 300, 2);
        for (i, x) in ix.iter().enumerate() {
            let x = x.as_ref().unwrap();
            assert!(x.first_order.value.abs() < 0.25, "{i}: {x:?}");
            if i == 0 || i == 2 {
                assert!(x.total.value > 0.75 && x.total.lo > 0.5, "{i}: {x:?}");
            } else {
                assert!(
                    x.total.value.abs() < 0.02 && x.total.hi < 0.05,
                    "{i}: {x:?}"
                );
            }
        }
    }

    /// Missing readings leave their rows out, and the count says so.
    #[test]
    fn refused_points_are_skipped_and_counted() {
        let d = Design::new(&[2, 2], 40, 3);
        let f = play(|c| if c[0] == 1 { 0.7 } else { 0.3 }, 200);
        let refused = |c: &[usize]| if c == [1, 1] { None } else { f(c) };
        let ix = indices(&d, &refused, 100, 3);
        let used = ix[0].as_ref().unwrap().rows;
        let expect = (0..40)
            .filter(|&r| {
                [&d.a[r], &d.b[r], &d.ab(r, 0)]
                    .iter()
                    .all(|c| **c != [1, 1])
            })
            .count();
        assert_eq!(used, expect);
        assert!(used < 40);
    }
}
