r"""nDCG@k on the simulated ranking problems of :mod:`ndcg_research.studies.simulation.simulate`, with k tied to n (notebook 05).

The theory experiments (:mod:`ndcg_research.studies.simulation.sweeps`) sweep the full-list
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

A :class:`CutoffSweep` is a :class:`~ndcg_research.studies.simulation.sweeps.Sweep` with one more
axis, the rules: it runs with :func:`~ndcg_research.studies.simulation.sweeps.run_sweep` (chunks,
workers, cache) and gives a :class:`~ndcg_research.studies.simulation.sweeps.SweepResult` with the
same tables, plus the rule and k columns. Replicate r at length n is the data set of
:func:`ndcg_research.studies.simulation.simulate.sample`, i.e. the very data set of the theory sweeps.
Per ranker one partial sort (:func:`ndcg_research.core.ranking.top_order`) of the top
``max(k)`` items serves every rule and discount; the DCG and the ideal DCG are the core's
(:mod:`ndcg_research.core.kernels`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...core import kernels
from ...core.discounts import parse_discount
from ...core.gains import parse_gain
from ...core.ranking import top_order
from ...core.specs import format_call, parse_registered
from ...core.validation import check_integer, check_number
from ...stats.intervals import CONFIDENCE, family_confidence, wilson_interval
from ...stats.thresholds import threshold
from . import scaling
from ..runtime.replicates import Chunk
from ..runtime.reporting import agreement_counts, trend_agreement
from .model import Ranker, parse_model, parse_ranker
from .simulate import sample
from .sweeps import Sweep, distinct_specs

__all__ = [
    "CutoffRule",
    "parse_cutoff",
    "replicate_ndcg_at_k",
    "CutoffSweep",
    "ndcg_by_k",
    "fraction_limit",
    "KEEPS_AT_LEAST",
    "LOSES_AT_MOST",
    "verdict_table",
    "trend_table",
    "threshold_table",
    "growth_answer_lines",
]

#: A cell *keeps* distinguishability when the family-wise lower bound of P(better strictly higher)
#: at the largest n is at least this (``cutoff_keeps_lower`` in ``stats/thresholds.toml``, with when it was fixed).
KEEPS_AT_LEAST = threshold("cutoff_keeps_lower")
#: A cell *loses* it when the family-wise upper bound is at most this: the better ranker wins
#: strictly on at most 60% of the data sets, little better than a coin flip (or ties dominate)
#: (``cutoff_loses_upper``).
LOSES_AT_MOST = threshold("cutoff_loses_upper")

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
        n = check_integer(n, "n")
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

    @property
    def exponent(self) -> float:
        """The a of ``k ~ n^a``: 0 for a fixed k, a for ``power(a)``, 1 for a fraction of n or the whole list.

        Examples
        --------
        >>> [parse_cutoff(s).exponent for s in ["fixed(k=10)", "power(a=0.25)", "fraction(c=0.1)", "all"]]
        [0.0, 0.25, 1.0, 1.0]
        """
        return {"fixed": 0.0, "power": float(self.value)}.get(self.kind, 1.0)

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
    if name == "fixed":
        return CutoffRule(name, check_integer(kwargs[key], "cut-off rule 'fixed' parameter k"))
    value = check_number(kwargs[key], f"cut-off rule {name!r} parameter {key}")
    given = kwargs[key]
    if name == "power" and not 0 < value < 1:
        raise ValueError(f"cut-off rule 'power' needs 0 < a < 1, got {given!r}")
    if name == "fraction" and not 0 < value <= 1:
        raise ValueError(f"cut-off rule 'fraction' needs 0 < c <= 1, got {given!r}")
    return CutoffRule(name, value)


def _tie_free(rankers: Iterable[Ranker]) -> list[Ranker]:
    rankers = list(rankers)
    for r in rankers:
        if r.kind == "coarse":
            raise ValueError(f"rankers: {str(r)!r} ties items within bins; nDCG@k here needs tie-free rankers "
                             f"(bayes, noisy, random)")
    return rankers


def replicate_ndcg_at_k(
    model: str,
    rankers: Sequence[str],
    discounts: Sequence[str],
    n: int,
    ks: Sequence[int],
    *,
    seed: int,
    replicate: int,
    gain: str = "linear",
) -> np.ndarray:
    """nDCG@k of every ranker, discount and cut-off on one simulated data set.

    The data set and the scores are :func:`ndcg_research.studies.simulation.simulate.sample`'s.
    Per ranker one partial sort of the top ``max(ks)`` items; DCG and ideal DCG are
    the metric core's. Rankers must not produce tied scores (``bayes``, ``noisy``,
    ``random``); ``coarse`` is rejected.

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
    seed, replicate : int
        Seed of the experiment and replicate number.
    gain : str, default "linear"

    Returns
    -------
    numpy.ndarray
        Shape ``(len(rankers), len(discounts), len(ks))``; 0 where the ideal is 0.

    Examples
    --------
    >>> import ndcg_research as nr
    >>> v = replicate_ndcg_at_k("probit", ["bayes"], ["log2"], 200, [5, 200], seed=1, replicate=0)
    >>> s = sample("probit", ["bayes"], 200, seed=1, replicate=0)
    >>> bool(np.isclose(v[0, 0, 0], nr.ndcg_from_scores(s.grades, s.scores["bayes"], 5)))
    True
    """
    model_obj = parse_model(model)
    ranker_objs = _tie_free(parse_ranker(r) for r in rankers)
    n = check_integer(n, "n")
    ks = [check_integer(k, "every k") for k in ks]
    if not ks or max(ks) > n:
        raise ValueError(f"ks must be a non-empty list of integers in 1..{n}, got {ks!r}")
    gain_fn = parse_gain(gain, builtin_only=True)
    discount_fns = [parse_discount(d, builtin_only=True) for d in discounts]
    s = sample(model_obj, ranker_objs, n, seed=seed, replicate=replicate)
    # The core's kernels, not its checked metric functions: the grades and gains are this function's own,
    # and the checks would cost more than the cut sums themselves (one per discount and k).
    grades = s.grades.astype(np.int8)[None, :]  # integer grades 0..G: 1-byte int8 sorts fastest
    idcg = np.array([[kernels.ideal_dcg(grades, gain_fn, d, k, name="grades")[0] for k in ks] for d in discount_fns])
    gains = gain_fn(s.grades)
    out = np.empty((len(ranker_objs), len(discount_fns), len(ks)))
    for i, ranker in enumerate(ranker_objs):  # loop over rankers
        ranked = gains[top_order(s.scores[str(ranker)], max(ks))][None, :]
        dcg = np.array([[kernels.ranked_dcg(ranked, d, k)[0] for k in ks] for d in discount_fns])
        out[i] = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    return out


@dataclass(frozen=True)
class CutoffSweep(Sweep):
    """A :class:`~ndcg_research.studies.simulation.sweeps.Sweep` with cut-off rules: nDCG@k(n) for every rule.

    Build it with :meth:`CutoffSweep.build`; run it with
    :func:`~ndcg_research.studies.simulation.sweeps.run_sweep`. Values have shape
    (replicates, rankers, discounts, rules).

    Examples
    --------
    >>> s = CutoffSweep.build("probit", ns=[100, 1000], replicates=20, seed=1, rules=["fixed(k=10)", "all"])
    >>> s.rules, s.ks(1000)
    (('fixed(k=10)', 'all'), [10, 1000])
    """

    rules: tuple[str, ...] = ("all",)

    @classmethod
    def build(
        cls,
        model: str,
        *,
        rules: Iterable[str] = ("fixed(k=10)", "power(a=0.5)", "fraction(c=0.1)", "all"),
        rankers: Iterable[str] = ("bayes", "noisy(sigma=0.5)", "noisy(sigma=1)", "random"),
        discounts: Iterable[str] = ("power(beta=2)", "zipf", "log2", "loglog"),
        pairs: Iterable[Sequence[str]] = (("bayes", "noisy(sigma=0.5)"), ("bayes", "noisy(sigma=1)")),
        **common: Any,
    ) -> CutoffSweep:
        """Check and canonicalise a sweep: the cut-off ``rules`` and the arguments of
        :meth:`Sweep.build` (``ns``, ``replicates``, ``seed`` and ``gain`` are passed on).

        Rankers must be tie-free (``coarse`` is rejected).
        """
        rankers = [str(r) for r in _tie_free(parse_ranker(r) for r in rankers)]
        rule_specs = distinct_specs("rules", (str(parse_cutoff(r)) for r in rules))
        return super().build(model, rankers=rankers, discounts=discounts, pairs=pairs, rules=rule_specs, **common)

    def axes(self) -> dict[str, tuple[str, ...]]:
        """Rankers, discounts and rules: the axes of one replicate's values."""
        return {**super().axes(), "rule": self.rules}

    def canonical(self, axis: str, label: str) -> str:
        """The canonical spelling of a ranker, discount or rule."""
        return str(parse_cutoff(label)) if axis == "rule" else super().canonical(axis, label)

    def table_axes(self) -> tuple[str, ...]:
        """Tables by rule, then discount, then ranker (or pair)."""
        return ("rule", *super().table_axes())

    def ks(self, n: int) -> list[int]:
        """The cut-off of every rule at list length n."""
        return [parse_cutoff(r).k(n) for r in self.rules]

    def compute_chunk(self, chunk: Chunk) -> np.ndarray:
        """nDCG@k of the replicates of ``chunk``: shape (replicates, rankers, discounts, rules)."""
        ks = self.ks(chunk.n)
        return np.stack([
            replicate_ndcg_at_k(self.model, self.rankers, self.discounts, chunk.n, ks, seed=self.seed, replicate=r,
                                gain=self.gain)
            for r in range(chunk.start, chunk.stop)  # loop over replicates (data sets)
        ])

    def annotate(self, table: pd.DataFrame) -> pd.DataFrame:
        """The columns of :meth:`Sweep.annotate`, plus the cut-off ``k`` of the rule at n."""
        table = super().annotate(table)
        k = {(r, n): parse_cutoff(r).k(n) for r in self.rules for n in self.ns}
        table.insert(table.columns.get_loc("n") + 1, "k", [k[r, n] for r, n in zip(table["rule"], table["n"])])
        return table


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
    replicates = check_integer(replicates, "replicates")
    return np.stack([
        replicate_ndcg_at_k(model, [ranker], [discount], n, ks, seed=seed, replicate=r, gain=gain)[0, 0]
        for r in range(replicates)  # loop over data sets
    ])


def fraction_limit(model: str, ranker: str, c: float, *, gain: str = "linear") -> float:
    r"""Heuristic limit of nDCG@k with ``k = c n`` under a slowly varying discount (log2, loglog, ...).

    Over ranks 1..cn a slowly varying discount is asymptotically flat in the relative
    rank t = r/n, so nDCG@cn tends to the ratio of the mean gain in the top fraction c:

    .. math:: \lim \mathrm{nDCG@}cn = \int_0^c g_f(t)\,dt \Big/ \int_0^c g^*(t)\,dt

    with the ranker's and the ideal gain profiles of :mod:`ndcg_research.studies.simulation.theory`.
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

    if not 0 < check_number(c, "c") <= 1:
        raise ValueError(f"c must be a fraction in (0, 1], got {c!r}")
    g = theory.gain_profile(model, ranker, gain=gain)
    star = theory.ideal_profile(model, gain=gain)
    grid = np.unique(np.concatenate(([0.0, c], star.edges[(star.edges > 0) & (star.edges < c)])))

    def area(profile: Any) -> float:
        return float(sum(
            integrate.quad(lambda t: float(profile(np.array([t]))[0]), a, b, epsabs=1e-13, epsrel=1e-11)[0]
            for a, b in zip(grid[:-1], grid[1:])  # loop over the ideal's steps
        ))

    return area(g) / area(star)


def verdict_table(pair_table: pd.DataFrame, better: str, worse: str, *, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Does each (model, rule, discount) keep the better ranker ahead at the largest n? With family-wise intervals.

    For the pair (better, worse), each (model, rule, discount) cell of a cut-off pair table
    gets the Wilson interval of P(better strictly higher) at its largest n at the confidence
    that makes all cells' intervals hold together (Bonferroni,
    :func:`~ndcg_research.stats.intervals.family_confidence`), and a verdict: ``keeps``
    (lower bound >= :data:`KEEPS_AT_LEAST`), ``loses`` (upper bound <= :data:`LOSES_AT_MOST`)
    or ``undecided``. The trend compares the smallest and the largest n with the ordinary
    95% intervals: ``rising`` or ``falling`` when they do not overlap, else ``flat``.

    Returns
    -------
    pandas.DataFrame
        Columns: model, rule, discount, better, worse, n_first, n_last, replicates,
        p_better_first, p_better_last, family_low, family_high, family_size,
        family_confidence, p_tie_last, verdict, trend.
    """
    rows = pair_table[(pair_table["better"] == better) & (pair_table["worse"] == worse)]
    cells = list(rows.groupby(["model", "rule", "discount"], sort=False))
    level = family_confidence(len(cells), confidence=confidence)
    out = []
    for (model, rule, discount), cell in cells:
        cell = cell.sort_values("n")
        first, last = cell.iloc[0], cell.iloc[-1]
        trials = int(last["replicates"])
        wins = int(round(last["p_better"] * trials))
        low, high = wilson_interval(wins, trials, confidence=level)
        verdict = "keeps" if low >= KEEPS_AT_LEAST else ("loses" if high <= LOSES_AT_MOST else "undecided")
        if last["p_better_low"] > first["p_better_high"]:
            trend = "rising"
        elif last["p_better_high"] < first["p_better_low"]:
            trend = "falling"
        else:
            trend = "flat"
        out.append(dict(model=model, rule=rule, discount=discount, better=better, worse=worse,
                        n_first=int(first["n"]), n_last=int(last["n"]), replicates=trials,
                        p_better_first=float(first["p_better"]), p_better_last=float(last["p_better"]),
                        family_low=low, family_high=high, family_size=len(cells), family_confidence=level,
                        p_tie_last=float(last["p_tie"]), verdict=verdict, trend=trend))
    return pd.DataFrame(out)


def trend_table(pair_table: pd.DataFrame, heuristic: pd.DataFrame | None = None) -> pd.DataFrame:
    """Does the standardized gap of nDCG@k(n) grow with n, per (model, rule, discount, pair), against the scaling law?

    The exponent of ``d ~ c n^e`` is fitted over the upper half of the n grid
    (:func:`~ndcg_research.studies.simulation.scaling.gap_trend`, interval at the threshold
    ``trend_confidence``): ``grows`` (interval above 0), ``shrinks`` (below), ``flat``, or
    ``undefined`` (no fit). The law is
    :func:`~ndcg_research.studies.simulation.scaling.gap_exponent` at the rule's exponent a (fixed k: 0),
    with the threshold a* (:func:`~ndcg_research.studies.simulation.scaling.cutoff_threshold`); it predicts
    ``grows`` or ``shrinks`` when its exponent is farther than the threshold ``exponent_margin``
    from 0, and makes no call otherwise.

    Parameters
    ----------
    pair_table : DataFrame
        A cut-off sweep's pair table (model, rule, discount, better, worse, n, std_gap, std_gap_se, ...).
    heuristic : DataFrame, optional
        :func:`~ndcg_research.studies.simulation.scaling.heuristic_table` rows with a ``rule`` column: their
        least-squares log-slope over the same n is added as ``heuristic_exponent``.

    Returns
    -------
    pandas.DataFrame
        Columns: model, rule, a, discount, better, worse, n_from, n_to, exponent, exponent_low,
        exponent_high, measured, law_exponent, a_star, predicted (``grows``, ``shrinks`` or
        ``no call``), heuristic_exponent, agreement
        (:func:`~ndcg_research.studies.runtime.reporting.trend_agreement`).
    """
    confidence, margin = threshold("trend_confidence"), threshold("exponent_margin")
    keys = ["model", "rule", "discount", "better", "worse"]
    growth = scaling.gap_trend(pair_table, keys, confidence)
    rows = []
    for r in growth.itertuples(index=False):
        a = parse_cutoff(r.rule).exponent
        law = scaling.gap_exponent(r.model, r.better, r.worse, r.discount, a).exponent
        measured = r.trend
        predicted = "grows" if law > margin else "shrinks" if law < -margin else "no call"
        local = np.nan
        if heuristic is not None:
            h = heuristic[(heuristic["model"] == r.model) & (heuristic["rule"] == r.rule)
                          & (heuristic["discount"] == r.discount) & (heuristic["better"] == r.better)
                          & (heuristic["worse"] == r.worse) & (heuristic["n"] >= r.n_from)]
            local = scaling.local_exponent(h["n"], h["heuristic_d"])
        rows.append(dict(model=r.model, rule=r.rule, a=a, discount=r.discount, better=r.better, worse=r.worse,
                         n_from=r.n_from, n_to=r.n_to, exponent=r.exponent, exponent_low=r.exponent_low,
                         exponent_high=r.exponent_high, measured=measured, law_exponent=law,
                         a_star=scaling.cutoff_threshold(r.model, r.better, r.worse, r.discount),
                         predicted=predicted, heuristic_exponent=local,
                         agreement=trend_agreement(predicted, measured)))
    return pd.DataFrame(rows)


def threshold_table(trend: pd.DataFrame, model: str) -> pd.DataFrame:
    """One model's cut-off thresholds: per discount (row) and pair (column group), the law's threshold a* and
    the measured trend of the standardized gap at each rule, in the order of a.

    Examples
    --------
    >>> t = pd.DataFrame(dict(model="m", discount="log2", better="a", worse="b", rule=["fixed(k=10)", "power(a=0.5)"],
    ...                       a=[0.0, 0.5], a_star=0.4, measured=["shrinks", "grows"], predicted=["shrinks", "grows"]))
    >>> threshold_table(t, "m").loc["log2"].tolist()
    ['0.4', 'shrinks, grows', 'shrinks, grows']
    """
    rows = trend[trend["model"] == model].sort_values("a", kind="stable")
    discounts = list(dict.fromkeys(rows["discount"]))
    columns = {}
    for (better, worse), g in rows.groupby(["better", "worse"], sort=False):
        pair = f"{better} > {worse}"
        a_values = ", ".join(f"{a:g}" for a in dict.fromkeys(g["a"]))
        by = g.groupby("discount", sort=False)
        columns[(pair, "threshold a* (law)")] = [_a_text(by.get_group(d)["a_star"].iloc[0]) for d in discounts]
        columns[(pair, f"measured at a = {a_values}")] = [", ".join(by.get_group(d)["measured"]) for d in discounts]
        columns[(pair, "law predicts")] = [", ".join(by.get_group(d)["predicted"]) for d in discounts]
    return pd.DataFrame(columns, index=pd.Index(discounts, name="discount"))


def _a_text(a_star: float) -> str:
    """``'0.57'``, ``'none <= 1'`` (the gap grows for no a) or ``'0'`` (for every a)."""
    return "none <= 1" if not math.isfinite(a_star) else f"{round(float(a_star), 2) + 0.0:g}"


def growth_answer_lines(trend: pd.DataFrame, labels: dict[str, str]) -> list[str]:
    """The notebook's answer: the agreement of the measured trends with the law, and the case k = sqrt(n).

    ``labels`` maps model specs to the notebook's labels (``{"probit": "certain", ...}``).

    Examples
    --------
    >>> t = pd.DataFrame(dict(model=["m"], rule="power(a=0.5)", a=0.5, discount="log2", better="a", worse="b",
    ...                       exponent=0.1, exponent_low=0.05, exponent_high=0.15, measured="grows", law_exponent=0.08,
    ...                       a_star=0.4, predicted="grows", agreement="agrees"))
    >>> growth_answer_lines(t, {"m": "certain"})[0]
    'certain top, k = n^0.5, log2: a > b: d ~ n^0.1 [0.05, 0.15] (grows; law 0.08, threshold a* = 0.4)'
    """
    lines = []
    root = trend[trend["a"] == 0.5]
    for r in root[root["discount"] == "log2"].itertuples():
        lines.append(f"{labels.get(r.model, r.model)} top, k = n^0.5, log2: {r.better} > {r.worse}: d ~ n^"
                     f"{r.exponent:.2g} [{r.exponent_low:.2g}, {r.exponent_high:.2g}] ({r.measured}; law "
                     f"{r.law_exponent:.2g}, threshold a* = {_a_text(r.a_star)})")
    called = int((trend["agreement"] != "no call").sum())
    confidence = threshold("trend_confidence")
    lines.append(f"Against the law (a call where |exponent| > {threshold('exponent_margin'):g}), the measured trend "
                 f"{agreement_counts(trend['agreement'])} ({len(trend) - called} cells without a call); with each "
                 f"trend judged at {confidence:.0%}, chance alone would misjudge about {(1 - confidence) * called:.1f}.")
    return lines
