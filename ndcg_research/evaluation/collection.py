"""The inputs of an evaluation: what a run and judgments may be, how runs are named, and the
``runs`` argument of :func:`~ndcg_research.evaluation.evaluator.evaluate` and
:func:`~ndcg_research.stats.runs.run_matrices`.

- :data:`RUN`, :data:`QRELS`: the constraints of one run and of the judgments;
- :func:`run_names`: the one naming rule of runs (every command and output format);
- :class:`RunsSpec` / :data:`RUNS`: one run, a list or a mapping of name to run, normalised to
  (name, run) pairs, a name given twice refused;
- :func:`read_collection`: the qrels and the named runs of a command line (TREC or SVMlight).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.constraints import AnyOf, Boolean, Constraint, SequenceOf
from ..core.params import validate_params
from .readers import COLUMNS, DATA_FRAME, DATA_FRAMES, Columns
from .sources import PATH, STDIN, describe

__all__ = ["RUN", "QRELS", "RUNS", "RunsSpec", "run_names", "read_collection"]


def _file_name(path: str) -> str:
    """A file's name without directory, compression suffix and extension (``runs/bm25.run.gz`` -> ``bm25``)."""
    if path == STDIN:
        return describe(path)
    base = os.path.basename(path) or path
    for suffix in (".gz", ".bz2", ".xz"):
        if base.endswith(suffix) and len(base) > len(suffix):
            base = base[: -len(suffix)]
            break
    stem, dot, _ = base.rpartition(".")
    return stem if dot and stem else base


#: One run: a TREC run file, a pandas or Dask DataFrame, or
#: :class:`~ndcg_research.evaluation.readers.Columns` already read.
RUN = AnyOf(PATH, COLUMNS, DATA_FRAMES)
#: Judgments: a TREC qrels file, a pandas DataFrame, or
#: :class:`~ndcg_research.evaluation.readers.Columns` already read.
QRELS = AnyOf(PATH, COLUMNS, DATA_FRAME)


@validate_params(runs=SequenceOf(RUN, min_size=0))
def run_names(runs: Sequence[Any]) -> list[str]:
    """The one naming rule of runs (``evaluate``, ``compare``, every output format).

    A file: its name without directory, compression suffix and extension (``runs/bm25.txt.gz``
    -> ``bm25``), or the path as given where two names would clash; a DataFrame:
    ``attrs["run"]``, else ``run1``, ``run2``, ... by position; already read
    :class:`~ndcg_research.evaluation.readers.Columns`: their file's name, else their tag. The tag (trec_eval's ``runid``) stays the tag: it is
    printed by ``-m runid`` and kept in JSON.

    Examples
    --------
    >>> run_names(["runs/bm25.txt", "runs/dense.txt.gz"])
    ['bm25', 'dense']
    >>> run_names(["a/bm25.txt", "b/bm25.txt"])
    ['a/bm25.txt', 'b/bm25.txt']
    """
    names = []
    for i, run in enumerate(runs):
        if isinstance(run, (str, os.PathLike)):
            names.append(_file_name(os.fspath(run)))
        elif isinstance(run, Columns):
            names.append(_file_name(run.source) if run.source != "DataFrame" else (run.tag or f"run{i + 1}"))
        else:
            attrs = getattr(run, "attrs", {}) or {}
            names.append(str(attrs["run"]) if attrs.get("run") is not None else f"run{i + 1}")
    paths = [os.fspath(r) if isinstance(r, (str, os.PathLike)) else None for r in runs]
    clash = [names.count(name) > 1 for name in names]
    return [path if repeated and path is not None else name for name, path, repeated in zip(names, paths, clash)]


@validate_params(svmlight=Boolean(), qrels=PATH, runs=SequenceOf(PATH))
def read_collection(qrels: Any, runs: Sequence[Any], *, svmlight: bool = False) -> tuple[Any, dict[str, Any]]:
    """The qrels and the named runs of a command line: TREC files stay paths (read in blocks by
    :func:`~ndcg_research.evaluation.evaluator.evaluate`); with ``svmlight``, ``qrels`` is an
    SVMlight/LETOR file and each run a file of its predictions, read here. Standard input (``"-"``) may be named once.

    Examples
    --------
    >>> read_collection("qrels.txt", ["runs/a.txt", "runs/b.txt"])
    ('qrels.txt', {'a': 'runs/a.txt', 'b': 'runs/b.txt'})
    """
    from .svmlight import predictions_columns, svmlight_columns

    if sum(os.fspath(p) == STDIN for p in [qrels, *runs]) > 1:
        raise ValueError("standard input (-) can be read once: give it as the qrels or as one run, not both")
    named = dict(RUNS.check(list(runs), "runs"))
    if not svmlight:
        return qrels, named
    judged = svmlight_columns.unchecked(qrels)
    return judged, {name: predictions_columns.unchecked(judged, path) for name, path in named.items()}


def _distinct_names(named: list[tuple[str, Any]], name: str) -> list[tuple[str, Any]]:
    labels = [label for label, _ in named]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ValueError(f"{name}: run {repeated[0]!r} is given twice; give each run once (or a dict {{name: run}} to "
                         f"name them)")
    return named


class RunsSpec(Constraint):
    """The constraint of every ``runs`` argument: one run, a sequence of runs, or a mapping of name to run.

    Each run is a :data:`RUN`; in a mapping, a list of files is one run split in shards of whole
    queries. Normalised to a list of (name, run), named by the mapping's keys, else by
    :func:`run_names`; a name given twice is refused.

    Parameters
    ----------
    minimum : int, default 1
        Least number of runs.

    Examples
    --------
    >>> RUNS.check({"bm25": "runs/bm25.txt"}, "runs")
    [('bm25', 'runs/bm25.txt')]
    >>> RUNS.check(["a/bm25.txt", 3], "runs")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: runs[1] must be a path (str or os.PathLike) or a Columns (...) or a pandas or Dask DataFrame, got int 3
    """

    def __init__(self, *, minimum: int = 1) -> None:
        super().__init__()
        self.minimum = minimum

    def _describe(self) -> str:
        return f"{RUN.describe()}, a list of them, or a mapping of name to run"

    def _check(self, value: Any, name: str) -> list[tuple[str, Any]]:
        if isinstance(value, Mapping):
            named = [(str(key), _RUN_OR_SHARDS.check(run, f"{name}[{key!r}]")) for key, run in value.items()]
        elif isinstance(value, (list, tuple)):
            items = [RUN.check(run, f"{name}[{i}]") for i, run in enumerate(value)]
            named = list(zip(run_names.unchecked(items), items))
        else:
            run = RUN.check(value, name)
            named = list(zip(run_names.unchecked([run]), [run]))
        if len(named) < self.minimum:
            runs = "one run" if self.minimum == 1 else f"{self.minimum} runs"
            raise ValueError(f"{name} must hold at least {runs}, got {len(named)}")
        return _distinct_names(named, name)

    def example(self) -> list[str]:
        return [f"run{i}.txt" for i in range(1, self.minimum + 1)]

    def invalid_values(self) -> list[Any]:
        return [3, [], {}, [3], ["a/run.txt", "a/run.txt"], *super().invalid_values()]


#: A run in shards: several files of whole queries (in a mapping of runs).
_RUN_OR_SHARDS = AnyOf(RUN, SequenceOf(PATH))
#: The ``runs`` of :func:`~ndcg_research.evaluation.evaluator.evaluate`.
RUNS = RunsSpec()
