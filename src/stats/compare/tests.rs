//! The comparisons' tests: published values (R, the papers' examples), the draws' moments,
//! and the bootstrap held bit for bit to its computation from scratch.

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
    let t =
        monte_carlo_chi_square(&[vec![20, 0, 0], vec![0, 20, 0], vec![0, 0, 20]], 999, 7).unwrap();
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
        let p_mode = exp(ln_choose(n, mode) + mode as f64 * ln(p) + (n - mode) as f64 * ln_1p(-p));
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
        diffs.push(statistic_of(&va, &ra, na, statistic) - statistic_of(&vb, &rb, nb, statistic));
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
    // Past what is kept, worked out each time: the same bits.
    let mut big = LnFactorials::up_to(10 * LN_FACTORIALS_KEPT);
    assert_eq!(big.0.len() as u64, LN_FACTORIALS_KEPT);
    for n in [
        LN_FACTORIALS_KEPT - 1,
        LN_FACTORIALS_KEPT,
        9 * LN_FACTORIALS_KEPT,
    ] {
        assert_eq!(big.get(n).to_bits(), ln_factorial(n).to_bits(), "{n}");
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
            20 + rng.random_range(0..40u32) + rng.random_range(0..40u32) * rng.random_range(0..3u32)
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
        214, 187, 181, 143, 244, 228, 192, 178, 164, 173, 152, 104, 104, 147, 215, 155, 152, 133,
        192,
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
