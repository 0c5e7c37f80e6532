"""Confidence intervals and confidence levels: t, Wilson, bootstrap; the package's one confidence level."""

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import special, stats

from .._validation import (
    check_array,
    check_bool,
    check_callable,
    check_int,
    check_real,
    check_resamples,
    type_and_value,
)
from ._inputs import check_count, check_level, check_seed

#: Significance level of every test: a p-value below it is significant.
ALPHA = 0.05
#: Confidence level of every interval: 1 - ALPHA (exactly 0.95 in floating point).
CONFIDENCE = 1 - ALPHA
#: A proportion is printed as 1 (or 0) only if its Wilson lower bound is at least this (upper bound at most 1 minus
#: this); a perfect record of ``R`` trials has the lower bound ``R / (R + z^2)``, so 0.99 needs ``R >= 381`` at 95%.
CERTAIN = 0.99
#: The interval kinds of a mean over queries: Student's t, bootstrap percentile, bootstrap BCa.
INTERVALS: tuple[str, ...] = ("t", "percentile", "bca")


def check_interval_resamples(n_resamples: int, confidence: float, interval: str) -> None:
    """Refuse too few resamples for a bootstrap interval: each tail, a share ``(1 - confidence) / 2`` of the
    resamples, needs one at least, so ``n_resamples >= 2 / (1 - confidence)`` (40 at 95%)."""
    needed = math.ceil(2 / (1 - confidence) - 1e-9)  # - 1e-9: 2 / (1 - 0.9) is 20.000000000000004
    if interval in ("percentile", "bca") and n_resamples < needed:
        raise ValueError(
            f"n_resamples must be at least {needed} for a {confidence:.0%} {interval} bootstrap "
            f"interval (each tail holds {(1 - confidence) / 2:g} of the resamples), got {n_resamples}"
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
    >>> out = mean_interval([0.9, 0.8, 0.7, 0.6, 0.5])
    >>> round(float(out["mean"]), 4), round(float(out["ci_high"] - out["mean"]), 4)   # t(0.975, 4) * 0.158 / sqrt(5)
    (0.7, 0.1963)
    """
    axis, confidence = check_int(axis, "axis"), check_level(confidence, "confidence")
    out = _mean_interval(check_array(values, "values"), axis, confidence)
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
    >>> [round(x, 4) for x in wilson_interval(10, 10)]
    [0.7225, 1.0]
    """
    successes, trials = check_int(successes, "successes", low=0), check_count(trials, "trials")
    return _wilson(successes, trials, check_level(confidence, "confidence"))


def _wilson(successes: int, trials: int, confidence: float) -> tuple[float, float]:
    if successes > trials:  # checked last by the public functions, after every argument's own check
        raise ValueError(f"successes must be <= trials, got {successes} of {trials}")
    ci = stats.binomtest(successes, trials).proportion_ci(confidence, method="wilson")
    return float(ci.low), float(ci.high)


def proportion_label(
    successes: int, trials: int, *, digits: int = 2, interval: bool = True, confidence: float = CONFIDENCE
) -> str:
    """A proportion and its Wilson interval as text, e.g. ``"0.87 [0.79,0.92]"``.

    A proportion whose rounded value reads as exactly 1 (or 0) is written that way only when its Wilson interval
    supports it, i.e. the lower bound is at least ``CERTAIN`` (the upper bound at most ``1 - CERTAIN``); otherwise it is
    written as the count, ``"20/20 [0.84,1.00]"``, so that a perfect record of a few trials never reads as a probability
    of 1.

    Parameters
    ----------
    successes, trials : int
        Counts, ``0 <= successes <= trials``, ``trials >= 1``.
    digits : int, default 2
        Decimals of the proportion and of the interval's bounds.
    interval : bool, default True
        Append the interval; without it only the proportion (or the count) is written.
    confidence : float, default 0.95
        Level of the Wilson interval.

    Returns
    -------
    str

    Examples
    --------
    >>> proportion_label(87, 100)
    '0.87 [0.79,0.92]'
    >>> proportion_label(20, 20)
    '20/20 [0.84,1.00]'
    >>> proportion_label(400, 400)
    '1.00 [0.99,1.00]'
    >>> proportion_label(0, 1000, digits=3)
    '0.000 [0.000,0.004]'
    >>> proportion_label(50, 50, interval=False)
    '50/50'
    """
    successes, trials = check_int(successes, "successes", low=0), check_count(trials, "trials")
    return _proportion_label(successes, trials, *_label_options(digits, interval, confidence))


def _proportion_label(successes: int, trials: int, digits: int, interval: bool, confidence: float) -> str:
    low, high = _wilson(successes, trials, confidence)
    text = f"{successes / trials:.{digits}f}"
    looks_certain = float(text) == 1.0 and low < CERTAIN
    looks_impossible = float(text) == 0.0 and high > 1 - CERTAIN
    if looks_certain or looks_impossible:
        text = f"{successes}/{trials}"
    return f"{text} [{low:.{digits}f},{high:.{digits}f}]" if interval else text


def share_label(
    share: float, trials: int, *, digits: int = 2, interval: bool = True, confidence: float = CONFIDENCE
) -> str:
    """``proportion_label`` of a share of ``trials`` (as the result tables store it, e.g. ``p_better``).

    The count is recovered as ``share * trials``, which must be a whole number: a share that is not one (a mean, a share
    of other trials) is refused rather than rounded.

    Parameters
    ----------
    share : float
        A share of ``trials``, in [0, 1].
    trials : int
        Number of trials, at least 1.
    digits, interval, confidence
        As in ``proportion_label``.

    Returns
    -------
    str

    Examples
    --------
    >>> share_label(1.0, 20)
    '20/20 [0.84,1.00]'
    >>> share_label(0.87, 100, interval=False)
    '0.87'
    """
    share, trials = check_real(share, "share", low=0, high=1), check_count(trials, "trials")
    options = _label_options(digits, interval, confidence)
    count = share * trials
    if abs(count - round(count)) > 1e-6:
        raise ValueError(f"share must be a share of {trials} trials (a whole count), got {share!r}")
    return _proportion_label(int(round(count)), trials, *options)


def _label_options(digits: Any, interval: Any, confidence: Any) -> tuple[int, bool, float]:
    return check_int(digits, "digits", low=0), check_bool(interval, "interval"), check_level(confidence, "confidence")


def family_confidence(family_size: int, *, confidence: float = CONFIDENCE) -> float:
    """Per-interval confidence that makes ``family_size`` intervals hold together (Bonferroni).

    With ``1 - (1 - confidence) / family_size`` per interval, the probability that every interval of the family covers
    its parameter is at least ``confidence``, whatever their dependence.

    Parameters
    ----------
    family_size : int
        Number of intervals, at least 1.
    confidence : float, default 0.95
        Level of the whole family.

    Returns
    -------
    float

    Examples
    --------
    >>> round(family_confidence(32), 6)
    0.998437
    """
    family_size, confidence = check_count(family_size, "family_size"), check_level(confidence, "confidence")
    return 1 - (1 - confidence) / family_size


def bootstrap_statistic_interval(
    statistic: Any,
    samples: Sequence[Any],
    *,
    seed: int | np.random.SeedSequence,
    n_resamples: int = 2000,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float]:
    """A statistic of paired samples and its percentile bootstrap interval (``scipy.stats.bootstrap``).

    The replicates (the entries along axis 0 of every sample) are resampled jointly, so the pairing between samples is
    kept; ``statistic(*samples, axis=...)`` must accept an ``axis`` argument (vectorised).

    Parameters
    ----------
    statistic : callable
    samples : sequence of array-like
        Same length each.
    seed : int or numpy.random.SeedSequence
        Seed of the resampling.
    n_resamples : int, default 2000
    confidence : float, default 0.95

    Returns
    -------
    tuple of float
        (statistic of the samples, low, high).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> a = rng.normal(2.0, 1.0, 400); b = 2 * a + rng.normal(0, 0.1, 400)
    >>> value, low, high = bootstrap_statistic_interval(lambda a, b, axis: b.mean(axis) / a.mean(axis), [a, b], seed=3)
    >>> low < value < high and abs(value - 2) < 0.01
    True
    """
    statistic = check_callable(statistic, "statistic")
    if not isinstance(seed, np.random.SeedSequence):
        seed = check_seed(seed)
    n_resamples, confidence = check_resamples(n_resamples), check_level(confidence, "confidence")
    if not isinstance(samples, (list, tuple)) or not samples:
        raise TypeError(f"samples must be a non-empty sequence of arrays, got {type_and_value(samples)}")
    samples = [check_array(sample, f"samples[{i}]", ndim=(1, 2, 3)) for i, sample in enumerate(samples)]
    value = float(statistic(*samples, axis=0))
    rng = np.random.default_rng(seed)
    options: dict[str, Any] = dict(paired=True, vectorized=True, method="percentile", random_state=rng)
    result = stats.bootstrap(samples, statistic, n_resamples=n_resamples, confidence_level=confidence, **options)
    return value, float(result.confidence_interval.low), float(result.confidence_interval.high)


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
    half, the jackknife acceleration of a mean in closed form; a row of equal values gets ``(mean, mean)``."""
    alpha = (1.0 - confidence) / 2.0
    ordered = np.sort(resampled_means, axis=1)
    mean = values.mean(axis=1)
    constant = np.all(values == values[:, :1], axis=1)
    q_low, q_high = np.asarray(alpha), np.asarray(1.0 - alpha)
    if interval == "bca":
        column = mean[:, None]
        below = np.count_nonzero(resampled_means < column, axis=1) + np.count_nonzero(resampled_means <= column, axis=1)
        z0 = special.ndtri(below / (2.0 * resampled_means.shape[1]))
        centred = values - column
        z_alpha = float(special.ndtri(alpha))
        with np.errstate(divide="ignore", invalid="ignore"):
            accel = (centred**3).sum(axis=1) / (6.0 * ((centred**2).sum(axis=1)) ** 1.5)
            q_low, q_high = (special.ndtr(z0 + z / (1.0 - accel * z)) for z in (z0 + z_alpha, z0 - z_alpha))
        q_low, q_high = np.where(constant, 0.5, q_low), np.where(constant, 0.5, q_high)  # any level: replaced below
    low, high = row_quantiles(ordered, q_low), row_quantiles(ordered, q_high)
    return np.where(constant, mean, low), np.where(constant, mean, high)
