r"""Paired tests of two systems on the same queries, one pair or many at once.

Null statistics reach the observed one within scipy's tolerance, :math:`|T^*| \ge |T| (1 - 100\,\epsilon)`, and within
their own rounding. Rounding policy, with :math:`r = 100\,\epsilon` times the mean :math:`|d_q|`: a mean difference
within :math:`r` of 0 is the rounding residue of 0 (0.7 - 0.6, 0.4 - 0.3 and 0.1 - 0.3 have the float mean 5e-18): the
resampling tests take it as 0 (p = 1), as the t and Wilcoxon tests do. Differences all within :math:`r` of their mean
are constant, every difference the same (0.9 - 0.8 and 0.8 - 0.7 differ in their last bits): their standard deviation
is 0, so the t and bootstrap tests have no doubt (p = 0; 1 if the differences are all 0), the effect size is NaN and
every interval is the mean itself; the permutation and Wilcoxon tests, which do not divide by it, give their smallest
p-value. Each pair's differences are scaled by a power of two (exactly) so that the largest :math:`|d_q|` is in
[0.5, 1): the p-values do not depend on the scale of differences beyond the tie tolerance, and no square over- or
underflows. A difference within ``TIE_TOLERANCE`` (1e-12) of 0 is a tie, absolutely (the values are on nDCG's scale,
[0, 1]: the package's one definition of equal nDCG), and enters the statistics and the difference as 0: systems whose
values differ only in their last bits are the same system (p = 1), not "significantly different" with no win and no
loss.
"""

import functools
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._validation import check_array, check_bool, check_int, check_option, check_resamples
from ._inputs import METHOD_ALIAS, check_jobs, check_level, check_pair, check_scores, renamed_test
from ._intervals import (
    ALPHA,
    CONFIDENCE,
    INTERVALS,
    _mean_interval,
    bootstrap_interval,
    check_resample_count,
)
from ._resampling import (
    EXACT_MAX_QUERIES,
    TOLERANCE,
    Resamples,
    map_in_threads,
    mean_rounding,
    rounding_residues,
)

#: Two nDCG values closer than this (absolute; nDCG is in [0, 1]) are equal: a tie. Differences below it are
#: floating-point rounding (the last bits of a sum), never a measured effect.
TIE_TOLERANCE = 1e-12
#: The paired tests (the ``test`` argument).
METHODS: tuple[str, ...] = ("t", "wilcoxon", "permutation", "bootstrap")
#: Elements (pairs x the larger of queries and resamples) of a chunk of pairs held in memory at once.
_CHUNK_ELEMENTS = 1 << 22
#: Weight blocks are drawn once per call when they take at most this many elements.
_CACHE_ELEMENTS = 1 << 25


@dataclass(frozen=True)
class PairedResult:
    """A paired test of systems A and B over the same queries.

    Attributes
    ----------
    test : str
        The test (see ``METHODS``).
    pvalue : float
        Two-sided p-value (the achieved significance level).
    difference : float
        Mean over queries of ``a - b``.
    ci, confidence, interval : tuple of float, float, str
        Confidence interval (low, high) of ``difference``, its level and kind (``"t"``, ``"percentile"``, ``"bca"``).
    effect_size : float
        Cohen's d_z: ``difference / std(a - b, ddof=1)``; NaN if every difference is the same.
    wins, ties, losses : int
        Queries where ``a > b``, ``a == b``, ``a < b`` (equal: within ``TIE_TOLERANCE``).
    n_queries : int
        Number of queries.
    n_resamples : int
        Resamples behind the p-value (``2**(n-1)`` sign patterns for an exact test, 0 for t and Wilcoxon).
    exact : bool
        True when the permutation test enumerated every sign pattern.
    """

    test: str
    pvalue: float
    difference: float
    ci: tuple[float, float]
    confidence: float
    interval: str
    effect_size: float
    wins: int
    ties: int
    losses: int
    n_queries: int
    n_resamples: int
    exact: bool
    #: Deprecated name of ``test``.
    method = METHOD_ALIAS


@dataclass(frozen=True)
class PairTests:
    """Paired tests of many pairs of systems (rows of a systems x queries matrix), as arrays.

    Attributes
    ----------
    first, second : numpy.ndarray
        Row indices of the pairs: the difference is ``first - second``.
    difference, pvalue, ci_low, ci_high, effect_size : numpy.ndarray
        As in ``PairedResult``, one entry per pair (``ci_*`` are NaN if no interval was asked).
    wins, ties, losses : numpy.ndarray
        Integer counts per pair.
    critical_difference : numpy.ndarray
        The smallest ``|difference|`` this pair's test would call significant at level ``alpha``, estimated from its
        null distribution: ``t(1 - alpha/2, n - 1) s_d / sqrt(n)`` for the t test; for the sign-flip test the
        ``ceil(B alpha)``-th largest ``|mean(s d)|``; for the bootstrap (Sakai 2006) ``|mean(w*)|`` of the resample
        whose ``|t*|`` is the ``ceil(B alpha)``-th largest. NaN for Wilcoxon.
    test, interval : str
    alpha, confidence : float
    n_queries, n_resamples : int
    exact : bool
    """

    first: np.ndarray
    second: np.ndarray
    difference: np.ndarray
    pvalue: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    effect_size: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray
    critical_difference: np.ndarray
    test: str
    interval: str
    alpha: float
    confidence: float
    n_queries: int
    n_resamples: int
    exact: bool
    #: Deprecated name of ``test``.
    method = METHOD_ALIAS

    def result(self, index: int) -> PairedResult:
        """Pair ``index`` (a row of the pairs' arrays) as a ``PairedResult``."""
        index = check_int(index, "index", low=0, high=len(self.pvalue) - 1)
        scalars = ("test", "confidence", "interval", "n_queries", "n_resamples", "exact")
        fields: dict[str, Any] = {k: getattr(self, k) for k in scalars}
        fields |= {k: float(getattr(self, k)[index]) for k in ("pvalue", "difference", "effect_size")}
        fields |= {k: int(getattr(self, k)[index]) for k in ("wins", "ties", "losses")}
        return PairedResult(ci=(float(self.ci_low[index]), float(self.ci_high[index])), **fields)


def _test_options(
    test: Any,
    interval: Any,
    confidence: Any,
    resamples: Any,
    seed: Any,
    exact: Any,
    kinds: tuple[str, ...] = INTERVALS,
    alpha: float | None = None,
) -> dict[str, Any]:
    test, exact = check_option(test, "test", METHODS), check_bool(exact, "exact", none=True)
    if exact is not None and test != "permutation":  # it would be ignored
        raise ValueError(f"exact applies to the permutation test only, got exact={exact!r} with test={test!r}")
    interval = _interval_of(test, check_option(interval, "interval", kinds, none=True))
    confidence, n_resamples = check_level(confidence, "confidence"), check_resamples(resamples)
    check_resample_count(n_resamples, confidence, interval, test, alpha=alpha)
    seed = check_int(seed, "seed", low=0)
    return dict(test=test, interval=interval, confidence=confidence, n_resamples=n_resamples, seed=seed, exact=exact)


def _interval_of(test: str, interval: str | None) -> str:
    return interval or ("t" if test == "t" else "percentile")


@renamed_test
def paired_test(
    a: Any,
    b: Any,
    *,
    test: str = "t",
    interval: str | None = None,
    confidence: float = CONFIDENCE,
    n_resamples: int = 10_000,
    seed: int = 0,
    exact: bool | None = None,
) -> PairedResult:
    """Test whether two systems' mean over the same queries differ; interval and effect size of the difference.

    Parameters
    ----------
    a, b : array-like
        Per-query values of systems A and B (same queries, same order; at least 2), on nDCG's scale: a difference
        within ``TIE_TOLERANCE`` (1e-12) is a tie, tested as 0. Two pandas Series must have equal indexes (query ids),
        else ValueError: values are paired by position.
    test : {"t", "wilcoxon", "permutation", "bootstrap"}, default "t"
        ``"t"``: ``scipy.stats.ttest_rel``; ``"wilcoxon"``: ``scipy.stats.wilcoxon`` of the pair alone;
        ``"permutation"``: sign-flip test of the mean difference (Smucker, Allan & Carterette 2007), exact up to 20
        queries, else ``n_resamples`` random sign vectors and ``p = (count + 1) / (B + 1)``; ``"bootstrap"``: Sakai's
        (2006) test of the studentised mean of the differences shifted to mean 0, ``p = count / B``. (Formerly
        ``method``, deprecated.)
    interval : {"t", "percentile", "bca"}, optional
        Confidence interval of the mean difference; default ``"t"`` for the t test, else the bootstrap percentile
        interval (BCa covered less often than it for skewed, tied nDCG differences: ``tests/test_stats_paired.py``).
    confidence : float, default 0.95
        Confidence level of the interval.
    n_resamples : int, default 10000
        Bootstrap resamples and random sign vectors; at least ``2 / (1 - confidence)`` (40 at 95%) for a bootstrap
        interval, ``1 / (1 - confidence)`` (20) for the bootstrap test (whose p-value, ``count / B``, can be 0).
    seed : int, default 0
        Entropy of the resamples' SeedSequence.
    exact : bool, optional
        Permutation test only (given with another test: ValueError): enumerate every sign vector (True), draw
        ``n_resamples`` (False); default: exact up to 20 queries.

    Returns
    -------
    PairedResult

    Examples
    --------
    >>> from ndcg_research.stats import paired_test
    >>> a = [0.61, 0.42, 0.55, 0.70, 0.38, 0.66, 0.59, 0.47]
    >>> b = [0.52, 0.40, 0.49, 0.71, 0.30, 0.60, 0.50, 0.45]
    >>> r = paired_test(a, b, test="permutation")
    >>> r.exact, round(r.pvalue, 4), round(r.difference, 4), (r.wins, r.ties, r.losses)
    (True, 0.0156, 0.0512, (7, 0, 1))
    >>> r = paired_test(a, b)                  # t test: scipy.stats.ttest_rel, t interval
    >>> round(r.pvalue, 4), tuple(round(x, 4) for x in r.ci)
    (0.0059, (0.0201, 0.0824))
    """
    options = _test_options(test, interval, confidence, n_resamples, seed, exact)
    a, b = check_pair(a, b, ("a", "b"), "queries", "hold the same queries")
    return _pairwise_tests(np.vstack([a, b]), None, alpha=ALPHA, n_jobs=1, **options).result(0)


@renamed_test
def pairwise_tests(
    scores: Any,
    pairs: Sequence[tuple[int, int]] | None = None,
    *,
    test: str = "t",
    interval: str | None = None,
    confidence: float = CONFIDENCE,
    alpha: float = ALPHA,
    n_resamples: int = 10_000,
    seed: int = 0,
    exact: bool | None = None,
    n_jobs: int = 1,
) -> PairTests:
    """Paired tests of many pairs of systems at once, sharing the resamples.

    Parameters
    ----------
    scores : 2-D array-like or mapping
        Systems x queries (a mapping: name to per-query values; a DataFrame: named by its index; one that looks
        laid out as queries x systems, its rows numbered or more than its columns, is refused: pass its transpose,
        or name its index ``"system"``), on nDCG's scale, as in ``paired_test``.
    pairs : sequence of (int, int), optional
        Row pairs ``(i, j)`` to test (difference ``i - j``); default every ``i < j``.
    test, confidence, n_resamples, seed, exact
        As in ``paired_test``.
    interval : {"t", "percentile", "bca", "none"}, optional
        As in ``paired_test``; ``"none"`` skips the interval (NaN), which saves the bootstrap when only p-values are
        needed.
    alpha : float, default 0.05
        Level of the ``critical_difference`` column.
    n_jobs : int, default 1
        Worker threads over chunks of pairs (the results do not depend on it); -1: every core, as in joblib.

    Returns
    -------
    PairTests

    Examples
    --------
    >>> from ndcg_research.stats import pairwise_tests
    >>> scores = [[0.5, 0.6, 0.7, 0.4], [0.4, 0.5, 0.7, 0.3], [0.1, 0.2, 0.3, 0.2]]
    >>> t = pairwise_tests(scores, test="permutation")
    >>> t.first.tolist(), t.second.tolist(), t.pvalue.round(3).tolist()
    ([0, 0, 1], [1, 2, 2], [0.25, 0.125, 0.125])
    """
    alpha, n_jobs = check_level(alpha, "alpha"), check_jobs(n_jobs)
    options = _test_options(test, interval, confidence, n_resamples, seed, exact, (*INTERVALS, "none"), alpha)
    matrix = check_scores(scores, "scores").values
    if pairs is not None:
        given, pairs = pairs, check_array(pairs, "pairs", ndim=2, kinds="iu", min_size=1).astype(np.int64)
        if any(isinstance(x, (bool, np.bool_)) for x in np.ravel(np.asarray(given, dtype=object))):  # numpy: True is 1
            raise TypeError(f"pairs must hold row numbers (integers), not booleans, got {given!r}")
        if pairs.shape[1] != 2:
            raise ValueError(f"pairs must have shape (n, 2), got shape {pairs.shape}")
        n_systems = matrix.shape[0]
        if pairs.min() < 0 or pairs.max() >= n_systems or np.any(pairs[:, 0] == pairs[:, 1]):
            raise ValueError(f"pairs must name two different rows among 0..{n_systems - 1}, got {pairs.tolist()!r}")
    return _pairwise_tests(matrix, pairs, alpha=alpha, n_jobs=n_jobs, **options)


def _pairwise_tests(
    matrix: np.ndarray,
    pairs: np.ndarray | None,
    *,
    test: str,
    interval: str,
    confidence: float,
    alpha: float,
    n_resamples: int,
    seed: int,
    n_jobs: int,
    exact: bool | None = None,
) -> PairTests:
    n = matrix.shape[1]
    first, second = np.triu_indices(matrix.shape[0], k=1) if pairs is None else (pairs[:, 0], pairs[:, 1])

    use_exact = test == "permutation" and (exact if exact is not None else n <= EXACT_MAX_QUERIES)
    draw = functools.partial(_PrecomputedResamples.build, n_queries=n, n_resamples=n_resamples, seed=seed)
    flips = draw("exact" if use_exact else "sign-flip") if test == "permutation" else None
    boot = draw("bootstrap") if test == "bootstrap" or interval in ("percentile", "bca") else None
    # a pair holds its n differences and its resamples' statistics (t and Wilcoxon: the differences alone)
    chunk = max(1, _CHUNK_ELEMENTS // max([n, *(r.resamples.n_resamples for r in (flips, boot) if r is not None)]))

    options: dict[str, Any] = dict(test=test, interval=interval, confidence=confidence, alpha=alpha)

    def work(start: int) -> dict[str, np.ndarray]:
        part = slice(start, start + chunk)
        return _test_chunk(matrix, first[part], second[part], flips=flips, boot=boot, **options)

    parts = map_in_threads(work, range(0, first.size, chunk), n_jobs)
    joined: dict[str, Any] = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    behind_p = {"permutation": flips, "bootstrap": boot}.get(test)  # the resamples the p-values rest on
    used = behind_p.resamples.n_resamples if behind_p is not None else 0
    return PairTests(first=first, second=second, n_queries=n, n_resamples=used, exact=use_exact, **options, **joined)


@dataclass(frozen=True)
class _PrecomputedResamples:
    resamples: Resamples
    blocks: list[np.ndarray] | None

    @classmethod
    def build(cls, kind: str, *, n_queries: int, n_resamples: int, seed: int) -> "_PrecomputedResamples":
        resamples = Resamples.build(kind, n_queries=n_queries, n_resamples=n_resamples, seed=seed)
        small = resamples.n_resamples * resamples.n_queries <= _CACHE_ELEMENTS
        return cls(resamples, [resamples.block(k) for k in range(len(resamples.starts()))] if small else None)

    def means(self, values: np.ndarray) -> np.ndarray:
        """The resampled means of each row of ``values`` (rows x B): a pair's come from its own differences alone."""
        out = self.resamples.weighted_sums(values, self.blocks)
        out /= self.resamples.n_queries
        return out


def _exponents(values: np.ndarray) -> np.ndarray:
    """Per row, the power of two ``e`` with the largest ``|value|`` in ``[2**(e-1), 2**e)`` (0 for a row of zeros)."""
    return np.frexp(np.abs(values).max(axis=1))[1].astype(np.int64)


def _count_exceeding(null: np.ndarray, observed: np.ndarray, rounding: Any = 0.0) -> np.ndarray:
    """Per row, how many null statistics reach the observed one in absolute value, up to scipy's tolerance
    and the null statistics' own ``rounding`` (absolute, per row)."""
    threshold = np.abs(observed) * (1.0 - TOLERANCE) - rounding
    return np.count_nonzero(np.abs(null) >= threshold[:, None], axis=1)


def _at_kth_largest(key: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """Per row, the entry of ``values`` where ``key`` has its k-th largest entry (k clipped to 1..B)."""
    b = key.shape[1]
    k = min(max(k, 1), b)
    at = np.argpartition(key, b - k, axis=1)[:, b - k]
    return np.take_along_axis(values, at[:, None], axis=1)[:, 0]


def _test_chunk(
    matrix: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    *,
    test: str,
    interval: str,
    confidence: float,
    alpha: float,
    flips: _PrecomputedResamples | None,
    boot: _PrecomputedResamples | None,
) -> dict[str, np.ndarray]:
    """The tests of a chunk of pairs, rows ``first`` minus rows ``second``, on differences scaled by a power of two."""
    with np.errstate(over="ignore"):  # refused just below
        raw = matrix[first] - matrix[second]
    if not np.all(np.isfinite(raw)):  # values of opposite signs near the largest float
        row, query = (int(k[0]) for k in np.nonzero(~np.isfinite(raw)))
        i, j = int(first[row]), int(second[row])
        raise ValueError(
            f"the differences of rows {i} and {j} (a - b) overflow: at query {query}, "
            f"{float(matrix[i, query])!r} - {float(matrix[j, query])!r} is not a finite float; scale the values down"
        )
    raw[np.abs(raw) <= TIE_TOLERANCE] = 0.0  # a tie is no difference: rounding residues would be "significant"
    exponent = _exponents(raw)
    d = np.ldexp(raw, -exponent[:, None])
    n = d.shape[1]
    mean = d.mean(axis=1)
    zero_mean, constant = rounding_residues(d, mean)  # the rounding policy (module docstring)
    tested_mean = np.where(zero_mean, 0.0, mean)
    # The bootstrap (test and intervals) resamples the centred differences, 0 when constant, so that rounding can
    # neither make a spread nor hide one under the mean's last bits.
    w = np.where(constant[:, None], 0.0, d - mean[:, None])
    sd = np.where(constant, 0.0, d.std(axis=1, ddof=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        effect = np.where(constant, np.nan, mean / sd)
    # Every d_q the same: the t and bootstrap tests have no doubt (p = 1 if they are all 0, else 0).
    degenerate_p = np.where(tested_mean == 0, 1.0, 0.0)
    out = {
        "difference": np.ldexp(mean, exponent),
        "effect_size": effect,
        "wins": np.count_nonzero(raw > TIE_TOLERANCE, axis=1),
        "ties": np.count_nonzero(np.abs(raw) <= TIE_TOLERANCE, axis=1),
        "losses": np.count_nonzero(raw < -TIE_TOLERANCE, axis=1),
        **{key: np.full(mean.shape, np.nan) for key in ("ci_low", "ci_high", "critical_difference")},
    }
    boot_means = None
    if test == "t":
        out["pvalue"] = degenerate_p.copy()
        if np.any(~constant):
            # ttest_rel(a, b) is ttest_1samp(a - b, 0): on the scaled differences, as for every test
            out["pvalue"][~constant] = stats.ttest_1samp(d[~constant], 0.0, axis=1).pvalue
        out["critical_difference"] = stats.t.ppf(1 - alpha / 2, n - 1) * sd / math.sqrt(n)
    elif test == "wilcoxon":
        out["pvalue"] = _wilcoxon(d)
    elif test == "permutation":
        assert flips is not None
        null = flips.means(d)
        count = _count_exceeding(null, tested_mean, mean_rounding(d))
        b = flips.resamples.n_resamples
        if flips.resamples.kind == "exact":
            out["pvalue"] = count / b
            k = math.ceil(math.ceil(2 * b * alpha) / 2)  # the enumerated half holds each |value| half as often
        else:
            out["pvalue"] = (count + 1) / (b + 1)
            k = math.ceil(b * alpha)
        magnitude = np.abs(null)
        out["critical_difference"] = _at_kth_largest(magnitude, magnitude, k)
    else:  # bootstrap (Sakai 2006): studentised mean of the shifted differences w = d - mean
        assert boot is not None
        w_mean, spread = np.split(boot.means(np.vstack([w, w * w])), 2)
        square = w_mean * w_mean
        spread -= square  # n/(n-1) times the resample's variance, i.e. (n-1) se*^2 ...
        np.maximum(spread, 0.0, out=spread)
        square *= n - 1  # ... so t*^2 = (n-1) mean*^2 / spread
        with np.errstate(divide="ignore", invalid="ignore"):
            square /= spread
            t_obs = tested_mean / (sd / math.sqrt(n))
        np.nan_to_num(square, copy=False, nan=0.0, posinf=np.inf)  # 0/0: every drawn w is 0, t* = 0
        b = boot.resamples.n_resamples
        t_star = np.sqrt(square, out=square)  # |t*|: compared with |t| as the permutation test compares means
        count = _count_exceeding(t_star, np.where(constant, 0.0, t_obs))
        out["pvalue"] = np.where(constant, degenerate_p, count / b)
        out["critical_difference"] = np.abs(_at_kth_largest(t_star, w_mean, math.ceil(b * alpha)))
        boot_means = w_mean
    if interval == "t":
        ci = _mean_interval(d, 1, confidence)
        out["ci_low"], out["ci_high"] = (np.where(constant, mean, ci[key]) for key in ("ci_low", "ci_high"))
    elif interval in ("percentile", "bca"):
        assert boot is not None
        boot_means = boot.means(w) if boot_means is None else boot_means
        boot_means += mean[:, None]
        out["ci_low"], out["ci_high"] = bootstrap_interval(boot_means, d, confidence=confidence, interval=interval)
    with np.errstate(over="ignore"):  # an interval reaching past the largest float reaches infinity
        for key in ("ci_low", "ci_high", "critical_difference"):  # back to the scale of the values
            out[key] = np.ldexp(out[key], exponent)
    return out


def _wilcoxon(d: np.ndarray) -> np.ndarray:
    """Two-sided Wilcoxon p-values of each row as ``scipy.stats.wilcoxon`` of that row alone: its ``"auto"`` picks one
    method per batch (not exact once a row has a zero or a tie), so rows with and without are tested apart. Zeros: 1."""
    zero = np.all(d == 0, axis=1)
    magnitudes = np.sort(np.abs(d), axis=1)
    irregular = np.any(d == 0, axis=1) | np.any(magnitudes[:, 1:] == magnitudes[:, :-1], axis=1)
    p = np.ones(d.shape[0])
    for group in (~zero & irregular, ~zero & ~irregular):  # at most two scipy calls, each vectorised
        if np.any(group):
            with warnings.catch_warnings():
                # scipy warns that it switches to the normal approximation when zeros or ties make the exact
                # distribution unavailable; that choice is the documented "auto".
                warnings.simplefilter("ignore", UserWarning)
                p[group] = stats.wilcoxon(d[group], axis=1).pvalue
    return p
