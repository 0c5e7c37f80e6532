"""The measurements of :func:`~ndcg_research.advice.advise`, one candidate setting at a time (systems x queries).

Each function takes the per-query values of one candidate (systems x queries, the same queries for every candidate) and
returns plain numbers; the statistics are the package's (:mod:`ndcg_research.stats`), drawn with the same seed for every
candidate, so that every candidate is judged on the same resamples and query subsets (common random numbers: a
difference between candidates is not a difference between draws).
"""

from __future__ import annotations

import math

import numpy as np

from ..stats import discriminative_power, kendall_tau, swap_rates, variance_components

#: Query subsets per size of the swap curve: ``SWAP_POINTS`` sizes evenly spaced up to half the queries.
SWAP_POINTS = 8
#: The dependability a collection should reach (a usual standard of generalizability theory).
PHI_TARGET = 0.8


def power(matrix: np.ndarray, *, alpha: float, n_resamples: int, seed: int) -> tuple[float, int]:
    """Discriminative power: the share (and count) of system pairs significantly different at ``alpha``.

    The test is the randomised Tukey HSD test of every pair (Carterette 2012, as Sakai runs it for discriminative power
    since 2012), which controls the family-wise error over all pairs by construction.
    """
    result = discriminative_power(matrix, test="tukey", alpha=alpha, n_resamples=n_resamples, seed=seed)
    significant = int(np.count_nonzero(result.significant))
    return significant / result.pvalues.size, significant


def dependability(matrix: np.ndarray) -> tuple[float, float, float]:
    r"""``(phi, erho2, queries_for_phi)``: generalizability theory's dependability and coefficient, and the queries
    for :math:`\Phi = 0.8`.

    From the variance components of system :math:`\sigma^2_s`, query :math:`\sigma^2_q` and interaction (with error)
    :math:`\sigma^2_{sq}` (:func:`~ndcg_research.stats.variance_components`, components within rounding of 0 are 0) over
    the ``n`` queries (Brennan 2001; Kanoulas & Aslam 2009):
    :math:`\Phi = \sigma^2_s / (\sigma^2_s + (\sigma^2_q + \sigma^2_{sq}) / n)`,
    :math:`E\rho^2 = \sigma^2_s / (\sigma^2_s + \sigma^2_{sq} / n)`, and the D-study's
    :math:`n' = \frac{\Phi}{1-\Phi}\,\frac{\sigma^2_q + \sigma^2_{sq}}{\sigma^2_s}` at :data:`PHI_TARGET`. All three NaN
    when every value is equal; when only the systems never differ (e.g. copies of one run) :math:`\Phi = 0`,
    :math:`E\rho^2` NaN (0 / 0), and the query count is infinite whenever :math:`\sigma^2_s = 0`.
    """
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
    """Query-subset sizes of the swap curve: :data:`SWAP_POINTS` sizes evenly spaced up to ``n_queries // 2``.

    >>> swap_sizes(50).tolist(), swap_sizes(12).tolist(), swap_sizes(3).tolist()
    ([3, 6, 9, 12, 16, 19, 22, 25], [1, 2, 3, 4, 5, 6], [1])
    """
    half = max(n_queries // 2, 1)
    return np.unique(np.round(np.linspace(half / SWAP_POINTS, half, SWAP_POINTS)).astype(int).clip(1, half))


def swap_curve(matrix: np.ndarray, sizes: np.ndarray, *, trials: int, seed: int) -> np.ndarray:
    """Swap rate (Voorhees & Buckley 2002) of all pairs of systems between two disjoint query subsets of each size:
    the share of (pair, trial) the two subsets order differently (``stats.swap_rates``, one bin)."""
    table = swap_rates(matrix, sizes.tolist(), trials=trials, seed=seed)
    return table["swap_rate"].to_numpy(dtype=np.float64)


def queries_for_swap_rate(sizes: np.ndarray, rates: np.ndarray, target: float) -> tuple[float, float, float]:
    """Queries needed for a swap rate of ``target``, from the exponential fit of the swap curve.

    Voorhees & Buckley (2002) found the swap rate to fall exponentially with the query-set size ``c``:
    :math:`\\mathrm{rate}(c) \\approx A\\,e^{-b c}`, fitted by least squares of :math:`\\ln \\mathrm{rate}` on ``c``
    over the sizes with a positive rate; the queries needed solve :math:`A e^{-b c} = \\mathrm{target}` (beyond the
    largest size, an extrapolation). With fewer than two positive rates there is no fit: the smallest size at or below
    the target (swap-free sizes), else infinity. Returns ``(queries, A, b)`` (``A``, ``b`` NaN without a fit); infinity
    if the rate does not fall.
    """
    positive = rates > 0
    if np.count_nonzero(positive) < 2:
        below = sizes[rates <= target]
        return (float(below.min()) if below.size else math.inf), math.nan, math.nan
    slope, intercept = np.polyfit(sizes[positive].astype(np.float64), np.log(rates[positive]), 1)
    a, b = float(np.exp(intercept)), float(-slope)
    if b <= 0:
        return math.inf, a, b
    return max(float(np.log(a / target) / b), 0.0), a, b


def agreement(means: np.ndarray, reference_means: np.ndarray) -> float:
    """Kendall's tau-b of the systems' order under a candidate and under the reference (scipy's ``kendalltau``)."""
    if np.ptp(means) == 0 or np.ptp(reference_means) == 0:
        return math.nan  # an order of tied systems has no correlation
    return kendall_tau(means, reference_means)
