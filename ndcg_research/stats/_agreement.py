"""How stable a ranking of systems is: rank correlations, swap rates over query subsets, variance components."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_array, check_int, check_resamples, type_and_value
from ._inputs import check_level, check_pair, check_scores
from ._paired import TIE_TOLERANCE
from ._resampling import TOLERANCE, mean_error, query_subsets


def kendall_tau(x: Any, y: Any) -> float:
    """Kendall's tau-b between two scorings of the same systems (``scipy.stats.kendalltau``).

    Parameters
    ----------
    x, y : array-like
        Scores of the same systems (1-D, at least 2, finite), e.g. their means under two measures.

    Returns
    -------
    float
        In [-1, 1]; NaN when either scoring gives every system the same score (scipy's kendalltau).

    Examples
    --------
    >>> from ndcg_research.stats import kendall_tau
    >>> kendall_tau([0.4, 0.3, 0.2, 0.1], [0.4, 0.2, 0.3, 0.1])   # one swap of 6 pairs
    0.6666666666666669
    """
    x, y = check_pair(x, y, ("x", "y"), "system scores", "score the same systems")
    return float(stats.kendalltau(x, y).statistic)


def tau_ap(reference: Any, other: Any) -> float:
    """AP rank correlation (Yilmaz, Aslam & Robertson 2008) of ``other``'s ordering against ``reference``'s.

    With the systems ordered by ``other`` (best first), tau_AP = 2 / (N - 1) * sum over i = 2..N of C(i) / (i - 1) - 1,
    where C(i) counts the systems above position ``i`` that ``reference`` also puts above the system at ``i``: not
    symmetric (``reference`` is the truth), 1 for identical orderings, -1 for reversed ones.

    Parameters
    ----------
    reference, other : array-like
        Scores of the same systems (higher is better); no ties within either.

    Returns
    -------
    float
        In [-1, 1].

    Examples
    --------
    A swap at the top costs more than the same swap at the bottom:

    >>> from ndcg_research.stats import tau_ap
    >>> truth = [4, 3, 2, 1]
    >>> round(tau_ap(truth, [3, 4, 2, 1]), 4), round(tau_ap(truth, [4, 3, 1, 2]), 4)
    (0.3333, 0.7778)
    """
    ref, oth = check_pair(reference, other, ("reference", "other"), "system scores", "score the same systems")
    for name, values in (("reference", ref), ("other", oth)):
        if np.unique(values).size != values.size:
            raise ValueError(f"{name} has tied scores; tau_AP is defined for orderings without ties")
    ref_ordered = ref[np.argsort(-oth, kind="stable")]  # systems by `other`, best first
    n = ref.size
    above = np.tril(ref_ordered[None, :] > ref_ordered[:, None], k=-1)  # [i, j]: j above i in both
    correct = above.sum(axis=1)[1:]
    return float(2.0 / (n - 1) * np.sum(correct / np.arange(1, n)) - 1.0)


def swap_rates(scores: Any, sizes: Any, *, trials: int = 100, bins: Any = None, seed: int = 0) -> pd.DataFrame:
    """Swap rate of pairs of systems between disjoint query subsets, by subset size and difference bin.

    Voorhees & Buckley (SIGIR 2002): pairs are binned by their absolute difference on the first subset; a swap is a pair
    the second subset orders the other way (a difference within ``TIE_TOLERANCE`` of 0 is a tie, which never swaps).
    A pair's bin is that of its float difference, without that tolerance: a difference equal to an edge in exact
    arithmetic can round to just below it and count in the lower bin (0.02 as 0.01999...; with rational values such as
    nDCG without a discount this moves a few pairs in 10^4 between neighbouring bins).

    Parameters
    ----------
    scores : 2-D array-like or mapping
        Systems x queries of one measure.
    sizes : int or sequence of int
        Query-subset sizes ``c`` (each at most half the queries), one row of the table per size and bin, in this order.
    trials : int, default 100
        Subset pairs per size.
    bins : array-like, optional
        Increasing edges of the bins of ``|difference on the first subset|``, from 0 so that every pair has a bin; the
        last bin is open to the right. Default ``[0]``: one bin with every pair.
    seed : int, default 0
        Entropy of the subsets; those of each size draw from their own stream, so they do not depend on the other sizes
        asked for.

    Returns
    -------
    pandas.DataFrame
        One row per (size, bin): ``size``, ``bin_low``, ``bin_high``, ``pairs`` (pair-trials in the bin), ``swaps`` and
        ``swap_rate`` (``swaps / pairs``, NaN for an empty bin).

    Examples
    --------
    >>> import numpy as np
    >>> from ndcg_research.stats import swap_rates
    >>> rng = np.random.default_rng(3)
    >>> scores = rng.normal(0.5, 0.2, (5, 60)) + np.arange(5)[:, None] * 0.02
    >>> table = swap_rates(scores, [5, 30], trials=200)
    >>> table[["size", "pairs"]].values.tolist()
    [[5, 2000], [30, 2000]]
    >>> bool(table.swap_rate.iloc[1] < table.swap_rate.iloc[0])   # more queries, fewer swaps
    True
    """
    trials, seed = check_resamples(trials, "trials"), check_int(seed, "seed", low=0)
    bins = check_array(bins, "bins", ndim=1, min_size=1, low=0, none=True)
    matrix = check_scores(scores, "scores").values
    n_queries = matrix.shape[1]

    def check_size(value: Any, name: str) -> int:
        size = check_int(value, name, low=1)
        if 2 * size > n_queries:
            raise ValueError(f"{name} must be at most half the {n_queries} queries (two disjoint subsets), got {size}")
        return size

    if (isinstance(sizes, Sequence) and not isinstance(sizes, (str, bytes))) or np.ndim(sizes) == 1:
        sizes = [check_size(size, f"sizes[{i}]") for i, size in enumerate(sizes)]
    elif isinstance(sizes, (int, np.integer)):
        sizes = [check_size(sizes, "sizes")]
    else:
        raise TypeError(
            f"sizes must be an integer >= 1 or a sequence of them (ordered: the table's rows follow it), "
            f"got {type_and_value(sizes)}"
        )
    if not sizes:
        raise ValueError("sizes must hold at least 1 value, got []")
    edges = np.array([0.0]) if bins is None else bins
    if edges[0] != 0 or np.any(np.diff(edges) <= 0):
        raise ValueError(f"bins must be increasing edges from 0 (every pair has a bin), got {edges.tolist()!r}")
    first, second = np.triu_indices(matrix.shape[0], k=1)
    tables = []
    for size in sizes:
        means = matrix[:, query_subsets(matrix.shape[1], size, trials=trials, seed=seed, count=2)].mean(axis=3)
        d1, d2 = (means[first] - means[second]).transpose(1, 0, 2)  # each pairs x trials
        swapped = ((np.abs(d1) > TIE_TOLERANCE) & (np.abs(d2) > TIE_TOLERANCE) & (d1 * d2 < 0)).ravel()
        where = np.searchsorted(edges, np.abs(d1).ravel(), side="right") - 1
        counts = np.bincount(where, minlength=edges.size)
        swaps = np.bincount(where, weights=swapped, minlength=edges.size)
        rate = np.divide(swaps, counts, out=np.full(edges.size, np.nan), where=counts > 0)
        table = {"size": size, "bin_low": edges, "bin_high": np.append(edges[1:], np.inf), "pairs": counts}
        tables.append(pd.DataFrame({**table, "swaps": swaps.astype(np.int64), "swap_rate": rate}))
    return pd.concat(tables, ignore_index=True)


@dataclass(frozen=True)
class VarianceComponents:
    """Variance components of a systems x topics table (two-way random-effects ANOVA, one value per cell).

    Attributes
    ----------
    system, topic, interaction : float
        Estimated variances of the system effect, the topic effect and the system x topic interaction (confounded with
        noise: one value per cell). The ANOVA estimates ``(MS_system - MS_residual) / topics`` and
        ``(MS_topic - MS_residual) / systems`` can come out negative by chance; they are then reported as 0 (the usual
        convention). A component that is the rounding residue of 0 is 0 (see ``variance_components``).
    systems, topics : int

    The methods give NaN, without a warning, where a value is undefined (0 / 0).
    """

    system: float
    topic: float
    interaction: float
    systems: int
    topics: int

    def shares(self) -> dict[str, float]:
        """Each component's share of their sum; NaN for each when the sum is 0 (a constant table)."""
        parts = {"system": self.system, "topic": self.topic, "interaction": self.interaction}
        total = self.system + self.topic + self.interaction
        return {name: value / total if total else math.nan for name, value in parts.items()}

    def stability(self, topics: Any) -> np.ndarray | float:
        """Generalisability coefficient ``system / (system + interaction / topics)`` (Kanoulas & Aslam 2009).

        ``topics``: a number of topics or an array of them, each finite and >= 1 (the result has its shape). NaN when
        ``system`` and ``interaction`` are both 0 (every system has the same value on every topic: nothing ranks them);
        0 when only ``system`` is.
        """
        topics = check_array(topics, "topics", low=1)
        with np.errstate(invalid="ignore"):  # 0 / 0 when system and interaction are both 0
            value = self.system / (self.system + self.interaction / topics)
        return float(value) if value.ndim == 0 else value

    def topics_for_stability(self, target: float) -> float:
        """Topics needed for a generalisability coefficient of ``target``.

        That is ``target / (1 - target) * interaction / system``: infinity when ``system`` is 0 and ``interaction`` is
        not (no number of topics reaches it), NaN when both are 0 (undefined).
        """
        target = check_level(target, "target")
        if self.system == 0:
            return math.nan if self.interaction == 0 else math.inf
        return target / (1 - target) * self.interaction / self.system


def variance_components(scores: Any) -> VarianceComponents:
    """Variance components of one measure's systems x topics table (Kanoulas & Aslam, CIKM 2009).

    The two-way random-effects ANOVA ``y_st = mu + a_s + b_t + e_st``. A component that is the rounding residue of 0 is
    0: a difference of two mean squares within their rounding (100 machine epsilons of the larger, or what the
    rounding of the means they square can make of it), or a component whose standard deviation is within 100
    epsilons of the mean ``|y_st|``.

    Parameters
    ----------
    scores : 2-D array-like, mapping or pandas.DataFrame
        Systems x topics values of one measure (at least 2 x 2, finite).

    Returns
    -------
    VarianceComponents

    Examples
    --------
    >>> import numpy as np
    >>> from ndcg_research.stats import variance_components
    >>> y = np.array([[0.3, 0.5, 0.9], [0.1, 0.4, 0.7]])   # 2 systems x 3 topics
    >>> v = variance_components(y)
    >>> round(v.system, 4), round(v.topic, 4), round(v.interaction, 4)
    (0.0133, 0.09, 0.0017)

    Two identical systems: no system or interaction variance, exactly.

    >>> v = variance_components(np.vstack([y[0], y[0]]))
    >>> v.system, v.interaction, v.stability(12)
    (0.0, 0.0, nan)
    """
    matrix = check_scores(scores, "scores").values
    s, t = matrix.shape
    grand = matrix.mean()
    system_means = matrix.mean(axis=1)
    topic_means = matrix.mean(axis=0)
    residual = matrix - system_means[:, None] - topic_means[None, :] + grand
    ms_system = t * np.sum((system_means - grand) ** 2) / (s - 1)
    ms_topic = s * np.sum((topic_means - grand) ** 2) / (t - 1)
    ms_residual = np.sum(residual**2) / ((s - 1) * (t - 1))
    # The rounding scale of a variance: (100 eps x mean |y|)^2; below it, a component is a residue of 0.
    floor = (TOLERANCE * float(np.abs(matrix).mean())) ** 2
    # Every deviation (a mean from the grand mean, or a residual) is off by at most ``error`` to first order: a mean of
    # m values by m eps max |y| (m = s or t; the grand mean's error is the same in every deviation, which sum to 0, so
    # it cancels to first order). A mean square MS of K x N deviations over df degrees of freedom is then off by at
    # most 2 error sqrt(K N MS / df) (Cauchy-Schwarz): sqrt(2 K MS) for a factor, sqrt(4 MS) for residuals.
    error = mean_error(max(s, t), float(np.abs(matrix).max()))

    def component(mean_square: float, cells: int) -> float:
        rounding = 2 * error * (math.sqrt(2 * cells * mean_square) + 2 * math.sqrt(ms_residual))
        if mean_square - ms_residual <= max(TOLERANCE * max(mean_square, ms_residual), rounding):  # equal mean squares
            return 0.0
        value = float((mean_square - ms_residual) / cells)
        return value if value > floor else 0.0

    interaction = float(ms_residual)
    return VarianceComponents(
        system=component(ms_system, t),
        topic=component(ms_topic, s),
        interaction=interaction if interaction > floor else 0.0,
        systems=s,
        topics=t,
    )
