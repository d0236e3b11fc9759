//! Win rates measured over samples of deals or games, and how sure they are.
//!
//! One helper for every figure the project publishes (`patience survey`,
//! `patience grade`, the rules pages' "how often is it won"), so the same
//! counts always give the same interval.

/// The 95% Wilson score interval for `k` successes in `n` trials, as
/// fractions in `0.0..=1.0`. Unlike the normal approximation it stays inside
/// the bounds and is honest for rates near 0 or 1 and for small `n`. With no
/// trials nothing is known: `(0.0, 1.0)`.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959964_f64;
    let (n, p) = (n as f64, k as f64 / n as f64);
    let centre = p + z * z / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (
        ((centre - margin) / denom).max(0.0),
        ((centre + margin) / denom).min(1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_contains_the_rate_and_stays_in_bounds() {
        // 10 of 100: the published interval is 5.52%..17.44%.
        let (lo, hi) = wilson(10, 100);
        assert!(
            (lo - 0.0552).abs() < 0.001 && (hi - 0.1744).abs() < 0.001,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(0, 50);
        assert!(lo == 0.0 && hi > 0.0 && hi < 0.1, "{lo} {hi}");
        let (lo, hi) = wilson(50, 50);
        assert!(lo > 0.9 && hi > 0.9999 && hi <= 1.0, "{lo} {hi}");
    }
}
