r"""The package's simulated ranking problems (built to test what Wang et al., 2013, state about nDCG; their own data
model is not known from their abstract): the probit model of the data and rankers of known quality.

A data set is n i.i.d. items: a feature ``x ~ N(0, 1)`` and a grade ``y ~ Binomial(G, eta(x))``,
``eta(x) = lo + (hi - lo) Phi(a x)``, written ``"probit(lo=0, hi=1, a=1, grades=1)"`` (defaults omitted). With
``hi < 1`` even the best items are relevant only with probability ``hi``: the top stays uncertain for every n.

Rankers score what they see: ``bayes`` x (Bayes-optimal for every discount); ``noisy(sigma=s)`` ``x + s z``;
``coarse(bins=m)`` the equal-probability bin of x (ties within bins); ``random``; ``head(m=M)`` the M items of largest
x first, in ``bayes`` order, the rest in random order; ``gated(q=Q)`` the same above ``x = Phi^-1(1 - Q)``. The gain
profiles ``G [lo + (hi - lo) Phi(kappa z_t)]`` of ``bayes``, ``noisy`` and ``random`` are nested (:meth:`Ranker.kappa`):
every discount orders them alike; ``head`` and ``gated`` cross ``noisy`` (notebooks 10, 12).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any, TypeVar

import numpy as np
from scipy.special import ndtr, ndtri

from .._validation import check_int, check_option, check_real
from ..core import format_call, parse_call, parse_registered

T = TypeVar("T")

#: The most items (and bins) the simulation holds in arrays: 10^8, 0.8 GB per float64 array. The studies' longest
#: lists, simulated and in the finite-n theory, have 10^7 items (notebooks 03, 04); notebook 15's lists of 10^8 draw
#: only their heads.
MAX_ITEMS = 10**8
#: The largest probit slope ``a`` and noise ``sigma``: ``kappa = a / sqrt(1 + sigma^2 (1 + a^2))`` and the
#: shortfall exponent ``a^2`` stay finite (at most 1e200) below it.
MAX_SCALE = 1e50


def _memory(size: int) -> str:
    """A number of bytes in words, ``"80 TB"``, ``"800 MB"`` (Decimal: an int beyond float range too)."""
    unit, scale = next((u, s) for u, s in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("bytes", 1)) if size >= s)
    return f"{Decimal(size) / scale:.3g} {unit}"


def check_items(value: Any, name: str = "n", *, per_item: int = 1, symbol: str | None = None) -> int:
    """``value`` as an int from 1 to ``MAX_ITEMS // per_item``: a count of items (``symbol``, default ``name``) the
    simulation holds in arrays of ``per_item`` float64 numbers per item. Beyond it a ValueError names the argument,
    the limit and the memory an array would need (instead of a MemoryError deep inside, or a machine swapping)."""
    number, limit = check_int(value, name, low=1), MAX_ITEMS // per_item
    if number > limit:
        per = "" if per_item == 1 else f" x {per_item}"
        raise ValueError(
            f"{name} must be at most {limit}, got {number}: the simulation's arrays of {symbol or name}{per} float64 "
            f"numbers would need {_memory(8 * per_item * number)} of memory each ({_memory(8 * per_item * limit)} at "
            "the limit)"
        )
    return number


def spec_list(specs: Iterable[T], name: str, *, empty: bool = False) -> list[T]:
    """``specs`` as a list, non-empty unless ``empty``; a lone spec string is refused by ``name`` (it would be read
    letter by letter)."""
    if isinstance(specs, str):
        raise TypeError(f"{name} must be a list of specs, got str {specs!r} (write [{specs!r}])")
    if not (out := list(specs)) and not empty:
        raise ValueError(f"{name} must be a non-empty list of specs, got []")
    return out


def stable_id(text: str) -> int:
    """A stable 32-bit number for a spec string (the same in every process and Python version)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


@dataclass(frozen=True)
class Model:
    """The probit relevance model ``y | x ~ Binomial(grades, lo + (hi - lo) Phi(a x))``, ``x ~ N(0, 1)``."""

    lo: float = 0.0
    hi: float = 1.0
    a: float = 1.0
    grades: int = 1

    def __post_init__(self) -> None:
        # A spec outside the model's domain would draw meaningless data: refused by name (the spec language's rule).
        for f in fields(self):  # grades counts relevance units: an integer (not 2.5, 2.0 or True)
            (check_int if f.name == "grades" else check_real)(getattr(self, f.name), f"model parameter {f.name}")
        if not (0 <= self.lo < self.hi <= 1 and self.a > 0 and 1 <= self.grades <= 32):
            raise ValueError(f"model needs 0 <= lo < hi <= 1, a > 0 and grades in 1..32, got {self!r}")
        if self.a > MAX_SCALE:  # finite, but sigma^2 (1 + a^2) of Ranker.kappa could overflow
            raise ValueError(
                f"model parameter a must be at most {MAX_SCALE:g}, so that the theory's kappa = a / sqrt(1 + sigma^2 "
                f"(1 + a^2)) does not overflow, got {self.a!r}"
            )

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
    def top_label(self) -> str:
        """``"certain top"`` (hi = 1: the best items are surely relevant) or ``"uncertain top"``, for headlines."""
        return "certain top" if self.hi == 1 else "uncertain top"

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
        """Draw ``n`` items: features ``x`` (descending if asked: the same law) and float64 grades ``y``;
        ``scratch`` (arrays ``x``, ``eta``, ``u``, ``present`` of length n) receives the values: no page faults; n
        at most :data:`MAX_ITEMS`."""
        n = check_items(n)
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

    def __post_init__(self) -> None:
        # Built directly too (not only by parse_ranker): an unknown kind or a parameter outside the spec language's
        # domain is refused by name; a parameter of another kind must keep its default (bayes with sigma = 2 is none).
        check_option(self.kind, "ranker kind", _RANKER_KINDS)
        for f in fields(self)[1:]:  # bins and m count bins and items: integers (not 2.5, 2.0 or True)
            value = getattr(self, f.name)
            if f.name in _RANKER_KINDS[self.kind]:
                (check_int if f.name in ("bins", "m") else check_real)(
                    value, f"ranker {self.kind!r} parameter {f.name}"
                )
            elif value != f.default:
                raise ValueError(f"ranker {self.kind!r} has no parameter {f.name}, got {f.name}={value!r}")
        if self.kind in _DOMAIN and not _DOMAIN[self.kind][1](self):
            raise ValueError(f"ranker {self.kind!r} needs {_DOMAIN[self.kind][0]}, got {str(self)!r}")
        # Finite but too large: sigma's square would overflow kappa, m bins would need m-long arrays.
        if self.kind == "noisy" and self.sigma > MAX_SCALE:
            raise ValueError(
                f"ranker 'noisy' parameter sigma must be at most {MAX_SCALE:g}, so that the theory's kappa = a / "
                f"sqrt(1 + sigma^2 (1 + a^2)) does not overflow, got {self.sigma!r}"
            )
        if self.kind == "coarse":
            check_items(self.bins, "ranker 'coarse' parameter bins", symbol="bins")

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
        if self.kind in ("bayes", "noisy"):  # bayes: sigma = 0, kappa = a
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
        """How many items of a data set sorted by descending x this ranker puts first in the Bayes order."""
        if self.kind == "gated":
            return int(np.searchsorted(-x_desc, -self.gate(), side="right"))  # -x ascending: x >= gate
        return min(self.m, x_desc.size)

    def bin_edges(self) -> np.ndarray:
        """Inner edges ``Phi^{-1}(j / m)``, j = 1..m-1, of the equal-probability bins of ``coarse(bins=m)``."""
        return ndtri(np.arange(1, self.bins) / self.bins)


def parse_ranker(spec: str | Ranker) -> Ranker:
    """Parse a ranker spec (see the module), e.g. ``"noisy(sigma=0.5)"``."""
    if isinstance(spec, Ranker):
        return spec
    valid = "valid rankers: bayes, noisy(sigma), coarse(bins), random, head(m), gated(q)"
    name, kwargs = parse_registered(spec, _RANKER_KINDS, what="ranker", valid=valid)
    return Ranker(name, **kwargs)  # checked by Ranker itself
