"""Measures to evaluate, written in the package's spec language or as trec_eval names.

Spec strings (the package's one spec language, :mod:`ndcg_research.core.specs`):

- ``ndcg``: nDCG over the whole ranking, the ideal not cut;
- ``ndcg@10``: nDCG@10, the ranking and the ideal cut at 10;
- options in parentheses: ``gain`` and ``discount`` (any spec of
  :func:`~ndcg_research.parse_gain` / :func:`~ndcg_research.parse_discount`, quoted or not),
  and ``gains``, a trec_eval-style map from grade to gain (``gains={1: 3, 2: 9}``: listed
  grades get the given gain, any real number; the others keep their grade as gain; grade 0
  may be given a gain), e.g. ``ndcg@10(gain=exp2, discount="power(beta=0.5)")``.
  Unset options come from the convention (:mod:`~ndcg_research.evaluation.conventions`).

trec_eval names are accepted too: ``ndcg``, ``ndcg_cut`` (cut-offs 5, 10, 15, 20, 30, 100,
200, 500, 1000), ``ndcg_cut.10,20`` (a fractional cut-off is truncated, as trec_eval's
``atol`` does; one that ``atol`` would misread, such as ``1e3``, is refused, and so is an empty
list), ``ndcg.1=3,2=9,4=4.5`` (a gain map; the measure is then named ``ndcg_1=3,2=9,4=4.5`` as
trec_eval prints it; each grade given once).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core import parse_discount, parse_gain
from ..core.constraints import Constraint, Instance
from ..core.constraints.base import type_and_value
from ..core.params import validate_params
from ..core.specs import format_number, parse_call

__all__ = ["Measure", "parse_measures", "MeasureSpecs", "MEASURES", "MEASURE", "TREC_CUTOFFS", "VALID_MEASURES"]

#: trec_eval's default cut-offs of ``ndcg_cut``.
TREC_CUTOFFS: tuple[int, ...] = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: What a measure may be, for error messages.
VALID_MEASURES = (
    "valid measures: ndcg, ndcg@K, ndcg@K(gain=..., discount=..., gains={grade: gain, ...}) "
    "and the trec_eval names ndcg, ndcg_cut, ndcg_cut.K1,K2,..., ndcg.GRADE=GAIN,..."
)
_OPTIONS = ("gain", "discount", "gains")


@dataclass(frozen=True)
class Measure:
    """One nDCG variant to compute.

    Attributes
    ----------
    name : str
        How results name it: the trec_eval name if it was given as one (``ndcg_cut_10``),
        else the canonical spec (``ndcg@10(gain=exp2)``), without spaces.
    k : int or None
        Cut-off of the ranking and the ideal; None cuts nothing.
    gain, discount : str or None
        Canonical specs; None takes the convention's.
    gains : tuple of (int, float) pairs or None
        trec_eval gain map (grade, gain), sorted by grade.
    """

    name: str
    k: int | None = None
    gain: str | None = None
    discount: str | None = None
    gains: tuple[tuple[int, float], ...] | None = None

    def with_defaults(self, gain: str | None, discount: str | None) -> Measure:
        """This measure with ``gain`` / ``discount`` filled in where it sets none (renamed as a spec)."""
        new_gain = self.gain if self.gain is not None or self.gains is not None else gain
        new_discount = self.discount if self.discount is not None else discount
        if (new_gain, new_discount) == (self.gain, self.discount):
            return self
        return _spec_measure(self.k, new_gain, new_discount, self.gains)

    def spec(self) -> str:
        """The canonical spec string of this measure.

        Examples
        --------
        >>> parse_measures("ndcg_cut.10")[0].spec()
        'ndcg@10'
        """
        return _spec_name(self.k, self.gain, self.discount, self.gains)


def _spec_name(k, gain, discount, gains) -> str:
    options = []
    if gain is not None:
        options.append(f"gain={gain}")
    if discount is not None:
        options.append(f"discount={discount}")
    if gains is not None:
        options.append("gains={" + ",".join(f"{g}:{format_number(v)}" for g, v in gains) + "}")
    text = "ndcg" + ("" if k is None else f"@{k}") + (f"({','.join(options)})" if options else "")
    return text.replace(" ", "")


def _spec_measure(k, gain, discount, gains) -> Measure:
    return Measure(_spec_name(k, gain, discount, gains), k, gain, discount, gains)


_TREC_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_TREC_CUTOFF = re.compile(r"\+?[0-9]+(?:\.[0-9]*)?")


def _trec_number(text: str, what: str, measure: str) -> float:
    """A number as trec_eval's atof reads it in full (``1_0``, ``0x10``, ``3x`` are refused: atof stops early)."""
    if _TREC_NUMBER.fullmatch(text) is None:
        raise ValueError(f"measure {measure!r}: {what} {text!r} is not a number; {VALID_MEASURES}")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"measure {measure!r}: {what} {text!r} is not finite")
    return value


def _trec_cutoffs(measure: str, params: str | None) -> list[Measure]:
    if params is None:
        cutoffs = list(TREC_CUTOFFS)
    else:
        if not params:
            raise ValueError(f"measure {measure!r}: an empty list of cut-offs (trec_eval: 'improper measure'); give "
                             f"them after the dot, e.g. ndcg_cut.10,20, or write ndcg_cut for its defaults")
        cutoffs = []
        for p in params.split(","):
            # trec_eval reads each cut-off with atol: digits, a fraction truncated; anything else it misreads.
            if _TREC_CUTOFF.fullmatch(p) is None:
                raise ValueError(f"measure {measure!r}: cut-off {p!r} is not a whole number (trec_eval's atol would "
                                 f"read {_atol(p)}); {VALID_MEASURES}")
            cutoffs.append(int(p.partition(".")[0]))
        if min(cutoffs) < 1:
            raise ValueError(f"measure {measure!r}: cut-offs must be >= 1 (trec_eval: 'Negative cutoff detected')")
        if len(set(cutoffs)) != len(cutoffs):
            raise ValueError(f"measure {measure!r}: duplicate cut-offs (trec_eval: 'duplicate cutoffs detected')")
        cutoffs.sort()
    return [Measure(f"ndcg_cut_{k}", k) for k in cutoffs]


def _atol(text: str) -> int:
    match = re.match(r"\s*[+-]?[0-9]+", text)
    return int(match.group()) if match else 0


def _trec_gains(measure: str, params: str) -> Measure:
    pairs: dict[int, float] = {}
    for item in params.split(","):
        level, sep, gain = item.partition("=")
        if not sep or not level or not gain:
            raise ValueError(f"measure {measure!r}: gain map entries are GRADE=GAIN, got {item!r}; {VALID_MEASURES}")
        if not re.fullmatch(r"\+?[0-9]+", level):
            raise ValueError(f"measure {measure!r}: grade {level!r} must be an integer >= 0")
        if int(level) in pairs:
            raise ValueError(f"measure {measure!r}: grade {int(level)} is given two gains; give each grade once")
        pairs[int(level)] = _trec_number(gain, "gain", measure)
    return Measure(f"ndcg_{params}", None, None, None, tuple(sorted(pairs.items())))


def _normalised_call(text: str) -> str:
    """Quote bare names and calls used as option values: ``gain=exp2`` -> ``gain='exp2'``."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return text  # parse_call reports it
    if isinstance(node, ast.Call):
        for keyword in node.keywords:
            if isinstance(keyword.value, (ast.Name, ast.Call)):
                keyword.value = ast.Constant(ast.unparse(keyword.value))
        return ast.unparse(node)
    return text


def _checked_gains(value: object, measure: str) -> tuple[tuple[int, float], ...]:
    if not isinstance(value, dict) or not value:
        raise ValueError(f"measure {measure!r}: gains must be a non-empty dict {{grade: gain}}, got {value!r}")
    pairs = {}
    for level, gain in value.items():
        if isinstance(level, bool) or not isinstance(level, int) or level < 0:
            raise ValueError(f"measure {measure!r}: gains keys must be integer grades >= 0, got {level!r}")
        if isinstance(gain, bool) or not isinstance(gain, (int, float)) or not math.isfinite(gain):
            raise ValueError(f"measure {measure!r}: gains values must be finite numbers, got {gain!r}")
        pairs[level] = float(gain)
    return tuple(sorted(pairs.items()))


def _parse_spec(text: str) -> Measure:
    match = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:@\s*(\d+))?\s*(\(.*\))?\s*", text, flags=re.DOTALL)
    if match is None or match.group(1) != "ndcg":
        raise ValueError(f"unknown measure {text!r}; {VALID_MEASURES}")
    k = None if match.group(2) is None else int(match.group(2))
    if k is not None and k < 1:
        raise ValueError(f"measure {text!r}: the cut-off must be >= 1")
    options: dict[str, object] = {}
    if match.group(3) is not None:
        _, args, options = parse_call(_normalised_call("ndcg" + match.group(3)), what="measure")
        if args:
            raise ValueError(f"measure {text!r}: options are named (gain=..., discount=..., gains=...)")
        unknown = set(options) - set(_OPTIONS)
        if unknown:
            raise ValueError(f"measure {text!r}: unknown option(s) {', '.join(sorted(unknown))}; options: {', '.join(_OPTIONS)}")
    gain = discount = gains = None
    if "gain" in options:
        gain = str(parse_gain(options["gain"], builtin_only=True))
    if "discount" in options:
        discount = str(parse_discount(options["discount"], builtin_only=True))
    if "gains" in options:
        gains = _checked_gains(options["gains"], text)
        if gain is not None:
            raise ValueError(f"measure {text!r}: give either gain or gains (a gain map replaces the gain function)")
    return _spec_measure(k, gain, discount, gains)


def _parse_one(text: str) -> list[Measure]:
    if not isinstance(text, str):
        raise TypeError(f"a measure must be a spec string or a Measure, got {type(text).__name__} {text!r}")
    stripped = text.strip()
    if stripped == "ndcg":
        return [Measure("ndcg")]
    if stripped == "ndcg_cut":
        return _trec_cutoffs(stripped, None)
    if stripped.startswith("ndcg_cut."):
        return _trec_cutoffs(stripped, stripped.partition(".")[2])
    if stripped.startswith("ndcg.") and "(" not in stripped:
        return [_trec_gains(stripped, stripped[len("ndcg."):])]
    return [_parse_spec(text)]


class MeasureSpecs(Constraint):
    """The constraint of every ``measures`` argument: measure specs, parsed into a list of :class:`Measure`.

    One spec or a sequence of them (strings or :class:`Measure` objects), duplicates removed;
    errors are worded in terms of the measure (``"unknown measure 'map'; valid measures: ..."``).

    Examples
    --------
    >>> MEASURES.check(("ndcg@10", "ndcg@10"), "measures")
    [Measure(name='ndcg@10', k=10, gain=None, discount=None, gains=None)]
    >>> MEASURES.check(None, "measures")
    Traceback (most recent call last):
    ...
    TypeError: measures must be a measure spec or a sequence of them (e.g. 'ndcg@10'), got None
    """

    subject = "measure"

    def _describe(self) -> str:
        return "a measure spec or a sequence of them (e.g. 'ndcg@10')"

    def _check(self, value: Any, name: str) -> list[Measure]:
        if isinstance(value, (str, Measure)):
            items = [value]
        elif isinstance(value, Sequence):
            items = list(value)
        else:
            raise TypeError(f"{name} must be {self.describe()}, got {'None' if value is None else type_and_value(value)}")
        if not items:
            raise ValueError(f"no measure given; {VALID_MEASURES}")
        out: list[Measure] = []
        for item in items:
            for measure in [item] if isinstance(item, Measure) else _parse_one(item):
                if measure not in out:
                    out.append(measure)
        return out

    def example(self) -> str:
        return "ndcg"

    def invalid_values(self) -> list[Any]:
        return ["map", "ndcg@0", "ndcg_cut.", [], [3], 3, *super().invalid_values()]


#: The constraint of the ``measures`` of :func:`parse_measures`, ``evaluate`` and ``run_matrices``.
MEASURES = MeasureSpecs()
#: One measure already parsed.
MEASURE = Instance(Measure, what="a Measure (see parse_measures)", example=lambda: Measure("ndcg"))


@validate_params(measures=MEASURES)
def parse_measures(measures: str | Measure | Sequence[str | Measure]) -> list[Measure]:
    """Parse measure specs (one or a sequence) into :class:`Measure` objects, duplicates removed.

    Parameters
    ----------
    measures : str, Measure or sequence of them
        Spec strings (``"ndcg@10(gain=exp2)"``) or trec_eval names (``"ndcg_cut.5,10"``).

    Returns
    -------
    list of Measure
        In the order given; ``ndcg_cut`` expands to one measure per cut-off.

    Raises
    ------
    ValueError
        An unknown measure (the message lists the valid ones) or bad options.

    Examples
    --------
    >>> [m.name for m in parse_measures(["ndcg", "ndcg_cut.20,10.7", "ndcg.1=3,2=9"])]
    ['ndcg', 'ndcg_cut_10', 'ndcg_cut_20', 'ndcg_1=3,2=9']
    >>> m = parse_measures('ndcg@10(gain=exp2, discount="power(beta=0.5)")')[0]
    >>> m.name, m.k, m.gain, m.discount
    ('ndcg@10(gain=exp2,discount=power(beta=0.5))', 10, 'exp2', 'power(beta=0.5)')
    >>> parse_measures("ndcg(gains={0: 1, 2: 5})")[0].gains
    ((0, 1.0), (2, 5.0))
    >>> parse_measures("map")
    Traceback (most recent call last):
    ...
    ValueError: unknown measure 'map'; valid measures: ndcg, ndcg@K, ndcg@K(gain=..., discount=..., gains={grade: gain, ...}) and the trec_eval names ndcg, ndcg_cut, ndcg_cut.K1,K2,..., ndcg.GRADE=GAIN,...
    """
    return measures  # parsed by MEASURES
