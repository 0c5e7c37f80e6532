"""Constraints made of others: :class:`SequenceOf` (each element), :class:`AnyOf` (one of several).

This module imports only numpy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import Constraint, plain_repr, type_and_value

__all__ = ["SequenceOf", "AnyOf"]


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
    >>> from ndcg_research.core.constraints import Integer
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
            raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")
        if len(items) < self.min_size:
            raise ValueError(f"{name} must hold at least {self.min_size} value{'s' if self.min_size > 1 else ''}, "
                             f"got {plain_repr(value)}")
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
    >>> from ndcg_research.core.constraints import Instance, Integer
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
        raise TypeError(f"{name} must be {self.describe()}, got {type_and_value(value)}")

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

