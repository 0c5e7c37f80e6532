"""Parse and print spec strings such as ``"power(beta=0.5)"``, the spec language of the whole package: literals
only (a spec from a papermill parameter is never evaluated), printed canonically so that ``parse(str(x)) == x``."""

import ast
from collections.abc import Mapping, Sequence
from typing import Any


def parse_call(spec: str, *, what: str, valid: str = "") -> tuple[str, list[Any], dict[str, Any]]:
    """Split ``"name(arg, key=value)"`` into name, positional and keyword literals; ``what`` names it in errors and
    ``valid`` ("valid gains: linear, ...") ends each ValueError's message."""
    end = f"; {valid}" if valid else ""
    if not isinstance(spec, str):
        raise TypeError(f"{what} spec must be a str, got {type(spec).__name__} {spec!r:.80}")
    try:
        node = ast.parse(spec.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"{what} spec {spec!r} is not of the form 'name' or 'name(key=value, ...)'{end}") from None
    if isinstance(node, ast.Name):
        return node.id, [], {}
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        raise ValueError(f"{what} spec {spec!r} is not of the form 'name' or 'name(key=value, ...)'{end}")
    if any(kw.arg is None for kw in node.keywords):
        raise ValueError(f"{what} spec {spec!r}: '**' arguments are not allowed{end}")
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {str(kw.arg): ast.literal_eval(kw.value) for kw in node.keywords}
        # A keyword or a dict key given twice would keep its last value silently (1 and True are one key).
        names = [kw.arg for kw in node.keywords]
        keys = [
            [ast.literal_eval(k) for k in d.keys if k is not None] for d in ast.walk(node) if isinstance(d, ast.Dict)
        ]
    except (ValueError, TypeError):  # (TypeError: a dict key that is a list)
        raise ValueError(f"{what} spec {spec!r}: arguments must be literals (numbers, dicts of numbers){end}") from None
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise ValueError(f"{what} spec {spec!r}: {twice!r} is given twice; give it once{end}")
    for listed in keys:
        if len(set(listed)) < len(listed):  # (hashed: a search of the keys before each was quadratic)
            twice = next(k for i, k in enumerate(listed) if k in listed[:i])
            raise ValueError(
                f"{what} spec {spec!r}: the key {twice!r} is given twice (equal keys are one); give it once{end}"
            )
    return node.func.id, args, kwargs


def parse_registered(
    spec: str, registry: Mapping[str, Sequence[str]], *, what: str, valid: str
) -> tuple[str, dict[str, Any]]:
    """``(name, kwargs)`` of a spec whose name is a key of ``registry`` and whose keywords are exactly its values.

    ``what`` names the spec in errors ("ranker"); ``valid`` ends every message ("valid rankers: noisy(sigma)").

    >>> parse_registered("noisy(sigma=1)", {"noisy": ("sigma",)}, what="ranker", valid="valid rankers: noisy(sigma)")
    ('noisy', {'sigma': 1})
    """
    name, args, kwargs = parse_call(spec, what=what)
    if name not in registry:
        raise ValueError(f"unknown {what} {name!r}; {valid}")
    wanted = registry[name]
    if args or set(kwargs) != set(wanted):
        raise ValueError(f"{what} {spec!r} needs parameter(s) {', '.join(wanted) or 'none'}; {valid}")
    return name, kwargs


def format_number(value: float) -> str:
    """Shortest text that reads back as the same float, integers without '.0'.

    >>> format_number(2.0), format_number(0.5), format_number(1e-20)
    ('2', '0.5', '1e-20')
    """
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def format_call(name: str, params: Mapping[str, Any]) -> str:
    """Canonical text of a spec: ``name`` or ``name(key=value, ...)``."""
    if not params:
        return name
    inner = ", ".join(f"{key}={format_number(value)}" for key, value in params.items())
    return f"{name}({inner})"
