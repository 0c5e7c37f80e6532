r"""How the standardized gap ``d = E[gap] / sd(gap)`` of paired nDCG@k grows with n (notebooks 11, 13): a heuristic of
this package (not Wang et al.'s), derived in ``docs/theory.md``. **Asymptotic** (:func:`gap_exponent`): ``d = G /
sqrt(V)`` from the worse ranker's shortfall ``~ t^rho`` at the top, ``D(r) = r^-beta`` and ``k = n^a``, binary
independent grades; **finite n** (:func:`heuristic_table`): the same ratio from the exact expected gains, as if grades
were independent (it ignores the shared top items: the trend of d more than its level).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_array, check_instance, check_int, check_real
from ..core import Discount, parse_discount
from . import finite_n
from .model import Model, Ranker, check_items, parse_model, parse_ranker, spec_list


def shortfall_exponent(model: str | Model, ranker: str | Ranker) -> float:
    """``rho``: the ranker's expected shortfall at the top, ``g(0+) - g(t)``, behaves like ``t^rho``: ``kappa^2``, as
    ``1 - Phi(kappa z_t) ~ t^(kappa^2)`` up to a power of ``ln(1/t)`` (``bayes``, ``gated``: ``a^2``); 0 for ``random``
    and ``coarse``, whose top is no better than a bin or the mean."""
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
    return d.kwargs["beta"] if d.name == "power" else 0.0  # else slowly varying


def gap_exponent(
    model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str | Discount, a: float = 1.0
) -> Exponent:
    """Asymptotic growth ``d ~ n^e (ln n)^l`` of the standardized gap of nDCG@k, ``k = n^a`` in [0, 1] (see the
    module): one regime per top and range of beta, each written so that e is exactly 0 where it should be; ``rho``
    is the worse ranker's :func:`shortfall_exponent` (below the better one's). Binary models only."""
    model, better, worse = parse_model(model), parse_ranker(better), parse_ranker(worse)
    d = parse_discount(discount, builtin_only=True)
    if not 0 <= check_real(a, "a") <= 1:
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
    """The cut-off exponent ``a*`` above which the standardized gap of nDCG@n^a grows (:func:`gap_exponent`): inf
    when it grows for no ``a <= 1``, 0 when for every ``a > 0``."""
    # Within one regime (fixed by beta and rho alone) e is linear in a: e(a) = e(0) + slope a.
    at_one = gap_exponent(model, better, worse, discount, 1.0).exponent
    slope = 2 * (at_one - gap_exponent(model, better, worse, discount, 0.5).exponent)
    if at_one <= 1e-12:  # not growing even for the full list (zero up to rounding counts as not growing)
        return math.inf
    at_zero = at_one - slope
    return 0.0 if at_zero >= 0 else -at_zero / slope


def heuristic_table(
    model: str | Model,
    pairs: Sequence[Sequence[str]],
    discounts: Sequence[str],
    ns: Sequence[int],
    cutoff: Callable[[int], int] | None = None,
) -> pd.DataFrame:
    """Finite-n ``G / sqrt(V)`` of nDCG@k, ``k = cutoff(n)`` (default n), per pair, discount and n: ``G = sum
    (m_better - m_worse) D``, ``V = sum D^2 [m (1 - m)]`` over both rankers, m the exact expected gains (the shared
    ideal cancels); NaN for the full list under a discount no faster than ``r^-1/2`` (exact cancellation there)."""
    model = parse_model(model)
    if model.grades != 1:
        raise ValueError(f"the heuristic assumes binary relevance, got {str(model)!r}")
    specs = [parse_discount(d, builtin_only=True) for d in spec_list(discounts, "discounts")]
    if bad := [p for p in spec_list(pairs, "pairs") if isinstance(p, str) or not hasattr(p, "__len__") or len(p) != 2]:
        raise ValueError(f"pairs: each pair must be (better, worse), got {bad[0]!r}")
    pairs = [(str(parse_ranker(b)), str(parse_ranker(w))) for b, w in pairs]
    rows = []
    ns = check_array(ns, "ns", ndim=1, kinds="iu", low=1, min_size=1).tolist()
    for n in ns:  # before any work: the expected gains are n-long arrays
        check_items(n, "list length in ns", symbol="n")
    for n in ns:
        k = n if cutoff is None else check_int(cutoff(n), f"cutoff({n})", low=1, high=n)
        gains = {r: finite_n.rank_gains(model, r, n)[:k] for r in {r for pair in pairs for r in pair}}
        ranks = np.arange(1, k + 1, dtype=np.float64)
        for d in specs:
            D = d(ranks)
            for better, worse in pairs:
                gb, gw = gains[better], gains[worse]
                variance = (gb * (1 - gb) + gw * (1 - gw)) @ (D * D)
                undefined = (k == n and decay_index(d) <= 0.5) or not variance > 0
                value = math.nan if undefined else float(((gb - gw) @ D) / math.sqrt(variance))
                rows.append((str(model), str(d), better, worse, n, k, value))
    return pd.DataFrame(rows, columns=["model", "discount", "better", "worse", "n", "k", "heuristic_d"])


def local_exponent(n: Sequence[float], d: Sequence[float]) -> float:
    """The least-squares slope of ``ln d`` on ``ln n``, list lengths n >= 1 (NaN without two points, all d finite and
    positive)."""
    n, d = check_array(n, "n", ndim=1, low=1), check_array(d, "d", ndim=1, finite=False)
    if n.size != d.size:
        raise ValueError(f"n and d must have the same length, got {n.size} and {d.size}")
    if n.size < 2 or not np.all(np.isfinite(d) & (d > 0)):
        return math.nan
    return float(np.polyfit(np.log(n), np.log(d), 1)[0])


def heuristic_exponent(heuristic: pd.DataFrame | None, n_from: int, **cell: Any) -> float:
    """The :func:`local_exponent` of one cell's heuristic d (the rows of ``heuristic`` whose columns equal ``cell``)
    over its n from ``n_from`` on; NaN without a heuristic table."""
    n_from = check_int(n_from, "n_from", low=1)
    if heuristic is None:
        return math.nan
    rows = heuristic[np.logical_and.reduce([(heuristic[column] == value).to_numpy() for column, value in cell.items()])]
    rows = rows[rows["n"] >= n_from].sort_values("n", kind="stable")
    return local_exponent(rows["n"], rows["heuristic_d"])


def power_law_fit(
    n: Sequence[float], d: Sequence[float], se: Sequence[float], *, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Exponent e of ``d = c n^e`` by least squares on d weighted by its standard error, with its interval
    ``(e, low, high)``: d may be 0 or negative (a gap shrunk into its noise), n are list lengths >= 1, ``confidence``
    strictly between 0 and 1. NaN when the fit is not identified."""
    from scipy import optimize, stats

    n = check_array(n, "n", ndim=1, low=1)
    d, se = (check_array(v, name, ndim=1, finite=False) for v, name in ((d, "d"), (se, "se")))
    confidence = check_real(confidence, "confidence", low=0, high=1, closed="neither")
    if not n.size == d.size == se.size:
        raise ValueError(f"n, d and se must have the same length, got {n.size}, {d.size} and {se.size}")
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


def upper_half(group: pd.DataFrame) -> pd.DataFrame:
    """The rows of one cell at n from the median of its n grid on (the asymptotic end a growth is fitted on), by n."""
    group = group.sort_values("n")
    return group[group["n"] >= group["n"].median()]


def gap_trend(pair_table: pd.DataFrame, keys: Sequence[str], confidence: float) -> pd.DataFrame:
    """Per group of ``keys``: :func:`power_law_fit` of the standardized gap over n at least the median (the asymptotic
    end), and the trend: ``grows``, ``shrinks`` (interval above or below 0), ``flat`` or ``undefined``."""
    keys, confidence = spec_list(keys, "keys"), check_real(confidence, "confidence", low=0, high=1, closed="neither")
    needed, pair_table = [*keys, "n", "std_gap", "std_gap_se"], check_instance(pair_table, "pair_table", pd.DataFrame)
    if missing := [c for c in needed if c not in pair_table]:
        raise ValueError(f"pair_table needs the columns {needed}, lacks {missing}")
    rows = []
    for key, group in pair_table.groupby(list(keys), sort=False):
        upper = upper_half(group)
        e, low, high = power_law_fit(upper["n"], upper["std_gap"], upper["std_gap_se"], confidence=confidence)
        trend = "undefined" if not math.isfinite(e) else "grows" if low > 0 else "shrinks" if high < 0 else "flat"
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=False))
        row.update(n_from=int(upper["n"].min()), n_to=int(upper["n"].max()), points=len(upper), exponent=e)
        rows.append({**row, "exponent_low": low, "exponent_high": high, "trend": trend})
    return pd.DataFrame(rows)
