"""Data sets drawn from the simulated model, and fast nDCG of every ranker on them (:func:`replicate_ndcg`: the metric
core's kernels without their per-call checks, same bits, far faster); :func:`sample` gives the same data set with
explicit scores, to check it against the public metrics. :func:`stream_ndcg` follows nested prefixes of one stream.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .._validation import check_instance, check_int
from ..core import Discount, Gain, parse_discount, parse_gain
from ..core import _kernels as kernels
from ..core._ranking import group_means
from .model import Model, Ranker, check_items, parse_model, parse_ranker, spec_list
from .replicates import replicate_rng

#: Spawn keys ``(experiment, n, replicate, 0)`` draw a data set, ``(..., ranker.stream)`` a ranker's noise; a stream's
#: end in this, so that no stream shares its numbers with a data set of :func:`replicate_ndcg` (four-element keys).
STREAM_KEY = 1
_workspace = threading.local()


def ndcg_ratio(dcg: np.ndarray, idcg: np.ndarray) -> np.ndarray:
    """``dcg / idcg``, 0 where the ideal is 0 (a list without a relevant item)."""
    return np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)


def _buffers(n: int) -> dict[str, np.ndarray]:
    """Per-thread scratch arrays of length n, reused across replicates (avoids page faults on fresh memory)."""
    current = getattr(_workspace, "arrays", None)
    if current is None or current["x"].size != n:
        current = {name: np.empty(n) for name in ("x", "eta", "u", "noise")}
        current["present"] = np.empty(n, dtype=bool)
        current["grades8"] = np.empty(n, dtype=np.uint8)
        _workspace.arrays = current
    return current


def parse_specs(
    model: str | Model, rankers: Iterable[str | Ranker], discounts: Iterable[str | Discount], gain: str | Gain
) -> tuple[Model, list[Ranker], list[Discount], Gain]:
    """The model, rankers, built-in discounts and built-in gain of an experiment, parsed."""
    discounts = [parse_discount(d, builtin_only=True) for d in spec_list(discounts, "discounts")]
    rankers = [parse_ranker(r) for r in spec_list(rankers, "rankers")]
    return parse_model(model), rankers, discounts, parse_gain(gain, builtin_only=True)


def data_set_key(model: Model, n: int, seed: int, replicate: int) -> tuple[int, int, int, int]:
    """``(seed, experiment, n, replicate)``, the start of the spawn keys of a data set: n >= 1, replicate >= 0."""
    return seed, model.experiment_id, check_int(n, "n", low=1), check_int(replicate, "replicate", low=0)


def prefix_lengths(ns: Iterable[int]) -> tuple[int, ...]:
    """The prefix lengths of a stream, checked: a non-empty increasing list of integers from 1 to
    :data:`~.model.MAX_ITEMS`."""
    ns = check_instance(ns, "ns", Iterable, what="a list")
    ns = tuple(check_items(n, "prefix length in ns", symbol="n") for n in ns)
    if not ns or any(b <= a for a, b in zip(ns, ns[1:], strict=False)):
        raise ValueError(f"ns must be a non-empty increasing list of prefix lengths, got {list(ns)!r}")
    return ns


@dataclass(frozen=True)
class Sample:
    """One simulated data set with an explicit score per ranker (see :func:`sample`)."""

    x: np.ndarray
    grades: np.ndarray
    scores: dict[str, np.ndarray]


def _sample(model: Model, rankers: Iterable[str | Ranker], n: int, seed: int, replicate: int, stream: bool) -> Sample:
    """The data set of :func:`sample` (sorted features) or of :func:`stream_sample` (arrival order, uniform keys)."""
    key, suffix = data_set_key(model, n, seed, replicate), (STREAM_KEY,) if stream else ()
    x, y = model.draw(replicate_rng(*key, 0, *suffix), n, descending=not stream)
    scores: dict[str, np.ndarray] = {}
    for ranker in map(parse_ranker, spec_list(rankers, "rankers", empty=True)):  # none: the data set alone
        rng = replicate_rng(*key, ranker.stream, *suffix)
        if ranker.kind == "bayes":
            score = x.copy()
        elif ranker.kind == "noisy":
            score = x + ranker.sigma * rng.standard_normal(n)
        elif ranker.kind == "coarse":
            score = np.searchsorted(ranker.bin_edges(), x).astype(np.float64)  # bin 0..m-1: the edges below x
        elif stream:  # random, head, gated: stream_ndcg puts the exact head first
            score = rng.random(n)
        else:  # random, head, gated: the item at position j of `order` gets rank j + 1
            head = ranker.exact_count(x)  # 0 for random; items are drawn in descending x, so the head is 0..head-1
            order = np.concatenate((np.arange(head), head + rng.permutation(n - head)))
            score = np.empty(n)
            score[order] = np.arange(n, 0, -1, dtype=np.float64)
        scores[str(ranker)] = score
    return Sample(x, y, scores)


def sample(model: str | Model, rankers: Iterable[str | Ranker], n: int, *, seed: int, replicate: int = 0) -> Sample:
    """Draw one data set and every ranker's scores (higher = ranked higher): the numbers of :func:`replicate_ndcg`
    (``random``, ``head`` and ``gated`` score ``n - position`` in their order); n at most :data:`~.model.MAX_ITEMS`."""
    return _sample(parse_model(model), rankers, check_items(n), seed, replicate, stream=False)


def stream_sample(
    model: str | Model, rankers: Iterable[str | Ranker], length: int, *, seed: int, replicate: int
) -> Sample:
    """A data stream in arrival order, each ranker's key (higher first); its seeds' keys end in :data:`STREAM_KEY`;
    ``length`` at most :data:`~.model.MAX_ITEMS`."""
    return _sample(parse_model(model), rankers, check_items(length, "length"), seed, replicate, stream=True)


def _ranked(grades8: np.ndarray, order: np.ndarray | None, table: np.ndarray | None) -> np.ndarray:
    """Gains in rank order from uint8 grades (a 1-byte gather stays in cache; ``table`` maps grade -> gain)."""
    ranked = grades8 if order is None else np.take(grades8, order)
    return ranked.astype(np.float64) if table is None else np.take(table, ranked)


def _block_dcg(
    x_desc: np.ndarray, gains: np.ndarray, edges: np.ndarray, cumulatives: Sequence[np.ndarray]
) -> np.ndarray:
    """Tie-averaged DCG of the ranking by bin of x: each bin is a block of the descending x (found by bisection)."""
    # Items with x > e come first; -x is ascending, so bisect on it (O(log n) element reads per edge).
    end = np.array([bisect.bisect_left(x_desc, -e, key=lambda v: -v) for e in edges[::-1]] + [x_desc.size])
    start = np.concatenate(([0], end[:-1]))
    filled = end > start
    means = np.zeros(end.size)
    means[filled] = np.add.reduceat(gains, start[filled]) / (end - start)[filled]  # consecutive blocks ending at n
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
    """Full-list nDCG (ties averaged; 0 without a relevant item) on one data set of n items (at most
    :data:`~.model.MAX_ITEMS`): shape (rankers, discounts)."""
    model, rankers, discounts, gain_fn = parse_specs(model, rankers, discounts, gain)
    key = data_set_key(model, check_items(n), seed, replicate)
    buf = _buffers(n)
    x, y = model.draw(replicate_rng(*key, 0), n, descending=True, scratch=buf)  # the Bayes order
    gains = y if gain_fn.name == "linear" else gain_fn(y)
    vectors = [kernels.discount_vector(d, n) for d in discounts]
    cumulatives = [kernels.cumulative_discount(d, n) for d in discounts]

    grades8 = buf["grades8"]
    np.copyto(grades8, y, casting="unsafe")  # grades <= 32: gathers move 1 byte per item
    int8 = grades8.view(np.int8)[None, :]  # the core's ideal DCG sorts the grades: 1-byte int8 sorts fastest
    idcg = np.array([kernels.ideal_dcg(int8, gain_fn, d, None, name="grades")[0] for d in discounts])
    table = None if gain_fn.name == "linear" else gain_fn(np.arange(model.grades + 1, dtype=np.float64))
    dcg = np.empty((len(rankers), len(discounts)))
    for i, ranker in enumerate(rankers):
        if ranker.kind == "coarse":  # bins are contiguous blocks of the Bayes order
            dcg[i] = _block_dcg(x, gains, ranker.bin_edges(), cumulatives)
            continue
        if ranker.kind == "bayes":  # the items are already in descending order of x
            ranked, keys = gains, x
        elif ranker.kind == "noisy":
            neg = buf["noise"]
            replicate_rng(*key, ranker.stream).standard_normal(out=neg)  # as in sample()
            neg *= -ranker.sigma
            neg -= x  # -(x + sigma z), exactly the negated score of sample()
            order = np.argsort(neg)  # one argsort per noisy ranker
            ranked, keys = _ranked(grades8, order, table), np.take(neg, order)
        else:  # random, head, gated: the same Fisher-Yates shuffle as sample()'s permutation, applied to the grades
            head = ranker.exact_count(x)
            rest = replicate_rng(*key, ranker.stream).permuted(grades8[head:])
            ranked, keys = _ranked(np.concatenate((grades8[:head], rest)), None, table), None
        if keys is not None and np.any(keys[1:] == keys[:-1]):  # tied features or scores (rare: they are continuous)
            ranked = group_means(keys[None, :], ranked[None, :])[0]
        dcg[i] = [ranked @ v for v in vectors]
    return ndcg_ratio(dcg, idcg)


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
    """Full-list nDCG on the prefixes of :func:`stream_sample` of lengths ``ns``: shape (ns, rankers, discounts)."""
    model, rankers, discounts, gain_fn = parse_specs(model, rankers, discounts, gain)
    ns = prefix_lengths(ns)
    s = stream_sample(model, rankers, ns[-1], seed=seed, replicate=replicate)
    x, gains, grades8 = s.x, gain_fn(s.grades), s.grades.astype(np.int8)
    vectors = [kernels.discount_vector(d, ns[-1]) for d in discounts]
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
            out[i, j] = ndcg_ratio(dcg, idcg)
    return out
