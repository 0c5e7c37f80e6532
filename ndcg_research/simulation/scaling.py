r"""How the standardized gap between two rankers grows or shrinks with n: scaling laws (notebooks 11, 13).

The standardized gap ``d = E[gap] / sd(gap)`` of the paired nDCG@k difference (better - worse, on
one data set; k = n for the full list) decides how often the better ranker wins when the gap is
close to normal (``P ~ Phi(d)``). This module gives its growth in n, a heuristic derived by this
package (not by Wang et al., whose full text was not available), in two forms:

**Asymptotic exponent** (:func:`gap_exponent`): ``d ~ n^e (ln n)^l``. Let the worse ranker's
shortfall at the top of the list behave like ``t^rho`` at relative rank t (``rho`` =
:func:`shortfall_exponent`: ``kappa^2`` for ``noisy``, ``a^2`` for ``bayes``, 0 for ``random``),
let ``D(r) = r^-beta`` (slowly varying discounts: ``beta = 0``, their ``D(k)`` cancels) and
``k = n^a``. Then, with binary relevance and independent Bernoulli grades at each rank,

- expected gap ``G = sum_{r<=k} (E g_better - E g_worse)(r) D(r) ~ n^-rho k^(1+rho-beta)`` for
  ``beta < 1 + rho`` (the first ranks alone, ``n^-rho``, beyond);
- variance, **uncertain top** (``hi < 1``: even the best items are relevant with probability ``hi``, so every rank
  carries Bernoulli noise): ``V ~ k^(1-2 beta)`` for ``beta < 1/2``, bounded beyond (the first ranks dominate);
- variance, **certain top** (``hi = 1``): only misses are random, and the worse ranker misses at rank r with probability
  ``~ (r/n)^rho``: ``V ~ n^-rho k^(1+rho-2 beta)`` for ``2 beta < 1 + rho``, ``n^-rho`` beyond.

``d = G / sqrt(V)`` gives the exponent table of :func:`gap_exponent`. The full list (``a = 1``) with a slowly varying
discount is a special case: both rankers place every item, so the first-order terms of G and V cancel (``sum_r y_r`` is
the same for both) and ``d ~ sqrt(n)`` (notebook 04); the exponent formula happens to give 1/2 there too.
``zipflog(gamma)`` is ``beta = 1`` with an extra ``(ln n)^-gamma`` in G. Log factors of the normal tails (``t^rho`` is
``t^rho`` times a power of ``ln(1/t)``) are dropped: they shift the local exponent at realistic n by a few hundredths.

**Finite-n heuristic** (:func:`heuristic_std_gap`): the same ratio without asymptotics: G from the
exact expected gains at each rank (:func:`~ndcg_research.simulation.finite_n.rank_gains`, order statistics) and V as if
the grades at different ranks (and of the two rankers) were independent Bernoulli variables with those means. It keeps
the log factors but ignores the covariances (the two rankers' top items overlap, which lowers the true variance), so it
predicts the *trend* of d better than its level. It is NaN where the cancellation above makes it meaningless (full list,
discounts that decay no faster than ``r^-1/2``).

The failure probability ``1 - P(better strictly higher)`` is a different matter where rare events dominate (certain top,
fast discounts): there a rare miss of the *better* ranker at one of the first ranks (probability ``~ (r/n)^rho_better``)
can outweigh the whole expected gap, so the failure probability falls only polynomially even where d grows, and P can
tend to 1 where d shrinks (notebook 11).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core import Discount, parse_discount
from . import finite_n
from .model import Model, Ranker, parse_model, parse_ranker


def shortfall_exponent(model: str | Model, ranker: str | Ranker) -> float:
    r"""``rho``: the ranker's expected shortfall at the top, ``g(0+) - g(t)``, behaves like ``t^rho``.

    In the probit model the item at upper quantile t of a score with ``kappa`` has relevance
    probability ``lo + (hi - lo) Phi(kappa z_t)``, and ``1 - Phi(kappa z_t) ~ t^(kappa^2)`` up to a
    power of ``ln(1/t)`` (``z_t ~ sqrt(2 ln(1/t))``). So ``rho = kappa^2``: ``a^2`` for ``bayes``
    and ``gated`` (exact at the top), ``a^2 / (1 + sigma^2 (1 + a^2))`` for ``noisy(sigma)``, 0 for
    ``random`` and ``coarse`` (their top is not better than a whole bin or the mean).
    """
    model, ranker = parse_model(model), parse_ranker(ranker)
    if ranker.kind in ("bayes", "gated"):
        return model.a**2
    if ranker.kind == "noisy":
        return ranker.kappa(model) ** 2
    if ranker.kind in ("random", "coarse"):
        return 0.0
    raise ValueError(f"ranker {str(ranker)!r} has no n-free top: its shortfall exponent depends on n")


@dataclass(frozen=True)
class Exponent:
    """``d ~ n^exponent (ln n)^log_power``, and in words which terms set it (``regime``)."""

    exponent: float
    log_power: float
    regime: str


def decay_index(discount: str | Discount) -> float:
    """The index beta of ``D(r) ~ r^-beta`` (slowly varying: 0; ``zipflog``: 1; ``geometric``: inf)."""
    d = parse_discount(discount, builtin_only=True)
    if d.decay == "constant":
        raise ValueError("the constant discount gives every ranker the same value: no gap to scale")
    if d.name == "geometric":
        return math.inf
    if d.name in ("zipf", "zipflog"):
        return 1.0
    if d.name == "power":
        return d.kwargs["beta"]
    return 0.0  # slowly varying


def gap_exponent(
    model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str | Discount, a: float = 1.0
) -> Exponent:
    r"""Asymptotic growth ``d ~ n^e (ln n)^l`` of the standardized gap of nDCG@k, ``k = n^a`` (see the module).

    ==================  ==========================================  ==============================
    top                 D(r) = r^-beta                              exponent e
    ==================  ==========================================  ==============================
    uncertain (hi < 1)  beta < 1/2 (and slowly varying)             a (1/2 + rho) - rho
    \                   1/2 < beta < 1 + rho                        a (1 + rho - beta) - rho
    \                   beta > 1 + rho                              -rho
    certain (hi = 1)    beta < (1 + rho)/2 (and slowly varying)     (a (1 + rho) - rho) / 2
    \                   (1 + rho)/2 < beta < 1 + rho                a (1 + rho - beta) - rho/2
    \                   beta > 1 + rho                              -rho/2
    ==================  ==========================================  ==============================

    ``rho`` is the worse ranker's :func:`shortfall_exponent` (it must be below the better one's).
    The code writes each row so that it is exactly 0 where it should be (e.g. ``a (1 - beta) + rho (a - 1)``).
    ``zipflog(gamma)``: the ``beta = 1`` row with ``l = -gamma``.

    ``model``: a binary probit model (grades = 1); ``discount``: a built-in discount other than ``none``; ``a``:
    cut-off exponent, ``0 <= a <= 1`` (0: a fixed k; 1: the full list or a fixed fraction of it).
    """
    model, better, worse = parse_model(model), parse_ranker(better), parse_ranker(worse)
    d = parse_discount(discount, builtin_only=True)
    if not 0 <= a <= 1:
        raise ValueError(f"a must be in [0, 1] (k = n^a), got {a!r}")
    if model.grades != 1:
        raise ValueError(f"the scaling law is derived for binary relevance, got {str(model)!r}")
    rho, rho_better = shortfall_exponent(model, worse), shortfall_exponent(model, better)
    if not rho < rho_better:
        raise ValueError(
            f"the worse ranker {str(worse)!r} must have the smaller shortfall exponent at the top "
            f"({rho:g} vs {rho_better:g} for {str(better)!r})"
        )
    beta = decay_index(d)
    log_power = -d.kwargs["gamma"] if d.name == "zipflog" else 0.0
    if model.hi < 1:
        if beta < 0.5:
            return Exponent(a / 2 + rho * (a - 1), log_power, "uncertain top, beta < 1/2")  # a (1/2 + rho) - rho
        if beta < 1 + rho:
            return Exponent(a * (1 - beta) + rho * (a - 1), log_power, "uncertain top, 1/2 < beta < 1 + rho")
        return Exponent(-rho, 0.0, "uncertain top, beta > 1 + rho")
    if beta < (1 + rho) / 2:
        return Exponent((a + rho * (a - 1)) / 2, log_power, "certain top, beta < (1 + rho)/2")
    if beta < 1 + rho:
        return Exponent(a * (1 - beta) + rho * (a - 0.5), log_power, "certain top, (1 + rho)/2 < beta < 1 + rho")
    return Exponent(-rho / 2, 0.0, "certain top, beta > 1 + rho")


def cutoff_threshold(model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str | Discount) -> float:
    """The cut-off exponent ``a*`` above which the standardized gap of nDCG@n^a grows (:func:`gap_exponent`).

    ``e(a)`` is linear in a (the regime depends on beta and rho only); ``a*`` solves ``e(a*) = 0``. Returns ``inf``
    when the gap does not grow for any ``a <= 1`` (at ``a = 1`` exactly zero counts as not growing), and 0 when it
    grows for every ``a > 0``.
    """
    # Within one regime (fixed by beta and rho alone) e is linear in a: e(a) = e(0) + slope a.
    at_one = gap_exponent(model, better, worse, discount, 1.0).exponent
    slope = 2 * (at_one - gap_exponent(model, better, worse, discount, 0.5).exponent)
    if at_one <= 1e-12:  # not growing even for the full list (zero up to rounding counts as not growing)
        return math.inf
    at_zero = at_one - slope
    return 0.0 if at_zero >= 0 else -at_zero / slope


def heuristic_std_gap(
    model: str | Model,
    better: str | Ranker,
    worse: str | Ranker,
    discount: str | Discount,
    n: int,
    k: int | None = None,
) -> float:
    r"""Finite-n heuristic of the standardized gap of nDCG@k: ``G / sqrt(V)`` (see the module).

    ``G = sum_{r<=k} (E g_better(r) - E g_worse(r)) D(r)`` with the exact expected gains at each rank,
    ``V = sum_{r<=k} D(r)^2 [E g_better(r)(1 - E g_better(r)) + E g_worse(r)(1 - E g_worse(r))]``: the variance if
    all these grades were independent Bernoulli variables. The ideal DCG@k is the same for both rankers on a data
    set, so it cancels from the ratio (up to its own small spread).

    ``model``: binary probit model; ``n``: list length; ``k``: cut-off (default n: the full list).

    Returns float: NaN for the full list under a discount that decays no faster than ``r^-1/2``, where the
    independence assumption misses the exact cancellation of first-order terms.
    """
    table = heuristic_table(model, [(better, worse)], [discount], [n], None if k is None else (lambda _: k))
    return float(table["heuristic_d"].iloc[0])


def heuristic_table(
    model: str | Model,
    pairs: Sequence[Sequence[str]],
    discounts: Sequence[str],
    ns: Sequence[int],
    cutoff: Callable[[int], int] | None = None,
) -> pd.DataFrame:
    """:func:`heuristic_std_gap` for every pair, discount and n, sharing the expected gains of each ranker.

    ``cutoff``: ``k = cutoff(n)`` (e.g. ``CutoffRule.k``); default the full list.

    Returns pandas.DataFrame: columns: model, discount, better, worse, n, k, heuristic_d.
    """
    model = parse_model(model)
    if model.grades != 1:
        raise ValueError(f"the heuristic assumes binary relevance, got {str(model)!r}")
    specs = [parse_discount(d, builtin_only=True) for d in discounts]
    pairs = [(str(parse_ranker(b)), str(parse_ranker(w))) for b, w in pairs]
    rows = []
    for n in ns:
        k = n if cutoff is None else cutoff(n)
        if k > n:
            raise ValueError(f"k must be at most n = {n}, got {k}")
        gains = {r: finite_n.rank_gains(model, r, n)[:k] for r in {r for pair in pairs for r in pair}}
        ranks = np.arange(1, k + 1, dtype=np.float64)
        for d in specs:
            D = d(ranks)
            for better, worse in pairs:
                gb, gw = gains[better], gains[worse]
                variance = (gb * (1 - gb) + gw * (1 - gw)) @ (D * D)
                undefined = (k == n and decay_index(d) <= 0.5) or not variance > 0
                value = math.nan if undefined else float(((gb - gw) @ D) / math.sqrt(variance))
                rows.append(
                    dict(model=str(model), discount=str(d), better=better, worse=worse, n=n, k=k, heuristic_d=value)
                )
    return pd.DataFrame(rows)


def local_exponent(n: Sequence[float], d: Sequence[float]) -> float:
    """The least-squares slope of ``ln d`` on ``ln n``: the local exponent of ``d ~ n^e`` over these n.

    NaN unless there are at least two points and every d is finite and positive.
    """
    n, d = np.asarray(n, dtype=np.float64), np.asarray(d, dtype=np.float64)
    if n.size < 2 or n.size != d.size or not np.all(np.isfinite(d) & (d > 0)):
        return math.nan
    return float(np.polyfit(np.log(n), np.log(d), 1)[0])


def power_law_fit(
    n: Sequence[float], d: Sequence[float], se: Sequence[float], *, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Exponent e of ``d = c n^e`` by weighted least squares on d itself, with its interval: ``(e, low, high)``.

    Unlike a fit of ``ln d`` (:func:`~ndcg_research.studies.consistent_distinguishability.experiment.growth_table`), the
    measured d may be 0 or negative (a gap that has shrunk into its noise): each point counts with its standard error
    ``se`` (``scipy.optimize.curve_fit`` with ``absolute_sigma=True``). NaN when the fit is not identified (fewer than 2
    points, a zero or undefined standard error, or an infinite covariance).
    """
    from scipy import optimize, stats

    n, d, se = (np.asarray(v, dtype=np.float64) for v in (n, d, se))
    if n.size < 2 or not (np.all(np.isfinite(d)) and np.all(np.isfinite(se)) and np.all(se > 0)):
        return math.nan, math.nan, math.nan
    p0 = (d[0] if d[0] != 0 else 0.1, local_exponent(n, d) if np.all(d > 0) else 0.0)

    def jacobian(x: np.ndarray, c: float, e: float) -> np.ndarray:  # exact: finite steps fail near e = 0
        return np.column_stack([x**e, c * x**e * np.log(x)])

    try:
        fit = dict(p0=p0, sigma=se, absolute_sigma=True, jac=jacobian, maxfev=20000)
        coef, cov = optimize.curve_fit(lambda x, c, e: c * x**e, n / n[0], d, **fit)
    except (RuntimeError, ValueError):
        return math.nan, math.nan, math.nan
    if not np.all(np.isfinite(cov)):
        return math.nan, math.nan, math.nan
    half = stats.norm.ppf(0.5 + confidence / 2) * math.sqrt(cov[1, 1])
    return float(coef[1]), float(coef[1] - half), float(coef[1] + half)


def gap_trend(pair_table: pd.DataFrame, keys: Sequence[str], confidence: float) -> pd.DataFrame:
    """Per group of ``keys``: :func:`power_law_fit` of the standardized gap over the upper half of the n grid.

    The upper half is n at least the group's median n (the asymptotic end, as notebook 09 fits it).

    Returns pandas.DataFrame: the ``keys``, n_from, n_to, points, exponent, exponent_low, exponent_high, and the
    trend: ``grows`` (interval above 0), ``shrinks`` (below), ``flat``, or ``undefined`` (no fit).
    """
    rows = []
    for key, group in pair_table.groupby(list(keys), sort=False):
        group = group.sort_values("n")
        upper = group[group["n"] >= group["n"].median()]
        e, low, high = power_law_fit(upper["n"], upper["std_gap"], upper["std_gap_se"], confidence=confidence)
        trend = "undefined" if not math.isfinite(e) else "grows" if low > 0 else "shrinks" if high < 0 else "flat"
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=False))
        row.update(n_from=int(upper["n"].min()), n_to=int(upper["n"].max()), points=len(upper), exponent=e)
        rows.append({**row, "exponent_low": low, "exponent_high": high, "trend": trend})
    return pd.DataFrame(rows)
