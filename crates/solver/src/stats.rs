//! The statistics surveys, grading and the benchmarks report: a win rate's
//! confidence interval and a sample's percentiles.

/// The 95% Wilson score interval for `k` successes in `n` trials, as
/// fractions in `0.0..=1.0`; `(0.0, 1.0)` when there are no trials.
///
/// Unlike the normal approximation it stays inside `0..1` and is honest at
/// rates near 0% and 100%, where most games' win rates lie.
///
/// ```
/// let (lo, hi) = patience_solver::stats::wilson(50, 100);
/// assert!(lo < 0.5 && 0.5 < hi);
/// ```
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.959964);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

/// The `q` quantile (`0.0..=1.0`) of an ascending sample: the value at
/// index `(len − 1) · q`, rounded; the type's default (zero) for an empty
/// sample.
///
/// ```
/// use patience_solver::stats::percentile;
/// assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.5), 3.0);
/// assert_eq!(percentile::<f64>(&[], 0.95), 0.0);
/// ```
pub fn percentile<T: Copy + Default>(sorted: &[T], q: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published values of the 95% Wilson interval (Newcombe 1998, table I):
    /// 81 of 263 gives 0.2553..0.3662; 15 of 148 gives 0.0624..0.1605.
    #[test]
    fn wilson_matches_published_intervals() {
        let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
        let (lo, hi) = wilson(81, 263);
        assert!(close(lo, 0.2553) && close(hi, 0.3662), "{lo} {hi}");
        let (lo, hi) = wilson(15, 148);
        assert!(close(lo, 0.0624) && close(hi, 0.1605), "{lo} {hi}");
    }

    #[test]
    fn wilson_stays_in_bounds_at_the_extremes() {
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(0, 50);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.1);
        let (lo, hi) = wilson(50, 50);
        assert!(hi > 1.0 - 1e-9 && hi <= 1.0);
        assert!(lo > 0.9 && lo < 1.0);
    }

    #[test]
    fn percentiles_pick_the_rounded_rank() {
        let v: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&v, 0.0), 1);
        assert_eq!(percentile(&v, 0.5), 51); // index 49.5 rounds to 50
        assert_eq!(percentile(&v, 0.95), 95); // index 94.05
        assert_eq!(percentile(&v, 1.0), 100);
    }
}
