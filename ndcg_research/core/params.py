"""Declared constraints on the parameters of public functions, checked before any work.

A public function states what each of its parameters accepts, next to its signature, and
:func:`validate_params` checks every argument against that declaration before the body runs:

>>> from ndcg_research.core.constraints import Integer, Options, Real
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
  :meth:`~ndcg_research.core.constraints.base.Constraint.invalid_values` on every public function.
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

The kinds of constraint (:class:`~ndcg_research.core.constraints.Integer`, ``Real``, ``Options``,
``Boolean``, ``Array``, ...) are in :mod:`ndcg_research.core.constraints`.

This module imports only the standard library and :mod:`~ndcg_research.core.constraints` (numpy).
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Mapping
from typing import Any, TypeVar

from .constraints import Constraint

__all__ = ["Declaration", "validate_params", "RenamedAttribute"]

_F = TypeVar("_F", bound=Any)
_NO_DEFAULT = inspect.Parameter.empty


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
    >>> import numpy as np
    >>> from ndcg_research.core.constraints import Array, Integer
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
