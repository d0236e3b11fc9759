"""Statistics the bench scripts share.

The same interval as the Rust `patience_solver::stats::wilson`, for the
scripts that turn surveys and the graded library into tables.
"""
import math

# The 97.5% point of the standard normal distribution: a 95% interval.
Z95 = 1.959964


def wilson(k, n, z=Z95):
    """The Wilson score interval for `k` successes in `n` trials, as
    fractions in 0..1; (0.0, 1.0) when there are no trials.

    Unlike the normal approximation it stays inside 0..1 and is honest at
    rates near 0% and 100%, where most games' win rates lie.
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - margin), min(1.0, centre + margin))
