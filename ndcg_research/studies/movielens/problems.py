"""The real rankings of notebook 08 as one :class:`RankingProblem` (MovieLens-100k recommenders or TREC runs), and a
problem back as qrels and run tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...core._ranking import top_order
from .recommenders import DEFAULT_RANKERS, canonical_ranker_spec, score_items, temporal_split


@dataclass(frozen=True, eq=False)
class RankingProblem:
    """Queries x candidate documents with grades (>= 0) and each system's finite scores (higher first).

    Row q holds query q's candidates in its first ``lengths[q]`` columns, then padding (grade 0, score -inf, doc "")."""

    name: str
    queries: np.ndarray
    docs: np.ndarray
    grades: np.ndarray
    lengths: np.ndarray
    scores: Mapping[str, np.ndarray]
    sha256: str | None = None
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.scores)

    @property
    def valid(self) -> np.ndarray:
        """Boolean (Q, W): True on the candidates, False on padding."""
        return np.arange(self.grades.shape[1]) < self.lengths[:, None]

    def relevant_counts(self) -> np.ndarray:
        """Number of candidates with grade > 0, per query."""
        return np.count_nonzero(self.grades > 0, axis=1)


def movielens_problem(
    ratings: Any, *, rankers: Sequence[str] = DEFAULT_RANKERS, test_fraction: float = 0.2, seed: int = 0
) -> RankingProblem:
    """The recommenders on a per-user temporal split: each user's candidates are the items not rated in training,
    graded by the test ratings (0 where none)."""
    names = [canonical_ranker_spec(r) for r in rankers]
    if len(set(names)) != len(names) or not names:
        raise ValueError(f"rankers must be distinct and non-empty, got {list(rankers)!r}")
    split = temporal_split(ratings, test_fraction)
    # Each user's candidates (items not rated in training) move left, in item order; the rest of the row is padding.
    lengths = np.count_nonzero(split.train == 0, axis=1).astype(np.int64)
    order = np.argsort(split.train != 0, axis=1, kind="stable")[:, : int(lengths.max())]
    padding = np.arange(order.shape[1]) >= lengths[:, None]

    def compact(values: np.ndarray, fill: Any) -> np.ndarray:
        out = np.take_along_axis(values, order, 1)
        out[padding] = fill
        return out

    docs = compact(np.broadcast_to(split.items.astype(str), split.train.shape).astype(object), "")
    scores = {name: compact(score_items(name, split.train > 0, seed=seed), -np.inf) for name in names}
    counts = {"train_ratings": int(np.count_nonzero(split.train)), "test_ratings": int(np.count_nonzero(split.test))}
    sha256 = getattr(ratings, "attrs", {}).get("sha256")
    notes = {"test_fraction": split.test_fraction, "n_items": split.items.size, **counts}
    return RankingProblem("MovieLens-100k", split.users, docs, compact(split.test, 0.0), lengths, scores, sha256, notes)


def trec_problem(
    qrels: Any, runs: Mapping[str, Any], *, name: str = "TREC collection", sha256: str | None = None
) -> RankingProblem:
    """A TREC-style collection over the judged topics some run retrieved: each topic's candidates are its pool (every
    document a run retrieved or the qrels judge). A run ranks the documents it did not retrieve below its own, tied;
    grades below 0 (trec_eval's "pooled but not judged") count as 0."""
    if not runs:
        raise ValueError("runs must name at least one run")
    for what, table, columns in [("qrels", qrels, ("query", "doc", "relevance"))] + [
        (f"run {r!r}", t, ("query", "doc", "score")) for r, t in runs.items()
    ]:
        if missing := [c for c in columns if c not in getattr(table, "columns", ())]:
            raise ValueError(f"{what} must be a DataFrame with columns {', '.join(columns)}; missing {missing}")
    judged = qrels[["query", "doc", "relevance"]].astype({"query": str, "doc": str})
    retrieved = {r: t[["query", "doc", "score"]].astype({"query": str, "doc": str}) for r, t in runs.items()}
    for r, t in retrieved.items():
        if t.duplicated(["query", "doc"]).any():
            q, d = t.loc[t.duplicated(["query", "doc"]), ["query", "doc"]].iloc[0]
            raise ValueError(f"run {r!r} retrieves document {d!r} twice for query {q!r}")
        if not np.isfinite(t["score"].to_numpy(dtype=np.float64)).all():
            raise ValueError(f"run {r!r} has a score that is not finite")
    topics = sorted(set(judged["query"]) & set().union(*(set(t["query"]) for t in retrieved.values())))
    if not topics:
        raise ValueError("no query is both judged in the qrels and retrieved by a run")
    pool = pd.concat([judged[["query", "doc"]]] + [t[["query", "doc"]] for t in retrieved.values()])
    pool = pool[pool["query"].isin(topics)].drop_duplicates().sort_values(["query", "doc"], kind="stable")
    q_index = pd.Index(topics).get_indexer(pool["query"])
    position = pool.groupby("query", sort=False).cumcount().to_numpy()
    lengths = np.bincount(q_index, minlength=len(topics)).astype(np.int64)
    shape = (len(topics), int(lengths.max()))
    docs = np.full(shape, "", dtype=object)
    docs[q_index, position] = pool["doc"].to_numpy()
    key = pd.MultiIndex.from_arrays([pool["query"], pool["doc"]])
    grades = np.zeros(shape)
    rel = judged.set_index(["query", "doc"])["relevance"].astype(np.float64)
    if rel.index.duplicated().any():
        q, d = rel.index[rel.index.duplicated()][0]
        raise ValueError(f"qrels judge document {d!r} of query {q!r} twice")
    grades[q_index, position] = np.maximum(rel.reindex(key).fillna(0.0).to_numpy(), 0.0)
    scores = {}
    for r, t in retrieved.items():
        s = np.full(shape, -np.inf)  # -inf on padding, NaN where the run did not retrieve a candidate
        s[q_index, position] = t.set_index(["query", "doc"])["score"].astype(np.float64).reindex(key).to_numpy()
        floor = np.where(np.isfinite(s), s, np.inf).min(axis=1)  # lowest retrieved score per topic
        floor = np.where(np.isfinite(floor), floor, 0.0) - 1.0
        scores[str(r)] = np.where(np.isnan(s), floor[:, None], s)
    return RankingProblem(name, np.array(topics, dtype=object), docs, grades, lengths, scores, sha256)


def qrels_table(problem: RankingProblem) -> Any:
    """The candidates with grade > 0 as a qrels table (integer grades when they all are, as the presets expect)."""
    keep = problem.valid & (problem.grades > 0)
    grades = problem.grades[keep]
    if np.array_equal(grades, np.floor(grades)):
        grades = grades.astype(np.int64)
    queries = np.broadcast_to(problem.queries.astype(str)[:, None], problem.grades.shape)
    return pd.DataFrame({"query": queries[keep], "doc": problem.docs[keep], "relevance": grades})


def run_table(problem: RankingProblem, system: str, depth: int | None = None) -> Any:
    """One system's ranking as a run table: every candidate, or only each query's ``depth`` highest-scored."""
    scores = problem.scores[system]
    queries = np.broadcast_to(problem.queries.astype(str)[:, None], scores.shape)
    # Every candidate in column order, or the top by score (padding scores -inf: never above a candidate).
    top = np.broadcast_to(np.arange(scores.shape[1]), scores.shape) if depth is None else top_order(scores, depth)
    inside = np.take_along_axis(problem.valid, top, 1)
    pick = lambda a: np.take_along_axis(a, top, 1)[inside]  # noqa: E731
    return pd.DataFrame({"query": pick(queries), "doc": pick(problem.docs), "score": pick(scores)})
