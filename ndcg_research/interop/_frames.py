"""The ecosystem's qrels and run frames under the package's column names (``query``, ``doc``, ...).

ir_measures names its columns ``query_id``, ``doc_id``, ``relevance`` / ``score``; PyTerrier
``qid``, ``docno``, ``label`` / ``score``. The evaluator reads ``query``, ``doc``, ``relevance`` /
``score``. :func:`package_frame` renames the first two to the third and keeps only those columns.
It is the one place of this conversion in :mod:`ndcg_research.interop` and
:mod:`ndcg_research.advice`, to be replaced by the evaluator's own reading of these frames.
"""

from __future__ import annotations

from typing import Any

__all__ = ["package_frame"]

#: The column names of each tool, in the order they are tried: the package's, ir_measures', PyTerrier's.
#: Whole schemes, not single columns: a PyTerrier result frame also has ``query`` (the query's text).
_SCHEMES = {
    "qrels": (("query", "doc", "relevance"), ("query_id", "doc_id", "relevance"), ("qid", "docno", "label")),
    "run": (("query", "doc", "score"), ("query_id", "doc_id", "score"), ("qid", "docno", "score")),
}


def package_frame(frame: Any, kind: str) -> Any:
    """``frame`` with the package's columns: an ir_measures or PyTerrier frame renamed, anything else unchanged.

    The first naming scheme of :data:`_SCHEMES` whose columns the frame all has is used: a frame
    with the package's names is returned as it is, one with ir_measures' or PyTerrier's gets those
    three columns, renamed. Any other value (a path, a frame lacking a column) is returned
    unchanged, so that the evaluator reports what is missing.

    Examples
    --------
    >>> import pandas as pd
    >>> pt_res = pd.DataFrame({"qid": ["1"], "query": ["text"], "docno": ["d1"], "score": [0.5], "rank": [0]})
    >>> package_frame(pt_res, "run").columns.tolist()
    ['query', 'doc', 'score']
    """
    columns = getattr(frame, "columns", None)
    if columns is None or not hasattr(frame, "rename"):
        return frame
    present = set(map(str, columns))
    package, *others = _SCHEMES[kind]
    if set(package) <= present:
        return frame
    for names in others:
        if set(names) <= present:
            renamed = frame[list(names)].rename(columns=dict(zip(names, package, strict=True)))
            renamed.attrs = dict(getattr(frame, "attrs", {}))
            return renamed
    return frame
