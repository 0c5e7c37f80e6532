"""Confidence intervals and confidence levels: t, Wilson, bootstrap of means; the package's one confidence level."""

import math
from typing import Any

import numpy as np
from scipy import special, stats

from .._validation import check_array, check_int
from ._inputs import check_level
from ._resampling import mean_rounding, rounding_residues

#: Significance level of every test: a p-value below it is significant.
ALPHA = 0.05
#: Confidence level of every interval: 1 - ALPHA (exactly 0.95 in floating point).
CONFIDENCE = 1 - ALPHA
#: The interval kinds of a mean over queries: Student's t, bootstrap percentile, bootstrap BCa.
INTERVALS: tuple[str, ...] = ("t", "percentile", "bca")


def check_resample_count(
    n_resamples: int,
    confidence: float,
    interval: str,
    test: str | None = None,
    name: str = "n_resamples",
    alpha: float | None = None,
) -> None:
    """Refuse too few resamples: for a bootstrap interval each tail, a share ``(1 - confidence) / 2`` of the
    resamples, needs one at least, so ``n_resamples >= 2 / (1 - confidence)`` (40 at 95%); the bootstrap test's
    p-value ``count / B`` is 0 when no resample reaches the statistic, which says "below alpha" only from
    ``B >= 1 / alpha`` on (20 at 0.05; ``alpha``: the caller's, else ``1 - confidence``); ``name``: the argument's."""
    needed = math.ceil(2 / (1 - confidence) - 1e-9)  # - 1e-9: 2 / (1 - 0.9) is 20.000000000000004
    if interval in ("percentile", "bca") and n_resamples < needed:
        raise ValueError(
            f"{name} must be at least {needed} for a {confidence:.0%} {interval} bootstrap "
            f"interval (each tail holds {(1 - confidence) / 2:g} of the resamples), got {n_resamples}"
        )
    level = f"alpha {alpha:.2g}" if alpha is not None else f"alpha {1 - confidence:.2g} (1 - confidence)"
    needed = math.ceil(1 / (1 - confidence if alpha is None else alpha) - 1e-9)
    if test == "bootstrap" and n_resamples < needed:
        raise ValueError(
            f"{name} must be at least {needed} for the bootstrap test at {level}: its p-value, the "
            f"share of resamples reaching the statistic, is 0 when none does, which with fewer says nothing, got "
            f"{n_resamples}"
        )


def mean_interval(values: Any, *, axis: int = 0, confidence: float = CONFIDENCE) -> dict[str, np.ndarray]:
    """Mean, standard deviation (ddof 1) and t confidence interval of the mean along ``axis``.

    The interval is ``mean ± q * sem`` with ``q`` from ``scipy.stats.t.interval`` (``m - 1`` degrees of freedom for
    ``m`` values) and ``sem`` from ``scipy.stats.sem``. With one value sd and the interval are NaN; with equal values
    the interval is the mean itself.

    Parameters
    ----------
    values : array-like
        Replicates along ``axis``.
    axis : int, default 0
    confidence : float, default 0.95

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean``, ``sd``, ``ci_low``, ``ci_high``, each a float64 array with ``axis`` removed (0-d for 1-D ``values``),
        whatever the number of values.

    Examples
    --------
    >>> from ndcg_research.stats import mean_interval
    >>> out = mean_interval([0.9, 0.8, 0.7, 0.6, 0.5])
    >>> round(float(out["mean"]), 4), round(float(out["ci_high"] - out["mean"]), 4)   # t(0.975, 4) * 0.158 / sqrt(5)
    (0.7, 0.1963)
    """
    values = check_array(values, "values")
    axis = check_int(axis, "axis", low=-max(values.ndim, 1), high=max(values.ndim, 1) - 1)
    out = _mean_interval(values, axis, check_level(confidence, "confidence"))
    return {key: np.asarray(value, dtype=np.float64) for key, value in out.items()}


def _mean_interval(values: np.ndarray, axis: int, confidence: float) -> dict[str, np.ndarray]:
    count = values.shape[axis] if values.ndim else 0
    if count == 0:
        raise ValueError(f"values must hold at least one replicate along axis {axis}, got shape {values.shape}")
    mean = values.mean(axis=axis)
    if count < 2:
        nan = np.full(mean.shape, np.nan)
        return {"mean": mean, "sd": nan, "ci_low": nan, "ci_high": nan.copy()}
    sd = values.std(axis=axis, ddof=1)
    half = stats.t.interval(confidence, count - 1)[1] * stats.sem(values, axis=axis)
    return {"mean": mean, "sd": sd, "ci_low": mean - half, "ci_high": mean + half}


def wilson_interval(successes: int, trials: int, *, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion, from ``scipy.stats.binomtest``.

    Parameters
    ----------
    successes, trials : int
        Counts, ``0 <= successes <= trials``, ``trials >= 1``.
    confidence : float, default 0.95

    Returns
    -------
    tuple of float
        (low, high).

    Examples
    --------
    >>> from ndcg_research.stats import wilson_interval
    >>> [round(x, 4) for x in wilson_interval(10, 10)]
    [0.7225, 1.0]
    """
    # int64's range: scipy's binomtest computes in it
    successes, trials = (
        check_int(successes, "successes", low=0, high=2**63 - 1),
        check_int(trials, "trials", low=1, high=2**63 - 1),
    )
    return _wilson(successes, trials, check_level(confidence, "confidence"))


def _wilson(successes: int, trials: int, confidence: float) -> tuple[float, float]:
    if successes > trials:  # checked last by the public functions, after every argument's own check
        raise ValueError(f"successes must be <= trials, got {successes} of {trials}")
    ci = stats.binomtest(successes, trials).proportion_ci(confidence, method="wilson")
    return float(ci.low), float(ci.high)


def row_quantiles(sorted_values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Quantile ``q[i]`` of row ``i`` of row-sorted ``sorted_values``: numpy's ``"linear"`` method, a level per row."""
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
    resampled_means: np.ndarray, values: np.ndarray, *, confidence: float = CONFIDENCE, interval: str = "percentile"
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile or BCa interval (low, high) of the mean of each row of ``values`` (rows x queries) from its
    ``resampled_means`` (rows x B), as ``scipy.stats.bootstrap`` (Efron & Tibshirani 1993, ch. 14): ``z0`` counts ties
    half (a resampled mean within its rounding, ``mean_rounding``, of the observed one is a tie), the jackknife
    acceleration of a mean in closed form; a row of values that are the same up to rounding (``rounding_residues``)
    gets ``(mean, mean)``."""
    alpha = (1.0 - confidence) / 2.0
    ordered = np.sort(resampled_means, axis=1)
    mean = values.mean(axis=1)
    constant = rounding_residues(values, mean)[1]
    q_low, q_high = np.asarray(alpha), np.asarray(1.0 - alpha)
    if interval == "bca":
        column, tie = mean[:, None], mean_rounding(values)[:, None]
        below = np.count_nonzero(resampled_means < column - tie, axis=1)
        below += np.count_nonzero(resampled_means <= column + tie, axis=1)
        z0 = special.ndtri(below / (2.0 * resampled_means.shape[1]))
        centred = values - column
        z_alpha = float(special.ndtri(alpha))
        with np.errstate(divide="ignore", invalid="ignore"):
            accel = (centred**3).sum(axis=1) / (6.0 * ((centred**2).sum(axis=1)) ** 1.5)
            q_low, q_high = (special.ndtr(z0 + z / (1.0 - accel * z)) for z in (z0 + z_alpha, z0 - z_alpha))
        q_low, q_high = np.where(constant, 0.5, q_low), np.where(constant, 0.5, q_high)  # any level: replaced below
    low, high = row_quantiles(ordered, q_low), row_quantiles(ordered, q_high)
    return np.where(constant, mean, low), np.where(constant, mean, high)
