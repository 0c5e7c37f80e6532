"""Evaluate real runs: TREC qrels and run files, SVMlight/LETOR files, DataFrames.

- :mod:`~ndcg_research.evaluation.readers`: read qrels, runs and SVMlight files (plain or
  gzip) into columns or DataFrames; malformed lines are errors naming file and line;
- :mod:`~ndcg_research.evaluation.measures`: measures as spec strings (``ndcg@10(gain=exp2)``)
  or trec_eval names (``ndcg_cut.10``);
- :mod:`~ndcg_research.evaluation.conventions`: each tool's way (trec_eval, scikit-learn,
  LightGBM, XGBoost, ranx, TorchMetrics, TF-Ranking, gdeval) as a named preset;
- :mod:`~ndcg_research.evaluation.keys`: ids as fixed-width integer keys (matching, ordering);
- :mod:`~ndcg_research.evaluation.rankings`: a run in rank order (matched to the qrels, ties by
  the convention), its queries as padded batches;
- :mod:`~ndcg_research.evaluation.evaluate`: :func:`evaluate`, per-query values and means;
- :mod:`~ndcg_research.evaluation.output`: trec_eval text, CSV, JSON;
- :mod:`~ndcg_research.evaluation.cli`: the ``evaluate`` command.

The metric is computed by the metric core (:mod:`ndcg_research.core`) only.

Examples
--------
>>> import pandas as pd
>>> import ndcg_research as nr
>>> qrels = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "relevance": [1, 2]})
>>> run = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "score": [0.9, 0.1]})
>>> round(float(nr.evaluate(qrels, run, "ndcg").means.loc["run1", "ndcg"]), 4)
0.8597
"""

from .conventions import CONVENTIONS, Convention, get_convention
from .evaluate import Evaluation, evaluate
from .measures import Measure, parse_measures
from .readers import (
    Columns,
    InputError,
    columns_from_frame,
    load_qrels,
    load_run,
    load_svmlight,
    read_qrels,
    read_run,
    read_svmlight,
)

__all__ = [
    "evaluate",
    "Evaluation",
    "read_qrels",
    "read_run",
    "read_svmlight",
    "load_qrels",
    "load_run",
    "load_svmlight",
    "columns_from_frame",
    "Columns",
    "InputError",
    "Measure",
    "parse_measures",
    "Convention",
    "CONVENTIONS",
    "get_convention",
]
