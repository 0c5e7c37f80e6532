r"""The derived quantities of notebook 15 (the derivations are on the Theory page, ``docs/theory.md``).

Setting: the binary probit model of :mod:`ndcg_research.simulation.model` (``p`` = mean grade, top relevance
probability ``hi``) and two rankers A (better) and B of the ``bayes`` / ``noisy(sigma)`` family, with gain profiles
``g_A``, ``g_B`` and first-order constants ``c_A < c_B`` (:mod:`ndcg_research.simulation.theory`). ``U_f`` is an
item's upper score quantile under f. (a) :func:`first_order_limit`: the discount-free limit of the standardized DCG
gap under slowly varying discounts; (b) :func:`mcdiarmid_bound` and its first-order form; (c) :func:`threshold_law`:
the cut-off exponent a* of nDCG@n^a; (d) :func:`zipf_limit`, :func:`zipf_finite`: the levels under ``D = 1/r``.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import special
from scipy.special import ndtr, ndtri

from ...core import parse_discount
from ...simulation import finite_n, theory
from ...simulation.model import Model, Ranker, parse_model, parse_ranker

__all__ = [
    *("first_order_limit", "expected_dcg_gap", "mcdiarmid_bound", "mcdiarmid_first_order", "mcdiarmid_informative_n"),
    *("zipf_limit", "zipf_limit_probability", "zipf_finite", "threshold_law"),
]

ZETA2 = math.pi**2 / 6


def _profile(model: Model, ranker: Ranker):  # noqa: ANN202 - a vectorised function of t
    """``g_f(t) = lo + (hi - lo) Phi(kappa z_t)``, ``z_t = Phi^-1(1 - t)`` (binary probit, bayes/noisy)."""
    kappa, lo, hi = ranker.kappa(model), model.lo, model.hi
    return lambda t: lo + (hi - lo) * ndtr(-kappa * ndtri(np.asarray(t, dtype=np.float64)))


def _check_pair(model: str | Model, better: str | Ranker, worse: str | Ranker) -> tuple[Model, Ranker, Ranker]:
    model, better, worse = parse_model(model), parse_ranker(better), parse_ranker(worse)
    if model.grades != 1:
        raise ValueError(f"the derivations assume binary relevance, got {str(model)!r}")
    for r in (better, worse):
        if r.kind not in ("bayes", "noisy"):
            raise ValueError(f"rankers must be bayes or noisy(sigma), got {str(r)!r}")
    if not better.kappa(model) > worse.kappa(model):
        raise ValueError(f"{str(better)!r} must be the better ranker (larger kappa) than {str(worse)!r}")
    return model, better, worse


# --------------------------------------------------------------------------- (a)


def first_order_limit(
    model: str | Model, better: str | Ranker, worse: str | Ranker, *, draws: int = 2_000_000, seed: int = 0
) -> dict[str, float]:
    r"""The discount-free limit of ``d / sqrt(n)`` for the DCG gap under any slowly varying discount.

    To first order the DCG gap is ``ell(n) T_n``, ``ell(r) = -r D'(r)``, ``T_n = sum_r (y_B(r) - y_A(r)) ln r``, whose
    standardized gap grows like ``sqrt(n) p (c_B - c_A) / sigma_h``, sigma_h the sd of the Hajek projection
    ``h = y L + M`` with ``L = ln(U_B / U_A)``, ``M = Psi_B(U_B) - Psi_A(U_A)``, ``Psi_f(u) = int_u^1 g_f(v) / v dv``;
    ``Var h = E[eta (1 - eta) L^2] + Var(eta L + M)`` (y given x is Bernoulli(eta(x))), estimated from
    ``draws`` items (x, z_A, z_B); ``E h = p (c_B - c_A)`` exactly (c from
    :func:`~ndcg_research.simulation.theory.c_coefficient`). ``Psi_f`` is integrated on a grid
    of ``w = -ln v`` (trapezoid, 200,000 steps to ``w = 50``).

    Returns
    -------
    dict
        ``p``, ``c_better``, ``c_worse``, ``mean_h`` (= p (c_B - c_A)), ``mean_h_mc`` (its Monte Carlo
        estimate, a check), ``sd_h``, ``limit`` (= mean_h / sd_h) and ``limit_se`` (Monte Carlo error).

    Examples
    --------
    >>> r = first_order_limit("probit", "bayes", "noisy(sigma=0.5)", draws=200_000)
    >>> round(r["limit"], 2), abs(r["mean_h_mc"] - r["mean_h"]) < 4 * r["mean_h"] * 0.02
    (0.14, True)
    """
    model, better, worse = _check_pair(model, better, worse)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(15, 1)))
    x = rng.standard_normal(draws)

    def quantile(r: Ranker) -> np.ndarray:
        if r.kind == "bayes":
            return ndtr(-x)
        return ndtr(-(x + r.sigma * rng.standard_normal(draws)) / math.sqrt(1 + r.sigma**2))

    u_a, u_b = quantile(better), quantile(worse)
    w = np.linspace(0.0, 50.0, 200_001)

    def psi(r: Ranker, u: np.ndarray) -> np.ndarray:
        g = _profile(model, r)(np.exp(-w))
        cumulative = np.concatenate(([0.0], np.cumsum((g[1:] + g[:-1]) / 2 * np.diff(w))))
        return np.interp(-np.log(u), w, cumulative)

    eta = model.eta(x)
    L = np.log(u_b / u_a)
    M = psi(worse, u_b) - psi(better, u_a)
    mean_term = eta * L + M
    var = float(np.mean(eta * (1 - eta) * L**2) + np.var(mean_term))
    c_a, c_b = theory.c_coefficient(model, better), theory.c_coefficient(model, worse)
    p = model.mean_grade
    mean = p * (c_b - c_a)
    # The Monte Carlo error of sd_h, from the variance of the per-item second moments (delta method).
    second = eta * (1 - eta) * L**2 + (mean_term - mean_term.mean()) ** 2
    sd = math.sqrt(var)
    sd_se = float(second.std() / math.sqrt(draws) / (2 * sd))
    limit = mean / sd
    moments = dict(p=p, c_better=c_a, c_worse=c_b, mean_h=mean, mean_h_mc=float(np.mean(eta * L)), sd_h=sd)
    return moments | dict(limit=limit, limit_se=limit * sd_se / sd)


# --------------------------------------------------------------------------- (b)


def expected_dcg_gap(model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str, n: int) -> float:
    """``E[DCG_A - DCG_B]`` at list length n: ``sum_r (E g_A(U_(r)) - E g_B(U_(r))) D(r)`` (exact order statistics,
    :func:`~ndcg_research.simulation.finite_n.rank_gains`).

    Examples
    --------
    >>> round(expected_dcg_gap("probit", "bayes", "noisy(sigma=1)", "none", 1000), 9)   # no discount: no gap
    0.0
    """
    model, better, worse = _check_pair(model, better, worse)
    ranks = np.arange(1, n + 1, dtype=np.float64)
    weights = parse_discount(discount)(ranks)
    return float((finite_n.rank_gains(model, better, n) - finite_n.rank_gains(model, worse, n)) @ weights)


def mcdiarmid_bound(expected_gap: float, n: int, top_weight: float, last_weight: float) -> float:
    r"""McDiarmid's bound on ``P(DCG_A - DCG_B <= 0)``: ``exp(-2 E[F]^2 / (n c^2))``, ``c = 2 (D(1) - D(n))``.

    Replacing one of the n i.i.d. items moves every partial sum of a ranker's grade sequence by at most
    1, so (summation by parts) each DCG moves by at most ``D(1) - D(n)`` beyond the common last term,
    and the difference of two by at most c. 1 when the expected gap is not positive.

    Examples
    --------
    >>> round(mcdiarmid_bound(100.0, 10_000, 1.0, 0.0), 6) == round(math.exp(-2 * 100**2 / (10_000 * 4)), 6)
    True
    """
    if expected_gap <= 0:
        return 1.0
    c = 2 * (top_weight - last_weight)
    return math.exp(-2 * expected_gap**2 / (n * c * c))


def mcdiarmid_first_order(
    model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str, n: float
) -> float:
    r"""The first-order form ``exp(-n p^2 D(n)^2 eps_D(n)^2 (c_B - c_A)^2 / (2 (D(1) - D(n))^2))``.

    ``E[F] ~ n p D(n) eps_D(n) (c_B - c_A)`` (the expansion of
    :mod:`~ndcg_research.simulation.theory`); ``D(1) = 1`` for the built-in slowly varying
    discounts, so the constant of the exponent tends to ``c = p^2 / 2``.

    Examples
    --------
    >>> b = [mcdiarmid_first_order("probit", "bayes", "noisy(sigma=1)", "log2", n) for n in (1e4, 1e8, 1e12)]
    >>> b[0] > 0.99, b[2] < 1e-9
    (True, True)
    """
    model, better, worse = _check_pair(model, better, worse)
    d = parse_discount(discount)
    dn, d1 = float(d(np.array([n]))[0]), float(d(np.array([1.0]))[0])
    delta_c = theory.c_coefficient(model, worse) - theory.c_coefficient(model, better)
    e = float(theory.eps(d, float(n)))
    p = model.mean_grade
    return math.exp(-n * (p * dn * e * delta_c) ** 2 / (2 * (d1 - dn) ** 2))


def mcdiarmid_informative_n(
    model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str, level: float = 0.05
) -> float:
    """The list length from which the first-order McDiarmid bound is below ``level`` (bisection in ln n).

    Examples
    --------
    >>> n = mcdiarmid_informative_n("probit", "bayes", "noisy(sigma=0.5)", "log2")
    >>> mcdiarmid_first_order("probit", "bayes", "noisy(sigma=0.5)", "log2", n) < 0.0501 < 1e9 < n
    True
    """
    lo, hi = math.log(100.0), math.log(1e300)
    for _ in range(200):  # bisection: the first-order bound falls with n for a slowly varying discount
        mid = (lo + hi) / 2
        if mcdiarmid_first_order(model, better, worse, discount, math.exp(mid)) > level:
            lo = mid
        else:
            hi = mid
    return math.exp(hi)


# --------------------------------------------------------------------------- (d)

_EXACT = 2048  # top ranks whose expected gains come from the order statistics (finite_n.order_statistic_means)


@functools.lru_cache(maxsize=256)
def zipf_finite(model: str | Model, better: str | Ranker, worse: str | Ranker, n: int) -> dict[str, float]:
    r"""Under ``D = 1/r`` at list length n: the exact mean DCG gap ``mu_n`` and the independent-ranks variance.

    ``mu_n = sum_r (m_A(r) - m_B(r)) / r`` with ``m_f(r) = E g_f(U_(r))``: exact (quadrature) for the
    first 2048 ranks, beyond ``g_f(r / (n + 1))`` summed as the midpoint integral (error of order
    ``1/2048^2`` plus a Jensen term below ``n^-rho``). ``var_ind = sum_r [m_A (1 - m_A) + m_B (1 - m_B)] / r^2``
    is the variance if every grade were an independent Bernoulli variable: it ignores the items the two
    heads share (which lower the variance) and tends to the true limit ``2 hi (1 - hi) zeta(2)``.

    Returns
    -------
    dict
        ``mean_gap`` (mu_n), ``var_ind``, ``std_gap_ind`` = mu_n / sqrt(var_ind).

    Examples
    --------
    >>> pair = ("probit(lo=0.1, hi=0.6)", "noisy(sigma=0.5)", "noisy(sigma=1)")
    >>> round(float(zipf_finite(*pair, 10**6)["mean_gap"] / zipf_limit(*pair)["mu"]), 2)
    0.98
    """
    model, better, worse = _check_pair(model, better, worse)
    ga, gb = _profile(model, better), _profile(model, worse)
    count = min(n, _EXACT)
    ma, mb = (finite_n.order_statistic_means(g, n, count) for g in (ga, gb))
    r = np.arange(1, count + 1, dtype=np.float64)
    mean = math.fsum((ma - mb) / r)
    var = math.fsum((ma * (1 - ma) + mb * (1 - mb)) / r**2)
    if n > count:
        # Midpoint integral in w = ln v from ln(count + 1/2) to ln(n + 1/2), 64 nodes on each of 48 pieces.
        nodes, weights = np.polynomial.legendre.leggauss(64)
        edges = np.linspace(math.log(count + 0.5), math.log(n + 0.5), 49)
        for lo_w, hi_w in zip(edges[:-1], edges[1:], strict=True):  # loop over the pieces
            w = (nodes + 1) / 2 * (hi_w - lo_w) + lo_w
            v = np.exp(w)
            t = v / (n + 1)
            a, b = ga(t), gb(t)
            half = (hi_w - lo_w) / 2
            mean += float(weights @ (a - b)) * half  # dv / v = dw
            var += float(weights @ ((a * (1 - a) + b * (1 - b)) / v)) * half  # dv / v^2 = dw / v
    return dict(mean_gap=mean, var_ind=var, std_gap_ind=mean / math.sqrt(var) if var > 0 else math.inf)


@functools.lru_cache(maxsize=64)
def zipf_limit(model: str | Model, better: str | Ranker, worse: str | Ranker) -> dict[str, float]:
    r"""The limit under ``D = 1/r``: ``mu``, the limiting variance, standardized gap and P(correct).

    ``mu = int_0^1 (g_A(t) - g_B(t)) / t dt`` (both profiles start at ``hi``);
    ``var = hi (1 - hi) pi^2 / 3`` (the first ranks of the two lists hold distinct items, each relevant
    with probability tending to hi); ``std_gap = mu / sqrt(var)`` (infinite with a certain top, hi = 1);
    ``p_correct`` = :func:`zipf_limit_probability` (1 with a certain top).

    Examples
    --------
    >>> z = zipf_limit("probit(lo=0.1, hi=0.6)", "noisy(sigma=0.5)", "noisy(sigma=1)")
    >>> round(z["mu"], 4), round(z["std_gap"], 4)
    (0.2141, 0.2409)
    >>> zipf_limit("probit", "bayes", "noisy(sigma=1)")["p_correct"]
    1.0
    """
    model, better, worse = _check_pair(model, better, worse)
    mu = theory.gain_profile(model, better).integral("zipf") - theory.gain_profile(model, worse).integral("zipf")
    var = 2 * model.hi * (1 - model.hi) * ZETA2
    if var == 0:
        return dict(mu=mu, var=0.0, std_gap=math.inf, p_correct=1.0)
    return dict(mu=mu, var=var, std_gap=mu / math.sqrt(var), p_correct=zipf_limit_probability(mu, model.hi))


@functools.lru_cache(maxsize=64)
def zipf_limit_probability(
    mu: float, hi: float, *, exact_terms: int = 2000, t_max: float = 400.0, step: float = 0.004
) -> float:
    r"""``P(mu + W > 0)`` for ``W = sum_{r >= 1} (xi_r - xi'_r) / r``, xi, xi' i.i.d. ``Bernoulli(hi)``.

    By Gil-Pelaez inversion, ``P(W > -mu) = 1/2 + (1/pi) int_0^inf sin(t mu) phi(t) / t dt`` with the
    characteristic function ``phi(t) = prod_r [1 - 2c (1 - cos(t / r))]``, ``c = hi (1 - hi)``: the product
    is exact for ``r <= exact_terms`` and beyond uses ``ln(1 - 2c(1 - cos u)) = -c u^2 + (c/12 - c^2/2) u^4 +
    O(u^6)`` summed with the polygamma functions (``u <= t_max / exact_terms = 0.2``). W's law has no
    atoms (Jessen-Wintner), so the limit has no ties. The integral is a trapezoid rule on [0, t_max]
    (phi is below 1e-14 there).

    Examples
    --------
    >>> round(zipf_limit_probability(0.0, 0.6), 6)   # W is symmetric
    0.5
    """
    c = hi * (1 - hi)
    t = np.arange(step, t_max + step / 2, step)
    log_phi = np.zeros_like(t)
    for r in range(1, exact_terms + 1):  # loop over the first ranks (vectorised over t)
        log_phi += np.log1p(-2 * c * (1 - np.cos(t / r)))
    s2 = float(special.polygamma(1, exact_terms + 1))  # sum_{r > R} 1 / r^2
    s4 = float(special.polygamma(3, exact_terms + 1)) / 6  # sum_{r > R} 1 / r^4
    log_phi += -c * t**2 * s2 + (c / 12 - c * c / 2) * t**4 * s4
    integrand = np.sin(t * mu) * np.exp(log_phi) / t
    # the integrand tends to mu at t = 0: the trapezoid from 0 with that value
    integral = step * (integrand.sum() - integrand[-1] / 2) + step * mu / 2
    return float(0.5 + integral / math.pi)


# --------------------------------------------------------------------------- (c)


def threshold_law(
    model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str, n: float | None = None
) -> dict[str, float]:
    r"""The cut-off exponent a* above which the standardized gap of nDCG@n^a grows, and its ``1/ln n`` correction.

    With ``rho = kappa_B^2`` and ``lambda = (rho - 1) / 2``, the worse ranker's expected shortfall at the
    top is ``g(0+) - g_B(t) ~ C t^rho (ln 1/t)^lambda`` (the normal tail), the better one's is of higher
    order, and with ``D(r) = r^-beta`` (slowly varying: beta = 0) and ``k = n^a``

    - uncertain top (hi < 1): ``d ~ n^(e(a)) ((1 - a) ln n)^lambda``, ``e(a) = a (1/2 + rho) - rho`` for
      beta < 1/2 and ``a (1 + rho - beta) - rho`` for 1/2 < beta < 1 + rho;
    - certain top (hi = 1): ``d ~ n^(e(a)) ((1 - a) ln n)^(lambda/2)``, ``e(a) = (a (1 + rho) - rho) / 2`` for
      beta < (1 + rho)/2 and ``a (1 + rho - beta) - rho/2`` for (1 + rho)/2 < beta < 1 + rho.

    The local exponent at n is ``e(a) + l / ln n`` (l = lambda or lambda/2), so the gap stops shrinking at
    ``a*_n = a* - l / (e'(a) ln n)``, ``a* = -e(0) / e'(a)``.

    Returns
    -------
    dict
        ``a_star``, ``slope`` (e'), ``log_power`` (l), ``a_star_n`` (NaN without n), ``rho``.

    Examples
    --------
    >>> law = threshold_law("probit(lo=0.1, hi=0.6)", "bayes", "noisy(sigma=0.5)", "log2", 1e6)
    >>> round(law["a_star"], 4), round(law["a_star_n"] - law["a_star"], 4)   # 2 rho/(1+2 rho); (1-rho)/((1+2 rho) ln n)
    (0.5714, 0.0103)
    """
    model, better, worse = _check_pair(model, better, worse)
    d = parse_discount(discount)
    slow = 0.0 if d.decay == "slowly varying" else math.nan
    beta = {"power": d.kwargs.get("beta", 0.0), "zipf": 1.0}.get(d.name, slow)
    if not math.isfinite(beta):
        raise ValueError(f"threshold_law covers slowly varying discounts and power(beta), got {discount!r}")
    rho = worse.kappa(model) ** 2
    lam = (rho - 1) / 2
    if not beta < 1 + rho:
        raise ValueError(f"no threshold: beta = {beta} >= 1 + rho = {1 + rho}: only the first ranks count")
    if model.hi < 1:
        slope, intercept, log_power = (0.5 + rho, -rho, lam) if beta < 0.5 else (1 + rho - beta, -rho, lam)
    else:
        slope, intercept, log_power = (
            ((1 + rho) / 2, -rho / 2, lam / 2) if beta < (1 + rho) / 2 else (1 + rho - beta, -rho / 2, lam / 2)
        )
    a_star = -intercept / slope
    a_star_n = a_star - log_power / (slope * math.log(n)) if n is not None else math.nan
    return dict(a_star=a_star, slope=slope, log_power=log_power, a_star_n=a_star_n, rho=rho)
