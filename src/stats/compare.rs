//! Comparing two readings of a game: how far apart their outcome rates are, whether their
//! outcome tables differ, and how far apart their game lengths are.
//!
//! This module owns the statistics of `ludotrace diff`: Newcombe's interval on a difference of
//! two rates, Pearson's chi-square, Fisher's exact test and a seeded Monte Carlo test on
//! outcome tables (with a chooser between them), a seeded percentile bootstrap and the
//! Mann–Whitney test on lengths, and Holm's adjustment for the several tests one comparison
//! makes. Every function is pure: counts and samples in, numbers out, and the random ones draw
//! from a `ChaCha8Rng` seeded by the caller, so a result is the same on every machine. None
//! panics: an input with nothing to test gives `None` (or the documented value).
//!
//! The formulas are written here, each after the reference its doc comment names, on the
//! portable maths of [`super::portable`] (logarithms, exponentials, the normal and
//! chi-square tails): a p-value or a Monte Carlo draw is the same on every platform.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use schemars::JsonSchema;
use serde::Serialize;

use super::portable::{chi_square_sf, exp, ln, ln_1p, normal_cdf, normal_sf, sq};
use super::wilson;

/// A point estimate with its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// Lower bound of the 95 % interval.
    pub lo: f64,
    /// Upper bound of the 95 % interval.
    pub hi: f64,
}

/// The result of a test: its statistic, degrees of freedom and two-sided p-value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct TestResult {
    /// The test statistic (Pearson's X², or Mann–Whitney's W).
    pub statistic: f64,
    /// Degrees of freedom of the reference distribution, when the p-value comes from one
    /// (`None` for an exact or simulated p-value, and for Mann–Whitney's normal approximation).
    pub df: Option<u64>,
    /// The p-value.
    pub p: f64,
}

/// The difference `k1/n1 − k2/n2` of two independent proportions with Newcombe's hybrid score
/// 95 % interval (Newcombe 1998, method 10), built from the two Wilson intervals: like them it
/// stays inside [−1, 1] and keeps its coverage at rates of 0 or 1 (0 of n, n of n), where the
/// Wald interval collapses to a point.
///
/// `None` when a side has no trials (`n = 0`: no rate to compare) or more successes than
/// trials.
pub fn newcombe_difference(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<Interval> {
    if n1 == 0 || n2 == 0 || k1 > n1 || k2 > n2 {
        return None;
    }
    let (r1, r2) = (wilson(k1, n1), wilson(k2, n2));
    let d = r1.value - r2.value;
    let lo = d - (sq(r1.value - r1.lo) + sq(r2.hi - r2.value)).sqrt();
    let hi = d + (sq(r1.hi - r1.value) + sq(r2.value - r2.lo)).sqrt();
    Some(Interval {
        value: d,
        lo: lo.max(-1.0),
        hi: hi.min(1.0),
    })
}

/// An outcome table with its empty rows and columns dropped: `cells` row-major.
struct Table {
    rows: usize,
    cols: usize,
    cells: Vec<u64>,
    row_sums: Vec<u64>,
    col_sums: Vec<u64>,
    total: u64,
}

impl Table {
    /// Drops the all-zero rows (arms with no games) and columns (outcomes neither arm saw),
    /// which carry no information and would give expected counts of zero. Short rows count
    /// as zeros in the missing cells. `None` if a total overflows `u64`.
    fn new(table: &[Vec<u64>]) -> Option<Table> {
        let width = table.iter().map(Vec::len).max().unwrap_or(0);
        let mut col_sums = vec![0u64; width];
        for row in table {
            for (s, &x) in col_sums.iter_mut().zip(row) {
                *s = s.checked_add(x)?;
            }
        }
        let keep: Vec<usize> = (0..width).filter(|&j| col_sums[j] > 0).collect();
        let mut cells = Vec::new();
        let mut row_sums = Vec::new();
        for row in table {
            let mut sum = 0u64;
            for &j in &keep {
                sum = sum.checked_add(row.get(j).copied().unwrap_or(0))?;
            }
            if sum > 0 {
                cells.extend(keep.iter().map(|&j| row.get(j).copied().unwrap_or(0)));
                row_sums.push(sum);
            }
        }
        let mut total = 0u64;
        for &s in &row_sums {
            total = total.checked_add(s)?;
        }
        Some(Table {
            rows: row_sums.len(),
            cols: keep.len(),
            cells,
            row_sums,
            col_sums: keep.iter().map(|&j| col_sums[j]).collect(),
            total,
        })
    }

    /// Whether there is an association to test: at least two arms and two outcomes.
    fn testable(&self) -> bool {
        self.rows >= 2 && self.cols >= 2
    }

    /// The expected count of each cell under independence, row-major.
    fn expected(&self) -> Vec<f64> {
        let n = self.total as f64;
        let mut e = Vec::with_capacity(self.rows * self.cols);
        for &r in &self.row_sums {
            for &c in &self.col_sums {
                e.push(r as f64 * c as f64 / n);
            }
        }
        e
    }
}

/// Pearson's X² of `cells` against `expected` (both row-major).
fn pearson_statistic(cells: &[u64], expected: &[f64]) -> f64 {
    cells
        .iter()
        .zip(expected)
        .map(|(&o, &e)| {
            let d = o as f64 - e;
            d * d / e
        })
        .sum()
}

/// Pearson's chi-square test of independence on an outcome table (rows = arms, columns =
/// outcome categories), without Yates's continuity correction (R's `chisq.test(x, correct =
/// FALSE)`): X² = Σ (O − E)² / E on (r − 1)(c − 1) degrees of freedom. The asymptotic p-value
/// is sound when every expected count is at least 5; [`outcome_test`] chooses another test
/// otherwise.
///
/// All-zero rows and columns are dropped first. `None` when fewer than two rows or two
/// columns remain (one arm, or every game ended the same way: nothing to test).
pub fn chi_square(table: &[Vec<u64>]) -> Option<TestResult> {
    let t = Table::new(table)?;
    if !t.testable() {
        return None;
    }
    Some(pearson(&t))
}

fn pearson(t: &Table) -> TestResult {
    let statistic = pearson_statistic(&t.cells, &t.expected());
    let df = ((t.rows - 1) * (t.cols - 1)) as u64;
    let p = chi_square_sf(statistic, df as f64);
    TestResult {
        statistic,
        df: Some(df),
        p,
    }
}

/// Fisher's exact test on the 2 × 2 table `[[a, b], [c, d]]`, two-sided: the probability,
/// given the margins, of the tables no more probable than the observed one (the
/// hypergeometric distribution of the top-left cell). As in R's `fisher.test`, a table counts
/// as no more probable when its probability is at most the observed one times `1 + 10⁻⁷`, so
/// tables that tie in exact arithmetic are not lost to rounding.
///
/// Returns 1 when the margins admit only the observed table (an empty row or column), and NaN
/// when a margin overflows `u64`.
pub fn fisher_exact_2x2(a: u64, b: u64, c: u64, d: u64) -> f64 {
    // Column totals m (first) and n (second), first-row total k; the top-left cell x runs
    // over lo..=hi.
    let (Some(m), Some(n), Some(k)) = (a.checked_add(c), b.checked_add(d), a.checked_add(b)) else {
        return f64::NAN;
    };
    let lo = k.saturating_sub(n);
    let hi = k.min(m);
    if lo >= hi {
        return 1.0;
    }
    // Log probabilities up to a constant, by the ratio of successive terms:
    // P(x + 1) / P(x) = (m − x)(k − x) / ((x + 1)(n − k + x + 1)). Two passes over the support
    // (the first finds the largest term and the observed one, the second sums relative to
    // the largest) keep the memory constant however many games the table holds.
    let log_weights = || {
        (lo..=hi).scan(0.0f64, move |w, x| {
            let here = *w;
            let num = (m - x.min(m)) as f64 * (k - x.min(k)) as f64;
            let den = (x as f64 + 1.0) * (n as f64 + x as f64 + 1.0 - k as f64);
            *w += ln(num / den);
            Some((x, here))
        })
    };
    let mut max = f64::NEG_INFINITY;
    let mut at_observed = 0.0;
    for (x, w) in log_weights() {
        max = max.max(w);
        if x == a {
            at_observed = w;
        }
    }
    let threshold = exp(at_observed - max) * (1.0 + 1e-7);
    let (mut total, mut tail) = (0.0f64, 0.0f64);
    for (_, w) in log_weights() {
        let p = exp(w - max);
        total += p;
        if p <= threshold {
            tail += p;
        }
    }
    (tail / total).min(1.0)
}

/// Replicates of the Monte Carlo test when [`outcome_test`] chooses it: a p-value of about 0.05
/// then has a standard error of 0.002.
pub const MONTE_CARLO_REPLICATES: u32 = 10_000;

/// Which test [`outcome_test`] used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeTestKind {
    /// Pearson's chi-square with its asymptotic p-value (every expected count ≥ 5).
    Pearson,
    /// Fisher's exact test (a 2 × 2 table with an expected count below 5).
    Fisher,
    /// Pearson's X² with a Monte Carlo p-value over random tables with the same margins (a
    /// larger table with an expected count below 5).
    MonteCarlo {
        /// Number of random tables drawn.
        replicates: u32,
    },
}

/// The test [`outcome_test`] chose and its result. The statistic is always Pearson's X² of the
/// table (with the empty rows and columns dropped), so results read alike whichever test gave
/// the p-value; `df` is set only for the asymptotic p-value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct OutcomeTest {
    /// The test used.
    pub kind: OutcomeTestKind,
    /// Its statistic and p-value.
    pub result: TestResult,
}

/// Tests whether the outcome distributions of the arms (rows) differ, choosing the test the
/// counts allow: Pearson's chi-square when every expected count is at least 5 (the usual rule,
/// stricter than Cochran's, for trusting its asymptotic p-value), otherwise Fisher's exact test for a 2 × 2
/// table and, for larger tables, a Monte Carlo test with [`MONTE_CARLO_REPLICATES`] random
/// tables drawn from `rng_seed` (see [`monte_carlo_chi_square`]).
///
/// All-zero columns (outcomes neither arm saw) and rows are dropped first. `None` when fewer
/// than two rows or two columns remain.
pub fn outcome_test(table: &[Vec<u64>], rng_seed: u64) -> Option<OutcomeTest> {
    let t = Table::new(table)?;
    if !t.testable() {
        return None;
    }
    let pearson = pearson(&t);
    if t.expected().iter().all(|&e| e >= 5.0) {
        return Some(OutcomeTest {
            kind: OutcomeTestKind::Pearson,
            result: pearson,
        });
    }
    if t.rows == 2 && t.cols == 2 {
        let c = &t.cells;
        return Some(OutcomeTest {
            kind: OutcomeTestKind::Fisher,
            result: TestResult {
                statistic: pearson.statistic,
                df: None,
                p: fisher_exact_2x2(c[0], c[1], c[2], c[3]),
            },
        });
    }
    Some(OutcomeTest {
        kind: OutcomeTestKind::MonteCarlo {
            replicates: MONTE_CARLO_REPLICATES,
        },
        result: monte_carlo(&t, MONTE_CARLO_REPLICATES, rng_seed),
    })
}

/// Pearson's X² with a Monte Carlo p-value (Hope 1968), as R's `chisq.test(x,
/// simulate.p.value = TRUE, B = replicates)`: `replicates` random tables with the observed
/// margins (drawn exactly, cell by cell from the conditional hypergeometric distributions, the
/// distribution Patefield's algorithm samples), and p = (1 + #{X²ᵢ ≥ X²}) / (1 + replicates),
/// which never reaches 0. As in R, a replicate counts when its X² is at least the observed one
/// less a relative 64 ε, so that the observed table's own rearrangements count despite
/// rounding.
///
/// All-zero rows and columns are dropped first. `None` when fewer than two rows or two
/// columns remain or `replicates` is 0.
pub fn monte_carlo_chi_square(
    table: &[Vec<u64>],
    replicates: u32,
    seed: u64,
) -> Option<TestResult> {
    let t = Table::new(table)?;
    if !t.testable() || replicates == 0 {
        return None;
    }
    Some(monte_carlo(&t, replicates, seed))
}

fn monte_carlo(t: &Table, replicates: u32, seed: u64) -> TestResult {
    let expected = t.expected();
    let observed = pearson_statistic(&t.cells, &expected);
    let threshold = observed * (1.0 - 64.0 * f64::EPSILON);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cells = vec![0u64; t.cells.len()];
    let mut at_least = 0u64;
    for _ in 0..replicates {
        random_table(t, &mut rng, &mut cells);
        if pearson_statistic(&cells, &expected) >= threshold {
            at_least += 1;
        }
    }
    TestResult {
        statistic: observed,
        df: None,
        p: (1 + at_least) as f64 / (1 + u64::from(replicates)) as f64,
    }
}

/// Fills `cells` with a uniformly random table with `t`'s margins (every arrangement of the
/// pooled outcomes among the arms equally likely): row by row, each cell is hypergeometric
/// given the row's remaining games and the columns' remaining totals.
fn random_table(t: &Table, rng: &mut ChaCha8Rng, cells: &mut [u64]) {
    let mut cols = t.col_sums.clone();
    let mut pool = t.total;
    for i in 0..t.rows {
        let row = &mut cells[i * t.cols..(i + 1) * t.cols];
        if i + 1 == t.rows {
            row.copy_from_slice(&cols);
            break;
        }
        let mut left = t.row_sums[i];
        let mut rest = pool;
        for j in 0..t.cols {
            let x = if j + 1 == t.cols {
                left
            } else {
                hypergeometric(rng, rest, cols[j], left)
            };
            row[j] = x;
            rest -= cols[j];
            cols[j] -= x;
            left -= x;
        }
        pool -= t.row_sums[i];
    }
}

/// ln(n!): exact sums below 32, Stirling's series (to the 1/n⁵ term, an error below 10⁻¹⁴)
/// above.
fn ln_factorial(n: u64) -> f64 {
    if n < 32 {
        // Every binomial draw of a resample asks for these (its last draws are of few
        // items): the sums are made once, by the very same expression, so the bits are the
        // same as summing each time.
        static SMALL: std::sync::LazyLock<[f64; 32]> = std::sync::LazyLock::new(|| {
            std::array::from_fn(|n| (2..=n as u64).map(|k| ln(k as f64)).sum())
        });
        return SMALL[n as usize];
    }
    let x = n as f64;
    let x2 = x * x;
    x * ln(x) - x + 0.5 * ln(2.0 * std::f64::consts::PI * x) + 1.0 / (12.0 * x)
        - 1.0 / (360.0 * x * x2)
        + 1.0 / (1260.0 * x * x2 * x2)
}

/// ln C(n, k) for `k ≤ n`.
fn ln_choose(n: u64, k: u64) -> f64 {
    ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
}

/// Inversion of a unimodal distribution on `lo..=hi` by a search outward from its mode `mode`
/// (probability `p_mode`), alternating down and up: `down(x)` is P(x − 1) / P(x) and `up(x)`
/// is P(x + 1) / P(x). The expected number of steps is of the order of the standard
/// deviation, whatever the size of the support. The draw is exact up to floating-point
/// rounding of the probabilities (`p_mode` comes from log-factorials, relative error of order
/// 10⁻⁸ at a million items, far below what any test of the draws could see); if rounding
/// leaves the uniform unspent once the whole support is visited, the mode is returned.
fn invert_from_mode(
    rng: &mut ChaCha8Rng,
    (lo, mode, hi): (u64, u64, u64),
    p_mode: f64,
    down: impl Fn(u64) -> f64,
    up: impl Fn(u64) -> f64,
) -> u64 {
    let mut u: f64 = rng.random::<f64>() - p_mode;
    if u < 0.0 {
        return mode;
    }
    let (mut d, mut pd) = (mode, p_mode);
    let (mut h, mut ph) = (mode, p_mode);
    while d > lo || h < hi {
        if d > lo {
            pd *= down(d);
            d -= 1;
            u -= pd;
            if u < 0.0 {
                return d;
            }
        }
        if h < hi {
            ph *= up(h);
            h += 1;
            u -= ph;
            if u < 0.0 {
                return h;
            }
        }
    }
    mode
}

/// The number of marked items in `draws` drawn without replacement from `total` items of
/// which `marked` are marked (`marked, draws ≤ total`).
fn hypergeometric(rng: &mut ChaCha8Rng, total: u64, marked: u64, draws: u64) -> u64 {
    let unmarked = total - marked;
    let lo = draws.saturating_sub(unmarked);
    let hi = draws.min(marked);
    if lo >= hi {
        return lo;
    }
    let mode = ((draws as f64 + 1.0) * (marked as f64 + 1.0) / (total as f64 + 2.0)) as u64;
    let mode = mode.clamp(lo, hi);
    let p_mode =
        exp(ln_choose(marked, mode) + ln_choose(unmarked, draws - mode) - ln_choose(total, draws));
    let (k, n, nk) = (marked as f64, draws as f64, unmarked as f64);
    invert_from_mode(
        rng,
        (lo, mode, hi),
        p_mode,
        |x| {
            let x = x as f64;
            x * (nk - n + x) / ((k - x + 1.0) * (n - x + 1.0))
        },
        |x| {
            let x = x as f64;
            (k - x) * (n - x) / ((x + 1.0) * (nk - n + x + 1.0))
        },
    )
}

/// ln(n!) for `n` up to a bound, each worked out by [`ln_factorial`] the first time it is
/// asked for and kept: the same bits, without the logarithms of Stirling's series at every
/// draw of a bootstrap.
struct LnFactorials(Vec<f64>);

impl LnFactorials {
    /// A cache for `0..=n` (NaN marks a value not yet worked out: no ln(n!) is NaN).
    fn up_to(n: u64) -> Self {
        LnFactorials(vec![f64::NAN; n as usize + 1])
    }

    fn get(&mut self, n: u64) -> f64 {
        let slot = &mut self.0[n as usize];
        if slot.is_nan() {
            *slot = ln_factorial(n);
        }
        *slot
    }

    /// ln C(n, k) for `k ≤ n`, as [`ln_choose`] works it out.
    fn choose(&mut self, n: u64, k: u64) -> f64 {
        self.get(n) - self.get(k) - self.get(n - k)
    }
}

/// A binomial's probability `p` with the logarithms every draw of it needs, worked out once:
/// a resample draws the binomial of each distinct value with the same `p` in every round
/// (only the number of trials changes), so its logarithms are the same too.
struct Binomial {
    p: f64,
    /// ln p.
    ln_p: f64,
    /// ln(1 − p).
    ln_q: f64,
    /// p / (1 − p).
    odds: f64,
}

impl Binomial {
    fn new(p: f64) -> Self {
        Binomial {
            p,
            ln_p: ln(p),
            ln_q: ln_1p(-p),
            odds: p / (1.0 - p),
        }
    }

    /// The number of successes in `n` trials (`lnf` holds at least `0..=n`).
    fn draw(&self, rng: &mut ChaCha8Rng, n: u64, lnf: &mut LnFactorials) -> u64 {
        let p = self.p;
        if n == 0 || p <= 0.0 {
            return 0;
        }
        if p >= 1.0 {
            return n;
        }
        let mode = (((n as f64 + 1.0) * p) as u64).min(n);
        let p_mode =
            exp(lnf.choose(n, mode) + mode as f64 * self.ln_p + (n - mode) as f64 * self.ln_q);
        let (nf, odds) = (n as f64, self.odds);
        invert_from_mode(
            rng,
            (0, mode, n),
            p_mode,
            |x| {
                let x = x as f64;
                x / ((nf - x + 1.0) * odds)
            },
            |x| {
                let x = x as f64;
                (nf - x) / (x + 1.0) * odds
            },
        )
    }
}

/// The statistic of a sample whose difference [`bootstrap_interval`] estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Statistic {
    /// The arithmetic mean.
    Mean,
    /// The median (the mean of the two middle values for an even count, as in
    /// [`Summary`](super::Summary)).
    Median,
}

/// A sample as its distinct values, ascending, with their counts.
fn value_counts(sample: &[u32]) -> Vec<(u32, u64)> {
    let mut sorted = sample.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<(u32, u64)> = Vec::new();
    for v in sorted {
        match out.last_mut() {
            Some((last, c)) if *last == v => *c += 1,
            _ => out.push((v, 1)),
        }
    }
    out
}

/// The statistic of the sample with `counts[i]` copies of `values[i]` (values ascending,
/// `n` the total count, at least 1).
fn statistic_of(values: &[(u32, u64)], counts: &[u64], n: u64, statistic: Statistic) -> f64 {
    match statistic {
        Statistic::Mean => {
            let sum: u128 = values
                .iter()
                .zip(counts)
                .map(|(&(v, _), &c)| u128::from(v) * u128::from(c))
                .sum();
            sum as f64 / n as f64
        }
        Statistic::Median => {
            // The values of 1-based ranks n/2 and n/2 + 1 (even n) or (n + 1)/2 (odd n).
            let (r1, r2) = if n % 2 == 1 {
                (n / 2 + 1, n / 2 + 1)
            } else {
                (n / 2, n / 2 + 1)
            };
            let (mut v1, mut v2) = (None, None);
            let mut seen = 0u64;
            for (&(v, _), &c) in values.iter().zip(counts) {
                seen += c;
                if v1.is_none() && seen >= r1 {
                    v1 = Some(v);
                }
                if seen >= r2 {
                    v2 = Some(v);
                    break;
                }
            }
            let (v1, v2) = (v1.unwrap_or(0), v2.unwrap_or(0));
            (f64::from(v1) + f64::from(v2)) / 2.0
        }
    }
}

/// A sample ready to be resampled: its distinct values, ascending, with their counts, and the
/// binomial that draws each value's count but the last's (see [`Resampler::draw`]).
struct Resampler {
    values: Vec<(u32, u64)>,
    /// The sample's size.
    n: u64,
    /// The binomial of each value but the last: its count over the count of it and of the
    /// values after it (fixed, since the sample is).
    binomials: Vec<Binomial>,
}

impl Resampler {
    fn new(sample: &[u32]) -> Self {
        let values = value_counts(sample);
        let n = sample.len() as u64;
        let mut weight = n;
        let mut binomials = Vec::with_capacity(values.len());
        for &(_, c) in &values[..values.len().saturating_sub(1)] {
            binomials.push(Binomial::new(c as f64 / weight as f64));
            weight -= c;
        }
        Resampler {
            values,
            n,
            binomials,
        }
    }

    /// Fills `out` with the counts of a resample (with replacement, of the same size): a
    /// multinomial draw, made as successive binomials over the distinct values. This has
    /// exactly the distribution of drawing `n` values one by one, at a cost that grows with
    /// the number of distinct values and the square root of `n` rather than with `n`.
    fn draw(&self, rng: &mut ChaCha8Rng, lnf: &mut LnFactorials, out: &mut [u64]) {
        let mut left = self.n;
        for (i, b) in self.binomials.iter().enumerate() {
            let x = b.draw(rng, left, lnf);
            out[i] = x;
            left -= x;
        }
        out[self.values.len() - 1] = left;
    }
}

/// The difference `stat(a) − stat(b)` of a statistic between two samples of game lengths with
/// a seeded percentile bootstrap 95 % interval: each of `replicates` rounds resamples both
/// samples with replacement (each keeping its size) and takes the difference; the bounds are
/// the 2.5 % and 97.5 % quantiles of those differences (linear interpolation between order
/// statistics, R's `quantile` type 7). It assumes nothing about the shape of the length
/// distribution, which for games is skewed and often multimodal.
///
/// Resamples are drawn as counts of the distinct values (see `Resampler::draw`), exact in
/// distribution, so samples of a million games stay fast. The rounds draw from one
/// `ChaCha8Rng` seeded by `seed`, so the interval is the same on every machine.
///
/// `None` when either sample is empty or `replicates` is 0.
pub fn bootstrap_interval(
    sample_a: &[u32],
    sample_b: &[u32],
    statistic: Statistic,
    replicates: u32,
    seed: u64,
) -> Option<Interval> {
    if sample_a.is_empty() || sample_b.is_empty() || replicates == 0 {
        return None;
    }
    let (a, b) = (Resampler::new(sample_a), Resampler::new(sample_b));
    let (va, vb) = (&a.values, &b.values);
    let (na, nb) = (a.n, b.n);
    let ca: Vec<u64> = va.iter().map(|&(_, c)| c).collect();
    let cb: Vec<u64> = vb.iter().map(|&(_, c)| c).collect();
    let value = statistic_of(va, &ca, na, statistic) - statistic_of(vb, &cb, nb, statistic);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut lnf = LnFactorials::up_to(na.max(nb));
    let (mut ra, mut rb) = (vec![0u64; va.len()], vec![0u64; vb.len()]);
    let mut diffs = Vec::with_capacity(replicates as usize);
    for _ in 0..replicates {
        a.draw(&mut rng, &mut lnf, &mut ra);
        b.draw(&mut rng, &mut lnf, &mut rb);
        diffs.push(statistic_of(va, &ra, na, statistic) - statistic_of(vb, &rb, nb, statistic));
    }
    diffs.sort_unstable_by(f64::total_cmp);
    Some(Interval {
        value,
        lo: quantile7(&diffs, 0.025),
        hi: quantile7(&diffs, 0.975),
    })
}

/// The `q` quantile of ascending `sorted` (non-empty), R's type 7: the order statistic at
/// 1-based position 1 + (n − 1) q, interpolated.
fn quantile7(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let i = h.floor() as usize;
    let frac = h - i as f64;
    match sorted.get(i + 1) {
        Some(&next) => sorted[i] + frac * (next - sorted[i]),
        None => sorted[i],
    }
}

/// The Mann–Whitney (Wilcoxon rank-sum) test of whether lengths in `a` tend to be larger or
/// smaller than in `b`, two-sided, as R's `wilcox.test(a, b, exact = FALSE, correct = TRUE)`:
/// the statistic is W = R₁ − n₁(n₁ + 1)/2 (R₁ the sum of `a`'s mid-ranks in the pooled
/// sample), and the p-value is the normal approximation with the tie correction of the
/// variance, σ² = n₁n₂/12 · (N + 1 − Σ(t³ − t)/(N(N − 1))), and a continuity correction of ½.
/// Game lengths tie heavily, which is why the exact distribution does not apply.
///
/// `None` when either sample is empty. When every value is the same (σ = 0) the samples
/// cannot differ in rank and p is 1.
pub fn mann_whitney(a: &[u32], b: &[u32]) -> Option<TestResult> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let (va, vb) = (value_counts(a), value_counts(b));
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    let n = n1 + n2;
    // Merge the two ascending lists of distinct values, ranking each tie group at its mid-rank.
    let (mut i, mut j) = (0, 0);
    let mut below = 0.0f64; // values ranked so far
    let mut rank_sum = 0.0f64;
    let mut ties = 0.0f64;
    while i < va.len() || j < vb.len() {
        let v = match (va.get(i), vb.get(j)) {
            (Some(&(x, _)), Some(&(y, _))) => x.min(y),
            (Some(&(x, _)), None) => x,
            (None, Some(&(y, _))) => y,
            (None, None) => break,
        };
        let mut ca = 0.0;
        if let Some(&(x, c)) = va.get(i)
            && x == v
        {
            ca = c as f64;
            i += 1;
        }
        let mut cb = 0.0;
        if let Some(&(y, c)) = vb.get(j)
            && y == v
        {
            cb = c as f64;
            j += 1;
        }
        let t = ca + cb;
        let mid_rank = below + (t + 1.0) / 2.0;
        rank_sum += ca * mid_rank;
        ties += t * t * t - t;
        below += t;
    }
    let w = rank_sum - n1 * (n1 + 1.0) / 2.0;
    let z = w - n1 * n2 / 2.0;
    let sigma = (n1 * n2 / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)))).sqrt();
    if sigma.is_nan() || sigma <= 0.0 {
        return Some(TestResult {
            statistic: w,
            df: None,
            p: 1.0,
        });
    }
    let z = (z - 0.5 * z.signum()) / sigma;
    let p = (2.0 * normal_cdf(z).min(normal_sf(z))).min(1.0);
    Some(TestResult {
        statistic: w,
        df: None,
        p,
    })
}

/// Holm's step-down adjustment (Holm 1979) of p-values from several tests of one comparison,
/// so that "any difference" is claimed at the family-wise error rate asked for, with more
/// power than Bonferroni: the i-th smallest of m p-values is multiplied by m − i + 1, the
/// results made non-decreasing in that order and capped at 1 (R's `p.adjust(p, "holm")`).
/// The adjusted values come back in the input order. NaNs are left as they are and do not
/// count in m, as R's `NA`s.
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p_values.len())
        .filter(|&i| !p_values[i].is_nan())
        .collect();
    order.sort_by(|&i, &j| p_values[i].total_cmp(&p_values[j]));
    let m = order.len();
    let mut adjusted = p_values.to_vec();
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max((m - rank) as f64 * p_values[i]);
        adjusted[i] = running.min(1.0);
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, want: f64, tol: f64) -> bool {
        (x - want).abs() <= tol
    }

    #[test]
    fn wilson_of_520_in_1000() {
        // p = 0.52, n = 1000: the Wilson 95 % interval is [0.489, 0.551] to three decimals
        // (0.48902, 0.55083 by the formula).
        let r = wilson(520, 1000);
        assert!(close(r.lo, 0.489, 5e-4), "{r:?}");
        assert!(close(r.hi, 0.551, 5e-4), "{r:?}");
    }

    #[test]
    fn newcombe_matches_the_papers_examples() {
        // Newcombe (1998), Table II, method 10, as reproduced by the tests of the R package
        // propint (github.com/m-Py/propint, tests/testthat/test_Two_Independent_Props_CI.R:
        // ci.two.indep.props "produces the results reported in Newcombe1998").
        let d = newcombe_difference(56, 70, 48, 80).unwrap();
        assert!(close(d.value, 0.2, 1e-12), "{d:?}");
        assert!(close(d.lo, 0.0524, 5e-5), "{d:?}");
        assert!(close(d.hi, 0.3339, 5e-5), "{d:?}");
        let d = newcombe_difference(9, 10, 3, 10).unwrap();
        assert!(close(d.value, 0.6, 1e-12), "{d:?}");
        assert!(close(d.lo, 0.1705, 5e-5), "{d:?}");
        assert!(close(d.hi, 0.8090, 5e-5), "{d:?}");
        // The boundary contrasts of the paper's Table II, checked by hand from the Wilson
        // limits: at 0 of n the interval is [0, z²/(n + z²)], 0.2775 for n = 10 (Newcombe 1998,
        // Table I) and 0.1611 for n = 20, so 0/10 − 0/20 gives [−0.1611, 0.2775] and
        // 0/10 − 0/10 gives [−0.2775, 0.2775].
        let d = newcombe_difference(0, 10, 0, 20).unwrap();
        assert_eq!(d.value, 0.0);
        assert!(close(d.lo, -0.1611, 5e-5), "{d:?}");
        assert!(close(d.hi, 0.2775, 5e-5), "{d:?}");
        let d = newcombe_difference(0, 10, 0, 10).unwrap();
        assert!(
            close(d.lo, -0.2775, 5e-5) && close(d.hi, 0.2775, 5e-5),
            "{d:?}"
        );
        // 10/10 − 0/20 and 10/10 − 0/10: the upper bound is 1, the lower 1 − √(0.2775² +
        // 0.1611²) = 0.6791 and 1 − √2 · 0.2775 = 0.6075.
        let d = newcombe_difference(10, 10, 0, 20).unwrap();
        assert_eq!(d.value, 1.0);
        assert!(close(d.lo, 0.6791, 5e-5), "{d:?}");
        assert_eq!(d.hi, 1.0);
        let d = newcombe_difference(10, 10, 0, 10).unwrap();
        assert!(close(d.lo, 0.6075, 5e-5), "{d:?}");
        assert_eq!(d.hi, 1.0);
        // 5/56 − 0/29 (also in Table II): 0.0893, [−0.0381, 0.1926] by the formula.
        let d = newcombe_difference(5, 56, 0, 29).unwrap();
        assert!(close(d.value, 0.0893, 5e-5), "{d:?}");
        assert!(close(d.lo, -0.0381, 5e-5), "{d:?}");
        assert!(close(d.hi, 0.1926, 5e-5), "{d:?}");
    }

    #[test]
    fn newcombe_without_data_and_swapped() {
        assert_eq!(newcombe_difference(0, 0, 3, 10), None);
        assert_eq!(newcombe_difference(3, 10, 0, 0), None);
        assert_eq!(newcombe_difference(11, 10, 3, 10), None);
        // Swapping the arms negates the difference and mirrors the interval.
        let d = newcombe_difference(56, 70, 48, 80).unwrap();
        let e = newcombe_difference(48, 80, 56, 70).unwrap();
        assert!(close(d.value, -e.value, 1e-12));
        assert!(close(d.lo, -e.hi, 1e-12) && close(d.hi, -e.lo, 1e-12));
    }

    #[test]
    fn fisher_matches_r() {
        // R: fisher.test(matrix(c(3, 1, 1, 3), 2)), Fisher's tea-tasting table (R's
        // ?fisher.test "TeaTasting"): p = 0.4857, exactly 34/70 (the hypergeometric
        // probabilities are 1, 16, 36, 16, 1 in 70; the observed 16/70 ties with its mirror).
        let p = fisher_exact_2x2(3, 1, 1, 3);
        assert!(close(p, 34.0 / 70.0, 1e-12), "{p}");
        // By hand: [[0, 2], [5, 3]] has margins 2, 8 and 5, 5; the top-left cell takes 0, 1, 2
        // with probabilities 10, 25, 10 in 45, so p = 20/45. The mirror table's 10/45 comes
        // out of the floating-point recurrence a rounding above the observed one: without the
        // relative tolerance p would be 10/45.
        let p = fisher_exact_2x2(0, 2, 5, 3);
        assert!(close(p, 20.0 / 45.0, 1e-12), "{p}");
        // R: fisher.test(matrix(c(2, 10, 20, 13), ncol = 2, byrow = TRUE)): p = 0.01655
        // (matstat.org, R course, "fisher_test").
        let p = fisher_exact_2x2(2, 10, 20, 13);
        assert!(close(p, 0.01655, 5e-6), "{p}");
        // The orientation of the table does not matter.
        let q = fisher_exact_2x2(10, 2, 13, 20);
        assert!(close(p, q, 1e-12), "{p} {q}");
        let q = fisher_exact_2x2(2, 20, 10, 13);
        assert!(close(p, q, 1e-12), "{p} {q}");
        // Margins that admit one table only.
        assert_eq!(fisher_exact_2x2(0, 0, 3, 4), 1.0);
        assert_eq!(fisher_exact_2x2(0, 0, 0, 0), 1.0);
        assert_eq!(fisher_exact_2x2(5, 0, 7, 0), 1.0);
    }

    #[test]
    fn pearson_matches_r() {
        // R's ?chisq.test example (Agresti 2007, p. 39: party identification by gender):
        // M <- as.table(rbind(c(762, 327, 468), c(484, 239, 477))); chisq.test(M) gives
        // X-squared = 30.07, df = 2, p-value = 2.954e-07.
        let t = chi_square(&[vec![762, 327, 468], vec![484, 239, 477]]).unwrap();
        assert!(close(t.statistic, 30.07, 5e-3), "{t:?}");
        assert_eq!(t.df, Some(2));
        assert!(close(t.p, 2.954e-7, 5e-10), "{t:?}");
        // Education by gender (Carter, "How to perform a chi-squared test on a contingency
        // table in R", from Penn State's STAT 500): X-squared = 8.0061, df = 3,
        // p-value = 0.04589.
        let t = chi_square(&[vec![60, 54, 46, 41], vec![40, 44, 53, 57]]).unwrap();
        assert!(close(t.statistic, 8.0061, 5e-5), "{t:?}");
        assert_eq!(t.df, Some(3));
        assert!(close(t.p, 0.04589, 5e-6), "{t:?}");
        // Checked by hand: [[10, 20], [20, 10]] has E = 15 in every cell, X² = 4 · 25/15 =
        // 20/3 on 1 df, p = P(χ²₁ ≥ 20/3) = erfc(√(10/3)) = 0.009823.
        let t = chi_square(&[vec![10, 20], vec![20, 10]]).unwrap();
        assert!(close(t.statistic, 20.0 / 3.0, 1e-12), "{t:?}");
        assert_eq!(t.df, Some(1));
        assert!(close(t.p, 0.009823, 5e-7), "{t:?}");
        // Empty columns and rows are dropped; nothing to test below 2 × 2.
        let u = chi_square(&[vec![10, 0, 20], vec![0, 0, 0], vec![20, 0, 10]]).unwrap();
        assert_eq!(u, t);
        assert_eq!(chi_square(&[vec![10, 0], vec![20, 0]]), None);
        assert_eq!(chi_square(&[vec![10, 20]]), None);
        assert_eq!(chi_square(&[]), None);
    }

    #[test]
    fn outcome_test_chooses_by_expected_counts() {
        let t = outcome_test(&[vec![762, 327, 468], vec![484, 239, 477]], 1).unwrap();
        assert_eq!(t.kind, OutcomeTestKind::Pearson);
        assert_eq!(t.result.df, Some(2));
        // 2 × 2 with expected counts of 2: Fisher (after dropping the empty middle column).
        let t = outcome_test(&[vec![3, 0, 1], vec![1, 0, 3]], 1).unwrap();
        assert_eq!(t.kind, OutcomeTestKind::Fisher);
        assert!(close(t.result.p, 34.0 / 70.0, 1e-12), "{t:?}");
        assert!(close(t.result.statistic, 2.0, 1e-12), "{t:?}");
        // 2 × 3 with small counts: Monte Carlo.
        let t = outcome_test(&[vec![3, 1, 2], vec![1, 3, 2]], 1).unwrap();
        assert_eq!(
            t.kind,
            OutcomeTestKind::MonteCarlo {
                replicates: MONTE_CARLO_REPLICATES
            }
        );
        assert_eq!(outcome_test(&[vec![5, 0], vec![7, 0]], 1), None);
    }

    #[test]
    fn monte_carlo_is_seeded_and_agrees_with_pearson() {
        let table = [vec![3, 1, 2, 0], vec![1, 3, 2, 4], vec![2, 2, 1, 1]];
        let a = monte_carlo_chi_square(&table, 2000, 42).unwrap();
        let b = monte_carlo_chi_square(&table, 2000, 42).unwrap();
        assert_eq!(a, b);
        // No association at all (proportional rows): X² = 0 and every table counts, p = 1.
        let t = monte_carlo_chi_square(&[vec![2, 4, 6], vec![1, 2, 3]], 1000, 7).unwrap();
        assert_eq!(t.statistic, 0.0);
        assert_eq!(t.p, 1.0);
        // A table close to independence gives a large p.
        let t = monte_carlo_chi_square(&[vec![5, 4, 6], vec![4, 5, 5]], 2000, 7).unwrap();
        assert!(t.p > 0.5, "{t:?}");
        // A strong association gives the smallest p the replicates allow.
        let t = monte_carlo_chi_square(&[vec![20, 0, 0], vec![0, 20, 0], vec![0, 0, 20]], 999, 7)
            .unwrap();
        assert_eq!(t.p, 1.0 / 1000.0);
        // With large counts the simulated p-value approaches the asymptotic one: Carter's
        // table above has p = 0.04589; 10 000 replicates have a standard error of 0.0021.
        let table = [vec![60, 54, 46, 41], vec![40, 44, 53, 57]];
        let t = monte_carlo_chi_square(&table, 10_000, 3).unwrap();
        assert!(close(t.p, 0.04589, 0.008), "{t:?}");
        assert_eq!(monte_carlo_chi_square(&table, 0, 3), None);
        // On the tea-tasting table, whose margins are symmetric, X² ranks the tables as their
        // probabilities do, so the simulated p-value estimates Fisher's exact 34/70 (standard
        // error 0.005 at 10 000 replicates): a check of the random tables' distribution.
        let t = monte_carlo_chi_square(&[vec![3, 1], vec![1, 3]], 10_000, 8).unwrap();
        assert!(close(t.p, 34.0 / 70.0, 0.02), "{t:?}");
    }

    #[test]
    fn random_tables_keep_the_margins_and_the_hypergeometric_mean() {
        let t = Table::new(&[vec![30, 1, 7], vec![2, 50, 9], vec![0, 4, 100_000]]).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut cells = vec![0; 9];
        let mut first = 0u64;
        let reps = 4000;
        for _ in 0..reps {
            random_table(&t, &mut rng, &mut cells);
            for i in 0..3 {
                assert_eq!(cells[i * 3..i * 3 + 3].iter().sum::<u64>(), t.row_sums[i]);
                assert_eq!((0..3).map(|r| cells[r * 3 + i]).sum::<u64>(), t.col_sums[i]);
            }
            first += cells[0];
        }
        // The top-left cell is hypergeometric: mean 38 · 32 / 100 203.
        let mean = first as f64 / f64::from(reps);
        let want = 38.0 * 32.0 / 100_203.0;
        assert!(close(mean, want, 0.01), "{mean} {want}");
    }

    #[test]
    fn small_log_factorials_are_the_sums_bit_for_bit() {
        for n in 0..40u64 {
            let sum: f64 = (2..=n).map(|k| ln(k as f64)).sum();
            if n < 32 {
                assert_eq!(ln_factorial(n).to_bits(), sum.to_bits(), "{n}");
            } else {
                assert!((ln_factorial(n) - sum).abs() < 1e-10, "{n}");
            }
        }
    }

    /// The bootstrap as it was before its logarithms were kept (a binomial worked out from
    /// scratch at every draw): the reference the faster one must match bit for bit.
    fn bootstrap_from_scratch(a: &[u32], b: &[u32], statistic: Statistic, seed: u64) -> Interval {
        fn binomial(rng: &mut ChaCha8Rng, n: u64, p: f64) -> u64 {
            if n == 0 || p <= 0.0 {
                return 0;
            }
            if p >= 1.0 {
                return n;
            }
            let q = 1.0 - p;
            let mode = (((n as f64 + 1.0) * p) as u64).min(n);
            let p_mode =
                exp(ln_choose(n, mode) + mode as f64 * ln(p) + (n - mode) as f64 * ln_1p(-p));
            let (nf, odds) = (n as f64, p / q);
            invert_from_mode(
                rng,
                (0, mode, n),
                p_mode,
                |x| x as f64 / ((nf - x as f64 + 1.0) * odds),
                |x| (nf - x as f64) / (x as f64 + 1.0) * odds,
            )
        }
        fn resample(rng: &mut ChaCha8Rng, values: &[(u32, u64)], n: u64, out: &mut [u64]) {
            let (mut left, mut weight) = (n, n);
            for (i, &(_, c)) in values.iter().enumerate() {
                let x = if i + 1 == values.len() {
                    left
                } else {
                    binomial(rng, left, c as f64 / weight as f64)
                };
                out[i] = x;
                left -= x;
                weight -= c;
            }
        }
        let (va, vb) = (value_counts(a), value_counts(b));
        let (na, nb) = (a.len() as u64, b.len() as u64);
        let ca: Vec<u64> = va.iter().map(|&(_, c)| c).collect();
        let cb: Vec<u64> = vb.iter().map(|&(_, c)| c).collect();
        let value = statistic_of(&va, &ca, na, statistic) - statistic_of(&vb, &cb, nb, statistic);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut ra, mut rb) = (vec![0u64; va.len()], vec![0u64; vb.len()]);
        let mut diffs = Vec::new();
        for _ in 0..500 {
            resample(&mut rng, &va, na, &mut ra);
            resample(&mut rng, &vb, nb, &mut rb);
            diffs.push(
                statistic_of(&va, &ra, na, statistic) - statistic_of(&vb, &rb, nb, statistic),
            );
        }
        diffs.sort_unstable_by(f64::total_cmp);
        Interval {
            value,
            lo: quantile7(&diffs, 0.025),
            hi: quantile7(&diffs, 0.975),
        }
    }

    #[test]
    fn the_bootstrap_with_kept_logarithms_is_the_bootstrap_from_scratch_bit_for_bit() {
        let cases = [
            (lengths(3_000, 1), lengths(2_000, 2)),
            (lengths(40, 3), lengths(25, 4)),
            (vec![5, 5, 5, 9], vec![7]),
            (vec![1; 100], vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        ];
        for (a, b) in &cases {
            for statistic in [Statistic::Mean, Statistic::Median] {
                let want = bootstrap_from_scratch(a, b, statistic, 11);
                let got = bootstrap_interval(a, b, statistic, 500, 11).unwrap();
                for (g, w) in [
                    (got.value, want.value),
                    (got.lo, want.lo),
                    (got.hi, want.hi),
                ] {
                    assert_eq!(g.to_bits(), w.to_bits(), "{statistic:?}: {got:?} {want:?}");
                }
            }
        }
    }

    #[test]
    fn cached_log_factorials_are_the_same_bits() {
        let mut lnf = LnFactorials::up_to(5_000);
        for n in [0u64, 1, 31, 32, 33, 999, 5_000, 999, 31] {
            assert_eq!(lnf.get(n).to_bits(), ln_factorial(n).to_bits(), "{n}");
        }
        for (n, k) in [(5_000u64, 17u64), (40, 40), (40, 0), (100, 50)] {
            assert_eq!(lnf.choose(n, k).to_bits(), ln_choose(n, k).to_bits());
        }
    }

    #[test]
    fn binomial_draws_have_the_right_moments() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for &(n, p) in &[
            (10u64, 0.3f64),
            (1_000_000, 0.001),
            (1_000_000, 0.5),
            (7, 0.99),
        ] {
            let reps = 20_000;
            let (mut s, mut s2) = (0.0, 0.0);
            let (b, mut lnf) = (Binomial::new(p), LnFactorials::up_to(n));
            for _ in 0..reps {
                let x = b.draw(&mut rng, n, &mut lnf) as f64;
                assert!(x <= n as f64);
                s += x;
                s2 += x * x;
            }
            let mean = s / f64::from(reps);
            let var = s2 / f64::from(reps) - mean * mean;
            let (m, v) = (n as f64 * p, n as f64 * p * (1.0 - p));
            // Four standard errors of the mean; the variance within 5 %.
            assert!(
                close(mean, m, 4.0 * (v / f64::from(reps)).sqrt()),
                "{n} {p} {mean}"
            );
            assert!(close(var, v, 0.05 * v), "{n} {p} {var}");
        }
        // Hypergeometric draws: mean nK/N, variance nK/N · (1 − K/N) · (N − n)/(N − 1).
        for &(total, marked, draws) in &[(50u64, 20u64, 15u64), (2_000_000, 1_000, 600_000)] {
            let reps = 20_000;
            let (mut s, mut s2) = (0.0, 0.0);
            for _ in 0..reps {
                let x = hypergeometric(&mut rng, total, marked, draws) as f64;
                assert!(x <= marked.min(draws) as f64);
                s += x;
                s2 += x * x;
            }
            let mean = s / f64::from(reps);
            let var = s2 / f64::from(reps) - mean * mean;
            let (t, k, n) = (total as f64, marked as f64, draws as f64);
            let (m, v) = (n * k / t, n * k / t * (1.0 - k / t) * (t - n) / (t - 1.0));
            assert!(
                close(mean, m, 4.0 * (v / f64::from(reps)).sqrt()),
                "{total} {mean}"
            );
            assert!(close(var, v, 0.05 * v), "{total} {var}");
        }
        assert_eq!(hypergeometric(&mut rng, 10, 10, 4), 4);
        assert_eq!(hypergeometric(&mut rng, 10, 0, 4), 0);
        assert_eq!(hypergeometric(&mut rng, 10, 3, 10), 3);
        let mut lnf = LnFactorials::up_to(5);
        assert_eq!(Binomial::new(0.0).draw(&mut rng, 5, &mut lnf), 0);
        assert_eq!(Binomial::new(1.0).draw(&mut rng, 5, &mut lnf), 5);
        assert_eq!(Binomial::new(0.5).draw(&mut rng, 0, &mut lnf), 0);
    }

    /// A deterministic skewed sample of lengths.
    fn lengths(n: usize, seed: u64) -> Vec<u32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                20 + rng.random_range(0..40u32)
                    + rng.random_range(0..40u32) * rng.random_range(0..3u32)
            })
            .collect()
    }

    #[test]
    fn bootstrap_is_seeded_and_covers_a_known_shift() {
        let b = lengths(3000, 1);
        let a: Vec<u32> = lengths(3000, 2).iter().map(|x| x + 10).collect();
        for stat in [Statistic::Mean, Statistic::Median] {
            let i = bootstrap_interval(&a, &b, stat, 1000, 11).unwrap();
            let j = bootstrap_interval(&a, &b, stat, 1000, 11).unwrap();
            assert_eq!(i, j);
            assert!(i.lo <= 10.0 && 10.0 <= i.hi, "{stat:?} {i:?}");
            assert!(i.lo <= i.value && i.value <= i.hi, "{stat:?} {i:?}");
            // Another seed draws other resamples (the median's bounds, whole or half numbers,
            // may well coincide, the mean's do not).
            if stat == Statistic::Mean {
                let k = bootstrap_interval(&a, &b, stat, 1000, 12).unwrap();
                assert_ne!(i, k);
            }
        }
        // Constant samples: every resample has the same statistic.
        let i = bootstrap_interval(&[7; 100], &[5; 50], Statistic::Mean, 200, 1).unwrap();
        assert_eq!((i.value, i.lo, i.hi), (2.0, 2.0, 2.0));
        let i = bootstrap_interval(&[7; 100], &[7; 51], Statistic::Median, 200, 1).unwrap();
        assert_eq!((i.value, i.lo, i.hi), (0.0, 0.0, 0.0));
        assert_eq!(bootstrap_interval(&[], &[1], Statistic::Mean, 10, 1), None);
        assert_eq!(bootstrap_interval(&[1], &[1], Statistic::Mean, 0, 1), None);
    }

    #[test]
    fn bootstrap_of_the_mean_has_the_plug_in_spread() {
        // The bootstrap distribution of a mean has variance σ̂²/n (σ̂² the sample's variance
        // with divisor n), so the 95 % interval of a difference of means is close to
        // ±1.96 √(σ̂²ₐ/nₐ + σ̂²_b/n_b) around it; a resampler that drew the wrong distribution
        // would miss this.
        let a = lengths(5000, 3);
        let b = lengths(2000, 4);
        let var = |s: &[u32]| {
            let n = s.len() as f64;
            let m = s.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
            s.iter().map(|&x| sq(f64::from(x) - m)).sum::<f64>() / n
        };
        let se = (var(&a) / a.len() as f64 + var(&b) / b.len() as f64).sqrt();
        let i = bootstrap_interval(&a, &b, Statistic::Mean, 4000, 5).unwrap();
        let half = (i.hi - i.lo) / 2.0;
        assert!(
            close(half, 1.959_964 * se, 0.06 * 1.959_964 * se),
            "{half} {se}"
        );
        assert!(close((i.hi + i.lo) / 2.0, i.value, 0.1 * se), "{i:?}");
    }

    #[test]
    fn mann_whitney_matches_r() {
        // R: x <- c(1, 5, 9, 24, 56, 21, 3, 7, 21, 4); y <- c(12, 15, 5, 9, 9, 14, 56, 22, 3,
        // 7, 32, 5); wilcox.test(x, y) (ties, so exact = FALSE; correct = TRUE by default):
        // W = 51.5, p-value = 0.5966 (endmemo.com, "R wilcox.test").
        let x = [1, 5, 9, 24, 56, 21, 3, 7, 21, 4];
        let y = [12, 15, 5, 9, 9, 14, 56, 22, 3, 7, 32, 5];
        let t = mann_whitney(&x, &y).unwrap();
        assert_eq!(t.statistic, 51.5);
        assert!(close(t.p, 0.5966, 5e-5), "{t:?}");
        // Same x against y <- c(1233, 4356, 987, 39999, 1111, 200000): W = 0,
        // p-value = 0.001364 (same page).
        let t = mann_whitney(&x, &[1233, 4356, 987, 39999, 1111, 200000]).unwrap();
        assert_eq!(t.statistic, 0.0);
        assert!(close(t.p, 0.001364, 5e-7), "{t:?}");
        // R: wilcox.test(mpg ~ am, data = mtcars): W = 42, p-value = 0.001871 (r-tutor.com;
        // 0.001871391 on stats.stackexchange.com, question 290830). Miles per gallon times 10
        // (ranks are unchanged), automatic (am = 0) then manual.
        let automatic = [
            214, 187, 181, 143, 244, 228, 192, 178, 164, 173, 152, 104, 104, 147, 215, 155, 152,
            133, 192,
        ];
        let manual = [
            210, 210, 228, 324, 304, 339, 273, 260, 304, 158, 197, 150, 214,
        ];
        let t = mann_whitney(&automatic, &manual).unwrap();
        assert_eq!(t.statistic, 42.0);
        assert!(close(t.p, 0.001871391, 5e-9), "{t:?}");
        // Swapping the samples gives W' = n₁n₂ − W and the same p.
        let s = mann_whitney(&manual, &automatic).unwrap();
        assert_eq!(s.statistic, 19.0 * 13.0 - 42.0);
        assert!(close(s.p, t.p, 1e-12));
        assert_eq!(mann_whitney(&[], &[1]), None);
        let t = mann_whitney(&[4, 4], &[4, 4, 4]).unwrap();
        assert_eq!((t.statistic, t.p), (3.0, 1.0));
    }

    #[test]
    fn holm_matches_r() {
        // R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm") = 0.05 0.08 0.09 0.09 0.09.
        let adj = holm(&[0.01, 0.02, 0.03, 0.04, 0.05]);
        for (a, want) in adj.iter().zip([0.05, 0.08, 0.09, 0.09, 0.09]) {
            assert!(close(*a, want, 1e-12), "{adj:?}");
        }
        // In the input order, capped at 1.
        let adj = holm(&[0.5, 0.01, 0.6, 0.4]);
        let want = [1.0, 0.04, 1.0, 1.0];
        for (a, w) in adj.iter().zip(want) {
            assert!(close(*a, w, 1e-12), "{adj:?}");
        }
        assert!(holm(&[]).is_empty());
        let adj = holm(&[0.02, f64::NAN, 0.04]);
        assert!(close(adj[0], 0.04, 1e-12) && adj[1].is_nan() && close(adj[2], 0.04, 1e-12));
    }
}
