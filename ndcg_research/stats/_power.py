"""Discriminative power of an evaluation measure (Sakai, SIGIR 2006): the share of pairs of systems it separates."""

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_int, check_option, check_resamples
from ._inputs import METHOD_ALIAS, check_jobs, check_level, check_scores, renamed_test
from ._intervals import ALPHA, check_resample_count
from ._multiple import CORRECTIONS, TukeyHSD, _adjust_pvalues, _tukey_hsd
from ._paired import PairTests, _pairwise_tests
from ._resampling import EXACT_MAX_QUERIES

#: The tests ``discriminative_power`` can use.
POWER_METHODS: tuple[str, ...] = ("bootstrap", "t", "permutation", "tukey")


@dataclass(frozen=True)
class DiscriminativePower:
    """Discriminative power of one measure over a set of systems and queries.

    Attributes
    ----------
    power : float
        Share of system pairs with ASL < ``alpha``.
    asl_curve : numpy.ndarray
        The pairs' ASLs, sorted in increasing order (Sakai's ASL curve).
    difference_required : float
        Sakai's estimated difference required: the largest of the pairs' critical differences; NaN if none has one.
    pvalues, differences, critical_differences : numpy.ndarray
        Each pair's ASL, mean difference (first minus second system) and critical difference at ``alpha`` (with Tukey,
        the honestly significant difference), pairs in row-major order ``(0, 1), (0, 2), ..., (S-2, S-1)``.
    first, second : numpy.ndarray
        Row indices of each pair.
    systems : list of str
    alpha : float
    test : str
    correction : str or None
    n_queries, n_resamples : int
    """

    power: float
    asl_curve: np.ndarray
    difference_required: float
    pvalues: np.ndarray
    differences: np.ndarray
    critical_differences: np.ndarray
    first: np.ndarray
    second: np.ndarray
    systems: list[str]
    alpha: float
    test: str
    correction: str | None
    n_queries: int
    n_resamples: int
    #: Deprecated name of ``test``.
    method = METHOD_ALIAS

    @property
    def significant(self) -> np.ndarray:
        """Boolean mask of the pairs with ASL < alpha."""
        return self.pvalues < self.alpha

    def table(self) -> pd.DataFrame:
        """One row per pair: system_a, system_b, difference, asl, critical_difference, significant."""
        names = np.asarray(self.systems, dtype=object)
        columns = {"system_a": names[self.first], "system_b": names[self.second], "difference": self.differences}
        columns |= {"asl": self.pvalues, "critical_difference": self.critical_differences}
        return pd.DataFrame({**columns, "significant": self.significant})


@renamed_test
def discriminative_power(
    scores: Any,
    *,
    alpha: float = ALPHA,
    test: str = "bootstrap",
    n_resamples: int = 1000,
    correction: str | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    systems: list[str] | None = None,
) -> DiscriminativePower:
    """Discriminative power (Sakai, SIGIR 2006) of one measure on a systems x queries matrix.

    The share of pairs of systems whose achieved significance level (ASL, the p-value) is below ``alpha``; measures are
    compared by it and by their ASL curves (the sorted ASLs: a lower curve separates more pairs).

    Parameters
    ----------
    scores : 2-D array-like or mapping
        Systems x queries of one measure (see ``pairwise_tests``).
    alpha : float, default 0.05
        Significance level.
    test : {"bootstrap", "t", "permutation", "tukey"}, default "bootstrap"
        The test of each pair (``paired_test``), or ``tukey_hsd`` (family-wise adjusted: ``correction`` must be None).
        (Formerly ``method``, deprecated.)
    n_resamples : int, default 1000
        Resamples of the bootstrap (1000 as in Sakai's paper; at least ``1 / alpha``), sign-flip (Monte Carlo above 20
        queries) or Tukey test.
    correction : {"holm", "bonferroni", "bh", "none"} or None, default None
        Correction of the pairs' p-values before counting (None: Sakai's uncorrected count).
    seed, n_jobs : int, default 0 and 1
        As in ``pairwise_tests``.
    systems : list of str, optional
        System names (rows).

    Returns
    -------
    DiscriminativePower

    Examples
    --------
    >>> import numpy as np
    >>> from ndcg_research.stats import discriminative_power
    >>> rng = np.random.default_rng(7)
    >>> topic = rng.normal(0.5, 0.15, 50)                    # per-topic difficulty
    >>> scores = np.array([topic + shift + rng.normal(0, 0.05, 50) for shift in (0.0, 0.01, 0.1)])
    >>> dp = discriminative_power(scores)
    >>> dp.power, dp.asl_curve.round(3).tolist()
    (0.6666666666666666, [0.0, 0.0, 0.507])
    >>> bool((dp.pvalues < 0.05).mean() == dp.power)
    True
    """
    alpha, test = check_level(alpha, "alpha"), check_option(test, "test", POWER_METHODS)
    n_resamples = check_resamples(n_resamples)
    check_resample_count(n_resamples, 1 - alpha, "none", test, alpha=alpha)  # (no interval here)
    correction = check_option(correction, "correction", CORRECTIONS, none=True)
    seed, n_jobs = check_int(seed, "seed", low=0), check_jobs(n_jobs)
    matrix, names = check_scores(scores, "scores", systems)
    if correction is not None and test == "tukey":
        raise ValueError("correction must be None with test='tukey': its p-values are family-wise adjusted")
    # A Monte Carlo p-value, (count + 1) / (B + 1), is never below 1 / (B + 1): too few resamples made the power 0
    if (
        test == "tukey" or test == "permutation" and matrix.shape[1] > EXACT_MAX_QUERIES
    ) and n_resamples + 1 <= 1 / alpha:
        needed = math.floor(1 / alpha)  # the smallest B with 1 / (B + 1) < alpha
        raise ValueError(
            f"n_resamples must be at least {needed} for the {test} test at alpha {alpha:g}: its p-values are at least "
            f"1 / (n_resamples + 1), so no pair could be significant, got {n_resamples}"
        )
    result: TukeyHSD | PairTests
    if test == "tukey":
        result = _tukey_hsd(matrix, n_resamples, alpha, seed, n_jobs)
    else:
        options: dict[str, Any] = dict(test=test, interval="none", confidence=1 - ALPHA, alpha=alpha)
        result = _pairwise_tests(matrix, None, n_resamples=n_resamples, seed=seed, n_jobs=n_jobs, **options)
    pvalues = result.pvalue if correction is None else _adjust_pvalues(result.pvalue, correction)
    critical = np.full(result.first.shape, result.critical_difference)  # Tukey's one HSD serves every pair
    finite = critical[np.isfinite(critical)]
    return DiscriminativePower(
        power=float(np.mean(pvalues < alpha)),
        asl_curve=np.sort(pvalues),
        difference_required=float(finite.max()) if finite.size else float("nan"),
        pvalues=pvalues,
        differences=result.difference,
        critical_differences=critical,
        first=result.first,
        second=result.second,
        systems=names,
        alpha=alpha,
        test=test,
        correction=correction,
        n_queries=matrix.shape[1],
        n_resamples=result.n_resamples,
    )
