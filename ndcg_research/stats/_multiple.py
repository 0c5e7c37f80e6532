"""Many systems at once: p-value corrections and the randomised Tukey HSD test."""

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._validation import check_array, check_int, check_option, check_resamples
from ._inputs import check_jobs, check_level, check_scores
from ._intervals import ALPHA
from ._paired import TIE_TOLERANCE
from ._resampling import TOLERANCE, TUKEY_STREAM, block_generator, map_in_threads, mean_error

#: The corrections of ``adjust_pvalues``.
CORRECTIONS: tuple[str, ...] = ("holm", "bonferroni", "bh", "none")
#: Resamples per seeded block of the randomised Tukey HSD test.
TUKEY_BLOCK = 1000
#: Elements (resamples x queries x systems) shuffled at once inside a block.
_SHUFFLE_ELEMENTS = 1 << 22


def adjust_pvalues(pvalues: Any, correction: str = "holm") -> np.ndarray:
    """Adjust a family of p-values for multiple comparisons.

    Holm (1979) and Bonferroni control the family-wise error rate (Holm is uniformly more powerful), ``"bh"`` (Benjamini
    & Hochberg 1995, ``scipy.stats.false_discovery_control``) the false discovery rate.

    Parameters
    ----------
    pvalues : array-like
        The p-values of the family (1-D, each in [0, 1]).
    correction : {"holm", "bonferroni", "bh", "none"}, default "holm"

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, in the input order.

    Examples
    --------
    >>> from ndcg_research.stats import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.20]).round(4).tolist()     # Holm
    [0.04, 0.09, 0.09, 0.2]
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.20], "bonferroni").round(4).tolist()
    [0.04, 0.16, 0.12, 0.8]
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.20], "bh").round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.2]
    """
    correction = check_option(correction, "correction", CORRECTIONS)
    return _adjust_pvalues(check_array(pvalues, "pvalues", ndim=1, min_size=1, low=0, high=1), correction)


def _adjust_pvalues(p: np.ndarray, correction: str) -> np.ndarray:
    m = p.size
    if correction == "none":
        return p.copy()
    if correction == "bonferroni":
        return np.minimum(1.0, m * p)
    if correction == "bh":
        return stats.false_discovery_control(p, method="bh")
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    return stepped[np.argsort(order)]  # back to the input order


@dataclass(frozen=True)
class TukeyHSD:
    """Result of the randomised Tukey HSD test over all pairs of systems.

    Attributes
    ----------
    first, second : numpy.ndarray
        Row indices of each pair ``i < j``.
    difference : numpy.ndarray
        ``mean_i - mean_j``.
    pvalue : numpy.ndarray
        Family-wise adjusted p-value of each pair.
    ranges : numpy.ndarray
        The ``B`` resampled ranges (max - min of the systems' means), in resample order.
    critical_difference : float
        The honestly significant difference at ``alpha``: the ``ceil(B alpha)``-th largest range.
    alpha : float
    n_resamples : int
    """

    first: np.ndarray
    second: np.ndarray
    difference: np.ndarray
    pvalue: np.ndarray
    ranges: np.ndarray
    critical_difference: float
    alpha: float
    n_resamples: int


def tukey_hsd(
    scores: Any, *, n_resamples: int = 10_000, alpha: float = ALPHA, seed: int = 0, n_jobs: int = 1
) -> TukeyHSD:
    """Randomised Tukey HSD test (Carterette, TOIS 2012) of every pair of systems.

    Each of ``B`` resamples shuffles the systems' values within every query (exchangeable if all systems are equivalent)
    and records the range of the systems' means; a pair's p-value is the share ``(count + 1) / (B + 1)`` of ranges
    reaching its ``|difference|``, family-wise adjusted by construction.

    Parameters
    ----------
    scores : 2-D array-like or mapping
        Systems x queries (see ``pairwise_tests``).
    n_resamples : int, default 10000
        Resamples ``B`` (each shuffles the systems within every query).
    alpha : float, default 0.05
        Level of ``critical_difference``.
    seed : int, default 0
        Entropy of the resamples' SeedSequence; block ``k`` of ``TUKEY_BLOCK`` resamples draws from
        ``SeedSequence(seed, spawn_key=(TUKEY_STREAM, k))``.
    n_jobs : int, default 1
        As in ``pairwise_tests``.

    Returns
    -------
    TukeyHSD

    Examples
    --------
    >>> from ndcg_research.stats import tukey_hsd
    >>> scores = [[0.9, 0.8, 0.9, 0.7, 0.8, 0.9], [0.5, 0.4, 0.6, 0.5, 0.4, 0.5], [0.5, 0.5, 0.5, 0.4, 0.5, 0.4]]
    >>> r = tukey_hsd(scores, n_resamples=2000)
    >>> r.pvalue.round(3).tolist()          # pairs (0, 1), (0, 2), (1, 2)
    [0.006, 0.004, 1.0]
    """
    b, alpha = check_resamples(n_resamples), check_level(alpha, "alpha")
    seed, n_jobs = check_int(seed, "seed", low=0), check_jobs(n_jobs)
    return _tukey_hsd(check_scores(scores, "scores").values, b, alpha, seed, n_jobs)


def _tukey_hsd(matrix: np.ndarray, b: int, alpha: float, seed: int, n_jobs: int) -> TukeyHSD:
    by_query = np.ascontiguousarray(matrix.T)  # queries x systems

    def block(k: int) -> np.ndarray:
        rows = min(TUKEY_BLOCK, b - k * TUKEY_BLOCK)
        rng = block_generator(seed, TUKEY_STREAM, k)
        step = max(1, _SHUFFLE_ELEMENTS // by_query.size)
        out = []
        # Sub-blocks along the resample axis consume the generator in the same order as one call would, so the numbers
        # do not depend on the sub-block size.
        for start in range(0, rows, step):
            size = min(step, rows - start)
            shuffled = rng.permuted(np.broadcast_to(by_query, (size, *by_query.shape)), axis=2)
            out.append(np.ptp(shuffled.mean(axis=1), axis=1))
        return np.concatenate(out)

    ranges = np.concatenate(map_in_threads(block, range(math.ceil(b / TUKEY_BLOCK)), n_jobs))
    first, second = np.triu_indices(matrix.shape[0], k=1)
    means = matrix.mean(axis=1)
    difference = means[first] - means[second]
    # A tie is no difference, as in the paired tests: a pair whose queries all tie differs by 0 (p = 1), not by the
    # residue of their rounding. Only a pair this close can (the others move by less than the tolerance).
    near = np.flatnonzero(np.abs(difference) <= TIE_TOLERANCE)
    gaps = matrix[first[near]] - matrix[second[near]]
    gaps[np.abs(gaps) <= TIE_TOLERANCE] = 0.0
    difference[near] = gaps.mean(axis=1)
    ordered = np.sort(ranges)
    # A range equal to |difference| in exact arithmetic (a shuffle that moves nothing that matters) reaches it: each of
    # the four means compared takes one value per query, so it is within n eps of the mean of each query's largest
    # |value| (its rounding, to first order) of its exact value.
    rounding = mean_error(matrix.shape[1], np.abs(matrix).max(axis=0).mean())
    threshold = np.abs(difference) * (1.0 - TOLERANCE) - rounding
    count = b - np.searchsorted(ordered, threshold, side="left")
    pvalue = (count + 1) / (b + 1)
    critical = float(ordered[b - min(max(math.ceil(b * alpha), 1), b)])
    return TukeyHSD(first, second, difference, pvalue, ranges, critical, alpha, n_resamples=b)
