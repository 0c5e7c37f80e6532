"""Two models that break the assumptions every other model shares (dense relevance, nested rankers),
:class:`SparseModel` and :class:`TwoFeatureModel`, and their exact quantities (the derivations are this package's)."""

from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass

import numpy as np
from scipy import integrate, special
from scipy.special import ndtr, ndtri

from ...core import Discount, parse_discount
from ...simulation import theory
from ...simulation.finite_n import order_statistic_means

#: The rankers of the sparse model, best first (nested by construction).
SPARSE_RANKERS: tuple[str, ...] = ("bayes", "noisy(sigma=0.5)", "noisy(sigma=1)", "random")
#: The rankers of the two-feature model.
TWO_FEATURE_RANKERS: tuple[str, ...] = ("content", "flag", "mix(lam=1)", "bayes", "mix(lam=4)")

_NOISY = re.compile(r"noisy\(sigma=([0-9.eE+-]+)\)")
_MIX = re.compile(r"mix\(lam=([0-9.eE+-]+)\)")


def _parameter(ranker: str, named: dict[str, float], pattern: re.Pattern[str], *, zero: bool, unknown: str) -> float:
    """A named ranker's number, else the number in ``pattern`` (positive, or also 0 with ``zero``), else the error
    ``unknown ranker <ranker> of the <unknown>``."""
    if ranker in named:
        return named[ranker]
    match = pattern.fullmatch(ranker)
    if match is None or not (float(match.group(1)) > 0 or (zero and float(match.group(1)) == 0)):
        raise ValueError(f"unknown ranker {ranker!r} of the {unknown}")
    return float(match.group(1))


def noise_level(ranker: str) -> float:
    """The noise ``s`` of a sparse-model ranker: 0 for ``bayes``, ``s`` for ``noisy(sigma=s)``, inf for ``random``."""
    valid = "sparse model; valid: bayes, noisy(sigma=s) with s > 0, random"
    return _parameter(ranker, {"bayes": 0.0, "random": math.inf}, _NOISY, zero=False, unknown=valid)


@dataclass(frozen=True)
class SparseModel:
    """``R(n) = round(scale n^(1 - gamma))`` relevant items among n (gamma in [0, 1]), features ``N(mu, 1)`` against
    ``N(0, 1)``; rankers ``bayes`` (x), ``noisy(sigma=s)`` (``x + s z``) and ``random``, nested by construction. The
    ideal DCG is ``S(R) = D(1) + ... + D(R)``, not random."""

    mu: float
    scale: float
    gamma: float

    def __post_init__(self) -> None:
        if not (self.mu > 0 and self.scale > 0 and 0 <= self.gamma <= 1):
            raise ValueError(f"sparse model needs mu > 0, scale > 0, 0 <= gamma <= 1, got {self!r}")

    def __str__(self) -> str:
        return f"sparse(mu={self.mu:g}, scale={self.scale:g}, gamma={self.gamma:g})"

    @property
    def kind(self) -> str:
        """``"control"`` for a fixed share (gamma = 0), else ``"sparse"``."""
        return "control" if self.gamma == 0 else "sparse"

    @property
    def label(self) -> str:
        """Short name for tables: ``R = 10``, ``share n^-0.5``, ``share 0.1`` (the dense control)."""
        if self.gamma == 1:
            return f"R = {self.scale:g}"
        if self.gamma == 0:
            return f"share {self.scale:g}"
        prefix = "" if self.scale == 1 else f"{self.scale:g} "
        return f"share {prefix}n^-{self.gamma:g}"

    def relevant_count(self, n: int) -> int:
        """``R(n)``; at least 1 and below n (else a ValueError: the model needs non-relevant items too)."""
        count = max(1, int(round(self.scale * n ** (1.0 - self.gamma))))
        if count >= n:
            raise ValueError(f"{self.label}: R({n}) = {count} leaves no non-relevant item; use a longer list")
        return count

    def draw(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Features of the relevant items (``R(n)`` of them) and of the others (``n - R(n)``), in that order."""
        count = self.relevant_count(n)
        return rng.standard_normal(count) + self.mu, rng.standard_normal(n - count)


def random_expected_ndcg(model: SparseModel, discount: str | Discount, n: int) -> float:
    """Exact expected nDCG of the random ranker, ``(R / n) S(n) / S(R)``: each rank is relevant with chance R / n."""
    count = model.relevant_count(n)
    return count / n * theory.exact_discount_sum(discount, n) / theory.exact_discount_sum(discount, count)


def random_limit(model: SparseModel, discount: str | Discount) -> float:
    r"""Limit as n -> infinity of :func:`random_expected_ndcg`: for a slowly varying D, ``S(m) ~ m D(m)`` (Karamata),
    so it tends to ``lim D(n) / D(R)``, ``R ~ c n^(1 - gamma)``; for ``power(beta < 1)`` to ``lim (R / n)^beta``."""
    d = parse_discount(discount)
    if d.name == "none":
        return 1.0
    if model.gamma == 1:
        return 0.0
    if d.name in ("log2", "logpower"):  # log2 is logpower(gamma=1)
        return (1.0 - model.gamma) ** d.kwargs.get("gamma", 1.0)
    if d.name == "loglog":
        return 1.0
    if d.name == "power" and d.kwargs["beta"] < 1:
        return model.scale ** d.kwargs["beta"] if model.gamma == 0 else 0.0
    raise ValueError(f"random_limit knows log2, logpower, loglog, power(beta < 1) and none, not {str(d)!r}")


def mix_weight(model: TwoFeatureModel, ranker: str) -> float:
    """The weight L of the flag in a ranker's score ``x1 + L x2`` (inf for ``flag``, the flag alone)."""
    named = {"content": 0.0, "bayes": model.a2 / model.a1, "flag": math.inf}
    valid = "two-feature model; valid: content, flag, bayes, mix(lam=L) with L >= 0"
    return _parameter(ranker, named, _MIX, zero=True, unknown=valid)


@dataclass(frozen=True)
class TwoFeatureModel:
    """``x1 ~ N(0, 1)``, a flag ``x2 ~ Bernoulli(pi)``, relevance ``Bernoulli(Phi(a1 x1 + a2 x2))``; rankers ``content``
    (x1), ``flag`` (x2, then random), ``mix(lam=L)`` (``x1 + L x2``) and ``bayes`` (``mix(lam=a2/a1)``), whose
    expected-gain profiles cross (the binary feature)."""

    a1: float = 1.0
    a2: float = 2.0
    pi: float = 0.1

    def __post_init__(self) -> None:
        if not (self.a1 > 0 and self.a2 > 0 and 0 < self.pi < 1):
            raise ValueError(f"two-feature model needs a1 > 0, a2 > 0, 0 < pi < 1, got {self!r}")

    def __str__(self) -> str:
        return f"two_feature(a1={self.a1:g}, a2={self.a2:g}, pi={self.pi:g})"

    #: The model's kind and its label in tables (not dataclass fields: no annotation).
    kind = label = "two features"

    @property
    def flagged_gain(self) -> float:
        """Expected gain of a flagged item, ``E Phi(a1 x1 + a2) = Phi(a2 / sqrt(1 + a1^2))``."""
        return float(ndtr(self.a2 / math.hypot(1.0, self.a1)))

    @property
    def mean_gain(self) -> float:
        """p: the share of relevant items, ``(1 - pi) / 2 + pi Phi(a2 / sqrt(1 + a1^2))``."""
        return (1 - self.pi) * 0.5 + self.pi * self.flagged_gain

    def draw(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``x1`` (float64), the flag (bool) and the relevance (bool) of n items."""
        x1 = rng.standard_normal(n)
        flag = rng.random(n) < self.pi
        relevant = rng.random(n) < ndtr(self.a1 * x1 + self.a2 * flag)
        return x1, flag, relevant

    def score_at(self, lam: float, t: np.ndarray) -> np.ndarray:
        """The score value v whose upper tail ``P(x1 + lam x2 > v)`` is t (bisection, to float64 resolution)."""
        t = np.asarray(t, dtype=np.float64)
        if lam == 0:
            return -ndtri(t)
        low = np.minimum(-ndtri(t), -ndtri(t) + lam) - 1.0  # tail(low) >= t ...
        high = np.maximum(-ndtri(t), -ndtri(t) + lam) + 1.0  # ... >= tail(high): the tail is a mix of the two
        for _ in range(80):  # bisection steps (halves the bracket each time)
            mid = 0.5 * (low + high)
            above = self.pi * ndtr(lam - mid) + (1 - self.pi) * ndtr(-mid) > t
            low, high = np.where(above, mid, low), np.where(above, high, mid)
        return 0.5 * (low + high)

    def profile(self, ranker: str, t: np.ndarray) -> np.ndarray:
        """Expected gain at relative rank t in (0, 1) as n -> infinity: at the score value v of upper tail t, the flag
        is set with probability ``pi phi(v - L) / (pi phi(v - L) + (1 - pi) phi(v))``."""
        t = np.asarray(t, dtype=np.float64)
        lam = mix_weight(self, ranker)
        if math.isinf(lam):
            return np.where(t < self.pi, self.flagged_gain, 0.5)
        v = self.score_at(lam, t)
        # log of pi phi(v - lam) / ((1 - pi) phi(v)) = log(pi / (1 - pi)) + lam v - lam^2 / 2
        odds = math.log(self.pi / (1 - self.pi)) + lam * v - lam * lam / 2
        flagged = 1.0 / (1.0 + np.exp(-odds))
        return flagged * ndtr(self.a1 * (v - lam) + self.a2) + (1 - flagged) * ndtr(self.a1 * v)

    def rank_gains(self, ranker: str, n: int) -> np.ndarray:
        """Exact expected gain ``E g_f(U_(r))`` at each rank r = 1..n, ``U_(r) ~ Beta(r, n - r + 1)``."""
        r = np.arange(1, n + 1, dtype=np.float64)
        if math.isinf(mix_weight(self, ranker)):
            top = special.betainc(r, n - r + 1, self.pi)  # P(U_(r) <= pi)
            return top * self.flagged_gain + (1 - top) * 0.5
        return order_statistic_means(lambda t: self.profile(ranker, t.ravel()).reshape(t.shape), n, n)

    def _integral(self, ranker: str, weight: callable) -> float:
        """``int_0^1 g(t) weight(t) dt`` by adaptive quadrature, split at the flag share and in log t."""

        def integrand(u: float) -> float:  # t = exp(-u): dt = t du, fine near t = 0
            t = math.exp(-u)
            return float(self.profile(ranker, np.array([t]))[0]) * weight(t) * t

        pieces = [0.0, -math.log(self.pi), 50.0]
        return math.fsum(
            integrate.quad(integrand, a, b, limit=200, epsabs=1e-13, epsrel=1e-11)[0]
            for a, b in itertools.pairwise(pieces)
        )

    def first_order_constant(self, ranker: str) -> float:
        r"""``c_f = (1/p) [int_0^p (-ln t) dt - int_0^1 g_f(t) (-ln t) dt]`` of the first-order law of notebook 03."""
        p = self.mean_gain
        ideal = p * (1.0 - math.log(p))  # int_0^p (-ln t) dt
        return (ideal - self._integral(ranker, lambda t: -math.log(t))) / p

    def power_limit(self, ranker: str, beta: float) -> float:
        """Limit of nDCG under ``power(beta)``, beta < 1: ``int g_f(t) t^-beta dt / int_0^p t^-beta dt``."""
        if not 0 < beta < 1:
            raise ValueError(f"power_limit needs 0 < beta < 1, got {beta!r}")
        p = self.mean_gain
        return self._integral(ranker, lambda t: t**-beta) / (p ** (1 - beta) / (1 - beta))


def profile_crossings(model: TwoFeatureModel, first: str, second: str, *, points: int = 4001) -> list[float]:
    """The relative ranks t where two rankers' profiles cross (the ``flag`` profile's jump: t = pi), from a log grid
    of ``points`` depths with two more beside pi (:func:`~ndcg_research.simulation.theory.profile_crossings`)."""
    grid = np.geomspace(1e-6, 1 - 1e-6, points)
    grid = np.unique(np.concatenate((grid, [model.pi * (1 - 1e-12), model.pi * (1 + 1e-12)])))
    profiles = (functools.partial(model.profile, ranker) for ranker in (first, second))
    return theory.profile_crossings(*profiles, grid, from_zero=False)  # exact zeros near t = 0 are roundoff
