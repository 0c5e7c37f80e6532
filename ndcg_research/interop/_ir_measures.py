"""The package's nDCG as an ir_measures measure (imports ir_measures).

ir_measures (0.4.x) asks its providers in turn; the first, ``runtime``, computes any measure with a
``runtime_impl(qrels, run)`` method, which hands all the queries to :func:`ndcg_research.evaluation.evaluate`.
A judged query the run does not answer scores ir_measures' ``DEFAULT`` = 0; the mean leaves out a query whose
nDCG the convention leaves undefined (NaN), as ``evaluate`` does."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import ir_measures
import numpy as np
from ir_measures.measures.base import Agg, MeanAgg, ParamInfo

from .._validation import check_instance, check_int, check_option
from ..core import parse_discount, parse_gain
from ..evaluation import CONVENTIONS, Measure, NoJudgedQuery, evaluate, get_convention, parse_measures

#: The tie rules of the evaluator's conventions: by document id descending (trec_eval), in the
#: run's order (a stable sort), or averaged over the tied group (McSherry & Najork 2008).
TIES: tuple[str, ...] = ("docno", "input", "average")
_DEFAULT_CONVENTION = "trec_eval"
#: The evaluator's notes that are not warned of (by a phrase of each): see NDCG.runtime_impl.
_OWN_RULES = ("no ranking (", "no judgments in ", "ideal DCG 0 (", "undefined (NaN)")


def _text(query: Any) -> str:
    """A query id as the evaluator names it: bytes decoded (undecodable ones as surrogate escapes), others as str."""
    return query.decode("utf-8", "surrogateescape") if isinstance(query, bytes) else str(query)


class _MeanOfDefined(MeanAgg):
    """Mean of the values that are not NaN (NaN: a query the convention leaves out); NaN if there is none."""

    def add(self, value: float) -> None:
        if not math.isnan(value):
            super().add(value)


def measure_params(measure: Measure) -> dict[str, Any]:
    """The parameters of the ir_measures measure of one of the package's measures (None: not set)."""
    gains = None if measure.gains is None else dict(measure.gains)
    return {"cutoff": measure.k, "gain": measure.gain, "discount": measure.discount, "gains": gains}


class NDCG(ir_measures.Measure):
    """nDCG with the package's gains, discounts, tie rules and conventions, made by :func:`ndcg_research.ir_measure`;
    equal when they print the same (the canonical spec, then ``ties`` and ``convention`` if not trec_eval's)."""

    NAME = "ndcg"
    __name__ = "ndcg"
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=False, desc="ranking cut-off (nDCG@k cuts the ranking and the ideal)"),
        "gain": ParamInfo(dtype=str, required=False, desc="gain spec of the package (linear, exp2, mapping(...))"),
        "discount": ParamInfo(dtype=str, required=False, desc="discount spec of the package (log2, zipf, ...)"),
        "gains": ParamInfo(dtype=dict, required=False, desc="trec_eval-style gain map {grade: gain}"),
        "ties": ParamInfo(dtype=str, required=False, choices=TIES, desc="order of tied scores"),
        "convention": ParamInfo(dtype=str, required=False, choices=tuple(CONVENTIONS), desc="tool whose rules apply"),
    }

    def __init__(self, **params: Any) -> None:
        params = {key: value for key, value in params.items() if value is not None}
        unknown = sorted(set(params) - set(self.SUPPORTED_PARAMS))
        if unknown:
            raise TypeError(
                f"unknown option(s) {', '.join(unknown)} of the ndcg measure; options: "
                f"{', '.join(self.SUPPORTED_PARAMS)}"
            )
        if "cutoff" in params:
            params["cutoff"] = check_int(params["cutoff"], "cutoff", low=1)
        # Gains and discounts by name only: ir_measures tells measures apart by how they print.
        for key, parse in (("gain", parse_gain), ("discount", parse_discount)):
            if key in params:
                params[key] = str(parse(params[key], builtin_only=True))
        # The package's spec of these parts, for parse_measures to check.
        options = [f"{name}={params[name]!r}" for name in ("gain", "discount", "gains") if name in params]
        cut = f"@{params['cutoff']}" if "cutoff" in params else ""
        (measure,) = parse_measures(f"ndcg{cut}" + (f"({', '.join(options)})" if options else ""))
        canonical = {key: value for key, value in measure_params(measure).items() if value is not None}
        name = check_instance(params.get("convention", _DEFAULT_CONVENTION), "convention", str, what="a preset name")
        convention = get_convention(name)
        if convention.name != _DEFAULT_CONVENTION:
            canonical["convention"] = convention.name
        if "ties" in params:
            canonical["ties"] = check_option(params["ties"], "ties", TIES)
            convention = replace(convention, ties=canonical["ties"])
        super().__init__(**canonical)
        self._measure = measure
        self._convention = convention

    def __repr__(self) -> str:
        spec = self._measure.spec()
        extra = ",".join(f"{key}={self.params[key]}" for key in ("ties", "convention") if key in self.params)
        if not extra:
            return spec
        return f"{spec[:-1]},{extra})" if spec.endswith(")") else f"{spec}({extra})"

    def aggregator(self) -> Agg:
        return _MeanOfDefined()

    def runtime_impl(self, qrels: Any, run: Any) -> Iterator[Any]:
        """Per-query values of ``run`` (ir_measures' frames), computed by the evaluator in one call."""
        # ir_measures' frames (query_id, doc_id, ...), ids compared as text as the evaluator does (the strings of
        # the qrels' integers are the same ids); the run checked whole, its unjudged queries left out.
        if len(run) == 0:
            return  # nothing retrieved (a pipeline may return nothing): ir_measures gives each query its DEFAULT
        try:
            result = evaluate(qrels, {"run": run}, [self._measure], convention=self._convention, complete=False)
        except NoJudgedQuery:
            return  # no judged query answered: ir_measures gives each its DEFAULT
        # ir_measures has no place for notes: each is a warning, but those it has rules for (queries the run does not
        # answer or the qrels do not judge, an ideal DCG of 0 scored 0, as ir_measures' nDCG scores it) and those on
        # undefined queries (said below)
        for note in result.notes:
            scored_one = "ideal DCG 0 (" in note and self._convention.zero_ideal != "zero"
            if "not evaluated (" in note:  # (gdeval's queries without a relevant document: no value from here)
                note += "; ir_measures scores such a query 0, its default for a query without a value"
            if scored_one or not any(kind in note for kind in _OWN_RULES):
                warnings.warn(note, stacklevel=2)
        undefined = result.queries[0][np.isnan(result.values[0][0])]
        if undefined.size:
            warnings.warn(
                f"{undefined.size} {'query is' if undefined.size == 1 else 'queries are'} undefined under the "
                f"{result.convention.name} convention ({', '.join(map(repr, undefined[:10]))}"
                f"{' ...' if undefined.size > 10 else ''}): NaN, which ir_measures' mean leaves out (a tool that "
                f"averages itself, as PyTerrier's Experiment, gets a NaN mean; ndcg_research.evaluate(...).notes say "
                f"why)",
                stacklevel=2,
            )
        # The evaluator names queries by their text (bytes decoded as it decodes them); ir_measures matches them with
        # the qrels' own ids (int and bytes ids too).
        ids = {_text(query): query for query in qrels["query_id"].unique()}
        for query, value in zip(result.queries[0], result.values[0][0], strict=True):
            yield ir_measures.Metric(query_id=ids[str(query)], measure=self, value=float(value))
