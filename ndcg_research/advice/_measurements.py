"""The measurements of :func:`~ndcg_research.advice.advise` on one candidate's systems x queries values. Every
candidate's draws use the same seed (common random numbers): a difference between candidates is not one of draws."""

from __future__ import annotations

import math

import numpy as np

from ..stats import TIE_TOLERANCE, discriminative_power, kendall_tau, swap_rates, variance_components

#: Query subsets per size of the swap curve: ``SWAP_POINTS`` sizes evenly spaced up to half the queries.
SWAP_POINTS = 8
#: The dependability a collection should reach (a usual standard of generalizability theory).
PHI_TARGET = 0.8


def power(matrix: np.ndarray, *, alpha: float, n_resamples: int, seed: int) -> tuple[float, int, np.ndarray]:
    """Share and count of system pairs significantly different at ``alpha`` by the randomised Tukey HSD test
    (Carterette 2012; family-wise over all pairs), and the pairs' p-values."""
    result = discriminative_power(matrix, test="tukey", alpha=alpha, n_resamples=n_resamples, seed=seed)
    significant = int(np.count_nonzero(result.significant))
    return significant / result.pvalues.size, significant, result.pvalues


def dependability(matrix: np.ndarray) -> tuple[float, float, float]:
    """``(phi, erho2, queries_for_phi)`` of generalizability theory (Brennan 2001; Kanoulas & Aslam 2009) over the
    matrix's queries; queries_for_phi is the D-study's count for :data:`PHI_TARGET` (infinite when the systems' own
    variance is 0). NaN for 0 / 0."""
    parts = variance_components(matrix)
    n = matrix.shape[1]
    error = parts.topic + parts.interaction
    if parts.system + error == 0:
        return math.nan, math.nan, math.nan
    phi = parts.system / (parts.system + error / n)
    erho2 = parts.system / (parts.system + parts.interaction / n) if parts.system + parts.interaction > 0 else math.nan
    needed = PHI_TARGET / (1 - PHI_TARGET) * error / parts.system if parts.system > 0 else math.inf
    return float(phi), float(erho2), float(needed)


def swap_sizes(n_queries: int) -> np.ndarray:
    """Query-subset sizes of the swap curve: :data:`SWAP_POINTS` sizes evenly spaced up to ``n_queries // 2``."""
    half = max(n_queries // 2, 1)
    return np.unique(np.round(np.linspace(half / SWAP_POINTS, half, SWAP_POINTS)).astype(int).clip(1, half))


def swap_curve(matrix: np.ndarray, sizes: np.ndarray, *, trials: int, seed: int) -> np.ndarray:
    """Swap rate (Voorhees & Buckley 2002) of all pairs of systems between two disjoint query subsets of each size."""
    table = swap_rates(matrix, sizes.tolist(), trials=trials, seed=seed)
    return table["swap_rate"].to_numpy(dtype=np.float64)


def queries_for_swap_rate(sizes: np.ndarray, rates: np.ndarray, target: float) -> tuple[float, float, float]:
    """``(queries, A, b)``: the queries for a swap rate of ``target`` by the fit rate(c) = A exp(-b c) (Voorhees &
    Buckley 2002) of ln rate on the sizes with a positive rate, at least the smallest size measured (a fit that crosses
    before it says only that the count is at most that size, not that no query is needed). Without a falling fit
    (fewer than two positive rates: ``A``, ``b`` NaN; or ``b <= 0``), the smallest size measured at or below the
    target, else infinity."""
    positive = rates > 0
    a = b = math.nan
    if np.count_nonzero(positive) >= 2:
        slope, intercept = np.polyfit(sizes[positive].astype(np.float64), np.log(rates[positive]), 1)
        a, b = float(np.exp(intercept)), float(-slope)
        if b > 0:  # a crossing before the smallest size measured is no count the curve shows: at most that size
            return max(float(np.log(a / target) / b), float(sizes.min())), a, b
    below = sizes[rates <= target]
    return (float(below.min()) if below.size else math.inf), a, b


def _tie_ranks(means: np.ndarray) -> np.ndarray:
    """Each system's rank among ``means``, means within ``TIE_TOLERANCE`` of the next one tied (a chain ties)."""
    order = np.argsort(means, kind="stable")
    ranks = np.empty(means.size, dtype=np.int64)
    ranks[order] = np.cumsum(np.r_[0, np.diff(means[order]) > TIE_TOLERANCE])
    return ranks


def agreement(means: np.ndarray, reference_means: np.ndarray) -> float:
    """Kendall's tau-b of the systems' order under a candidate and under the reference (scipy's ``kendalltau``), means
    within ``TIE_TOLERANCE`` tied: equal sums of per-query values can differ in their last bits when summed in another
    order, and such a difference is no order (as :func:`~ndcg_research.stats.swap_rates` and the alike test read it)."""
    ranks, reference = _tie_ranks(means), _tie_ranks(reference_means)
    if ranks.max() == 0 or reference.max() == 0:
        return math.nan  # an order of tied systems has no correlation
    return kendall_tau(ranks, reference)


def order_differences(means: np.ndarray, reference_means: np.ndarray) -> tuple[int, int, int]:
    """``(reversed, tied, untied)``: the pairs of systems the candidate's ``means`` order opposite to the reference's,
    the pairs it ties that the reference orders, and the pairs it orders that the reference ties (means within
    ``TIE_TOLERANCE`` tied, as :func:`agreement` reads them). All 0: the two orders are the same."""
    ranks, reference = _tie_ranks(means), _tie_ranks(reference_means)
    first, second = np.triu_indices(means.size, k=1)
    mine, theirs = np.sign(ranks[first] - ranks[second]), np.sign(reference[first] - reference[second])
    return (
        int(np.count_nonzero(mine * theirs < 0)),
        int(np.count_nonzero((mine == 0) & (theirs != 0))),
        int(np.count_nonzero((mine != 0) & (theirs == 0))),
    )
