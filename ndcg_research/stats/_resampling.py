"""Resampling weights shared by every pair of systems, seeded blocks, random query subsets, and the worker pool.

A resample is a weight vector over the queries, so all pairs' resampled sums are a few BLAS matrix products
(``benchmarks/bench_stats.py``). Block ``k`` of stream ``s`` draws from ``SeedSequence(seed, spawn_key=(s, k))`` (a
bootstrap block as ``scipy.stats.bootstrap`` would), whatever the workers or the pairs compared. ``"exact"`` enumerates
the sign vectors with a first sign ``+1``: ``s`` and ``-s`` give the same ``|mean(s * d)|``, so half is exact.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import numpy as np

#: Relative tolerance for equal statistics (scipy.stats.permutation_test's 100 machine epsilons): a resampled
#: statistic counts as reaching the observed one within it (the paired tests, Tukey's HSD, variance components).
TOLERANCE = 100 * np.finfo(np.float64).eps
#: Stream numbers of the ``spawn_key`` (one per use of randomness, so that uses never share draws).
BOOTSTRAP_STREAM = 1
SIGN_FLIP_STREAM = 2
TUKEY_STREAM = 3
SUBSET_STREAM = 4
#: Resamples per seeded block (a constant: changing it changes the numbers drawn for a seed).
RESAMPLE_BLOCK = 10_000
#: Enumerated sign patterns per block of an exact test.
EXACT_BLOCK = 1 << 16
#: Up to this many queries a sign-flip test enumerates every pattern by default.
EXACT_MAX_QUERIES = 20
#: The most queries an exact sign-flip test accepts when asked for (2**24 patterns: 0.5 GB and some 15 s a pair; at 30
#: queries, 2**29 patterns held some 15 GB).
EXACT_LIMIT = 25

ResampleKind = Literal["bootstrap", "sign-flip", "exact"]
T = TypeVar("T")
R = TypeVar("R")


def rounding_residues(values: np.ndarray, mean: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``values`` (rows x n) with its ``mean``: whether the mean is the rounding residue of 0, and whether
    the values are all the same up to rounding (each within that residue of the mean), the residue being ``TOLERANCE``
    times the row's mean ``|value|``. The paired tests' policy: 0.7 - 0.6 and 0.4 - 0.3 have the mean 5e-18, and
    0.9 - 0.8 and 0.8 - 0.7 differ in their last bits, though each pair of differences is equal in decimal."""
    residue = TOLERANCE * np.abs(values).mean(axis=1)
    return np.abs(mean) <= residue, np.abs(values - mean[:, None]).max(axis=1) <= residue


def mean_error(terms: int, magnitude: Any) -> Any:
    """A bound on the rounding of a mean of ``terms`` values of at most ``magnitude`` (to first order, with room):
    ``4 terms eps magnitude``. The statistics' one rule for "equal in exact arithmetic, apart by rounding"."""
    return 4 * terms * np.finfo(np.float64).eps * magnitude


def mean_rounding(values: np.ndarray) -> np.ndarray:
    """Per row of ``values`` (rows x n), a bound on the rounding of a resampled mean of it (n terms of weight at most
    max ``|value|`` each in sum), which a resampled mean equal to the observed one in exact arithmetic (the identity
    resample, a permutation of it) must not miss it by."""
    return mean_error(values.shape[1], np.abs(values).max(axis=1))


def block_generator(seed: int, stream: int, block: int) -> np.random.Generator:
    """The generator of block ``block`` of stream ``stream``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(stream, block)))


def query_subsets(n_queries: int, size: int, *, trials: int, seed: int = 0, count: int = 1) -> np.ndarray:
    """``count`` disjoint subsets of ``size`` queries per trial, shape ``(count, trials, size)``; each size draws from
    its own stream (``SUBSET_STREAM``, ``size``), so that its subsets do not depend on the other sizes asked for."""
    if count * size > n_queries:
        raise ValueError(
            f"size must be at most 1/{count} of the {n_queries} queries to draw {count} disjoint subsets, got {size}"
        )
    rng = block_generator(seed, SUBSET_STREAM, size)
    order = rng.permuted(np.broadcast_to(np.arange(n_queries), (trials, n_queries)), axis=1)[:, : count * size]
    return order.reshape(trials, count, size).transpose(1, 0, 2)


@dataclass(frozen=True)
class Resamples:
    """``n_resamples`` weight vectors over ``n_queries`` queries, produced block by block: multinomial counts of
    queries drawn with replacement (``"bootstrap"``), random ``±1`` (``"sign-flip"``), or every sign vector with a
    ``+1`` first (``"exact"``, ``2**(n-1)`` of them; ``seed`` unused)."""

    kind: ResampleKind
    n_queries: int
    n_resamples: int
    seed: int

    @classmethod
    def build(cls, kind: str, *, n_queries: int, n_resamples: int = 1, seed: int = 0) -> Resamples:
        """The resamples (for ``"exact"``, ``n_resamples`` becomes ``2**(n-1)``); the caller checked the arguments."""
        if kind == "exact":
            if n_queries > EXACT_LIMIT:
                raise ValueError(
                    f"an exact sign-flip test enumerates 2**(n-1) patterns; n_queries = {n_queries} is more than "
                    f"the {EXACT_LIMIT} it allows (use the Monte Carlo test)"
                )
            return cls("exact", n_queries, 1 << (n_queries - 1), 0)
        return cls(kind, n_queries, n_resamples, seed)  # type: ignore[arg-type]

    def starts(self) -> range:
        """The first resample index of each block (its step: the rows per block)."""
        return range(0, self.n_resamples, EXACT_BLOCK if self.kind == "exact" else RESAMPLE_BLOCK)

    def block(self, k: int) -> np.ndarray:
        """The weights of block ``k``: a float64 array (rows x n_queries)."""
        start, step = self.starts()[k], self.starts().step
        rows, n = min(step, self.n_resamples - start), self.n_queries
        if self.kind == "exact":
            patterns = np.arange(start, start + rows, dtype=np.int64)[:, None]
            bits = (patterns >> np.arange(n - 1, dtype=np.int64)[None, :]) & 1
            signs = np.ones((rows, n))
            signs[:, 1:] = 1.0 - 2.0 * bits
            return signs
        stream = BOOTSTRAP_STREAM if self.kind == "bootstrap" else SIGN_FLIP_STREAM
        rng = block_generator(self.seed, stream, k)
        if self.kind == "sign-flip":
            return 1.0 - 2.0 * rng.integers(0, 2, size=(rows, n)).astype(np.float64)
        drawn = rng.integers(0, n, size=(rows, n))
        flat = (drawn + n * np.arange(rows)[:, None]).ravel()
        return np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)

    def weighted_sums(self, values: np.ndarray, blocks: Sequence[np.ndarray] | None = None) -> np.ndarray:
        """``values @ W.T``: the resampled sums of each row of ``values`` (rows x B), with ``blocks`` if drawn."""
        out = np.empty((values.shape[0], self.n_resamples))
        for k, start in enumerate(self.starts()):
            block = blocks[k] if blocks is not None else self.block(k)
            out[:, start : start + block.shape[0]] = values @ block.T
        return out


def map_in_threads(function: Callable[[T], R], items: Iterable[T], n_jobs: int) -> list[R]:
    """``[function(item) for item in items]``, in that order, on ``n_jobs`` threads (numpy's heavy calls release the
    GIL). With several workers BLAS runs on one thread per worker (threadpoolctl, when installed), so that workers
    and BLAS threads do not compete for the same cores."""
    items = list(items)
    if n_jobs == 1 or len(items) <= 1:
        return [function(item) for item in items]
    try:
        from threadpoolctl import threadpool_limits

        one_blas_thread: Any = threadpool_limits(1, user_api="blas")
    except ImportError:  # pragma: no cover - threadpoolctl is optional
        one_blas_thread = contextlib.nullcontext()
    with one_blas_thread, ThreadPoolExecutor(max_workers=min(n_jobs, len(items))) as pool:
        return list(pool.map(function, items))
