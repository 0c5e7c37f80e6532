"""Rank discounts D(r), the multiplier of the gain at rank r = 1, 2, ...: the built-ins (``parse_discount``
lists them) are ``Discount`` values with a canonical spec string; any other callable on ranks is checked
where the metric functions call it (finite, >= 0 and non-increasing on the ranks used, D(1) > 0: like the built-in
geometric, it may underflow to 0 deep down)."""

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import check_bool, check_real, type_and_value
from ._batch import checked_array
from ._specs import format_call, parse_call

_REQUIRED = object()


@dataclass(frozen=True)
class _Kind:
    """One built-in discount family: its formula, and each parameter's default (or _REQUIRED) and open range."""

    formula: str
    function: Callable[..., np.ndarray]
    params: dict[str, tuple[Any, float, float]] = field(default_factory=dict)  # name -> (default, low, high)


def _zipflog(r: np.ndarray, gamma: float) -> np.ndarray:
    with np.errstate(over="ignore"):  # log2(r + 1)^gamma beyond float64 is inf: the discount is 0 there, as it rounds
        return 1.0 / (r * np.log2(r + 1.0) ** gamma)


_KINDS: dict[str, _Kind] = {
    "log2": _Kind("1 / log2(r + 1)", lambda r: 1.0 / np.log2(r + 1.0)),
    "log": _Kind("1 / log_base(r + 1)", lambda r, base: math.log(base) / np.log1p(r), {"base": (2.0, 1, math.inf)}),
    # Järvelin & Kekäläinen (2002): ranks before b are not discounted.
    "jarvelin": _Kind(
        "1 if r < base else 1 / log_base(r)",
        lambda r, base: np.where(r < base, 1.0, math.log(base) / np.log(np.maximum(r, base))),
        {"base": (2.0, 1, math.inf)},
    ),
    "power": _Kind("r^(-beta)", lambda r, beta: r ** (-beta), {"beta": (_REQUIRED, 0, math.inf)}),
    "zipf": _Kind("1 / r", lambda r: 1.0 / r),
    # p^(r-1) underflows to 0 past rank ~ 1 + 745 / ln(1/p): below 1e-300 of the first term, exact to float64.
    "geometric": _Kind("p^(r - 1)", lambda r, p: p ** (r - 1.0), {"p": (_REQUIRED, 0, 1)}),
    "logpower": _Kind(
        "(1 / log2(r + 1))^gamma", lambda r, gamma: np.log2(r + 1.0) ** (-gamma), {"gamma": (_REQUIRED, 0, math.inf)}
    ),
    "loglog": _Kind("1 / log2(1 + log2(1 + r))", lambda r: 1.0 / np.log2(1.0 + np.log2(1.0 + r))),
    # Brackets the critical 1/r from the fast side: gamma = 1 still diverges (like ln 2 ln ln n), gamma = 2
    # converges. log2, not ln, so that D(1) = 1; the ln form differs by a factor (1/ln 2)^gamma nDCG divides out.
    "zipflog": _Kind("1 / (r log2(r + 1)^gamma)", _zipflog, {"gamma": (_REQUIRED, 0, math.inf)}),
    "none": _Kind("1", np.ones_like),
}

#: Names of the built-in discounts.
DISCOUNT_NAMES: tuple[str, ...] = tuple(_KINDS)


def _signature(name: str) -> str:
    params = _KINDS[name].params
    if not params:
        return name
    inner = ", ".join(k if v is _REQUIRED else f"{k}={v:g}" for k, (v, _, _) in params.items())
    return f"{name}({inner})"


def _valid_list() -> str:
    return ", ".join(_signature(name) for name in _KINDS)


@dataclass(frozen=True)
class Discount:
    """A built-in rank discount with its parameters; call it on 1-based ranks.

    Immutable and hashable, compared by value, printed as its canonical spec.

    Parameters
    ----------
    name : str
        One of ``DISCOUNT_NAMES``.
    **params : float
        The family's parameters (see ``parse_discount``).

    Examples
    --------
    >>> d = Discount("power", beta=0.5)
    >>> str(d)
    'power(beta=0.5)'
    >>> d([1, 4]).tolist()
    [1.0, 0.5]
    >>> parse_discount(str(d)) == d
    True
    """

    name: str
    params: tuple[tuple[str, float], ...]

    def __init__(self, name: str, **params: float) -> None:
        if not isinstance(name, str):  # (a list was "unhashable type")
            raise TypeError(f"a discount's name must be a str such as 'log2', got {type_and_value(name)}")
        if name not in _KINDS:
            raise ValueError(f"unknown discount {name!r}; valid discounts: {_valid_list()}")
        kind = _KINDS[name]
        unknown = sorted(set(params) - set(kind.params))
        if unknown:
            raise ValueError(
                f"discount {name!r} has no parameter {unknown[0]!r}; valid: {_signature(name)}; "
                f"all discounts: {_valid_list()}"
            )
        values: dict[str, float] = {}
        for key, (default, low, high) in kind.params.items():
            if key not in params and default is _REQUIRED:
                raise ValueError(f"discount {name!r} needs parameter {key!r}: {_signature(name)}")
            value = check_real(params.get(key, default), f"discount {name!r} parameter {key!r}")
            if not low < value < high:
                within = f"> {low:g}" if high == math.inf else f"in ({low:g}, {high:g})"
                raise ValueError(
                    f"discount {name!r}: {key} must be {within}, got {value!r} (valid: {_signature(name)}; all "
                    f"discounts: {_valid_list()})"
                )
            values[key] = value
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "params", tuple(values.items()))

    @property
    def kwargs(self) -> dict[str, float]:
        """The parameters as a dict."""
        return dict(self.params)

    @property
    def formula(self) -> str:
        """D(r) written out, e.g. ``'r^(-beta)'``."""
        return _KINDS[self.name].formula

    @property
    def decay(self) -> str:
        """How fast D decays, the property the theory turns on.

        ``'constant'``, ``'slowly varying'`` (log-like: D(cn)/D(n) -> 1), ``'regularly varying'``
        (r^(-beta), 0 < beta < 1), ``'critical'`` (1/r, or ``zipflog(gamma <= 1)``: the sum still
        diverges) or ``'summable'`` (``power(beta > 1)``, ``geometric``, ``zipflog(gamma > 1)``).

        Examples
        --------
        >>> parse_discount("power(beta=2)").decay, parse_discount("log2").decay, parse_discount("zipf").decay
        ('summable', 'slowly varying', 'critical')
        """
        kw = self.kwargs
        if self.name == "zipflog":  # sum 1/(r log^g r) diverges exactly when g <= 1 (integral test)
            return "critical" if kw["gamma"] <= 1 else "summable"
        if self.name == "power":
            return "regularly varying" if kw["beta"] < 1 else "critical" if kw["beta"] == 1 else "summable"
        return {"none": "constant", "zipf": "critical", "geometric": "summable"}.get(self.name, "slowly varying")

    def __call__(self, ranks: Any) -> np.ndarray:
        """D at the given 1-based ranks (numbers, finite, >= 1), as float64."""
        return self.values(checked_array(ranks, "ranks", low=1))

    def values(self, ranks: np.ndarray) -> np.ndarray:
        """D at checked float64 ranks (unchecked: the kernels')."""
        return _KINDS[self.name].function(ranks, **self.kwargs)

    def __str__(self) -> str:
        defaults = _KINDS[self.name].params
        shown = {k: v for k, v in self.params if defaults[k][0] is _REQUIRED or v != defaults[k][0]}
        return format_call(self.name, shown)

    def __repr__(self) -> str:
        return f"parse_discount({str(self)!r})"


#: What the metric functions accept as a discount.
DiscountLike = str | Discount | Callable[[np.ndarray], np.ndarray]
#: A built-in discount or a user's callable, as the kernels take it.
DiscountFunction = Discount | Callable[[np.ndarray], np.ndarray]


@functools.lru_cache(maxsize=64)
def _parse_text(spec: str) -> Discount:
    """The built-in discount a spec names (cached: the metric functions parse their default every call)."""
    kind, args, kwargs = parse_call(spec, what="discount", valid=f"valid discounts: {_valid_list()}")
    if args and kind in _KINDS:  # (an unknown name is said first, by Discount)
        raise ValueError(
            f"discount spec {spec!r}: give parameters by name, e.g. 'power(beta=0.5)'; valid discounts: {_valid_list()}"
        )
    return Discount(kind, **kwargs)


def parse_discount(spec: DiscountLike, *, builtin_only: bool = False) -> DiscountFunction:
    """Turn a discount spec into a callable on 1-based ranks.

    Built-in discounts (``DISCOUNT_NAMES``), D(r) at rank r = 1, 2, ...:

    - ``log2``: 1 / log2(r + 1) (the default); ``log(base=b)``: 1 / log_b(r + 1);
    - ``jarvelin(base=b)``: 1 for r < b, 1 / log_b(r) from r = b on;
    - ``power(beta=β)``: r^(-β); ``zipf``: 1 / r; ``geometric(p=p)``: p^(r - 1);
    - ``logpower(gamma=γ)``: (1 / log2(r + 1))^γ; ``loglog``: 1 / log2(1 + log2(1 + r));
    - ``zipflog(gamma=γ)``: 1 / (r log2(r + 1)^γ); ``none``: 1 (DCG becomes CG).

    Parameters
    ----------
    spec : str, Discount or callable
        A spec string such as ``"log2"`` or ``"power(beta=0.5)"``, a ``Discount``, or any
        callable taking an array of ranks (1, 2, ...) and returning the discounts (returned unchanged).
    builtin_only : bool, default False
        Refuse callables (TypeError): for code that needs a discount's name, its theory or a
        hashable value (the studies, result tables).

    Returns
    -------
    Discount or callable

    Raises
    ------
    ValueError, TypeError
        Unknown name or bad parameters (the message lists the valid discounts); not a spec.

    Examples
    --------
    >>> parse_discount("log2")([1, 3]).round(4).tolist()
    [1.0, 0.5]
    >>> str(parse_discount(" power( beta = 0.50 ) "))
    'power(beta=0.5)'
    >>> parse_discount("1/r")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: discount spec '1/r' is not of the form 'name' or 'name(key=value, ...)'; valid discounts: log2, ...
    """
    builtin_only = check_bool(builtin_only, "builtin_only")
    if isinstance(spec, Discount):
        return spec
    if isinstance(spec, str):
        return _parse_text(spec)
    if builtin_only:
        raise TypeError(f"discount must be a built-in discount (a spec string or a Discount), got {spec!r}")
    if callable(spec):
        return spec
    raise TypeError(f"discount must be a spec string, a Discount or a callable, got {type(spec).__name__}: {spec!r}")
