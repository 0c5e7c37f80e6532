r"""Consistent distinguishability, in the two readings its one-line description allows (notebook 09).

Wang et al. (COLT 2013) call a measure *consistently distinguishing* when it "can decide which one is better in a
consistent manner on almost all datasets". Reading (a): the failure probability ``1 - P(better strictly higher)``
falls faster than any power of n (fresh data sets per n: :func:`failure_table`, :func:`growth_table`). Reading (b):
along almost every growing sample the order holds eventually (:class:`StreamStudy`: nested prefixes of data streams)."""

from __future__ import annotations

import functools
import itertools
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import check_int
from ...simulation.replicates import CHUNK_ITEMS, Chunk, plan_chunks
from ...simulation.scaling import upper_half
from ...simulation.simulate import prefix_lengths, stream_ndcg
from ...simulation.sweeps import DEFAULT_PAIRS, Design, run_design
from ...stats import CONFIDENCE, TIE_TOLERANCE, wilson_interval


def failure_table(pair_table: pd.DataFrame) -> pd.DataFrame:
    """The pair table with the failure probability ``p_fail = 1 - p_better`` (a tie is a failure), its Wilson interval
    ``p_fail_low``, ``p_fail_high``, and ``p_fail_normal = Phi(-std_gap)`` (what it would be were the gap normal)."""
    out = pair_table.copy()
    out["p_fail"] = 1 - out["p_better"]
    out["p_fail_low"] = 1 - out["p_better_high"]
    out["p_fail_high"] = 1 - out["p_better_low"]
    out["p_fail_normal"] = stats.norm.sf(out["std_gap"])
    return out


def growth_table(pair_table: pd.DataFrame) -> pd.DataFrame:
    """Exponent ``a`` of the standardized gap ``d ~ c n^a`` per (discount, pair): weighted least squares of ``ln d`` on
    ``ln n`` (weights ``(d / std_gap_se)^2``) over the upper half of the n grid; NaN unless ``d > 0`` at every such n
    (``positive``). ``vanishes_superpolynomially``: ``exponent_low > 0``, so ``Phi(-d)`` falls faster than any power."""
    z, keys = stats.norm.ppf(0.5 + CONFIDENCE / 2), ["discount", "better", "worse"]
    rows = []
    for key, group in pair_table.groupby(keys, sort=False):
        upper = upper_half(group)
        d, se = upper["std_gap"].to_numpy(), upper["std_gap_se"].to_numpy()
        positive = bool(np.all(np.isfinite(d) & (d > 0)) and np.all(np.isfinite(se) & (se > 0)))
        exponent = low = high = np.nan
        if positive and len(upper) >= 2:
            x = np.log(upper["n"].to_numpy(dtype=np.float64))
            coef, cov = np.polyfit(x, np.log(d), 1, w=d / se, cov="unscaled")  # weights of ln d: (d / se)^2
            exponent, half = float(coef[0]), z * math.sqrt(cov[0, 0])
            low, high = exponent - half, exponent + half
        ends = (int(upper["n"].min()), int(upper["n"].max()), len(upper))
        rows.append((*key, *ends, exponent, low, high, positive, bool(positive and low > 0)))
    columns = "n_from n_to points exponent exponent_low exponent_high positive vanishes_superpolynomially"
    return pd.DataFrame(rows, columns=[*keys, *columns.split()])


def geometric_grid(n_min: int, n_max: int, per_doubling: int) -> list[int]:
    """Distinct integers from n_min to n_max, ``per_doubling`` per factor 2, both ends included."""
    if n_max <= n_min:
        raise ValueError(f"n_max must be larger than n_min, got {n_min} and {n_max}")
    steps = int(np.ceil(np.log2(n_max / n_min) * per_doubling))
    return sorted({int(round(v)) for v in np.geomspace(n_min, n_max, steps + 1)})


@dataclass(frozen=True, kw_only=True)
class StreamStudy(Design):
    """Data streams of one model: a :class:`~ndcg_research.simulation.sweeps.Design` whose data sets are the nested
    prefixes of each stream (build it with :meth:`build`, run it with :func:`run_streams`)."""

    ns: tuple[int, ...]
    streams: int

    UNKEYED: ClassVar[tuple[str, ...]] = ("streams", "pairs")
    CACHE_PREFIX: ClassVar[str] = "streams-"

    @classmethod
    def build(
        cls,
        model: str,
        *,
        ns: Iterable[int],
        streams: int,
        seed: int,
        rankers: Iterable[str] = ("bayes", "noisy(sigma=0.5)", "noisy(sigma=1)"),
        discounts: Iterable[str] = ("log2",),
        pairs: Iterable[Sequence[str]] = DEFAULT_PAIRS[:2],
    ) -> StreamStudy:
        """Check and canonicalise a stream study (``ns``: the increasing grid of prefix lengths)."""
        design = cls.canonical_fields(model, rankers=rankers, discounts=discounts, pairs=pairs, seed=seed)
        return cls(ns=prefix_lengths(ns), streams=check_int(streams, "streams", low=1), **design)

    def compute_chunk(self, chunk: Chunk) -> np.ndarray:
        """Values of the streams ``chunk.start .. chunk.stop - 1``: shape (streams, ns, rankers, discounts)."""
        stream = functools.partial(stream_ndcg, self.model, self.rankers, self.discounts, self.ns, seed=self.seed)
        return np.stack([stream(replicate=r, gain=self.gain) for r in range(chunk.start, chunk.stop)])

    def row_shape(self) -> tuple[int, ...]:
        """One stream's values: (ns, rankers, discounts)."""
        return len(self.ns), len(self.rankers), len(self.discounts)


@dataclass
class StreamResult:
    """nDCG on nested prefixes: ``values`` has shape (streams, len(ns), rankers, discounts)."""

    study: StreamStudy
    values: np.ndarray

    def _cases(self) -> Iterator[tuple[dict[str, str], np.ndarray]]:
        """Per (discount, pair): the case's key columns and the winner at each grid n of each stream, (streams, ns):
        +1 (better), 0 (a tie, within ``TIE_TOLERANCE``) or -1."""
        s = self.study
        for d, (better, worse) in itertools.product(range(len(s.discounts)), s.pairs):
            gap = self.values[:, :, s.rankers.index(better), d] - self.values[:, :, s.rankers.index(worse), d]
            case = dict(model=s.model, discount=s.discounts[d], better=better, worse=worse)
            yield case, np.where(np.abs(gap) <= TIE_TOLERANCE, 0, np.sign(gap)).astype(np.int8)

    def stability_table(self) -> pd.DataFrame:
        """Per (discount, pair, n0): the share of streams whose winner is the same at every grid n >= n0 (``p_stable``)
        and on which the better ranker wins at every such n (``p_settled``), with Wilson intervals."""
        rows = []
        for case, w in self._cases():
            for i, n0 in enumerate(self.study.ns):
                tail, row = w[:, i:], dict(**case, n0=int(n0), streams=len(w))
                for name, held in (("p_stable", tail == tail[:, :1]), ("p_settled", tail == 1)):
                    count = int(np.count_nonzero(held.all(axis=1)))
                    low, high = wilson_interval(count, len(w))
                    row |= {name: count / len(w), f"{name}_low": low, f"{name}_high": high}
                rows.append(row)
        return pd.DataFrame(rows)

    def change_table(self) -> pd.DataFrame:
        """Per (discount, pair): quantiles of the streams' last change of winner (the first grid n if none), and the
        shares that never change, never fail, and last fail beyond ``n_last / 10``."""
        ns = np.array(self.study.ns)
        rows = []
        for case, w in self._cases():
            changed, failed = w[:, 1:] != w[:, :-1], w != 1
            last_change = np.where(changed, ns[1:], ns[0]).max(axis=1)  # the grid increases: the last is the largest
            last_fail = np.where(failed, ns, 0).max(axis=1)
            rows.append(
                dict(
                    **case,
                    streams=len(w),
                    n_first=int(ns[0]),
                    n_last=int(ns[-1]),
                    never_changes=float(np.mean(~changed.any(axis=1))),
                    change_median=float(np.median(last_change)),
                    change_q90=float(np.quantile(last_change, 0.9)),
                    change_max=float(last_change.max()),
                    never_fails=float(np.mean(~failed.any(axis=1))),
                    fail_in_last_decade=float(np.mean(last_fail > ns[-1] / 10)),
                    p_better_last=float(np.mean(w[:, -1] == 1)),
                )
            )
        return pd.DataFrame(rows)


def run_streams(
    study: StreamStudy,
    *,
    n_jobs: int = 1,
    backend: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    chunk_items: int = CHUNK_ITEMS,
) -> StreamResult:
    """Compute (or load from the cache) every stream of a study, in chunks of streams (``run_design``)."""
    if not isinstance(study, StreamStudy):
        raise TypeError(f"study must be a StreamStudy (see StreamStudy.build), got {type(study).__name__}")
    chunks = plan_chunks([study.ns[-1]], [study.streams], chunk_items)
    run = run_design(study, chunks, cache_dir, n_jobs=n_jobs, backend=backend, progress=progress)
    return StreamResult(study, run.values[study.ns[-1]])
