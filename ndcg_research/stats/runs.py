"""Runs to matrices: per-query values of several runs, as the systems x queries matrices the tests pair.

:func:`run_matrices` evaluates runs against qrels with :func:`ndcg_research.evaluation.evaluate`
and lays each measure's per-query values out as one row per run and one column per query,
**the same queries for every run**, as paired tests need. By default a judged query that a
run did not answer scores 0 for that run (trec_eval's ``-c``, ``complete=True``): without it
each run would be averaged over its own queries, and a run that skips hard queries would look
better. With ``complete=False`` only the queries every run answered are kept (and the notes
say how many were dropped).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["RunMatrices", "run_matrices", "run_names"]


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


def run_names(runs: Sequence[str | os.PathLike[str]]) -> list[str]:
    """Short names of run files: the file name without its extension, or the path where names would clash.

    Examples
    --------
    >>> run_names(["runs/bm25.run", "runs/dense.run"])
    ['bm25', 'dense']
    >>> run_names(["a/bm25.run", "b/bm25.run"])
    ['a/bm25.run', 'b/bm25.run']
    """
    stems = [Path(r).name.split(".")[0] or Path(r).name for r in runs]
    if len(set(stems)) == len(stems):
        return stems
    return [os.fspath(r) for r in runs]


def run_matrices(
    qrels: Any,
    runs: Any,
    measures: str | Sequence[str],
    *,
    complete: bool = True,
    convention: str = "trec_eval",
) -> RunMatrices:
    """Evaluate ``runs`` and return each measure's systems x queries matrix on common queries.

    Parameters
    ----------
    qrels : str, path-like or pandas.DataFrame
        Judgments (see :func:`ndcg_research.evaluation.evaluate`).
    runs : sequence of run files, or mapping of name to run
        At least two runs; file runs are named by :func:`run_names`.
    measures : str or sequence of str
        Measure specs, e.g. ``"ndcg@10"`` or ``"ndcg(gain=exp2, discount=zipf)"``.
    complete : bool, default True
        Score a judged query missing from a run as 0 (trec_eval ``-c``); False keeps only the
        queries every run answered.
    convention : str, default "trec_eval"
        The evaluator's convention.

    Returns
    -------
    RunMatrices
    """
    from ..evaluation import evaluate

    if isinstance(runs, Mapping):
        named = {str(k): v for k, v in runs.items()}
    else:
        runs = [runs] if isinstance(runs, (str, os.PathLike)) else list(runs)
        named = dict(zip(run_names(runs), runs))
    if len(named) < 2:
        raise ValueError(f"runs: comparing systems needs at least 2 runs, got {len(named)}")
    result = evaluate(qrels, named, [measures] if isinstance(measures, str) else list(measures),
                      convention=convention, complete=complete)
    notes = list(result.notes)
    common = result.queries[0]
    for queries in result.queries[1:]:
        common = np.intersect1d(common, queries)
    if common.size < 2:
        raise ValueError(f"the runs share {common.size} evaluated queries; paired tests need at least 2")
    dropped = sum(q.size for q in result.queries) - len(result.queries) * common.size
    if dropped:
        notes.append(f"{dropped} (run, query) values left out: only the {common.size} queries every run answered "
                     f"are compared")
    matrices = {}
    for i, measure in enumerate(result.measures):
        rows = []
        for queries, values in zip(result.queries, result.values):
            keep = np.isin(queries, common)
            order = np.argsort(queries[keep], kind="stable")
            rows.append(values[i][keep][order])
        matrices[measure.name] = np.vstack(rows)
    return RunMatrices(systems=list(result.runs), queries=np.sort(common, kind="stable"), matrices=matrices,
                       notes=tuple(notes))
