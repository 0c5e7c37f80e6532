"""Notebook 06: its four result tables ``06_*.csv`` (what the findings read), their reader tables, and the
comparison of two runs' tables."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ...core import ndcg, ndcg_parts
from ...pipeline.tables import count_cells, pivot, rounded
from ...stats import CONFIDENCE, TIE_TOLERANCE, wilson_interval
from ...stats._replication import proportion_z
from . import experiment as lim

#: How a run is scored in section 3 (the shares of collections with the novel system ahead).
ORDER_LABELS = ("true", "unjudged = 0", "condensed", "unjudged = 0, novel pooled too")
#: The estimates whose bias is measured.
METHODS = lim.METHODS[1:]


def signed(x: float) -> str:
    """A bias with its sign and three decimals; rounded first, so a last-bit -0.0 prints as +0.000."""
    return f"{round(float(x), 3) + 0.0:+.3f}"


def appending_example(
    grades: Sequence[int], known: Sequence[int], extras: Sequence[int] = (0, 1, 5, 50)
) -> pd.DataFrame:
    """The list with ``extras`` non-relevant documents appended: DCG, IDCG and nDCG (ideal from ``known`` and from the
    list itself) and precision over the whole list."""
    rows = []
    for extra in extras:
        longer = lim.append_nonrelevant(grades, extra)
        parts = ndcg_parts(longer, ideal=list(known) + [0] * extra)
        row = {"appended": extra, "length": longer.size, "DCG": float(parts.dcg), "IDCG": float(parts.idcg)}
        row |= {"nDCG": float(parts.ndcg), "nDCG, own ideal": float(ndcg(longer))}
        rows.append(row | {"precision": float(lim.precision(longer))})
    return rounded(pd.DataFrame(rows).set_index("appended"), 3)


def appending_cases(
    lists: np.ndarray, known: np.ndarray, appended: Sequence[int], cuts: Sequence[int | None]
) -> dict[str, Any]:
    """Every (list, appended, discount log2, zipf or loglog, cut-off, ideal) case: how many, how many lowered or
    changed beyond ``TIE_TOLERANCE``, and the largest change. ``cuts`` may hold ``"longer"``: the appended list's own
    length."""
    longer = {extra: lim.append_nonrelevant(lists, extra) for extra in appended}
    pairs = []
    for extra, discount, cut, ideal in itertools.product(appended, ("log2", "zipf", "loglog"), cuts, (None, known)):
        cut = lists.shape[1] + extra if cut == "longer" else cut
        before = ndcg(lists, cut, ideal=ideal, discount=discount)
        pairs.append((before, ndcg(longer[extra], cut, ideal=ideal, discount=discount)))
    before, after = (np.hstack(values) for values in zip(*pairs, strict=True))
    change = np.abs(after - before)
    lowered = int(np.count_nonzero(after < before - TIE_TOLERANCE))
    changed = int(np.count_nonzero(change > TIE_TOLERANCE))
    return {"cases": before.size, "lowered": lowered, "changed": changed, "largest change": float(change.max())}


def truncation_pair(long_list: Sequence[int], short_length: int, known: Sequence[int], k: int) -> pd.DataFrame:
    """One list cut to ``short_length`` against the whole list, under the five conventions: both values and which is
    higher."""
    table = lim.truncation_table([long_list], short_length, [known], k)
    rows = []
    for name, (short, long) in table.items():
        s, g = float(short[0]), float(long[0])
        relation = "short = long" if np.isclose(s, g) else ("short > long" if s > g else "short < long")
        rows.append({"convention": name, "nDCG, short": s, "nDCG, long": g, "short vs long": relation})
    return rounded(pd.DataFrame(rows).set_index("convention"), 3)


def truncation_summary(table: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> pd.DataFrame:
    """Per convention of ``truncation_table``: how often the short list scores at least as high as the long one, and
    strictly higher (beyond ``TIE_TOLERANCE``), and the mean values."""
    rows = {}
    for name, (short, long) in table.items():
        shares = {"P(short >= long)": float(np.mean(short >= long - TIE_TOLERANCE))}
        shares["P(short > long)"] = float(np.mean(short > long + TIE_TOLERANCE))
        rows[name] = shares | {"mean short": float(short.mean()), "mean long": float(long.mean())}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("convention")


def novel_ahead(
    pool: Mapping[str, Any], control: Mapping[str, Any], best: int, novel: int
) -> tuple[dict[int, list[float]], list[int]]:
    """Per pool depth, the share of collections with the novel system strictly ahead of the best pooled one under each
    of :data:`ORDER_LABELS` (the last from ``control``), and the number of exact ties per depth."""
    means = np.concatenate([pool["means"], control["means"][:, :, 1:2]], axis=2)  # (replicates, depths, 4, systems)
    ahead = (means[..., novel] > means[..., best]).mean(axis=0)
    ties = (means[..., novel] == means[..., best]).sum(axis=(0, 2))
    return {int(depth): ahead[i].tolist() for i, depth in enumerate(pool["depths"])}, ties.tolist()


def pooling_tables(
    pool: Mapping[str, Any], bias: Mapping[str, np.ndarray], systems: Sequence[str], k: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The true nDCG@k of every system, and the judgments by pool depth (means over the collections)."""
    true = rounded(pd.DataFrame({f"true nDCG@{k}": bias["true"][0]}, index=pd.Index(systems, name="system")))
    judged = {"share of documents judged": pool["judged_fraction"].mean(axis=0)}
    judged["share of relevant documents judged"] = pool["relevant_judged"].mean(axis=0)
    judged["queries without a judged relevant document"] = pool["zero_ideal"]
    return true, rounded(pd.DataFrame(judged, index=pd.Index(pool["depths"], name="pool depth")))


def bias_table(rows: pd.DataFrame, best: str, novel: str) -> pd.DataFrame:
    """The bias of nDCG@k by pool depth, "bias [95% interval]", for the best pooled and the novel system under each
    method, and the control (novel pooled too), from the table ``06_pooling_bias.csv``."""
    bounds = zip(rows["bias"], rows["low"], rows["high"], strict=False)
    text = rows.assign(text=[f"{signed(b)} [{signed(lo)}, {signed(h)}]" for b, lo, h in bounds])
    columns = {(s, m, False): f"{who}, {m}" for s, who in ((best, "best pooled"), (novel, "novel")) for m in METHODS}
    columns[(novel, METHODS[0], True)] = f"control: novel pooled too, {METHODS[0]}"
    wide = pivot(text, "depth", ["system", "method", "novel_pooled"], "text")
    shown = [c for c in columns if c in wide]
    return wide[shown].set_axis([columns[c] for c in shown], axis=1).rename_axis("pool depth")


def order_table(rows: pd.DataFrame) -> pd.DataFrame:
    """P(novel strictly ahead of the best pooled system) per pool depth and method, as collections [Wilson 95%], from
    the table ``06_pooling_order.csv``."""
    cells = count_cells(rows, "p_novel_ahead", "collections")
    wide = pivot(rows.assign(cell=cells), "depth", "method", "cell")
    return wide.rename_axis(index="pool depth", columns="novel ahead, scored:")


def result_tables(
    *,
    cases: Mapping[str, Any],
    truncation: pd.DataFrame,
    lists: int,
    bias: Mapping[str, np.ndarray],
    control: Mapping[str, np.ndarray],
    order: Mapping[int, Sequence[float]],
    depths: Sequence[int],
    systems: Sequence[str],
    replicates: int,
    seed: int,
) -> dict[str, pd.DataFrame]:
    """The four result tables of the notebook, by file name (what the findings read)."""
    appending = pd.DataFrame([{key: cases[key] for key in ("cases", "lowered", "changed")} | {"seed": seed}])
    columns = ["p_short_geq_long", "p_short_gt_long", "mean_short", "mean_long"]
    trunc = truncation.set_axis(columns, axis=1).rename_axis("convention").reset_index().assign(lists=lists, seed=seed)
    runs = dict(collections=replicates, seed=seed)
    bias_rows = pd.DataFrame(
        dict(depth=depth, system=system, method=method, bias=float(b["bias"][i, j, s]), low=float(b["low"][i, j, s]))
        | dict(high=float(b["high"][i, j, s]), true=float(b["true"][i, s]), novel_pooled=pooled, **runs)
        for pooled, b in ((False, bias), (True, control))
        for i, depth in enumerate(depths)
        for j, method in enumerate(METHODS)
        for s, system in enumerate(systems)
    )
    order_rows = []
    for depth in depths:
        for label, share in zip(ORDER_LABELS, order[depth], strict=False):
            low, high = wilson_interval(int(round(share * replicates)), replicates)
            order_rows.append(dict(depth=depth, method=label, p_novel_ahead=share, low=low, high=high, **runs))
    return {
        "06_appending.csv": appending,
        "06_truncation.csv": trunc,
        "06_pooling_bias.csv": bias_rows,
        "06_pooling_order.csv": pd.DataFrame(order_rows),
    }


#: Per result table: what identifies one of its cells, the value the two runs compare and, for a share, its trials
#: (a bias has none: its z comes from its intervals).
CELLS = {
    "06_appending.csv": ([], "share", "cases"),
    "06_truncation.csv": (["convention"], "p_short_geq_long", "lists"),
    "06_pooling_bias.csv": (["depth", "system", "method", "novel_pooled"], "bias", ""),
    "06_pooling_order.csv": (["depth", "method"], "p_novel_ahead", "collections"),
}


def replication_cells(here: Mapping[str, pd.DataFrame], there: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Every cell both runs measured, per result table, with its z (NaN where both measured the same 0 or 1):
    probabilities (appending: the share lowered) by a two-proportion z, biases over their combined standard error."""
    out = {}
    for name, (keys, value, trials) in CELLS.items():
        both = here[name].merge(there[name], suffixes=("", "_full"), **(dict(on=keys) if keys else dict(how="cross")))
        if name == "06_appending.csv":
            for run in ("", "_full"):
                both["share" + run] = both["lowered" + run] / both["cases" + run]
        if trials:  # a two-proportion z; no test where both runs measured the same 0 or 1
            p1, p2 = both[value], both[value + "_full"]
            z = proportion_z(p1, both[trials], p2, both[trials + "_full"]).where(~((p1 == p2) & p1.isin([0.0, 1.0])))
        else:  # the difference of the mean biases over its combined standard error, each from its t-interval
            t = {s: stats.t.ppf(0.5 + CONFIDENCE / 2, both["collections" + s] - 1) for s in ("", "_full")}
            se = {s: (both["high" + s] - both["low" + s]) / (2 * t[s]) for s in t}
            combined = np.sqrt(se[""] ** 2 + se["_full"] ** 2)
            z = ((both["bias"] - both["bias_full"]) / combined).where(combined > 0)
        out[name] = both.assign(z=z)
    return out


def replication_summary(cells: Mapping[str, pd.DataFrame]) -> tuple[pd.DataFrame, str]:
    """Per result table: cells compared, those with the same 0 or 1 in both runs (no test), the largest |z| and the
    cells beyond 3; and one sentence with how many |z| > 3 chance alone would give."""
    rows = []
    for name, both in cells.items():
        z = both["z"]
        row = {"table": name, "cells": len(z), "0 or 1 in both (no test)": int(z.isna().sum())}
        row["largest |z|"] = round(float(z.fillna(0.0).abs().max()), 2)
        rows.append(row | {"|z| > 3": int((z.abs() > 3).sum())})
    z = pd.concat([both["z"] for both in cells.values()])
    tested = int(z.notna().sum())
    within = int((z.fillna(0.0).abs() <= 3).sum())
    return pd.DataFrame(rows).set_index("table"), (
        f"replication: {within} of {len(z)} comparisons agree within chance (|z| <= 3); if the two runs measured "
        f"the same quantities, about {tested * 2 * stats.norm.sf(3):.1f} of the {tested} with a test would "
        f"exceed 3 by chance"
    )


def beyond_chance(cells: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The cells whose :math:`|z|` exceeds 3, with the two runs' values (the share or the bias)."""
    rows = []
    for name, both in cells.items():
        keys, value, _ = CELLS[name]
        for _, r in both[both["z"].abs() > 3].iterrows():
            row = {"table": name, "cell": ", ".join(f"{k} {r[k]}" for k in keys), "this run": round(float(r[value]), 3)}
            rows.append(row | {"full profile": round(float(r[value + "_full"]), 3), "z": round(float(r["z"]), 1)})
    return pd.DataFrame(rows)
