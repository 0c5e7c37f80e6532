"""Notebook 11: the exponent b of ``1 - P(better strictly higher) ~ c n^b`` over ``power(beta)`` (beta 0.8 to 1.2),
``zipf`` and ``zipflog(gamma)`` (:func:`failure_trend`; a cell *keeps* distinguishability when it falls) against the
prediction (:func:`predicted_trend`): lost from 1/r on with an uncertain top, nowhere in the bracket with a certain one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ...core import parse_discount
from ...findings import threshold
from ...pipeline import tables
from ...simulation import scaling
from ...simulation.model import parse_model

#: The key columns of a pair table's cells.
_KEYS = ["discount", "better", "worse"]


def log_binomial_slope(x: Sequence[float], failures: Sequence[int], trials: Sequence[int]) -> tuple[float, float]:
    r"""Maximum-likelihood slope b of ``p_i = exp(alpha + b x_i)`` for ``failures_i ~ Binomial(trials_i, p_i)``
    and its standard error: Fisher scoring, step halving keeps ``p_i < 1``."""
    x, k, r = (np.asarray(v, dtype=np.float64) for v in (x, failures, trials))
    if x.size != k.size or x.size != r.size or np.unique(x).size < 2:
        raise ValueError("x, failures and trials need the same length and at least two distinct x")
    if np.any(k < 0) or np.any(k > r) or k.sum() == 0 or k.sum() == r.sum():
        raise ValueError(
            f"need 0 <= failures <= trials with some failures and some successes, got {k.tolist()} of {r.tolist()}"
        )
    if np.unique(x[k > 0]).size < 2 and (x[k > 0].min() in (x.min(), x.max())):
        raise ValueError(
            f"failures only at the {'smallest' if x[k > 0].min() == x.min() else 'largest'} x: the "
            f"slope is unbounded (no maximum), got {k.tolist()} of {r.tolist()}"
        )
    design = np.column_stack([np.ones_like(x), x])
    # start: least squares on the log of the smoothed shares, then Fisher scoring
    coef = np.linalg.lstsq(design, np.log((k + 0.5) / (r + 1.0)), rcond=None)[0]

    def loglik(c: np.ndarray) -> float:
        p = np.exp(design @ c)
        return float(np.sum(k * np.log(p) + (r - k) * np.log1p(-p))) if np.all(p < 1) else -math.inf

    def information(p: np.ndarray) -> np.ndarray:
        return (design * (r * p / (1 - p))[:, None]).T @ design

    for _ in range(200):
        p = np.exp(design @ coef)
        step = np.linalg.solve(information(p), design.T @ ((k - r * p) / (1 - p)))
        current = loglik(coef)
        while loglik(coef + step) < current and np.max(np.abs(step)) > 1e-14:
            step = step / 2
        coef = coef + step
        if np.max(np.abs(step)) < 1e-12:
            break
    return float(coef[1]), float(math.sqrt(np.linalg.inv(information(np.exp(design @ coef)))[1, 1]))


def failure_trend(pair_table: pd.DataFrame) -> pd.DataFrame:
    """The exponent b of ``failure ~ c n^b`` per (discount, pair) of a pair table over its n grid, with its interval
    (confidence ``trend_confidence``) and trend: ``falls``, ``rises``, ``flat``, ``no failures`` or ``all failed``."""
    z = stats.norm.ppf(0.5 + threshold("trend_confidence") / 2)
    rows = []
    for key, group in pair_table.groupby(_KEYS, sort=False):
        group = group.sort_values("n")
        trials = group["replicates"].to_numpy(dtype=np.int64)
        failures = np.rint((1 - group["p_better"].to_numpy()) * trials).astype(np.int64)
        ends = dict(n_from=int(group["n"].min()), n_to=int(group["n"].max()), points=len(group))
        row = dict(zip(_KEYS, key, strict=True)) | ends | dict(failures=int(failures.sum()))
        exponent = low = high = math.nan
        seen = failures > 0
        if failures.sum() == 0:
            trend = "no failures"
        elif failures.sum() == trials.sum():
            trend = "all failed"
        elif seen.sum() == 1 and (seen[0] or seen[-1]):  # failures at one end of n only: the slope is unbounded
            trend, exponent = ("falls", -math.inf) if seen[0] else ("rises", math.inf)
            low = high = exponent
        else:
            exponent, se = log_binomial_slope(np.log(group["n"].to_numpy(dtype=np.float64)), failures, trials)
            low, high = exponent - z * se, exponent + z * se
            trend = "falls" if high < 0 else "rises" if low > 0 else "flat"
        rows.append(row | dict(exponent=exponent, exponent_low=low, exponent_high=high, trend=trend))
    return pd.DataFrame(rows)


def predicted_trend(model: str, better: str, worse: str, discount: str) -> str:
    """The failure rate as n grows, by this package's derivation: ``"falls"`` (P -> 1), ``"flat"`` (uncertain top at
    1/r) or ``"rises"`` (P -> 1/2: uncertain top beyond 1/r)."""
    if parse_model(model).hi == 1:  # certain top: rare misses at the first ranks, rarer as n grows
        return "falls"
    e = scaling.gap_exponent(model, better, worse, discount)
    if e.exponent > 0:
        return "falls"
    return "flat" if e.exponent == 0 and e.log_power == 0 else "rises"


def verdict_table(pair_tables: Mapping[str, pd.DataFrame], heuristic: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per (model label, discount, pair): P(correct) at both ends, the trends of the failure rate and the gap, the
    scaling law, the prediction, the verdict (``keeps``, ``loses`` or ``flat``) and their agreement."""
    rows = []
    for label, table in pair_tables.items():
        gap = scaling.gap_trend(table, _KEYS, threshold("trend_confidence"))
        merged = failure_trend(table).merge(gap, on=_KEYS, suffixes=("_fail", "_d"))
        for r in merged.itertuples(index=False):
            cell = tables.select(table, discount=r.discount, better=r.better, worse=r.worse)
            first, last = cell.iloc[0], cell.iloc[-1]
            law = scaling.gap_exponent(first["model"], r.better, r.worse, r.discount)
            predicted = predicted_trend(first["model"], r.better, r.worse, r.discount)
            measured = "falls" if r.trend_fail == "no failures" else r.trend_fail
            cell_keys = dict(label=label, discount=r.discount, better=r.better, worse=r.worse)
            rows.append(
                dict(
                    label=label,
                    model=first["model"],
                    discount=r.discount,
                    decay=parse_discount(r.discount).decay,
                    better=r.better,
                    worse=r.worse,
                    n_first=int(first["n"]),
                    p_first=float(first["p_better"]),
                    n_last=int(last["n"]),
                    replicates_last=int(last["replicates"]),
                    p_last=float(last["p_better"]),
                    p_last_low=float(last["p_better_low"]),
                    p_last_high=float(last["p_better_high"]),
                    failure_exponent=r.exponent_fail,
                    failure_low=r.exponent_low_fail,
                    failure_high=r.exponent_high_fail,
                    failure_trend=r.trend_fail,
                    d_last=float(last["std_gap"]),
                    d_n_from=int(r.n_from_d),
                    d_exponent=r.exponent_d,
                    d_low=r.exponent_low_d,
                    d_high=r.exponent_high_d,
                    d_trend=r.trend_d,
                    law_exponent=law.exponent,
                    law_log_power=law.log_power,
                    heuristic_exponent=scaling.heuristic_exponent(heuristic, int(r.n_from_d), **cell_keys),
                    predicted=predicted,
                    verdict={"falls": "keeps", "rises": "loses"}.get(measured, "flat"),
                    agreement=tables.trend_agreement(predicted, measured),
                )
            )
    return pd.DataFrame(rows)


def lost_discounts(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per (model label, pair), slowest decay first: the discounts that keep distinguishability, the others, those
    whose failure rate rises, and the slowest one not kept."""
    rows = []
    for (label, better, worse), group in verdicts.groupby(["label", "better", "worse"], sort=False):
        speed = [(scaling.decay_index(d), parse_discount(d).kwargs.get("gamma", 0.0)) for d in group["discount"]]
        order = group.iloc[sorted(range(len(group)), key=lambda i: speed[i])]
        lost = order[order["verdict"] != "keeps"]
        rows.append(
            dict(
                label=label,
                better=better,
                worse=worse,
                keeps=", ".join(order[order["verdict"] == "keeps"]["discount"]),
                not_kept=", ".join(lost["discount"]),
                rising=", ".join(order[order["verdict"] == "loses"]["discount"]),
                first_lost=lost["discount"].iloc[0] if len(lost) else "",
            )
        )
    return pd.DataFrame(rows)


def answer_lines(verdicts: pd.DataFrame) -> list[str]:
    """The notebook's answer, one line per (model, pair) and one on the agreement with the prediction."""
    lines = []
    for (label, better, worse), rows in verdicts.groupby(["label", "better", "worse"], sort=False):
        lost = lost_discounts(rows).iloc[0]
        keeps = lost["keeps"] or "no discount"
        tail = (
            f"it does not fall under {lost['not_kept']}"
            + (f" (it rises under {lost['rising']})" if lost["rising"] else "")
            if lost["not_kept"]
            else "it falls under every discount of the bracket"
        )
        lines.append(
            f"{label} top, {better} > {worse}: over n = {int(rows['n_first'].min())} to "
            f"{int(rows['n_last'].max())} the failure rate falls under {keeps}; {tail}."
        )
    confidence = threshold("trend_confidence")
    lines.append(
        f"Against the prediction (lost from 1/r on with an uncertain top, nowhere in the bracket with a "
        f"certain top), the failure trend {tables.agreement_text(verdicts['agreement'])}; with each trend judged at "
        f"{confidence:.0%}, chance alone would misjudge about {(1 - confidence) * len(verdicts):.1f}."
    )
    return lines


def summary_table(verdicts: pd.DataFrame, label: str) -> pd.DataFrame:
    """One model's verdicts: per discount and pair, P(correct) at the largest n, the failure exponent b, the verdict."""
    from ...stats._replication import share_label

    def columns(g: pd.DataFrame) -> dict[str, list]:
        return {
            f"P(correct), n = {int(g['n_last'].iloc[0])}": [
                share_label(p, int(r), interval=False) for p, r in zip(g["p_last"], g["replicates_last"], strict=True)
            ],
            "failure ~ n^b: b [95%]": _failure_texts(g),
            "verdict": g["verdict"].tolist(),
        }

    return _by_pair(verdicts, label, columns)


def _failure_texts(verdicts: pd.DataFrame) -> list[str]:
    """The fitted exponents of the failure rate as text, or what an infinite or missing one means."""
    columns = ["failure_exponent", "failure_low", "failure_high", "failure_trend", "n_first"]
    return [
        "no failures"
        if trend == "no failures"
        else f"< 0: failures only at n = {n_first}"
        if exponent == -math.inf
        else "> 0: failures only at the largest n"
        if exponent == math.inf
        else tables.exponent_text(exponent, low, high)
        for exponent, low, high, trend, n_first in verdicts[columns].itertuples(index=False)
    ]


def _by_pair(verdicts: pd.DataFrame, label: str, columns: Any) -> pd.DataFrame:
    """One row per discount of the model ``label``, a column group per pair given by ``columns(the pair's rows)``."""
    rows = verdicts[verdicts["label"] == label]
    discounts = list(dict.fromkeys(rows["discount"]))
    out = {}
    for (better, worse), g in rows.groupby(["better", "worse"], sort=False):
        for name, values in columns(g.set_index("discount").reindex(discounts)).items():
            out[(f"{better} > {worse}", name)] = values
    return pd.DataFrame(out, index=pd.Index(discounts, name="discount"))


def gap_table(verdicts: pd.DataFrame, label: str, pair_table: pd.DataFrame) -> pd.DataFrame:
    """One model's standardized gaps per discount and pair: d at the largest n; fitted, law, heuristic exponents."""
    rows = verdicts[verdicts["label"] == label]
    resolved = tables.gaps_resolved(pair_table, rows, _KEYS, n_from="d_n_from")
    verdicts = verdicts.assign(d_resolved=resolved.reindex(verdicts.index, fill_value=True))

    def columns(g: pd.DataFrame) -> dict[str, list]:
        return {
            f"d, n = {int(g['n_last'].iloc[0])}": [round(float(v), 2) + 0.0 for v in g["d_last"]],
            "d ~ n^e: fitted e [95%]": [
                tables.exponent_text(c, lo, hi, resolved=ok)
                for c, lo, hi, ok in zip(g["d_exponent"], g["d_low"], g["d_high"], g["d_resolved"], strict=True)
            ],
            "law e": [  # with zipflog's log factor: '-0.2', '0 (x ln^-1)'
                f"{round(float(e), 2) + 0.0:g}" + (f" (x ln^{lp:g})" if lp else "")
                for e, lp in zip(g["law_exponent"], g["law_log_power"], strict=False)
            ],
            "heuristic e": [round(float(v), 2) + 0.0 for v in g["heuristic_exponent"]],
        }

    return _by_pair(verdicts, label, columns)


def appendix_table(verdicts: pd.DataFrame, pair_tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Every verdict to read: the fitted exponents as text, the other floats rounded to 4 decimals."""
    groups = verdicts.groupby("label", sort=False)
    parts = [tables.gaps_resolved(pair_tables[label], rows, _KEYS, n_from="d_n_from") for label, rows in groups]
    resolved = pd.concat(parts).reindex(verdicts.index)
    shown = tables.with_exponent_text(verdicts, ("d_exponent", "d_low", "d_high"), "d exponent [95%]", resolved)
    shown = shown.drop(columns=["failure_exponent", "failure_low", "failure_high"])
    shown.insert(shown.columns.get_loc("failure_trend"), "failure exponent [95%]", _failure_texts(verdicts))
    return tables.rounded(shown, 4)
