r"""Exact samples of the heads of several rankers' lists on very long simulated lists (notebook 15), binary probit
model, rankers ``bayes`` and ``noisy(sigma)``: each ranker's head (its items above ``tau_f``, ``P(s_f > tau_f) =
top / n``) drawn exactly, the ranks below it by expectation (:meth:`JointTop.tail_dcg`); short lists drawn whole.
Method and variance bound (:func:`tail_variance_bound`): the Theory page (``docs/theory.md``), section (d)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import NamedTuple

import numpy as np
from scipy import integrate, special
from scipy.special import ndtr, ndtri

from ...simulation import theory
from ...simulation.model import Model, Ranker, parse_model, parse_ranker

#: The heads hold at most this share of the list on average; above it the whole list is drawn.
FULL_SHARE = 0.25


class Head(NamedTuple):
    """One replicate: ranker f's first ``counts[f]`` grades (0/1) and the relevant items among all n."""

    grades: tuple[np.ndarray, ...]
    counts: tuple[int, ...]
    relevant: int


class JointTop:
    """Exact joint sampler of the heads (expected size ``top``) of distinct bayes / noisy rankers on n items."""

    def __init__(self, model: str | Model, rankers: Sequence[str | Ranker], n: int, top: int) -> None:
        model, rankers = parse_model(model), tuple(parse_ranker(r) for r in rankers)
        if model.grades != 1:
            raise ValueError(f"the sampler draws binary grades, got {str(model)!r}")
        if not rankers or any(r.kind not in ("bayes", "noisy") for r in rankers) or len(set(rankers)) != len(rankers):
            raise ValueError(f"rankers must be distinct bayes or noisy(sigma) rankers, got {[str(r) for r in rankers]}")
        if not (isinstance(n, int) and isinstance(top, int) and 1 <= top and n >= 1):
            raise ValueError(f"n and top must be positive integers, got n={n!r}, top={top!r}")
        self.model, self.rankers, self.n, self.top = model, rankers, n, top
        # Per ranker: head probability q, threshold tau, slope of s on x, sd of s given x.
        self.full = top * len(rankers) > FULL_SHARE * n
        sigma = np.array([r.sigma if r.kind == "noisy" else 0.0 for r in rankers])
        self.q = np.full(len(rankers), min(top / n, 1.0))
        self.tau, self.slope, self.spread = -ndtri(self.q), 1 / np.sqrt(1 + sigma**2), sigma / np.sqrt(1 + sigma**2)
        self._cache: dict[tuple[int, int], float] = {}

    def _inside(self, x: np.ndarray, f: int) -> np.ndarray:
        """``pi_f(x) = P(s_f > tau_f | x)``."""
        if self.spread[f] == 0:
            return (x > self.tau[f]).astype(np.float64)
        return ndtr((self.slope[f] * x - self.tau[f]) / self.spread[f])

    def _piece_integral(self, f: int, weight_eta: bool = False) -> float:
        """``int phi(x) [eta(x)] pi_f(x) prod_{g<f} (1 - pi_g(x)) dx`` by adaptive quadrature."""
        cuts = sorted(float(self.tau[g]) for g in range(f + 1) if self.spread[g] == 0)

        def integrand(x: float) -> float:
            v = np.array([x])
            value = float(np.exp(-x * x / 2) / math.sqrt(2 * math.pi) * self._inside(v, f)[0])
            for g in range(f):
                value *= 1 - float(self._inside(v, g)[0])
            return value * float(self.model.eta(v)[0]) if weight_eta else value

        edges = [-12.0, *[c for c in cuts if -12 < c < 12], 12.0]  # the pieces between bayes thresholds
        return sum(integrate.quad(integrand, a, b, epsabs=0, epsrel=1e-12, limit=400)[0] for a, b in pairwise(edges))

    @functools.cached_property
    def pieces(self) -> np.ndarray:
        """``P(R_f \\ union of earlier heads)``, f in order: the union R's parts."""
        return np.array([self._piece_integral(f) for f in range(len(self.rankers))])

    @functools.cached_property
    def outside_relevance(self) -> float:
        """``p_out``: the relevance probability of an item outside every head."""
        inside = sum(self._piece_integral(f, weight_eta=True) for f in range(len(self.rankers)))
        return (self.model.mean_grade - inside) / (1 - float(self.pieces.sum()))

    def _scores_given_x(self, rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
        """Every ranker's standardized score given x: shape (rankers, items)."""
        noise = rng.standard_normal((len(self.rankers), x.size))
        return self.slope[:, None] * x[None, :] + self.spread[:, None] * noise

    def _draw_piece(self, rng: np.random.Generator, f: int, count: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """``count`` items of ``R_f`` outside the earlier heads, batch by batch: (x, scores)."""
        q, tau, slope, spread = self.q, self.tau, self.slope, self.spread
        while count > 0:  # rejection rounds: draw from R_f, keep items outside the earlier heads
            batch = max(16, int(count * 1.3) + 8)
            s_f = -ndtri(q[f] * rng.random(batch))  # s_f | s_f > tau_f, by inversion of the normal tail
            # x | s_f ~ N(slope s_f, spread^2): the same correlation as s_f | x
            x = s_f if spread[f] == 0 else slope[f] * s_f + spread[f] * rng.standard_normal(batch)
            scores = self._scores_given_x(rng, x)
            scores[f] = s_f
            take = np.flatnonzero(np.all(scores[:f] <= tau[:f, None], axis=0))[:count]  # outside the earlier heads
            yield x[take], scores[:, take]
            count -= take.size

    def draw(self, rng: np.random.Generator) -> Head:
        """One replicate: every ranker's head in rank order, and the number of relevant items."""
        if self.full:
            x = rng.standard_normal(self.n)
            scores = self._scores_given_x(rng, x)
        else:
            left, share = self.n, 1.0
            parts = []
            for f, piece in enumerate(self.pieces):  # sequential binomials: the multinomial counts of the pieces
                count = int(rng.binomial(left, min(piece / share, 1.0)))
                left -= count
                share -= piece
                parts += self._draw_piece(rng, f, count)
            x, scores = (np.concatenate(drawn, axis=-1) for drawn in zip(*parts, strict=True))
        y = (rng.random(x.size) < self.model.eta(x)).astype(np.float64)
        outside = 0 if self.full else int(rng.binomial(self.n - x.size, self.outside_relevance))
        heads = np.full(scores.shape, True) if self.full else scores > self.tau[:, None]  # above the threshold
        orders = [np.flatnonzero(h)[np.argsort(-s[h], kind="stable")] for s, h in zip(scores, heads, strict=True)]
        return Head(tuple(y[o] for o in orders), tuple(o.size for o in orders), int(y.sum()) + outside)

    def tail_dcg(self, f: int, count: int) -> float:
        r"""``E[sum_{r > K} y_(r) / r | K = count]`` for ranker f under ``D(r) = 1/r`` (0 in ``full`` mode): the j-th
        item below the head has expected gain ``g_f(q + (1 - q) j / (n - K + 1))``."""
        if self.full:
            return 0.0
        if (f, count) in self._cache:
            return self._cache[f, count]
        q = float(self.q[f])
        gain = theory.gain_profile(self.model, self.rankers[f])
        big, exact = self.n - count, 4096
        # A long tail: the first and the last 4096 terms exactly (g is steep near t = 1: its slope grows like
        # (1 - t)^(kappa^2 - 1)), the smooth middle as a midpoint integral.
        middle = big > 3 * exact
        j = np.r_[1 : exact + 1, big - exact + 1 : big + 1] if middle else np.arange(1, big + 1)
        total = math.fsum(gain(q + (1 - q) * j / (big + 1)) / (count + j))
        if middle:
            a, b = math.log(count + exact + 0.5), math.log(count + big - exact + 0.5)
            for v, weights, half in log_legendre(a, b, 32):  # in ln(K + j)
                total += float(weights @ gain(q + (1 - q) * (v - count) / (big + 1))) * half
        self._cache[f, count] = total
        return total


def log_legendre(a: float, b: float, pieces: int) -> Iterator[tuple[np.ndarray, np.ndarray, float]]:
    """Gauss-Legendre in ``w = ln v`` on ``pieces`` equal pieces of [a, b], 64 nodes each: per piece the nodes' v, the
    weights and the piece's half length (``int_a^b f dw ~ sum weights @ f(v) * half``)."""
    nodes, weights = np.polynomial.legendre.leggauss(64)
    for lo, hi in pairwise(np.linspace(a, b, pieces + 1)):
        yield np.exp((nodes + 1) / 2 * (hi - lo) + lo), weights, (hi - lo) / 2


def tail_variance_bound(count_a: float, count_b: float) -> float:
    r"""Bound ``(1/(2 sqrt K_A) + 1/(2 sqrt K_B))^2 + (H(K_A)/K_B + H(K_B)/K_A) / 2`` on the change of
    ``Var(DCG_A - DCG_B)`` under 1/r when each tail is replaced by its expectation."""
    harmonic = lambda k: float(special.digamma(k + 1) + np.euler_gamma)  # noqa: E731
    fluctuation = (0.5 / math.sqrt(count_a) + 0.5 / math.sqrt(count_b)) ** 2
    return fluctuation + (harmonic(count_a) / count_b + harmonic(count_b) / count_a) / 2
