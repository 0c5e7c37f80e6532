"""The interface of every constraint (:class:`Constraint`), the intervals of the number and array
constraints (:class:`Interval`), and how a refused value is written in a message (plain Python, not
numpy's repr).

This module imports only numpy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Constraint", "Interval", "CLOSED"]


def plain_repr(value: Any, width: int = 80) -> str:
    """``repr`` of a value as plain Python (numpy scalars unwrapped), cut at ``width`` characters.

    Examples
    --------
    >>> plain_repr(np.float64(0.5)), plain_repr(np.int64(3)), plain_repr("t")
    ('0.5', '3', "'t'")
    """
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def type_and_value(value: Any) -> str:
    """``"float 2.5"``, ``"str '3'"``: what was given, for a TypeError."""
    return f"{type(value).__name__} {plain_repr(value)}"


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


CLOSED = ("both", "left", "right", "neither")


class Interval:
    """An interval of the real line, with its description (``">= 0"``, ``"in [0, 1]"``)."""

    def __init__(self, low: float | None, high: float | None, closed: str) -> None:
        if closed not in CLOSED:
            raise ValueError(f"closed must be one of {', '.join(map(repr, CLOSED))}, got {closed!r}")
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
        low, high = number_text(self.low), number_text(self.high)
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


def number_text(value: float | None) -> str:
    return "" if value is None else (str(int(value)) if float(value).is_integer() else repr(float(value)))

