"""Compare many systems: each system's mean with its interval, every pair's test with adjusted p-values."""

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_int, check_option, check_resamples
from ..core import _kernels as kernels
from ._inputs import METHOD_ALIAS, check_jobs, check_level, check_scores, renamed_test
from ._intervals import ALPHA, CONFIDENCE, INTERVALS, _mean_interval, bootstrap_interval, check_resample_count
from ._multiple import CORRECTIONS, _adjust_pvalues, _tukey_hsd
from ._paired import METHODS, _interval_of, _pairwise_tests
from ._resampling import Resamples

#: Tests of ``compare_systems``: the paired tests and the randomised Tukey HSD test.
COMPARE_METHODS: tuple[str, ...] = (*METHODS, "tukey")


@dataclass(frozen=True)
class Comparison:
    """Systems and pairs of a comparison (see ``compare_systems``).

    Attributes
    ----------
    systems : pandas.DataFrame
        One row per system, in input order: ``system``, ``mean``, ``ci_low``, ``ci_high``, ``queries``.
    pairs : pandas.DataFrame
        One row per pair ``(system_a, system_b)`` with ``a`` before ``b`` in the input: ``difference`` (mean of a - b),
        ``ci_low``, ``ci_high``, ``effect_size`` (Cohen's d_z), ``wins``, ``ties``, ``losses`` (queries where a > b, a
        == b, a < b), ``pvalue``, ``pvalue_adjusted``.
    test, correction, interval : str
    confidence : float
    n_resamples, seed : int
        The resamples asked for (of the bootstrap intervals, and of the tests that draw them) and their seed.
    exact : bool
        True when the p-values come from every sign pattern (an exact permutation test), not random ones.
    test_resamples : int
        What the p-values rest on: ``2**(n-1)`` sign patterns for an exact test, else the random resamples drawn by the
        test (``n_resamples``); 0 for the t and Wilcoxon tests.
    """

    systems: pd.DataFrame
    pairs: pd.DataFrame
    test: str
    correction: str
    interval: str
    confidence: float
    n_resamples: int
    seed: int
    exact: bool = False
    test_resamples: int = 0
    #: Deprecated name of ``test``.
    method = METHOD_ALIAS


@renamed_test
def compare_systems(
    scores: Any,
    *,
    systems: list[str] | None = None,
    test: str = "t",
    correction: str | None = None,
    interval: str | None = None,
    confidence: float = CONFIDENCE,
    n_resamples: int = 10_000,
    seed: int = 0,
    n_jobs: int = 1,
) -> Comparison:
    """Means with confidence intervals, and all pairwise tests with corrected p-values.

    Parameters
    ----------
    scores : 2-D array-like or mapping
        Systems x queries of one measure (see ``pairwise_tests``).
    systems : list of str, optional
        Names of the rows.
    test : {"t", "wilcoxon", "permutation", "bootstrap", "tukey"}, default "t"
        The paired test of each pair (``paired_test``), or the randomised Tukey HSD test (``tukey_hsd``). (Formerly
        ``method``, deprecated.)
    correction : {"holm", "bonferroni", "bh", "none"}, optional
        Multiple-comparison correction of the pairs' p-values; default ``"holm"``, and for ``test="tukey"`` (already
        family-wise adjusted) ``"none"``, the only one allowed there.
    interval : {"t", "percentile", "bca"}, optional
        Interval of each system's mean and each pair's difference; default ``"t"`` for the t test, else ``"percentile"``
        (see ``paired_test``).
    confidence, n_resamples, seed, n_jobs
        As in ``paired_test`` and ``pairwise_tests``; the resamples serve the resampling tests and the bootstrap
        intervals.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> from ndcg_research.stats import compare_systems
    >>> scores = {"bm25": [0.31, 0.45, 0.12, 0.50, 0.38, 0.27],
    ...           "rerank": [0.42, 0.51, 0.20, 0.55, 0.47, 0.30],
    ...           "random": [0.05, 0.10, 0.02, 0.12, 0.08, 0.04]}
    >>> c = compare_systems(scores)
    >>> c.systems[["system", "mean", "ci_low", "ci_high"]].round(3).values.tolist()
    [['bm25', 0.338, 0.195, 0.482], ['rerank', 0.408, 0.268, 0.549], ['random', 0.068, 0.028, 0.108]]
    >>> c.pairs[["system_a", "system_b", "pvalue", "pvalue_adjusted"]].round(4).values.tolist()
    [['bm25', 'rerank', 0.002, 0.0024], ['bm25', 'random', 0.0012, 0.0024], ['rerank', 'random', 0.0004, 0.0011]]
    """
    test = check_option(test, "test", COMPARE_METHODS)
    correction = check_option(correction, "correction", CORRECTIONS, none=True)
    interval = check_option(interval, "interval", INTERVALS, none=True)
    confidence, n_resamples = check_level(confidence, "confidence"), check_resamples(n_resamples)
    seed, n_jobs = check_int(seed, "seed", low=0), check_jobs(n_jobs)
    matrix, names = check_scores(scores, "scores", systems)
    if correction is None:
        correction = "none" if test == "tukey" else "holm"
    if test == "tukey" and correction != "none":
        raise ValueError(
            f"correction must be 'none' with test='tukey' (its p-values are family-wise adjusted), got {correction!r}"
        )
    interval = _interval_of(test, interval)
    check_resample_count(n_resamples, confidence, interval, test)

    n = matrix.shape[1]
    mean = kernels.mean_in_order(matrix)  # as evaluate's means (and trec_eval's), to the last bit
    if interval == "t":
        ci = _mean_interval(matrix, 1, confidence)
        low, high = ci["ci_low"], ci["ci_high"]
    else:
        boot = Resamples.build("bootstrap", n_queries=n, n_resamples=n_resamples, seed=seed)
        low, high = bootstrap_interval(boot.weighted_sums(matrix) / n, matrix, confidence=confidence, interval=interval)
    # The intervals are about numpy's (pairwise) mean: moved by the few ulps onto the mean reported, so that a
    # zero-width interval is that mean exactly (a + (b - a) is b for floats this close), a t interval centred on it.
    shift = mean - matrix.mean(axis=1)
    low, high = low + shift, high + shift
    # Names as objects: a run file's name that is not UTF-8 holds surrogate escapes, which pandas' str dtype refuses
    labels = np.asarray(names, dtype=object)
    system = pd.Series(labels, dtype=object)
    system_table = pd.DataFrame({"system": system, "mean": mean, "ci_low": low, "ci_high": high, "queries": n})

    # With tukey, the pairs' t tests (never exact) give every column but the p-values.
    options: dict[str, Any] = dict(test="t" if test == "tukey" else test, interval=interval, confidence=confidence)
    tests = _pairwise_tests(matrix, None, alpha=ALPHA, n_resamples=n_resamples, seed=seed, n_jobs=n_jobs, **options)
    pvalue = _tukey_hsd(matrix, n_resamples, ALPHA, seed, n_jobs).pvalue if test == "tukey" else tests.pvalue
    columns = ("difference", "ci_low", "ci_high", "effect_size", "wins", "ties", "losses")
    pairs = {
        "system_a": pd.Series(labels[tests.first], dtype=object),
        "system_b": pd.Series(labels[tests.second], dtype=object),
    }
    pairs |= {key: getattr(tests, key) for key in columns}
    pair_table = pd.DataFrame({**pairs, "pvalue": pvalue, "pvalue_adjusted": _adjust_pvalues(pvalue, correction)})
    used = n_resamples if test == "tukey" else tests.n_resamples
    return Comparison(
        system_table, pair_table, test, correction, interval, confidence, n_resamples, seed, tests.exact, used
    )
