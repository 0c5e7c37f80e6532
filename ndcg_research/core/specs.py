"""Parse and print configuration specs such as ``"power(beta=0.5)"``.

A spec is a name, optionally called with keyword arguments whose values are
literals: ``"log2"``, ``"geometric(p=0.8)"``, ``"mapping({0: 0, 1: 1, 2: 3})"``.
Parsing uses :mod:`ast` and accepts literals only, so a spec string can come
from a papermill parameter or a results table without ever being evaluated.
Printing is canonical: parameters in declaration order, defaults omitted, and
numbers written the shortest way that round-trips, so ``parse(str(x)) == x``.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from .constraints import Constraint, Instance, Real
from .params import validate_params

__all__ = ["parse_call", "parse_registered", "format_call", "format_number", "FunctionSpec"]

_TEXT = Instance(str)
_MAPPING = Instance(Mapping, what="a mapping", example=dict)


@validate_params(what=_TEXT, spec=_TEXT)
def parse_call(spec: str, *, what: str) -> tuple[str, list[Any], dict[str, Any]]:
    """Split ``"name(arg, key=value)"`` into its name, positional and keyword literals.

    Parameters
    ----------
    spec : str
        The spec text.
    what : str
        What the spec configures ("discount", "gain"), used in error messages.

    Returns
    -------
    name, args, kwargs

    Examples
    --------
    >>> parse_call("power(beta=0.5)", what="discount")
    ('power', [], {'beta': 0.5})
    """
    try:
        node = ast.parse(spec.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"{what} spec {spec!r} is not of the form 'name' or 'name(key=value, ...)'") from None
    if isinstance(node, ast.Name):
        return node.id, [], {}
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        raise ValueError(f"{what} spec {spec!r} is not of the form 'name' or 'name(key=value, ...)'")
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords}
    except ValueError:
        raise ValueError(f"{what} spec {spec!r}: arguments must be literals (numbers, dicts of numbers)") from None
    if None in kwargs:
        raise ValueError(f"{what} spec {spec!r}: '**' arguments are not allowed")
    return node.func.id, args, kwargs


@validate_params(what=_TEXT, valid=_TEXT, registry=_MAPPING, spec=_TEXT)
def parse_registered(
    spec: str, registry: Mapping[str, Sequence[str]], *, what: str, valid: str
) -> tuple[str, dict[str, Any]]:
    """Parse a spec whose name is a key of ``registry`` and whose keywords are exactly that key's parameters.

    Parameters
    ----------
    spec : str
        The spec text.
    registry : mapping of str to sequence of str
        Valid names, each with the names of its (required) keyword parameters.
    what : str
        What the spec configures ("ranker", "cut-off rule"), used in error messages.
    valid : str
        The valid specs, appended to every error message, e.g. ``"valid rankers: bayes, noisy(sigma)"``.

    Returns
    -------
    name, kwargs

    Raises
    ------
    ValueError
        If the name is not in ``registry``, or if the spec has positional arguments
        or not exactly the registered keywords (and as :func:`parse_call`).

    Examples
    --------
    >>> parse_registered("noisy(sigma=1)", {"noisy": ("sigma",)}, what="ranker", valid="valid rankers: noisy(sigma)")
    ('noisy', {'sigma': 1})
    >>> parse_registered("noisy", {"noisy": ("sigma",)}, what="ranker", valid="valid rankers: noisy(sigma)")
    Traceback (most recent call last):
    ...
    ValueError: ranker 'noisy' needs parameter(s) sigma; valid rankers: noisy(sigma)
    """
    name, args, kwargs = parse_call.unchecked(spec, what=what)
    if name not in registry:
        raise ValueError(f"unknown {what} {name!r}; {valid}")
    wanted = registry[name]
    if args or set(kwargs) != set(wanted):
        raise ValueError(f"{what} {spec!r} needs parameter(s) {', '.join(wanted) or 'none'}; {valid}")
    return name, kwargs


@validate_params(value=Real(finite=False))
def format_number(value: float) -> str:
    """Shortest text that reads back as the same float, integers without '.0'.

    Examples
    --------
    >>> format_number(2.0), format_number(0.5), format_number(1e-20)
    ('2', '0.5', '1e-20')
    """
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


@validate_params(name=_TEXT, params=_MAPPING)
def format_call(name: str, params: Mapping[str, Any]) -> str:
    """Canonical text of a spec: ``name`` or ``name(key=value, ...)``.

    Examples
    --------
    >>> format_call("power", {"beta": 0.5})
    'power(beta=0.5)'
    >>> format_call("log2", {})
    'log2'
    """
    if not params:
        return name
    inner = ", ".join(f"{key}={format_number.unchecked(float(value))}" for key, value in params.items())
    return f"{name}({inner})"


class FunctionSpec(Constraint):
    """A function given by spec (a gain, a discount): a built-in, named by a spec string, or any callable.

    The base of :class:`~ndcg_research.core.gains.GainSpec` and
    :class:`~ndcg_research.core.discounts.DiscountSpec`, which say how a value becomes a built-in
    (``_builtin``: the built-in, or None for a value that is neither a spec nor a built-in). With
    ``builtin_only`` a callable is refused (for code that needs a name or a hashable value). Errors
    are worded in terms of the ``subject`` ("gain", "discount"), whatever the argument is called.

    Parameters
    ----------
    builtin_only : bool, default False
    none : bool, default False
    """

    #: What the spec configures, e.g. "gain".
    subject = "function"
    #: The built-in forms, in words, e.g. ("a spec string", "a Discount").
    forms: tuple[str, ...] = ("a spec string",)
    #: Values the constraint refuses besides wrong types (bad specs), for the common API test.
    bad_specs: tuple[Any, ...] = ()

    def __init__(self, *, builtin_only: bool = False, none: bool = False) -> None:
        super().__init__(none=none)
        self.builtin_only = builtin_only

    def _forms(self, *, callable_too: bool) -> str:
        forms = (*self.forms, "a callable") if callable_too else self.forms
        return ", ".join(forms[:-1]) + " or " + forms[-1]

    def _describe(self) -> str:
        return f"a {self.subject} ({self._forms(callable_too=not self.builtin_only)})"

    def _builtin(self, value: Any) -> Any:  # pragma: no cover - every subclass has one
        raise NotImplementedError

    def _check(self, value: Any, name: str) -> Any:
        builtin = self._builtin(value)
        if builtin is not None:
            return builtin
        if callable(value) and not self.builtin_only:
            return value
        if self.builtin_only:
            raise TypeError(f"{self.subject} must be a built-in {self.subject} ({self._forms(callable_too=False)}), "
                            f"got {value!r}")
        raise TypeError(
            f"{self.subject} must be {self._forms(callable_too=True)}, got {type(value).__name__}: {value!r}"
        )

    def invalid_values(self) -> list[Any]:
        bad: list[Any] = [*self.bad_specs, 3, *super().invalid_values()]
        return [*bad, abs] if self.builtin_only else bad

