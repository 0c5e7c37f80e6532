r"""nDCG@k on the simulated ranking problems of :mod:`ndcg_research.studies.simulate`, with k tied to n (notebook 05).

The theory experiments (:mod:`ndcg_research.studies.sweeps`) sweep the full-list
nDCG; this module adds the cut-off. A **cut-off rule** says how k follows the
list length n; its spec parses and prints back like the discount specs:

==========================  ===========================================
rule                        k(n)
==========================  ===========================================
``fixed(k=10)``             min(10, n)
``power(a=0.5)``            ceil(n ** a)       (``a = 0.5``: k ~ sqrt(n))
``fraction(c=0.1)``         ceil(c * n)
``all``                     n (no cut-off: the full-list nDCG)
==========================  ===========================================

nDCG@k cuts both the ranking and the ideal at k (trec_eval's ``ndcg_cut.k``);
the ideal is built from all n items of the data set.

Reuse, not duplication: every data set and every ranker's scores come from
:func:`ndcg_research.studies.simulate.sample`, so replicate r at length n is the very
data set of the theory sweeps (one ``SeedSequence`` per (experiment, n,
replicate, stream), independent of workers), and the Wilson interval, the
tie tolerance and the checks of a sweep's replicates, seed, specs and pairs are
those of :mod:`ndcg_research.studies.sweeps`. What is new here:
the top-k DCG of several cut-offs from one partial sort per ranker, and the
tables by cut-off rule. Results are not cached on disk (the sweeps of notebook
05 take minutes, not hours); parallelism is joblib over chunks of replicates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import kernels
from ..core.specs import format_call, parse_registered
from ..core.discounts import parse_discount
from .sweeps import TIE_TOLERANCE, _check_pairs, _distinct_specs, _positive_int, _seed, wilson_interval
from ..core.gains import parse_gain
from .simulate import parse_model, parse_ranker, sample

__all__ = [
    "CutoffRule",
    "parse_cutoff",
    "replicate_ndcg_at_k",
    "CutoffSweep",
    "CutoffResult",
    "run_cutoff_sweep",
    "ndcg_by_k",
    "fraction_limit",
]

_RULES = {"fixed": ("k",), "power": ("a",), "fraction": ("c",), "all": ()}
_RULES_VALID = "fixed(k), power(a), fraction(c), all"


@dataclass(frozen=True)
class CutoffRule:
    """How the cut-off k follows the list length n; build it with :func:`parse_cutoff`.

    Examples
    --------
    >>> [parse_cutoff(s).k(10_000) for s in ["fixed(k=10)", "power(a=0.5)", "fraction(c=0.1)", "all"]]
    [10, 100, 1000, 10000]
    """

    kind: str
    value: float = 0.0

    def k(self, n: int) -> int:
        """The cut-off for a list of n items (between 1 and n).

        Parameters
        ----------
        n : int
            List length, >= 1.

        Returns
        -------
        int
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
        if self.kind == "fixed":
            k = int(self.value)
        elif self.kind == "power":
            # The small slack keeps exact powers exact (1e4 ** 0.5 = 100, not 101).
            k = math.ceil(n ** self.value - 1e-9)
        elif self.kind == "fraction":
            k = math.ceil(self.value * n - 1e-9)
        else:
            k = n
        return int(min(max(k, 1), n))

    def __str__(self) -> str:
        if self.kind == "all":
            return "all"
        name = _RULES[self.kind][0]
        value = int(self.value) if self.kind == "fixed" else self.value
        return format_call(self.kind, {name: value})

    def __repr__(self) -> str:
        return f"parse_cutoff({str(self)!r})"


def parse_cutoff(spec: str | CutoffRule) -> CutoffRule:
    """Parse a cut-off rule: ``fixed(k=K)``, ``power(a=A)`` (0 < A < 1), ``fraction(c=C)`` (0 < C <= 1), ``all``.

    Examples
    --------
    >>> str(parse_cutoff("power( a=0.50 )")), str(parse_cutoff("fixed(k=10)"))
    ('power(a=0.5)', 'fixed(k=10)')
    >>> parse_cutoff("fraction(c=2)")
    Traceback (most recent call last):
    ...
    ValueError: cut-off rule 'fraction' needs 0 < c <= 1, got 2
    """
    if isinstance(spec, CutoffRule):
        return spec
    name, kwargs = parse_registered(spec, _RULES, what="cut-off rule", valid=f"valid rules: {_RULES_VALID}")
    if name == "all":
        return CutoffRule("all")
    (key,) = _RULES[name]
    value = kwargs[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"cut-off rule {name!r} needs a number {key}, got {value!r}")
    if name == "fixed" and (not isinstance(value, int) or value < 1):
        raise ValueError(f"cut-off rule 'fixed' needs an integer k >= 1, got {value!r}")
    if name == "power" and not 0 < value < 1:
        raise ValueError(f"cut-off rule 'power' needs 0 < a < 1, got {value!r}")
    if name == "fraction" and not 0 < value <= 1:
        raise ValueError(f"cut-off rule 'fraction' needs 0 < c <= 1, got {value!r}")
    return CutoffRule(name, value)


def _top_order(scores: np.ndarray, depth: int) -> np.ndarray:
    """Indices of the ``depth`` highest scores, best first (one partial sort)."""
    n = scores.size
    if depth >= n:
        return np.argsort(-scores, kind="stable")
    part = np.argpartition(-scores, depth - 1)[:depth]
    return part[np.argsort(-scores[part], kind="stable")]


def replicate_ndcg_at_k(
    model: str,
    rankers: Sequence[str],
    discounts: Sequence[str],
    n: int,
    ks: Sequence[int],
    *,
    entropy: int,
    replicate: int,
    gain: str = "linear",
) -> np.ndarray:
    """nDCG@k of every ranker, discount and cut-off on one simulated data set.

    The data set and the scores are :func:`ndcg_research.studies.simulate.sample`'s.
    Per ranker one partial sort of the top ``max(ks)`` items; the ideal is
    counted by grade level (no sort). Rankers must not produce tied scores
    (``bayes``, ``noisy``, ``random``); ``coarse`` is rejected.

    Parameters
    ----------
    model : str
        Model spec, e.g. ``"probit(lo=0.1, hi=0.6)"``.
    rankers, discounts : sequence of str
        Specs.
    n : int
        Number of items.
    ks : sequence of int
        Cut-offs, each in 1..n.
    entropy, replicate : int
        Seed of the experiment and replicate number.
    gain : str, default "linear"

    Returns
    -------
    numpy.ndarray
        Shape ``(len(rankers), len(discounts), len(ks))``; 0 where the ideal is 0.

    Examples
    --------
    >>> import ndcg_research as nr
    >>> v = replicate_ndcg_at_k("probit", ["bayes"], ["log2"], 200, [5, 200], entropy=1, replicate=0)
    >>> s = sample("probit", ["bayes"], 200, entropy=1, replicate=0)
    >>> bool(np.isclose(v[0, 0, 0], nr.ndcg_from_scores(s.grades, s.scores["bayes"], 5)))
    True
    """
    model_obj = parse_model(model)
    ranker_objs = [parse_ranker(r) for r in rankers]
    for r in ranker_objs:
        if r.kind == "coarse":
            raise ValueError(f"rankers: {str(r)!r} ties items within bins; nDCG@k here needs tie-free rankers "
                             f"(bayes, noisy, random)")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    ks_array = np.asarray(list(ks))
    if ks_array.ndim != 1 or ks_array.size == 0 or ks_array.dtype.kind not in "iu" or ks_array.min() < 1 or ks_array.max() > n:
        raise ValueError(f"ks must be a non-empty list of integers in 1..{n}, got {list(ks)!r}")
    gain_fn = parse_gain(gain)
    depth = int(ks_array.max())
    s = sample(model_obj, ranker_objs, int(n), entropy=entropy, replicate=replicate)
    gains = gain_fn(s.grades)
    vectors = [kernels.discount_vector(parse_discount(d), depth) for d in discounts]

    # Ideal top-`depth` gains by counting grade levels (grades are integers 0..G) with the core's level counts.
    # (kernels.ideal_dcg sums in another order, so its values can differ in the last bits: not used.)
    levels = np.arange(model_obj.grades, 0, -1, dtype=np.float64)
    at_least = kernels.count_at_least(s.grades[None, :], model_obj.grades)[0]  # count(>= g), g = 1..G
    counts = np.diff(at_least[::-1], prepend=0)  # count(== g) = count(>= g) - count(>= g+1), g = G..1
    ideal = np.repeat(gain_fn(levels), counts)[:depth]
    ideal = np.pad(ideal, (0, depth - ideal.size))
    idcg = np.array([np.cumsum(ideal * v)[ks_array - 1] for v in vectors])  # (discounts, ks)

    out = np.empty((len(ranker_objs), len(vectors), ks_array.size))
    for i, ranker in enumerate(ranker_objs):  # loop over rankers
        ranked = gains[_top_order(s.scores[str(ranker)], depth)]
        dcg = np.array([np.cumsum(ranked * v)[ks_array - 1] for v in vectors])
        out[i] = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    return out


@dataclass(frozen=True)
class CutoffSweep:
    """One cut-off experiment: model, rankers, discounts, cut-off rules, list lengths, replicates, seed.

    Build it with :meth:`CutoffSweep.build`, which canonicalises every spec.

    Examples
    --------
    >>> s = CutoffSweep.build("probit", ns=[100, 1000], replicates=20, seed=1, rules=["fixed(k=10)", "all"])
    >>> s.rules, s.ks(1000)
    (('fixed(k=10)', 'all'), [10, 1000])
    """

    model: str
    ns: tuple[int, ...]
    replicates: int
    rankers: tuple[str, ...]
    discounts: tuple[str, ...]
    rules: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    seed: int
    gain: str = "linear"

    @classmethod
    def build(
        cls,
        model: str,
        *,
        ns: Iterable[int],
        replicates: int,
        seed: int,
        rankers: Iterable[str] = ("bayes", "noisy(sigma=0.5)", "noisy(sigma=1)", "random"),
        discounts: Iterable[str] = ("power(beta=2)", "zipf", "log2", "loglog"),
        rules: Iterable[str] = ("fixed(k=10)", "power(a=0.5)", "fraction(c=0.1)", "all"),
        pairs: Iterable[Sequence[str]] = (("bayes", "noisy(sigma=0.5)"), ("bayes", "noisy(sigma=1)")),
        gain: str = "linear",
    ) -> CutoffSweep:
        """Check and canonicalise a sweep (arguments as the attributes; pairs are (better, worse))."""
        model_spec = str(parse_model(model))
        ns = list(ns)
        ns_list = sorted({_positive_int(n, "every n") for n in ns})
        if not ns_list or len(ns_list) != len(ns):
            raise ValueError(f"ns must be distinct positive integers, got {list(ns)!r}")
        replicates = _positive_int(replicates, "replicates")
        seed = _seed(seed)
        ranker_specs = tuple(str(parse_ranker(r)) for r in rankers)
        discount_specs = tuple(str(parse_discount(d)) for d in discounts)
        rule_specs = tuple(str(parse_cutoff(r)) for r in rules)
        for what, specs in (("rankers", ranker_specs), ("discounts", discount_specs), ("rules", rule_specs)):
            _distinct_specs(what, specs)
        pair_specs = _check_pairs(pairs, ranker_specs)
        return cls(model_spec, tuple(ns_list), replicates, ranker_specs, discount_specs, rule_specs,
                   pair_specs, seed, str(parse_gain(gain)))

    def ks(self, n: int) -> list[int]:
        """The cut-off of every rule at list length n."""
        return [parse_cutoff(r).k(n) for r in self.rules]


def _chunk(sweep: CutoffSweep, n: int, start: int, stop: int) -> np.ndarray:
    ks = sweep.ks(n)
    return np.stack([
        replicate_ndcg_at_k(sweep.model, sweep.rankers, sweep.discounts, n, ks, entropy=sweep.seed, replicate=r,
                            gain=sweep.gain)
        for r in range(start, stop)  # loop over replicates (data sets)
    ])


@dataclass
class CutoffResult:
    """``values[n]``: nDCG@k of shape (replicates, rankers, discounts, rules)."""

    sweep: CutoffSweep
    values: dict[int, np.ndarray]

    def get(self, ranker: str, discount: str, rule: str, n: int) -> np.ndarray:
        """nDCG@k(n) of one ranker and discount in every replicate."""
        s = self.sweep
        return self.values[n][:, s.rankers.index(str(parse_ranker(ranker))),
                              s.discounts.index(str(parse_discount(discount))), s.rules.index(str(parse_cutoff(rule)))]

    def mean_rows(self) -> list[dict[str, Any]]:
        """One row per (rule, discount, ranker, n): k, mean nDCG@k, sd and 95% t-interval."""
        from scipy import stats

        s = self.sweep
        rows = []
        for rule in s.rules:
            for discount in s.discounts:
                for ranker in s.rankers:
                    for n in s.ns:
                        v = self.get(ranker, discount, rule, n)
                        sd = float(v.std(ddof=1)) if v.size > 1 else math.nan
                        half = float(stats.t.ppf(0.975, v.size - 1) * sd / math.sqrt(v.size)) if v.size > 1 else math.nan
                        rows.append(dict(rule=rule, discount=discount, ranker=ranker, n=n, k=parse_cutoff(rule).k(n),
                                         replicates=v.size, mean=float(v.mean()), sd=sd,
                                         ci_low=float(v.mean()) - half, ci_high=float(v.mean()) + half))
        return rows

    def pair_rows(self, tie_tol: float = TIE_TOLERANCE) -> list[dict[str, Any]]:
        """One row per (rule, discount, pair, n): P(better strictly higher) with a Wilson 95% interval.

        Columns: rule, discount, better, worse, n, k, replicates, mean_gap, sd_gap,
        p_better, p_better_low, p_better_high, p_tie (|gap| <= tie_tol), p_worse,
        std_gap (mean_gap / sd_gap; NaN when sd_gap = 0).
        """
        s = self.sweep
        rows = []
        for rule in s.rules:
            for discount in s.discounts:
                for better, worse in s.pairs:
                    for n in s.ns:
                        gap = self.get(better, discount, rule, n) - self.get(worse, discount, rule, n)
                        m = gap.size
                        wins = int(np.count_nonzero(gap > tie_tol))
                        losses = int(np.count_nonzero(gap < -tie_tol))
                        low, high = wilson_interval(wins, m)
                        sd = float(gap.std(ddof=1)) if m > 1 else math.nan
                        rows.append(dict(rule=rule, discount=discount, better=better, worse=worse, n=n,
                                         k=parse_cutoff(rule).k(n), replicates=m, mean_gap=float(gap.mean()), sd_gap=sd,
                                         p_better=wins / m, p_better_low=low, p_better_high=high,
                                         p_tie=(m - wins - losses) / m, p_worse=losses / m,
                                         std_gap=float(gap.mean()) / sd if sd and sd > 0 else math.nan))
        return rows


def run_cutoff_sweep(sweep: CutoffSweep, *, n_jobs: int = 1, chunk_items: int = 2_000_000) -> CutoffResult:
    """Compute every (n, replicate) of a sweep, in chunks of replicates, optionally in parallel (joblib).

    Values do not depend on ``n_jobs`` or ``chunk_items``: each replicate has its own seeds.

    Parameters
    ----------
    sweep : CutoffSweep
    n_jobs : int, default 1
    chunk_items : int, default 2_000_000
        Target items (replicates x n) per chunk of work.

    Returns
    -------
    CutoffResult

    Examples
    --------
    >>> s = CutoffSweep.build("probit", ns=[50], replicates=3, seed=0, rankers=["bayes", "random"],
    ...                       discounts=["log2"], rules=["fixed(k=10)"], pairs=[("bayes", "random")])
    >>> run_cutoff_sweep(s).values[50].shape
    (3, 2, 1, 1)
    """
    if not isinstance(sweep, CutoffSweep):
        raise TypeError(f"sweep must be a CutoffSweep (see CutoffSweep.build), got {type(sweep).__name__}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer, got {n_jobs!r}")
    chunks = []
    for n in sweep.ns:
        size = max(1, chunk_items // n)
        chunks.extend((n, start, min(start + size, sweep.replicates)) for start in range(0, sweep.replicates, size))
    if n_jobs == 1:
        parts = [_chunk(sweep, *c) for c in chunks]
    else:
        from joblib import Parallel, delayed

        parts = Parallel(n_jobs=n_jobs)(delayed(_chunk)(sweep, *c) for c in chunks)
    values = {n: np.concatenate([p for c, p in zip(chunks, parts) if c[0] == n]) for n in sweep.ns}
    return CutoffResult(sweep, values)


def ndcg_by_k(
    model: str,
    ranker: str,
    discount: str,
    n: int,
    ks: Sequence[int],
    *,
    replicates: int,
    seed: int,
    gain: str = "linear",
) -> np.ndarray:
    """nDCG@k of one ranker for many cut-offs k on ``replicates`` data sets of n items.

    Parameters
    ----------
    model, ranker, discount : str
    n : int
    ks : sequence of int
        Cut-offs in 1..n.
    replicates, seed : int
    gain : str, default "linear"

    Returns
    -------
    numpy.ndarray
        Shape ``(replicates, len(ks))``.

    Examples
    --------
    >>> v = ndcg_by_k("probit", "bayes", "log2", 100, [1, 10, 100], replicates=5, seed=0)
    >>> v.shape
    (5, 3)
    """
    replicates = _positive_int(replicates, "replicates")
    return np.stack([
        replicate_ndcg_at_k(model, [ranker], [discount], n, ks, entropy=seed, replicate=r, gain=gain)[0, 0]
        for r in range(replicates)  # loop over data sets
    ])


def fraction_limit(model: str, ranker: str, c: float, gain: str = "linear") -> float:
    r"""Heuristic limit of nDCG@k with ``k = c n`` under a slowly varying discount (log2, loglog, ...).

    Over ranks 1..cn a slowly varying discount is asymptotically flat in the relative
    rank t = r/n, so nDCG@cn tends to the ratio of the mean gain in the top fraction c:

    .. math:: \lim \mathrm{nDCG@}cn = \int_0^c g_f(t)\,dt \Big/ \int_0^c g^*(t)\,dt

    with the ranker's and the ideal gain profiles of :mod:`ndcg_research.studies.theory`.
    Unlike the full list (c = 1, limit 1 for every ranker), the limit depends on the ranker.

    Parameters
    ----------
    model, ranker : str
    c : float
        Fraction in (0, 1].
    gain : str, default "linear"

    Returns
    -------
    float

    Examples
    --------
    >>> round(fraction_limit("probit", "bayes", 0.1), 6)   # g(t) = 1 - t, g* = 1 on [0, 1/2)
    0.95
    >>> round(fraction_limit("probit", "bayes", 1.0), 6)
    1.0
    """
    from scipy import integrate

    from . import theory

    if not (isinstance(c, (int, float)) and not isinstance(c, bool) and 0 < c <= 1):
        raise ValueError(f"c must be a fraction in (0, 1], got {c!r}")
    g = theory.gain_profile(model, ranker, gain)
    star = theory.ideal_profile(model, gain)
    grid = np.unique(np.concatenate(([0.0, c], star.edges[(star.edges > 0) & (star.edges < c)])))

    def area(profile: Any) -> float:
        return float(sum(
            integrate.quad(lambda t: float(profile(np.array([t]))[0]), a, b, epsabs=1e-13, epsrel=1e-11)[0]
            for a, b in zip(grid[:-1], grid[1:])  # loop over the ideal's steps
        ))

    return area(g) / area(star)
