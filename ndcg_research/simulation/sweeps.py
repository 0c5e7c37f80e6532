"""Sweeps over list length, rankers, discounts and replicates: a :class:`Sweep` runs through :func:`run_sweep` in
chunks of replicates, in parallel and cached; :class:`SweepResult` gives tidy tables with the statistics of
:mod:`ndcg_research.stats`. :class:`~.cutoff.CutoffSweep` adds cut-off rules.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from .._validation import check_int, check_real
from ..core import parse_discount, parse_gain
from ..stats import TIE_TOLERANCE, mean_interval
from ..stats._replication import bootstrap_statistic_interval, paired_comparison
from . import theory
from .model import check_items, parse_model, parse_ranker, spec_list
from .replicates import CHUNK_ITEMS, Chunk, code_fingerprint, plan_chunks, replicate_counts, run_chunks, seed_sequence
from .simulate import replicate_ndcg
from .tables import grid_table

if TYPE_CHECKING:
    from .replicates import ChunkRun

#: The discounts of the theory experiments, fastest decay first.
DEFAULT_DISCOUNTS: tuple[str, ...] = (
    "power(beta=2)",
    "geometric(p=0.5)",
    "zipf",
    "power(beta=0.5)",
    "log2",
    "logpower(gamma=0.5)",
    "loglog",
    "none",
)
#: Rankers in their order of quality (coarse is only known to be below bayes).
DEFAULT_RANKERS: tuple[str, ...] = ("bayes", "noisy(sigma=0.5)", "noisy(sigma=1)", "coarse(bins=4)", "random")
#: Pairs compared in the distinguishability tables: (better, worse) by construction.
DEFAULT_PAIRS: tuple[tuple[str, str], ...] = (
    ("bayes", "noisy(sigma=0.5)"),
    ("noisy(sigma=0.5)", "noisy(sigma=1)"),
    ("bayes", "coarse(bins=4)"),
    ("noisy(sigma=1)", "random"),
)


def distinct_specs(what: str, specs: Iterable[str]) -> tuple[str, ...]:
    """Canonical specs as a tuple, which must be non-empty and without repeats (``what``: plural, e.g. "rankers")."""
    specs = tuple(specs)
    if not specs or len(set(specs)) != len(specs):
        raise ValueError(f"{what} must be a non-empty list of distinct {what}, got {list(specs)!r}")
    return specs


def ranker_pairs(pairs: Iterable[Sequence[str]], rankers: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Canonical (better, worse) ranker pairs, both among the canonical ``rankers``."""
    out = []
    for pair in pairs:
        if isinstance(pair, str) or len(pair) != 2:
            raise ValueError(f"pairs: each pair must be (better, worse), got {pair!r}")
        better, worse = (str(parse_ranker(r)) for r in pair)
        for r in (better, worse):
            if r not in rankers:
                raise ValueError(f"pairs: ranker {r!r} of pair {pair!r} is not among rankers {list(rankers)}")
        out.append((better, worse))
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class Design:
    """What every simulated experiment fixes before it draws a number: model, rankers, discounts, pairs, seed, gain
    (the base of :class:`Sweep` and of the stream study of notebook 06)."""

    model: str
    rankers: tuple[str, ...]
    discounts: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    seed: int
    gain: str = "linear"

    #: Fields that say how many data sets there are or which summaries to make, not what a data set's
    #: values are: :meth:`key` leaves them out, so that more replicates reuse the cached ones.
    UNKEYED: ClassVar[tuple[str, ...]] = ("pairs",)
    CACHE_PREFIX: ClassVar[str] = ""  #: start of the name of the cache folder of :func:`run_design`

    @staticmethod
    def canonical_fields(
        model: str,
        *,
        rankers: Iterable[str],
        discounts: Iterable[str],
        pairs: Iterable[Sequence[str]],
        seed: int,
        gain: str = "linear",
    ) -> dict[str, Any]:
        """The fields of a :class:`Design`, checked and in canonical spelling (pairs: (better, worse) among rankers;
        seed: an int, as the cache key writes it)."""
        ranker_specs = distinct_specs("rankers", (str(parse_ranker(r)) for r in spec_list(rankers, "rankers")))
        discount_specs = (str(parse_discount(d, builtin_only=True)) for d in spec_list(discounts, "discounts"))
        return dict(
            model=str(parse_model(model)),
            rankers=ranker_specs,
            discounts=distinct_specs("discounts", discount_specs),
            pairs=ranker_pairs(pairs, ranker_specs),
            seed=check_int(seed, "seed", low=0),
            gain=str(parse_gain(gain, builtin_only=True)),
        )

    def key_fields(self) -> dict[str, Any]:
        """Every field but the :attr:`UNKEYED` ones: what fixes the values of a data set."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in self.UNKEYED}

    def key(self) -> str:
        """Hash of :meth:`key_fields` and of the code of the design's module and of everything it imports."""
        spec = {**self.key_fields(), "code": code_fingerprint(type(self).__module__)}
        return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]

    def compute_chunk(self, chunk: Chunk) -> np.ndarray:
        """The values of the data sets of ``chunk``, one row each (in the subclasses)."""
        raise NotImplementedError

    def row_shape(self) -> tuple[int, ...]:
        """The shape of one data set's values, a row of :meth:`compute_chunk` (in the subclasses)."""
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class Sweep(Design):
    """One experiment on independent data sets: a :class:`Design` and list lengths with replicates (:meth:`build`)."""

    ns: tuple[int, ...]
    replicates: tuple[int, ...]

    UNKEYED: ClassVar[tuple[str, ...]] = ("ns", "replicates", "pairs")

    @classmethod
    def build(
        cls,
        model: str,
        *,
        ns: Iterable[int],
        replicates: int | Sequence[int] | Mapping[int, int],
        seed: int,
        rankers: Iterable[str] = DEFAULT_RANKERS,
        discounts: Iterable[str] = DEFAULT_DISCOUNTS,
        pairs: Iterable[Sequence[str]] = DEFAULT_PAIRS,
        gain: str = "linear",
        **more: Any,
    ) -> Sweep:
        """Check and canonicalise a sweep (``replicates`` as :func:`replicate_counts`; ``**more``: subclass fields)."""
        ns_sorted, counts = replicate_counts(ns, replicates)
        for n in ns_sorted:  # refused here, not in a worker: every data set holds n-long arrays
            check_items(n, "list length in ns", symbol="n")
        design = cls.canonical_fields(model, rankers=rankers, discounts=discounts, pairs=pairs, seed=seed, gain=gain)
        return cls(ns=ns_sorted, replicates=counts, **design, **more)

    def axes(self) -> dict[str, tuple[str, ...]]:
        """Names and labels of the axes of one replicate's values (after the replicate axis)."""
        return {"ranker": self.rankers, "discount": self.discounts}

    def row_shape(self) -> tuple[int, ...]:
        """One replicate's values: a number per label of each of the :meth:`axes`."""
        return tuple(len(labels) for labels in self.axes().values())

    def canonical(self, axis: str, label: str) -> str:
        """The canonical spelling of a label of one of the :meth:`axes`, e.g. ``"noisy(sigma=1)"``."""
        parse = {"ranker": parse_ranker, "discount": parse_discount}
        if axis not in parse:
            raise ValueError(f"axis must be one of {list(self.axes())}, got {axis!r}")
        return str(parse[axis](label))

    def chunks(self, chunk_items: int = CHUNK_ITEMS) -> list[Chunk]:
        """Work units: consecutive replicates of one n."""
        return plan_chunks(self.ns, self.replicates, chunk_items)

    def compute_chunk(self, chunk: Chunk) -> np.ndarray:
        """nDCG values of the replicates of ``chunk``: shape (replicates, rankers, discounts)."""
        args, replicates = (self.model, self.rankers, self.discounts, chunk.n), range(chunk.start, chunk.stop)
        return np.stack([replicate_ndcg(*args, seed=self.seed, replicate=r, gain=self.gain) for r in replicates])

    def annotate(self, table: pd.DataFrame) -> pd.DataFrame:
        """Add the model, each discount's decay, for pairs eps_D(n), and the seed (replications apart) to a table."""
        table.insert(0, "model", self.model)
        decay = {d: parse_discount(d).decay for d in self.discounts}
        table.insert(table.columns.get_loc("discount") + 1, "decay", table["discount"].map(decay))
        if "better" in table:
            table["eps"] = [float(theory.eps(d, float(n))) for d, n in zip(table["discount"], table["n"], strict=False)]
        table["seed"] = self.seed
        return table


@dataclass
class SweepResult:
    """nDCG values of a sweep: ``values[n]`` has shape (replicates, *axes) (:meth:`Sweep.axes`), and chunk counts."""

    sweep: Sweep
    values: dict[int, np.ndarray]
    computed_chunks: int = 0
    reused_chunks: int = 0

    def ndcg(self, ranker: str, discount: str, n: int, **more: str) -> np.ndarray:
        """The nDCG of one ranker under one discount in every replicate at n (a cut-off sweep also needs ``rule=``)."""
        extra = [name for name in self.sweep.axes() if name not in ("ranker", "discount")]
        if sorted(more) != sorted(extra):
            raise TypeError(f"ndcg() of this sweep needs the keyword argument(s) {extra}, got {sorted(more)}")
        if check_int(n, "n") not in self.values:
            raise ValueError(f"n {n!r} is not in this sweep, whose ns are {list(self.sweep.ns)}")
        wanted = {"ranker": ranker, "discount": discount, **more}
        index = []
        for axis, labels in self.sweep.axes().items():
            label = self.sweep.canonical(axis, wanted[axis])
            if label not in labels:
                raise ValueError(f"{axis} {label!r} is not in this sweep, whose {axis}s are {list(labels)}")
            index.append(labels.index(label))
        return self.values[n][(slice(None), *index)]

    def ranker_table(self) -> pd.DataFrame:
        """One row per (discount, ranker, n): mean nDCG with its 95% t-interval, and its sd."""
        return self.sweep.annotate(self._table(mean_interval, self.sweep.axes()))

    def pair_table(self, tie_tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
        """One row per (discount, pair, n): ``stats._replication.paired_comparison`` of better - worse
        (``tie_tolerance`` finite and >= 0)."""
        s, tie_tolerance = self.sweep, check_real(tie_tolerance, "tie_tolerance", low=0)
        better = [s.rankers.index(b) for b, _ in s.pairs]
        worse = [s.rankers.index(w) for _, w in s.pairs]
        axes = {"pair": s.pairs, **{k: v for k, v in s.axes().items() if k != "ranker"}}
        table = self._table(lambda v: paired_comparison(v[:, better], v[:, worse], tie_tolerance=tie_tolerance), axes)
        position = table.columns.get_loc("pair")
        pairs = table.pop("pair")
        table.insert(position, "worse", [w for _, w in pairs])
        table.insert(position, "better", [b for b, _ in pairs])
        return self.sweep.annotate(table)

    def ratio_table(
        self,
        numerator: str,
        denominator: str,
        *,
        statistic: str = "std_gap",
        seed: int,
        n_resamples: int = 2000,
        tie_tolerance: float = TIE_TOLERANCE,
    ) -> pd.DataFrame:
        """Per (pair, n): the ratio of a pair ``statistic`` (``"std_gap"`` or ``"mean_gap"``) under two discounts, with
        a bootstrap interval over the data sets seeded by ``(seed, pair number, n)``; ``tie_tolerance`` finite, >= 0."""
        tie_tolerance = check_real(tie_tolerance, "tie_tolerance", low=0)
        if set(self.sweep.axes()) != {"ranker", "discount"}:
            raise TypeError(f"ratio_table needs a sweep over rankers and discounts only, not {list(self.sweep.axes())}")
        if statistic not in ("std_gap", "mean_gap"):
            raise ValueError(f"statistic must be 'std_gap' or 'mean_gap', got {statistic!r}")
        top, bottom = (self.sweep.canonical("discount", d) for d in (numerator, denominator))

        def ratio(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
            if statistic == "mean_gap":
                return a.mean(axis) / b.mean(axis)
            return (a.mean(axis) / a.std(axis, ddof=1)) / (b.mean(axis) / b.std(axis, ddof=1))

        rows = []
        for number, (better, worse) in enumerate(self.sweep.pairs):
            for n in self.sweep.ns:
                gaps = (self.ndcg(better, d, n) - self.ndcg(worse, d, n) for d in (top, bottom))
                a, b = (np.where(np.abs(gap) <= tie_tolerance, 0.0, gap) for gap in gaps)  # ties snapped to 0
                with np.errstate(divide="ignore", invalid="ignore"):
                    value, low, high = bootstrap_statistic_interval(
                        ratio, [a, b], seed=seed_sequence(seed, number, n), n_resamples=n_resamples
                    )
                rows.append((self.sweep.model, better, worse, n, a.size, top, bottom, statistic, value, low, high))
        columns = "model better worse n replicates numerator denominator statistic ratio ratio_low ratio_high"
        return pd.DataFrame(rows, columns=columns.split())

    def _table(self, summarize: Any, axes: dict[str, Sequence[Any]]) -> pd.DataFrame:
        ns = self.sweep.ns
        summaries = [summarize(self.values[n]) for n in ns]
        # Rows by the last axis first (rule, discount, ranker or pair), n last.
        order = [("pair" if a == "ranker" and "pair" in axes else a) for a in reversed(self.sweep.axes())]
        names = [*axes, "n"]
        permutation = [names.index(a) for a in (*order, "n")]
        shape = (*(len(axes[a]) for a in order), len(ns))
        columns: dict[str, Any] = {"replicates": np.broadcast_to([self.values[n].shape[0] for n in ns], shape)}
        for name in summaries[0]:
            columns[name] = np.stack([s[name] for s in summaries], axis=-1).transpose(permutation)
        return grid_table({**{a: list(axes[a]) for a in order}, "n": list(ns)}, columns)


def run_sweep(
    sweep: Sweep,
    *,
    n_jobs: int = 1,
    backend: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    chunk_items: int = CHUNK_ITEMS,
) -> SweepResult:
    """Compute (or load from ``cache_dir/<key>``) every chunk of a sweep; see :func:`~.replicates.run_chunks`."""
    if not isinstance(sweep, Sweep):
        raise TypeError(f"sweep must be a Sweep (see Sweep.build), got {type(sweep).__name__}")
    run = run_design(sweep, sweep.chunks(chunk_items), cache_dir, n_jobs=n_jobs, backend=backend, progress=progress)
    return SweepResult(sweep, run.values, computed_chunks=run.computed, reused_chunks=run.reused)


def run_design(
    design: Design, chunks: Sequence[Chunk], cache_dir: str | os.PathLike[str] | None, **options: Any
) -> ChunkRun:
    """:func:`~.replicates.run_chunks` of ``design.compute_chunk``, cached in ``cache_dir/<CACHE_PREFIX><key>``."""
    cache = None if cache_dir is None else Path(cache_dir) / f"{design.CACHE_PREFIX}{design.key()}"
    description = {**design.key_fields(), "kind": type(design).__name__}
    return run_chunks(
        design.compute_chunk,
        chunks,
        cache=cache,
        description=description,
        label=design.model,
        row_shape=design.row_shape(),
        **options,
    )
