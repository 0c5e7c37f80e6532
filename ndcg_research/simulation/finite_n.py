"""Predictions at a finite n, without the first-order expansion: :func:`finite_n_ndcg` is ``sum_r D(r) E[gain at rank
r] / sum_r D(r) E[r-th largest gain]``, the gain at rank r ``E g_f(U_(r))`` by quadrature over ``U_(r) ~ Beta(r, n - r +
1)`` on the top and bottom :data:`EXACT_RANKS` ranks (the midpoint ``g_f((r - 1/2) / n)`` overstates steep tops:
``noisy(sigma=1)`` under ``power(beta=2)`` by 4 standard errors at n = 1000), ``g_f(r / (n + 1))`` in between.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import special, stats

from .._validation import check_array, check_bool, check_int
from ..core import Discount, Gain, parse_discount, parse_gain
from .model import Model, Ranker, check_items, parse_model, parse_ranker, spec_list
from .theory import (
    c_coefficient,
    eps,
    gain_profile,
    gated_rest_gain,
    ideal_profile,
    mean_gain,
    power_limit,
    top_limit,
    zipf_approximation,
)

#: Ranks at the top (and at the bottom) whose expected gain :func:`rank_gains` computes from the order statistics.
EXACT_RANKS = 1024
# Quadrature over v in (0, 1) for E g(F^{-1}(v)): 64 Gauss-Legendre nodes in s, with v = 6s^5 - 15s^4 + 10s^3,
# whose flat ends smooth the power-law behaviour of Beta quantiles near v = 0 and 1 (error ~1e-12 here).
_S, _W = np.polynomial.legendre.leggauss(64)
_S, _W = (_S + 1) / 2, _W / 2
_QUANTILE_NODES = _S**3 * (10 - 15 * _S + 6 * _S**2)
_QUANTILE_WEIGHTS = _W * 30 * _S**2 * (1 - _S) ** 2


def order_statistic_means(profile: Callable[[np.ndarray], np.ndarray], n: int, count: int) -> np.ndarray:
    """``E g(U_(r))``, r = 1..count, ``U_(r) ~ Beta(r, n - r + 1)`` the r-th smallest of n uniforms: the expected gain
    at rank r of a ranker with gain profile ``g`` (elementwise on arrays of relative ranks), error ~1e-12; n an integer
    >= 1, count one in 1..n (and at most :data:`~.model.MAX_ITEMS` / 64: the quadrature holds 64 values per rank)."""
    n = check_int(n, "n", low=1)
    count = check_items(check_int(count, "count", low=1, high=n), "count", per_item=len(_QUANTILE_NODES))
    # Not cached: the studies ask for every rank of long lists.
    return profile(_order_statistic_quantiles.__wrapped__(n, count)) @ _QUANTILE_WEIGHTS


@functools.lru_cache(maxsize=32)
def _order_statistic_quantiles(n: int, count: int) -> np.ndarray:
    """Quantiles of ``U_(r)`` at the quadrature nodes, r = 1..count: shape (count, nodes)."""
    r = np.arange(1, count + 1, dtype=np.float64)[:, None]
    return special.betaincinv(r, n - r + 1, _QUANTILE_NODES[None, :])


def rank_gains(model: str | Model, ranker: str | Ranker, n: int, *, gain: str | Gain = "linear") -> np.ndarray:
    """Expected gain of the item a ranker puts at rank r = 1..n on a data set of n items (they sum to n p).
    ``head(m)``: ``bayes`` on ranks 1..m, then the mean of the rest; ``coarse``: its step profile's mean over each
    rank's cell (approximate: its blocks have random sizes). n at most :data:`~.model.MAX_ITEMS`."""
    model, ranker, gain = parse_model(model), parse_ranker(ranker), parse_gain(gain, builtin_only=True)
    n = check_items(n)
    if ranker.kind == "coarse":
        return gain_profile(model, ranker, gain=gain).cell_means(n)
    if ranker.kind == "gated":
        return _gated_rank_gains(model, ranker, n, gain)
    if ranker.kind == "head":
        head, out = min(ranker.m, n), rank_gains(model, "bayes", n, gain=gain)
        if head < n:
            out[head:] = (n * mean_gain(model, gain=gain) - out[:head].sum()) / (n - head)
        return out
    profile = gain_profile(model, ranker, gain=gain)
    count = n if n <= 2 * EXACT_RANKS else EXACT_RANKS
    quantiles = _order_statistic_quantiles(n, count)
    exact = profile(quantiles) @ _QUANTILE_WEIGHTS  # E g(U_(r)) = int_0^1 g(F_r^{-1}(v)) dv, Gauss-Legendre
    if count == n:
        return exact
    out = profile(np.arange(1, n + 1) / (n + 1.0))
    out[:EXACT_RANKS] = exact
    # U_(n + 1 - r) has the law of 1 - U_(r): the bottom ranks are as steep as the top ones.
    out[-EXACT_RANKS:] = (profile(1 - quantiles) @ _QUANTILE_WEIGHTS)[::-1]
    return out


def _gated_rank_gains(model: Model, ranker: Ranker, n: int, gain: Gain) -> np.ndarray:
    """:func:`rank_gains` of ``gated(q)``: rank r holds the r-th best item if it is above the gate (``U_(r) < q``), else
    an item from below: ``E[g_bayes(U_(r)); U_(r) < q] + (1 - P(U_(r) < q)) g_rest``."""
    q, rest = ranker.q, gated_rest_gain(model, ranker, gain=gain)
    bayes = gain_profile(model, Ranker("bayes"), gain=gain)
    out = rank_gains(model, "bayes", n, gain=gain)  # U_(r) < q for sure: the r-th best item
    # P(U_(r) < q) = P(Binomial(n, q) >= r) falls from 1 to 0 within a few sd of r = nq; outside
    # 9 sd it is 1 or 0 to double precision.
    sd = math.sqrt(n * q * (1 - q))
    lo, hi = max(1, math.floor(n * q - 9 * sd)), min(n, math.ceil(n * q + 9 * sd))
    out[hi:] = rest
    r = np.arange(lo, hi + 1, dtype=np.float64)
    inside = special.betainc(r, n - r + 1, q)  # F = P(U_(r) <= q)
    exact = (r <= EXACT_RANKS) | (r > n - EXACT_RANKS)
    truncated = np.empty(r.size)
    # E[g(U); U < q] = int_0^F g(F_r^{-1}(v)) dv: quadrature on v in (0, F) where U_(r) is skewed (the
    # first and last ranks) ...
    nodes = inside[exact, None] * _QUANTILE_NODES[None, :]
    rr = r[exact, None]
    truncated[exact] = inside[exact] * (bayes(special.betaincinv(rr, n - rr + 1, nodes)) @ _QUANTILE_WEIGHTS)
    # ... and in the middle, where U_(r) is normal to O(1/sqrt(r)): F g(E[U | U < q]), the mean of the
    # truncated normal (the error, of order g'' Var(U) ~ 1/n per rank, is below 1e-9 of the DCG).
    mid = ~exact
    mean = r[mid] / (n + 1)
    spread = np.sqrt(mean * (1 - mean) / (n + 2))
    alpha = (q - mean) / spread
    cut_mean = mean - spread * stats.norm.pdf(alpha) / np.maximum(stats.norm.cdf(alpha), 1e-300)
    truncated[mid] = inside[mid] * bayes(np.clip(cut_mean, 0.0, q))
    out[lo - 1 : hi] = truncated + (1 - inside) * rest
    return out


def ideal_rank_gains(model: str | Model, n: int, *, gain: str | Gain = "linear") -> np.ndarray:
    """Expected r-th largest gain among n items, r = 1..n (the ideal ranking's): with ``q_k = P(y >= k)``,
    ``gain(0) + sum_k [gain(k) - gain(k-1)] P(Binomial(n, q_k) >= r)`` (tails within 40 sd of ``n q_k``); n at most
    :data:`~.model.MAX_ITEMS`."""
    model, gain, n = parse_model(model), parse_gain(gain, builtin_only=True), check_items(n)
    star = ideal_profile(model, gain=gain)
    # star: values gain(G), ..., gain(0) on [0, q_G), ..., [q_1, 1): q_k = edges[G - k + 1].
    levels, q = star.values[::-1], star.edges[1:-1][::-1]  # gain(0..G); q_1..q_G
    out = np.full(n, float(levels[0]))
    ranks = np.arange(1, n + 1)
    for step, qk in zip(np.diff(levels), q, strict=False):  # loop over grade levels
        sd = math.sqrt(n * qk * (1 - qk))
        lo, hi = max(1, math.floor(n * qk - 40 * sd)), min(n, math.ceil(n * qk + 40 * sd))
        out[: lo - 1] += step  # the tail is 1 below lo, 0 above hi
        out[lo - 1 : hi] += step * stats.binom.sf(ranks[lo - 1 : hi] - 1, n, qk)
    return out


def finite_n_values(
    model: str | Model,
    rankers: Sequence[str | Ranker],
    discounts: Sequence[str | Discount],
    n: int,
    *,
    gain: str | Gain = "linear",
) -> np.ndarray:
    """:func:`finite_n_ndcg` of every ranker under every discount at one n (at most :data:`~.model.MAX_ITEMS`): shape
    (rankers, discounts)."""
    model, n = parse_model(model), check_items(n)
    rankers, discounts = spec_list(rankers, "rankers"), spec_list(discounts, "discounts")
    ranks = np.arange(1, n + 1, dtype=np.float64)
    D = np.stack([parse_discount(d, builtin_only=True)(ranks) for d in discounts], axis=1)  # (n, discounts)
    ideal = ideal_rank_gains(model, n, gain=gain) @ D
    return np.stack([rank_gains(model, r, n, gain=gain) @ D for r in rankers]) / ideal


def finite_n_ndcg(
    model: str | Model, ranker: str | Ranker, discount: str | Discount, n: int, *, gain: str | Gain = "linear"
) -> float:
    """Expected DCG over expected ideal DCG (:func:`rank_gains`, :func:`ideal_rank_gains`)."""
    return float(finite_n_values(model, [ranker], [discount], n, gain=gain)[0, 0])


def rare_miss_share(
    model: str | Model,
    ranker: str | Ranker,
    discount: str | Discount,
    n: int,
    replicates: int,
    *,
    gain: str | Gain = "linear",
) -> float:
    """Share of a ranker's expected DCG shortfall (over the ideal's top-gain ranks) from misses too rare for
    ``replicates`` data sets (``replicates p_r < 1``, ``p_r = 1 - E gain_r / g*(0+)``): large, it means a sample mean of
    nDCG that is too high, with a too narrow interval. 0 without shortfall."""
    model, d = parse_model(model), parse_discount(discount, builtin_only=True)
    n, replicates = check_items(n), check_int(replicates, "replicates", low=1)
    star = ideal_profile(model, gain=gain)
    top_ranks = max(1, int(n * star.edges[1]))  # ranks the ideal fills with the top gain, in expectation
    gains = rank_gains(model, ranker, n, gain=gain)[:top_ranks]
    miss = np.clip(1 - gains / star.top, 0.0, 1.0)
    shortfall = miss * d(np.arange(1, top_ranks + 1, dtype=np.float64))
    total = shortfall.sum()
    return float(shortfall[replicates * miss < 1].sum() / total) if total > 0 else 0.0


def prediction(
    model: str | Model,
    ranker: str | Ranker,
    discount: str | Discount,
    n: int,
    *,
    gain: str | Gain = "linear",
    finite_n: bool = True,
) -> dict[str, float | str]:
    """The theory for one (ranker, discount, n): ``regime`` (decay), ``limit``, ``first_order``, ``eps``, ``c`` (slowly
    varying only) and ``finite_n`` (NaN where it does not apply; ``head(m)`` has only the finite-n value)."""
    model, ranker, d = parse_model(model), parse_ranker(ranker), parse_discount(discount, builtin_only=True)
    finite_n = check_bool(finite_n, "finite_n")
    n = check_items(n) if finite_n else check_int(n, "n", low=1)  # the finite-n value holds n-long arrays
    regime = d.decay
    out: dict[str, float | str] = {"regime": regime, "eps": eps(d, float(n)), "c": math.nan}
    if ranker.kind == "head":  # no n-free profile: only the finite-n value
        out.update(limit=math.nan, first_order=math.nan)
    elif regime == "slowly varying":
        c = c_coefficient(model, ranker, gain=gain)
        out.update(limit=1.0, c=c, first_order=1 - out["eps"] * c)
    elif regime == "regularly varying":
        lim = power_limit(model, ranker, d.kwargs["beta"], gain=gain)
        out.update(limit=lim, first_order=lim)
    elif regime in ("critical", "summable"):  # critical but zipflog: the 1/ln n approximation; else only the limit
        zipf_like = regime == "critical" and d.name != "zipflog"
        first = zipf_approximation(model, ranker, n, gain=gain) if zipf_like else math.nan
        out.update(limit=top_limit(model, ranker, gain=gain), first_order=first)
    else:
        out.update(limit=1.0, first_order=1.0)
    out["finite_n"] = finite_n_ndcg(model, ranker, d, n, gain=gain) if finite_n else math.nan
    return out


def theory_table(
    model: str | Model,
    rankers: Sequence[str | Ranker],
    discounts: Sequence[str | Discount],
    ns: Sequence[int],
    *,
    gain: str | Gain = "linear",
) -> pd.DataFrame:
    """:func:`prediction` for every (discount, ranker, n), one row each in that order, sharing the work."""
    model = parse_model(model)
    rankers = [parse_ranker(r) for r in spec_list(rankers, "rankers")]
    discounts = [parse_discount(d, builtin_only=True) for d in spec_list(discounts, "discounts")]
    ns = sorted(set(check_array(ns, "ns", ndim=1, kinds="iu", low=1, min_size=1).tolist()))
    ns = [check_items(n, "list length in ns", symbol="n") for n in ns]  # before any work
    finite = {n: finite_n_values(model, rankers, discounts, n, gain=gain) for n in ns}  # expected gains once per n
    rows = []
    for j, d in enumerate(discounts):
        for i, r in enumerate(rankers):
            for n in ns:  # the asymptotic values are cached (lru_cache of the profiles and of their integrals)
                p = prediction(model, r, d, n, gain=gain, finite_n=False)
                row = dict(model=str(model), discount=str(d), decay=p["regime"], ranker=str(r), n=n)
                row.update({k: p[k] for k in ("limit", "first_order", "eps", "c")}, finite_n=float(finite[n][i, j]))
                rows.append(row)
    return pd.DataFrame(rows)
