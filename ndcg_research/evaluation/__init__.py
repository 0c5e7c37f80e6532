"""Evaluate real runs: TREC qrels and run files, SVMlight/LETOR files, DataFrames, Dask DataFrames.

- :mod:`~ndcg_research.evaluation.sources`: inputs (files, compressed or not, standard input)
  as blocks of whole lines;
- :mod:`~ndcg_research.evaluation.readers`: the line grammar (trec_eval's), into columns or
  DataFrames; malformed lines are errors naming file and line. ``read_*`` give DataFrames,
  ``*_columns`` give :class:`Columns`;
- :mod:`~ndcg_research.evaluation.svmlight`: SVMlight/LETOR files and a model's predictions;
- :mod:`~ndcg_research.evaluation.measures`: measures as spec strings (``ndcg@10(gain=exp2)``)
  or trec_eval names (``ndcg_cut.10``);
- :mod:`~ndcg_research.evaluation.conventions`: each tool's way (trec_eval 10, pytrec_eval,
  scikit-learn, LightGBM, XGBoost, ranx, TorchMetrics, TF-Ranking, gdeval) as a named preset;
- :mod:`~ndcg_research.evaluation.keys`: ids as hashes and Arrow arrays (matching, ordering);
- :mod:`~ndcg_research.evaluation.judgments`: the qrels, prepared once;
- :mod:`~ndcg_research.evaluation.rankings`: one part of a run as rankings of judged queries;
- :mod:`~ndcg_research.evaluation.scoring`: nDCG of ranked queries through the core's kernels;
- :mod:`~ndcg_research.evaluation.collection`: what a run and judgments may be, how runs are named;
- :mod:`~ndcg_research.evaluation.evaluator`: :func:`evaluate` in phases, runs in blocks of
  whole queries; :mod:`~ndcg_research.evaluation.distributed`: Dask DataFrames;
- :mod:`~ndcg_research.evaluation.output`: trec_eval text, CSV, JSON;
- :mod:`~ndcg_research.evaluation.cli`: the ``evaluate`` command.

The metric is computed by the metric core (:mod:`ndcg_research.core`): its gains, discounts,
tie averaging and kernels.

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
from .collection import run_names
from .evaluator import Evaluation, evaluate
from .measures import Measure, parse_measures
from .readers import Columns, InputError, columns_from_frame, qrels_columns, read_qrels, read_run, run_columns
from .svmlight import predictions_columns, read_svmlight, svmlight_columns

__all__ = [
    "evaluate",
    "Evaluation",
    "read_qrels",
    "read_run",
    "read_svmlight",
    "qrels_columns",
    "run_columns",
    "svmlight_columns",
    "predictions_columns",
    "run_names",
    "columns_from_frame",
    "Columns",
    "InputError",
    "Measure",
    "parse_measures",
    "Convention",
    "CONVENTIONS",
    "get_convention",
]
