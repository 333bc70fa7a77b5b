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
//! Each place of the design ([`Slot`]) is observed on its own games, so that the noise of
//! every observation is independent of every other's, as the corrections assume; a
//! combination drawn in two places is played twice. The one exception: where `AB_i` is the
//! same combination as `A` (the factor's level drawn the same in `B`), `A`'s observation
//! stands for it, and the difference is exactly zero, as it truly is.
//!
//! A reading that cannot be played (an engine refuses the combination) is missing: a row is
//! used for a factor only where `A`, `B` and `AB_i` were all played, and the number of rows
//! used is reported with each index.
//!
//! Architecture Invariant: nothing here plays a game. The caller observes each slot once.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use schemars::JsonSchema;
use serde::Serialize;

use crate::rng::splitmix64;
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

    /// The places to observe, in order: every row of `A`, of `B`, then row by row each
    /// `AB_i` that is not the same combination as `A`'s row (which stands for it).
    pub fn slots(&self) -> Vec<Slot> {
        let k = self.a.first().map_or(0, Vec::len);
        let mut out: Vec<Slot> = (0..self.rows()).map(Slot::A).collect();
        out.extend((0..self.rows()).map(Slot::B));
        for r in 0..self.rows() {
            for i in 0..k {
                if self.b[r][i] != self.a[r][i] {
                    out.push(Slot::AB(r, i));
                }
            }
        }
        out
    }

    /// The combination of levels at a slot.
    pub fn at(&self, slot: Slot) -> Vec<usize> {
        match slot {
            Slot::A(r) => self.a[r].clone(),
            Slot::B(r) => self.b[r].clone(),
            Slot::AB(r, i) => self.ab(r, i),
        }
    }
}

/// A place of the design: row `r` of `A` or `B`, or of `AB_i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    /// Row of A.
    A(usize),
    /// Row of B.
    B(usize),
    /// Row of AB_i: (row, factor).
    AB(usize, usize),
}

impl std::fmt::Display for Slot {
    /// `A12`, `B12`, `AB12.3`: a stable name (the seed of its games derives from it).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Slot::A(r) => write!(f, "A{r}"),
            Slot::B(r) => write!(f, "B{r}"),
            Slot::AB(r, i) => write!(f, "AB{r}.{i}"),
        }
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

/// The mean of observations and their variance less the sampling noise (each observation's
/// noise independent of the others'), with the mean noise variance.
fn spread(values: &[Observed]) -> (f64, f64, f64) {
    let m = values.len() as f64;
    let mean = values.iter().map(|o| o.value).sum::<f64>() / m;
    let raw = values
        .iter()
        .map(|o| crate::stats::portable::sq(o.value - mean))
        .sum::<f64>()
        / (m - 1.0);
    let noise = values.iter().map(|o| o.noise).sum::<f64>() / m;
    (mean, raw - noise, noise)
}

/// The observation standing at `AB_i`'s row `r`: its own, or `A`'s where they are the same
/// combination.
fn at_ab(
    design: &Design,
    r: usize,
    i: usize,
    obs: &dyn Fn(Slot) -> Option<Observed>,
) -> Option<Observed> {
    if design.b[r][i] == design.a[r][i] {
        obs(Slot::A(r))
    } else {
        obs(Slot::AB(r, i))
    }
}

/// The estimates `(S_i, ST_i)` of factor `i` over a set of rows; `None` with fewer than two
/// rows observed.
fn estimate(
    design: &Design,
    rows: &[usize],
    i: usize,
    obs: &dyn Fn(Slot) -> Option<Observed>,
) -> Option<(f64, f64)> {
    let mut seen = Vec::with_capacity(rows.len());
    for &r in rows {
        if let (Some(fa), Some(fb), Some(fab)) =
            (obs(Slot::A(r)), obs(Slot::B(r)), at_ab(design, r, i, obs))
        {
            seen.push((r, fa, fb, fab));
        }
    }
    if seen.len() < 2 {
        return None;
    }
    // V from the A and B values of the rows (each counted as drawn), less their noise; the
    // products centred on the mean, which leaves their expectation as it is and takes
    // most of their spread away.
    let values: Vec<Observed> = seen.iter().flat_map(|(_, a, b, _)| [*a, *b]).collect();
    let (mean, var, _) = spread(&values);
    if var <= 1e-12 {
        return Some((0.0, 0.0));
    }
    let (mut first, mut total) = (0.0, 0.0);
    for (r, fa, fb, fab) in &seen {
        // B's noise is independent of A's and AB's: the product holds none on average. The
        // square holds both noises where AB was played apart from A.
        first += (fb.value - mean) * (fab.value - fa.value);
        let mut t = crate::stats::portable::sq(fa.value - fab.value);
        if design.b[*r][i] != design.a[*r][i] {
            t -= fa.noise + fab.noise;
        }
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
    obs: &dyn Fn(Slot) -> Option<Observed>,
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
                    obs(Slot::A(r)).is_some()
                        && obs(Slot::B(r)).is_some()
                        && at_ab(design, r, i, obs).is_some()
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

/// How an outcome varies over the design: its mean, its variance less the sampling noise
/// (with a percentile bootstrap interval over the rows) and the mean noise variance, from
/// the rows whose `A` and `B` readings were both played; `None` under two such rows.
pub fn variance(
    design: &Design,
    obs: &dyn Fn(Slot) -> Option<Observed>,
    resamples: usize,
    seed: u64,
) -> Option<(f64, Rate, f64)> {
    let rows: Vec<(Observed, Observed)> = (0..design.rows())
        .filter_map(|r| Some((obs(Slot::A(r))?, obs(Slot::B(r))?)))
        .collect();
    if rows.len() < 2 {
        return None;
    }
    let of = |pick: &mut dyn Iterator<Item = &(Observed, Observed)>| {
        let values: Vec<Observed> = pick.flat_map(|(a, b)| [*a, *b]).collect();
        spread(&values)
    };
    let (mean, var, noise) = of(&mut rows.iter());
    let mut rng = ChaCha8Rng::seed_from_u64(splitmix64(seed ^ 0x7a41_a4ce));
    let mut replicates: Vec<f64> = (0..resamples)
        .map(|_| {
            let pick: Vec<&(Observed, Observed)> = (0..rows.len())
                .map(|_| &rows[rng.random_range(0..rows.len() as u32) as usize])
                .collect();
            of(&mut pick.into_iter()).1
        })
        .collect();
    Some((mean, interval_raw(var, &mut replicates), noise))
}

/// Whether an outcome varies over the slots played beyond their sampling noise: Cochran's
/// Q, the heterogeneity test of meta-analysis, `Q = Σ_c w_c (x_c − x̄_w)²` with
/// `w_c = 1/σ²_c` over the `C` observations, against χ² with `C − 1` degrees of freedom. Returns `(Q, degrees of freedom, p)`; `None` under two combinations. An
/// outcome that does not vary has no variance to share out among the open points.
pub fn heterogeneity(points: &[Observed]) -> Option<(f64, f64, f64)> {
    if points.len() < 2 {
        return None;
    }
    // A noise of 0 (every game the same length) would weigh infinitely: floored.
    let w: Vec<f64> = points.iter().map(|o| 1.0 / o.noise.max(1e-12)).collect();
    let sw: f64 = w.iter().sum();
    let mean = points.iter().zip(&w).map(|(o, w)| w * o.value).sum::<f64>() / sw;
    let q: f64 = points
        .iter()
        .zip(&w)
        .map(|(o, w)| w * crate::stats::portable::sq(o.value - mean))
        .sum();
    let df = (points.len() - 1) as f64;
    let p = if df > 0.0 {
        crate::stats::portable::chi_square_sf(q, df)
    } else {
        1.0
    };
    Some((q, df, p))
}

/// A point estimate with the 2.5 % and 97.5 % quantiles of its bootstrap replicates.
fn interval_raw(value: f64, replicates: &mut [f64]) -> Rate {
    replicates.sort_by(f64::total_cmp);
    let q = |p: f64| -> f64 {
        if replicates.is_empty() {
            return value;
        }
        replicates[(p * (replicates.len() - 1) as f64).round() as usize]
    };
    Rate {
        value,
        lo: q(0.025).min(value),
        hi: q(0.975).max(value),
    }
}

/// A point estimate with the 2.5 % and 97.5 % quantiles of its bootstrap replicates,
/// rounded to 4 places (what a report prints).
fn interval(value: f64, replicates: &mut [f64]) -> Rate {
    let r = interval_raw(value, replicates);
    let r4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
    Rate {
        value: r4(r.value),
        lo: r4(r.lo),
        hi: r4(r.hi),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic game: at each slot of a design, `games` games seeded by the slot, each
    /// won by the first mover with probability `p(combination)`; observed as a rate with its
    /// sampling variance. Slots are observed once each and remembered, as the command does.
    fn play(
        design: &Design,
        p: impl Fn(&[usize]) -> f64,
        games: u64,
    ) -> impl Fn(Slot) -> Option<Observed> {
        let seen: std::collections::BTreeMap<Slot, Observed> = design
            .slots()
            .into_iter()
            .map(|slot| {
                let name = slot.to_string();
                let key = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
                    (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
                });
                let mut rng = ChaCha8Rng::seed_from_u64(key);
                let pc = p(&design.at(slot));
                let wins = (0..games)
                    .filter(|_| rng.random_range(0..1_000_000u32) < (pc * 1e6) as u32)
                    .count() as f64;
                let g = games as f64;
                let rate = wins / g;
                let o = Observed {
                    value: rate,
                    noise: rate * (1.0 - rate) / (g - 1.0),
                };
                (slot, o)
            })
            .collect();
        move |slot| seen.get(&slot).copied()
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
        // A and B in full, and each AB_i where B's level differs from A's.
        let differ: usize = (0..30)
            .map(|r| (0..3).filter(|&i| d.a[r][i] != d.b[r][i]).count())
            .sum();
        assert_eq!(d.slots().len(), 60 + differ);
        assert_eq!(Slot::AB(12, 3).to_string(), "AB12.3");
    }

    /// The outcome depends on factor 1 only: its indices are near 1, the others' near 0.
    #[test]
    fn one_factor_alone() {
        let levels = [3, 2, 4, 2];
        let d = Design::new(&levels, 200, 1);
        let f = play(&d, |c| if c[1] == 1 { 0.8 } else { 0.2 }, 400);
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
                    x.total.value.abs() < 0.03 && x.total.hi < 0.06,
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
        let f = play(
            &d,
            |c| if (c[0] == 1) != (c[2] == 1) { 0.9 } else { 0.1 },
            400,
        );
        let ix = indices(&d, &f, 300, 2);
        for (i, x) in ix.iter().enumerate() {
            let x = x.as_ref().unwrap();
            assert!(x.first_order.value.abs() < 0.25, "{i}: {x:?}");
            if i == 0 || i == 2 {
                assert!(x.total.value > 0.75 && x.total.lo > 0.5, "{i}: {x:?}");
            } else {
                assert!(
                    x.total.value.abs() < 0.03 && x.total.hi < 0.06,
                    "{i}: {x:?}"
                );
            }
        }
    }

    /// An outcome that does not depend on any factor varies only by its noise: the
    /// heterogeneity test does not reject, and the variance, the noise taken out, is near
    /// zero; one that depends on a factor is found to vary.
    #[test]
    fn variance_beyond_noise() {
        let d = Design::new(&[2, 3, 4, 2], 60, 4);
        let flat = play(&d, |_| 0.5, 300);
        let seen: Vec<Observed> = d.slots().into_iter().filter_map(&flat).collect();
        let (_, df, p) = heterogeneity(&seen).unwrap();
        assert_eq!(df, (d.slots().len() - 1) as f64);
        assert!(p > 0.05, "{p}");
        let (_, v, noise) = variance(&d, &flat, 300, 4).unwrap();
        assert!(v.value.abs() < noise, "{v:?} {noise}");
        assert!(v.lo < 0.0 && v.hi > 0.0, "{v:?}");
        let steep = play(&d, |c| if c[1] == 2 { 0.9 } else { 0.3 }, 300);
        let seen: Vec<Observed> = d.slots().into_iter().filter_map(&steep).collect();
        assert!(heterogeneity(&seen).unwrap().2 < 1e-9);
        let (mean, v, _) = variance(&d, &steep, 300, 4).unwrap();
        assert!(v.lo > 0.05, "{v:?}");
        assert!((mean - 0.5).abs() < 0.05, "{mean}");
    }

    /// Missing readings leave their rows out, and the count says so.
    #[test]
    fn refused_points_are_skipped_and_counted() {
        let d = Design::new(&[2, 2], 40, 3);
        let f = play(&d, |c| if c[0] == 1 { 0.7 } else { 0.3 }, 200);
        let refused = |slot: Slot| {
            if d.at(slot) == [1, 1] { None } else { f(slot) }
        };
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
