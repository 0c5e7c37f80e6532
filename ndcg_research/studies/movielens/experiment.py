"""The questions of the simulated studies on real rankings, asked of a :class:`~.problems.RankingProblem`.

Every value here is nDCG of a system's ranking of the candidate list (or of a sample of it) by score, **ties
averaged** (McSherry & Najork 2008), with the ideal built from the grades of that same list: it holds all the
relevant items, so the ideal is trec_eval's (all judged grades). A query whose list has no relevant item under a
gain has no defined nDCG; it gets NaN and the callers count and drop it (the same queries for all systems).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...core import _kernels as kernels
from ...core import parse_discount, parse_gain
from ...core._ranking import ranked_gains
from ...evaluation import InputError, evaluate
from ...findings import threshold
from ...simulation.sweeps import DEFAULT_DISCOUNTS
from ...simulation.theory import eps
from ...stats import compare_systems, discriminative_power, kendall_tau, swap_rates, tau_ap
from .problems import RankingProblem

#: The gains of the real-data study, by label: the rating itself, the rating above "neutral" (3), and
#: the exponential gain of Burges et al. Grades are the test ratings 1-5; unrated items have grade 0.
GAINS: dict[str, str] = {
    "rating": "linear",
    "max(0, rating-3)": "mapping({1: 0, 2: 0, 3: 0, 4: 1, 5: 2})",
    "2^rating-1": "exp2",
}

#: The discounts of notebooks 03-04, fastest-decaying first.
DISCOUNTS = DEFAULT_DISCOUNTS

#: Spawn key of the list-length samples: SeedSequence(seed, spawn_key=(EXPERIMENT_LIST_LENGTH, replicate)).
EXPERIMENT_LIST_LENGTH = 8001


def ndcg_values(
    problem: RankingProblem,
    *,
    gains: Sequence[str],
    discounts: Sequence[str],
    ks: Sequence[int | None] = (None,),
    columns: np.ndarray | None = None,
    systems: Sequence[str] | None = None,
) -> np.ndarray:
    """Per-query nDCG of each system, for every gain, discount and cut-off.

    ``gains``, ``discounts``: gain and discount specs of the metric core; ``ks``: cut-offs (None: the whole list);
    nDCG@k cuts the ranking and the ideal at k; ``columns``: evaluate a sub-list of each query: these columns of the
    problem (as :func:`sample_lists` gives); the ideal then comes from the sub-list. Default: every candidate;
    ``systems``: default: every system of the problem.

    Returns numpy.ndarray, shape (systems, gains, discounts, ks, queries): nDCG, NaN for a query whose list has ideal
    DCG 0 under that gain (no relevant item).
    """
    systems = problem.systems if systems is None else tuple(systems)
    unknown = [s for s in systems if s not in problem.scores]
    if unknown:
        raise ValueError(f"unknown systems {unknown}; the problem has {list(problem.systems)}")
    ks = list(ks)
    gain_fns = [parse_gain(g, builtin_only=True) for g in gains]
    discount_fns = [parse_discount(d, builtin_only=True) for d in discounts]
    if columns is None:
        grades = problem.grades
        scores = {s: problem.scores[s] for s in systems}
    else:
        columns = np.asarray(columns)
        if columns.ndim != 2 or columns.shape[0] != problem.grades.shape[0]:
            raise ValueError(
                f"columns must have one row per query ({problem.grades.shape[0]}), got shape {columns.shape}"
            )
        grades = np.take_along_axis(problem.grades, columns, 1)
        scores = {s: np.take_along_axis(problem.scores[s], columns, 1) for s in systems}
    out = np.empty((len(systems), len(gains), len(discounts), len(ks), grades.shape[0]))
    for g, gain in enumerate(gain_fns):
        gained = kernels.apply_gain(gain, grades, name="grades")
        # The ideal ranking is the gains in non-increasing order: sorted once per gain, then the same DCG
        # kernel as the systems' for every discount and k (kernels.ideal_dcg would partition per (d, k)).
        ideal_order = -np.sort(-gained, axis=1)
        ideal = np.array([[kernels.ranked_dcg(ideal_order, d, k) for k in ks] for d in discount_fns])
        with np.errstate(divide="ignore", invalid="ignore"):
            inverse = np.where(ideal > 0, 1.0 / ideal, np.nan)  # (discounts, ks, queries)
        for i, s in enumerate(systems):
            ranked = ranked_gains(gained, scores[s], None, "average")
            for j, d in enumerate(discount_fns):
                for m, k in enumerate(ks):
                    out[i, g, j, m] = kernels.ranked_dcg(ranked, d, k) * inverse[j, m]
    return out


# --------------------------------------------------------------------------- list length


def list_length_label(n: int | None) -> str:
    """Table label of a list length: the number, or ``"all"`` for the whole candidate list."""
    return "all" if n is None else str(int(n))


def sample_lists(
    problem: RankingProblem, ns: Sequence[int | None], *, seed: int, replicate: int = 0
) -> dict[int | None, np.ndarray]:
    """Candidate lists of length n per query that keep the query's share of relevant items; nested in n.

    For a query with share ``s`` of relevant (grade > 0) candidates, the list of length n holds
    ``n_rel = max(1, round(n * s))`` relevant items (:func:`relevant_in_lists`) and ``n - n_rel`` others: the first of
    a random order of each class. The same orders serve every n, so the lists are nested, like a data stream that
    grows. A query with fewer than n candidates keeps its whole list; ``None`` means the whole list.

    ``ns``: list lengths (>= 1), None for the whole list; ``seed``: entropy of ``SeedSequence(seed,
    spawn_key=(EXPERIMENT_LIST_LENGTH, replicate))``; ``replicate``: which independent draw.

    Returns dict: n -> int array (Q, min(n, max length)) of candidate columns of each query; rows of queries with
    fewer candidates are padded with a padding column of the problem (grade 0, score -inf).
    """
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
    """Per-query nDCG on sampled lists of each length n, averaged over independent draws.

    ``ns``: list lengths; None for the whole candidate list (not sampled, so the same in every draw); ``replicates``:
    independent draws of the lists (:func:`sample_lists` with replicate 0, 1, ...); each query's value is the mean
    over the draws, which averages out the sampling noise of one draw.

    Returns numpy.ndarray, shape (ns, systems, gains, discounts, queries): NaN where a query's lists have no relevant
    item under a gain in some draw.
    """
    total = np.zeros((len(ns), len(problem.systems), len(gains), len(discounts), problem.grades.shape[0]))
    for rep in range(replicates):
        lists = sample_lists(problem, ns, seed=seed, replicate=rep)
        for i, n in enumerate(ns):
            if n is None and rep > 0:
                continue
            total[i] += ndcg_values(problem, gains=gains, discounts=discounts, columns=lists[n])[:, :, :, 0, :]
    for i, n in enumerate(ns):
        if n is not None:
            total[i] /= replicates
    return total


# --------------------------------------------------------------------------- tables (statistics of issue 9)

#: Spawn key of the random user subsets of the query-set question.
EXPERIMENT_QUERY_SETS = 8002


def compare_table(
    values: np.ndarray,
    systems: Sequence[str],
    labels: Mapping[str, Sequence[Any]],
    *,
    test: str = "t",
    correction: str = "holm",
    confidence: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
) -> tuple[Any, Any]:
    """Each system's mean with its interval, and every pair's paired test, for every slice of ``values``.

    ``values``: per-query values (NaN: undefined; such a query is left out of its slice for every system);
    ``systems``: system names (rows of each slice); ``labels``: column name -> the label of each index of one leading
    axis, in axis order; ``test``, ``correction``, ``confidence``, ``n_resamples``, ``seed``: as in
    :func:`ndcg_research.stats.compare_systems` (t test and interval, Holm correction by default).

    Returns ``systems_table, pairs_table`` (pandas.DataFrame): the label columns, then those of
    :func:`~ndcg_research.stats.compare_systems`'s ``systems`` and ``pairs``.
    """
    values = np.asarray(values, dtype=np.float64)
    system_parts, pair_parts = [], []
    options = dict(test=test, correction=correction, confidence=confidence, n_resamples=n_resamples, seed=seed)
    for index, head in _slices(values, systems, labels, "queries"):
        matrix = values[index]
        keep = ~np.isnan(matrix).any(axis=0)
        result = compare_systems(matrix[:, keep], systems=list(systems), **options)
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
    """``draws`` random subsets of ``size`` of ``n_users`` users (without replacement within a subset).

    Drawn from ``SeedSequence(seed, spawn_key=(EXPERIMENT_QUERY_SETS, size))``: the subsets of one size do
    not depend on the other sizes asked for; the same subsets serve every measure (paired comparison).
    """
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
    alpha: float = threshold("significance_level"),
    reference: tuple[int, ...] | None = None,
    seed: int = 0,
) -> tuple[Any, Any, Any]:
    """Discriminative power and swap rate against the number of users, and agreement of system orderings.

    ``values``: per-user values of every measure on the same users (no NaN); ``labels``: column name -> labels of one
    leading axis (e.g. gain, discount); ``sizes``: user-set sizes; discriminative power is averaged over ``draws``
    random subsets of each size (:func:`user_subsets`; one subset, all users, at the full size). Swap rates use the
    sizes up to half the users (two disjoint subsets); if none is that small, half the users, with a warning;
    ``draws``, ``swap_trials``: subsets per size for the power, disjoint subset pairs per size for the swap rate;
    ``test``, ``n_resamples``, ``alpha``: the paired test of :func:`ndcg_research.stats.discriminative_power` (Sakai
    2006: bootstrap); ``reference``: index of the reference measure for Kendall's tau; default the first.

    Returns ``power, swaps, agreement`` (pandas.DataFrame), each with the label columns first: ``power``: ``users``,
    ``draws``, the mean, sd, min and max ``power`` over the subsets, ``difference_required`` (mean); ``swaps``:
    :func:`ndcg_research.stats.swap_rates`'s columns; ``agreement``: ``kendall_tau`` and ``tau_ap`` of the systems'
    order by mean against the reference measure's, over all users.
    """
    values = np.asarray(values, dtype=np.float64)
    slices = list(_slices(values, systems, labels, "users"))
    if np.isnan(values).any():
        raise ValueError("values must have no NaN: evaluate every measure on the same users")
    n_users = values.shape[-1]
    subsets = {
        size: (np.arange(n_users)[None, :] if size >= n_users else user_subsets(n_users, size, draws, seed=seed))
        for size in sizes
    }
    swap_sizes = [s for s in sizes if 2 * s <= n_users]
    if not swap_sizes:  # a small collection (a TREC track of 20 topics): the largest size that fits, said aloud
        if n_users < 2:
            raise ValueError(
                f"swap rates compare two disjoint sets of users: they need at least 2 users, got {n_users}"
            )
        warnings.warn(
            f"swap rates compare two disjoint sets of users, so a size must be at most half the {n_users} users "
            f"(queries): none of sizes {list(sizes)} fits; the swap rates use {n_users // 2}, the largest that does",
            UserWarning,
            stacklevel=2,
        )
        swap_sizes = [n_users // 2]
    ref_means = values[reference if reference is not None else (0,) * len(labels)].mean(axis=-1)
    power_rows, swap_parts, agree_rows = [], [], []
    options = dict(test=test, n_resamples=n_resamples, alpha=alpha, seed=seed)
    for index, head in slices:
        matrix = values[index]
        for size, rows in subsets.items():
            results = [discriminative_power(matrix[:, row], **options) for row in rows]
            powers = np.array([r.power for r in results])
            spread = dict(power_sd=powers.std(ddof=1) if len(rows) > 1 else 0.0, power_min=powers.min())
            required = float(np.nanmean([r.difference_required for r in results]))
            power_rows.append(
                dict(head, users=min(size, n_users), draws=len(rows), power=powers.mean(), **spread)
                | dict(power_max=powers.max(), difference_required=required)
            )
        swap_parts.append(swap_rates(matrix, swap_sizes, trials=swap_trials, seed=seed).assign(**head))
        means = matrix.mean(axis=-1)
        distinct = np.unique(means).size == means.size and np.unique(ref_means).size == ref_means.size
        tau = tau_ap(ref_means, means) if distinct else float("nan")
        agree_rows.append(dict(head, kendall_tau=kendall_tau(ref_means, means), tau_ap=tau))
    swaps = pd.concat(swap_parts, ignore_index=True) if swap_parts else pd.DataFrame()
    return pd.DataFrame(power_rows), _labels_first(swaps, labels) if len(swaps) else swaps, pd.DataFrame(agree_rows)


def list_lengths(problem: RankingProblem, n: int | None) -> np.ndarray:
    """Each query's list length at nominal length n (None: its whole candidate list)."""
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
    """The first-order law of notebook 03 on real lists: c = (1 - nDCG) / eps_D(n) for slowly varying D.

    Under a slowly varying discount 1 - nDCG ~ eps_D(n) c_f, c_f **not depending on the discount** (notebook 03):
    the mean over the queries (with a defined nDCG) of (1 - nDCG_q) / eps_D(n_q) is equal across the slowly varying
    discounts if the law holds at these lengths.

    ``values``: as :func:`list_length_values` returns; ``problem``, ``ns``, ``systems``, ``gains``, ``discounts``:
    the axes of ``values``; only slowly varying discounts get rows.

    Returns pandas.DataFrame: ``list_length``, ``system``, ``gain``, ``discount``, ``mean_length``, ``eps`` (eps_D at
    the mean length), ``one_minus_ndcg`` (mean), ``c_estimate`` (mean of the per-query estimates).
    """
    rows = []
    for i, n in enumerate(ns):
        length = list_lengths(problem, n).astype(np.float64)
        for d, discount in enumerate(discounts):
            if parse_discount(discount, builtin_only=True).decay != "slowly varying":
                continue
            e = eps(discount, length)
            for s, system in enumerate(systems):
                for g, gain in enumerate(gains):
                    v = values[i, s, g, d]
                    ok = ~np.isnan(v)
                    mean_length = float(length[ok].mean())
                    rows.append(
                        dict(list_length=list_length_label(n), system=system, gain=gain, discount=discount)
                        | dict(mean_length=mean_length, eps=float(eps(discount, mean_length)))
                        | dict(one_minus_ndcg=float(1 - v[ok].mean()), c_estimate=float(((1 - v[ok]) / e[ok]).mean()))
                    )
    return pd.DataFrame(rows)


def decisions_against(
    means: Any, pairs: Any, *, column: str, reference: str, alpha: float = threshold("significance_level")
) -> tuple[Any, Any]:
    """Decisions in every slice against those of a reference slice (the whole list; trec_eval's convention).

    The tables are :func:`compare_table`'s; ``column`` is the label column whose values are compared with
    ``reference`` (e.g. ``cutoff`` against ``"all"``); the other label columns (those before ``system``)
    group the comparisons. A pair's *decision* is +1 (system_a significantly better: Holm-adjusted p < alpha
    and a positive difference), -1 (system_b better) or 0 (no significant difference).

    Returns ``pairs, summary`` (pandas.DataFrame): ``pairs``: the input pairs with ``decision``,
    ``decision_reference``, ``difference_reference``, ``decision_changed`` and ``order_reversed`` (the mean
    difference changes sign). ``summary``: per group and value of ``column``: ``pairs``, ``significant``,
    ``decisions_changed``, ``orders_reversed``, ``significant_reversals`` (significant both times, opposite
    directions), ``max_mean_shift`` (largest absolute difference of the mean from the reference mean, over the
    systems) and ``kendall_tau_vs_reference`` (systems ordered by mean).
    """
    labels = list(means.columns[: list(means.columns).index("system")])
    if column not in labels:
        raise ValueError(f"column {column!r} is not a label column of the tables ({labels})")
    groups = [c for c in labels if c != column]
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
    rows = []
    for key, block in pairs.groupby(groups + [column], sort=False):
        where = dict(zip(groups + [column], key, strict=True))
        sel = (means[groups] == [where[g] for g in groups]).all(axis=1).to_numpy()
        base = means[sel & (means[column] == reference).to_numpy()].set_index("system")["mean"]
        this = means[sel & (means[column] == where[column]).to_numpy()].set_index("system")["mean"].reindex(base.index)
        significant = block["decision"] != 0
        reversals = int((significant & (block["decision_reference"] != 0) & block["decision_changed"]).sum())
        rows.append(
            dict(where, pairs=len(block), significant=int(significant.sum()))
            | dict(
                decisions_changed=int(block["decision_changed"].sum()),
                orders_reversed=int(block["order_reversed"].sum()),
            )
            | dict(significant_reversals=reversals, max_mean_shift=float((this - base).abs().max()))
            | dict(kendall_tau_vs_reference=kendall_tau(base.to_numpy(), this.to_numpy()))
        )
    return pairs, pd.DataFrame(rows)


def convention_values(
    qrels: Any,
    runs: Mapping[str, Any],
    conventions: Sequence[str],
    measures: Sequence[str],
    queries: Sequence[str],
) -> tuple[np.ndarray, dict[str, str]]:
    """Per-query nDCG of each run under each tool's preset (:func:`ndcg_research.evaluation.evaluate`).

    ``qrels``: ``query``, ``doc``, ``relevance`` (e.g. :func:`qrels_table`, or a qrels file read by issue 8's
    reader); ``runs``: run name -> ``query``, ``doc``, ``score`` (e.g. :func:`run_table`). Each run is evaluated on
    its own; ``conventions``, ``measures``: preset names and measure specs (``"ndcg"``, ``"ndcg@10"``); ``queries``:
    the query ids, in the order of the last axis of the result.

    Returns ``values`` (numpy.ndarray, shape (conventions, measures, runs, queries)): NaN where a convention does not
    evaluate a query, and everywhere for a preset that refuses the data; ``refused`` (dict): Convention -> the error
    message of a preset that refuses the data (e.g. grades above its maximum).
    """
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
            per_query = per_query.assign(query=per_query["query"].astype(str))
            table = per_query.pivot(index="query", columns="measure", values="value").reindex(queries)
            values[c, :, s] = table[list(measures)].to_numpy().T
    return values, refused
