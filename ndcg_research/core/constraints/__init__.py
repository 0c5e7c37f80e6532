"""The kinds of constraint a parameter can have (see :mod:`~ndcg_research.core.params`).

Each :class:`Constraint` checks one value and returns it normalised, or raises ValueError / TypeError
naming the argument and showing the value as plain Python; it also describes itself, gives a value it
accepts (:meth:`~Constraint.example`) and values it refuses (:meth:`~Constraint.invalid_values`), which
``tests/test_common_api.py`` tries on every public function.

- numbers: :class:`Integer`, :class:`Real` (bounds, finiteness);
- choices: :class:`Options` (strings), :class:`Boolean` (True or False only: a string or a number is
  refused);
- objects: :class:`Instance`, :class:`Function` (callable), :class:`FilePath`, :class:`Anything` (with
  the reason);
- arrays: :class:`Array` (dimension, shape, dtype kind, size, finite values, range);
- combinations: :class:`SequenceOf` (each element), :class:`AnyOf` (one of several).

A module adds its own by subclassing :class:`Constraint`: the gain and discount specs
(:class:`~ndcg_research.core.gains.GainSpec`, :class:`~ndcg_research.core.discounts.DiscountSpec`), the
ranked lists of the metric functions (:class:`~ndcg_research.core.validation.RankedLists`), the score
matrices of the statistics (:class:`~ndcg_research.stats.inputs.ScoreMatrix`).

The package imports only numpy. Its modules, one job each:
:mod:`~ndcg_research.core.constraints.base` (the :class:`Constraint` interface, intervals, how
values are written in messages), :mod:`~ndcg_research.core.constraints.scalars` (numbers, choices,
objects), :mod:`~ndcg_research.core.constraints.arrays`, :mod:`~ndcg_research.core.constraints.combined`
(sequences, alternatives).
"""

from .arrays import Array
from .base import Constraint
from .combined import AnyOf, SequenceOf
from .scalars import Anything, Boolean, FilePath, Function, Instance, Integer, Options, Real

__all__ = [
    "Constraint",
    "Integer",
    "Real",
    "Options",
    "Boolean",
    "Instance",
    "Function",
    "FilePath",
    "Array",
    "SequenceOf",
    "AnyOf",
    "Anything",
]
