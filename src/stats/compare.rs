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

/// The most values [`LnFactorials`] keeps (8 MiB): samples of more games than this work out
/// the larger ones each time, rather than holding a table as large as the sample.
const LN_FACTORIALS_KEPT: u64 = 1 << 20;

impl LnFactorials {
    /// A cache for `0..=n`, or as much of it as is kept (NaN marks a value not yet worked
    /// out: no ln(n!) is NaN).
    fn up_to(n: u64) -> Self {
        LnFactorials(vec![f64::NAN; (n.min(LN_FACTORIALS_KEPT - 1) + 1) as usize])
    }

    fn get(&mut self, n: u64) -> f64 {
        match self.0.get_mut(n as usize) {
            Some(slot) => {
                if slot.is_nan() {
                    *slot = ln_factorial(n);
                }
                *slot
            }
            None => ln_factorial(n),
        }
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
mod tests;
