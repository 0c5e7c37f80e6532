"""Declared constraints on the parameters of public functions, checked before any work.

A public function states what each of its parameters accepts, next to its signature, and
:func:`validate_params` checks every argument against that declaration before the body runs:

>>> @validate_params(n=Integer(1), level=Real(0, 1, closed="neither"), test=Options(("t", "z")))
... def example(n, *, level=0.95, test="t"):
...     return n, level, test
>>> example(3, test="z")
(3, 0.95, 'z')
>>> example(0)
Traceback (most recent call last):
...
ValueError: n must be an integer >= 1, got 0
>>> example(3, level=float("nan"))
Traceback (most recent call last):
...
ValueError: level must be strictly between 0 and 1, got nan

Rules:

- Every parameter of a declared function has a constraint: a parameter left out (or a default
  that breaks its own constraint) fails when the module is imported. ``tests/test_common_api.py``
  fails for a public function without a declaration, and tries every constraint's
  :meth:`~Constraint.invalid_values` on every public function.
- Arguments are checked in the order of the declaration (by convention parameters first, then
  data), each once per call: O(1) for a scalar, one vectorised pass for an array a constraint
  converts; never a Python loop over items.
- A bad value raises :class:`ValueError` (out of range, not an option, not finite, empty) or
  :class:`TypeError` (a wrong type; a string or a number where True or False is expected),
  whose message names the argument and shows the value as plain Python (``got nan``,
  ``got 5``), never a numpy repr.
- The body receives the *normalised* values: ``numpy.int64(3)`` becomes ``3``, a gain spec a
  :class:`~ndcg_research.core.gains.Gain`, an array-like an array, an iterator a list.
  Defaults are normalised once, when the function is declared.
- Nested calls do not check twice. ``f.unchecked(...)`` runs the body of ``f`` on values that are
  already checked and normalised (the caller's own declaration checked them); it is the only way
  past the checks and it is visible at the call site. There is no global switch, so threads
  cannot interfere with each other.
- A renamed keyword keeps working with a DeprecationWarning: ``renamed={"method": "test"}``.

The constraints: :class:`Integer`, :class:`Real`, :class:`Options`, :class:`Boolean`,
:class:`Instance`, :class:`Function`, :class:`Array`, :class:`SequenceOf`, :class:`AnyOf` and
:class:`Anything`; a module adds its own by subclassing :class:`Constraint` (the gain and
discount specs, the ranked lists of the metric functions, the score matrices of the statistics).

This module imports only numpy.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import warnings
from collections.abc import Iterable, Iterator, Mapping, MappingView, Set
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "Constraint",
    "Integer",
    "Real",
    "Options",
    "Boolean",
    "Instance",
    "Function",
    "Array",
    "SequenceOf",
    "AnyOf",
    "Anything",
    "Declaration",
    "validate_params",
    "RenamedAttribute",
]

_F = TypeVar("_F", bound=Any)
_NO_DEFAULT = inspect.Parameter.empty


def _plain(value: Any, width: int = 80) -> str:
    """``repr`` of a value as plain Python (numpy scalars unwrapped), cut at ``width`` characters.

    Examples
    --------
    >>> _plain(np.float64(0.5)), _plain(np.int64(3)), _plain("t")
    ('0.5', '3', "'t'")
    """
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _type_and_value(value: Any) -> str:
    """``"float 2.5"``, ``"str '3'"``: what was given, for a TypeError."""
    return f"{type(value).__name__} {_plain(value)}"


class Constraint:
    """What one parameter accepts: check and normalise a value, or raise naming the argument.

    Subclasses implement :meth:`_check` (the value is not None, or None is not allowed),
    :meth:`describe`, :meth:`example` and :meth:`invalid_values`.

    Parameters
    ----------
    none : bool, default False
        Accept None (passed on as is), for optional arguments.
    """

    none: bool = False
    #: The word a constraint's messages use instead of the argument's name, if any (a gain spec is
    #: reported as "unknown gain 'square'" whatever the argument is called).
    subject: str | None = None

    def __init__(self, *, none: bool = False) -> None:
        self.none = none

    def check(self, value: Any, name: str) -> Any:
        """The normalised ``value``, or ValueError / TypeError naming ``name``."""
        if value is None and self.none:
            return None
        return self._check(value, name)

    def _check(self, value: Any, name: str) -> Any:  # pragma: no cover - every subclass has one
        raise NotImplementedError

    def describe(self) -> str:
        """What the constraint accepts, in words (``"an integer >= 1 or None"``)."""
        return self._describe() + (" or None" if self.none else "")

    def _describe(self) -> str:  # pragma: no cover
        raise NotImplementedError

    def example(self) -> Any:
        """A value the constraint accepts (used by the common API test to build valid calls)."""
        raise NotImplementedError(f"{type(self).__name__} has no example")

    def invalid_values(self) -> list[Any]:
        """Values the constraint refuses: wrong types, NaN, infinities, empty input, out of range."""
        return [] if self.none else [None]

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.describe()}>"


class Integer(Constraint):
    """An integer (Python or numpy; not a bool, not an integral float such as 2.0) within bounds.

    Normalised to a Python int.

    Parameters
    ----------
    minimum : int or None
        Smallest allowed value; None for no lower bound.
    maximum : int or None, default None
        Largest allowed value.
    none : bool, default False

    Examples
    --------
    >>> Integer(1).check(np.int64(3), "n")
    3
    >>> Integer(1, 2, none=True).check(3, "threads")
    Traceback (most recent call last):
    ...
    ValueError: threads must be an integer in [1, 2] or None, got 3
    """

    def __init__(self, minimum: int | None, maximum: int | None = None, *, none: bool = False) -> None:
        super().__init__(none=none)
        self.minimum, self.maximum = minimum, maximum

    def _describe(self) -> str:
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            return f"an integer in [{low}, {high}]"
        if low is not None:
            return f"an integer >= {low}"
        return "an integer" if high is None else f"an integer <= {high}"

    def _check(self, value: Any, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be {self.describe()}, got {_type_and_value(value)}")
        number = int(value)
        if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
            raise ValueError(f"{name} must be {self.describe()}, got {number!r}")
        return number

    def example(self) -> int:
        return self.minimum if self.minimum is not None else (self.maximum if self.maximum is not None else 0)

    def invalid_values(self) -> list[Any]:
        bad: list[Any] = ["1", 1.5, 2.0, True, math.nan, math.inf, *super().invalid_values()]
        if self.minimum is not None:
            bad.append(self.minimum - 1)
        if self.maximum is not None:
            bad.append(self.maximum + 1)
        return bad


_CLOSED = ("both", "left", "right", "neither")


class _Range:
    """An interval of the real line, with its description (``">= 0"``, ``"in [0, 1]"``)."""

    def __init__(self, low: float | None, high: float | None, closed: str) -> None:
        if closed not in _CLOSED:
            raise ValueError(f"closed must be one of {', '.join(map(repr, _CLOSED))}, got {closed!r}")
        self.low, self.high, self.closed = low, high, closed

    @property
    def bounded(self) -> bool:
        return self.low is not None or self.high is not None

    def _low_closed(self) -> bool:
        return self.closed in ("both", "left")

    def _high_closed(self) -> bool:
        return self.closed in ("both", "right")

    def contains(self, x: Any) -> Any:
        """Element-wise: is ``x`` inside (False for NaN)?"""
        inside = np.ones(np.shape(x), dtype=bool) if np.ndim(x) else True
        if self.low is not None:
            inside = inside & ((x >= self.low) if self._low_closed() else (x > self.low))
        if self.high is not None:
            inside = inside & ((x <= self.high) if self._high_closed() else (x < self.high))
        return inside

    def phrase(self) -> str:
        """``"in [0, 1]"``, ``"strictly between 0 and 1"``, ``">= 0"``, ``"< 1"``."""
        low, high = _number_text(self.low), _number_text(self.high)
        if self.low is not None and self.high is not None:
            if self.closed == "neither":
                return f"strictly between {low} and {high}"
            return f"in {'[' if self._low_closed() else '('}{low}, {high}{']' if self._high_closed() else ')'}"
        if self.low is not None:
            return f"{'>=' if self._low_closed() else '>'} {low}"
        if self.high is not None:
            return f"{'<=' if self._high_closed() else '<'} {high}"
        return ""

    def outside_examples(self) -> list[float]:
        """Values just outside the interval (each bound itself when it is open)."""
        out = []
        if self.low is not None:
            out.append(float(self.low) if not self._low_closed() else float(self.low) - 1.0)
        if self.high is not None:
            out.append(float(self.high) if not self._high_closed() else float(self.high) + 1.0)
        return out

    def inside_example(self) -> float:
        if self.low is not None and self.high is not None:
            return (self.low + self.high) / 2
        if self.low is not None:
            return float(self.low) + 1.0
        return 0.0 if self.high is None else float(self.high) - 1.0


def _number_text(value: float | None) -> str:
    return "" if value is None else (str(int(value)) if float(value).is_integer() else repr(float(value)))


class Real(Constraint):
    """A real number (Python or numpy; not a bool), finite unless said otherwise, within bounds.

    Normalised to a Python float. NaN is outside every interval; with ``finite=False`` an
    unbounded side admits the infinity and NaN is accepted only when there is no bound.

    Parameters
    ----------
    low, high : float or None, default None
        Bounds; None for no bound on that side.
    closed : {"both", "left", "right", "neither"}, default "both"
        Which bounds belong to the interval.
    finite : bool, default True
        Refuse NaN and infinities.
    none : bool, default False

    Examples
    --------
    >>> Real(0, 1, closed="neither").check(np.float64(0.95), "confidence")
    0.95
    >>> Real(0).check(-1e-12, "tie_tolerance")
    Traceback (most recent call last):
    ...
    ValueError: tie_tolerance must be a number >= 0, got -1e-12
    """

    def __init__(
        self, low: float | None = None, high: float | None = None, *, closed: str = "both", finite: bool = True,
        none: bool = False,
    ) -> None:
        super().__init__(none=none)
        self.range = _Range(low, high, closed)
        self.finite = finite

    def _describe(self) -> str:
        phrase = self.range.phrase()
        if self.range.low is not None and self.range.high is not None:
            return phrase
        return f"a number {phrase}" if phrase else ("a finite number" if self.finite else "a number")

    def _check(self, value: Any, name: str) -> float:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            wanted = "a number" + (" or None" if self.none else "")
            raise TypeError(f"{name} must be {wanted}, got {_type_and_value(value)}")
        number = float(value)
        if self.range.bounded and not self.range.contains(number):
            raise ValueError(f"{name} must be {self.describe()}, got {number!r}")
        if self.finite and not math.isfinite(number):
            raise ValueError(f"{name} must be finite, got {number!r}")
        return number

    def example(self) -> float:
        return self.range.inside_example()

    def invalid_values(self) -> list[Any]:
        bad: list[Any] = ["0.5", True, *super().invalid_values(), *self.range.outside_examples()]
        for special in (math.nan, math.inf, -math.inf):
            if self.finite or not self.range.contains(special):
                bad.append(special)
        return bad


class Options(Constraint):
    """One of a few strings. Normalised to the option itself (a ``numpy.str_`` becomes a str).

    Parameters
    ----------
    options : sequence of str
    none : bool, default False

    Examples
    --------
    >>> Options(("zero", "one")).check("skip", "zero_ideal")
    Traceback (most recent call last):
    ...
    ValueError: zero_ideal must be one of 'zero', 'one', got 'skip'
    """

    def __init__(self, options: Iterable[str], *, none: bool = False) -> None:
        super().__init__(none=none)
        self.options = tuple(options)
        if not self.options or not all(isinstance(o, str) for o in self.options):
            raise TypeError(f"options must be a non-empty sequence of str, got {self.options!r}")

    def _describe(self) -> str:
        return "one of " + ", ".join(map(repr, self.options))

    def _check(self, value: Any, name: str) -> str:
        if isinstance(value, str):
            for option in self.options:
                if value == option:
                    return option
        raise ValueError(f"{name} must be {self.describe()}, got {_plain(value)}")

    def example(self) -> str:
        return self.options[0]

    def invalid_values(self) -> list[Any]:
        return ["no-such-option", 3, *super().invalid_values()]


class Boolean(Constraint):
    """True or False (a numpy bool too); a string, a number or any other object is refused.

    Examples
    --------
    >>> Boolean().check(np.True_, "exact")
    True
    >>> Boolean(none=True).check("no", "exact")
    Traceback (most recent call last):
    ...
    TypeError: exact must be True, False or None, got str 'no'
    """

    def _describe(self) -> str:
        return "True or False"

    def describe(self) -> str:
        return "True, False or None" if self.none else "True or False"

    def _check(self, value: Any, name: str) -> bool:
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise TypeError(f"{name} must be {self.describe()}, got {_type_and_value(value)}")

    def example(self) -> bool:
        return False

    def invalid_values(self) -> list[Any]:
        return ["no", "False", 1, 0, *super().invalid_values()]


class Instance(Constraint):
    """An instance of one of the given types, passed on as is.

    Parameters
    ----------
    *types : type
    what : str, optional
        The types in words (default: their names).
    example : callable, optional
        Builds a valid value (for the common API test); default ``types[0]()``.
    none : bool, default False

    Examples
    --------
    >>> Instance(str).check(3, "name")
    Traceback (most recent call last):
    ...
    TypeError: name must be a str, got int 3
    """

    def __init__(
        self, *types: type, what: str | None = None, example: Any = None, none: bool = False,
    ) -> None:
        super().__init__(none=none)
        self.types = types
        self.what = what or " or ".join(f"a {t.__name__}" for t in types)
        self._example = example

    def _describe(self) -> str:
        return self.what

    def _check(self, value: Any, name: str) -> Any:
        if isinstance(value, self.types):
            return value
        raise TypeError(f"{name} must be {self.describe()}, got {_type_and_value(value)}")

    def example(self) -> Any:
        return self._example() if self._example is not None else self.types[0]()

    def invalid_values(self) -> list[Any]:
        return [object(), *super().invalid_values()]


class Function(Constraint):
    """Anything callable (a function, a class, an object with ``__call__``), passed on as is.

    Examples
    --------
    >>> Function().check(3, "statistic")
    Traceback (most recent call last):
    ...
    TypeError: statistic must be callable, got int 3
    """

    def _describe(self) -> str:
        return "callable"

    def _check(self, value: Any, name: str) -> Any:
        if callable(value):
            return value
        raise TypeError(f"{name} must be {self.describe()}, got {_type_and_value(value)}")

    def example(self) -> Any:
        return _identity

    def invalid_values(self) -> list[Any]:
        return [3, "f", *super().invalid_values()]


def _identity(*args: Any, **kwargs: Any) -> Any:
    return args[0] if args else None


_KIND_WORDS = {"b": "booleans", "iu": "integers", "iuf": "real numbers", "biuf": "numbers (bool, int or float)"}


class Array(Constraint):
    """An array of numbers (or booleans) of a given dimension, size and range.

    By default any array-like is converted (``numpy.asarray``, then ``dtype``); strings, masked
    arrays and ragged nesting are refused. With ``as_is=True`` the value must already be a numpy
    array, and only its dtype kind and shape are looked at (O(1): for the kernels, which take the
    padded arrays of the metric functions).

    Parameters
    ----------
    ndim : int, tuple of int or None, default None
        Allowed numbers of dimensions.
    shape : tuple of (int or None), optional
        Required shape, None for any length along an axis (implies ``ndim``).
    kinds : str, default "iuf"
        Allowed dtype kinds (``numpy.dtype.kind``): "b" bool, "i" / "u" integers, "f" floats.
    dtype : numpy dtype, None or "auto", default "auto"
        Conversion of the result: None keeps the dtype; "auto" is float64 when ``kinds`` has
        floats, else None.
    finite : bool, optional
        Refuse NaN and infinities (floats only: integers are finite); default True, except for
        ``as_is`` arrays, whose values are not read.
    low, high, closed
        Interval every value must lie in (as in :class:`Real`).
    min_size : int, default 0
        Least number of values; ``unit`` names them (plural) in the message (``"at least 2 queries"``).
    keep_labels : bool, default False
        A pandas Series or DataFrame is checked and passed on as is (it keeps its index).
    as_is : bool, default False
    none : bool, default False

    Examples
    --------
    >>> Array(ndim=1, min_size=2, unit="queries").check([0.5, 1], "a")
    array([0.5, 1. ])
    >>> Array(ndim=1).check([0.5, float("nan")], "a")
    Traceback (most recent call last):
    ...
    ValueError: a must be finite, got nan at index 1
    >>> Array(low=0, high=1).check([0.2, 1.5], "pvalues")
    Traceback (most recent call last):
    ...
    ValueError: pvalues must be in [0, 1], got 1.5 at index 1
    """

    def __init__(
        self, *, ndim: int | tuple[int, ...] | None = None, shape: tuple[int | None, ...] | None = None,
        kinds: str = "iuf", dtype: Any = "auto", finite: bool | None = None, low: float | None = None,
        high: float | None = None, closed: str = "both", min_size: int = 0, unit: str = "values",
        keep_labels: bool = False, as_is: bool = False, none: bool = False,
    ) -> None:
        super().__init__(none=none)
        if shape is not None:
            ndim = len(shape)
        self.ndims = None if ndim is None else ((ndim,) if isinstance(ndim, int) else tuple(ndim))
        if isinstance(dtype, str) and dtype == "auto":
            dtype = np.float64 if "f" in kinds else None
        self.shape, self.kinds, self.dtype = shape, kinds, dtype
        self.range = _Range(low, high, closed)
        self.finite = not as_is if finite is None else finite
        self.min_size, self.unit = min_size, unit
        self.keep_labels, self.as_is = keep_labels, as_is
        if as_is and (self.finite or self.range.bounded or min_size):
            raise ValueError("an as_is array is not read: it cannot require finite values, a range or a size")

    def _describe(self) -> str:
        dims = "" if self.ndims is None else " or ".join(f"{n}-D" for n in self.ndims) + " "
        kind = _KIND_WORDS.get(self.kinds, f"dtype kind {self.kinds!r}")
        article = "a numpy" if self.as_is else ("a" if dims else "an")
        return f"{article} {dims}array of {kind}"

    def _check(self, value: Any, name: str) -> Any:
        if self.as_is:
            if not isinstance(value, np.ndarray):
                raise TypeError(f"{name} must be {self.describe()}, got {_type_and_value(value)}")
            array = value
        else:
            array = self._convert(value, name)
        if array.dtype.kind not in self.kinds:
            words = _KIND_WORDS.get(self.kinds, f"dtype kind {self.kinds!r}")
            raise TypeError(f"{name} must hold {words}, got dtype {array.dtype}")
        self._check_shape(array, name)
        if self.as_is:
            return array
        if self.dtype is not None:
            array = array.astype(self.dtype, copy=False)
        if (self.finite and array.dtype.kind == "f") or self.range.bounded:
            self._check_values(array, name)
        return value if self.keep_labels and hasattr(value, "to_numpy") else array

    def _convert(self, value: Any, name: str) -> np.ndarray:
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be {self.describe()}, got {_type_and_value(value)}")
        if isinstance(value, np.ma.MaskedArray):
            raise TypeError(f"{name} must not be a numpy masked array (its masked entries would count); "
                            f"fill or drop them first")
        if isinstance(value, (Iterator, Set, Mapping, MappingView)):
            raise TypeError(f"{name} must be {self.describe()}, got {type(value).__name__}")
        try:
            return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value)
        except (ValueError, TypeError) as error:  # ragged nesting
            raise ValueError(f"{name} must be {self.describe()}, got ragged input ({error})") from None

    def _check_shape(self, array: np.ndarray, name: str) -> None:
        if self.ndims is not None and array.ndim not in self.ndims:
            wanted = " or ".join(f"{n}-D" for n in self.ndims)
            raise ValueError(f"{name} must be {wanted}, got shape {array.shape}")
        if self.shape is not None and any(w is not None and w != n for w, n in zip(self.shape, array.shape)):
            pattern = "(" + ", ".join("n" if w is None else str(w) for w in self.shape) + ("," if len(self.shape) == 1 else "") + ")"
            raise ValueError(f"{name} must have shape {pattern}, got shape {array.shape}")
        if array.size < self.min_size:
            if self.min_size == 1:
                raise ValueError(f"{name} must not be empty, got shape {array.shape}")
            raise ValueError(f"{name} must hold at least {self.min_size} {self.unit}, got {array.size}")

    def _check_values(self, array: np.ndarray, name: str) -> None:
        good = self.range.contains(array) if self.range.bounded else np.ones(array.shape, dtype=bool)
        if self.finite and array.dtype.kind == "f":
            good = good & np.isfinite(array)
        if good.all():
            return
        where = tuple(int(i) for i in np.argwhere(~good)[0])
        bad = array[where].item()
        phrase = self.range.phrase()
        if self.range.low is not None and self.range.high is not None:
            wanted = phrase
        elif phrase:
            wanted = f"finite and {phrase}" if self.finite else phrase
        else:
            wanted = "finite"
        at = "" if array.ndim == 0 else f" at index {where[0] if array.ndim == 1 else where}"
        raise ValueError(f"{name} must be {wanted}, got {_plain(bad)}{at}")

    def example(self) -> Any:
        ndim = self.ndims[0] if self.ndims else 1
        shape = [max(1, self.min_size) if axis == ndim - 1 else 1 for axis in range(ndim)]
        if self.shape is not None:
            shape = [n if n is not None else s for n, s in zip(self.shape, shape)]
        kind = self.kinds[-1]
        if kind == "b":
            return np.zeros(shape, dtype=bool)
        value = self.range.inside_example() if self.range.bounded else 0.0
        dtype = np.float64 if kind == "f" else np.int64
        return np.full(shape, value, dtype=dtype) if self.as_is else np.full(shape, value, dtype=dtype).tolist()

    def invalid_values(self) -> list[Any]:
        example = self.example()
        bad: list[Any] = ["abc", *super().invalid_values()]
        if self.as_is:
            bad.append(np.asarray(example).tolist())  # a list, not an array
            bad.append(np.asarray(example).astype(str))
        else:
            array = np.asarray(example, dtype=np.float64)
            if "f" not in self.kinds:
                bad.append((array + 0.5).tolist())
            if "b" not in self.kinds:
                bad.append(np.zeros(array.shape, dtype=bool).tolist())
            if self.min_size:
                bad.append([])
            if "f" in self.kinds:
                specials = [math.nan, math.inf, -math.inf] if self.finite else []
                specials += [x for x in self.range.outside_examples()]
                for special in specials:
                    flat = array.copy().ravel()
                    flat[-1] = special
                    bad.append(flat.reshape(array.shape).tolist())
        if self.ndims is not None and 3 not in self.ndims:
            bad.append(np.zeros((1, 1, 1)).tolist() if not self.as_is else np.zeros((1, 1, 1)))
        return bad


class SequenceOf(Constraint):
    """A list, tuple or 1-D array whose every element meets ``element``; normalised to a list.

    Parameters
    ----------
    element : Constraint
    min_size : int, default 1
        Least number of elements.
    scalar : bool, default False
        Accept a single element as a sequence of one.
    none : bool, default False

    Examples
    --------
    >>> SequenceOf(Integer(1)).check((3, np.int64(5)), "depths")
    [3, 5]
    >>> SequenceOf(Integer(1)).check([3, 0], "depths")
    Traceback (most recent call last):
    ...
    ValueError: depths[1] must be an integer >= 1, got 0
    """

    def __init__(self, element: Constraint, *, min_size: int = 1, scalar: bool = False, none: bool = False) -> None:
        super().__init__(none=none)
        self.element, self.min_size, self.scalar = element, min_size, scalar

    def _describe(self) -> str:
        return f"a sequence of values, each {self.element.describe()}" + (" (or one such value)" if self.scalar else "")

    def _check(self, value: Any, name: str) -> list[Any]:
        if isinstance(value, np.ndarray) and value.ndim == 1:
            items = value.tolist()
        elif isinstance(value, (list, tuple)):
            items = list(value)
        elif self.scalar and np.ndim(value) == 0 and not isinstance(value, (str, bytes)):
            items = [value]
        else:
            raise TypeError(f"{name} must be {self.describe()}, got {_type_and_value(value)}")
        if len(items) < self.min_size:
            raise ValueError(f"{name} must hold at least {self.min_size} value{'s' if self.min_size > 1 else ''}, "
                             f"got {_plain(value)}")
        return [self.element.check(item, f"{name}[{index}]") for index, item in enumerate(items)]

    def example(self) -> list[Any]:
        return [self.element.example()] * max(self.min_size, 1)

    def invalid_values(self) -> list[Any]:
        bad: list[Any] = [object(), *super().invalid_values()]
        if self.min_size:
            bad.append([])
        bad.extend([item] for item in self.element.invalid_values() if item is not None)
        return bad


class AnyOf(Constraint):
    """A value meeting at least one of several constraints (the first that accepts it normalises it).

    A value whose type one of them takes but whose value it refuses gets that constraint's
    ValueError; a value none of them takes by type gets a TypeError listing them all.

    Examples
    --------
    >>> seed = AnyOf(Integer(0), Instance(np.random.SeedSequence, what="a numpy.random.SeedSequence"))
    >>> seed.check(-1, "seed")
    Traceback (most recent call last):
    ...
    ValueError: seed must be an integer >= 0, got -1
    >>> seed.check("x", "seed")
    Traceback (most recent call last):
    ...
    TypeError: seed must be an integer >= 0 or a numpy.random.SeedSequence, got str 'x'
    """

    def __init__(self, *constraints: Constraint, none: bool = False) -> None:
        super().__init__(none=none)
        self.constraints = constraints

    def _describe(self) -> str:
        return " or ".join(c.describe() for c in self.constraints)

    def _check(self, value: Any, name: str) -> Any:
        value_error = None
        for constraint in self.constraints:
            try:
                return constraint.check(value, name)
            except ValueError as error:
                value_error = value_error or error
            except TypeError:
                pass
        if value_error is not None:
            raise value_error
        raise TypeError(f"{name} must be {self.describe()}, got {_type_and_value(value)}")

    def example(self) -> Any:
        return self.constraints[0].example()

    def invalid_values(self) -> list[Any]:
        candidates = [v for c in self.constraints for v in c.invalid_values()] + super().invalid_values()
        bad = []
        for value in candidates:
            try:
                self.check(value, "x")
            except (ValueError, TypeError):
                bad.append(value)
        return bad


class Anything(Constraint):
    """No constraint, for a parameter the function itself examines (say why).

    Parameters
    ----------
    reason : str
        Why the layer has nothing to check (e.g. "the value a check function checks").
    """

    def __init__(self, reason: str) -> None:
        super().__init__(none=True)
        self.reason = reason

    def _describe(self) -> str:
        return f"anything ({self.reason})"

    def describe(self) -> str:
        return self._describe()

    def check(self, value: Any, name: str) -> Any:
        return value

    def example(self) -> Any:
        return 1

    def invalid_values(self) -> list[Any]:
        return []


def _changed(raw: Any, normalised: Any) -> bool:
    """Whether normalising a default gave another value (so that it must be passed to the body)."""
    if normalised is raw:
        return False
    simple = (str, int, float, bool, type(None))
    return not (type(raw) is type(normalised) and isinstance(raw, simple) and raw == normalised)


class Declaration:
    """The constraints of one function's parameters, and the check of a call against them.

    Built by :func:`validate_params`; reach it as ``f.declaration``.

    Attributes
    ----------
    function : callable
        The body (called with checked, normalised values).
    name : str
        The function's name, for messages.
    constraints : dict of str to Constraint
        Parameter name -> constraint, in the order they are checked.
    renamed : dict of str to str
        Old keyword -> new keyword, still accepted with a DeprecationWarning.
    """

    __slots__ = ("function", "name", "constraints", "renamed", "_order", "_defaults")

    def __init__(self, function: Any, constraints: Mapping[str, Constraint], renamed: Mapping[str, str]) -> None:
        self.function = function
        self.name = function.__qualname__
        parameters = inspect.signature(function).parameters
        unsupported = [p.name for p in parameters.values()
                       if p.kind not in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)]
        missing = [p for p in parameters if p not in constraints]
        unknown = [c for c in constraints if c not in parameters]
        bad = [c for c, constraint in constraints.items() if not isinstance(constraint, Constraint)]
        if unsupported or missing or unknown or bad or set(renamed.values()) - set(parameters):
            raise TypeError(
                f"{self.name}: every parameter needs exactly one constraint (missing {missing}, unknown {unknown}, "
                f"not a Constraint {bad}; *args, **kwargs and positional-only parameters are not supported: "
                f"{unsupported}; renamed to unknown parameters: {sorted(set(renamed.values()) - set(parameters))})"
            )
        self.constraints = dict(constraints)
        self.renamed = dict(renamed)
        positional = [p.name for p in parameters.values() if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
        self._order = tuple(
            (name, positional.index(name) if name in positional else None, constraint)
            for name, constraint in self.constraints.items()
        )
        self._defaults: dict[str, tuple[int | None, Any]] = {}  # normalised defaults that differ from the raw ones
        for name, parameter in parameters.items():
            if parameter.default is not _NO_DEFAULT:
                normalised = constraints[name].check(parameter.default, name)  # a bad default fails at import
                if _changed(parameter.default, normalised):
                    self._defaults[name] = (positional.index(name) if name in positional else None, normalised)

    def check(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """Check and normalise the arguments of one call (``kwargs`` is updated in place).

        Arguments the signature does not take (unknown keywords, too many positional ones, one
        given twice) are passed on unchecked, so that the call fails with Python's own TypeError
        when the body is called, before it runs.
        """
        if self.renamed:
            self._rename(kwargs)
        given = len(args)
        checked = list(args)
        for name, index, constraint in self._order:
            if index is not None and index < given:
                checked[index] = constraint.check(args[index], name)
            elif name in kwargs:
                kwargs[name] = constraint.check(kwargs[name], name)
            elif name in self._defaults:
                kwargs[name] = self._defaults[name][1]
        return checked, kwargs

    @property
    def fills_defaults(self) -> bool:
        """Whether ``f.unchecked`` has work to do: defaults that normalising changed, or renamed keywords."""
        return bool(self._defaults or self.renamed)

    def fill_defaults(self, given: int, kwargs: dict[str, Any]) -> dict[str, Any]:
        """``kwargs`` with the normalised defaults of the parameters not given (for ``f.unchecked``)."""
        if self.renamed:
            self._rename(kwargs)
        for name, (index, value) in self._defaults.items():
            if name not in kwargs and (index is None or index >= given):
                kwargs[name] = value
        return kwargs

    def _rename(self, kwargs: dict[str, Any]) -> None:
        for old, new in self.renamed.items():
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{self.name}() got both {old}= (deprecated) and {new}=; give only {new}=")
                warnings.warn(f"{self.name}({old}=...) is deprecated and will be removed: use {new}=",
                              DeprecationWarning, stacklevel=4)
                kwargs[new] = kwargs.pop(old)


class RenamedAttribute:
    """An attribute kept under its old name for a while: reading it gives the new one, with a DeprecationWarning.

    The counterpart, for the attributes of result objects, of ``renamed=`` in :func:`validate_params`.

    Examples
    --------
    >>> import warnings
    >>> class Result:
    ...     method = RenamedAttribute("test")
    ...     def __init__(self): self.test = "t"
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Result().method, str(caught[0].message)
    ('t', 'Result.method is deprecated and will be removed: use .test')
    """

    def __init__(self, new: str) -> None:
        self.new = new
        self.old = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        warnings.warn(f"{type(instance).__name__}.{self.old} is deprecated and will be removed: use .{self.new}",
                      DeprecationWarning, stacklevel=2)
        return getattr(instance, self.new)


def validate_params(*, renamed: Mapping[str, str] | None = None, **constraints: Constraint) -> Any:
    """Declare the constraint of every parameter of a function; check each call before the body runs.

    Parameters
    ----------
    renamed : mapping of str to str, optional
        Keywords that were renamed: old name -> new name. The old name keeps working, with a
        DeprecationWarning.
    **constraints : Constraint
        One per parameter of the function (all of them), in the order they are to be checked.

    Returns
    -------
    callable
        A decorator. The decorated function keeps its name, signature and docstring, and has
        ``.unchecked`` (the body without the checks, for a declared caller passing values it has
        checked already) and ``.declaration`` (its :class:`Declaration`).

    Examples
    --------
    >>> @validate_params(k=Integer(1, none=True), values=Array(ndim=1, min_size=1))
    ... def top_mean(values, k=None):
    ...     return float(values[:k].mean())
    >>> top_mean([1, 2, 3], k=np.int64(2))
    1.5
    >>> top_mean.unchecked(np.array([1.0, 2.0, 3.0]), 2)   # values already checked by the caller
    1.5
    >>> top_mean([1, 2, 3], k=2.0)
    Traceback (most recent call last):
    ...
    TypeError: k must be an integer >= 1 or None, got float 2.0
    """

    def decorate(function: _F) -> _F:
        declaration = Declaration(function, constraints, renamed or {})

        @functools.wraps(function)
        def checked(*args: Any, **kwargs: Any) -> Any:
            args, kwargs = declaration.check(args, kwargs)
            return declaration.function(*args, **kwargs)

        if declaration.fills_defaults:
            def unchecked(*args: Any, **kwargs: Any) -> Any:
                return declaration.function(*args, **declaration.fill_defaults(len(args), kwargs))
        else:  # nothing to fill: one frame all the same, so that warnings point at the same caller either way
            def unchecked(*args: Any, **kwargs: Any) -> Any:
                return declaration.function(*args, **kwargs)

        unchecked.__name__ = unchecked.__qualname__ = f"{function.__name__}.unchecked"
        unchecked.__doc__ = f"{function.__name__} without checking its arguments (see ndcg_research.core.params)."
        checked.unchecked = unchecked  # type: ignore[attr-defined]
        checked.declaration = declaration  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate
