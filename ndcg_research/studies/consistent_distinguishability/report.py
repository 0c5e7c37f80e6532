"""Notebook 09 (consistent distinguishability): its reader tables of reading (a) (the failure and growth tables) and of
reading (b) (the stream study's stability and change tables), and the verdict of reading (b) per case.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ...findings import threshold
from ...pipeline.tables import count_cells, pivot, rounded, value_range

MODEL, PAIR = "model", "pair (better > worse)"


def _pair(table: pd.DataFrame) -> pd.Series:
    return table["better"] + " > " + table["worse"]


def settle_from(grid: Sequence[int], length: int) -> int:
    """The grid n from which settling is judged: the largest at or below ``stream_settle_from`` times the stream's
    length (the first grid n if none is)."""
    limit = threshold("stream_settle_from") * length
    below = [n for n in grid if n <= limit]
    return max(below) if below else grid[0]


def stream_verdicts(stability: Mapping[str, pd.DataFrame], changes: pd.DataFrame, n0: int) -> pd.DataFrame:
    """The result table ``09_stream_changes.csv``: the change table with each case's share of streams settled from
    ``n0`` on and its verdict.

    Rule (thresholds ``stream_settled_lower`` and ``stream_not_settled_upper``, fixed before the runs): *settled* when
    the Wilson lower bound of the share of streams the better ranker wins at every grid n from ``n0`` on is at least the
    first, *not settled* when the upper bound is at most the second, *partly settled* otherwise.
    """
    settled = pd.concat([t[t["n0"] == n0].assign(label=label) for label, t in stability.items()])
    out = changes.merge(
        settled[["label", "discount", "better", "worse", "n0", "p_settled", "p_settled_low", "p_settled_high"]],
        on=["label", "discount", "better", "worse"],
    )
    out["verdict"] = np.where(
        out["p_settled_low"] >= threshold("stream_settled_lower"),
        "settled",
        np.where(out["p_settled_high"] <= threshold("stream_not_settled_upper"), "not settled", "partly settled"),
    )
    return out


def failure_ends(failures: Mapping[str, pd.DataFrame], n0: int, n1: int) -> pd.DataFrame:
    """The failure share 1 - P(better strictly higher) at ``n0`` and ``n1``, as failures/data sets [Wilson 95%]: rows
    (model, discount), columns (pair, n)."""
    rows = pd.concat([t[t["n"].isin([n0, n1])].assign(label=label) for label, t in failures.items()])
    rows = rows.assign(pair=_pair(rows), cell=count_cells(rows, "p_fail", digits=4))
    wide = pivot(rows, ["label", "discount"], ["pair", "n"], "cell")
    wide.index.names = [MODEL, "discount"]
    wide.columns.names = ["failures of the better ranker", "n"]
    return wide


def growth_grid(growth: pd.DataFrame) -> pd.DataFrame:
    """The fitted exponent a of d ~ c n^a with its 95% interval, and whether the failure probability vanishes faster
    than any power (the interval above 0 and d > 0 at every fitted n): rows (model, discount), columns the pairs."""
    cells = [
        (
            "undefined (d <= 0 at some n)"
            if np.isnan(r.exponent)
            else f"{r.exponent:.2f} [{r.exponent_low:.2f}, {r.exponent_high:.2f}]"
        )
        + (": yes" if r.vanishes_superpolynomially else ": no")
        for r in growth.itertuples()
    ]
    wide = pivot(growth.assign(pair=_pair(growth), cell=cells), ["label", "discount"], "pair", "cell")
    wide.index.names, wide.columns.name = [MODEL, "discount"], "exponent a [95%]: faster than any power?"
    return wide


def growth_by_discount(growth: pd.DataFrame) -> pd.DataFrame:
    """Per discount: in how many (model, pair) cases the failure probability vanishes faster than any power, and the
    range of the exponent a."""
    out = {}
    for discount, part in growth.groupby("discount", sort=False):
        exps = part["exponent"].dropna()
        span = value_range(exps, 2) if len(exps) else "undefined"
        faster = int(part["vanishes_superpolynomially"].sum())
        out[discount] = {"faster than any power (cases)": f"{faster} of {len(part)}", "exponent a": span}
    return pd.DataFrame.from_dict(out, orient="index").rename_axis("discount")


#: The normal approximation is judged where the measured failure share is well estimated.
RESOLVABLE = (0.01, 0.5)


def normal_check(failures: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per discount, the normal approximation Phi(-d) against the measured failure share where the latter lies in
    :data:`RESOLVABLE`: in how many cells it is inside the Wilson interval, and the range of their ratio."""
    rows = pd.concat(failures.values())
    low, high = RESOLVABLE
    rows = rows[(rows["p_fail"] >= low) & (rows["p_fail"] <= high) & rows["p_fail_normal"].notna()]
    out = {}
    for discount, part in rows.groupby("discount", sort=False):
        inside = (part["p_fail_normal"] >= part["p_fail_low"]) & (part["p_fail_normal"] <= part["p_fail_high"])
        ratio = part["p_fail_normal"] / part["p_fail"]
        out[discount] = {
            "Phi(-d) inside the Wilson interval": f"{int(inside.sum())} of {len(part)}",
            "Phi(-d) / measured": f"{ratio.min():.2f} to {ratio.max():.2f}",
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis(
        f"discount (cells with a failure share from {low:g} to {high:g})"
    )


def stream_grid(changes: pd.DataFrame) -> pd.DataFrame:
    """Reading (b) per case: the verdict and the streams won at every grid n from n0 on, as count/streams [Wilson 95%];
    rows (model, discount), columns the pairs."""
    cells = count_cells(changes, "p_settled", "streams")
    cells = [f"{v}: {c}" for v, c in zip(changes["verdict"], cells, strict=False)]
    wide = pivot(changes.assign(pair=_pair(changes), cell=cells), ["label", "discount"], "pair", "cell")
    wide.index.names, wide.columns.name = [MODEL, "discount"], "verdict: streams settled from n0"
    return wide


def stream_by_discount(changes: pd.DataFrame) -> pd.DataFrame:
    """Per discount: the verdicts of its (model, pair) cases and the range of the share of streams settled."""
    out = {}
    for discount, part in changes.groupby("discount", sort=False):
        counts = part["verdict"].value_counts().to_dict()
        out[discount] = {
            "verdicts": ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())),
            "share of streams settled": f"{part['p_settled'].min():.2f} to {part['p_settled'].max():.2f}",
        }
    return pd.DataFrame.from_dict(out, orient="index").rename_axis("discount")


def appendix_changes(changes: pd.DataFrame) -> pd.DataFrame:
    """Every reading-(b) case with the last change points and the settled share (for the appendix)."""
    columns = "label discount better worse never_changes change_median change_q90 fail_in_last_decade p_settled"
    columns += " p_settled_low p_settled_high verdict"
    return rounded(changes[columns.split()].rename(columns={"label": MODEL})).set_index(
        [MODEL, "discount", "better", "worse"]
    )


def appendix_failures(failures: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Every reading-(a) cell of every model (for the appendix)."""
    rows = pd.concat([t.assign(model=label) for label, t in failures.items()])
    return rounded(rows).set_index(["model", "discount", "better", "worse", "n"])
