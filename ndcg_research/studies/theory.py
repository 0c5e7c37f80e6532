r"""Asymptotic predictions for nDCG of the simulated rankers, to test against the simulation.

Gain profiles
-------------
For a ranker f on the model of :mod:`ndcg_research.studies.simulate`, let ``g_f(t)``
be the expected gain of the item at relative rank ``t = r / n`` (as n grows),
and ``g*(t)`` the same for the ideal ranking: the decreasing rearrangement of
the gain distribution (a step function, ``g*(t) = sum_k [gain(k) - gain(k-1)]
1{t < P(y >= k)}``; binary: ``1{t < p}``). Both integrate to the mean gain
``p = E gain(y)``. Then, with ``E DCG ≈ sum_r g_f(r/n) D(r)``:

Slowly varying D (``D(cn)/D(n) -> 1``: log2, logpower, loglog, ...)
    Write ``D(nt) / D(n) = exp(ln D(nt) - ln D(n)) = 1 - eps_D(n) ln t + O(eps^2 ln^2 t)``,
    with ``eps_D(n) = -n D'(n) / D(n) = -d ln D / d ln r`` at ``r = n`` (-> 0). Then

    .. math:: \frac{DCG}{n D(n)} ≈ p + eps_D(n) \int_0^1 g_f(t) (-\ln t) dt,

    the same for IDCG with ``g*``, and the ratio is

    .. math:: 1 - nDCG_D(f) ≈ eps_D(n)\, c_f, \qquad
              c_f = \frac{1}{p}\Big[\int_0^1 g^*(t)(-\ln t)dt - \int_0^1 g_f(t)(-\ln t)dt\Big] \ge 0.

    For binary relevance ``int g* (-ln t) = int_0^p (-ln t) dt = p (1 - ln p)``.
    The random ranker (``g_f = p``) has ``c = ln(1/p)`` (binary). The error is
    of order ``eps^2`` plus the change of ``eps`` over a factor of n (which for
    loglog is of relative order ``1 / ln n``, not small in practice).

``power(beta)``, 0 < beta < 1 (regularly varying)
    ``D(nt) = n^-beta t^-beta`` exactly, so the factor ``n^(1-beta)`` cancels:

    .. math:: nDCG -> \int g_f(t) t^{-\beta} dt \Big/ \int g^*(t) t^{-\beta} dt,

    a limit below 1 that differs between rankers; binary: the denominator is
    ``p^(1-beta) / (1 - beta)`` and the random ranker's limit is ``p^beta``.

``zipf`` (1/r, critical)
    ``sum_r g_f(r/n) / r ≈ g_f(0+) (ln n + γ) + \int_0^1 (g_f(t) - g_f(0+)) / t dt``,
    so ``nDCG -> g_f(0+) / g*(0+)`` at rate ``1 / ln n``: every ranker whose
    best items have the best relevance probability gets the same limit.

Summable D (``power(beta > 1)``, ``geometric``)
    Only the first few ranks matter: ``E nDCG -> g_f(0+) / g*(0+)``, and nDCG
    itself does not converge to a constant (it keeps the randomness of the
    top few grades).

``none``
    DCG = IDCG = total gain: every ranker gets exactly 1.

Finite n
--------
:func:`finite_n_ndcg` evaluates ``sum_r D(r) E[gain at rank r] / sum_r D(r) E[r-th largest gain]``
for any discount and any n: the ratio of expected DCG to expected ideal DCG,
without the first-order expansion (:func:`rank_gains`, :func:`ideal_rank_gains`).
The expectations are exact, not a discretisation of ``g_f``: the item a ranker puts
at rank r has score quantile ``U_(r) ~ Beta(r, n - r + 1)`` (the r-th smallest of n
uniforms, as items are i.i.d.), so its expected gain is ``E g_f(U_(r))``, computed by
quadrature for the top and bottom :data:`EXACT_RANKS` ranks; in between,
``g_f(r / (n + 1))`` (the omitted Jensen term is of relative order 1/r there). The r-th largest grade is at
least k when at least r of the n grades are, a binomial tail. Replacing
``E g_f(U_(r))`` by the midpoint ``g_f((r - 1/2) / n)`` overstates the top ranks
when ``g_f`` is steep near 0 (noisy rankers), which matters for discounts that
weigh only the first ranks: at n = 1000 the midpoint rule puts ``noisy(sigma=1)``
under ``power(beta=2)`` in the ``probit`` model 0.0033 too high, 4 standard errors of a
20,000-replicate simulation (``tests/test_theory.py``). ``coarse(bins)`` keeps the
cell means of its step profile (its blocks have random sizes; not exact), and
``head(m)`` is exact: ``bayes`` order statistics on ranks 1..m, the mean gain
of the rest below. The remaining difference to the simulation is the one between
``E[DCG / IDCG]`` and ``E DCG / E IDCG``.

This module imports numpy, scipy and pandas (for :func:`theory_table`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
import functools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import integrate, stats
from scipy import special
from scipy.special import ndtr, ndtri

from ..core.discounts import Discount, parse_discount
from ..core.gains import Gain, parse_gain
from ..core.validation import check_integer
from .simulate import Model, Ranker, parse_model, parse_ranker

__all__ = [
    "EULER_GAMMA",
    "eps",
    "eps_numeric",
    "discount_sum",
    "Profile",
    "gain_profile",
    "ideal_profile",
    "mean_gain",
    "c_coefficient",
    "power_limit",
    "top_limit",
    "zipf_approximation",
    "EXACT_RANKS",
    "rank_gains",
    "ideal_rank_gains",
    "finite_n_values",
    "finite_n_ndcg",
    "rare_miss_share",
    "prediction",
    "theory_table",
]

EULER_GAMMA = 0.5772156649015329
#: Ranks at the top (and at the bottom) whose expected gain :func:`rank_gains` computes exactly from
#: the order statistics (the ranks in between: the profile at the mean position r / (n + 1)).
EXACT_RANKS = 1024
# Quadrature over v in (0, 1) for E g(F^{-1}(v)): 64 Gauss-Legendre nodes in s, with v = 6s^5 - 15s^4 + 10s^3,
# whose flat ends smooth the power-law behaviour of Beta quantiles near v = 0 and 1 (error ~1e-12 here).
_S, _W = np.polynomial.legendre.leggauss(64)
_S, _W = (_S + 1) / 2, _W / 2
_QUANTILE_NODES = _S**3 * (10 - 15 * _S + 6 * _S**2)
_QUANTILE_WEIGHTS = _W * 30 * _S**2 * (1 - _S) ** 2
_HERMITE_NODES, _HERMITE_WEIGHTS = np.polynomial.hermite_e.hermegauss(96)
_HERMITE_WEIGHTS = _HERMITE_WEIGHTS / math.sqrt(2 * math.pi)  # expectations over N(0, 1)


# --------------------------------------------------------------------------- eps_D(n)


def eps(discount: str | Discount, n: float | np.ndarray) -> float | np.ndarray:
    r"""Analytic ``eps_D(n) = -n D'(n) / D(n)``, the local log-slope of a built-in discount.

    ===================  ==========================================================
    discount             eps_D(n)
    ===================  ==========================================================
    log2, log(base)      n / ((1 + n) ln(1 + n))
    logpower(gamma)      gamma n / ((1 + n) ln(1 + n))
    loglog               n / ((1 + n) ln 2 (1 + L) ln(1 + L)),  L = log2(1 + n)
    jarvelin(base)       1 / ln n for n > base, 0 below
    power(beta)          beta;  zipf: 1
    zipflog(gamma)       1 + gamma n / ((1 + n) ln(1 + n))
    geometric(p)         -n ln p
    none                 0
    ===================  ==========================================================

    Parameters
    ----------
    discount : str or Discount
        A built-in discount.
    n : float or array
        List length(s), >= 1.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> round(eps("log2", 1e6), 6) == round(1e6 / (1e6 + 1) / math.log(1e6 + 1), 6)
    True
    >>> eps("power(beta=0.5)", 10.0), eps("none", 10.0)
    (0.5, 0.0)
    >>> abs(eps("zipflog(gamma=2)", 1e4) - eps_numeric("zipflog(gamma=2)", 1e4)) < 1e-8
    True
    """
    d = parse_discount(discount, builtin_only=True)
    r = np.asarray(n, dtype=np.float64)
    if np.any(~np.isfinite(r)) or np.any(r < 1):
        raise ValueError(f"n must be finite and >= 1, got {n!r}")
    kw = d.kwargs
    if d.name in ("log2", "log"):
        out = r / ((1 + r) * np.log1p(r))
    elif d.name == "logpower":
        out = kw["gamma"] * r / ((1 + r) * np.log1p(r))
    elif d.name == "loglog":
        L = np.log2(1 + r)
        out = r / ((1 + r) * math.log(2) * (1 + L) * np.log1p(L))
    elif d.name == "jarvelin":
        with np.errstate(divide="ignore"):
            out = np.where(r > kw["base"], 1 / np.log(np.maximum(r, 1.0)), 0.0)
    elif d.name == "power":
        out = np.full_like(r, kw["beta"])
    elif d.name == "zipf":
        out = np.ones_like(r)
    elif d.name == "zipflog":  # ln D = -ln r - gamma ln ln(1 + r) + const
        out = 1 + kw["gamma"] * r / ((1 + r) * np.log1p(r))
    elif d.name == "geometric":
        out = -r * math.log(kw["p"])
    elif d.name == "none":
        out = np.zeros_like(r)
    else:  # a built-in discount this table does not know yet: refuse rather than answer 0
        raise ValueError(f"no analytic eps for discount {str(d)!r}; use eps_numeric")
    return float(out) if np.ndim(n) == 0 else out


def eps_numeric(discount: str | Discount | Callable[[np.ndarray], np.ndarray], n: float | np.ndarray,
                h: float = 1e-4) -> float | np.ndarray:
    """``-d ln D / d ln r`` at ``r = n`` by a central difference in ``ln r`` (any discount defined for real r >= 1).

    Examples
    --------
    >>> abs(eps_numeric("log2", 1e4) - eps("log2", 1e4)) < 1e-8
    True
    """
    d = parse_discount(discount)
    r = np.asarray(n, dtype=np.float64)
    if np.any(r * math.exp(-h) < 1):
        raise ValueError(f"n must be >= exp(h) so that D is evaluated at ranks >= 1, got {n!r}")
    hi, lo = (np.asarray(d(r * math.exp(s)), dtype=np.float64) for s in (h, -h))
    if np.any(hi <= 0) or np.any(lo <= 0):
        raise ValueError(f"discount {d} underflows to 0 near n = {n!r}; its log-slope cannot be differenced there")
    up, down = np.log(hi), np.log(lo)
    out = -(up - down) / (2 * h)
    return float(out) if np.ndim(n) == 0 else out


#: Up to this list length :func:`discount_sum` adds the discounts up; beyond, it uses their asymptotic form.
_EXACT_SUM = 100_000


def discount_sum(discount: str | Discount, n: int) -> float:
    r"""``S(n) = sum_{r=1..n} D(r)``, the total weight of a list of n, from its asymptotic (Euler-Maclaurin) form.

    ====================  ==========================================================================
    discount              S(n)
    ====================  ==========================================================================
    (any, n <= 10^5)      the sum itself
    zipf                  ln n + γ + 1/(2n)   (γ: Euler's constant)
    power(beta), beta≠1   ζ(beta) + n^(1-beta)/(1-beta) + n^-beta/2   (ζ continued below 1)
    geometric(p)          (1 - p^n) / (1 - p)   (exact)
    zipflog(gamma)        the sum up to 10^5, then the integral of D plus the end corrections:
                          it grows like ln 2 ln ln n (gamma = 1), (ln 2)^g (ln n)^(1-g)/(1-g) (g < 1),
                          and converges for gamma > 1, to within (ln 2)^g (ln n)^(1-g)/(g-1) of its limit
    none                  n
    ====================  ==========================================================================

    The growth of S(n) is what separates the decay classes: the first rank's share of the
    weight, ``1 / S(n)``, stays positive for summable discounts and vanishes, however slowly,
    for the others. Slowly varying discounts are not covered (their sums have no short form).

    Parameters
    ----------
    discount : str or Discount
        One of the discounts above.
    n : int
        List length (>= 1).

    Returns
    -------
    float

    Examples
    --------
    >>> r = np.arange(1, 10**6 + 1.0)
    >>> all(math.isclose(discount_sum(d, 10**6), float(parse_discount(d)(r).sum()), rel_tol=1e-7)
    ...     for d in ["zipf", "power(beta=0.8)", "power(beta=1.2)", "zipflog(gamma=1)", "zipflog(gamma=2)"])
    True
    """
    d = parse_discount(discount, builtin_only=True)
    n = check_integer(n, "n")
    kw = d.kwargs
    if d.name == "none":
        return float(n)
    if n <= _EXACT_SUM and d.name in ("zipf", "power", "zipflog", "geometric"):
        return math.fsum(d(np.arange(1, n + 1, dtype=np.float64)))
    if d.name == "geometric":
        return (1 - kw["p"] ** n) / (1 - kw["p"])
    if d.name == "zipf" or (d.name == "power" and kw["beta"] == 1):
        return math.log(n) + EULER_GAMMA + 1 / (2 * n)
    if d.name == "power":
        beta = kw["beta"]
        return float(special.zeta(beta)) + n ** (1 - beta) / (1 - beta) + n**-beta / 2
    if d.name == "zipflog":
        start = _EXACT_SUM
        exact = math.fsum(d(np.arange(1, start + 1, dtype=np.float64)))
        gamma, ln2 = kw["gamma"], math.log(2)

        def antiderivative(r: float) -> float:  # of 1 / ((r + 1) log2(r + 1)^g), exactly
            big = math.log1p(r)
            return ln2 * math.log(big) if gamma == 1 else ln2**gamma * big ** (1 - gamma) / (1 - gamma)

        # D(r) exceeds that integrand by 1 / (r (r + 1) log2(r + 1)^g): integrated with the log held at the start.
        excess = math.log(n * (start + 1) / (start * (n + 1.0))) / math.log2(start + 1) ** gamma
        at = lambda r: float(d(np.array([float(r)]))[0])  # noqa: E731
        return exact + antiderivative(n) - antiderivative(start) + excess + (at(n) - at(start)) / 2
    raise ValueError(f"discount_sum has no closed form for {str(d)!r} (zipf, power, geometric, zipflog, none)")


# --------------------------------------------------------------------------- gain profiles


@dataclass(frozen=True)
class Profile:
    """Expected gain ``g(t)`` at relative rank ``t`` in (0, 1): a step function or a smooth curve.

    Steps: ``g(t) = values[j]`` for ``edges[j] <= t < edges[j + 1]`` (``edges[0] = 0``,
    ``edges[-1] = 1``). Smooth: ``g = function`` (vectorised), with ``top = g(0+)``, smooth
    except at the points ``breaks`` (where the integrals split their quadrature).
    """

    top: float
    edges: np.ndarray | None = None
    values: np.ndarray | None = None
    function: Callable[[np.ndarray], np.ndarray] | None = None
    breaks: tuple[float, ...] = ()
    _integrals: dict[tuple[str, float], float] = field(default_factory=dict, compare=False, repr=False)

    def __call__(self, t: np.ndarray | float) -> np.ndarray:
        t = np.asarray(t, dtype=np.float64)
        if self.function is not None:
            return self.function(t)
        j = np.searchsorted(self.edges, t, side="right") - 1
        return self.values[np.clip(j, 0, len(self.values) - 1)]

    def integral(self, weight: str = "one", beta: float = 0.0) -> float:
        r"""``\int_0^1 g(t) w(t) dt`` for ``w = 1`` ("one"), ``-ln t`` ("log"), ``t^-beta`` ("power"),
        or ``int (g(t) - g(0+)) / t dt`` ("zipf")."""
        if weight == "power" and not 0 <= beta < 1:
            raise ValueError(f"beta must be in [0, 1) for an integrable t^-beta, got {beta!r}")
        key = (weight, float(beta))
        if key not in self._integrals:
            self._integrals[key] = self._step_integral(weight, beta) if self.function is None else \
                self._smooth_integral(weight, beta)
        return self._integrals[key]

    def _smooth_integral(self, weight: str, beta: float) -> float:
        # Substitute t = exp(-u): dt = t du, so the weights become u e^-u, e^-(1-beta)u, 1.
        kernels = {
            "one": lambda u: self.function(np.exp(-u)) * np.exp(-u),
            "log": lambda u: self.function(np.exp(-u)) * u * np.exp(-u),
            "power": lambda u: self.function(np.exp(-u)) * np.exp(-(1 - beta) * u),
            "zipf": lambda u: self.function(np.exp(-u)) - self.top,
        }
        if weight not in kernels:
            raise ValueError(f"weight must be 'one', 'log', 'power' or 'zipf', got {weight!r}")
        f = kernels[weight]
        # u = -ln t from t = 1 down to t = e^-745 (the smallest positive double; every integrand
        # is below 1e-30 there, and stopping keeps quadrature roundoff from being integrated forever).
        pieces = sorted({0.0, 1.0, 4.0, 16.0, 64.0, 256.0, 745.0} | {-math.log(b) for b in self.breaks})
        return float(sum(
            integrate.quad(lambda u: float(f(np.array([u]))[0]), a, b, limit=200, epsabs=1e-12, epsrel=1e-10)[0]
            for a, b in zip(pieces[:-1], pieces[1:])
        ))

    def _step_integral(self, weight: str, beta: float) -> float:
        e, v = self.edges, self.values
        with np.errstate(divide="ignore", invalid="ignore"):
            if weight == "one":
                W = e
            elif weight == "log":  # antiderivative of -ln t: t (1 - ln t), 0 at t = 0
                W = np.where(e > 0, e * (1 - np.log(np.where(e > 0, e, 1))), 0.0)
            elif weight == "power":
                W = e ** (1 - beta) / (1 - beta)
            elif weight == "zipf":
                inner = np.diff(np.log(e[1:]))  # first cell has g = g(0+): contributes 0
                return float((v[1:] - self.top) @ inner)
            else:
                raise ValueError(f"weight must be 'one', 'log', 'power' or 'zipf', got {weight!r}")
        return float(v @ np.diff(W))

    def cell_means(self, n: int) -> np.ndarray:
        """Mean of g over each rank cell ``((r-1)/n, r/n]``, r = 1..n (exact for steps, midpoint for smooth)."""
        if self.function is not None:
            return self.function((np.arange(n) + 0.5) / n)
        # A(t) = int_0^t g: piecewise linear through the edges.
        A = np.concatenate(([0.0], np.cumsum(self.values * np.diff(self.edges))))
        grid = np.arange(n + 1) / n
        return np.diff(np.interp(grid, self.edges, A)) * n


def _unit_gain(model: Model, gain: Gain) -> Callable[[np.ndarray], np.ndarray]:
    """h(eta) = E gain(Binomial(G, eta)), vectorised in eta."""
    k = np.arange(model.grades + 1)
    level_gain = gain(k.astype(np.float64))
    if gain.name == "linear":
        return lambda eta: model.grades * np.asarray(eta, dtype=np.float64)
    return lambda eta: stats.binom.pmf(k, model.grades, np.asarray(eta, dtype=np.float64)[..., None]) @ level_gain


def mean_gain(model: str | Model, gain: str | Gain = "linear") -> float:
    """``p = E gain(y)``, by quadrature over x (closed form ``G (lo + hi) / 2`` for linear gain).

    Examples
    --------
    >>> round(mean_gain("probit"), 6), round(mean_gain("probit(lo=0.1, hi=0.6, grades=3)"), 6)   # G (lo + hi) / 2
    (0.5, 1.05)
    >>> round(mean_gain("probit(grades=3)", "exp2"), 6)
    2.75
    """
    model, gain = parse_model(model), parse_gain(gain, builtin_only=True)
    h = _unit_gain(model, gain)
    return float(_HERMITE_WEIGHTS @ h(model.eta(_HERMITE_NODES)))


def gain_profile(model: str | Model, ranker: str | Ranker, gain: str | Gain = "linear", *,
                 method: str = "auto") -> Profile:
    """Expected gain ``g_f(t)`` of a ranker at relative rank t.

    ``bayes`` / ``noisy(sigma)`` / ``random``: with ``S = X + sigma Z`` ranked at
    upper quantile t, ``X | S`` is ``N(z_t / sqrt(1 + sigma^2), sigma^2 / (1 + sigma^2))``
    (``z_t = Phi^{-1}(1 - t)``; random: ``N(0, 1)``), and ``g_f(t) = E h(eta(X)) | S``
    with ``h(eta) = E gain(Binomial(G, eta))``, computed by Gauss-Hermite quadrature
    (``method="quadrature"``) or, for linear gain, in closed form
    ``G [lo + (hi - lo) Phi(kappa z_t)]`` (``method="closed"``; "auto" picks it when it applies).
    ``coarse(bins=m)``: steps of width 1/m, each the mean of ``h(eta(x))`` over its bin of x.
    ``gated(q)``: the ``bayes`` profile for ``t < q``, then the mean of ``h(eta(x))`` over the
    items below the gate, ``E[h(eta(X)) | X < Phi^{-1}(1 - q)]``, for ``t > q``.

    Examples
    --------
    >>> g = gain_profile("probit", "bayes")
    >>> g(np.array([0.25, 0.5])).round(6).tolist()  # eta(X) is uniform on [0, 1]: g(t) = 1 - t
    [0.75, 0.5]
    """
    model, ranker, gain = parse_model(model), parse_ranker(ranker), parse_gain(gain, builtin_only=True)
    if ranker.kind == "head":
        raise ValueError(f"ranker {str(ranker)!r} has no n-free gain profile (its exact head is a fixed number of "
                         f"items); use rank_gains or finite_n_ndcg for a given n")
    return _gain_profile(model, ranker, gain, method)


@functools.lru_cache(maxsize=256)
def _gain_profile(model: Model, ranker: Ranker, gain: Gain, method: str) -> Profile:
    h = _unit_gain(model, gain)
    if ranker.kind == "gated":
        bayes, q = _gain_profile(model, Ranker("bayes"), gain, method), ranker.q
        below = gated_rest_gain(model, ranker, gain)
        return Profile(top=bayes.top, breaks=(q,),
                       function=lambda t: np.where(np.asarray(t, dtype=np.float64) < q, bayes(t), below))
    if ranker.kind == "coarse":
        m = ranker.bins
        edges_x = np.concatenate(([-np.inf], ranker.bin_edges(), [np.inf]))
        means = []
        for lo_x, hi_x in zip(edges_x[:-1], edges_x[1:]):  # loop over bins
            value, _ = integrate.quad(lambda x: float(h(model.eta(np.array([x])))[0]) * stats.norm.pdf(x),
                                      lo_x, hi_x, epsabs=1e-13, epsrel=1e-11)
            means.append(value * m)
        values = np.array(means[::-1])  # highest bin first
        return Profile(top=float(values[0]), edges=np.arange(m + 1) / m, values=values)
    if method not in ("auto", "closed", "quadrature"):
        raise ValueError(f"method must be 'auto', 'closed' or 'quadrature', got {method!r}")
    if method == "closed" and gain.name != "linear":
        raise ValueError(f"method='closed' needs gain='linear', got gain={str(gain)!r}")
    if method == "closed" or (method == "auto" and gain.name == "linear"):
        kappa = ranker.kappa(model)
        G, lo, hi = model.grades, model.lo, model.hi

        def closed(t: np.ndarray) -> np.ndarray:
            t = np.asarray(t, dtype=np.float64)
            if kappa == 0:  # random ranker: the mean gain everywhere
                return np.full(t.shape, G * (lo + hi) / 2)
            return G * (lo + (hi - lo) * ndtr(-kappa * ndtri(t)))  # z_t = Phi^-1(1 - t) = -Phi^-1(t)

        top = G * (hi if kappa > 0 else (lo + hi) / 2)
        return Profile(top=top, function=closed)
    if ranker.kind == "random":
        shrink, spread = 0.0, 1.0
    else:
        s2 = ranker.sigma**2 if ranker.kind == "noisy" else 0.0
        shrink, spread = 1 / math.sqrt(1 + s2), math.sqrt(s2 / (1 + s2))

    def quadrature(t: np.ndarray) -> np.ndarray:
        t = np.asarray(t, dtype=np.float64)
        mu = -shrink * ndtri(t)
        x = mu[..., None] + spread * _HERMITE_NODES
        return h(model.eta(x)) @ _HERMITE_WEIGHTS

    top = float(h(np.array(model.hi))) if ranker.kind != "random" else mean_gain(model, gain)
    return Profile(top=top, function=quadrature)


def gated_rest_gain(model: str | Model, ranker: str | Ranker, gain: str | Gain = "linear") -> float:
    """Expected gain of an item below the gate of ``gated(q)``: ``E[h(eta(X)) | X < Phi^{-1}(1 - q)]``.

    Examples
    --------
    >>> round(gated_rest_gain("probit", "gated(q=0.1)"), 6)   # Phi(X) is uniform on [0, 0.9] below the gate
    0.45
    """
    model, ranker, gain = parse_model(model), parse_ranker(ranker), parse_gain(gain, builtin_only=True)
    h = _unit_gain(model, gain)
    mass, _ = integrate.quad(lambda x: float(h(model.eta(np.array([x])))[0]) * stats.norm.pdf(x), -np.inf,
                             ranker.gate(), epsabs=1e-13, epsrel=1e-11)
    return mass / (1 - ranker.q)


def ideal_profile(model: str | Model, gain: str | Gain = "linear") -> Profile:
    """``g*(t)``: gain(k) on ``P(y > k) <= t < P(y >= k)``, a step function.

    Examples
    --------
    >>> g = ideal_profile("probit(lo=0.1, hi=0.6)")  # binary, p = 0.35
    >>> g.edges.tolist(), g.values.tolist()
    ([0.0, 0.35, 1.0], [1.0, 0.0])
    """
    return _ideal_profile(parse_model(model), parse_gain(gain, builtin_only=True))


@functools.lru_cache(maxsize=64)
def _ideal_profile(model: Model, gain: Gain) -> Profile:
    G = model.grades
    levels = gain(np.arange(G + 1, dtype=np.float64))
    if G == 1:
        q = np.array([(model.lo + model.hi) / 2])
    else:  # q[k-1] = P(y >= k) = E_x P(Binomial(G, eta(x)) >= k)
        k = np.arange(1, G + 1)
        q = np.array([
            integrate.quad(lambda x, kk=kk: float(stats.binom.sf(kk - 1, G, model.eta(np.array([x]))[0])
                                                 * stats.norm.pdf(x)), -np.inf, np.inf, epsabs=1e-13)[0]
            for kk in k  # loop over grade levels
        ])
    edges = np.concatenate(([0.0], q[::-1], [1.0]))  # q is decreasing in k
    values = levels[::-1].copy()  # gain(G) on [0, P(y >= G)), ..., gain(0) = 0 last
    return Profile(top=float(values[0]), edges=edges, values=values)


# --------------------------------------------------------------------------- predictions


def c_coefficient(model: str | Model, ranker: str | Ranker, gain: str | Gain = "linear") -> float:
    r"""``c_f = (1/p) [int g*(t)(-ln t) dt - int g_f(t)(-ln t) dt]``: ``1 - nDCG ≈ eps_D(n) c_f``.

    Examples
    --------
    >>> round(c_coefficient("probit", "random"), 6) == round(math.log(2), 6)   # ln(1/p), p = 1/2
    True
    """
    model = parse_model(model)
    star = ideal_profile(model, gain)
    p = star.integral("one")
    return (star.integral("log") - gain_profile(model, ranker, gain).integral("log")) / p


def power_limit(model: str | Model, ranker: str | Ranker, beta: float, gain: str | Gain = "linear") -> float:
    r"""``lim nDCG`` under ``power(beta)``, 0 < beta < 1: ``int g_f t^-beta dt / int g* t^-beta dt``.

    Examples
    --------
    >>> round(power_limit("probit", "random", 0.5), 6) == round(0.5 ** 0.5, 6)   # p^beta
    True
    """
    if not 0 < beta < 1:
        raise ValueError(f"beta must be in (0, 1) for a ranker-dependent limit, got {beta!r}")
    model = parse_model(model)
    num = gain_profile(model, ranker, gain).integral("power", beta)
    return num / ideal_profile(model, gain).integral("power", beta)


def top_limit(model: str | Model, ranker: str | Ranker, gain: str | Gain = "linear") -> float:
    """``g_f(0+) / g*(0+)``: the limit under ``zipf`` and of the mean under summable discounts.

    Examples
    --------
    >>> round(top_limit("probit", "bayes"), 6), round(top_limit("probit", "random"), 6)   # random: p / g*(0+)
    (1.0, 0.5)
    >>> round(top_limit("probit(lo=0.1, hi=0.6)", "noisy(sigma=1)"), 6)   # hi: the ideal's top has grade 1
    0.6
    """
    model = parse_model(model)
    return gain_profile(model, ranker, gain).top / ideal_profile(model, gain).top


def zipf_approximation(model: str | Model, ranker: str | Ranker, n: float, gain: str | Gain = "linear") -> float:
    r"""nDCG under ``zipf`` to order ``1/ln n``:
    ``[g_f(0)(ln n + γ) + int (g_f - g_f(0))/t] / [g*(0)(ln n + γ) + int (g* - g*(0))/t]``.

    Examples
    --------
    >>> round(zipf_approximation("probit", "noisy(sigma=1)", 1000), 3)
    0.87
    >>> round(finite_n_ndcg("probit", "noisy(sigma=1)", "zipf", 1000), 3)   # the exact finite-n value
    0.883
    >>> round(zipf_approximation("probit", "random", 1e6), 3), top_limit("probit", "random")   # slowly, to the limit
    (0.525, 0.5)
    """
    model = parse_model(model)
    f, star = gain_profile(model, ranker, gain), ideal_profile(model, gain)
    L = math.log(n) + EULER_GAMMA
    return (f.top * L + f.integral("zipf")) / (star.top * L + star.integral("zipf"))


@functools.lru_cache(maxsize=32)
def _order_statistic_quantiles(n: int, count: int) -> np.ndarray:
    """Quantiles of ``U_(r) ~ Beta(r, n - r + 1)`` at the Gauss-Legendre nodes, r = 1..count: shape (count, nodes)."""
    r = np.arange(1, count + 1, dtype=np.float64)[:, None]
    return special.betaincinv(r, n - r + 1, _QUANTILE_NODES[None, :])


def _order_statistic_means(profile: Profile, n: int, count: int) -> np.ndarray:
    """``E g(U_(r))`` for r = 1..count: ``int_0^1 g(F_r^{-1}(v)) dv`` by Gauss-Legendre quadrature."""
    return profile(_order_statistic_quantiles(n, count)) @ _QUANTILE_WEIGHTS


def rank_gains(model: str | Model, ranker: str | Ranker, n: int, gain: str | Gain = "linear") -> np.ndarray:
    """Expected gain of the item a ranker puts at rank r = 1..n on a data set of n items.

    ``bayes``, ``noisy``, ``random``: ``E g_f(U_(r))`` with ``U_(r) ~ Beta(r, n - r + 1)``,
    exact (quadrature) for the first and the last :data:`EXACT_RANKS` ranks,
    ``g_f(r / (n + 1))`` in between.
    ``head(m)``: the ``bayes`` values on ranks 1..m, then the mean gain of the other
    n - m items, ``(n p - sum of the head) / (n - m)``. ``gated(q)``: rank r holds the r-th
    best item when that item is above the gate (``U_(r) < q``), else a random item from below
    the gate, so its expected gain is ``E[g_bayes(U_(r)); U_(r) < q] + (1 - P(U_(r) < q)) g_rest``
    (``P(U_(r) < q)`` exact; the truncated mean by quadrature on the first and last
    :data:`EXACT_RANKS` ranks, from the normal approximation of ``U_(r)`` in between).
    ``coarse(bins)``: the mean of its step profile over each rank's cell ``((r - 1)/n, r/n]``
    (an approximation).

    Parameters
    ----------
    model, ranker : str or Model, Ranker
    n : int
        Items in the data set (>= 1).
    gain : str or Gain, default "linear"

    Returns
    -------
    numpy.ndarray
        Shape (n,); sums to ``n p`` (up to quadrature error), p the mean gain.

    Examples
    --------
    >>> g = rank_gains("probit", "bayes", 3)   # eta(X) uniform: E U_(r) = r / (n + 1)
    >>> np.round(g, 6).tolist()
    [0.75, 0.5, 0.25]
    >>> round(float(rank_gains("probit", "head(m=2)", 4)[3]), 6)   # (2 - 0.8 - 0.6) / 2
    0.3
    """
    model, ranker, gain = parse_model(model), parse_ranker(ranker), parse_gain(gain, builtin_only=True)
    n = check_integer(n, "n")
    if ranker.kind == "coarse":
        return _gain_profile(model, ranker, gain, "auto").cell_means(n)
    if ranker.kind == "gated":
        return _gated_rank_gains(model, ranker, n, gain)
    if ranker.kind == "head":
        head = min(ranker.m, n)
        out = np.empty(n)
        out[:head] = rank_gains(model, "bayes", n, gain)[:head]
        if head < n:
            out[head:] = (n * mean_gain(model, gain) - out[:head].sum()) / (n - head)
        return out
    profile = _gain_profile(model, ranker, gain, "auto")
    if n <= 2 * EXACT_RANKS:
        return _order_statistic_means(profile, n, n)
    out = profile(np.arange(1, n + 1) / (n + 1.0))
    quantiles = _order_statistic_quantiles(n, EXACT_RANKS)
    out[:EXACT_RANKS] = profile(quantiles) @ _QUANTILE_WEIGHTS
    # U_(n + 1 - r) has the law of 1 - U_(r): the bottom ranks are as steep as the top ones.
    out[-EXACT_RANKS:] = (profile(1 - quantiles) @ _QUANTILE_WEIGHTS)[::-1]
    return out


def _gated_rank_gains(model: Model, ranker: Ranker, n: int, gain: Gain) -> np.ndarray:
    """:func:`rank_gains` of ``gated(q)`` (see there)."""
    q, rest = ranker.q, gated_rest_gain(model, ranker, gain)
    bayes = _gain_profile(model, Ranker("bayes"), gain, "auto")
    out = rank_gains(model, "bayes", n, gain)  # U_(r) < q for sure: the r-th best item
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
    out[lo - 1: hi] = truncated + (1 - inside) * rest
    return out


def ideal_rank_gains(model: str | Model, n: int, gain: str | Gain = "linear") -> np.ndarray:
    """Expected r-th largest gain among n items, r = 1..n: what the ideal ranking puts at rank r.

    ``E gain(y_(r)) = gain(0) + sum_k [gain(k) - gain(k-1)] P(Binomial(n, q_k) >= r)``
    with ``q_k = P(y >= k)``: the r-th largest grade is at least k when at least r
    grades are (binomial tails, computed within 40 standard deviations of ``n q_k``).

    Examples
    --------
    >>> np.round(ideal_rank_gains("probit", 2), 6).tolist()   # p = 1/2: P(at least 1 of 2), P(both)
    [0.75, 0.25]
    """
    model, gain = parse_model(model), parse_gain(gain, builtin_only=True)
    n = check_integer(n, "n")
    star = ideal_profile(model, gain)
    # star: values gain(G), ..., gain(0) on [0, q_G), ..., [q_1, 1): q_k = edges[G - k + 1].
    levels, q = star.values[::-1], star.edges[1:-1][::-1]  # gain(0..G); q_1..q_G
    out = np.full(n, float(levels[0]))
    ranks = np.arange(1, n + 1)
    for step, qk in zip(np.diff(levels), q):  # loop over grade levels
        sd = math.sqrt(n * qk * (1 - qk))
        lo, hi = max(1, math.floor(n * qk - 40 * sd)), min(n, math.ceil(n * qk + 40 * sd))
        tail = np.zeros(n)
        tail[: lo - 1] = 1.0
        tail[lo - 1: hi] = stats.binom.sf(ranks[lo - 1: hi] - 1, n, qk)
        out += step * tail
    return out


def finite_n_values(model: str | Model, rankers: Sequence[str | Ranker], discounts: Sequence[str | Discount], n: int,
                    gain: str | Gain = "linear") -> np.ndarray:
    """:func:`finite_n_ndcg` of every ranker under every discount at one n, sharing the expected gains.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(rankers), len(discounts))``.

    Examples
    --------
    >>> finite_n_values("probit", ["bayes", "random"], ["log2", "none"], 100).round(6)[:, 1].tolist()
    [1.0, 1.0]
    """
    model = parse_model(model)
    n = check_integer(n, "n")
    ranks = np.arange(1, n + 1, dtype=np.float64)
    D = np.stack([parse_discount(d, builtin_only=True)(ranks) for d in discounts], axis=1)  # (n, discounts)
    ideal = ideal_rank_gains(model, n, gain) @ D
    return np.stack([rank_gains(model, r, n, gain) @ D for r in rankers]) / ideal


def finite_n_ndcg(model: str | Model, ranker: str | Ranker, discount: str | Discount, n: int,
                  gain: str | Gain = "linear") -> float:
    """``sum_r D(r) E[gain at rank r] / sum_r D(r) E[r-th largest gain]``: expected DCG over expected ideal DCG.

    See :func:`rank_gains` and :func:`ideal_rank_gains`.

    Examples
    --------
    >>> round(finite_n_ndcg("probit", "bayes", "none", 1000), 12)
    1.0
    """
    return float(finite_n_values(model, [ranker], [discount], n, gain)[0, 0])


def rare_miss_share(model: str | Model, ranker: str | Ranker, discount: str | Discount, n: int, replicates: int,
                    gain: str | Gain = "linear") -> float:
    """Share of a ranker's expected DCG shortfall that comes from misses too rare for ``replicates`` data sets.

    Over the ranks r where the ideal list holds the top gain ``g*(0+)`` (r up to n times the
    probability of the top grade), the ranker's expected shortfall is
    ``sum_r (g*(0+) - E[gain at rank r]) D(r)``. A rank's miss probability is
    ``p_r = 1 - E[gain at rank r] / g*(0+)`` (exact for binary relevance, a lower bound for graded);
    the function returns the share of the shortfall from ranks with ``replicates * p_r < 1``: misses
    that ``replicates`` simulated data sets are expected to see less than once. When that share is
    large, the sample mean of nDCG rests on events the sample mostly lacks: it overstates the
    expected value, and its t interval is too narrow. 0 when there is no shortfall.

    Examples
    --------
    >>> rare_miss_share("probit", "random", "log2", 1000, 100)   # p_r = 1/2: seen 50 times in 100 data sets
    0.0
    >>> round(rare_miss_share("probit", "bayes", "geometric(p=0.5)", 10_000, 100), 3)   # p_r = r / 10001
    1.0
    """
    model, d = parse_model(model), parse_discount(discount, builtin_only=True)
    n, replicates = check_integer(n, "n"), check_integer(replicates, "replicates")
    star = ideal_profile(model, gain)
    top_ranks = max(1, int(n * star.edges[1]))  # ranks the ideal fills with the top gain, in expectation
    gains = rank_gains(model, ranker, n, gain)[:top_ranks]
    miss = np.clip(1 - gains / star.top, 0.0, 1.0)
    shortfall = miss * d(np.arange(1, top_ranks + 1, dtype=np.float64))
    total = shortfall.sum()
    return float(shortfall[replicates * miss < 1].sum() / total) if total > 0 else 0.0


def prediction(model: str | Model, ranker: str | Ranker, discount: str | Discount, n: int,
               gain: str | Gain = "linear", *, finite_n: bool = True) -> dict[str, float | str]:
    """The theory for one (ranker, discount, n): regime, limit, first-order value and finite-n value.

    Returns
    -------
    dict
        ``regime`` (the discount's decay), ``limit`` (of nDCG, or of its mean for
        summable discounts), ``first_order`` (``1 - eps c`` for slowly varying, the
        zipf approximation, the limit for power(beta<1) and none, NaN for summable),
        ``eps`` (eps_D(n)), ``c`` (c_f, slowly varying only, else NaN) and
        ``finite_n`` (:func:`finite_n_ndcg`, NaN when ``finite_n=False``). A ``head(m)``
        ranker has only the finite-n value (its limits depend on how m grows with n).

    Examples
    --------
    >>> p = prediction("probit", "random", "power(beta=0.5)", 1000)
    >>> p["regime"], round(p["limit"], 4)
    ('regularly varying', 0.7071)
    """
    model, ranker, d = parse_model(model), parse_ranker(ranker), parse_discount(discount, builtin_only=True)
    regime = d.decay
    out: dict[str, float | str] = {"regime": regime, "eps": eps(d, float(n)), "c": math.nan}
    if ranker.kind == "head":  # no n-free profile: only the finite-n value
        out.update(limit=math.nan, first_order=math.nan)
    elif regime == "slowly varying":
        c = c_coefficient(model, ranker, gain)
        out.update(limit=1.0, c=c, first_order=1 - out["eps"] * c)
    elif regime == "regularly varying":
        lim = power_limit(model, ranker, d.kwargs["beta"], gain)
        out.update(limit=lim, first_order=lim)
    elif regime == "critical":  # zipf: the 1/ln n approximation; zipflog: only the limit
        first = zipf_approximation(model, ranker, n, gain) if d.name != "zipflog" else math.nan
        out.update(limit=top_limit(model, ranker, gain), first_order=first)
    elif regime == "summable":
        out.update(limit=top_limit(model, ranker, gain), first_order=math.nan)
    else:
        out.update(limit=1.0, first_order=1.0)
    out["finite_n"] = finite_n_ndcg(model, ranker, d, n, gain) if finite_n else math.nan
    return out


def theory_table(model: str | Model, rankers: Sequence[str | Ranker], discounts: Sequence[str | Discount],
                 ns: Sequence[int], gain: str | Gain = "linear") -> pd.DataFrame:
    """:func:`prediction` for every (discount, ranker, n), sharing the work across discounts and rankers.

    Returns
    -------
    pandas.DataFrame
        One row per (discount, ranker, n), in that order, with columns model, discount,
        decay, ranker, n, limit, first_order, eps, c and finite_n (see :func:`prediction`).

    Examples
    --------
    >>> table = theory_table("probit", ["bayes", "random"], ["log2", "none"], [100, 1000])
    >>> len(table), list(table.columns[:5])
    (8, ['model', 'discount', 'decay', 'ranker', 'n'])
    """
    model = parse_model(model)
    rankers = [parse_ranker(r) for r in rankers]
    discounts = [parse_discount(d, builtin_only=True) for d in discounts]
    ns = sorted({check_integer(n, "every n") for n in ns})
    finite: dict[tuple[Discount, Ranker, int], float] = {}
    for n in ns:  # loop over list lengths; each computes the expected gains once
        values = finite_n_values(model, rankers, discounts, n, gain)
        for i, r in enumerate(rankers):
            for j, d in enumerate(discounts):
                finite[d, r, n] = float(values[i, j])
    rows = []
    for d in discounts:
        for r in rankers:
            base = prediction(model, r, d, ns[0], gain, finite_n=False)
            for n in ns:
                p = dict(base)
                p["eps"] = eps(d, float(n))
                if r.kind == "head":
                    pass
                elif p["regime"] == "slowly varying":
                    p["first_order"] = 1 - p["eps"] * p["c"]
                elif p["regime"] == "critical" and d.name != "zipflog":
                    p["first_order"] = zipf_approximation(model, r, n, gain)
                rows.append(dict(model=str(model), discount=str(d), decay=p["regime"], ranker=str(r), n=n,
                                 limit=p["limit"], first_order=p["first_order"], eps=p["eps"], c=p["c"],
                                 finite_n=finite[d, r, n]))
    return pd.DataFrame(rows)
