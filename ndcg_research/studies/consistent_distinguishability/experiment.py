r"""Consistent distinguishability, in the two readings its one-line description allows (notebook 09).

Wang et al. (COLT 2013) call a ranking measure *consistently distinguishing* when, "for every pair of substantially
different ranking functions, the ranking measure can decide which one is better in a consistent manner on almost all
datasets" (their abstract; the full text, with the formal definition and theorems, could not be obtained for this
package, see notebook 09). "Tends to 1" is the weakest reading of that sentence; a formal definition is stronger in one
of two ways, and this module measures both:

(a) **The failure probability is negligible.** ``1 - P(better ranker scores strictly higher)`` on a data set of n items
    falls faster than any power of n. Measured on independent data sets per n (a
    :class:`~ndcg_research.simulation.sweeps.Sweep`): :func:`failure_table` adds the failure probability with its Wilson
    interval and its normal approximation ``Phi(-d)``, d the standardized paired gap; :func:`growth_table` fits the
    exponent ``a`` of ``d ~ n^a`` over the upper half of the n grid. If the gap is close to normal, ``a > 0`` makes
    ``Phi(-c n^a)`` fall faster than every power of n.

(b) **The order holds eventually, along almost every growing sample.** A :class:`StreamStudy` follows data streams
    (:func:`~ndcg_research.simulation.simulate.stream_ndcg`: the data set of size n is the first n items of one stream)
    and records, on a grid of n, which ranker wins. :meth:`StreamResult.stability_table` gives, per starting point n0,
    the share of streams whose winner never changes on the grid from n0 to the end of the stream, and the share on which
    the better ranker wins at every grid point from n0; :meth:`StreamResult.change_table` the distribution of the last
    change point. A finite stream can show that the order settles within its horizon, not that it stays settled beyond
    it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
from scipy import stats

from ...core import parse_discount
from ...simulation.replicates import CHUNK_ITEMS, Chunk, plan_chunks, run_chunks
from ...simulation.simulate import stream_ndcg
from ...simulation.sweeps import DEFAULT_PAIRS, Design
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


def growth_table(
    pair_table: pd.DataFrame, *, keys: Sequence[str] = ("discount", "better", "worse"), confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Exponent ``a`` of the standardized gap ``d ~ c n^a``, fitted over the upper half of the n grid.

    Weighted least squares of ``ln d`` on ``ln n`` over the rows whose n is at least the median n of the group, with
    weights ``(d / std_gap_se)^2`` (the standard error of ``ln d`` is ``se(d) / d``); the interval is ``a ± z se(a)``.
    The fit needs ``d > 0`` at every such n: where the worse ranker is ahead on average (or the gap is undefined) at one
    of them, the exponent is NaN and ``positive`` is False.

    Returns pandas.DataFrame: one row per group of ``keys``: n_from, n_to, points, exponent, exponent_low,
    exponent_high, positive (``d > 0`` at every n fitted), vanishes_superpolynomially (``exponent_low > 0``: ``Phi(-d)``
    then falls faster than any power of n).
    """
    z = stats.norm.ppf(0.5 + confidence / 2)
    rows = []
    for key, group in pair_table.groupby(list(keys), sort=False):
        group = group.sort_values("n")
        upper = group[group["n"] >= group["n"].median()]
        d, se = upper["std_gap"].to_numpy(), upper["std_gap_se"].to_numpy()
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=False))
        row.update(n_from=int(upper["n"].min()), n_to=int(upper["n"].max()), points=len(upper))
        positive = bool(np.all(np.isfinite(d) & (d > 0)) and np.all(np.isfinite(se) & (se > 0)))
        exponent = low = high = np.nan
        if positive and len(upper) >= 2:
            x, y, w = np.log(upper["n"].to_numpy(dtype=np.float64)), np.log(d), (d / se) ** 2
            xm = np.average(x, weights=w)
            sxx = np.sum(w * (x - xm) ** 2)
            exponent = float(np.sum(w * (x - xm) * (y - np.average(y, weights=w))) / sxx)
            half = z / np.sqrt(sxx)
            low, high = exponent - half, exponent + half
        row.update(
            exponent=exponent,
            exponent_low=low,
            exponent_high=high,
            positive=positive,
            vanishes_superpolynomially=bool(positive and low > 0),
        )
        rows.append(row)
    return pd.DataFrame(rows)


def geometric_grid(n_min: int, n_max: int, per_doubling: int) -> list[int]:
    """Distinct integers from n_min to n_max, ``per_doubling`` per factor 2, both ends included."""
    if n_max <= n_min:
        raise ValueError(f"n_max must be larger than n_min, got {n_min} and {n_max}")
    steps = int(np.ceil(np.log2(n_max / n_min) * per_doubling))
    return sorted({int(round(v)) for v in np.geomspace(n_min, n_max, steps + 1)})


@dataclass(frozen=True, kw_only=True)
class StreamStudy(Design):
    """Data streams of one model: a :class:`~ndcg_research.simulation.sweeps.Design` whose data sets are the nested
    prefixes of each stream, with nDCG of its rankers under its discounts on each.

    Build it with :meth:`StreamStudy.build`; run it with :func:`run_streams`.
    """

    ns: tuple[int, ...]
    streams: int

    UNKEYED: ClassVar[tuple[str, ...]] = ("streams", "pairs")

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
        gain: str = "linear",
    ) -> StreamStudy:
        """Check and canonicalise a stream study (``ns``: the grid of prefix lengths, increasing; the other arguments as
        :meth:`~ndcg_research.simulation.sweeps.Design.canonical_fields`)."""
        ns = tuple(ns)
        if not ns or any(b <= a for a, b in zip(ns, ns[1:], strict=False)):
            raise ValueError(f"ns must be a non-empty increasing list of prefix lengths, got {list(ns)!r}")
        design = cls.canonical_fields(model, rankers=rankers, discounts=discounts, pairs=pairs, seed=seed, gain=gain)
        return cls(ns=ns, streams=streams, **design)

    def compute_chunk(self, chunk: Chunk) -> np.ndarray:
        """Values of the streams ``chunk.start .. chunk.stop - 1``: shape (streams, ns, rankers, discounts)."""
        return np.stack(
            [
                stream_ndcg(
                    self.model, self.rankers, self.discounts, self.ns, seed=self.seed, replicate=r, gain=self.gain
                )
                for r in range(chunk.start, chunk.stop)  # loop over streams
            ]
        )


@dataclass
class StreamResult:
    """nDCG on nested prefixes: ``values`` has shape (streams, len(ns), rankers, discounts)."""

    study: StreamStudy
    values: np.ndarray

    def winners(self, better: str, worse: str, discount: str, tie_tolerance: float = TIE_TOLERANCE) -> np.ndarray:
        """Sign of the gap better - worse at each grid n of each stream: +1, 0 (tie) or -1; (streams, ns)."""
        s = self.study
        d = s.discounts.index(str(parse_discount(discount)))
        gap = self.values[:, :, s.rankers.index(better), d] - self.values[:, :, s.rankers.index(worse), d]
        return np.where(np.abs(gap) <= tie_tolerance, 0, np.sign(gap)).astype(np.int8)

    def _cases(self, tie_tolerance: float) -> Iterator[tuple[dict[str, str], np.ndarray]]:
        """Per (discount, pair): the case's key columns and its :meth:`winners`."""
        for d in self.study.discounts:
            for better, worse in self.study.pairs:
                case = dict(model=self.study.model, discount=d, better=better, worse=worse)
                yield case, self.winners(better, worse, d, tie_tolerance)

    def stability_table(self, tie_tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
        """Per (discount, pair, n0): how many streams keep one winner, and the right one, from n0 on.

        Columns: model, discount, better, worse, n0, streams, p_stable (the winner is the same at every grid n >= n0)
        with its Wilson interval p_stable_low, p_stable_high, and p_settled (the better ranker wins strictly at every
        grid n >= n0) with p_settled_low, p_settled_high.
        """
        rows = []
        for case, w in self._cases(tie_tolerance):
            for i, n0 in enumerate(self.study.ns):
                tail = w[:, i:]
                stable = int(np.count_nonzero((tail == tail[:, :1]).all(axis=1)))
                settled = int(np.count_nonzero((tail == 1).all(axis=1)))
                (sl, sh), (tl, th) = wilson_interval(stable, len(w)), wilson_interval(settled, len(w))
                rows.append(
                    dict(
                        **case,
                        n0=int(n0),
                        streams=len(w),
                        p_stable=stable / len(w),
                        p_stable_low=sl,
                        p_stable_high=sh,
                        p_settled=settled / len(w),
                        p_settled_low=tl,
                        p_settled_high=th,
                    )
                )
        return pd.DataFrame(rows)

    def change_table(self, tie_tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
        """Per (discount, pair): where the streams last changed winner, and where the better ranker last failed.

        The last change point of a stream is the largest grid n whose winner differs from the winner at the previous
        grid n (the first grid n if none does); the last failure, the largest grid n at which the better ranker does not
        win strictly (0 if none).

        Columns: model, discount, better, worse, streams, n_first, n_last, never_changes (share of streams whose winner
        is the same at every grid n), change_median, change_q90, change_max (quantiles of the last change point),
        never_fails (share on which the better ranker wins at every grid n), fail_in_last_decade (share whose last
        failure is beyond n_last / 10), p_better_last (share won by the better ranker at the last grid n).
        """
        ns = np.array(self.study.ns)
        rows = []
        for case, w in self._cases(tie_tolerance):
            changed = w[:, 1:] != w[:, :-1]
            last_change = np.where(
                changed.any(axis=1), ns[1:][changed.shape[1] - 1 - np.argmax(changed[:, ::-1], axis=1)], ns[0]
            )
            failed = w != 1
            last_fail = np.where(failed.any(axis=1), ns[failed.shape[1] - 1 - np.argmax(failed[:, ::-1], axis=1)], 0)
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
    """Compute (or load from the cache) every stream of a study, in chunks of streams (``run_chunks``: the values do not
    depend on workers or chunks)."""
    if not isinstance(study, StreamStudy):
        raise TypeError(f"study must be a StreamStudy (see StreamStudy.build), got {type(study).__name__}")
    cache = None if cache_dir is None else Path(cache_dir) / f"streams-{study.key()}"
    chunks = plan_chunks([study.ns[-1]], [study.streams], chunk_items)
    run = run_chunks(
        study.compute_chunk,
        chunks,
        n_jobs=n_jobs,
        backend=backend,
        cache=cache,
        description={**study.key_fields(), "kind": "StreamStudy"},
        progress=progress,
        label=study.model,
    )
    return StreamResult(study, run.values[study.ns[-1]])
