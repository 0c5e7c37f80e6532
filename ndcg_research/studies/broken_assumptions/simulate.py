"""Simulated data sets of the two models of :mod:`.models` and the nDCG of every ranker on them (binary relevance).

Only the relevant items' ranks are computed: in the sparse model the other scores are counted between the sorted
relevant ones; in the two-feature model every ``x1 + L x2`` keeps the order by x1 within the flagged and within the
other items, so one sort of each block serves every mix. Data set ``(n, replicate)`` draws from
``SeedSequence(seed, spawn_key=(model id, n, replicate, 0))``, each ranker's noise with its own stream last."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from ...core import Discount, parse_discount
from ...core import _kernels as kernels
from ...simulation.model import stable_id
from ...simulation.replicates import replicate_rng
from ...simulation.simulate import ndcg_ratio
from .models import SparseModel, TwoFeatureModel, mix_weight, noise_level

Model = SparseModel | TwoFeatureModel


def _rng(seed: int, model: Model, n: int, replicate: int, stream: str = "") -> np.random.Generator:
    """The generator of one data set (stream "") or of one ranker's noise on it (stream = the ranker)."""
    return replicate_rng(seed, stable_id(str(model)), n, replicate, stable_id(stream) | 1 if stream else 0)


@functools.lru_cache(maxsize=2)
def _discount_matrix(discounts: tuple[Discount, ...], n: int) -> tuple[np.ndarray, np.ndarray]:
    """D(1..n) of every discount as the columns of an (n, discounts) array, and the sums S(0..n) as rows."""
    vectors = np.stack([kernels.discount_vector(d, n) for d in discounts], axis=1)
    return vectors, np.stack([kernels.cumulative_discount(d, n) for d in discounts], axis=1)


def relevant_ranks(relevant_scores: np.ndarray, other_scores: np.ndarray) -> np.ndarray:
    """1-based ranks of the relevant items among all items by descending score, in ascending order of their scores."""
    ordered = np.sort(relevant_scores)
    below = np.searchsorted(ordered, other_scores)  # how many relevant scores lie below each other score
    counts = np.bincount(below, minlength=ordered.size + 1)
    others_above = other_scores.size - np.cumsum(counts)[:-1]
    return 1 + others_above + np.arange(ordered.size - 1, -1, -1)


def sparse_ranks(ranker: str, relevant: np.ndarray, others: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Ranks of the relevant items of a sparse-model data set (features ``relevant``, ``others``) under ``ranker``;
    ``rng`` draws its noise (``noisy``) or its order (``random``)."""
    sigma = noise_level(ranker)
    n = relevant.size + others.size
    if math.isinf(sigma):  # random: the relevant items hold a uniformly random set of ranks
        return 1 + rng.choice(n, relevant.size, replace=False)
    if sigma == 0:
        return relevant_ranks(relevant, others)
    noise = sigma * rng.standard_normal(n)
    return relevant_ranks(relevant + noise[: relevant.size], others + noise[relevant.size :])


def _block_ranks(
    model: TwoFeatureModel, ranker: str, blocks: tuple[np.ndarray, ...], rng: np.random.Generator
) -> np.ndarray:
    """Ranks of the relevant items of a two-feature data set under ``ranker``, from the data sorted once (x1 of the
    flagged and of the other items, each ascending, and whether each is relevant; ``rng``: the ``flag`` ranker's order
    within its blocks)."""
    flagged, others, flagged_relevant, others_relevant = blocks
    lam = mix_weight(model, ranker)
    if math.isinf(lam):  # flag: flagged items first, each block in a uniformly random order
        top = 1 + rng.choice(flagged.size, int(flagged_relevant.sum()), replace=False)
        rest = 1 + flagged.size + rng.choice(others.size, int(others_relevant.sum()), replace=False)
        return np.concatenate((top, rest))
    # a flagged item with x1 = v is above the other items with x1 < v + lam, and vice versa
    top = (flagged.size - np.arange(flagged.size)) + (others.size - np.searchsorted(others, flagged + lam, "right"))
    rest = (others.size - np.arange(others.size)) + (flagged.size - np.searchsorted(flagged, others - lam, "right"))
    return np.concatenate((top[flagged_relevant], rest[others_relevant]))


def relevant_rank_lists(model: Model, rankers: Sequence[str], n: int, *, seed: int, replicate: int) -> list[np.ndarray]:
    """The 1-based ranks of the relevant items under every ranker, on data set ``(n, replicate)`` (in no
    particular order; the same data set and noise as :func:`replicate_ndcg`)."""
    rng = _rng(seed, model, n, replicate)
    if isinstance(model, SparseModel):
        relevant, others = model.draw(rng, n)
        return [sparse_ranks(r, relevant, others, _rng(seed, model, n, replicate, r)) for r in rankers]
    x1, flag, relevant = model.draw(rng, n)
    flagged, others = (np.flatnonzero(block)[np.argsort(x1[block])] for block in (flag, ~flag))  # x1 ascending
    blocks = x1[flagged], x1[others], relevant[flagged], relevant[others]
    return [_block_ranks(model, r, blocks, _rng(seed, model, n, replicate, r)) for r in rankers]


def replicate_ndcg(
    model: Model, rankers: Sequence[str], discounts: Sequence[str | Discount], n: int, *, seed: int, replicate: int
) -> np.ndarray:
    """nDCG of every ranker under every discount on one simulated data set: shape (rankers, discounts)."""
    parsed = tuple(parse_discount(d) for d in discounts)
    vectors, sums = _discount_matrix(parsed, n)
    out = np.empty((len(rankers), len(parsed)))
    for i, ranks in enumerate(relevant_rank_lists(model, rankers, n, seed=seed, replicate=replicate)):
        out[i] = ndcg_ratio(vectors[ranks - 1].sum(axis=0), sums[ranks.size])
    return out
