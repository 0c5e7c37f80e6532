"""The experiment of notebook 16 (replicates of each model at each n, in seeded chunks: the values depend neither on
the chunking nor on the workers) and the tables its findings read."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ...simulation.model import stable_id
from ...simulation.replicates import Chunk, plan_chunks, run_chunks, seed_sequence
from ...stats import TIE_TOLERANCE
from ...stats._replication import bootstrap_statistic_interval, paired_comparison
from . import findings
from .models import SparseModel, TwoFeatureModel, profile_crossings, random_expected_ndcg, random_limit
from .simulate import Model, relevant_rank_lists, replicate_ndcg

#: Items (list length x replicates) per chunk of work handed to a worker.
CHUNK_ITEMS = 4_000_000
#: Last element of the spawn key of the bootstrap resamples (data sets use 0 or a ranker's odd stream).
BOOTSTRAP_STREAM = 2


@dataclass(frozen=True)
class Experiment:
    """One model, its rankers and discounts, the list lengths and data sets per length, and the seed."""

    model: Model
    rankers: tuple[str, ...]
    discounts: tuple[str, ...]
    ns: tuple[int, ...]
    replicates: tuple[int, ...]
    seed: int

    def __post_init__(self) -> None:
        if len(self.ns) != len(self.replicates) or list(self.ns) != sorted(set(self.ns)):
            raise ValueError(
                f"ns must be increasing and distinct, with one replicate count each: {self.ns}, {self.replicates}"
            )


def _chunk(e: Experiment, chunk: Chunk) -> np.ndarray:
    n, start, stop = chunk
    return np.stack(
        [replicate_ndcg(e.model, e.rankers, e.discounts, n, seed=e.seed, replicate=r) for r in range(start, stop)]
    )


def run(experiment: Experiment, *, n_jobs: int = 1) -> dict[int, np.ndarray]:
    """nDCG of every data set: ``values[n]`` of shape (replicates, rankers, discounts)."""
    chunks = plan_chunks(experiment.ns, experiment.replicates, CHUNK_ITEMS)
    return run_chunks(functools.partial(_chunk, experiment), chunks, n_jobs=n_jobs, progress=False).values


def ndcg_table(experiment: Experiment, values: dict[int, np.ndarray]) -> pd.DataFrame:
    """Mean nDCG per (discount, ranker, n) with sd, standard error and 95% t interval; for the random ranker of a
    sparse model also ``exact`` (its exact expectation), ``z`` (the mean against it in standard errors) and
    ``limit`` (n -> infinity), NaN elsewhere."""
    model, rows = experiment.model, []
    cells = itertools.product(enumerate(experiment.discounts), enumerate(experiment.rankers), experiment.ns)
    for (d_index, discount), (r_index, ranker), n in cells:
        v = values[n][:, r_index, d_index]
        mean, sd = float(v.mean()), float(v.std(ddof=1))
        se = sd / math.sqrt(v.size)
        half = float(stats.t.ppf(0.975, v.size - 1)) * se
        exact = limit = math.nan
        if isinstance(model, SparseModel) and ranker == "random":
            exact, limit = random_expected_ndcg(model, discount, n), random_limit(model, discount)
        z = (mean - exact) / se if se > 0 else math.nan
        rows.append(
            dict(model=model.label, kind=model.kind, discount=discount, ranker=ranker, n=n, replicates=v.size)
            | dict(mean=mean, sd=sd, se=se, ci_low=mean - half, ci_high=mean + half, exact=exact, z=z)
            | dict(limit=limit, seed=experiment.seed)
        )
    return pd.DataFrame(rows)


def pair_table(experiment: Experiment, values: dict[int, np.ndarray], pairs: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """Paired comparison per (discount, pair, n): mean gap, standardized gap, P(first scores strictly higher)."""
    model, rows = experiment.model, []
    cells = itertools.product(enumerate(experiment.discounts), pairs, experiment.ns)
    for (d_index, discount), (first, second), n in cells:
        i, j = experiment.rankers.index(first), experiment.rankers.index(second)
        out = paired_comparison(values[n][:, i, d_index].copy(), values[n][:, j, d_index].copy())
        head = dict(model=model.label, kind=model.kind, discount=discount, first=first, second=second, n=n)
        numbers = {k: float(v) for k, v in out.items()}
        rows.append(dict(head, replicates=values[n].shape[0], **numbers, seed=experiment.seed))
    return pd.DataFrame(rows)


def standardized_gap(gaps: np.ndarray, axis: int = -1) -> np.ndarray:
    """mean / sd (ddof 1) of paired gaps along ``axis``; NaN where every gap is equal."""
    mean, sd = gaps.mean(axis=axis), gaps.std(axis=axis, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sd > 0, mean / sd, np.nan)


def _ratio(denominator: np.ndarray, numerator: np.ndarray, axis: int = -1) -> np.ndarray:
    return standardized_gap(numerator, axis) / standardized_gap(denominator, axis)


def call(ratio_low: float, ratio_high: float, resolved: bool, floor: float) -> str:
    """The call of one cell by the rule of ``findings.toml``: refutes, supports, unresolved or not judged."""
    if not resolved:
        return "not judged"
    if ratio_high < floor:
        return "refutes"
    return "supports" if ratio_low > floor else "unresolved"


def ratio_table(
    experiment: Experiment,
    values: dict[int, np.ndarray],
    pairs: Sequence[tuple[str, str]],
    *,
    n_resamples: int | None = None,
) -> pd.DataFrame:
    """Per (pair, n): standardized gaps under log2 (the denominator) and loglog (the numerator), their ratio, 95%
    percentile bootstrap intervals over the data sets, and the rule's call (:func:`call`, threshold ``ratio_floor``)."""
    resamples = int(n_resamples if n_resamples is not None else findings.threshold("bootstrap_resamples"))
    interval = functools.partial(bootstrap_statistic_interval, n_resamples=resamples)
    floor = findings.threshold("ratio_floor")
    dn, dd = experiment.discounts.index("loglog"), experiment.discounts.index("log2")
    model, seed, rows = experiment.model, experiment.seed, []
    for (p_index, (first, second)), n in itertools.product(enumerate(pairs), experiment.ns):
        gaps = values[n][:, experiment.rankers.index(first), :] - values[n][:, experiment.rankers.index(second), :]
        gaps[np.abs(gaps) <= TIE_TOLERANCE] = 0.0  # the package's one definition of equal nDCG
        low_gaps, high_gaps = gaps[:, dd], gaps[:, dn]
        key = (stable_id(str(model)), n, p_index, BOOTSTRAP_STREAM)
        d, d_low, d_high = interval(standardized_gap, [low_gaps], seed=seed_sequence(seed, *key, 0))
        ratio, r_low, r_high = (math.nan,) * 3
        if not (np.all(low_gaps == 0) or np.all(high_gaps == 0)):
            ratio, r_low, r_high = interval(_ratio, [low_gaps, high_gaps], seed=seed_sequence(seed, *key, 1))
        resolved = bool(d_low > 0 or d_high < 0)
        rows.append(
            dict(model=model.label, kind=model.kind, first=first, second=second, n=n, replicates=low_gaps.size)
            | dict(denominator="log2", numerator="loglog", d_denominator=d, d_denominator_low=d_low)
            | dict(d_denominator_high=d_high, d_numerator=float(standardized_gap(high_gaps)), ratio=ratio)
            | dict(ratio_low=r_low, ratio_high=r_high, resolved=resolved, call=call(r_low, r_high, resolved, floor))
            | dict(seed=seed)
        )
    return pd.DataFrame(rows)


def crossing_table(model: TwoFeatureModel, rankers: Sequence[str]) -> pd.DataFrame:
    """Every pair of rankers with the depths t where their profiles cross, and whether it is studied
    (``min_crossings`` depths or more)."""
    minimum = int(findings.threshold("min_crossings"))
    depths = {(a, b): profile_crossings(model, a, b) for a, b in itertools.combinations(rankers, 2)}
    return pd.DataFrame(
        dict(first=a, second=b, crossings=len(t), depths=", ".join(f"{v:.4f}" for v in t), studied=len(t) >= minimum)
        for (a, b), t in depths.items()
    )


def constants_table(model: TwoFeatureModel, rankers: Sequence[str]) -> pd.DataFrame:
    """Per ranker: the first-order constant c_f (slowly varying discounts) and the limit under power(beta=0.5)."""
    table = {"ranker": list(rankers), "c_f": [model.first_order_constant(r) for r in rankers]}
    table["power_half_limit"] = [model.power_limit(r, 0.5) for r in rankers]
    return pd.DataFrame(table).assign(p=model.mean_gain)


def rank_bins(
    model: TwoFeatureModel, rankers: Sequence[str], n: int, *, seed: int, replicates: int, bins: int
) -> np.ndarray:
    """Share of relevant items in each of ``bins`` equal bins of rank, per data set and ranker: (replicates,
    rankers, bins). The data sets are those of :func:`~.simulate.replicate_ndcg` with the same seed."""
    edges = np.linspace(0, n, bins + 1).round().astype(int)
    out = np.empty((replicates, len(rankers), bins))
    for replicate in range(replicates):  # loop over data sets
        for i, ranks in enumerate(relevant_rank_lists(model, rankers, n, seed=seed, replicate=replicate)):
            out[replicate, i] = np.histogram(ranks, bins=edges + 0.5)[0] / np.diff(edges)
    return out


def rank_bin_table(model: TwoFeatureModel, rankers: Sequence[str], shares: np.ndarray, n: int) -> pd.DataFrame:
    """Simulated share of relevant items per rank bin against the exact expected gain by rank (z, outside)."""
    bins = shares.shape[2]
    edges = np.linspace(0, n, bins + 1).round().astype(int)
    limit = findings.threshold("exact_agreement_z")
    rows = []
    for i, ranker in enumerate(rankers):
        exact = np.add.reduceat(model.rank_gains(ranker, n), edges[:-1]) / np.diff(edges)
        for b in range(bins):
            v = shares[:, i, b]
            se = float(v.std(ddof=1) / math.sqrt(v.size))
            z = (float(v.mean()) - exact[b]) / se if se > 0 else math.nan
            rows.append(
                dict(ranker=ranker, bin=b + 1, rank_from=edges[b] + 1, rank_to=edges[b + 1], n=n, replicates=v.size)
                | dict(simulated=float(v.mean()), se=se, exact=float(exact[b]), z=z, outside=bool(abs(z) > limit))
            )
    return pd.DataFrame(rows)


def summarise(
    experiments: Sequence[Experiment],
    values: Sequence[dict[int, np.ndarray]],
    pairs: Sequence[tuple[str, str]] | None = None,
) -> dict[str, pd.DataFrame]:
    """The ``ndcg``, ``pairs`` and ``ratios`` tables of several experiments stacked (pairs: consecutive rankers)."""
    out: dict[str, list[pd.DataFrame]] = {"ndcg": [], "pairs": [], "ratios": []}
    for experiment, v in zip(experiments, values, strict=True):
        chosen = list(pairs) if pairs is not None else list(itertools.pairwise(experiment.rankers))
        out["ndcg"].append(ndcg_table(experiment, v))
        out["pairs"].append(pair_table(experiment, v, chosen))
        out["ratios"].append(ratio_table(experiment, v, chosen))
    return {name: pd.concat(frames, ignore_index=True) for name, frames in out.items()}
