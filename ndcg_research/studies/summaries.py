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
- :func:`grid_table`: arrays indexed by labelled axes as one tidy :class:`pandas.DataFrame`.

Tolerances live here too: :data:`TIE_TOLERANCE` is the one definition of "equal nDCG".
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ..core.validation import check_integer

__all__ = ["TIE_TOLERANCE", "CONFIDENCE", "mean_interval", "wilson_interval", "paired_comparison", "grid_table"]

#: Two nDCG values closer than this (absolute; nDCG is in [0, 1]) are equal: a tie. Differences
#: below it are floating-point rounding (the last bits of a sum), never a measured effect.
TIE_TOLERANCE = 1e-12
#: Confidence level of every interval of the studies.
CONFIDENCE = 0.95


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
        one replicate.

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
    return {
        "mean_gap": gaps["mean"], "sd_gap": gaps["sd"], "gap_ci_low": gaps["ci_low"], "gap_ci_high": gaps["ci_high"],
        "p_better": wins / count, "p_better_low": low, "p_better_high": high,
        "p_tie": (count - wins - losses) / count, "p_worse": losses / count, "std_gap": std_gap,
    }


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
