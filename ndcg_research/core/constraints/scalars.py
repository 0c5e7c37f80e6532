"""Constraints on one value: numbers (:class:`Integer`, :class:`Real`), choices (:class:`Options`,
:class:`Boolean`) and objects (:class:`Instance`, :class:`Function`, :class:`FilePath`, :class:`Anything`).

This module imports only numpy.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from .base import Constraint, Interval, plain_repr, type_and_value

__all__ = ["Integer", "Real", "Options", "Boolean", "Instance", "Function", "FilePath", "Anything"]


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
            raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")
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
        self.range = Interval(low, high, closed)
        self.finite = finite

    def _describe(self) -> str:
        phrase = self.range.phrase()
        if self.range.low is not None and self.range.high is not None:
            return phrase
        return f"a number {phrase}" if phrase else ("a finite number" if self.finite else "a number")

    def _check(self, value: Any, name: str) -> float:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            wanted = "a number" + (" or None" if self.none else "")
            raise TypeError(f"{name} must be {wanted}, got {type_and_value(value)}")
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
        raise ValueError(f"{name} must be {self.describe()}, got {plain_repr(value)}")

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
        raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")

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
        raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")

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
        raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")

    def example(self) -> Any:
        return _identity

    def invalid_values(self) -> list[Any]:
        return [3, "f", *super().invalid_values()]


class FilePath(Constraint):
    """A file's path: a non-empty str or an :class:`os.PathLike` (such as :class:`pathlib.Path`), passed on as is.

    Whether the file exists is for the function to say (with the name of the file).

    Examples
    --------
    >>> FilePath().check(3, "qrels")
    Traceback (most recent call last):
    ...
    TypeError: qrels must be a path (str or os.PathLike), got int 3
    >>> FilePath().check("", "path")
    Traceback (most recent call last):
    ...
    ValueError: path must be a path (str or os.PathLike), got an empty string
    """

    def _describe(self) -> str:
        return "a path (str or os.PathLike)"

    def _check(self, value: Any, name: str) -> Any:
        if isinstance(value, os.PathLike):
            return value
        if isinstance(value, str):
            if not value:
                raise ValueError(f"{name} must be {self.describe()}, got an empty string")
            return value
        raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")

    def example(self) -> str:
        return "example.txt"

    def invalid_values(self) -> list[Any]:
        return [3, b"example.txt", "", object(), *super().invalid_values()]


def _identity(*args: Any, **kwargs: Any) -> Any:
    return args[0] if args else None


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
