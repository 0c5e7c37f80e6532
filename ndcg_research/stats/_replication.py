"""The statistics the simulation studies share (not public API, so arguments unchecked): summaries of replicates, labels
of proportions, whether two runs of an experiment agree, random query subsets (re-exported from ``_resampling``)."""

from typing import Any

import numpy as np
from scipy import stats

from ._intervals import CONFIDENCE, _mean_interval, _wilson
from ._paired import TIE_TOLERANCE
from ._resampling import query_subsets as query_subsets  # re-exported: the studies import it from here

#: A proportion is printed as 1 (or 0) only if its Wilson lower bound is at least this (upper bound at most 1 minus
#: this); a perfect record of ``R`` trials has the lower bound ``R / (R + z^2)``, so 0.99 needs ``R >= 381`` at 95%.
CERTAIN = 0.99


def paired_comparison(
    better: Any, worse: Any, *, axis: int = 0, tie_tolerance: float = TIE_TOLERANCE, confidence: float = CONFIDENCE
) -> dict[str, np.ndarray]:
    """Two systems scored on the same replicates (along ``axis``): the gap ``better - worse`` (mean, sd, t interval),
    the shares of replicates where better wins (with its Wilson interval), ties and loses, the standardized gap
    ``mean / sd`` (NaN if undefined) and its standard error. A gap within ``tie_tolerance`` of 0 counts as exactly 0 in
    every statistic, so rounding noise never shows up as a gap or as a spread."""
    gap = np.asarray(better, dtype=np.float64) - np.asarray(worse, dtype=np.float64)
    gap[np.abs(gap) <= tie_tolerance] = 0.0
    gaps = _mean_interval(gap, axis, confidence)
    count = gap.shape[axis]
    wins = np.count_nonzero(gap > 0, axis=axis)
    losses = np.count_nonzero(gap < 0, axis=axis)
    low, high = np.vectorize(lambda w: _wilson(int(w), count, confidence), otypes=[float, float])(wins)
    with np.errstate(divide="ignore", invalid="ignore"):
        std_gap = np.where(gaps["sd"] > 0, gaps["mean"] / gaps["sd"], np.nan)
    return {
        "mean_gap": gaps["mean"],
        "sd_gap": gaps["sd"],
        "gap_ci_low": gaps["ci_low"],
        "gap_ci_high": gaps["ci_high"],
        "p_better": wins / count,
        "p_better_low": low,
        "p_better_high": high,
        "p_tie": (count - wins - losses) / count,
        "p_worse": losses / count,
        "std_gap": std_gap,
        "std_gap_se": standardized_gap_se(gap, axis=axis) if count > 1 else np.full(std_gap.shape, np.nan),
    }


def standardized_gap_se(gaps: Any, *, axis: int = 0) -> np.ndarray:
    """Standard error of the standardized gap ``d = mean / sd`` by the delta method: for m i.i.d. gaps with skewness
    ``g1`` and kurtosis ``g2`` (not excess), ``Var(d) ~ (1 - d g1 + d^2 (g2 - 1) / 4) / m`` (``(1 + d^2/2) / m`` for
    normal gaps); NaN where every gap is equal. Fewer than two replicates raise a ValueError."""
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


def proportion_label(
    successes: int, trials: int, *, digits: int = 2, interval: bool = True, confidence: float = CONFIDENCE
) -> str:
    """A proportion and its Wilson interval as text, ``"0.87 [0.79,0.92]"``. One that would read as exactly 1 (or 0)
    without its interval supporting it (``CERTAIN``) is written as the count, ``"20/20 [0.84,1.00]"``, so that a
    perfect record of a few trials never reads as a probability of 1."""
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
    """``proportion_label`` of a share of ``trials`` as the result tables store it (``p_better``); a share that is not
    a whole count of them (a mean, a share of other trials) is refused rather than rounded."""
    share = float(share)
    count = share * trials
    if abs(count - round(count)) > 1e-6:
        raise ValueError(f"share must be a share of {trials} trials (a whole count), got {share!r}")
    return proportion_label(int(round(count)), trials, digits=digits, interval=interval, confidence=confidence)


def family_confidence(family_size: int, *, confidence: float = CONFIDENCE) -> float:
    """Per-interval confidence under which ``family_size`` intervals all hold with probability ``confidence`` at least,
    whatever their dependence (Bonferroni)."""
    return 1 - (1 - confidence) / family_size


def bootstrap_statistic_interval(
    statistic: Any, samples: Any, *, seed: Any, n_resamples: int = 2000, confidence: float = CONFIDENCE
) -> tuple[float, float, float]:
    """``statistic(*samples, axis=0)`` (vectorised) and its percentile bootstrap interval (``scipy.stats.bootstrap``);
    the replicates (axis 0) of all samples are resampled jointly, so their pairing is kept."""
    samples = [np.asarray(sample, dtype=np.float64) for sample in samples]
    value = float(statistic(*samples, axis=0))
    options: dict[str, Any] = {
        "paired": True,
        "vectorized": True,
        "method": "percentile",
        "n_resamples": n_resamples,
        "confidence_level": confidence,
        "random_state": np.random.default_rng(seed),
    }
    result = stats.bootstrap(samples, statistic, **options)
    return value, float(result.confidence_interval.low), float(result.confidence_interval.high)


def _z(difference: Any, se: Any) -> Any:
    """``difference / se``; se = 0: equal values agree (z = 0), different ones are infinitely far apart (±inf). A pandas
    Series in gives a Series out, with its index."""
    d, s = np.asarray(difference, dtype=float), np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(s > 0, d / s, np.where(d == 0, 0.0, np.sign(d) * np.inf))
    if hasattr(difference, "to_numpy"):  # a pandas Series: keep its index
        return type(difference)(z, index=difference.index)
    return float(z) if z.ndim == 0 else z


def _numbers(value: Any) -> Any:
    return value if hasattr(value, "to_numpy") else np.asarray(value, dtype=np.float64)


def proportion_z(p1: Any, n1: Any, p2: Any, n2: Any) -> Any:
    """Two-proportion z statistic with the pooled standard error, element-wise: do two runs of an experiment agree
    (``|z| > 3``: beyond chance)?"""
    p1, n1, p2, n2 = (_numbers(value) for value in (p1, n1, p2, n2))
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return _z(p1 - p2, se)


def mean_z(mean1: Any, sd1: Any, n1: Any, mean2: Any, sd2: Any, n2: Any) -> Any:
    """z statistic of two independent means (Welch's), element-wise, as ``proportion_z`` for means."""
    mean1, sd1, n1, mean2, sd2, n2 = (_numbers(value) for value in (mean1, sd1, n1, mean2, sd2, n2))
    se = np.sqrt(sd1**2 / n1 + sd2**2 / n2)
    return _z(mean1 - mean2, se)
