r"""Bootstrap confidence intervals of a mean over queries: percentile and BCa.

Every function works on many rows at once (one row per system, or per pair's differences).
Student's t interval is the studies' :func:`ndcg_research.studies.summaries.mean_interval`
(scipy's ``t.interval`` and ``sem``), the one implementation of it in the package.

- :func:`bootstrap_interval`: from the resampled means of each row (``rows x B``), the
  percentile interval or the BCa interval (Efron & Tibshirani 1993, ch. 14), computed as
  :func:`scipy.stats.bootstrap` computes them: ``z0 = ndtri(share of resampled means below
  the mean, ties counted half)``; acceleration from the jackknife, which for a mean is
  closed form, :math:`a = \sum_q (x_q - \bar x)^3 / (6 (\sum_q (x_q - \bar x)^2)^{3/2})`;
  quantiles by linear interpolation (numpy's default). On the same resamples the intervals
  equal scipy's (``tests/test_stats_paired.py``).

A row whose values are all equal has the degenerate interval ``(mean, mean)``.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["INTERVALS", "bootstrap_interval", "row_quantiles"]

#: The interval kinds: Student's t, bootstrap percentile, bootstrap BCa.
INTERVALS: tuple[str, ...] = ("t", "percentile", "bca")


def row_quantiles(sorted_values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Linear-interpolation quantile ``q[i]`` of row ``i`` of row-sorted ``sorted_values`` (rows x B).

    numpy's default method (``"linear"``), but with a level per row.

    Examples
    --------
    >>> s = np.array([[0.0, 1.0, 2.0], [10.0, 20.0, 30.0]])
    >>> row_quantiles(s, np.array([0.5, 0.25])).tolist()
    [1.0, 15.0]
    """
    b = sorted_values.shape[1]
    q = np.broadcast_to(np.asarray(q, dtype=np.float64), (sorted_values.shape[0],))
    position = q * (b - 1)
    low = np.clip(np.floor(position).astype(np.int64), 0, b - 1)
    high = np.minimum(low + 1, b - 1)
    frac = position - low
    a = np.take_along_axis(sorted_values, low[:, None], axis=1)[:, 0]
    c = np.take_along_axis(sorted_values, high[:, None], axis=1)[:, 0]
    diff = c - a
    # numpy's _lerp: from the nearer end, so that frac = 1 gives exactly c
    return np.where(frac >= 0.5, c - diff * (1.0 - frac), a + diff * frac)


def bootstrap_interval(
    resampled_means: np.ndarray, values: np.ndarray, confidence: float, kind: str = "percentile"
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile or BCa bootstrap interval of the mean of each row of ``values``.

    Parameters
    ----------
    resampled_means : numpy.ndarray
        ``rows x B``: the mean of each row under each bootstrap resample.
    values : numpy.ndarray
        ``rows x queries``: the data (for the observed mean and the BCa acceleration).
    confidence : float
        Confidence level, e.g. 0.95 (two-sided).
    kind : {"percentile", "bca"}

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Lower and upper limits, one per row.

    Examples
    --------
    >>> means = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]])
    >>> low, high = bootstrap_interval(means, np.array([[2.0, 4.0]]), 0.5, "percentile")
    >>> float(low[0]), float(high[0])     # quantiles 0.25 and 0.75 of 1..5
    (2.0, 4.0)
    """
    if kind not in ("percentile", "bca"):
        raise ValueError(f"kind must be 'percentile' or 'bca', got {kind!r}")
    b = resampled_means.shape[1]
    alpha = (1.0 - confidence) / 2.0
    ordered = np.sort(resampled_means, axis=1)
    mean = values.mean(axis=1)
    constant = np.all(values == values[:, :1], axis=1)
    if kind == "percentile":
        q_low = np.full(values.shape[0], alpha)
        q_high = np.full(values.shape[0], 1.0 - alpha)
    else:
        column = mean[:, None]
        below = np.count_nonzero(resampled_means < column, axis=1) + np.count_nonzero(resampled_means <= column, axis=1)
        z0 = special.ndtri(below / (2.0 * b))
        centred = values - mean[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            accel = (centred**3).sum(axis=1) / (6.0 * ((centred**2).sum(axis=1)) ** 1.5)
            z_alpha = float(special.ndtri(alpha))
            num_low = z0 + z_alpha
            num_high = z0 - z_alpha
            q_low = special.ndtr(z0 + num_low / (1.0 - accel * num_low))
            q_high = special.ndtr(z0 + num_high / (1.0 - accel * num_high))
        q_low = np.where(constant, 0.5, q_low)
        q_high = np.where(constant, 0.5, q_high)
    low = row_quantiles(ordered, q_low)
    high = row_quantiles(ordered, q_high)
    return np.where(constant, mean, low), np.where(constant, mean, high)
