"""Notebook 13 (nDCG@k with k = n^a): the measured trend of the standardized gap against the scaling law."""

from __future__ import annotations

import math

import pandas as pd

from ...findings import threshold
from ...pipeline import tables
from ...simulation import scaling
from ...simulation.cutoff import parse_cutoff

#: The columns that identify a fit of the trend table.
FIT_KEYS = ("model", "rule", "discount", "better", "worse")


def trend_table(pair_table: pd.DataFrame, heuristic: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per (model, rule, discount, pair): the measured trend of the standardized gap of nDCG@k(n) (``gap_trend``)
    against the scaling law at the rule's exponent a (a call when farther than ``exponent_margin`` from 0)."""
    confidence, margin = threshold("trend_confidence"), threshold("exponent_margin")
    out = (
        scaling.gap_trend(pair_table, FIT_KEYS, confidence).drop(columns="points").rename(columns={"trend": "measured"})
    )
    a = [parse_cutoff(rule).exponent for rule in out["rule"]]
    out.insert(2, "a", a)
    cells = list(zip(out["model"], out["better"], out["worse"], out["discount"], strict=True))
    law = [scaling.gap_exponent(*cell, exponent).exponent for cell, exponent in zip(cells, a, strict=True)]
    out["law_exponent"] = law
    out["a_star"] = [scaling.cutoff_threshold(*cell) for cell in cells]
    out["predicted"] = ["grows" if e > margin else "shrinks" if e < -margin else "no call" for e in law]
    out["heuristic_exponent"] = [
        scaling.heuristic_exponent(heuristic, r.n_from, **{key: getattr(r, key) for key in FIT_KEYS})
        for r in out.itertuples()
    ]
    out["agreement"] = [tables.trend_agreement(p, m) for p, m in zip(out["predicted"], out["measured"], strict=True)]
    return out


def fitted_texts(trend: pd.DataFrame, pair_table: pd.DataFrame) -> pd.Series:
    """Each fit's exponent with its interval as text, or "not resolved" (``exponent_text``)."""
    return appendix_table(trend, pair_table)["exponent [95%]"]


def appendix_table(trend: pd.DataFrame, pair_table: pd.DataFrame) -> pd.DataFrame:
    """The trend table to read: its exponent columns as :func:`fitted_texts`, the other floats rounded to 3 decimals."""
    shown = tables.with_exponent_text(trend, resolved=tables.gaps_resolved(pair_table, trend, FIT_KEYS))
    return tables.rounded(shown, 3)


def threshold_table(trend: pd.DataFrame, model: str) -> pd.DataFrame:
    """One model's cut-off thresholds: per discount and pair, the law's a* and the measured trend at each rule."""
    rows = trend[trend["model"] == model].sort_values("a", kind="stable")
    discounts = list(dict.fromkeys(rows["discount"]))
    columns = {}
    for (better, worse), g in rows.groupby(["better", "worse"], sort=False):
        pair = f"{better} > {worse}"
        a_values = ", ".join(f"{a:g}" for a in dict.fromkeys(g["a"]))
        by = g.groupby("discount", sort=False)
        columns[(pair, "threshold a* (law)")] = [_a_text(by.get_group(d)["a_star"].iloc[0]) for d in discounts]
        columns[(pair, f"measured at a = {a_values}")] = [", ".join(by.get_group(d)["measured"]) for d in discounts]
        columns[(pair, "law predicts")] = [", ".join(by.get_group(d)["predicted"]) for d in discounts]
    return pd.DataFrame(columns, index=pd.Index(discounts, name="discount"))


def _a_text(a_star: float) -> str:
    """``'0.57'``, ``'none <= 1'`` (the gap grows for no a) or ``'0'`` (for every a)."""
    return "none <= 1" if not math.isfinite(a_star) else f"{round(float(a_star), 2) + 0.0:g}"


def growth_answer_lines(
    trend: pd.DataFrame, labels: dict[str, str], pair_table: pd.DataFrame | None = None
) -> list[str]:
    """The notebook's answer: the case k = sqrt(n), the measured trends against the law (``labels``: spec -> label)."""
    lines = []
    for r in trend[(trend["a"] == 0.5) & (trend["discount"] == "log2")].itertuples():
        resolved = pair_table is None or bool(tables.gaps_resolved(pair_table, trend.loc[[r.Index]], FIT_KEYS).iloc[0])
        exponent = f"d ~ n^{r.exponent:.2g} [{r.exponent_low:.2g}, {r.exponent_high:.2g}]"
        if tables.exponent_text(r.exponent, r.exponent_low, r.exponent_high, resolved=resolved) == tables.NOT_RESOLVED:
            exponent = f"d ~ n^e, e {tables.NOT_RESOLVED}"
        lines.append(
            f"{labels.get(r.model, r.model)} top, k = n^0.5, log2: {r.better} > {r.worse}: {exponent} ({r.measured}; "
            f"law {r.law_exponent:.2g}, threshold a* = {_a_text(r.a_star)})"
        )
    called = int((trend["agreement"] != "no call").sum())
    confidence = threshold("trend_confidence")
    lines.append(
        f"Against the law (a call where |exponent| > {threshold('exponent_margin'):g}), the measured trend "
        f"{tables.agreement_text(trend['agreement'])} ({len(trend) - called} cells without a call); with each "
        f"trend judged at {confidence:.0%}, chance alone would misjudge about "
        f"{(1 - confidence) * called:.1f}."
    )
    return lines
