"""Write an :class:`~ndcg_research.evaluation.evaluator.Evaluation` as trec_eval text, CSV or JSON.

trec_eval's format, byte for byte: ``printf("%-22s\\t%s\\t%6.4f\\n", measure, query, value)``;
with per-query lines (``-q``) first, query by query in ``strcmp`` order and, within a query,
``ndcg`` before ``ndcg_cut_k`` (cut-offs ascending), as trec_eval's measure table orders
them; then the ``all`` lines (``runid`` and ``num_q`` first when asked for).
"""

from __future__ import annotations

import csv
import io
import json
import math

from ..core.constraints import Boolean, Instance, SequenceOf
from ..core.params import validate_params
from .evaluator import Evaluation, evaluate
from .measures import MEASURE, Measure

__all__ = ["trec_order", "trec_text", "csv_text", "json_text"]


def _example_evaluation() -> Evaluation:
    import pandas as pd

    qrels = pd.DataFrame({"query": ["q"], "doc": ["d"], "relevance": [1]})
    return evaluate(qrels, {"run": pd.DataFrame({"query": ["q"], "doc": ["d"], "score": [1.0]})})


_EVALUATION = Instance(Evaluation, what="an Evaluation (see evaluate)", example=_example_evaluation)
_FLAG = Boolean()


@validate_params(measures=SequenceOf(MEASURE))
def trec_order(measures: tuple[Measure, ...]) -> list[int]:
    """Indices of the measures in trec_eval's printing order: uncut ones first, then by cut-off.

    Examples
    --------
    >>> from ndcg_research.evaluation.measures import parse_measures
    >>> ms = parse_measures(["ndcg_cut.20,5", "ndcg"])
    >>> [ms[i].name for i in trec_order(tuple(ms))]
    ['ndcg', 'ndcg_cut_5', 'ndcg_cut_20']
    """
    return sorted(range(len(measures)), key=lambda i: (measures[i].k is not None, measures[i].k or 0))


def _line(name: str, query: str, value: float) -> str:
    return f"{name:<22}\t{query}\t{value:6.4f}\n"


@validate_params(per_query=_FLAG, summary=_FLAG, runid=_FLAG, num_q=_FLAG, ndcg=_FLAG, evaluation=_EVALUATION)
def trec_text(
    evaluation: Evaluation, *, per_query: bool = False, summary: bool = True, runid: bool = False, num_q: bool = False,
    ndcg: bool = True,
) -> str:
    """trec_eval's output for each run, one block per run.

    Parameters
    ----------
    evaluation : Evaluation
    per_query : bool
        Per-query lines before the summary (trec_eval ``-q``).
    summary : bool
        The ``all`` lines (trec_eval prints them unless ``-n``).
    runid, num_q : bool
        The ``runid`` / ``num_q`` summary lines (trec_eval ``-m runid`` / ``-m num_q``).
    ndcg : bool
        The nDCG lines (False: ``-m runid`` or ``-m num_q`` alone, as trec_eval prints them).

    Examples
    --------
    >>> import pandas as pd
    >>> from ndcg_research.evaluation.evaluator import evaluate
    >>> qrels = pd.DataFrame({"query": ["1", "1"], "doc": ["a", "b"], "relevance": [1, 1]})
    >>> run = pd.DataFrame({"query": ["1", "1"], "doc": ["a", "c"], "score": [2.0, 1.0]})
    >>> text = trec_text(evaluate(qrels, {"x": run}, ["ndcg_cut.1", "ndcg"]), per_query=True)
    >>> print(text.replace("\\t", "|"), end="")  # tabs shown as |
    ndcg                  |1|0.6131
    ndcg_cut_1            |1|1.0000
    ndcg                  |all|0.6131
    ndcg_cut_1            |all|1.0000
    """
    order = trec_order.unchecked(evaluation.measures) if ndcg else []
    names = [evaluation.measures[i].name for i in order]
    out = []
    for r, run in enumerate(evaluation.runs):
        values = evaluation.values[r][order]
        if per_query:
            for q, query in enumerate(evaluation.queries[r]):
                out.extend(_line(name, query, values[j, q]) for j, name in enumerate(names))
        if summary:
            if runid:
                out.append(f"{'runid':<22}\tall\t{evaluation.tags[r] if evaluation.tags[r] is not None else run}\n")
            if num_q:
                out.append(f"{'num_q':<22}\tall\t{evaluation.queries[r].size}\n")
            means = evaluation.mean_values[r][order]
            out.extend(_line(name, "all", value) for name, value in zip(names, means))
    return "".join(out)


def _records(evaluation: Evaluation, per_query: bool):
    for r, run in enumerate(evaluation.runs):
        if per_query:
            for q, query in enumerate(evaluation.queries[r]):
                for m, measure in enumerate(evaluation.measures):
                    yield run, query, measure.name, float(evaluation.values[r][m, q])
        for m, measure in enumerate(evaluation.measures):
            yield run, "", measure.name, float(evaluation.mean_values[r, m])


@validate_params(per_query=_FLAG, evaluation=_EVALUATION)
def csv_text(evaluation: Evaluation, *, per_query: bool = False) -> str:
    """CSV with columns ``run, query, measure, value``, full precision.

    The mean over the queries has an empty ``query`` (no query id is empty, so a query named
    ``all``, trec_eval's name for the mean, stays distinct from it); ``pandas.read_csv`` reads it
    as NaN.

    Examples
    --------
    >>> import pandas as pd
    >>> from ndcg_research.evaluation.evaluator import evaluate
    >>> qrels = pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]})
    >>> run = pd.DataFrame({"query": ["1", "1"], "doc": ["c", "a"], "score": [2.0, 1.0]})
    >>> print(csv_text(evaluate(qrels, {"x": run}, "ndcg")), end="")
    run,query,measure,value
    x,,ndcg,0.6309297535714575
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["run", "query", "measure", "value"])
    writer.writerows((run, query, name, repr(value)) for run, query, name, value in _records(evaluation, per_query))
    return buffer.getvalue()


@validate_params(per_query=_FLAG, evaluation=_EVALUATION)
def json_text(evaluation: Evaluation, *, per_query: bool = False) -> str:
    """JSON: the convention, and per run its tag, number of queries, means and (optionally) per-query values.

    Examples
    --------
    >>> import pandas as pd
    >>> from ndcg_research.evaluation.evaluator import evaluate
    >>> qrels = pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]})
    >>> run = pd.DataFrame({"query": ["1"], "doc": ["a"], "score": [2.0]})
    >>> print(json_text(evaluate(qrels, {"x": run}, "ndcg")))
    {"convention": "trec_eval", "runs": [{"run": "x", "tag": null, "num_q": 1, "means": {"ndcg": 1.0}}]}
    """
    runs = []
    for r, run in enumerate(evaluation.runs):
        entry = {
            "run": run,
            "tag": evaluation.tags[r],
            "num_q": int(evaluation.queries[r].size),
            "means": {m.name: _finite(v) for m, v in zip(evaluation.measures, evaluation.mean_values[r])},
        }
        if per_query:
            entry["per_query"] = {
                query: {m.name: _finite(evaluation.values[r][j, q]) for j, m in enumerate(evaluation.measures)}
                for q, query in enumerate(evaluation.queries[r])
            }
        runs.append(entry)
    return json.dumps({"convention": evaluation.convention.name, "runs": runs})


def _finite(value: float) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None
