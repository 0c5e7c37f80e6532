r"""Asymptotic predictions for the nDCG of the simulated rankers, to test against the simulation.

``g_f(t)`` is the expected gain of a ranker's item at relative rank ``t = r / n``, ``g*(t)`` the ideal's (the
decreasing rearrangement of the gains, a step function); both integrate to the mean gain p. With
``E DCG ≈ sum_r g_f(r/n) D(r)``, by the decay of D:

- slowly varying (log2, logpower, loglog): ``1 - nDCG ≈ eps_D(n) c_f``, ``eps_D(n) = -n D'(n) / D(n) -> 0`` and
  ``c_f = [int g*(t)(-ln t) dt - int g_f(t)(-ln t) dt] / p`` (random, binary: ``ln(1/p)``); the error is of order
  ``eps^2`` plus the change of eps over a factor of n (relative ``1 / ln n`` for loglog);
- ``power(beta < 1)``: ``nDCG -> int g_f t^-beta / int g* t^-beta``, a limit below 1 (random, binary: ``p^beta``);
- ``zipf``: ``sum_r g_f(r/n) / r ≈ g_f(0+)(ln n + γ) + int (g_f - g_f(0+)) / t``: ``nDCG -> g_f(0+) / g*(0+)`` at
  rate ``1 / ln n``;
- summable (``power(beta > 1)``, geometric): ``E nDCG -> g_f(0+) / g*(0+)`` and nDCG keeps the randomness of the top;
- ``none``: exactly 1. Finite n without the expansion: :mod:`~ndcg_research.simulation.finite_n`."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import integrate, stats
from scipy.special import ndtr, ndtri

from .._validation import check_array, check_bool, check_option, check_real
from ..core import Discount, Gain, parse_discount, parse_gain
from ..core import _kernels as kernels
from .model import Model, Ranker, check_items, parse_model, parse_ranker

EULER_GAMMA = 0.5772156649015329
_HERMITE_NODES, _HERMITE_WEIGHTS = np.polynomial.hermite_e.hermegauss(96)
_HERMITE_WEIGHTS = _HERMITE_WEIGHTS / math.sqrt(2 * math.pi)  # expectations over N(0, 1)
_Curve = Callable[[np.ndarray], np.ndarray]  # a vectorised function: a profile, a discount
#: The most ranks on which :func:`eps_numeric` checks a callable discount, from rank 1 (8 MB of values).
CHECKED_RANKS = 2**20


def eps(discount: str | Discount, n: float | np.ndarray) -> float | np.ndarray:
    """Analytic ``eps_D(n) = -n D'(n) / D(n)``, the local log-slope of a built-in discount, at list length(s) n."""
    d = parse_discount(discount, builtin_only=True)
    r = check_array(n, "n", low=1)  # numbers (not '5' or True), finite and >= 1
    kw = d.kwargs
    formulas: dict[str, Callable[[], np.ndarray]] = {  # from ln D of each discount
        "log2": lambda: kw.get("gamma", 1.0) * r / ((1 + r) * np.log1p(r)),
        "loglog": lambda: r / ((1 + r) * math.log(2) * (1 + np.log2(1 + r)) * np.log1p(np.log2(1 + r))),
        "jarvelin": lambda: np.where(r > kw["base"], 1 / np.log(np.maximum(r, 1.0)), 0.0),
        "power": lambda: np.full_like(r, kw.get("beta", 1.0)),
        "zipflog": lambda: 1 + kw["gamma"] * r / ((1 + r) * np.log1p(r)),  # ln D = -ln r - gamma ln ln(1 + r) + c
        "geometric": lambda: -r * math.log(kw["p"]),
        "none": lambda: np.zeros_like(r),
    }
    formulas |= {"log": formulas["log2"], "logpower": formulas["log2"], "zipf": formulas["power"]}
    with np.errstate(divide="ignore"):  # jarvelin's 1 / ln r at r = 1, where it is not taken
        out = formulas[d.name]()
    return float(out) if np.ndim(n) == 0 else out


def eps_numeric(discount: str | Discount | _Curve, n: float | np.ndarray, h: float = 1e-4) -> float | np.ndarray:
    """``-d ln D / d ln r`` at ``r = n`` by a central difference in ``ln r`` (any discount defined for real r >= 1), the
    step ``h > 0``. A callable is first checked as the metric functions check it (finite, >= 0, non-increasing,
    ``D(1) > 0``) on the ranks 1 to ``n e^h`` (at most :data:`CHECKED_RANKS` of them); D must be positive where it is
    differenced."""
    d, h = parse_discount(discount), check_real(h, "h", low=0, closed="neither")
    r = check_array(n, "n")
    if np.any(r * math.exp(-h) < 1):
        raise ValueError(f"n must be >= exp(h) so that D is evaluated at ranks >= 1, got {n!r}")
    if not isinstance(d, Discount):  # the metric functions' check of a callable, on whole ranks
        kernels.discount_vector(d, min(math.ceil(float(r.max()) * math.exp(h)), CHECKED_RANKS))
    hi, lo = (np.asarray(d(r * math.exp(s)), dtype=np.float64) for s in (h, -h))
    if not isinstance(d, Discount):  # and where it is differenced (between whole ranks, or beyond the checked ones)
        bad = np.flatnonzero(~(np.isfinite(lo) & np.isfinite(hi) & (hi >= 0) & (hi <= lo)))
        if bad.size:
            at = float(np.ravel(r)[bad[0]])
            raise ValueError(
                f"discount {getattr(d, '__name__', d)} must be finite, >= 0 and non-increasing, got "
                f"D({at * math.exp(-h)!r}) = {float(np.ravel(lo)[bad[0]])!r} and "
                f"D({at * math.exp(h)!r}) = {float(np.ravel(hi)[bad[0]])!r} near n = {at!r}"
            )
    if np.any(hi <= 0) or np.any(lo <= 0):
        raise ValueError(f"discount {d} underflows to 0 near n = {n!r}; its log-slope cannot be differenced there")
    out = -(np.log(hi) - np.log(lo)) / (2 * h)
    return float(out) if np.ndim(n) == 0 else out


def exact_discount_sum(discount: str | Discount | _Curve, n: int) -> float:
    """``D(1) + ... + D(n)`` of any discount, summed exactly in float64 (``math.fsum``); n an integer from 1 to 10^8
    (the ranks and their discounts are held in memory: 1.6 GB at the maximum, far beyond the studies' lists). A
    callable is checked as the metric functions check it (finite, >= 0, non-increasing, ``D(1) > 0``)."""
    d, n = parse_discount(discount), check_items(n)
    if isinstance(d, Discount):
        return math.fsum(d(np.arange(1, n + 1, dtype=np.float64)))
    return math.fsum(kernels.discount_vector(d, n))  # checked: D(1..n) as the metric functions take it


@dataclass(frozen=True)
class Profile:
    """Expected gain ``g(t)`` at relative rank t in (0, 1), ``top = g(0+)``: steps (``values[j]`` on
    ``[edges[j], edges[j + 1])``) or a vectorised ``function``, smooth but at ``breaks`` (where quadrature splits)."""

    top: float
    edges: np.ndarray | None = None
    values: np.ndarray | None = None
    function: _Curve | None = None
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
        weight, beta = check_option(weight, "weight", ("one", "log", "power", "zipf")), check_real(beta, "beta")
        if weight == "power" and not 0 <= beta < 1:
            raise ValueError(f"beta must be in [0, 1) for an integrable t^-beta, got {beta!r}")
        integral = self._step_integral if self.function is None else self._smooth_integral
        key = (weight, float(beta))
        if key not in self._integrals:
            self._integrals[key] = integral(weight, beta)
        return self._integrals[key]

    def _smooth_integral(self, weight: str, beta: float) -> float:
        # Substitute t = exp(-u): dt = t du, so the weights become u e^-u, e^-(1-beta)u, 1.
        kernels = {
            "one": lambda u: self.function(np.exp(-u)) * np.exp(-u),
            "log": lambda u: self.function(np.exp(-u)) * u * np.exp(-u),
            "power": lambda u: self.function(np.exp(-u)) * np.exp(-(1 - beta) * u),
            "zipf": lambda u: self.function(np.exp(-u)) - self.top,
        }
        f = kernels[weight]
        # u = -ln t from t = 1 down to t = e^-745 (the smallest positive double; every integrand
        # is below 1e-30 there, and stopping keeps quadrature roundoff from being integrated forever).
        pieces = sorted({0.0, 1.0, 4.0, 16.0, 64.0, 256.0, 745.0} | {-math.log(b) for b in self.breaks})
        quad = functools.partial(integrate.quad, lambda u: float(f(np.array([u]))[0]), limit=200)
        return float(sum(quad(a, b, epsabs=1e-12, epsrel=1e-10)[0] for a, b in itertools.pairwise(pieces)))

    def _step_integral(self, weight: str, beta: float) -> float:
        e, v = self.edges, self.values
        with np.errstate(divide="ignore", invalid="ignore"):
            if weight == "one":
                W = e
            elif weight == "log":  # antiderivative of -ln t: t (1 - ln t), 0 at t = 0
                W = np.where(e > 0, e * (1 - np.log(np.where(e > 0, e, 1))), 0.0)
            elif weight == "power":
                W = e ** (1 - beta) / (1 - beta)
            else:  # zipf
                return float((v[1:] - self.top) @ np.diff(np.log(e[1:])))  # the first cell, g = g(0+), adds 0
        return float(v @ np.diff(W))

    def cell_means(self, n: int) -> np.ndarray:
        """Mean of a step profile over each rank cell ``((r-1)/n, r/n]``, r = 1..n (exact; n at most
        :data:`~.model.MAX_ITEMS`)."""
        n = check_items(n)
        # A(t) = int_0^t g: piecewise linear through the edges.
        A = np.concatenate(([0.0], np.cumsum(self.values * np.diff(self.edges))))
        grid = np.arange(n + 1) / n
        return np.diff(np.interp(grid, self.edges, A)) * n


def _unit_gain(model: Model, gain: Gain) -> _Curve:
    """h(eta) = E gain(Binomial(G, eta)), vectorised in eta."""
    k = np.arange(model.grades + 1)
    level_gain = gain(k.astype(np.float64))
    if gain.name == "linear":
        return lambda eta: model.grades * np.asarray(eta, dtype=np.float64)
    return lambda eta: stats.binom.pmf(k, model.grades, np.asarray(eta, dtype=np.float64)[..., None]) @ level_gain


def _x_integral(model: Model, h: _Curve, lo: float, hi: float) -> float:
    return integrate.quad(
        lambda x: float(h(model.eta(np.array([x])))[0]) * stats.norm.pdf(x), lo, hi, epsabs=1e-13, epsrel=1e-11
    )[0]


def mean_gain(model: str | Model, *, gain: str | Gain = "linear") -> float:
    """``p = E gain(y)``, by quadrature over x (closed form ``G (lo + hi) / 2`` for linear gain)."""
    model, gain = parse_model(model), parse_gain(gain, builtin_only=True)
    return float(_HERMITE_WEIGHTS @ _unit_gain(model, gain)(model.eta(_HERMITE_NODES)))


def gain_profile(
    model: str | Model, ranker: str | Ranker, *, gain: str | Gain = "linear", method: str = "auto"
) -> Profile:
    """Expected gain ``g_f(t)`` of a ranker at relative rank t. ``bayes``, ``noisy``, ``random``: ``E h(eta(X)) | S``
    at score quantile t (``X | S`` normal), by Gauss-Hermite quadrature or, for linear gain, in closed form
    (``method``); ``coarse``: the mean over each bin; ``gated(q)``: ``bayes`` for ``t < q``, the mean below the gate."""
    model, ranker, gain = parse_model(model), parse_ranker(ranker), parse_gain(gain, builtin_only=True)
    if method not in ("auto", "closed", "quadrature"):  # checked for every ranker, also those it does not concern
        raise ValueError(f"method must be 'auto', 'closed' or 'quadrature', got {method!r}")
    if ranker.kind == "head":
        raise ValueError(
            f"ranker {str(ranker)!r} has no n-free gain profile (its exact head is a fixed number of "
            f"items); use rank_gains or finite_n_ndcg for a given n"
        )
    return _gain_profile(model, ranker, gain, method)


@functools.lru_cache(maxsize=256)
def _gain_profile(model: Model, ranker: Ranker, gain: Gain, method: str) -> Profile:
    h = _unit_gain(model, gain)
    if ranker.kind == "gated":
        bayes, q = _gain_profile(model, Ranker("bayes"), gain, method), ranker.q
        below = gated_rest_gain(model, ranker, gain=gain)
        return Profile(
            top=bayes.top,
            breaks=(q,),
            function=lambda t: np.where(np.asarray(t, dtype=np.float64) < q, bayes(t), below),
        )
    if ranker.kind == "coarse":
        m = ranker.bins
        edges_x = np.concatenate(([-np.inf], ranker.bin_edges(), [np.inf]))
        means = [_x_integral(model, h, lo, hi) * m for lo, hi in zip(edges_x[:-1], edges_x[1:], strict=False)]
        values = np.array(means[::-1])  # highest bin first
        return Profile(top=float(values[0]), edges=np.arange(m + 1) / m, values=values)
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
    s2 = ranker.sigma**2  # bayes: sigma = 0
    shrink, spread = (0.0, 1.0) if ranker.kind == "random" else (1 / math.sqrt(1 + s2), math.sqrt(s2 / (1 + s2)))

    def quadrature(t: np.ndarray) -> np.ndarray:
        t = np.asarray(t, dtype=np.float64)
        mu = -shrink * ndtri(t)
        x = mu[..., None] + spread * _HERMITE_NODES
        return h(model.eta(x)) @ _HERMITE_WEIGHTS

    top = float(h(np.array(model.hi))) if ranker.kind != "random" else mean_gain(model, gain=gain)
    return Profile(top=top, function=quadrature)


def gated_rest_gain(model: str | Model, ranker: str | Ranker, *, gain: str | Gain = "linear") -> float:
    """Expected gain of an item below the gate of ``gated(q)``: ``E[h(eta(X)) | X < Phi^{-1}(1 - q)]``."""
    model, ranker, gain = parse_model(model), parse_ranker(ranker), parse_gain(gain, builtin_only=True)
    return _x_integral(model, _unit_gain(model, gain), -np.inf, ranker.gate()) / (1 - ranker.q)


def ideal_profile(model: str | Model, *, gain: str | Gain = "linear") -> Profile:
    """``g*(t)``: gain(k) on ``P(y > k) <= t < P(y >= k)``, a step function."""
    return _ideal_profile(parse_model(model), parse_gain(gain, builtin_only=True))


@functools.lru_cache(maxsize=64)
def _ideal_profile(model: Model, gain: Gain) -> Profile:
    G = model.grades
    levels = gain(np.arange(G + 1, dtype=np.float64))
    if G == 1:
        q = np.array([(model.lo + model.hi) / 2])
    else:  # q[k-1] = P(y >= k) = E_x P(Binomial(G, eta(x)) >= k)

        def tail(x: float, k: int) -> float:
            return float(stats.binom.sf(k - 1, G, model.eta(np.array([x]))[0]) * stats.norm.pdf(x))

        q = np.array([integrate.quad(tail, -np.inf, np.inf, args=(k,), epsabs=1e-13)[0] for k in range(1, G + 1)])
    edges = np.concatenate(([0.0], q[::-1], [1.0]))  # q is decreasing in k
    values = levels[::-1].copy()  # gain(G) on [0, P(y >= G)), ..., gain(0) = 0 last
    return Profile(top=float(values[0]), edges=edges, values=values)


def c_coefficient(model: str | Model, ranker: str | Ranker, *, gain: str | Gain = "linear") -> float:
    r"""``c_f = (1/p) [int g*(t)(-ln t) dt - int g_f(t)(-ln t) dt]``: ``1 - nDCG ≈ eps_D(n) c_f``."""
    star = ideal_profile(model, gain=gain)
    return (star.integral("log") - gain_profile(model, ranker, gain=gain).integral("log")) / star.integral("one")


def power_limit(model: str | Model, ranker: str | Ranker, beta: float, *, gain: str | Gain = "linear") -> float:
    r"""``lim nDCG`` under ``power(beta)``, 0 < beta < 1: ``int g_f t^-beta dt / int g* t^-beta dt``."""
    if not 0 < check_real(beta, "beta") < 1:
        raise ValueError(f"beta must be in (0, 1) for a ranker-dependent limit, got {beta!r}")
    num = gain_profile(model, ranker, gain=gain).integral("power", beta)
    return num / ideal_profile(model, gain=gain).integral("power", beta)


def top_limit(model: str | Model, ranker: str | Ranker, *, gain: str | Gain = "linear") -> float:
    """``g_f(0+) / g*(0+)``: the limit under ``zipf`` and of the mean under summable discounts."""
    return gain_profile(model, ranker, gain=gain).top / ideal_profile(model, gain=gain).top


def zipf_approximation(model: str | Model, ranker: str | Ranker, n: float, *, gain: str | Gain = "linear") -> float:
    """nDCG under ``zipf`` to order ``1/ln n``: ``g(0)(ln n + γ) + int (g - g(0))/t`` for f over the same for g*
    (n finite and >= 1, as for :func:`eps`)."""
    n = check_real(n, "n", low=1)
    f, star = gain_profile(model, ranker, gain=gain), ideal_profile(model, gain=gain)
    L = math.log(n) + EULER_GAMMA
    return (f.top * L + f.integral("zipf")) / (star.top * L + star.integral("zipf"))


def profile_crossings(first: _Curve, second: _Curve, grid: np.ndarray, *, from_zero: bool = True) -> list[float]:
    """Depths t where ``first(t) - second(t)`` changes sign between neighbours of ``grid`` (also to or from exactly 0
    unless ``from_zero`` is False), each to float64 resolution by 80 bisection steps (a jump is found as such)."""
    sign = np.sign(first(grid) - second(grid))
    changes = sign[1:] != sign[:-1] if check_bool(from_zero, "from_zero") else sign[1:] * sign[:-1] < 0
    found = []
    for i in np.flatnonzero(changes):
        lo, hi = grid[i], grid[i + 1]
        for _ in range(80):  # the sign at lo is sign[i]
            mid = (lo + hi) / 2
            same = np.sign(first(np.array([mid]))[0] - second(np.array([mid]))[0]) == sign[i]
            lo, hi = (mid, hi) if same else (lo, mid)
        found.append(float(hi))
    return found
