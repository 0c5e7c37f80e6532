"""Notebook 05 (nDCG@k): its tables to read, from the sweeps' tables of :mod:`ndcg_research.simulation.cutoff`
(whose ``model`` column holds the model spec)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ...core import parse_discount
from ...pipeline.tables import chance_level, count_cells, headed, pivot, rounded
from ...simulation import cutoff, theory
from .experiment import fraction_limit


def limits(model: str, rule: str, discount: str, rankers: Sequence[str]) -> list[float]:
    """The theory's limit of nDCG@k(n) for each ranker (the mean's limit for ``all`` under a fast discount)."""
    kind = cutoff.parse_cutoff(rule).kind
    slow = parse_discount(discount).decay == "slowly varying"
    if kind == "all" and slow:
        return [1.0 for _ in rankers]
    if kind == "fraction" and slow:
        return [fraction_limit(model, r, cutoff.parse_cutoff(rule).value) for r in rankers]
    return [theory.top_limit(model, r) for r in rankers]


def values_at(means: pd.DataFrame, model: str, n: int, rankers: Sequence[str]) -> pd.DataFrame:
    """Mean nDCG@k at list length ``n`` in ``model`` beside its limit, per (rule, ranker) and discount."""
    rows = means[(means["model"] == model) & (means["n"] == n) & means["ranker"].isin(rankers)]
    rows = rows.assign(limit=[limits(model, r.rule, r.discount, [r.ranker])[0] for r in rows.itertuples()])
    parts = {f"mean nDCG@k at n = {n}": "mean", "limit (theory)": "limit"}
    return rounded(pd.concat({k: pivot(rows, ["rule", "ranker"], "discount", c) for k, c in parts.items()}, axis=1))


def limit_distance(means: pd.DataFrame, models: Sequence[str], n: int, rankers: Sequence[str]) -> pd.DataFrame:
    """The largest ``|mean - limit|`` at ``n`` over ``rankers`` and ``models``: rows the rules, columns discounts."""
    at = pd.concat([means[(means["model"] == model) & (means["n"] == n)] for model in models])
    at = at[at["ranker"].isin(rankers)]
    distance = [abs(r.mean - limits(r.model, r.rule, r.discount, [r.ranker])[0]) for r in at.itertuples()]
    largest = at.assign(distance=distance).groupby(["rule", "discount"], sort=False)["distance"].max().reset_index()
    return rounded(pivot(largest, "rule", "discount", "distance")).rename_axis(
        f"rule: largest |mean - limit| at n = {n}"
    )


def verdict_grid(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The verdicts of :func:`~.experiment.verdict_table`: rows (model, rule), columns the discounts."""
    return pivot(verdicts, ["model", "rule"], "discount", "verdict").rename_axis(
        columns="discount: verdict at the largest n"
    )


def p_last_grid(verdicts: pd.DataFrame) -> pd.DataFrame:
    """P(better strictly higher) at the largest n of every verdict cell, as wins/data sets [Wilson 95%]."""
    cells = count_cells(verdicts, "p_better_last", flag=chance_level(verdicts, "p_better_last"))
    wide = pivot(verdicts.assign(cell=cells), ["model", "rule"], "discount", "cell")
    return wide.rename_axis(columns="discount: P(better higher) at the largest n")


def detail(pairs: pd.DataFrame, models: dict[str, str], rules: Sequence[str], discount: str) -> pd.DataFrame:
    """Per (model, pair, rule) under ``discount``: P(better strictly higher), exact ties (as wins/data sets) and the
    mean gap at the smallest and the largest n; ``models``: label -> spec (``pairs``' ``model`` column)."""
    out = {}
    for label, spec in models.items():
        model = pairs[pairs["model"] == spec]
        cells = model[model["discount"] == discount]
        for (better, worse), _ in model.groupby(["better", "worse"], sort=False):
            for rule in rules:
                rows = cells[(cells["rule"] == rule) & (cells["better"] == better) & (cells["worse"] == worse)]
                if not len(rows):
                    continue
                ends = rows.sort_values("n").iloc[[0, -1]]
                p, ties = ([c.split(" ")[0] for c in count_cells(ends, s)] for s in ("p_better", "p_tie"))
                out[(label, f"{better} > {worse}", rule)] = {
                    f"P(better higher), n {int(ends['n'].iloc[0])} -> {int(ends['n'].iloc[1])}": " -> ".join(p),
                    "exact ties": " -> ".join(ties),
                    "mean gap": " -> ".join(f"{g:.3f}" for g in ends["mean_gap"]),
                }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis(["model", "pair", "rule"])


def curve_summary(curves: pd.DataFrame, relevant: dict[str, float]) -> pd.DataFrame:
    """Per (model, ranker) of the k-curve table: nDCG@1, the minimum and where, nDCG@n, the relevant items expected."""
    out = {}
    for (model, ranker), rows in curves.groupby(["model", "ranker"], sort=False):
        rows = rows.sort_values("k")
        low = rows.iloc[int(rows["mean"].to_numpy().argmin())]
        out[(model, ranker)] = {
            "nDCG@1": rows["mean"].iloc[0],
            "minimum": low["mean"],
            "at k": int(low["k"]),
            "nDCG@n": rows["mean"].iloc[-1],
            "expected relevant items": int(round(relevant[model])),
        }
    return rounded(pd.DataFrame.from_dict(out, orient="index").rename_axis(["model", "ranker"]))


#: The pair table's columns, in words, for the appendix.
PAIR_COLUMNS = {c: c for c in ("model", "rule", "discount", "better", "worse", "n", "k")} | {
    "replicates": "data sets",
    "p_better": "P(better higher)",
    "p_better_low": "Wilson low",
    "p_better_high": "Wilson high",
    "p_tie": "P(exact tie)",
    "mean_gap": "mean gap",
}


def appendix_pairs(pairs: pd.DataFrame) -> pd.DataFrame:
    """Every cell of the pair table, columns in words (for the appendix)."""
    return headed(pairs, PAIR_COLUMNS, index=["model", "rule", "discount", "better", "worse", "n"])


def appendix_verdicts(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Every verdict cell with its numbers (for the appendix)."""
    return rounded(verdicts.drop(columns=["family_size", "family_confidence"])).set_index(["model", "rule", "discount"])
