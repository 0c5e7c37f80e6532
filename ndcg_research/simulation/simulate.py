r"""Data sets drawn from the simulated model (:mod:`~ndcg_research.simulation.model`), and fast nDCG of rankers on them.

Growing samples
---------------
:func:`stream_ndcg` follows one data stream: items drawn one after another, and the nDCG of every ranker on each prefix
of the first n items, for an increasing list of n. The prefixes are nested (the data set of size n is part of every
larger one), so a stream answers "does the order of two rankers, once settled, stay settled as the data set grows?",
which independent data sets at each n cannot.

Randomness
----------
Every random number comes from a :class:`numpy.random.Generator` seeded by :func:`replicate_seed`:
``SeedSequence(seed, spawn_key=(experiment, n, replicate, stream))``, ``experiment`` a stable number derived from the
model spec, ``stream`` 0 for the data and a stable number derived from the ranker spec for that ranker's noise. A
replicate therefore draws the same data and noise whatever the worker, the order of computation or the other rankers.

Speed
-----
:func:`replicate_ndcg` computes, for one data set, the nDCG of every ranker under every discount; every discount reuses
a ranker's ranked gains (one dot product each). The features are drawn and sorted (``np.sort``, in place) before the
grades: given the features the grades are independent, so this only relabels the items, which come out in the ``bayes``
order. Hence ``bayes`` needs no further sort, nor does ``coarse`` (its bins are consecutive blocks of that order, found
by bisection; the tie-averaged DCG of a block is its mean gain times its share of the cumulative discount); ``random``
shuffles the grades (a uniformly random order independent of the rest), ``head(m)`` keeps the first m and shuffles the
others (``gated(q)`` the first M, the items above its gate, found by bisection), and each ``noisy`` ranker needs one
argsort of its n scores. Gathers move uint8 grades, not float64 gains. :func:`sample` returns the same data set with
explicit scores for every ranker, so the fast path can be checked against :func:`ndcg_research.ndcg_from_scores`.

The metric core's arithmetic, without its per-call checks: the discount vectors and their cumulative sums are the
core's cached ones (:func:`~ndcg_research.core._kernels.discount_vector`, ``cumulative_discount``), the ideal DCG is
the core's (``ideal_dcg``, on int8 grades, which sort fastest), and a DCG is ``ranked @ D``, the one-row path of
``discounted_sum``, so these values are the kernels' bit for bit (``coarse``'s blocks, summed through the cumulative
discount, agree with the core to rounding). The public metric functions give the same bits but check every array at
every call: at n = 1000 the ideal DCG through :func:`ndcg_research.idcg` makes a replicate about 10% slower, and a
DCG through the checked ``discounted_sum`` costs about 20 us against 2 us for the dot product, 40 times per replicate
of 5 rankers and 8 discounts.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core import Discount, Gain, parse_discount, parse_gain
from ..core import _kernels as kernels
from ..core._ranking import group_means
from .model import Model, Ranker, parse_model, parse_ranker
from .replicates import seed_sequence


def replicate_seed(seed: int, model: Model, n: int, replicate: int, stream: int = 0) -> np.random.SeedSequence:
    """The seed of one stream of one replicate: ``SeedSequence(seed, spawn_key=(experiment, n, replicate, stream))``.

    ``seed``: the study's seed, >= 0; ``model``: its :attr:`Model.experiment_id` is the first element of the spawn
    key; ``n``, ``replicate``: list length (>= 1) and replicate number (>= 0); ``stream``: 0 for the data,
    :attr:`Ranker.stream` for a ranker's noise.
    """
    return seed_sequence(seed, model.experiment_id, n, replicate, stream)


def _rng(seed: int, model: Model, n: int, *key: int) -> np.random.Generator:
    """The generator of spawn key ``(experiment, n, *key)``."""
    return np.random.default_rng(seed_sequence(seed, model.experiment_id, n, *key))


_workspace = threading.local()


def _buffers(n: int) -> dict[str, np.ndarray]:
    """Per-thread scratch arrays of length n, reused across replicates (avoids page faults on fresh memory)."""
    current = getattr(_workspace, "arrays", None)
    if current is None or current["x"].size != n:
        current = {name: np.empty(n) for name in ("x", "eta", "u", "noise")}
        current["present"] = np.empty(n, dtype=bool)
        current["grades8"] = np.empty(n, dtype=np.uint8)
        _workspace.arrays = current
    return current


def _feature_score(ranker: Ranker, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The score of a ranker that sees the feature: ``bayes`` x, ``noisy`` x + sigma z, ``coarse`` the bin of x."""
    if ranker.kind == "bayes":
        return x.copy()
    if ranker.kind == "noisy":
        return x + ranker.sigma * rng.standard_normal(x.size)
    return np.searchsorted(ranker.bin_edges(), x).astype(np.float64)  # bin 0..m-1: the number of edges below x


def _parsed(
    rankers: Iterable[str | Ranker], discounts: Iterable[str | Discount], gain: str | Gain
) -> tuple[list[Ranker], list[Discount], Gain]:
    discounts = [parse_discount(d, builtin_only=True) for d in discounts]
    return [parse_ranker(r) for r in rankers], discounts, parse_gain(gain, builtin_only=True)


@dataclass(frozen=True)
class Sample:
    """One simulated data set with an explicit score per ranker (see :func:`sample`)."""

    x: np.ndarray
    grades: np.ndarray
    scores: dict[str, np.ndarray]


def sample(model: str | Model, rankers: Iterable[str | Ranker], n: int, *, seed: int, replicate: int = 0) -> Sample:
    """Draw one data set and every ranker's scores (higher score = ranked higher).

    The same numbers as :func:`replicate_ndcg` uses. The ``random`` ranker's score is ``n - position`` of a uniformly
    random order; ``head(m)``'s is ``n - position`` of the order that puts the m items of largest x first (in descending
    x) and the others after them in a uniformly random order (``gated(q)``: the items with x above its gate first).

    ``n``: number of items (>= 1); ``seed``: seed of the experiment; ``replicate``: replicate number.
    """
    model = parse_model(model)
    x, y = model.draw(_rng(seed, model, n, replicate, 0), n, descending=True)
    scores: dict[str, np.ndarray] = {}
    for ranker in map(parse_ranker, rankers):
        rng = _rng(seed, model, n, replicate, ranker.stream)
        if ranker.kind in ("bayes", "noisy", "coarse"):
            scores[str(ranker)] = _feature_score(ranker, x, rng)
        else:  # random, head, gated: the item at position j of `order` gets rank j + 1
            head = ranker.exact_count(x)  # 0 for random; items are drawn in descending x, so the head is 0..head-1
            order = np.concatenate((np.arange(head), head + rng.permutation(n - head)))
            score = np.empty(n)
            score[order] = np.arange(n, 0, -1, dtype=np.float64)
            scores[str(ranker)] = score
    return Sample(x, y, scores)


def _ranked(grades8: np.ndarray, order: np.ndarray | None, table: np.ndarray | None) -> np.ndarray:
    """Gains in rank order from uint8 grades (a 1-byte gather stays in cache; ``table`` maps grade -> gain)."""
    ranked = grades8 if order is None else np.take(grades8, order)
    return ranked.astype(np.float64) if table is None else np.take(table, ranked)


def _block_dcg(
    x_desc: np.ndarray, gains: np.ndarray, edges: np.ndarray, cumulatives: Sequence[np.ndarray]
) -> np.ndarray:
    """Tie-averaged DCG of the ranking by bin of x (items sorted by descending x): bin j holds the items with exactly
    j edges below x, a consecutive block (found by bisection) whose mean gain fills its ranks."""
    # Items with x > e come first; -x is ascending, so bisect on it (O(log n) element reads per edge).
    end = np.array([bisect.bisect_left(x_desc, -e, key=lambda v: -v) for e in edges[::-1]] + [x_desc.size])
    start = np.concatenate(([0], end[:-1]))
    filled = end > start
    sums = np.zeros(end.size)
    sums[filled] = np.add.reduceat(gains, start[filled])  # blocks are consecutive and the last ends at n
    means = np.divide(sums, end - start, out=np.zeros(end.size), where=filled)
    return np.array([means @ (c[end] - c[start]) for c in cumulatives])


def replicate_ndcg(
    model: str | Model,
    rankers: Sequence[str | Ranker],
    discounts: Sequence[str | Discount],
    n: int,
    *,
    seed: int,
    replicate: int,
    gain: str | Gain = "linear",
) -> np.ndarray:
    """nDCG of every ranker under every discount on one simulated data set.

    nDCG here is the full-list nDCG (no cut-off) with ties averaged and the ideal from the data set's own grades:
    ``DCG_D(f) / IDCG_D`` with ``DCG_D(f) = sum_r gain(y_(r)) D(r)``. A data set without a relevant item gets 0 (the
    package's default ``zero_ideal="zero"``).

    ``discounts``: built-in discount specs, e.g. ``"log2"``, ``"power(beta=0.5)"``; ``n``: number of items; ``seed``:
    seed of the experiment; ``replicate``: replicate number: with ``seed``, the model and ``n`` it fixes all random
    draws; ``gain``: built-in gain spec (default linear).

    Returns numpy.ndarray: shape ``(len(rankers), len(discounts))``.
    """
    model = parse_model(model)
    rankers, discounts, gain_fn = _parsed(rankers, discounts, gain)
    buf = _buffers(n)
    x, y = model.draw(_rng(seed, model, n, replicate, 0), n, descending=True, scratch=buf)  # the Bayes order
    gains = y if gain_fn.name == "linear" else gain_fn(y)
    vectors = [kernels.discount_vector(d, n) for d in discounts]
    cumulatives = [kernels.cumulative_discount(d, n) for d in discounts]

    grades8 = buf["grades8"]
    np.copyto(grades8, y, casting="unsafe")  # grades <= 32: gathers move 1 byte per item
    # The core's ideal DCG (it sorts the grades: 1-byte int8 sorts fastest).
    idcg = np.array(
        [kernels.ideal_dcg(grades8.view(np.int8)[None, :], gain_fn, d, None, name="grades")[0] for d in discounts]
    )
    table = None if gain_fn.name == "linear" else gain_fn(np.arange(model.grades + 1, dtype=np.float64))
    dcg = np.empty((len(rankers), len(discounts)))
    for i, ranker in enumerate(rankers):
        if ranker.kind == "bayes":  # the items are already in descending order of x
            ranked = gains
            if np.any(x[1:] == x[:-1]):  # tied features (probability ~ n^2 2^-53)
                ranked = group_means(x[None, :], gains[None, :])[0]
            dcg[i] = [ranked @ v for v in vectors]
        elif ranker.kind == "noisy":
            neg = buf["noise"]
            _rng(seed, model, n, replicate, ranker.stream).standard_normal(out=neg)  # as in sample()
            neg *= -ranker.sigma
            neg -= x  # -(x + sigma z), exactly the negated score of sample()
            order = np.argsort(neg)  # one argsort per noisy ranker
            ranked, ordered = _ranked(grades8, order, table), np.take(neg, order)
            if np.any(ordered[1:] == ordered[:-1]):  # tied scores (rare for continuous scores)
                ranked = group_means(ordered[None, :], ranked[None, :])[0]
            dcg[i] = [ranked @ v for v in vectors]
        elif ranker.kind == "coarse":  # bins are contiguous blocks of the Bayes order
            dcg[i] = _block_dcg(x, gains, ranker.bin_edges(), cumulatives)
        else:  # random, head, gated: the same Fisher-Yates shuffle as sample()'s permutation, applied to the grades
            head = ranker.exact_count(x)
            shuffled = np.concatenate(
                (grades8[:head], _rng(seed, model, n, replicate, ranker.stream).permuted(grades8[head:]))
            )
            ranked = _ranked(shuffled, None, table)
            dcg[i] = [ranked @ v for v in vectors]
    return np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)


#: Last element of the spawn key of a stream's seeds, so that no stream shares its numbers with a data set of
#: :func:`replicate_ndcg` (whose keys have four elements).
STREAM_KEY = 1


def stream_sample(
    model: str | Model, rankers: Iterable[str | Ranker], length: int, *, seed: int, replicate: int
) -> Sample:
    """One data stream of ``length`` items in arrival order, with each ranker's order key.

    Features and grades as :meth:`Model.draw` (unsorted), each ranker's noise from its own stream:
    ``SeedSequence(seed, spawn_key=(experiment, length, replicate, stream, STREAM_KEY))``. The keys (higher = ranked
    higher): ``bayes`` x, ``noisy`` x + sigma z, ``coarse`` the bin of x, ``random``, ``head(m)`` and ``gated(q)`` an
    independent uniform (``head(m)`` puts the m items of largest x of a prefix first, ``gated(q)`` those above its gate,
    and both order the rest by the key; see :func:`stream_ndcg`).
    """
    model = parse_model(model)
    x, y = model.draw(_rng(seed, model, length, replicate, 0, STREAM_KEY), length)
    keys: dict[str, np.ndarray] = {}
    for ranker in map(parse_ranker, rankers):
        rng = _rng(seed, model, length, replicate, ranker.stream, STREAM_KEY)
        if ranker.kind in ("bayes", "noisy", "coarse"):
            keys[str(ranker)] = _feature_score(ranker, x, rng)
        else:  # random, head, gated
            keys[str(ranker)] = rng.random(length)
    return Sample(x, y, keys)


def stream_ndcg(
    model: str | Model,
    rankers: Sequence[str | Ranker],
    discounts: Sequence[str | Discount],
    ns: Sequence[int],
    *,
    seed: int,
    replicate: int,
    gain: str | Gain = "linear",
) -> np.ndarray:
    """nDCG of every ranker under every discount on the nested prefixes of one data stream.

    The stream is :func:`stream_sample` with ``length = max(ns)``; the data set of size n is its first n items, which
    each ranker orders by its key (``head(m)``: the m items of largest x among them first, in descending x, then the
    others by the key; ``gated(q)`` the same with the items above its gate); ties (``coarse``) are averaged. Full-list
    nDCG with the ideal from the prefix's own grades (0 when the prefix has no relevant item).

    ``discounts``: built-in discounts; ``ns``: prefix lengths, increasing, >= 1; ``seed``, ``replicate``: the study's
    seed and the stream's number.

    Returns numpy.ndarray: shape ``(len(ns), len(rankers), len(discounts))``.
    """
    model = parse_model(model)
    rankers, discounts, gain_fn = _parsed(rankers, discounts, gain)
    ns = list(ns)
    if not ns or any(b <= a for a, b in zip(ns, ns[1:], strict=False)):
        raise ValueError(f"ns must be a non-empty increasing list of prefix lengths, got {ns!r}")
    length = ns[-1]
    s = stream_sample(model, rankers, length, seed=seed, replicate=replicate)
    x, gains, grades8 = s.x, gain_fn(s.grades), s.grades.astype(np.int8)
    vectors = [kernels.discount_vector(d, length) for d in discounts]
    out = np.empty((len(ns), len(rankers), len(discounts)))
    for i, n in enumerate(ns):  # loop over prefixes
        idcg = np.array([kernels.ideal_dcg(grades8[None, :n], gain_fn, d, None, name="grades")[0] for d in discounts])
        for j, ranker in enumerate(rankers):
            key = s.scores[str(ranker)][:n]
            if ranker.kind in ("head", "gated"):
                by_x = np.argsort(-x[:n], kind="stable")
                top = by_x[: ranker.exact_count(x[by_x])]
                rest = np.setdiff1d(np.arange(n), top)  # ascending, as the stable argsort below needs
                order = np.concatenate((top, rest[np.argsort(-key[rest], kind="stable")]))
            else:
                order = np.argsort(-key, kind="stable")
            ranked = gains[order]
            if ranker.kind == "coarse":  # tied keys: each tied group's mean gain
                ranked = group_means(-key[order][None, :], ranked[None, :])[0]
            dcg = np.array([ranked @ v[:n] for v in vectors])
            out[i, j] = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    return out
