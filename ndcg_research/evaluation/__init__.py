"""Evaluate real runs: TREC qrels and run files, SVMlight/LETOR files, DataFrames, the ecosystem's tables.

:func:`evaluate` computes nDCG as trec_eval 10.0 does (byte for byte on the command line,
``ndcg-research evaluate``), or as another tool does (``convention=``, ``CONVENTIONS``), with any
gain and discount of the package. Runs and judgments are TREC files (plain or compressed; runs read
in blocks of whole queries), DataFrames in the package's, PyTerrier's or ir_measures' columns, ranx
``Qrels`` / ``Run`` objects, pytrec_eval dicts, or Dask DataFrames. The result (:class:`Evaluation`)
gives per-query values, means and :meth:`Evaluation.mean` (one run, one measure, one float).

Inside (private modules): ``_sources`` (files and standard input as blocks of lines), ``_readers``
(trec_eval's line grammar, SVMlight), ``_frames`` (DataFrames, the ecosystem's tables, naming runs),
``_measures`` (measure specs, the tools' presets), ``_matching`` (ids matched through pyarrow's
hashing, rankings), ``_scoring`` (nDCG through the metric core's kernels), ``_evaluator`` (the
phases of :func:`evaluate`, streaming, Dask), and :mod:`~ndcg_research.evaluation.cli` (the
``evaluate`` command and its output formats). Public functions check their arguments; the private
modules trust their callers.

Examples
--------
>>> import pandas as pd
>>> import ndcg_research as nr
>>> qrels = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "relevance": [1, 2]})
>>> run = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "score": [0.9, 0.1]})
>>> round(nr.evaluate(qrels, run, "ndcg").mean(), 4)
0.8597
"""

import importlib
from typing import TYPE_CHECKING, Any

#: Where each public name lives: imported on first use, so that the command line's start (and
#: ``ndcg-research --help``) does not load pyarrow for the presets' names.
_HOMES = {
    **dict.fromkeys(("evaluate", "Evaluation"), "_evaluator"),
    **dict.fromkeys(("columns_from_frame", "read_qrels", "read_run", "read_svmlight", "run_names"), "_frames"),
    **dict.fromkeys(
        ("ALIASES", "CONVENTIONS", "Convention", "Measure", "get_convention", "parse_measures"), "_measures"
    ),
    **dict.fromkeys(("Columns", "predictions_columns", "qrels_columns", "run_columns", "svmlight_columns"), "_readers"),
    "InputError": "_sources",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


if TYPE_CHECKING:
    from ._evaluator import Evaluation, evaluate
    from ._frames import columns_from_frame, read_qrels, read_run, read_svmlight, run_names
    from ._measures import ALIASES, CONVENTIONS, Convention, Measure, get_convention, parse_measures
    from ._readers import Columns, predictions_columns, qrels_columns, run_columns, svmlight_columns
    from ._sources import InputError

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
    "ALIASES",
    "get_convention",
]
