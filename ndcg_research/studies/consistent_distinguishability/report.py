"""Notebook 09 (consistent distinguishability): its tables to read, and the verdict of reading (b) per case."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ...findings import threshold
from ...pipeline.tables import count_cells, pivot, rounded, value_range

MODEL = "model"


def _by_case(table: pd.DataFrame, cells: list[str], name: str, *within: str) -> pd.DataFrame:
    """``cells`` in a grid: rows (model, discount), a column per pair (``better > worse``), titled ``name``, and per
    value of the columns ``within`` in it."""
    rows = table.assign(pair=table["better"] + " > " + table["worse"], cell=cells)
    wide = pivot(rows, ["label", "discount"], ["pair", *within], "cell")
    return wide.rename_axis(index=[MODEL, "discount"], columns=[name, *within])


def settle_from(grid: Sequence[int], length: int) -> int:
    """The largest grid n at or below ``stream_settle_from`` times the stream's length (else the first grid n)."""
    limit = threshold("stream_settle_from") * length
    return max((n for n in grid if n <= limit), default=grid[0])


def stream_verdicts(stability: Mapping[str, pd.DataFrame], changes: pd.DataFrame, n0: int) -> pd.DataFrame:
    """``09_stream_changes.csv``: the change table with the share of streams settled from ``n0`` and the verdict:
    *settled* when its Wilson lower bound is at least ``stream_settled_lower``, *not settled* when the upper bound is at
    most ``stream_not_settled_upper``, else *partly settled*."""
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
    """The failures of the better ranker at ``n0`` and ``n1`` (count/data sets [Wilson 95%]) per model and discount."""
    rows = pd.concat([t[t["n"].isin([n0, n1])].assign(label=label) for label, t in failures.items()])
    return _by_case(rows, count_cells(rows, "p_fail", digits=4), "failures of the better ranker", "n")


def growth_grid(growth: pd.DataFrame) -> pd.DataFrame:
    """The fitted exponent a of d ~ c n^a [95%], and whether the failure probability vanishes faster than any power."""
    cells = [
        (
            "undefined (d <= 0 at some n)"
            if np.isnan(r.exponent)
            else f"{r.exponent:.2f} [{r.exponent_low:.2f}, {r.exponent_high:.2f}]"
        )
        + (": yes" if r.vanishes_superpolynomially else ": no")
        for r in growth.itertuples()
    ]
    return _by_case(growth, cells, "exponent a [95%]: faster than any power?")


def growth_by_discount(growth: pd.DataFrame) -> pd.DataFrame:
    """Per discount: the cases whose failure probability vanishes faster than any power, and the range of a."""
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
    """Per discount, Phi(-d) against the measured failure share (in :data:`RESOLVABLE`): cells inside, ratio range."""
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
    """Reading (b) per case: the verdict and the streams won at every grid n from n0 on [Wilson 95%]."""
    cells = count_cells(changes, "p_settled", "streams")
    cells = [f"{v}: {c}" for v, c in zip(changes["verdict"], cells, strict=False)]
    return _by_case(changes, cells, "verdict: streams settled from n0")


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
    shown = rounded(changes[columns.split()].rename(columns={"label": MODEL}))
    return shown.set_index([MODEL, "discount", "better", "worse"])


def appendix_failures(failures: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Every reading-(a) cell of every model (for the appendix)."""
    rows = pd.concat([t.assign(model=label) for label, t in failures.items()])
    return rounded(rows).set_index(["model", "discount", "better", "worse", "n"])
