"""Notebook 10 (rankers whose order depends on the discount): its tables to read, from the crossing table (stacked
over models, with a ``label`` column) and the per-model decision tables of :mod:`ndcg_research.simulation.crossing`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ...findings import threshold
from ...pipeline.tables import chance_level, count_cells, pivot, stack


def crossing_grid(crossings: pd.DataFrame, label: str, discounts: Sequence[str], n_max: int) -> pd.DataFrame:
    """The n at which the noisy ranker's expected nDCG overtakes the head's, per discount (rows) and head (columns)."""
    rows = crossings[crossings["label"] == label]
    cells = ["none up to " + str(n_max) if np.isnan(v) else str(int(v)) for v in rows["crossing_n"]]
    wide = pivot(rows.assign(cell=cells), "discount", "first", "cell").reindex(discounts)
    return wide.rename_axis(columns="expected crossing n, head:")


def same_in_every_model(crossings: pd.DataFrame, n_min: int) -> str:
    """One sentence: are the crossings the same in every model, and does the head lead at the smallest n?"""
    tables = [pivot(rows, "discount", "first", "crossing_n").fillna(-1) for _, rows in crossings.groupby("label")]
    same = all(t.equals(tables[0]) for t in tables)
    return (
        f"the crossings are the same in every model: {same}; the head leads at n = {n_min} under every "
        f"discount: {bool(crossings['first_ahead_below'].all())}"
    )


def crossing_order(crossings: pd.DataFrame, label: str, n_max: int) -> pd.DataFrame:
    """Per head: the discounts in the order of their crossings, those without one, and how close the slowly varying
    discounts cross (the factor between their crossings, and the crossings in multiples of m)."""
    out = {}
    for head, rows in crossings[crossings["label"] == label].groupby("first", sort=False):
        rows = rows.sort_values("crossing_n")
        found, m = rows[rows["crossing_n"].notna()], int(re.search(r"m=(\d+)", head).group(1))
        slow = found[found["decay"] == "slowly varying"]["crossing_n"]
        out[head] = {
            "crossing order (n)": " < ".join(f"{r.discount} ({int(r.crossing_n)})" for r in found.itertuples()),
            f"no crossing up to n = {n_max}": ", ".join(rows[rows["crossing_n"].isna()]["discount"]) or "-",
            "slowly varying: largest / smallest crossing": f"{slow.max() / slow.min():.2f}" if len(slow) else "-",
            "slowly varying: crossing / m": f"{slow.min() / m:.1f} to {slow.max() / m:.1f}" if len(slow) else "-",
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis("head")


def theory_agreement(decisions: Mapping[str, pd.DataFrame], crossings: pd.DataFrame) -> str:
    """One sentence: far from the expected crossing (a factor ``head_crossing_far_factor`` either side), in how many
    decided cells (Wilson interval excluding 1/2) the majority of data sets picks the ranker the expected gap picks."""
    factor = threshold("head_crossing_far_factor")
    keys = ["label", "first", "discount"]
    both = stack(decisions).merge(crossings[[*keys, "crossing_n", "first_ahead_below"]], on=keys)
    c, n, wins = both["crossing_n"], both["n"], both["p_first_low"] > 0.5
    expect_head = both["first_ahead_below"].astype(bool) & (c.isna() | (n < c))
    far = c.isna() | (n <= c / factor) | (n >= factor * c)
    agree = (wins == expect_head)[far & (wins | (both["p_first_high"] < 0.5))]
    return (
        f"far from the crossing (a factor {factor:g} either side), the majority of data sets picks the ranker the "
        f"theory expects in {int(agree.sum())} of {len(agree)} decided cells"
    )


def head_wins(decisions: pd.DataFrame) -> pd.DataFrame:
    """The head's wins out of the data sets (Wilson 95%; chance cells marked): rows (head, discount), columns n."""
    cells = count_cells(decisions, "p_first", flag=chance_level(decisions, "p_first"))
    wide = pivot(decisions.assign(cell=cells), ["first", "discount"], "n", "cell")
    return wide.rename_axis(index=["head", "discount"], columns="n: head wins")


def disagreement_in_expectation(crossings: pd.DataFrame, label: str, n_max: int) -> pd.DataFrame:
    """Where, in expectation, each discount decides otherwise than log2: between the two crossings."""
    out = []
    for head, rows in crossings[crossings["label"] == label].groupby("first", sort=False):
        crossing = rows.set_index("discount")["crossing_n"]
        ref = crossing["log2"]
        for d, c in crossing.drop("log2").items():
            if np.isnan(c):
                text = f"from n = {int(ref)} on (no crossing up to {n_max})"
            else:
                lo, hi = sorted((int(c), int(ref)))
                text = "never" if lo == hi else f"n in [{lo}, {hi})"
            out.append({"head": head, "discount": d, "text": text})
    wide = pivot(pd.DataFrame(out), "discount", "head", "text")
    return wide.rename_axis(columns="head: expected decision differs from log2 at")


def disagreement_shares(decisions: pd.DataFrame) -> pd.DataFrame:
    """The data sets on which a discount picks another winner than log2, per (head, discount) and n."""
    other = decisions[decisions["discount"] != "log2"]
    cells = [c.split(" ")[0] for c in count_cells(other, "p_differs")]
    wide = pivot(other.assign(cell=cells), ["first", "discount"], "n", "cell")
    return wide.rename_axis(index=["head", "discount"], columns="n: decided otherwise than log2")


def largest_disagreement(decisions: Mapping[str, pd.DataFrame], decay: Mapping[str, str]) -> pd.DataFrame:
    """Per class of discount: the largest share of data sets decided otherwise than log2, and where."""
    both = stack(decisions)
    both = both[both["discount"] != "log2"].assign(decay=lambda t: t["discount"].map(decay))
    worst = both.loc[both.groupby("decay", sort=False)["p_differs"].idxmax()]
    out = {
        "class of discount": worst["decay"],
        "largest share decided otherwise": count_cells(worst, "p_differs"),
        "discount": worst["discount"],
        "head": worst["first"],
        "n": worst["n"].astype(int),
        "model": worst["label"],
    }
    return pd.DataFrame(out).set_index("class of discount")
