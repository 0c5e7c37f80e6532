"""The constraint on arrays of numbers (:class:`Array`): dimension, shape, dtype kind, size, finite values, range.

This module imports only numpy.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, MappingView, Set
from typing import Any

import numpy as np

from .base import Constraint, Interval, plain_repr, type_and_value

__all__ = ["Array"]


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
        self.range = Interval(low, high, closed)
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
                raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")
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
            raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")
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
        raise ValueError(f"{name} must be {wanted}, got {plain_repr(bad)}{at}")

    def example(self) -> Any:
        ndim = self.ndims[0] if self.ndims else 1
        shape = [max(1, self.min_size) if axis == ndim - 1 else 1 for axis in range(ndim)]
        if self.shape is not None:
            shape = [n if n is not None else s for n, s in zip(self.shape, shape)]
        kind = self.kinds[-1]
        if kind == "b":
            return np.zeros(shape, dtype=bool)
        value = self.range.inside_example() if self.range.bounded else 0.0
        dtype = np.float64 if kind == "f" else (np.int64 if "i" in self.kinds else np.uint64)
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

