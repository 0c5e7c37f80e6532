"""The kinds of constraint a parameter can have (see :mod:`~ndcg_research.core.params`).

Each :class:`Constraint` checks one value and returns it normalised, or raises ValueError / TypeError
naming the argument and showing the value as plain Python; it also describes itself, gives a value it
accepts (:meth:`~Constraint.example`) and values it refuses (:meth:`~Constraint.invalid_values`), which
``tests/test_common_api.py`` tries on every public function.

- numbers: :class:`Integer`, :class:`Real` (bounds, finiteness);
- choices: :class:`Options` (strings), :class:`Boolean` (True or False only: a string or a number is
  refused);
- objects: :class:`Instance`, :class:`Function` (callable), :class:`Anything` (with the reason);
- arrays: :class:`Array` (dimension, shape, dtype kind, size, finite values, range);
- combinations: :class:`SequenceOf` (each element), :class:`AnyOf` (one of several).

A module adds its own by subclassing :class:`Constraint`: the gain and discount specs
(:class:`~ndcg_research.core.gains.GainSpec`, :class:`~ndcg_research.core.discounts.DiscountSpec`), the
ranked lists of the metric functions (:class:`~ndcg_research.core.validation.RankedLists`), the score
matrices of the statistics (:class:`~ndcg_research.stats.inputs.ScoreMatrix`).

This module imports only numpy.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Iterator, Mapping, MappingView, Set
from typing import Any

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
]


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

    Subclasses implement ``_check`` (called for every value but an allowed None), ``_describe``,
    :meth:`example` and :meth:`invalid_values`.

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
            axes = ", ".join("n" if w is None else str(w) for w in self.shape)
            pattern = f"({axes}{',' if len(self.shape) == 1 else ''})"
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
