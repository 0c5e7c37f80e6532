r"""A simulated test collection with a known true order of systems (notebook 07, section "The collection").

``T`` topics of ``documents`` documents, :math:`R_t` relevant (log-normal, clipped to ``1 .. documents/2``, grades 1-3
with ``grade_probabilities``). System ``s`` of skill :math:`\theta_s` (from ``skill_range`` down to 0) scores
:math:`a_{s,t} g_{t,d} + \varepsilon_{s,t,d}` with :math:`a_{s,t} = \exp(\text{base} + \theta_s + u_t + v_{s,t})`
(topic difficulty :math:`u_t`, system x topic interaction :math:`v_{s,t}`, standard normal noise) and returns its
``depth`` best documents; the true order is that of :math:`\theta_s` by construction. Topics come in seeded blocks
of :data:`TOPIC_BLOCK` (``spawn_key=(k,)``), so the first T topics do not depend on how many are simulated."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...core import ndcg
from ...stats import TIE_TOLERANCE
from ...stats._replication import query_subsets

#: Topics per seeded block.
TOPIC_BLOCK = 50


@dataclass(frozen=True)
class CollectionModel:
    """Parameters of the simulated collection (see the module documentation)."""

    systems: int = 20
    skill_range: float = 1.0
    base: float = -1.2
    topic_sd: float = 0.8
    interaction_sd: float = 0.35
    documents: int = 500
    depth: int = 100
    relevant_median: float = 25.0
    relevant_spread: float = 0.9
    grade_probabilities: tuple[float, float, float] = (0.6, 0.3, 0.1)

    def __post_init__(self) -> None:
        if self.depth > self.documents:
            raise ValueError(f"depth ({self.depth}) must not exceed documents ({self.documents})")
        for name in ("skill_range", "topic_sd", "interaction_sd", "relevant_median", "relevant_spread"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        if self.relevant_median < 1:
            raise ValueError(f"relevant_median must be >= 1, got {self.relevant_median!r}")
        probs = tuple(self.grade_probabilities)
        if len(probs) != 3 or min(probs) < 0 or not math.isclose(sum(probs), 1.0):
            raise ValueError(
                f"grade_probabilities must be 3 probabilities of grades 1, 2, 3 summing to 1, "
                f"got {self.grade_probabilities!r}"
            )
        object.__setattr__(self, "grade_probabilities", probs)

    def skills(self) -> np.ndarray:
        """The systems' skills, best first."""
        return np.linspace(self.skill_range, 0.0, self.systems)


@dataclass(frozen=True)
class Collection:
    """A simulated collection: ``grades`` (topics x documents) and each run's documents and scores in rank order
    (systems x topics x depth), the best system first."""

    model: CollectionModel
    grades: np.ndarray
    ranked_documents: np.ndarray
    ranked_scores: np.ndarray
    systems: list[str]
    skills: np.ndarray

    @property
    def n_topics(self) -> int:
        return self.grades.shape[0]

    def ranked_grades(self) -> np.ndarray:
        """``systems x topics x depth``: the grade at each rank of each run."""
        return np.take_along_axis(self.grades[None, :, :], self.ranked_documents, axis=2)

    def scores(self, *, gain: str = "linear", discount: str = "log2", k: int | None = None) -> np.ndarray:
        """Per-topic nDCG of every system (systems x topics), the ideal from all judged documents (trec_eval's)."""
        s, t, depth = self.ranked_documents.shape
        relevant = -np.sort(-self.grades, axis=1)
        width = max(1, int(np.count_nonzero(relevant, axis=1).max()))
        ideal = np.broadcast_to(relevant[None, :, :width], (s, t, width)).reshape(s * t, width)
        values = ndcg(self.ranked_grades().reshape(s * t, depth), k, ideal=ideal, gain=gain, discount=discount)
        return np.asarray(values).reshape(s, t)

    def write_trec(self, folder: str | os.PathLike[str]) -> tuple[Path, list[Path]]:
        """Write ``qrels.txt`` and one ``<system>.run`` per system in TREC format."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        width_t, width_d = max(3, len(str(self.n_topics))), max(4, len(str(self.model.documents)))
        topic_ids = [f"t{t + 1:0{width_t}d}" for t in range(self.n_topics)]
        files = {
            out / "qrels.txt": [
                f"{topic_ids[t]} 0 d{d + 1:0{width_d}d} {int(self.grades[t, d])}"
                for t, d in np.ndindex(self.grades.shape)
            ]
        }
        for s, name in enumerate(self.systems):
            files[out / f"{name}.run"] = [
                f"{topic_ids[t]} Q0 d{self.ranked_documents[s, t, r] + 1:0{width_d}d} {r + 1} "
                f"{self.ranked_scores[s, t, r]:.6f} {name}"
                for t, r in np.ndindex(self.ranked_documents.shape[1:])
            ]
        for path, lines in files.items():
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        qrels, *runs = files
        return qrels, runs


def simulate_collection(model: CollectionModel, *, topics: int, seed: int) -> Collection:
    """Simulate ``topics`` topics of the collection ``model``."""
    if not isinstance(model, CollectionModel):
        raise TypeError(f"model must be a CollectionModel, got {type(model).__name__}")
    blocks = [_simulate_block(model, seed, k) for k in range(math.ceil(topics / TOPIC_BLOCK))]
    grades, documents, scores = zip(*blocks, strict=True)
    width = len(str(model.systems))
    return Collection(
        model=model,
        grades=np.concatenate(grades)[:topics],
        ranked_documents=np.concatenate(documents, axis=1)[:, :topics],
        ranked_scores=np.concatenate(scores, axis=1)[:, :topics],
        systems=[f"sys{s + 1:0{width}d}" for s in range(model.systems)],
        skills=model.skills(),
    )


def _simulate_block(model: CollectionModel, seed: int, block: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))
    t, n, s, depth = TOPIC_BLOCK, model.documents, model.systems, model.depth
    relevant = np.exp(rng.normal(math.log(model.relevant_median), model.relevant_spread, t))
    relevant = np.clip(np.round(relevant), 1, n // 2).astype(np.int64)
    levels = rng.choice(np.array([1, 2, 3], dtype=np.int8), p=model.grade_probabilities, size=(t, n))
    grades = np.where(np.arange(n)[None, :] < relevant[:, None], levels, np.int8(0)).astype(np.int8)
    difficulty = rng.normal(0.0, model.topic_sd, t)
    interaction = rng.normal(0.0, model.interaction_sd, (s, t))
    signal = np.exp(model.base + model.skills()[:, None] + difficulty[None, :] + interaction)
    scores = signal[:, :, None] * grades[None, :, :] + rng.standard_normal((s, t, n))
    top = np.argpartition(-scores, depth - 1, axis=2)[:, :, :depth]
    top_scores = np.take_along_axis(scores, top, axis=2)
    order = np.argsort(-top_scores, axis=2, kind="stable")
    ranked = np.take_along_axis(top, order, axis=2).astype(np.int32)
    return grades, ranked, np.take_along_axis(top_scores, order, axis=2)


def ordering_accuracy(scores: Any, skills: Any, sizes: Any, *, trials: int, seed: int = 0) -> np.ndarray:
    """Share of system pairs that the means over each of ``trials`` random query subsets of each size order as their
    ``skills`` do (a tie counts half): ``len(sizes) x trials``."""
    matrix, truth = np.asarray(scores, dtype=np.float64), np.asarray(skills, dtype=np.float64)
    if matrix.ndim != 2 or truth.shape != (matrix.shape[0],):
        raise ValueError(
            f"scores must be systems x queries and skills one per system, got shapes {matrix.shape} and {truth.shape}"
        )
    first, second = np.triu_indices(matrix.shape[0], k=1)
    right = np.sign(truth[first] - truth[second])
    if np.any(right == 0):  # a pair without a true order would count as half right, silently
        raise ValueError("skills must not tie: the true order of every pair must be known")
    out = []
    for size in sizes:
        subsets = query_subsets(matrix.shape[1], size, trials=trials, seed=seed)[0]
        means = matrix[:, subsets].mean(axis=2)  # systems x trials
        gap = means[first] - means[second]
        agree = np.where(np.abs(gap) <= TIE_TOLERANCE, 0.0, np.sign(gap)) * right[:, None]  # +1 right, -1 wrong, 0 tie
        out.append(((agree + 1) / 2).mean(axis=0))
    return np.array(out)


def queries_needed(sizes: Any, curve: Any, target: float) -> float:
    """Smallest number of queries at which an increasing ``curve`` over ``sizes`` reaches ``target`` (interpolated in
    ``log(size)``; NaN if it never does)."""
    c, y = np.asarray(sizes, dtype=np.float64), np.asarray(curve, dtype=np.float64)
    reached = np.flatnonzero(y >= target)
    if reached.size == 0:
        return float("nan")
    i = int(reached[0])
    if i == 0:
        return float(c[0])
    fraction = (target - y[i - 1]) / (y[i] - y[i - 1])
    return float(np.exp(np.log(c[i - 1]) + fraction * (np.log(c[i]) - np.log(c[i - 1]))))


def queries_needed_interval(
    sizes: Any, accuracy: Any, target: float, *, confidence: float = 0.95, n_resamples: int = 1000, seed: int = 0
) -> tuple[float, float, float]:
    """:func:`queries_needed` of the mean accuracy over trials, with a percentile bootstrap interval over the trials
    (the same resamples for every measure; a resample that never reaches the target needs inf queries)."""
    y, c = np.asarray(accuracy, dtype=np.float64), np.asarray(sizes, dtype=np.float64)
    if y.ndim != 2 or y.shape[0] != c.size:
        raise ValueError(f"accuracy must be len(sizes) x trials, got shape {y.shape} for {c.size} sizes")
    estimate = queries_needed(c, y.mean(axis=1), target)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
    picks = rng.integers(0, y.shape[1], size=(n_resamples, y.shape[1]))
    needed = np.array([queries_needed(c, y[:, p].mean(axis=1), target) for p in picks])
    needed = np.where(np.isnan(needed), np.inf, needed)
    low, high = np.quantile(needed, [(1 - confidence) / 2, (1 + confidence) / 2], method="inverted_cdf")
    return estimate, float(low), float(high)


def fewest_queries(needed: Any, low: Any, high: Any) -> tuple[int, np.ndarray, np.ndarray]:
    """The rule of notebook 07's verdict: the measure needing the fewest queries (the first on ties), and masks of the
    measures whose interval reaches down to its upper limit (its group) and of the rest (needing more; NaN: never)."""
    q, lo, hi = (np.asarray(x, dtype=np.float64) for x in (needed, low, high))
    if q.ndim != 1 or q.size == 0 or lo.shape != q.shape or hi.shape != q.shape:
        raise ValueError(
            f"needed, low and high must be 1-d arrays of one shape, got shapes {q.shape}, {lo.shape}, {hi.shape}"
        )
    reached = ~np.isnan(q)
    if np.isnan(lo[reached]).any() or np.isnan(hi[reached]).any() or (lo[reached] > hi[reached]).any():
        bad = int(np.flatnonzero(reached & (np.isnan(lo) | np.isnan(hi) | (lo > hi)))[0])
        raise ValueError(
            f"low and high must be an interval (low <= high, not NaN) wherever needed is; measure "
            f"{bad}: low {float(lo[bad])!r}, high {float(hi[bad])!r}"
        )
    finite = np.where(reached, q, np.inf)
    if not np.isfinite(finite).any():
        raise ValueError("needed has no finite estimate: no measure reaches the target")
    best = int(np.argmin(finite))
    lo = np.where(np.isnan(q), np.inf, lo)
    group = lo <= hi[best]
    group[best] = True
    return best, group, ~group
