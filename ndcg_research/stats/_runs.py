"""Runs to matrices: each measure's per-query values of several runs as a systems x queries matrix, the same queries for
every run, as paired tests need."""

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..evaluation import evaluate


@dataclass(frozen=True)
class RunMatrices:
    """Per-query values of several runs under several measures, on common queries.

    Attributes
    ----------
    systems : list of str
        Run names (rows).
    queries : numpy.ndarray
        Query ids (columns), in the evaluator's order.
    matrices : dict of str to numpy.ndarray
        Measure name -> ``systems x queries`` values.
    notes : tuple of str
        What the evaluation and the pairing left out or decided.
    """

    systems: list[str]
    queries: np.ndarray
    matrices: dict[str, np.ndarray]
    notes: tuple[str, ...]


def run_matrices(
    qrels: Any, runs: Any, measures: str | Sequence[str], *, complete: bool | None = None, convention: str = "trec_eval"
) -> RunMatrices:
    """Evaluate ``runs`` and return each measure's systems x queries matrix on common queries.

    Parameters
    ----------
    qrels : str, path-like or pandas.DataFrame
        Judgments (see ``nr.evaluation.evaluate``).
    runs : sequence of run files, or mapping of name to run
        At least two runs; named as ``evaluate`` names them (or the mapping's keys).
    measures : str or sequence of str
        Measure specs, e.g. ``"ndcg@10"`` or ``"ndcg(gain=exp2, discount=zipf)"``.
    complete : bool, optional
        True: a judged query missing from a run scores 0 (trec_eval ``-c``); False: only the queries every run answered
        are kept. Default: the convention's rule (as ``evaluate``).
    convention : str, default "trec_eval"
        The evaluator's convention.

    Returns
    -------
    RunMatrices

    Raises
    ------
    TypeError, ValueError
        Bad arguments, named (as ``evaluate`` names them), fewer than two runs, or fewer than two queries that every run
        answered.

    Examples
    --------
    ``bm25`` does not answer the judged query q3: trec_eval's rule (the default) scores it 0 there, ``complete=False``
    compares the queries both runs answered.

    >>> from ndcg_research.stats import run_matrices
    >>> qrels = {"q1": {"a": 2, "b": 0}, "q2": {"a": 1, "b": 1}, "q3": {"c": 1}}
    >>> runs = {"bm25": {"q1": {"a": 0.9, "b": 0.1}, "q2": {"a": 0.2, "b": 0.8}},
    ...         "dense": {"q1": {"a": 0.1, "b": 0.9}, "q2": {"a": 0.4, "b": 0.5}, "q3": {"c": 0.3}}}
    >>> data = run_matrices(qrels, runs, "ndcg")
    >>> data.systems, data.queries.tolist()
    (['bm25', 'dense'], ['q1', 'q2', 'q3'])
    >>> data.matrices["ndcg"].round(4)
    array([[1.    , 1.    , 0.    ],
           [0.6309, 1.    , 1.    ]])
    >>> run_matrices(qrels, runs, "ndcg", complete=False).queries.tolist()
    ['q1', 'q2']
    """
    result = evaluate(qrels, runs, measures, convention=convention, complete=complete)  # checks every argument
    if len(result.runs) < 2:
        raise ValueError(f"runs must hold at least 2 runs to compare, got {len(result.runs)}")
    notes = list(result.notes)
    # A query a run leaves undefined (NaN: scikit-learn's one-document lists) is compared in no run.
    defined = [
        queries[~np.isnan(values).any(axis=0)] for queries, values in zip(result.queries, result.values, strict=True)
    ]
    common = functools.reduce(np.intersect1d, defined)
    if common.size < 2:
        shared = "no evaluated query" if common.size == 0 else f"only {common.size} evaluated query"
        raise ValueError(f"the runs share {shared}; comparing runs needs at least 2")
    # (np.setdiff1d compares object arrays element by element against each other: quadratic, 19 s at 40,000 queries).
    # Indexes of objects: ids from files that are not UTF-8 hold surrogate escapes, which pandas' str dtype refuses.
    index = pd.Index(common, dtype=object)
    dropped = pd.Index(np.concatenate(result.queries), dtype=object).difference(index).to_numpy()
    if dropped.size:
        more = f" and {dropped.size - 10} more" if dropped.size > 10 else ""
        shown = ", ".join(repr(str(q)) for q in dropped[:10]) + more
        notes.append(
            f"{dropped.size} quer{'y' if dropped.size == 1 else 'ies'} left out of the comparison ({shown}): "
            f"only the {common.size} queries every run answered with a defined value are compared"
        )
    kept = [pd.Index(queries, dtype=object).get_indexer(index) for queries in result.queries]  # common is sorted
    matrices = {
        m.name: np.vstack([v[i][keep] for v, keep in zip(result.values, kept, strict=True)])
        for i, m in enumerate(result.measures)
    }
    return RunMatrices(systems=list(result.runs), queries=common, matrices=matrices, notes=tuple(notes))
