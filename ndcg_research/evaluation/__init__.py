"""Evaluate real runs: TREC qrels and run files, SVMlight/LETOR files, DataFrames, the ecosystem's tables.

:func:`evaluate` computes nDCG as trec_eval 10.0 does (byte for byte on the command line,
``ndcg-research evaluate``), or as another tool does (``convention=``, ``CONVENTIONS``), with any
gain and discount of the package. Runs and judgments are TREC files (plain or compressed; runs read
in blocks of whole queries), DataFrames in the package's, PyTerrier's or ir_measures' columns, ranx
``Qrels`` / ``Run`` objects, pytrec_eval dicts, or Dask DataFrames. The result (:class:`Evaluation`)
gives per-query values, means and :meth:`Evaluation.mean` (one run, one measure, one float).
:func:`read_qrels`, :func:`read_run` and :func:`read_svmlight` read files into DataFrames.

Inside (private modules): ``_sources`` (input as blocks of lines), ``_readers`` (trec_eval's line grammar,
SVMlight), ``_frames`` (the ecosystem's tables, run names), ``_measures`` (specs, presets), ``_matching`` (ids,
rankings, their nDCG), ``_evaluator`` (the phases of :func:`evaluate`) and :mod:`~ndcg_research.evaluation.cli`
(the command). Public functions check their arguments; the private modules trust their callers.

Examples
--------
>>> import pandas as pd
>>> import ndcg_research as nr
>>> qrels = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "relevance": [1, 2]})
>>> run = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "score": [0.9, 0.1]})
>>> round(nr.evaluate(qrels, run, "ndcg").mean(), 4)
0.8597
"""

import lazy_loader

# Each public name (listed once, in __init__.pyi, which type checkers read too) is imported on first use, so that the
# command line's start (and ``ndcg-research --help``) does not load pyarrow for the presets' names.
__getattr__, _lazy_dir, __all__ = lazy_loader.attach_stub(__name__, __file__)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
