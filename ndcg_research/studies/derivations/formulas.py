r"""The derived quantities of notebook 15, derivations (a)-(d) of the Theory page (``docs/theory.md``).

Binary probit model, rankers A (better) and B of the ``bayes`` / ``noisy(sigma)`` family with gain profiles ``g_A``,
``g_B`` and first-order constants ``c_A < c_B``; ``U_f`` is an item's upper score quantile under f."""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import special
from scipy.special import ndtr

from ...core import parse_discount
from ...simulation import finite_n, theory
from ...simulation.model import Model, Ranker, parse_model, parse_ranker
from .sampler import log_legendre


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


def first_order_limit(
    model: str | Model, better: str | Ranker, worse: str | Ranker, *, draws: int = 2_000_000, seed: int = 0
) -> dict[str, float]:
    r"""(a) The discount-free limit ``p (c_B - c_A) / sd(h)`` of ``d / sqrt(n)`` under slowly varying discounts.

    ``h = y L + M`` (``L = ln(U_B / U_A)``, ``M = Psi_B(U_B) - Psi_A(U_A)``, ``Psi_f(u) = int_u^1 g_f(v) / v dv``) is
    the Hajek projection of ``T_n = sum_r (y_B(r) - y_A(r)) ln r``; its variance is estimated from ``draws`` items."""
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
        g = theory.gain_profile(model, r)(np.exp(-w))
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


def expected_dcg_gap(model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str, n: int) -> float:
    """``E[DCG_A - DCG_B]`` at list length n, from the exact order statistics of the gains."""
    model, better, worse = _check_pair(model, better, worse)
    weights = parse_discount(discount)(np.arange(1, n + 1, dtype=np.float64))
    return float((finite_n.rank_gains(model, better, n) - finite_n.rank_gains(model, worse, n)) @ weights)


def mcdiarmid_bound(expected_gap: float, n: int, top_weight: float, last_weight: float) -> float:
    r"""(b) McDiarmid's bound ``exp(-2 E[F]^2 / (n c^2))``, ``c = 2 (D(1) - D(n))``, on ``P(DCG_A - DCG_B <= 0)``; 1
    when the expected gap is not positive."""
    if expected_gap <= 0:
        return 1.0
    c = 2 * (top_weight - last_weight)
    return math.exp(-2 * expected_gap**2 / (n * c * c))


def mcdiarmid_first_order(
    model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str, n: float
) -> float:
    r"""McDiarmid's bound with ``E[F] ~ n p D(n) eps_D(n) (c_B - c_A)``, the first-order expansion."""
    model, better, worse = _check_pair(model, better, worse)
    d = parse_discount(discount)
    dn, d1 = float(d(np.array([n]))[0]), float(d(np.array([1.0]))[0])
    delta_c = theory.c_coefficient(model, worse) - theory.c_coefficient(model, better)
    e = float(theory.eps(d, float(n)))
    return math.exp(-n * (model.mean_grade * dn * e * delta_c) ** 2 / (2 * (d1 - dn) ** 2))


def mcdiarmid_informative_n(model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str) -> float:
    """The list length from which the first-order McDiarmid bound is below 0.05 (bisection in ln n over [100, 1e300]:
    the bound falls with n for a slowly varying discount; an end of the range where it never or always is)."""
    lo, hi = math.log(100.0), math.log(1e300)
    for _ in range(200):
        mid = (lo + hi) / 2
        if mcdiarmid_first_order(model, better, worse, discount, math.exp(mid)) > 0.05:
            lo = mid
        else:
            hi = mid
    return math.exp(hi)


@functools.lru_cache(maxsize=256)
def zipf_finite(model: str | Model, better: str | Ranker, worse: str | Ranker, n: int) -> dict[str, float]:
    r"""(d) Under ``D = 1/r`` at length n: the exact mean DCG gap ``mean_gap`` and ``var_ind``, the variance if every
    grade were independent (it ignores the items the two heads share); the first 2048 ranks exactly, the rest as the
    midpoint integral of ``g_f(r / (n + 1))``."""
    model, better, worse = _check_pair(model, better, worse)
    ga, gb = theory.gain_profile(model, better), theory.gain_profile(model, worse)
    count = min(n, 2048)  # the top ranks' expected gains from the order statistics
    ma, mb = (finite_n.order_statistic_means(g, n, count) for g in (ga, gb))
    r = np.arange(1, count + 1, dtype=np.float64)
    mean = math.fsum((ma - mb) / r)
    var = math.fsum((ma * (1 - ma) + mb * (1 - mb)) / r**2)
    if n > count:
        # Midpoint integral in w = ln v from ln(count + 1/2) to ln(n + 1/2).
        for v, weights, half in log_legendre(math.log(count + 0.5), math.log(n + 0.5), 48):
            a, b = ga(v / (n + 1)), gb(v / (n + 1))
            mean += float(weights @ (a - b)) * half  # dv / v = dw
            var += float(weights @ ((a * (1 - a) + b * (1 - b)) / v)) * half  # dv / v^2 = dw / v
    return dict(mean_gap=mean, var_ind=var, std_gap_ind=mean / math.sqrt(var) if var > 0 else math.inf)


@functools.lru_cache(maxsize=64)
def zipf_limit(model: str | Model, better: str | Ranker, worse: str | Ranker) -> dict[str, float]:
    r"""(d) The limit under ``D = 1/r``: ``mu = int_0^1 (g_A(t) - g_B(t)) / t dt``, ``var = hi (1 - hi) pi^2 / 3``,
    the standardized gap and P(correct) (infinite and 1 with a certain top, hi = 1)."""
    model, better, worse = _check_pair(model, better, worse)
    mu = theory.gain_profile(model, better).integral("zipf") - theory.gain_profile(model, worse).integral("zipf")
    var = 2 * model.hi * (1 - model.hi) * (math.pi**2 / 6)  # zeta(2) = sum_r 1 / r^2
    if var == 0:
        return dict(mu=mu, var=0.0, std_gap=math.inf, p_correct=1.0)
    return dict(mu=mu, var=var, std_gap=mu / math.sqrt(var), p_correct=zipf_limit_probability(mu, model.hi))


@functools.lru_cache(maxsize=64)
def zipf_limit_probability(mu: float, hi: float) -> float:
    r"""``P(mu + W > 0)`` for ``W = sum_r (xi_r - xi'_r) / r``, xi, xi' i.i.d. ``Bernoulli(hi)``, by Gil-Pelaez
    inversion of W's characteristic function (exact for ``r <= exact_terms``, a polygamma series beyond)."""
    exact_terms, t_max, step, c = 2000, 400.0, 0.004, hi * (1 - hi)
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


def threshold_law(
    model: str | Model, better: str | Ranker, worse: str | Ranker, discount: str, n: float | None = None
) -> dict[str, float]:
    r"""(c) The cut-off exponent a* above which the standardized gap of nDCG@n^a grows, and ``a*_n``, a* corrected by
    the local exponent ``e(a) + l / ln n`` at n: ``a_star``, ``slope`` (e'), ``log_power`` (l), ``a_star_n``, ``rho``.
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
    # The slope is flat below an edge of beta, then 1 + rho - beta; a certain top (hi = 1) moves the edge and halves
    # the intercept and the log power.
    if model.hi >= 1:
        flat = edge = (1 + rho) / 2
        scale = 2
    else:
        flat, edge, scale = 0.5 + rho, 0.5, 1
    slope = flat if beta < edge else 1 + rho - beta
    intercept, log_power = -rho / scale, lam / scale
    a_star = -intercept / slope
    a_star_n = a_star - log_power / (slope * math.log(n)) if n is not None else math.nan
    return dict(a_star=a_star, slope=slope, log_power=log_power, a_star_n=a_star_n, rho=rho)
