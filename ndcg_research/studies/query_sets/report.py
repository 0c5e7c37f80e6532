"""Notebook 07: its result tables (what the findings read) and reader tables (one row per discount, a column group
per gain). ``X`` and ``P``: per measure (gain, discount), the per-topic scores on the collection and the population
(systems x topics, the most skilled system first)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...core import parse_discount
from ...pipeline.tables import pivot, rounded
from ...simulation.tables import read_table
from ...stats import (
    compare_systems,
    discriminative_power,
    kendall_tau,
    run_matrices,
    swap_rates,
    tau_ap,
    variance_components,
)
from ...stats._replication import query_subsets
from .experiment import fewest_queries, ordering_accuracy, queries_needed_interval

Measure = tuple[str, str]


def label(measure: Measure) -> str:
    """``"gain · discount"``."""
    return f"{measure[0]} · {measure[1]}"


def by_discount(
    rows: Sequence[Mapping[str, Any]] | pd.DataFrame,
    columns: Mapping[str, str],
    digits: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """A table with one row per discount and, per column of ``columns`` (name -> header), one column per gain."""
    table = pd.DataFrame(rows)
    parts = {h: rounded(pivot(table, "discount", "gain", c), (digits or {}).get(c, 3)) for c, h in columns.items()}
    return pd.concat(parts, axis=1).rename_axis(columns=[None, "gain"])


def collection_rows(X: Mapping[Measure, np.ndarray], P: Mapping[Measure, np.ndarray]) -> list[dict[str, Any]]:
    """The result table ``07_collection.csv``: per measure and topic sample, the mean nDCG, that of the best and worst
    system, and the variance shares of the per-topic scores (system, topic, interaction)."""
    rows = []
    for m in X:
        for where, table in (("collection", X[m]), ("population", P[m])):
            means = table.mean(axis=1)
            shares = {f"share_{k}": v for k, v in variance_components(table).shares().items()}
            row = dict(gain=m[0], discount=m[1], sample=where, topics=table.shape[1], mean=float(table.mean()))
            rows.append(row | dict(best_system=float(means[0]), worst_system=float(means[-1])) | shares)
    return rows


def collection_table(rows: Sequence[Mapping[str, Any]], discounts: Sequence[str]) -> tuple[pd.DataFrame, str]:
    """For a few ``discounts``: the rows of :func:`collection_rows` in words; and one sentence on the variance shares
    over every (measure, sample), with how many follow TREC's order topic > interaction > system."""
    table = pd.DataFrame(rows)
    shown = table[table["discount"].isin(discounts)].assign(measure=lambda t: t["gain"] + " · " + t["discount"])
    shown = shown.set_index(["measure", "sample"])
    parts = ["system", "topic", "interaction"]
    values = rounded(shown[["mean", "best_system", "worst_system"]], 3).set_axis(["mean", "best", "worst"], axis=1)
    shares = rounded(shown[[f"share_{k}" for k in parts]], 2).set_axis(parts, axis=1)
    out = pd.concat({"nDCG": values, "variance share": shares}, axis=1)
    share = {k: table[f"share_{k}"].to_numpy() for k in parts}
    spans = {k: f"{v.min():.2f}-{v.max():.2f}" for k, v in share.items()}
    trec_like = int(np.sum((share["topic"] > share["interaction"]) & (share["interaction"] > share["system"])))
    return out, (
        f"over all {len(table)} (measure, sample) tables: topic share {spans['topic']}, interaction "
        f"{spans['interaction']}, system {spans['system']}; topic > interaction > system in {trec_like} of {len(table)}"
    )


def truth_rows(P: Mapping[Measure, np.ndarray], skills: np.ndarray) -> list[dict[str, Any]]:
    """The result table ``07_truth.csv``: each measure's Kendall tau between its population means and the skills, and
    the smallest z of a neighbour gap (each system minus the next, less skilled one, per topic)."""
    rows = []
    for m, scores in P.items():
        diffs = scores[:-1] - scores[1:]
        z = diffs.mean(axis=1) / (diffs.std(axis=1, ddof=1) / np.sqrt(diffs.shape[1]))
        tau = kendall_tau(scores.mean(axis=1), skills)
        rows.append(dict(gain=m[0], discount=m[1], tau_population=tau, min_neighbour_z=float(z.min())))
    return rows


def truth_lines(rows: Sequence[Mapping[str, Any]], systems: int) -> tuple[list[str], pd.DataFrame]:
    """Two sentences on the truth check and the three measures with the smallest neighbour z."""
    ordered = sum(r["tau_population"] == 1.0 for r in rows)
    lines = [
        f"measures whose population mean orders all {systems} systems as the truth: {ordered} of {len(rows)}",
        f"measures with a neighbour gap significantly reversed (z < -2.58): "
        f"{sum(r['min_neighbour_z'] < -2.58 for r in rows)}",
    ]
    low = pd.DataFrame(sorted(rows, key=lambda r: r["min_neighbour_z"])[:3])
    low = low.set_index(low["gain"] + " · " + low["discount"]).rename_axis("measure")
    out = pd.concat([rounded(low[["min_neighbour_z"]], 1), rounded(low[["tau_population"]], 3)], axis=1)
    return lines, out.set_axis(["smallest neighbour z", "Kendall tau with the truth"], axis=1)


def power_rows(
    X: Mapping[Measure, np.ndarray], *, alpha: float, n_resamples: int, seed: int, n_jobs: int, topics: int
) -> tuple[dict[Measure, Any], list[dict[str, Any]]]:
    """Sakai's discriminative power of every measure on the collection: the results by measure and the result table
    ``07_power.csv`` (power, pairs significant in the wrong direction, difference required, median ASL, topics for E
    rho^2 = 0.95)."""
    power, rows = {}, []
    for m, scores in X.items():
        dp = power[m] = discriminative_power(scores, alpha=alpha, n_resamples=n_resamples, seed=seed, n_jobs=n_jobs)
        wrong = int(np.count_nonzero(dp.significant & (dp.differences < 0)))  # the first system is the better one
        asl, stability = float(np.median(dp.asl_curve)), variance_components(scores).topics_for_stability(0.95)
        row = dict(gain=m[0], discount=m[1], topics=topics, pairs=dp.pvalues.size, power=dp.power)
        row |= dict(wrong_direction=wrong, difference_required=dp.difference_required, median_asl=asl)
        rows.append(row | dict(topics_for_stability=stability))
    return power, rows


def swap_rows(
    X: Mapping[Measure, np.ndarray], sizes: Sequence[int], *, trials: int, seed: int
) -> tuple[dict[Measure, np.ndarray], list[dict[str, Any]]]:
    """Voorhees-Buckley swap rates of every measure: the overall rate per subset size, and the result table
    ``07_swap_rates.csv`` (binned by the pair's difference on the first subset, bins of 0.02, plus the overall rate as
    the bin [0, inf))."""
    edges = np.round(np.arange(0.0, 0.21, 0.02), 2)
    overall, rows = {}, []
    for m, scores in X.items():
        total = swap_rates(scores, sizes, trials=trials, seed=seed)
        overall[m] = total.swap_rate.to_numpy()
        binned = swap_rates(scores, sizes, trials=trials, bins=edges, seed=seed)
        rows += [dict(gain=m[0], discount=m[1], **r) for r in pd.concat([binned, total]).to_dict("records")]
    return overall, rows


def query_set_rows(
    P: Mapping[Measure, np.ndarray],
    skills: np.ndarray,
    sizes: Sequence[int],
    *,
    trials: int,
    collections: int,
    population_topics: int,
    target_accuracy: float,
    alpha: float,
    n_resamples: int,
    seed: int,
    n_jobs: int,
) -> tuple[dict[Measure, np.ndarray], dict[Measure, tuple], list[dict]]:
    """With the truth known: per measure the ordering accuracy of ``trials`` random query sets of each size, the queries
    needed for ``target_accuracy`` with its 95% interval, and the result table ``07_query_sets.csv`` (with the expected
    discriminative power over ``collections`` query sets per size)."""
    accuracy, needed, rows = {}, {}, []
    power_sets = {c: query_subsets(population_topics, c, trials=collections, seed=seed + 1)[0] for c in sizes}
    power = functools.partial(discriminative_power, alpha=alpha, n_resamples=n_resamples, seed=seed, n_jobs=n_jobs)
    for m, scores in P.items():
        accuracy[m] = ordering_accuracy(scores, skills, sizes, trials=trials, seed=seed)
        needed[m] = queries_needed_interval(sizes, accuracy[m], target_accuracy, seed=seed)
        for c, a in zip(sizes, accuracy[m], strict=True):
            mean, half = a.mean(), 1.96 * a.std(ddof=1) / np.sqrt(a.size)
            dps = [power(scores[:, s]).power for s in power_sets[c]]
            row = dict(gain=m[0], discount=m[1], size=c, accuracy=float(mean), accuracy_low=float(mean - half))
            rows.append(row | dict(accuracy_high=float(mean + half), expected_power=float(np.mean(dps))))
    return accuracy, needed, rows


def needed_cells(needed: Mapping[Measure, tuple]) -> list[dict[str, Any]]:
    """Per measure, the queries needed as "estimate [low, high]" (for :func:`by_discount`)."""
    cells = {
        m: f"{e:.1f} [{lo:.1f}, {hi:.1f}]" if np.isfinite(e) else "not reached" for m, (e, lo, hi) in needed.items()
    }
    return [{"gain": m[0], "discount": m[1], "queries needed [95%]": cell} for m, cell in cells.items()]


def ordering_rows(
    X: Mapping[Measure, np.ndarray], skills: np.ndarray
) -> tuple[np.ndarray, list[dict[str, Any]], list[dict[str, Any]]]:
    """Kendall's tau between every two measures' orderings of the systems on the collection, and the result tables
    ``07_orderings.csv`` (each measure against the truth: tau, tau_AP, its smallest tau with another measure) and
    ``07_tau_between_measures.csv``."""
    measures = list(X)
    means = {m: X[m].mean(axis=1) for m in measures}
    tau = np.array([[kendall_tau(means[a], means[b]) for b in measures] for a in measures])
    rows, between = [], []
    for i, m in enumerate(measures):
        ap = float("nan") if np.unique(means[m]).size < skills.size else tau_ap(skills, means[m])
        row = dict(gain=m[0], discount=m[1], tau_truth=kendall_tau(means[m], skills), tau_ap_truth=ap)
        rows.append(row | dict(min_tau_other=float(np.delete(tau[i], i).min())))
        between.append(dict(gain=m[0], discount=m[1], **dict(zip(map(label, measures), tau[i].tolist(), strict=True))))
    return tau, rows, between


def measure_rows(
    P: Mapping[Measure, np.ndarray],
    power: Sequence[Mapping],
    orders: Sequence[Mapping],
    truth: Sequence[Mapping],
    needed: Mapping[Measure, tuple],
    swaps: Mapping[Measure, np.ndarray],
) -> list[dict[str, Any]]:
    """The result table ``07_measures.csv``: per measure the per-topic win and tie probability of the more skilled of
    two systems (mean over pairs, population), the queries needed with its interval, and the other criteria."""
    first, second = np.triu_indices(next(iter(P.values())).shape[0], k=1)
    rows = []
    for m, p_row, o_row, t_row in zip(P, power, orders, truth, strict=False):
        est, lo, hi = needed[m]
        win, tie = float((P[m][first] > P[m][second]).mean()), float((P[m][first] == P[m][second]).mean())
        row = dict(gain=m[0], discount=m[1], decay=parse_discount(m[1]).decay, per_topic_win=win, per_topic_tie=tie)
        row |= dict(queries_needed=est, queries_needed_low=lo, queries_needed_high=hi, power=p_row["power"])
        row |= dict(topics_for_stability=p_row["topics_for_stability"], swap_rate=float(swaps[m][-1]))
        rows.append(row | dict(tau_truth=o_row["tau_truth"], tau_population=t_row["tau_population"]))
    return rows


def user_runs(
    qrels: str,
    runs: Sequence[str],
    measures: Sequence[Measure],
    cutoff: int | None,
    *,
    alpha: float,
    n_resamples: int,
    trials: int,
    seed: int,
    n_jobs: int,
) -> dict[str, Any]:
    """The statistics an experimenter can compute without a known truth, on TREC qrels and run files: the data, the
    score matrices and the result tables ``07_user_measures.csv`` (``rows``) and ``07_user_pairs.csv`` (``pairs``)."""
    cut = "" if cutoff is None else f"@{cutoff}"
    data = run_matrices(qrels, runs, [f"ndcg{cut}(gain={g}, discount='{d}')" for g, d in measures])
    scores = dict(zip(measures, data.matrices.values(), strict=False))
    reference, queries = measures[0], int(data.queries.size)
    half = queries // 2
    power = power_rows(scores, alpha=alpha, n_resamples=n_resamples, seed=seed, n_jobs=n_jobs, topics=queries)[1]
    rows = []
    for m, p in zip(scores, power, strict=True):
        swap = swap_rates(scores[m], [half], trials=trials, seed=seed).swap_rate.iloc[0] if half >= 1 else float("nan")
        tau = kendall_tau(scores[m].mean(axis=1), scores[reference].mean(axis=1))
        row = dict(gain=m[0], discount=m[1], queries=queries, power=p["power"])
        row |= dict(difference_required=p["difference_required"], topics_for_stability=p["topics_for_stability"])
        rows.append(row | dict(swap_rate_half=float(swap), tau_reference=tau))
    pairs = compare_systems(
        scores[reference], systems=data.systems, test="bootstrap", n_resamples=n_resamples, seed=seed
    ).pairs.assign(gain=reference[0], discount=reference[1])
    return {"data": data, "scores": scores, "rows": rows, "pairs": pairs, "half": half}


def verdict(folder: str | Path) -> dict[str, Any]:
    """The verdict's lines and tables from the run's ``07_measures.csv`` and ``07_query_sets.json``."""
    folder = Path(folder)
    table = read_table(folder / "07_measures.csv")
    target = json.loads((folder / "07_query_sets.json").read_text(encoding="utf-8"))["parameters"]["target_accuracy"]
    q, names = table["queries_needed"], table["gain"] + " · " + table["discount"]
    b, in_group, more = fewest_queries(q, table["queries_needed_low"], table["queries_needed_high"])
    best = table.iloc[b]
    w = int(np.argmax(np.where(np.isfinite(q), q, np.inf)))
    group, worse = (q[mask].sort_values(kind="stable") for mask in (in_group, more))
    lines = [
        f"fewest queries for ordering accuracy {target}: {names[b]}, {best['queries_needed']:.1f} queries "
        f"[{best['queries_needed_low']:.1f}, {best['queries_needed_high']:.1f}]",
        f"indistinguishable from it ({len(group)}): " + ", ".join(names[group.index]),
        f"need more ({len(worse)}): " + ", ".join(f"{names[i]} ({v:.1f})" for i, v in worse.items()),
        f"most queries: {names[w]}, {q[w]:.1f} ({q[w] / best['queries_needed']:.2f} x the best)"
        if np.isfinite(q[w])
        else f"most queries: {names[w]}, which does not reach that accuracy with the query sets simulated",
    ]
    by_class = table.groupby(["decay", "gain"], sort=False).agg(
        fewest=("queries_needed", "min"), most=("queries_needed", "max"), discounts=("discount", ", ".join)
    )
    finite = table[np.isfinite(q)]
    criteria = [
        (text, kendall_tau(finite["queries_needed"], finite[key]), sign)
        for text, key, sign in (
            ("discriminative power (collection)", "power", "-"),
            ("topics for E rho^2 = 0.95", "topics_for_stability", "+"),
            ("swap rate at the largest c", "swap_rate", "+"),
            ("per-topic win probability", "per_topic_win", "-"),
        )
    ]
    gains = list(dict.fromkeys(table["gain"]))
    if len(gains) == 2:
        first, second = (table[table["gain"] == g].set_index("discount") for g in gains)
        second = second.loc[first.index]
        more_q = int((second["queries_needed"] > first["queries_needed"]).sum())
        apart = int((second["queries_needed_low"] > first["queries_needed_high"]).sum())
        lines.append(
            f"{gains[1]} needs more queries than {gains[0]} for {more_q} of {len(first)} discounts "
            f"(95% intervals apart for {apart})"
        )
    return {
        "lines": lines,
        "classes": rounded(by_class.sort_values("fewest", kind="stable"), 1),
        "criteria": rounded(
            pd.DataFrame(criteria, columns=["criterion", "Kendall tau", "sign if agreeing"]), 3
        ).set_index("criterion"),
        "best": names[b],
        "group": names[in_group].tolist(),
        "worse": names[more].tolist(),
    }
