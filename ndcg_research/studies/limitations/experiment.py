"""The limitations of nDCG named by the source article, measured (notebook 06): appending non-relevant documents, a
short list against its full list, and incomplete judgments by TREC pooling over seeded replicates."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core import UndefinedNDCGWarning, ndcg
from ...core._ranking import top_order
from ...simulation.replicates import parallel_map, seed_sequence
from ...stats import CONFIDENCE, mean_interval

#: Spawn-key prefix of the pooling experiment's seeds (one SeedSequence per replicate).
POOLING_EXPERIMENT_ID = 6003


def random_graded_lists(
    n_lists: int, length: int, grade_probs: Sequence[float] = (0.5, 0.2, 0.2, 0.1), *, seed: int | np.random.Generator
) -> np.ndarray:
    """``n_lists`` ranked lists of ``length`` i.i.d. grades 0, 1, ... with the probabilities ``grade_probs`` (normalised
    to sum to 1 exactly; ``seed``: an int, or a generator to go on)."""
    probs = np.asarray(grade_probs, dtype=np.float64)
    return np.random.default_rng(seed).choice(probs.size, size=(n_lists, length), p=probs / probs.sum()).astype(float)


def append_nonrelevant(relevance: Any, n_extra: int) -> np.ndarray:
    """The lists of ``relevance`` (rows) followed by ``n_extra`` non-relevant (grade 0) documents."""
    relevance = np.asarray(relevance, dtype=np.float64)
    return np.pad(relevance, [(0, 0)] * (relevance.ndim - 1) + [(0, n_extra)])


def precision(relevance: Any) -> float | np.ndarray:
    """Fraction of the documents of each list that are relevant (grade > 0): unlike nDCG, it *falls* when non-relevant
    documents are appended."""
    relevance = np.asarray(relevance, dtype=np.float64)
    values = (relevance > 0).mean(axis=-1)
    return float(values) if relevance.ndim == 1 else values


def truncation_table(
    long_lists: Any, short_length: int, known: Any, k_fixed: int
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per convention for the ideal (own, or all ``known`` grades) and the cut-off: (nDCG of the prefixes of
    ``short_length``, nDCG of the whole lists)."""
    long = np.asarray(long_lists, dtype=np.float64)
    short, length = long[:, :short_length], long.shape[1]
    return {
        "own ideal, whole list": (ndcg(short), ndcg(long)),
        "own ideal, @k": (ndcg(short, k_fixed), ndcg(long, k_fixed)),
        "all judgments, @own length": (ndcg(short, short_length, ideal=known), ndcg(long, length, ideal=known)),
        "all judgments, whole list": (ndcg(short, ideal=known), ndcg(long, ideal=known)),
        "all judgments, @k": (ndcg(short, k_fixed, ideal=known), ndcg(long, k_fixed, ideal=known)),
    }


@dataclass(frozen=True)
class PoolingModel:
    r"""A synthetic collection: every document has two noisy signals of its grade, lexical and semantic. The pooled
    systems score the lexical one plus noise (``pooled_noise``), so they miss the same relevant documents; the novel
    system also sees the semantic one, so it is better by construction."""

    n_docs: int = 1000
    grade_probs: tuple[float, ...] = (0.94, 0.03, 0.02, 0.01)
    signal: float = 1.0
    pooled_noise: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5)
    novel_noise: float = 0.0

    @property
    def system_names(self) -> list[str]:
        return [f"pooled {j + 1} (noise {s:g})" for j, s in enumerate(self.pooled_noise)] + ["novel (not pooled)"]


@dataclass(frozen=True)
class PoolingCollection:
    """A collection's true ``grades`` and the ``scores`` of every system (the pooled ones first, the novel last)."""

    grades: np.ndarray
    scores: np.ndarray
    names: list[str]


def simulate_pooling_collection(
    model: PoolingModel, n_queries: int, *, seed: int, replicate: int = 0
) -> PoolingCollection:
    """Draw one collection of ``n_queries`` queries from ``model`` (its own SeedSequence per replicate)."""
    rng = np.random.default_rng(seed_sequence(seed, POOLING_EXPERIMENT_ID, replicate))
    shape = (n_queries, model.n_docs)
    grades = random_graded_lists(n_queries, model.n_docs, model.grade_probs, seed=rng)
    lexical = model.signal * grades + rng.standard_normal(shape)
    semantic = model.signal * grades + rng.standard_normal(shape)
    noise = np.asarray(model.pooled_noise, dtype=np.float64)[:, None, None]
    pooled = lexical[None] + noise * rng.standard_normal((noise.shape[0], *shape))
    novel = (lexical + semantic) / np.sqrt(2.0) + model.novel_noise * rng.standard_normal(shape)
    return PoolingCollection(grades, np.concatenate([pooled, novel[None]]), model.system_names)


def pool_judged(scores: Any, depth: int) -> np.ndarray:
    """Judged documents (n_queries x n_docs, bool) under depth-``depth`` pooling: the union of the top ``depth`` of
    every pooled system (``scores``: theirs only). Equal scores go in index order, also at the cut (``top_order``)."""
    array = np.asarray(scores, dtype=np.float64)
    judged = np.zeros(array.shape, dtype=bool)
    np.put_along_axis(judged, top_order(array, depth), True, -1)
    return judged.any(axis=0)


def evaluate_runs(
    grades: Any, scores: Any, judged: Any, *, k: int | None = 10, run_length: int = 100
) -> dict[str, np.ndarray]:
    """nDCG of every system's run (its top ``run_length``) with all grades known (``"true"``), with unjudged documents
    as non-relevant (``"unjudged = 0"``) and removed (``"condensed"``, trec_eval ``-J``), the last two with the ideal
    from the judged grades (0 where none is relevant: counted in ``"zero_ideal"``)."""
    grades, scores = np.asarray(grades, dtype=np.float64), np.asarray(scores, dtype=np.float64)
    judged = np.asarray(judged, dtype=bool)
    if scores.shape[1:] != grades.shape:
        raise ValueError(
            f"scores must have shape (n_systems, {grades.shape[0]}, {grades.shape[1]}), got {scores.shape}"
        )
    if judged.shape != grades.shape:
        raise ValueError(f"judged must have the shape of grades, {grades.shape}, got {judged.shape}")
    n_systems, n_queries, n_docs = scores.shape
    run_length = min(run_length, n_docs)
    # The ideal needs only the largest grades: enough for the run and the cut-off, and every relevant grade (the
    # metric checks that the known grades contain the retrieved ones).
    width = run_length if k is None else max(run_length, min(int(k), n_docs))
    width = min(max(width, int(np.count_nonzero(grades, axis=1).max())), n_docs)
    ideal_true = np.tile(-np.sort(-grades, axis=1)[:, :width], (n_systems, 1))
    ideal_observed = np.tile(-np.sort(-np.where(judged, grades, 0.0), axis=1)[:, :width], (n_systems, 1))
    runs = top_order(scores, run_length)  # (systems, queries, run_length)
    rel = np.take_along_axis(np.broadcast_to(grades, scores.shape), runs, -1).reshape(-1, run_length)
    seen = np.take_along_axis(np.broadcast_to(judged, scores.shape), runs, -1).reshape(-1, run_length)
    out = {"true": ndcg(rel, k, ideal=ideal_true)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedNDCGWarning)  # counted in zero_ideal instead
        out["unjudged = 0"] = ndcg(np.where(seen, rel, 0.0), k, ideal=ideal_observed)
        out["condensed"] = ndcg(np.where(seen, rel, 0.0), k, ideal=ideal_observed, judged=seen)
    out = {method: values.reshape(n_systems, n_queries) for method, values in out.items()}
    return out | {"zero_ideal": int(np.count_nonzero(ideal_observed[:n_queries, 0] == 0))}


#: The evaluation methods of :func:`evaluate_runs`, in table order.
METHODS = ("true", "unjudged = 0", "condensed")


def pooling_experiment(
    model: PoolingModel,
    depths: Sequence[int],
    *,
    n_queries: int = 50,
    replicates: int = 50,
    seed: int = 2026,
    k: int | None = 10,
    run_length: int = 100,
    pool_novel: bool = False,
    n_jobs: int = 1,
) -> dict[str, Any]:
    """The pooling study: per replicate a fresh collection judged at every pool depth (common random numbers);
    ``"means"``: (replicates, depths, methods, systems); ``pool_novel``: also pool the novel system (a control)."""

    def one(replicate: int) -> dict[str, np.ndarray]:
        collection = simulate_pooling_collection(model, n_queries, seed=seed, replicate=replicate)
        pooled_scores = collection.scores if pool_novel else collection.scores[: len(model.pooled_noise)]
        relevant = collection.grades > 0
        per_depth = []
        for depth in depths:  # a handful of depths; the work inside is vectorised
            judged = pool_judged(pooled_scores, depth)
            out = evaluate_runs(collection.grades, collection.scores, judged, k=k, run_length=run_length)
            share = (judged & relevant).sum() / relevant.sum()
            per_depth.append(([out[m].mean(axis=1) for m in METHODS], judged.mean(), share, out["zero_ideal"]))
        columns = (np.array(column) for column in zip(*per_depth, strict=True))
        return dict(zip(("means", "judged_fraction", "relevant_judged", "zero_ideal"), columns, strict=True))

    results = [r for _, r in sorted(parallel_map(one, range(replicates), n_jobs=n_jobs), key=lambda done: done[0])]
    return {
        **{key: np.stack([r[key] for r in results]) for key in ("means", "judged_fraction", "relevant_judged")},
        "zero_ideal": np.sum([r["zero_ideal"] for r in results], axis=0),
        "depths": depths,
        "systems": model.system_names,
    }


def summarize_bias(means: Any, *, confidence: float = CONFIDENCE) -> dict[str, np.ndarray]:
    """Mean bias (estimate - true) over replicates of :func:`pooling_experiment`'s ``means``, with its t interval,
    for the two estimates; and the mean true nDCG."""
    array = np.asarray(means, dtype=np.float64)
    if array.shape[-2] != len(METHODS):
        raise ValueError(f"means must have shape (replicates, ..., {len(METHODS)}, n_systems), got {array.shape}")
    bias = mean_interval(array[..., 1:, :] - array[..., :1, :], confidence=confidence)
    return {"bias": bias["mean"], "low": bias["ci_low"], "high": bias["ci_high"], "true": array[..., 0, :].mean(axis=0)}
