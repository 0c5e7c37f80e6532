"""The argument checks of the public boundary, for the whole package (imports only numpy): ValueError or TypeError
naming the argument and showing the value as plain Python (``got nan``, ``got float 2.0``, never a numpy repr);
each check returns the value normalised (``numpy.int64(3)`` -> ``3``). Private modules trust their callers."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable, Iterator, Mapping, MappingView, Set
from typing import Any, Literal, overload

import numpy as np

Closed = Literal["both", "left", "right", "neither"]


def plain_repr(value: Any, width: int = 80) -> str:
    """``repr`` of a value as plain Python (numpy scalars unwrapped), cut at ``width`` characters."""
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def type_and_value(value: Any) -> str:
    """``"float 2.5"``, ``"str '3'"``: what was given, for a TypeError."""
    return f"{type(value).__name__} {plain_repr(value)}"


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _interval(low: float | None, high: float | None, closed: Closed) -> str:
    """``"in [0, 1]"``, ``"strictly between 0 and 1"``, ``">= 0"``, ``"< 1"`` or ``""``."""
    low_closed, high_closed = closed in ("both", "left"), closed in ("both", "right")
    if low is not None and high is not None:
        if closed == "neither":
            return f"strictly between {_number_text(low)} and {_number_text(high)}"
        return f"in {'[' if low_closed else '('}{_number_text(low)}, {_number_text(high)}{']' if high_closed else ')'}"
    if low is not None:
        return f"{'>=' if low_closed else '>'} {_number_text(low)}"
    if high is not None:
        return f"{'<=' if high_closed else '<'} {_number_text(high)}"
    return ""


def _inside(x: Any, low: float | None, high: float | None, closed: Closed) -> Any:
    """Whether ``x`` (a number, or an array element-wise) is within the bounds; NaN is within no bound."""
    above = True if low is None else (x >= low if closed in ("both", "left") else x > low)
    return above & (True if high is None else (x <= high if closed in ("both", "right") else x < high))


@overload
def check_int(
    value: Any, name: str, *, low: int | None = ..., high: int | None = ..., none: Literal[False] = ...
) -> int: ...
@overload
def check_int(value: Any, name: str, *, low: int | None = ..., high: int | None = ..., none: bool) -> int | None: ...
def check_int(
    value: Any, name: str, *, low: int | None = None, high: int | None = None, none: bool = False
) -> int | None:
    """``value`` as an int: an integer (Python or numpy; not a bool, not 2.0) within ``[low, high]``."""
    if value is None and none:
        return None
    bounds = _interval(low, high, "both")
    wanted = ("an integer" if not bounds else f"an integer {bounds}") + (" or None" if none else "")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {wanted}, got {type_and_value(value)}")
    number = int(value)
    if not _inside(number, low, high, "both"):
        raise ValueError(f"{name} must be {wanted}, got {number!r}")
    return number


#: The most resamples (or random trials) a call accepts, far beyond any useful count (near 2^63 numpy's sizes overflow).
MAX_RESAMPLES = 2**31 - 1


def check_resamples(value: Any, name: str = "n_resamples") -> int:
    """A number of resamples or random trials: an integer from 1 to ``MAX_RESAMPLES``."""
    return check_int(value, name, low=1, high=MAX_RESAMPLES)


def check_real(
    value: Any, name: str, *, low: float | None = None, high: float | None = None, closed: Closed = "both"
) -> float:
    """``value`` as a float: a finite real number (not a bool) within the bounds (not NaN)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type_and_value(value)}")
    try:
        number = float(value)
    except OverflowError:  # an int (or Fraction) beyond float64's range: 10**400
        raise ValueError(f"{name} must be finite, got {type(value).__name__} beyond float64's range") from None
    if not _inside(number, low, high, closed):  # a bound is given: no bound refuses a number
        bounds = _interval(low, high, closed)
        wanted = bounds if low is not None and high is not None else f"a number {bounds}"
        raise ValueError(f"{name} must be {wanted}, got {number!r}")
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {number!r}")
    return number


def check_option(value: Any, name: str, options: Iterable[str], *, none: bool = False) -> Any:
    """``value`` if it is one of ``options`` (returned as the option itself, a plain str)."""
    if value is None and none:
        return None
    options = tuple(options)
    if isinstance(value, str) and value in options:
        return options[options.index(value)]
    wanted = "one of " + ", ".join(map(repr, options)) + (" or None" if none else "")
    raise ValueError(f"{name} must be {wanted}, got {plain_repr(value)}")


def check_bool(value: Any, name: str, *, none: bool = False) -> Any:
    """``value`` if it is True or False (a numpy bool too); a string or a number is refused."""
    if value is None and none:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True{', False or None' if none else ' or False'}, got {type_and_value(value)}")


def check_instance(value: Any, name: str, types: type | tuple[type, ...], *, what: str | None = None) -> Any:
    """``value`` if it is an instance of ``types`` (described as ``what`` in the message)."""
    if isinstance(value, types):
        return value
    if what is None:
        kinds = types if isinstance(types, tuple) else (types,)
        what = " or ".join(f"a {kind.__name__}" for kind in kinds)
    raise TypeError(f"{name} must be {what}, got {type_and_value(value)}")


def check_path(value: Any, name: str) -> str | os.PathLike[str]:
    """``value`` if it names a file: a non-empty str or an :class:`os.PathLike` (the caller says if it exists)."""
    if isinstance(value, str) and not value:
        raise ValueError(f"{name} must be a path (str or os.PathLike), got an empty string")
    if isinstance(value, (str, os.PathLike)):
        return value
    raise TypeError(f"{name} must be a path (str or os.PathLike), got {type_and_value(value)}")


_KIND_WORDS = {"b": "booleans", "iu": "integers", "iuf": "real numbers"}


def check_array(
    value: Any,
    name: str,
    *,
    ndim: int | tuple[int, ...] | None = None,
    kinds: str = "iuf",
    low: float | None = None,
    high: float | None = None,
    finite: bool = True,
    min_size: int = 0,
    unit: str = "values",
    none: bool = False,
) -> Any:
    """``value`` as a numpy array (float64 when ``kinds`` has "f"): its dimension, dtype kind, size and values checked.
    A pandas object is read with ``to_numpy()``."""
    if value is None and none:
        return None
    ndims = None if ndim is None else ((ndim,) if isinstance(ndim, int) else ndim)
    kind_words = _KIND_WORDS.get(kinds, f"dtype kind {kinds!r}")
    dims = "" if ndims is None else " or ".join(f"{n}-D" for n in ndims) + " "
    wanted = f"{'a' if dims else 'an'} {dims}array of {kind_words}{' or None' if none else ''}"
    if isinstance(value, np.ma.MaskedArray):
        raise TypeError(
            f"{name} must not be a numpy masked array (its masked entries would count); fill or drop them first"
        )
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be {wanted}, got {type_and_value(value)}")
    if isinstance(value, (Iterator, Set, Mapping, MappingView)):
        raise TypeError(f"{name} must be {wanted}, got {type(value).__name__}")
    try:
        array = np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value)
    except (ValueError, TypeError) as error:  # ragged nesting
        raise ValueError(f"{name} must be {wanted}, got ragged input ({error})") from None
    if array.dtype == object and "f" in kinds and hasattr(value, "to_numpy"):  # pandas' nullable Float64, Int64 ...
        dtypes = [value.dtype] if hasattr(value, "dtype") else list(getattr(value, "dtypes", []))
        if dtypes and all(getattr(d, "kind", "O") in "iuf" for d in dtypes):
            array = value.to_numpy(dtype=np.float64, na_value=np.nan)  # <NA> as NaN, refused below as not finite
    too_few = (
        f"{name} must not be empty, got shape {array.shape}"
        if min_size == 1
        else f"{name} must hold at least {min_size} {unit}, got {array.size}"
    )
    if array.size == 0 < min_size:  # numpy types [] as float64: "got dtype float64" would mislead
        raise ValueError(too_few)
    if array.dtype.kind not in kinds:
        raise TypeError(f"{name} must hold {kind_words}, got dtype {array.dtype}")
    if ndims is not None and array.ndim not in ndims:
        raise ValueError(f"{name} must be {' or '.join(f'{n}-D' for n in ndims)}, got shape {array.shape}")
    if array.size < min_size:
        raise ValueError(too_few)
    if "f" in kinds:
        array = array.astype(np.float64, copy=False)
    if (finite and array.dtype.kind == "f") or low is not None or high is not None:
        good = np.ones(array.shape, dtype=bool) & _inside(array, low, high, "both")
        if finite and array.dtype.kind == "f":
            good &= np.isfinite(array)
        if not good.all():
            where = tuple(int(i) for i in np.argwhere(~good)[0])
            phrase = _interval(low, high, "both")
            one_bound = (low is None) != (high is None)
            need = f"finite and {phrase}" if finite and one_bound else (phrase or "finite")
            at = "" if array.ndim == 0 else f" at index {where[0] if array.ndim == 1 else where}"
            raise ValueError(f"{name} must be {need}, got {plain_repr(array[where].item())}{at}")
    return array
