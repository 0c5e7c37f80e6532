"""Gain functions g(rel), the value of a document of grade rel before discounting: the built-ins (``parse_gain``
lists them) are ``Gain`` values; any other callable is checked where the metric functions call it, on the
distinct grades and 0 (finite, g(0) = 0, non-decreasing)."""

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_bool, check_real
from ._batch import checked_array
from ._specs import format_number, parse_call

#: Names of the built-in gains.
GAIN_NAMES: tuple[str, ...] = ("linear", "exp2", "mapping")
_VALID = "linear, exp2, mapping({grade: gain, ...})"


@dataclass(frozen=True)
class Gain:
    """A built-in gain function; call it on an array of grades.

    Parameters
    ----------
    name : str
        ``"linear"``, ``"exp2"`` or ``"mapping"``.
    table : mapping of float to float, optional
        For ``"mapping"`` only: the gain of each grade, non-decreasing; grade 0 maps to 0.

    Examples
    --------
    >>> Gain("exp2")([0, 1, 3]).tolist()
    [0.0, 1.0, 7.0]
    >>> g = parse_gain("mapping({2: 3, 1: 1})")
    >>> str(g)
    'mapping({0: 0, 1: 1, 2: 3})'
    >>> g([2, 0, 1]).tolist()
    [3.0, 0.0, 1.0]
    """

    name: str
    table: tuple[tuple[float, float], ...] = ()

    def __init__(self, name: str, table: Mapping[Any, Any] | None = None) -> None:
        if name not in GAIN_NAMES:
            raise ValueError(f"unknown gain {name!r}; valid gains: {_VALID}")
        if (name == "mapping") != (table is not None):
            raise ValueError(f"gain {name!r}: a table is given exactly for 'mapping'; valid gains: {_VALID}")
        pairs = () if table is None else _checked_table(table)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "table", pairs)

    def __call__(self, grades: Any) -> np.ndarray:
        """Gains of the given grades (numbers, finite, >= 0, as the metric functions take them), as float64 (may
        contain inf if exp2 overflows)."""
        return self.values(checked_array(grades, "grades", low=0))

    def values(self, grades: np.ndarray) -> np.ndarray:
        """Gains of checked grades (unchecked: the kernels')."""
        # C-contiguous: numpy's vectorised exp2 and expm1 (contiguous arrays) and its scalar fallback (strided ones)
        # can differ in the last bit, and equal grades must get bit-equal gains wherever they sit.
        rel = np.ascontiguousarray(grades, dtype=np.float64)
        if self.name == "linear":
            return rel
        if self.name == "exp2":
            with np.errstate(over="ignore"):
                # exp2(rel) - 1 is exact for integer grades but cancels for tiny ones; expm1 does not.
                return np.where(rel < 1, np.expm1(rel * math.log(2.0)), np.exp2(rel) - 1.0)
        keys, values = np.array(self.table).T
        where = np.searchsorted(keys, rel).clip(max=len(keys) - 1)
        missing = keys[where] != rel
        if np.any(missing):
            raise ValueError(
                f"gain {str(self)!r} has no entry for grade {rel[missing].flat[0].item()!r}; "
                f"add it to the mapping (known grades: {[format_number(k) for k in keys]})"
            )
        return values[where]

    def __str__(self) -> str:
        if self.name != "mapping":
            return self.name
        inner = ", ".join(f"{format_number(k)}: {format_number(v)}" for k, v in self.table)
        return f"mapping({{{inner}}})"

    def __repr__(self) -> str:
        return f"parse_gain({str(self)!r})"


def _checked_table(table: Mapping[Any, Any]) -> tuple[tuple[float, float], ...]:
    if not isinstance(table, Mapping) or not table:
        raise TypeError(f"gain 'mapping' needs a non-empty dict from grade to gain, got {table!r}")
    pairs: dict[float, float] = {}
    for grade, gain in table.items():
        grade = check_real(grade, "gain 'mapping': every grade")
        gain = check_real(gain, "gain 'mapping': every gain")
        if grade < 0:
            raise ValueError(f"gain 'mapping': grades must be >= 0, got {format_number(grade)}")
        pairs[grade] = gain
    if pairs.setdefault(0.0, 0.0) != 0.0:
        raise ValueError(f"gain 'mapping': grade 0 must map to 0, got {pairs[0.0]!r}")
    ordered = sorted(pairs.items())
    for (g1, v1), (g2, v2) in zip(ordered, ordered[1:], strict=False):
        if v2 < v1:
            raise ValueError(
                f"gain 'mapping' must be non-decreasing in the grade: grade {format_number(g2)} -> "
                f"{format_number(v2)} is below grade {format_number(g1)} -> {format_number(v1)}"
            )
    return tuple(ordered)


#: What the metric functions accept as a gain.
GainLike = str | Gain | Mapping[Any, Any] | Callable[[np.ndarray], np.ndarray]
#: A built-in gain or a user's callable, as the kernels take it.
GainFunction = Gain | Callable[[np.ndarray], np.ndarray]


@functools.lru_cache(maxsize=64)
def _parse_text(spec: str) -> Gain:
    """The built-in gain a spec names (cached: the metric functions parse their default every call)."""
    kind, args, kwargs = parse_call(spec, what="gain", valid=f"valid gains: {_VALID}")
    if kwargs or len(args) > 1 or (kind != "mapping" and args):
        raise ValueError(f"gain spec {spec!r} is not valid; valid gains: {_VALID}")
    if kind == "mapping" and not args:
        raise ValueError(f"gain spec {spec!r}: 'mapping' needs a table, e.g. 'mapping({{0: 0, 1: 1, 2: 3}})'")
    return Gain(kind, args[0] if args else None)


def parse_gain(spec: GainLike, *, builtin_only: bool = False) -> GainFunction:
    """Turn a gain spec into a callable on grades.

    Parameters
    ----------
    spec : str, Gain, mapping or callable
        A built-in (``GAIN_NAMES``): ``"linear"`` (g = rel, the default), ``"exp2"``
        (g = 2^rel - 1, Burges et al. 2005), ``"mapping({0: 0, 1: 1, 2: 3})"`` or a dict
        from grade to gain (a table like trec_eval's ``ndcg.GRADE=GAIN`` parameters, but stricter:
        grade 0 maps to 0, listed or not, and a grade it does not list is refused); a
        ``Gain``; or any callable (returned unchanged; the metric functions check it).
    builtin_only : bool, default False
        Refuse callables (TypeError): for code that needs a gain's name or a hashable value.

    Returns
    -------
    Gain or callable

    Examples
    --------
    >>> str(parse_gain("exp2")), str(parse_gain({1: 1, 2: 3}))
    ('exp2', 'mapping({0: 0, 1: 1, 2: 3})')
    >>> parse_gain("square")
    Traceback (most recent call last):
    ...
    ValueError: unknown gain 'square'; valid gains: linear, exp2, mapping({grade: gain, ...})
    >>> parse_gain(abs, builtin_only=True)
    Traceback (most recent call last):
    ...
    TypeError: gain must be a built-in gain (a spec string, a mapping or a Gain), got <built-in function abs>
    """
    builtin_only = check_bool(builtin_only, "builtin_only")
    if isinstance(spec, Gain):
        return spec
    if isinstance(spec, str):
        return _parse_text(spec)
    if isinstance(spec, Mapping):
        return Gain("mapping", spec)
    if builtin_only:
        raise TypeError(f"gain must be a built-in gain (a spec string, a mapping or a Gain), got {spec!r}")
    if callable(spec):
        return spec
    raise TypeError(f"gain must be a spec string, a mapping, a Gain or a callable, got {type(spec).__name__}: {spec!r}")
