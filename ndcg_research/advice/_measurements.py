"""The measurements of :func:`~ndcg_research.advice.advise`, one candidate setting at a time (systems x queries).

Each function takes the per-query values of one candidate (systems x queries, the same queries for every
candidate) and returns plain numbers; the statistics are the package's (:mod:`ndcg_research.stats`), drawn
with the same seed for every candidate, so that every candidate is judged on the same resamples and query
subsets (common random numbers: a difference between candidates is not a difference between draws).
"""

from __future__ import annotations

import math

import numpy as np

from ..stats import discriminative_power, kendall_tau, swap_rates, variance_components

#: Query subsets per size of the swap curve: ``SWAP_POINTS`` sizes evenly spaced up to half the queries.
SWAP_POINTS = 8


def power(matrix: np.ndarray, *, alpha: float, n_resamples: int, seed: int) -> tuple[float, int]:
    """Discriminative power: the share (and count) of system pairs significantly different at ``alpha``.

    The test is the randomised Tukey HSD test of every pair (Carterette 2012, as Sakai runs it for
    discriminative power since 2012), which controls the family-wise error over all pairs by construction.
    """
    result = discriminative_power(matrix, test="tukey", alpha=alpha, n_resamples=n_resamples, seed=seed)
    significant = int(np.count_nonzero(result.significant))
    return significant / result.pvalues.size, significant


def dependability(matrix: np.ndarray) -> tuple[float, float, float]:
    r"""Generalizability theory's dependability :math:`\Phi` and generalizability coefficient :math:`E\rho^2`.

    From the variance components of the two-way ANOVA without replication (systems x queries, one
    value per cell: :func:`ndcg_research.stats.variance_components`) of system :math:`\sigma^2_s`,
    query :math:`\sigma^2_q` and interaction (with error) :math:`\sigma^2_{sq}`, over the ``n``
    queries of the matrix (Brennan 2001; Kanoulas & Aslam 2009):

    .. math::
        \Phi = \frac{\sigma^2_s}{\sigma^2_s + (\sigma^2_q + \sigma^2_{sq}) / n}, \qquad
        E\rho^2 = \frac{\sigma^2_s}{\sigma^2_s + \sigma^2_{sq} / n}.

    Also the queries a new collection would need for :math:`\Phi = 0.8` (:data:`PHI_TARGET`, the
    D-study: :math:`n' = \frac{\Phi}{1-\Phi}\,\frac{\sigma^2_q + \sigma^2_{sq}}{\sigma^2_s}`).
    Returns ``(phi, erho2, queries_for_phi)``. Components within rounding of 0 are 0
    (:func:`~ndcg_research.stats.variance_components`). Undefined cases: all three NaN when every value
    is equal; when only the systems never differ (the same value on every query, e.g. copies of one run)
    :math:`\Phi = 0`, :math:`E\rho^2` NaN (0 / 0) and the query count infinite, as it is whenever the
    system variance is 0 (no number of queries reaches :math:`\Phi = 0.8`).

    Examples
    --------
    >>> y = np.array([[0.3, 0.5, 0.9], [0.1, 0.4, 0.7]])   # 2 systems x 3 queries
    >>> [round(v, 4) for v in dependability(y)]
    [0.3038, 0.96, 27.5]
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


#: The dependability a collection should reach (a usual standard of generalizability theory).
PHI_TARGET = 0.8


def swap_sizes(n_queries: int) -> np.ndarray:
    """Query-subset sizes of the swap curve: :data:`SWAP_POINTS` sizes evenly spaced up to ``n_queries // 2``.

    Examples
    --------
    >>> swap_sizes(50).tolist(), swap_sizes(12).tolist(), swap_sizes(3).tolist()
    ([3, 6, 9, 12, 16, 19, 22, 25], [1, 2, 3, 4, 5, 6], [1])
    """
    half = max(n_queries // 2, 1)
    return np.unique(np.round(np.linspace(half / SWAP_POINTS, half, SWAP_POINTS)).astype(int).clip(1, half))


def swap_curve(matrix: np.ndarray, sizes: np.ndarray, *, trials: int, seed: int) -> np.ndarray:
    """Swap rate of all pairs of systems between two disjoint query subsets of each size (Voorhees & Buckley 2002).

    The share of (pair, trial) where the two subsets order the pair differently
    (:func:`ndcg_research.stats.swap_rates`, one bin: every pair).
    """
    table = swap_rates(matrix, sizes.tolist(), trials=trials, seed=seed)
    return table["swap_rate"].to_numpy(dtype=np.float64)


def queries_for_swap_rate(sizes: np.ndarray, rates: np.ndarray, target: float) -> tuple[float, float, float]:
    """Queries needed for a swap rate of ``target``, from the exponential fit of the swap curve.

    Voorhees & Buckley (2002) found the swap rate to fall exponentially with the query-set size ``c``:
    :math:`\\mathrm{rate}(c) \\approx A\\,e^{-b c}`. The fit is least squares of :math:`\\ln \\mathrm{rate}`
    on ``c`` over the sizes with a positive rate; the queries needed solve :math:`A e^{-b c} = \\mathrm{target}`
    (an extrapolation beyond the largest size measured). With fewer than two positive rates there is no
    fit: the answer is the smallest size measured at or below the target (swap-free sizes), else infinity.
    Returns ``(queries, A, b)`` (``A``, ``b`` NaN without a fit); infinity if the rate does not fall.

    Examples
    --------
    >>> sizes = np.array([5, 10, 15, 20])
    >>> queries, a, b = queries_for_swap_rate(sizes, 0.4 * np.exp(-0.1 * sizes), 0.01)
    >>> round(queries, 2), round(a, 3), round(b, 3)
    (36.89, 0.4, 0.1)
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
