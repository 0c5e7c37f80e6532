"""SVMlight / LETOR files: judgments from the data file, runs from a model's predictions beside it.

``relevance qid:QUERY feature:value ... # docid = ID ...``, one document per line (features are not
read); the predictions file holds one score per line, in the same order. Documents are named by the
``docid = ID`` of their comment when every line has one (LETOR 4.0, MSLR), else by their line number.
The same line grammar and errors as :mod:`~ndcg_research.evaluation.readers`.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ..core.constraints import FilePath
from ..core.params import validate_params
from .arrow import binary_array
from .readers import (COLUMNS, Columns, InputError, PathLike, as_frame, integral_grades, numbered_lines, parse_number,
                      quoted)
from .sources import PATH, open_source

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["svmlight_columns", "predictions_columns", "read_svmlight"]


_DOCID = re.compile(rb"\bdocid\s*=\s*(\S+)")


@validate_params(path=PATH)
def svmlight_columns(path: PathLike) -> Columns:
    """Read the judgments of an SVMlight/LETOR file: one line ``relevance qid:Q features # docid = ID`` per document.

    Documents are named by the ``docid = ID`` of their comment when every line has one (LETOR
    4.0, MSLR), else by their line number, zero-padded so that the string order of the names is
    the file order. Features are not read.

    Examples
    --------
    >>> import tempfile, os
    >>> data = os.path.join(tempfile.mkdtemp(), "test.txt")
    >>> _ = open(data, "w").write("2 qid:7 1:0.5 # docid = GX1\\n0 qid:7 1:0.1 # docid = GX2\\n")
    >>> qrels = svmlight_columns(data)
    >>> qrels.value.tolist(), qrels.doc.to_pylist()
    ([2, 0], [b'GX1', b'GX2'])
    """
    queries, labels, lines, docids = [], [], [], []
    with open_source.unchecked(path, "SVMlight") as source:
        name = source.name
        for number, line in numbered_lines(source):
            data, _, comment = line.partition(b"#")
            fields = data.split(None, 2)
            if not fields:
                continue
            where = f"{name}:{number}"
            if len(fields) < 2 or not fields[1].startswith(b"qid:") or len(fields[1]) == 4:
                raise InputError(f"{where}: an SVMlight ranking line starts 'relevance qid:QUERY', got "
                                 f"{quoted(line.strip())}")
            labels.append(parse_number(fields[0], "relevance", where))
            queries.append(fields[1][4:])
            lines.append(number)
            match = _DOCID.search(comment)
            docids.append(match.group(1) if match else None)
    if not labels:
        raise InputError(f"{name}: no data lines")
    if all(d is not None for d in docids):
        docs = docids
    else:
        width = len(str(len(labels)))
        docs = [str(i).zfill(width).encode() for i in range(1, len(labels) + 1)]
    return Columns(pa.chunked_array([binary_array.unchecked(queries)]), pa.chunked_array([binary_array.unchecked(docs)]),
                   integral_grades(np.asarray(labels, dtype=np.float64)), "qrels", name, None,
                   np.asarray(lines, dtype=np.int64))


@validate_params(qrels=COLUMNS, path=PATH)
def predictions_columns(qrels: Columns, path: PathLike) -> Columns:
    """A model's scores for the lines of an SVMlight file (one number per line, same order) as a run.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> data, scores = os.path.join(folder, "test.txt"), os.path.join(folder, "pred.txt")
    >>> _ = open(data, "w").write("2 qid:7 1:0.5\\n0 qid:7 1:0.1\\n1 qid:8 1:3\\n")
    >>> _ = open(scores, "w").write("0.1\\n0.7\\n0.3\\n")
    >>> run = predictions_columns(svmlight_columns(data), scores)
    >>> run.value.tolist(), run.doc.to_pylist(), run.tag
    ([0.1, 0.7, 0.3], [b'1', b'2', b'3'], 'pred.txt')
    """
    scores, lines = [], []
    with open_source.unchecked(path, "predictions") as source:
        name = source.name
        for number, line in numbered_lines(source):
            fields = line.split()
            if not fields or fields[0].startswith(b"#"):
                continue
            where = f"{name}:{number}"
            if len(fields) != 1:
                raise InputError(f"{where}: a predictions line holds one number, got {len(fields)} fields")
            scores.append(parse_number(fields[0], "score", where))
            lines.append(number)
    if len(scores) != len(qrels):
        raise InputError(f"{name}: {len(scores)} predictions for the {len(qrels)} data lines of {qrels.source}; "
                         f"there must be one per line, in the same order")
    return Columns(qrels.query, qrels.doc, np.asarray(scores, dtype=np.float64), "run", name,
                   os.path.basename(name), np.asarray(lines, dtype=np.int64))


@validate_params(path=PATH, predictions=FilePath(none=True))
def read_svmlight(path: PathLike, predictions: PathLike | None = None) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Read an SVMlight/LETOR file (and its predictions) into qrels and run DataFrames.

    See :func:`svmlight_columns` for the format and the document names.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> data, scores = os.path.join(folder, "test.txt"), os.path.join(folder, "pred.txt")
    >>> _ = open(data, "w").write("2 qid:7 1:0.5\\n0 qid:7 1:0.1\\n")
    >>> _ = open(scores, "w").write("0.1\\n0.7\\n")
    >>> qrels, run = read_svmlight(data, scores)
    >>> qrels["relevance"].tolist(), run["score"].tolist()
    ([2, 0], [0.1, 0.7])
    """
    qrels = svmlight_columns.unchecked(path)
    return as_frame(qrels), (None if predictions is None else as_frame(predictions_columns.unchecked(qrels, predictions)))
