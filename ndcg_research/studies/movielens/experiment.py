"""The questions of notebook 08 asked of a :class:`~.problems.RankingProblem`.

nDCG of a system's ranking of the candidate list (or a sample of it), ties averaged (McSherry & Najork 2008), the ideal
from the grades of that list (trec_eval's, since it holds every relevant item); NaN where a list has no relevant item.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

import numpy as np
import pandas as pd

from ...core import _kernels as kernels
from ...core import parse_discount, parse_gain
from ...core._ranking import ranked_gains
from ...evaluation import InputError, evaluate
from ...findings import threshold
from ...simulation.theory import eps
from ...stats import compare_systems, discriminative_power, kendall_tau, swap_rates, tau_ap
from .problems import RankingProblem

#: Spawn key of the list-length samples: SeedSequence(seed, spawn_key=(EXPERIMENT_LIST_LENGTH, replicate)).
EXPERIMENT_LIST_LENGTH = 8001
#: Spawn key of the random user subsets of the query-set question.
EXPERIMENT_QUERY_SETS = 8002


def ndcg_values(
    problem: RankingProblem,
    *,
    gains: Sequence[str],
    discounts: Sequence[str],
    ks: Sequence[int | None] = (None,),
    columns: np.ndarray | None = None,
) -> np.ndarray:
    """Per-query nDCG, shape (systems, gains, discounts, ks, queries); ``ks``: cut-offs (None: the whole list);
    ``columns``: a sub-list of each query (:func:`sample_lists`), whose own grades give the ideal."""
    ks = list(ks)  # a generator would be used up by the first of the loops below
    gain_fns = [parse_gain(g, builtin_only=True) for g in gains]
    discount_fns = [parse_discount(d, builtin_only=True) for d in discounts]
    every = np.broadcast_to(np.arange(problem.grades.shape[1]), problem.grades.shape)  # the whole lists
    columns = every if columns is None else np.asarray(columns)
    if columns.ndim != 2 or columns.shape[0] != problem.grades.shape[0]:
        raise ValueError(f"columns must have one row per query ({problem.grades.shape[0]}), got shape {columns.shape}")
    grades = np.take_along_axis(problem.grades, columns, 1)
    scores = [np.take_along_axis(s, columns, 1) for s in problem.scores.values()]
    out = np.empty((len(scores), len(gains), len(discounts), len(ks), grades.shape[0]))
    for g, gain in enumerate(gain_fns):
        gained = kernels.apply_gain(gain, grades, name="grades")
        # The ideal ranking is the gains in non-increasing order: sorted once per gain, then the same DCG
        # kernel as the systems' for every discount and k (kernels.ideal_dcg would partition per (d, k)).
        ideal_order = -np.sort(-gained, axis=1)
        ideal = np.array([[kernels.ranked_dcg(ideal_order, d, k) for k in ks] for d in discount_fns])
        inverse = np.divide(1.0, ideal, out=np.full(ideal.shape, np.nan), where=ideal > 0)  # (discounts, ks, queries)
        for i, s in enumerate(scores):
            ranked = ranked_gains(gained, s, None, "average")
            for j, d in enumerate(discount_fns):
                for m, k in enumerate(ks):
                    out[i, g, j, m] = kernels.ranked_dcg(ranked, d, k) * inverse[j, m]
    return out


def list_length_label(n: int | None) -> str:
    """Table label of a list length: the number, or ``"all"`` for the whole candidate list."""
    return "all" if n is None else str(int(n))


def sample_lists(
    problem: RankingProblem, ns: Sequence[int | None], *, seed: int, replicate: int = 0
) -> dict[int | None, np.ndarray]:
    """Per n, the candidate columns of each query's list of length n (None: the whole list; shorter rows end in a
    padding column): ``max(1, round(n * share))`` relevant items (:func:`relevant_in_lists`) and others, each the
    first of a random order of its class, so the lists are nested in n, like a data stream that grows."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(EXPERIMENT_LIST_LENGTH, replicate)))
    relevant = (problem.grades > 0) & problem.valid
    other = problem.valid & ~relevant
    keys = rng.random(problem.grades.shape)
    rank_rel, rank_other = _class_rank(relevant, keys), _class_rank(other, keys)
    pad_column = np.where(problem.lengths < keys.shape[1], problem.lengths, keys.shape[1] - 1)
    lists = {}
    for n in ns:
        size = list_lengths(problem, n)
        n_rel = relevant_in_lists(problem, n)
        chosen = (relevant & (rank_rel < n_rel[:, None])) | (other & (rank_other < (size - n_rel)[:, None]))
        width = int(size.max())
        order = np.argsort(~chosen, axis=1, kind="stable")[:, :width]
        # A shorter list points the rest at a padding column (it has some: the longest list is `width` long).
        lists[n] = np.where(np.arange(width) >= size[:, None], pad_column[:, None], order)
    return lists


def _class_rank(member: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Rank (0, 1, ...) of each member entry within its row in the order of ``keys``; large for non-members."""
    rank = np.argsort(np.argsort(np.where(member, keys, np.inf), axis=1), axis=1)
    return np.where(member, rank, np.iinfo(np.int64).max)


def list_length_values(
    problem: RankingProblem,
    ns: Sequence[int | None],
    *,
    gains: Sequence[str],
    discounts: Sequence[str],
    replicates: int = 1,
    seed: int,
) -> np.ndarray:
    """Per-query nDCG on sampled lists of each length n (None: the whole list), the mean over ``replicates``
    independent draws: shape (ns, systems, gains, discounts, queries)."""
    total = np.zeros((len(ns), len(problem.systems), len(gains), len(discounts), problem.grades.shape[0]))
    for rep in range(replicates):
        lists = sample_lists(problem, ns, seed=seed, replicate=rep)
        for i, n in enumerate(ns):
            if n is not None or rep == 0:  # the whole list is the same in every draw
                total[i] += ndcg_values(problem, gains=gains, discounts=discounts, columns=lists[n])[:, :, :, 0, :]
    return total / np.array([1 if n is None else replicates for n in ns])[:, None, None, None, None]


def compare_table(values: np.ndarray, systems: Sequence[str], labels: Mapping[str, Sequence[Any]]) -> tuple[Any, Any]:
    """:func:`ndcg_research.stats.compare_systems` (paired t tests, Holm, 95% intervals, as notebook 08's text says)
    on every slice of ``values`` (labels..., systems, queries; a NaN query is left out of its slice), its ``systems``
    and ``pairs`` tables stacked after the label columns."""
    values = np.asarray(values, dtype=np.float64)
    system_parts, pair_parts = [], []
    options = dict(test="t", correction="holm", confidence=0.95, n_resamples=1000, seed=0)
    for index, head in _slices(values, systems, labels, "queries"):
        matrix = values[index]
        result = compare_systems(matrix[:, ~np.isnan(matrix).any(axis=0)], systems=list(systems), **options)
        system_parts.append(result.systems.assign(**head))
        pair_parts.append(result.pairs.assign(**head))
    return tuple(_labels_first(pd.concat(parts, ignore_index=True), labels) for parts in (system_parts, pair_parts))


def _slices(values: np.ndarray, systems: Sequence[str], labels: Mapping[str, Sequence[Any]], what: str) -> Any:
    """Check that ``values`` is (labels..., systems, ``what``) and yield each slice's index and its labels."""
    shape = tuple(len(v) for v in labels.values())
    if values.shape[:-2] != shape or values.shape[-2] != len(systems):
        raise ValueError(f"values must have shape {shape + (len(systems), what)}, got {values.shape}")
    for index in np.ndindex(*shape):
        yield index, {n: labels[n][i] for n, i in zip(labels, index, strict=False)}


def _labels_first(table: Any, labels: Mapping[str, Sequence[Any]]) -> Any:
    """The table with the label columns first."""
    return table[list(labels) + [c for c in table.columns if c not in labels]]


def user_subsets(n_users: int, size: int, draws: int, *, seed: int) -> np.ndarray:
    """``draws`` random subsets of ``size`` of ``n_users`` users, seeded per size: the same for every measure."""
    if size > n_users:
        raise ValueError(f"size must be at most n_users = {n_users}, got {size}")
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(EXPERIMENT_QUERY_SETS, size))))
    return rng.permuted(np.broadcast_to(np.arange(n_users), (draws, n_users)), axis=1)[:, :size]


def query_set_tables(
    values: np.ndarray,
    systems: Sequence[str],
    labels: Mapping[str, Sequence[Any]],
    *,
    sizes: Sequence[int],
    draws: int,
    swap_trials: int,
    test: str = "bootstrap",
    n_resamples: int = 1000,
    reference: tuple[int, ...] | None = None,
    seed: int = 0,
) -> tuple[Any, Any, Any]:
    """Per slice of ``values`` (labels..., systems, users; no NaN): discriminative power over ``draws`` random user
    subsets per size, swap rates (sizes up to half the users; else half, with a warning), and Kendall's tau and tau_AP
    of the systems' order against the ``reference`` slice's (default the first)."""
    values = np.asarray(values, dtype=np.float64)
    slices = list(_slices(values, systems, labels, "users"))
    if np.isnan(values).any():
        raise ValueError("values must have no NaN: evaluate every measure on the same users")
    n_users = values.shape[-1]
    everyone = np.arange(n_users)[None, :]
    subsets = {size: everyone if size >= n_users else user_subsets(n_users, size, draws, seed=seed) for size in sizes}
    swap_sizes = [s for s in sizes if 2 * s <= n_users]
    if not swap_sizes:  # a small collection (a TREC track of 20 topics): the largest size that fits, said aloud
        if n_users < 2:
            raise ValueError(
                f"swap rates compare two disjoint sets of users: they need at least 2 users, got {n_users}"
            )
        warnings.warn(
            f"swap rates compare two disjoint sets of users, so a size must be at most half the {n_users} users "
            f"(queries): none of sizes {list(sizes)} fits; the swap rates use {n_users // 2}, the largest that does",
            stacklevel=2,
        )
        swap_sizes = [n_users // 2]
    ref_means = values[reference if reference is not None else (0,) * len(labels)].mean(axis=-1)
    power_rows, swap_parts, agree_rows = [], [], []
    options = dict(test=test, n_resamples=n_resamples, alpha=threshold("significance_level"), seed=seed)
    for index, head in slices:
        matrix = values[index]
        for size, rows in subsets.items():
            results = [discriminative_power(matrix[:, row], **options) for row in rows]
            powers = np.array([r.power for r in results])
            spread = dict(power_sd=powers.std(ddof=1) if len(rows) > 1 else 0.0, power_min=powers.min())
            required = float(np.nanmean([r.difference_required for r in results]))
            row = dict(head, users=min(size, n_users), draws=len(rows), power=powers.mean(), **spread)
            power_rows.append(row | dict(power_max=powers.max(), difference_required=required))
        swap_parts.append(swap_rates(matrix, swap_sizes, trials=swap_trials, seed=seed).assign(**head))
        means = matrix.mean(axis=-1)
        distinct = np.unique(means).size == means.size and np.unique(ref_means).size == ref_means.size
        tau = tau_ap(ref_means, means) if distinct else float("nan")
        agree_rows.append(dict(head, kendall_tau=kendall_tau(ref_means, means), tau_ap=tau))
    swaps = pd.concat(swap_parts, ignore_index=True) if swap_parts else pd.DataFrame()
    return pd.DataFrame(power_rows), _labels_first(swaps, labels) if len(swaps) else swaps, pd.DataFrame(agree_rows)


def list_lengths(problem: RankingProblem, n: int | None) -> np.ndarray:
    """Each query's list length at nominal length n (None: the whole list)."""
    return problem.lengths.copy() if n is None else np.minimum(problem.lengths, n)


def relevant_in_lists(problem: RankingProblem, n: int | None) -> np.ndarray:
    """Number of relevant items in each query's sampled list of nominal length n (the rule of :func:`sample_lists`)."""
    r = problem.relevant_counts()
    size = list_lengths(problem, n)
    share = np.divide(r, problem.lengths, out=np.zeros(r.shape), where=problem.lengths > 0)
    n_rel = np.minimum(r, np.maximum(np.where(r > 0, 1, 0), np.rint(size * share).astype(np.int64)))
    return size - np.minimum(problem.lengths - r, size - n_rel)


def first_order_table(
    values: np.ndarray,
    problem: RankingProblem,
    ns: Sequence[int | None],
    systems: Sequence[str],
    gains: Sequence[str],
    discounts: Sequence[str],
) -> Any:
    """The first-order law of notebook 03 on real lists: ``c_estimate``, the mean of (1 - nDCG_q) / eps_D(n_q) over
    the queries, is the same for every slowly varying D if the law holds (``values``: :func:`list_length_values`)."""
    rows = []
    slow = [(d, x) for d, x in enumerate(discounts) if parse_discount(x, builtin_only=True).decay == "slowly varying"]
    for (i, n), (d, discount) in product(enumerate(ns), slow):
        length = list_lengths(problem, n).astype(np.float64)
        e = eps(discount, length)
        for (s, system), (g, gain) in product(enumerate(systems), enumerate(gains)):
            v = values[i, s, g, d]
            ok = ~np.isnan(v)
            mean_length = float(length[ok].mean())
            rows.append(
                dict(list_length=list_length_label(n), system=system, gain=gain, discount=discount)
                | dict(mean_length=mean_length, eps=float(eps(discount, mean_length)))
                | dict(one_minus_ndcg=float(1 - v[ok].mean()), c_estimate=float(((1 - v[ok]) / e[ok]).mean()))
            )
    return pd.DataFrame(rows)


def decisions_against(means: Any, pairs: Any, *, column: str, reference: str) -> tuple[Any, Any]:
    """Each pair's decision (+1, -1, or 0: not significant at the findings' level) in every slice of the tables of
    :func:`compare_table` against the slice where label ``column`` is ``reference`` (e.g. cut-off "all"), the other
    labels grouping; and per slice the decisions changed, orders reversed, mean shift and Kendall's tau."""
    labels = list(means.columns[: list(means.columns).index("system")])
    if column not in labels:
        raise ValueError(f"column {column!r} is not a label column of the tables ({labels})")
    groups = [c for c in labels if c != column]
    alpha = threshold("significance_level")
    decision = np.where(pairs["pvalue_adjusted"] < alpha, np.sign(pairs["difference"]), 0).astype(int)
    pairs = pairs.assign(decision=decision)
    keys = groups + ["system_a", "system_b"]
    ref = pairs[pairs[column] == reference][keys + ["decision", "difference"]]
    ref = ref.rename(columns={"decision": "decision_reference", "difference": "difference_reference"})
    pairs = pairs.merge(ref, on=keys, how="left")
    pairs = pairs.assign(
        decision_changed=pairs["decision"] != pairs["decision_reference"],
        order_reversed=np.sign(pairs["difference"]) * np.sign(pairs["difference_reference"]) < 0,
    )
    base = means[means[column] == reference][groups + ["system", "mean"]].rename(columns={"mean": "base"})
    slices = dict(list(means.merge(base, on=groups + ["system"]).groupby(groups + [column], sort=False)))
    rows = []
    for key, block in pairs.groupby(groups + [column], sort=False):
        where, this = dict(zip(groups + [column], key, strict=True)), slices[key]
        significant = block["decision"] != 0
        reversals = int((significant & (block["decision_reference"] != 0) & block["decision_changed"]).sum())
        changed, reversed_ = int(block["decision_changed"].sum()), int(block["order_reversed"].sum())
        row = dict(where, pairs=len(block), significant=int(significant.sum()), decisions_changed=changed)
        shift = float((this["mean"] - this["base"]).abs().max())
        row |= dict(orders_reversed=reversed_, significant_reversals=reversals, max_mean_shift=shift)
        rows.append(row | dict(kendall_tau_vs_reference=kendall_tau(this["base"].to_numpy(), this["mean"].to_numpy())))
    return pairs, pd.DataFrame(rows)


def convention_values(
    qrels: Any, runs: Mapping[str, Any], conventions: Sequence[str], measures: Sequence[str], queries: Sequence[str]
) -> tuple[np.ndarray, dict[str, str]]:
    """Per-query nDCG of each run (evaluated alone) under each tool's preset, shape (conventions, measures, runs,
    queries), NaN where not evaluated; and the error message of each preset that refuses the data."""
    queries = np.asarray(queries).astype(str)
    values = np.full((len(conventions), len(measures), len(runs), queries.size), np.nan)
    refused: dict[str, str] = {}
    for c, convention in enumerate(conventions):
        for s, (name, run) in enumerate(runs.items()):
            try:
                per_query = evaluate(qrels, {name: run}, list(measures), convention=convention).per_query
            except InputError as error:
                refused[convention] = str(error)
                values[c] = np.nan
                break
            table = per_query.astype({"query": str}).pivot(index="query", columns="measure", values="value")
            values[c, :, s] = table.reindex(queries)[list(measures)].to_numpy().T
    return values, refused
