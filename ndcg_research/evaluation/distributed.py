"""Runs as Dask DataFrames: each partition evaluated where it lives, the values merged as in one process.

A Dask DataFrame with columns ``query, doc, score``, partitioned by query (every query's rows in
one partition, e.g. ``ddf.shuffle("query")`` or one file per group of queries read with
``dd.read_csv``), is a run for :func:`~ndcg_research.evaluation.evaluate`. The prepared qrels
(:class:`~ndcg_research.evaluation.judgments.Judgments`) are sent once to every worker (scattered
when a ``dask.distributed`` client is running), each partition is evaluated by
:func:`~ndcg_research.evaluation.evaluator.evaluate_part` on a worker, and the per-query values
come back to be merged: a query's value depends on that query alone, so the values and the
means are bit-identical to one process's. A query found in two partitions is refused.
"""

from __future__ import annotations

from typing import Any

from ..core.params import validate_params
from .evaluator import PLAN, PartValues, Plan, evaluate_part
from .judgments import JUDGMENTS, Judgments
from .readers import DATA_FRAMES, columns_from_frame
from .sources import TEXT

__all__ = ["dask_parts"]


def _partition_values(judgments: Judgments, frame: Any, plan: Plan, name: str) -> PartValues:
    """Evaluate one partition (a pandas DataFrame) on a worker."""
    if len(frame) == 0:
        return PartValues.empty(len(plan.measures))
    return evaluate_part.unchecked(judgments, columns_from_frame.unchecked(frame, "run"), plan, name)


@validate_params(judgments=JUDGMENTS, plan=PLAN, name=TEXT, frame=DATA_FRAMES)
def dask_parts(judgments: Judgments, frame: Any, plan: Plan, name: str) -> list[PartValues]:
    """The values of every partition of a Dask DataFrame, computed by Dask (on the cluster if a client runs)."""
    import dask

    shared: Any = dask.delayed(judgments, pure=True)
    try:
        from distributed import get_client

        client = get_client()
    except (ImportError, ValueError):
        client = None
    if client is not None:
        shared = client.scatter(judgments, broadcast=True)
    tasks = [dask.delayed(_partition_values)(shared, part, plan, name) for part in frame.to_delayed()]
    return list(dask.compute(*tasks))
