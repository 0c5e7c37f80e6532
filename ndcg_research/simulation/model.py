r"""The simulated ranking problem in the setting of Wang et al. (2013): the model of the data and the rankers.

The model
---------
A data set is ``n`` items drawn i.i.d.: a feature ``x ~ N(0, 1)`` and a grade
``y`` in ``0..G`` drawn, given ``x``, as ``Binomial(G, eta(x))`` with

.. math::  \eta(x) = lo + (hi - lo)\, \Phi(a x),

the probability that each of the ``G`` "relevance units" of the item is present (``G = 1``: binary relevance,
``P(y = 1 | x) = eta(x)``). The model is written ``"probit(lo=0, hi=1, a=1, grades=1)"`` (defaults omitted when
printed). With ``hi < 1`` (or ``lo > 0``) the relevance probability is bounded away from 0 and 1, so even the best items
are relevant only with probability ``hi``: the top of every ranking stays uncertain, however large ``n`` is.

The rankers
-----------
Each ranker scores items from what it can see; its spec string names it (only ``coarse`` ties items, within bins):

- ``bayes``: ``x`` (a monotone function of eta(x): Bayes-optimal for every discount);
- ``noisy(sigma=s)``: ``x + s * z``, ``z ~ N(0, 1)`` independent;
- ``coarse(bins=m)``: index of the equal-probability bin of ``x`` (``m`` bins): a weaker, coarsened feature;
- ``random``: independent of the data;
- ``head(m=M)``: the M items of largest ``x`` first, in ``bayes`` order; the other items below, in a uniformly random
  order;
- ``gated(q=Q)``: the items whose ``x`` is above the population quantile ``Phi^-1(1 - Q)`` (the top fraction Q of the
  population) first, in ``bayes`` order; the others below, in a uniformly random order.

``head(m)`` is exact at the top and knows nothing below rank M, while ``noisy`` is imperfect everywhere: their gain
profiles cross, so which of the two is better depends on the discount and on n (notebook 10). ``gated(q)`` does the same
with a fixed function of x: its exact part is a fixed share of the list (on average), not a fixed number of items, so
its gain profile does not depend on n (notebook 12). All other rankers are nested, noise levels of one score, so every
discount orders them the same way.

Their order of quality is known by construction. For the ``bayes`` and ``noisy`` rankers (and ``random`` as ``s = inf``)
the expected gain at relative rank ``t`` (fraction of the list above the item) is, for linear gain,

.. math::  g_f(t) = G\,[lo + (hi - lo)\, \Phi(\kappa_f\, z_t)], \qquad
           z_t = \Phi^{-1}(1 - t), \qquad \kappa_f = a / \sqrt{1 + s^2 (1 + a^2)}

(``X | S = s`` is normal, and ``E Phi(aX)`` over a normal is a normal cdf), so a larger ``kappa`` puts more gain at
every top fraction of the list: ``bayes`` (kappa = a) > ``noisy`` with increasing ``s`` > ``random`` (kappa = 0), for
every non-increasing discount. ``coarse(bins=m)`` averages eta within bins, so it is below ``bayes`` (conditionally on
the features, the Bayes order maximises expected DCG for any non-increasing discount).
:mod:`ndcg_research.simulation.theory` computes g_f(t) for every ranker, and the exact expected gain at each rank for a
given n (for ``head(m)``, whose profile depends on n, only the latter).

Data sets drawn from the model and the nDCG of the rankers on them: :mod:`~ndcg_research.simulation.simulate`.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, fields

import numpy as np
from scipy.special import ndtr, ndtri

from ..core import format_call, parse_call, parse_registered


def stable_id(text: str) -> int:
    """A stable 32-bit number for a spec string (the same in every process and Python version)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


@dataclass(frozen=True)
class Model:
    """The probit relevance model ``y | x ~ Binomial(grades, lo + (hi - lo) Phi(a x))``, ``x ~ N(0, 1)``.

    ``lo``, ``hi``: relevance probability of the worst and the best items (``0 <= lo < hi <= 1``); ``a`` (> 0): how
    strongly the feature separates relevant from non-relevant; ``grades``: the number of relevance units ``G``
    (1..32; grades run over ``0..G``, 1 is binary relevance).
    """

    lo: float = 0.0
    hi: float = 1.0
    a: float = 1.0
    grades: int = 1

    def __post_init__(self) -> None:
        # A spec outside the model's domain would draw meaningless data: refused by name (the spec language's rule).
        if not (0 <= self.lo < self.hi <= 1 and self.a > 0 and 1 <= self.grades <= 32):
            raise ValueError(f"model needs 0 <= lo < hi <= 1, a > 0 and grades in 1..32, got {self!r}")

    def __str__(self) -> str:
        shown = {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}
        return format_call("probit", shown)

    def __repr__(self) -> str:
        return f"parse_model({str(self)!r})"

    @property
    def experiment_id(self) -> int:
        """Stable number of this model, the first element of every replicate's spawn key."""
        return stable_id(str(self))

    @property
    def mean_grade(self) -> float:
        """E[y] = G (lo + hi) / 2 (``Phi(aX)`` is symmetric about 1/2)."""
        return self.grades * (self.lo + self.hi) / 2

    def eta(self, x: np.ndarray, *, out: np.ndarray | None = None) -> np.ndarray:
        """Relevance probability ``lo + (hi - lo) Phi(a x)`` of each feature value (into ``out`` if given)."""
        eta = np.multiply(np.asarray(x, dtype=np.float64), self.a, out=out)
        ndtr(eta, out=eta)
        eta *= self.hi - self.lo
        eta += self.lo
        return eta

    def draw(
        self,
        rng: np.random.Generator,
        n: int,
        *,
        descending: bool = False,
        scratch: dict[str, np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Draw ``n`` items: features ``x`` (descending if asked) and integer-valued float64 grades ``y``.

        Sorting the features before drawing the grades only relabels the items (given the features, grades are
        independent): the same law. ``scratch`` (arrays ``x``, ``eta``, ``u``, ``present`` of length n) receives the
        values instead of new memory: the same numbers, no page faults in a sweep.
        """
        if scratch is None:
            scratch = {"x": np.empty(n), "eta": np.empty(n), "u": np.empty(n), "present": np.empty(n, dtype=bool)}
        x = scratch["x"]
        rng.standard_normal(out=x)
        if descending:
            np.negative(x, out=x)
            x.sort()
            np.negative(x, out=x)
        eta = self.eta(x, out=scratch["eta"])
        # Grades Binomial(G, eta): a unit of item i is present when its rng.random draw is below eta[i].
        u, present, y = scratch["u"], scratch["present"], np.zeros(n)
        for _ in range(self.grades):  # loop over relevance units, not items
            rng.random(out=u)
            np.less(u, eta, out=present)
            y += present
        return x, y


def parse_model(spec: str | Model) -> Model:
    """Parse ``"probit(lo=..., hi=..., a=..., grades=...)"`` (all optional) into a :class:`Model`."""
    if isinstance(spec, Model):
        return spec
    name, args, kwargs = parse_call(spec, what="model")
    if name != "probit":
        raise ValueError(f"unknown model {name!r}; valid models: probit(lo=0, hi=1, a=1, grades=1)")
    if args or set(kwargs) - {"lo", "hi", "a", "grades"}:
        raise ValueError(f"model spec {spec!r}: give parameters by name among lo, hi, a, grades")
    return Model(**kwargs)


_RANKER_KINDS = {"bayes": (), "noisy": ("sigma",), "coarse": ("bins",), "random": (), "head": ("m",), "gated": ("q",)}
_RANKERS_VALID = "bayes, noisy(sigma), coarse(bins), random, head(m), gated(q)"
# The spec language's domain: a ranker outside it would score meaninglessly.
_DOMAIN = {
    "noisy": ("sigma > 0", lambda r: r.sigma > 0),
    "coarse": ("bins >= 2", lambda r: r.bins >= 2),
    "head": ("m >= 1", lambda r: r.m >= 1),
    "gated": ("0 < q < 1", lambda r: 0 < r.q < 1),
}


@dataclass(frozen=True)
class Ranker:
    """A ranking function of the simulation; build it with :func:`parse_ranker`."""

    kind: str
    sigma: float = 0.0
    bins: int = 0
    m: int = 0
    q: float = 0.0

    def __str__(self) -> str:
        return format_call(self.kind, {name: getattr(self, name) for name in _RANKER_KINDS[self.kind]})

    def __repr__(self) -> str:
        return f"parse_ranker({str(self)!r})"

    @property
    def stream(self) -> int:
        """Last element of the spawn key of this ranker's noise (stable, never 0)."""
        return stable_id(str(self)) | 1

    def kappa(self, model: Model) -> float:
        """Slope ``kappa`` of ``g_f(t) = G [lo + (hi - lo) Phi(kappa z_t)]`` (bayes, noisy, random)."""
        if self.kind == "bayes":
            return model.a
        if self.kind == "noisy":
            return model.a / math.sqrt(1.0 + self.sigma**2 * (1.0 + model.a**2))
        if self.kind == "random":
            return 0.0
        raise ValueError(f"ranker {str(self)!r} has no kappa: its gain profile is not Phi(kappa z_t)")

    def gate(self) -> float:
        """The feature value above which ``gated(q)`` ranks exactly: ``Phi^{-1}(1 - q)``."""
        if self.kind != "gated":
            raise ValueError(f"ranker {str(self)!r} has no gate")
        return float(ndtri(1.0 - self.q))

    def exact_count(self, x_desc: np.ndarray) -> int:
        """How many items of a data set sorted by descending x this ranker puts first in the Bayes order.

        ``head(m)``: m (or n); ``gated(q)``: the items with x at or above the gate (by bisection); ``random``: 0.
        """
        if self.kind == "gated":
            return int(np.searchsorted(-x_desc, -self.gate(), side="right"))  # -x ascending: x >= gate
        return min(self.m, x_desc.size)

    def bin_edges(self) -> np.ndarray:
        """Inner edges ``Phi^{-1}(j / m)``, j = 1..m-1, of the equal-probability bins of ``coarse(bins=m)``."""
        return ndtri(np.arange(1, self.bins) / self.bins)


def parse_ranker(spec: str | Ranker) -> Ranker:
    """Parse a ranker spec: ``bayes``, ``noisy(sigma=s)`` (s > 0), ``coarse(bins=m)`` (m >= 2), ``random``,
    ``head(m=M)`` (M >= 1), ``gated(q=Q)`` (0 < Q < 1).
    """
    if isinstance(spec, Ranker):
        return spec
    name, kwargs = parse_registered(spec, _RANKER_KINDS, what="ranker", valid=f"valid rankers: {_RANKERS_VALID}")
    ranker = Ranker(name, **kwargs)
    if name in _DOMAIN and not _DOMAIN[name][1](ranker):
        raise ValueError(f"ranker {name!r} needs {_DOMAIN[name][0]}, got {spec!r}")
    return ranker
