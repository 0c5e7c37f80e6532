"""Notebook 07: how many queries an experiment needs under each gain and discount (a simulated collection)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ...findings import Measured, Results, cases, number, span, threshold
from ...stats import kendall_tau
from .experiment import CollectionModel, fewest_queries

#: The criteria of 07_measures.csv that a measure's queries needed should agree with, and the sign of their
#: Kendall tau against the queries needed when they do.
QUERY_CRITERIA = (
    ("power", "discriminative power", -1),
    ("topics_for_stability", "topics for E rho^2 = 0.95", 1),
    ("swap_rate", "swap rate", 1),
)


def _measures(results: Results) -> tuple[pd.DataFrame, int, dict[str, Any], dict[str, Any]]:
    """07_measures.csv with a measure label and the fewest-queries group, the best row's index, the run's
    recorded parameters, and the values of the collection's description that every finding of 07 quotes."""
    table = results.table("07_measures.csv")
    best, group, more = fewest_queries(
        table["queries_needed"], table["queries_needed_low"], table["queries_needed_high"]
    )
    table = table.assign(measure=table["gain"] + " · " + table["discount"], group=group, more=more)
    params = results.record("07_query_sets.json")["parameters"]
    collection = {key: params[key] for key in ("systems", "target_accuracy", "trials", "population_topics", "seed")}
    collection["depth"] = CollectionModel(systems=params["systems"], **params["model"]).depth
    return table, best, params, collection


def _needed(row: pd.Series) -> str:
    return (
        f"{number(row['queries_needed'], 3)} [{number(row['queries_needed_low'], 3)}, "
        f"{number(row['queries_needed_high'], 3)}]"
    )


def queries_depend_on_discount(results: Results) -> Measured:
    """Numbers and verdict of 'queries-depend-on-discount' (text: ``findings.toml``)."""
    table, best, params, run = _measures(results)
    finite = table[np.isfinite(table["queries_needed"])]
    top = table.iloc[best]
    worst = finite.loc[finite["queries_needed"].idxmax()]
    taus = {key: kendall_tau(finite["queries_needed"], finite[key]) for key, _, _ in QUERY_CRITERIA}
    agree = [sign * taus[key] >= threshold("strong_tau") for key, _, sign in QUERY_CRITERIA]
    differ = bool(table["more"].any())
    verdict = "does not hold" if not differ else "holds" if all(agree) else "holds with qualification"
    return Measured(
        verdict,
        {
            **run,
            "measures": len(table),
            "best": top["measure"],
            "best_needed": _needed(top),
            "best_value": number(top["queries_needed"], 3),
            "worst": worst["measure"],
            "worst_needed": _needed(worst),
            "worst_value": number(worst["queries_needed"], 3),
            "factor": number(worst["queries_needed"] / top["queries_needed"], 3),
            "more": cases(int(table["more"].sum()), len(table)),
            "group": ", ".join(table[table["group"]]["measure"]),
            "topics": params["topics"],
            "power": span(table["power"], 3),
            "swap_size": max(c for c in params["sizes"] if 2 * c <= params["topics"]),
            "swap": span(table["swap_rate"], 3),
            "agreement": "agree" if all(agree) else "agree only in part",
            "criteria": [{"label": label, "tau": f"{taus[key]:+.2f}"} for key, label, _ in QUERY_CRITERIA],
            "abs_taus": span([abs(t) for t in taus.values()], 2),
        },
        {
            "ratio_worst_best": float(worst["queries_needed"] / top["queries_needed"]),
            **{f"tau_{key}": float(v) for key, v in taus.items()},
        },
    )


def fast_discounts_need_more_queries(results: Results) -> Measured:
    """Numbers and verdict of 'fast-discounts-need-more-queries' (text: ``findings.toml``)."""
    table, best, _, run = _measures(results)
    top = table.iloc[best]
    slow = table[table["decay"] == "slowly varying"]
    fast_decays = threshold("query_fast_decays")
    fast = table[table["decay"].isin(fast_decays)]
    separated = {}
    for gain, rows in table.groupby("gain", sort=False):
        s, f = rows[rows["decay"] == "slowly varying"], rows[rows["decay"].isin(fast_decays)]
        separated[gain] = bool(s["queries_needed_high"].max() < f["queries_needed_low"].min())
    classes = sorted(
        (
            rows["queries_needed"].min(),
            {
                "decay": decay,
                "discounts": ", ".join(dict.fromkeys(rows["discount"])),
                "ranges": "; ".join(f"{g} {span(r['queries_needed'], 3)}" for g, r in rows.groupby("gain", sort=False)),
            },
        )
        for decay, rows in table.groupby("decay", sort=False)
    )
    if not all(separated.values()):
        verdict = "does not hold"
    elif top["decay"] == "slowly varying" and bool(slow["group"].all()):
        verdict = "holds"
    else:
        verdict = "holds with qualification"
    outside = slow[~slow["group"]]["measure"].tolist()
    fewest = [r.loc[r["queries_needed"].idxmin()] for _, r in table.groupby("gain", sort=False)]
    return Measured(
        verdict,
        {
            **run,
            "classes": [text for _, text in classes],
            "fast_names": " and ".join(fast_decays),
            "separated": [{"gain": g, "answer": "yes" if v else "no"} for g, v in separated.items()],
            "fewest": [{"gain": r["gain"], "discount": r["discount"], "decay": r["decay"]} for r in fewest],
            "best": top["measure"],
            "slow_in_group": cases(int(slow["group"].sum()), len(slow)),
            "outside": f" (outside: {', '.join(outside)})" if outside else "",
            "fast_more": cases(int(fast["more"].sum()), len(fast)),
            "by_class": [
                {"decay": d, "range": span(r["queries_needed"], 3)} for d, r in table.groupby("decay", sort=False)
            ],
        },
        {f"separated_{g}": float(v) for g, v in separated.items()},
    )


def per_topic_win_predicts_queries(results: Results) -> Measured:
    """Numbers and verdict of 'per-topic-win-predicts-queries' (text: ``findings.toml``)."""
    table, _, _, run = _measures(results)
    finite = table[np.isfinite(table["queries_needed"])]
    tau = kendall_tau(finite["per_topic_win"], finite["queries_needed"])
    tied = finite[finite["per_topic_tie"] > threshold("tie_share")]
    untied = finite[finite["per_topic_tie"] <= threshold("tie_share")]
    tau_untied = kendall_tau(untied["per_topic_win"], untied["queries_needed"]) if len(untied) > 2 else math.nan
    verdict = "holds" if tau <= -threshold("strong_tau") else "holds with qualification" if tau < 0 else "does not hold"
    return Measured(
        verdict,
        {
            **run,
            "wins": span(finite["per_topic_win"], 3),
            "measures": len(finite),
            "tau": f"{tau:+.3f}",
            "tau_short": f"{tau:+.2f}",
            "tied": [{"measure": r.measure, "share": number(r.per_topic_tie, 2)} for r in tied.itertuples()],
            "tau_untied": number(tau_untied, 3),
            "tau_untied_short": number(tau_untied, 2),
        },
        {"tau": float(tau), "tau_untied": float(tau_untied)},
    )


def linear_gain_fewer_queries(results: Results) -> Measured:
    """Numbers and verdict of 'linear-gain-fewer-queries' (text: ``findings.toml``)."""
    table, _, params, run = _measures(results)
    gains = list(dict.fromkeys(table["gain"]))
    if len(gains) != 2:
        raise ValueError(f"07_measures.csv: the gain comparison needs exactly two gains, got {gains!r}")
    first, second = gains
    rows = table.set_index(["gain", "discount"])
    discounts = list(dict.fromkeys(table["discount"]))
    fewer = [d for d in discounts if rows.loc[(first, d), "queries_needed"] < rows.loc[(second, d), "queries_needed"]]
    apart = [
        d
        for d in discounts
        if rows.loc[(first, d), "queries_needed_high"] < rows.loc[(second, d), "queries_needed_low"]
    ]
    ratio = [rows.loc[(second, d), "queries_needed"] / rows.loc[(first, d), "queries_needed"] for d in discounts]
    verdict = (
        "holds"
        if len(apart) == len(discounts)
        else "holds with qualification"
        if len(fewer) == len(discounts)
        else "does not hold"
    )
    return Measured(
        verdict,
        {
            **run,
            "first": first,
            "second": second,
            "ratio": span(ratio, 3),
            "fewer": cases(len(fewer), len(discounts)),
            "apart": cases(len(apart), len(discounts)),
            "apart_list": f" ({', '.join(apart)})" if apart else "",
            "grade_probabilities": ", ".join(str(p) for p in CollectionModel(**params["model"]).grade_probabilities),
        },
        {"fewer": float(len(fewer)), "apart": float(len(apart))},
    )
