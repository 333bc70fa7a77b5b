//! The transcendental functions behind every published figure, from `libm` (a port of musl's
//! maths library): the same bits on every platform, where `f64::ln` and `f64::exp` call the
//! platform's own maths library, whose last bits may differ. Square roots need nothing here:
//! IEEE 754 rounds them exactly everywhere.
//!
//! The chi-square and normal tail probabilities are written here on top of them (the
//! regularised incomplete gamma function after Press et al., *Numerical Recipes*, 3rd ed.,
//! §6.2; the normal tail from the complementary error function), so that no p-value a report
//! prints depends on the platform.

/// Natural logarithm.
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// e to the power `x`.
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// ln(1 + x), accurate near 0.
pub fn ln_1p(x: f64) -> f64 {
    libm::log1p(x)
}

/// `x²`, as one multiplication.
pub fn sq(x: f64) -> f64 {
    x * x
}

/// P(X > x) for X standard normal.
pub fn normal_sf(x: f64) -> f64 {
    0.5 * libm::erfc(x / std::f64::consts::SQRT_2)
}

/// P(X ≤ x) for X standard normal.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// P(X > x) for X chi-square with `df` degrees of freedom: the regularised upper incomplete
/// gamma function Q(df/2, x/2). NaN for `df ≤ 0`.
pub fn chi_square_sf(x: f64, df: f64) -> f64 {
    if df.is_nan() || x.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 1.0;
    }
    if x.is_infinite() {
        return 0.0;
    }
    gamma_q(df / 2.0, x / 2.0)
}

const EPS: f64 = 1e-16;
const TINY: f64 = 1e-300;
/// Terms of the series or the continued fraction at most: both need a number of the order
/// of √a near x ≈ a, so the bound grows with it (a cap reached would return a partial sum).
fn max_terms(a: f64) -> usize {
    10_000 + (100.0 * a.sqrt()) as usize
}

/// Q(a, x) = Γ(a, x) / Γ(a), for a > 0, x > 0: the series for P below a + 1, the continued
/// fraction for Q above (each converges fast on its side).
fn gamma_q(a: f64, x: f64) -> f64 {
    let front = exp(-x + a * ln(x) - libm::lgamma(a));
    if x < a + 1.0 {
        // P(a, x) = e^{−x} x^a / Γ(a) · Σ xⁿ / (a (a+1) … (a+n)).
        let (mut ap, mut del) = (a, 1.0 / a);
        let mut sum = del;
        for _ in 0..max_terms(a) {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * EPS {
                break;
            }
        }
        (1.0 - sum * front).clamp(0.0, 1.0)
    } else {
        // Q(a, x) by its continued fraction, evaluated by the modified Lentz method.
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / TINY;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..=max_terms(a) {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < TINY {
                d = TINY;
            }
            c = b + an / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < EPS {
                break;
            }
        }
        (front * h).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 + 1e-9 * b.abs()
    }

    #[test]
    fn chi_square_tails_agree_with_statrs() {
        for df in [1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 119.0, 613.0, 2000.0] {
            let d = ChiSquared::new(df).unwrap();
            for x in [
                0.01, 0.5, 1.0, 2.0, 3.84, 6.63, 10.0, 50.0, 100.0, 141.2, 681.0, 2100.0,
            ] {
                let (ours, theirs) = (chi_square_sf(x, df), d.sf(x));
                assert!(close(ours, theirs), "df {df} x {x}: {ours} vs {theirs}");
            }
        }
        // 20/3 on 1 df: erfc(√(10/3)) = 0.009823 (a textbook value).
        assert!((chi_square_sf(20.0 / 3.0, 1.0) - 0.009823).abs() < 1e-6);
        assert_eq!(chi_square_sf(0.0, 3.0), 1.0);
        assert_eq!(chi_square_sf(f64::INFINITY, 3.0), 0.0);
        // Very many degrees of freedom: the tail at the mean is near one half.
        for df in [1e6, 1e8, 1e9] {
            let d = ChiSquared::new(df).unwrap();
            let (ours, theirs) = (chi_square_sf(df, df), d.sf(df));
            assert!((ours - theirs).abs() < 1e-6, "df {df}: {ours} vs {theirs}");
        }
        assert!(chi_square_sf(1.0, 0.0).is_nan());
    }

    #[test]
    fn normal_tails_agree_with_statrs() {
        let n = Normal::standard();
        for z in [-8.0, -3.0, -1.96, -0.5, 0.0, 0.3, 1.0, 1.96, 2.58, 5.0, 8.0] {
            assert!(close(normal_sf(z), n.sf(z)), "{z}");
            assert!(close(normal_cdf(z), n.cdf(z)), "{z}");
        }
    }

    #[test]
    fn logs_and_exponentials_are_the_usual_ones() {
        assert!(close(ln(10.0), std::f64::consts::LN_10));
        assert!(close(exp(1.0), std::f64::consts::E));
        assert!(close(ln_1p(1e-10), 1e-10));
        assert_eq!(sq(-3.0), 9.0);
    }
}
