"""Statistics over replicates: mean intervals, Wilson intervals, paired comparisons, tidy grids.

Every study summarises its replicates (simulated data sets or collections) with the
functions of this module, so the intervals, the tie rule and the table layout are the
same in every notebook:

- :func:`mean_interval`: mean, standard deviation and the t confidence interval of the
  mean (scipy's ``t.interval`` and ``sem``), along one axis of an array;
- :func:`wilson_interval`: the Wilson score interval of a binomial proportion (scipy's
  ``binomtest(k, n).proportion_ci(method="wilson")``);
- :func:`paired_comparison`: two systems on the same replicates: the mean gap with its
  interval, how often the better one scores strictly higher (Wilson interval), ties and
  losses, the standardized gap;
- :func:`standardized_gap_se`: the standard error of a standardized gap mean/sd (delta method);
- :func:`bootstrap_interval`: a percentile bootstrap interval of any statistic of paired
  samples (scipy's ``bootstrap``), e.g. of the ratio of two standardized gaps;
- :func:`family_confidence`: the per-cell confidence that makes a family of intervals hold
  simultaneously (Bonferroni);
- :func:`grid_table`: arrays indexed by labelled axes as one tidy :class:`pandas.DataFrame`.

Tolerances live here too, fixed before looking at any result: :data:`TIE_TOLERANCE` is the one
definition of "equal nDCG", :data:`AGREEMENT_Z` the one definition of "theory and simulation agree".
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ..core.validation import check_integer

__all__ = ["TIE_TOLERANCE", "CONFIDENCE", "AGREEMENT_Z", "mean_interval", "wilson_interval", "paired_comparison",
           "standardized_gap_se", "bootstrap_interval", "family_confidence", "grid_table"]

#: Two nDCG values closer than this (absolute; nDCG is in [0, 1]) are equal: a tie. Differences
#: below it are floating-point rounding (the last bits of a sum), never a measured effect.
TIE_TOLERANCE = 1e-12
#: Confidence level of every interval of the studies.
CONFIDENCE = 0.95
#: A prediction agrees with a simulated mean when it lies within this many standard errors of it
#: (two-sided 99.7% for a normal mean; with 120 cells about 0.3 would exceed it by chance).
AGREEMENT_Z = 3.0


def _check_confidence(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return float(confidence)


def mean_interval(values: Any, *, axis: int = 0, confidence: float = CONFIDENCE) -> dict[str, np.ndarray]:
    """Mean, standard deviation (ddof 1) and t confidence interval of the mean along ``axis``.

    The interval is ``mean ± q * sem`` with ``q`` from ``scipy.stats.t.interval`` (``m - 1``
    degrees of freedom for ``m`` values) and ``sem`` from ``scipy.stats.sem``. With one value
    sd and the interval are NaN; with equal values the interval is the mean itself.

    Parameters
    ----------
    values : array-like
        Replicates along ``axis``.
    axis : int, default 0
    confidence : float, default 0.95

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean``, ``sd``, ``ci_low``, ``ci_high``, each with ``axis`` removed.

    Examples
    --------
    >>> out = mean_interval([0.9, 0.8, 0.7, 0.6, 0.5])
    >>> round(float(out["mean"]), 4), round(float(out["ci_high"] - out["mean"]), 4)   # t(0.975, 4) * 0.158 / sqrt(5)
    (0.7, 0.1963)
    """
    array = np.asarray(values, dtype=np.float64)
    confidence = _check_confidence(confidence)
    count = array.shape[axis]
    if count == 0:
        raise ValueError("values must hold at least one replicate")
    mean = array.mean(axis=axis)
    if count < 2:
        nan = np.full(mean.shape, np.nan)
        return {"mean": mean, "sd": nan, "ci_low": nan, "ci_high": nan.copy()}
    sd = array.std(axis=axis, ddof=1)
    half = stats.t.interval(confidence, count - 1)[1] * stats.sem(array, axis=axis)
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
    trials = check_integer(trials, "trials")
    successes = check_integer(successes, "successes", minimum=0)
    if successes > trials:
        raise ValueError(f"successes must be <= trials, got {successes} of {trials}")
    ci = stats.binomtest(successes, trials).proportion_ci(_check_confidence(confidence), method="wilson")
    return float(ci.low), float(ci.high)


def paired_comparison(better: Any, worse: Any, *, axis: int = 0, tie_tolerance: float = TIE_TOLERANCE,
                      confidence: float = CONFIDENCE) -> dict[str, np.ndarray]:
    """Compare two systems scored on the same replicates (paired), along ``axis``.

    The gap is ``better - worse`` per replicate; a gap within ``tie_tolerance`` of 0 is a
    tie and counts as exactly 0 in every statistic, so rounding noise never shows up as a
    gap or as a spread.

    Returns
    -------
    dict of str to numpy.ndarray
        ``mean_gap``, ``sd_gap``, ``gap_ci_low``, ``gap_ci_high`` (t interval);
        ``p_better`` (share of replicates where better scores strictly higher) with its
        Wilson interval ``p_better_low``, ``p_better_high``; ``p_tie``; ``p_worse``;
        ``std_gap`` = mean_gap / sd_gap, NaN (undefined) when every gap is 0 or there is
        one replicate, and its standard error ``std_gap_se`` (:func:`standardized_gap_se`).

    Examples
    --------
    >>> out = paired_comparison([0.9, 0.8, 0.7, 0.6, 0.5], [0.8, 0.8, 0.8, 0.5, 0.4])
    >>> [round(float(out[k]), 3) for k in ("mean_gap", "p_better", "p_tie", "p_worse")]
    [0.04, 0.6, 0.2, 0.2]
    >>> float(paired_comparison([1.0, 1.0], [1.0 - 1e-16, 1.0])["std_gap"])   # a rounding gap is a tie
    nan
    """
    better, worse = np.asarray(better, dtype=np.float64), np.asarray(worse, dtype=np.float64)
    if better.shape != worse.shape:
        raise ValueError(f"better and worse must have the same shape, got {better.shape} and {worse.shape}")
    gap = better - worse
    gap[np.abs(gap) <= tie_tolerance] = 0.0
    gaps = mean_interval(gap, axis=axis, confidence=confidence)
    count = gap.shape[axis]
    wins = np.count_nonzero(gap > 0, axis=axis)
    losses = np.count_nonzero(gap < 0, axis=axis)
    low, high = np.empty(wins.shape), np.empty(wins.shape)
    for index in np.ndindex(wins.shape):  # loop over table cells: scipy's interval is scalar
        low[index], high[index] = wilson_interval(int(wins[index]), count, confidence=confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        std_gap = np.where(gaps["sd"] > 0, gaps["mean"] / gaps["sd"], np.nan)
    std_gap_se = standardized_gap_se(gap, axis=axis) if count > 1 else np.full(std_gap.shape, np.nan)
    return {
        "mean_gap": gaps["mean"], "sd_gap": gaps["sd"], "gap_ci_low": gaps["ci_low"], "gap_ci_high": gaps["ci_high"],
        "p_better": wins / count, "p_better_low": low, "p_better_high": high,
        "p_tie": (count - wins - losses) / count, "p_worse": losses / count, "std_gap": std_gap,
        "std_gap_se": std_gap_se,
    }


def standardized_gap_se(gaps: Any, *, axis: int = 0) -> np.ndarray:
    r"""Standard error of the standardized gap ``d = mean / sd`` of paired gaps, by the delta method.

    For m i.i.d. values with standardized skewness ``g1`` and kurtosis ``g2`` (not excess),

    .. math:: \operatorname{Var}(\hat d) \approx \frac{1}{m}\Big(1 - d\,g_1 + d^2\,\frac{g_2 - 1}{4}\Big)

    (for normal gaps ``(1 + d^2/2) / m``). NaN where every gap is equal (d undefined). Like
    every moment-based error, it needs enough replicates to see the rare values when the gaps
    have a few large ones (a rare loss at the top of a list).

    Parameters
    ----------
    gaps : array-like
        Paired gaps, replicates along ``axis``.
    axis : int, default 0

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> g = np.random.default_rng(0).normal(1.0, 2.0, size=100_000)   # d = 0.5: sqrt(1.125 / m)
    >>> round(float(standardized_gap_se(g)) * (100_000 ** 0.5), 2)
    1.06
    """
    x = np.moveaxis(np.asarray(gaps, dtype=np.float64), axis, 0)
    m = x.shape[0]
    if m < 2:
        raise ValueError("gaps must hold at least two replicates")
    mean = x.mean(axis=0)
    centred = x - mean
    var = (centred**2).mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        sd = np.sqrt(var)
        d = mean / np.sqrt(var * m / (m - 1))
        g1 = (centred**3).mean(axis=0) / sd**3
        g2 = (centred**4).mean(axis=0) / var**2
        out = np.sqrt(np.maximum(1 - d * g1 + d**2 * (g2 - 1) / 4, 0.0) / m)
    return np.where(var > 0, out, np.nan)


def bootstrap_interval(statistic: Any, samples: Sequence[Any], *, seed: int | np.random.SeedSequence,
                       n_resamples: int = 2000, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """A statistic of paired samples and its percentile bootstrap interval (``scipy.stats.bootstrap``).

    The replicates (the entries along axis 0 of every sample) are resampled jointly, so the
    pairing between samples is kept; ``statistic(*samples, axis=...)`` must accept an
    ``axis`` argument (vectorised).

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
    >>> value, low, high = bootstrap_interval(lambda a, b, axis: b.mean(axis) / a.mean(axis), [a, b], seed=3)
    >>> low < value < high and abs(value - 2) < 0.01
    True
    """
    n_resamples = check_integer(n_resamples, "n_resamples")
    arrays = [np.asarray(v, dtype=np.float64) for v in samples]
    value = float(statistic(*arrays, axis=0))
    result = stats.bootstrap(arrays, statistic, paired=True, vectorized=True, n_resamples=n_resamples,
                             confidence_level=_check_confidence(confidence), method="percentile",
                             random_state=np.random.default_rng(seed))
    return value, float(result.confidence_interval.low), float(result.confidence_interval.high)


def family_confidence(family_size: int, confidence: float = CONFIDENCE) -> float:
    """Per-interval confidence that makes ``family_size`` intervals hold together (Bonferroni).

    With ``1 - (1 - confidence) / family_size`` per interval, the probability that every
    interval of the family covers its parameter is at least ``confidence``, whatever their
    dependence.

    Examples
    --------
    >>> round(family_confidence(32), 6)
    0.998437
    """
    family_size = check_integer(family_size, "family_size")
    return 1 - (1 - _check_confidence(confidence)) / family_size


def grid_table(axes: Mapping[str, Sequence[Any]], columns: Mapping[str, Any]) -> pd.DataFrame:
    """One row per combination of axis labels (first axis slowest), one column per array.

    Parameters
    ----------
    axes : mapping of str to sequence
        Axis name -> labels, in the order of the arrays' dimensions.
    columns : mapping of str to array-like
        Column name -> array of shape ``(len(labels) for each axis)`` (or a scalar, repeated).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> grid_table({"ranker": ["a", "b"], "n": [10, 20]}, {"mean": [[1.0, 2.0], [3.0, 4.0]], "model": "m"})
      ranker   n  mean model
    0      a  10   1.0     m
    1      a  20   2.0     m
    2      b  10   3.0     m
    3      b  20   4.0     m
    """
    shape = tuple(len(labels) for labels in axes.values())
    rows = list(itertools.product(*axes.values()))
    table = pd.DataFrame(rows, columns=list(axes)) if rows else pd.DataFrame(columns=list(axes))
    for name, value in columns.items():
        array = np.asarray(value)
        if array.ndim == 0:
            table[name] = value
        elif array.shape != shape:
            raise ValueError(f"column {name!r} has shape {array.shape}, the axes {list(axes)} need {shape}")
        else:
            table[name] = array.reshape(-1)
    return table
