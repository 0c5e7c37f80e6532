"""Notebook 11: the discounts around 1/r, with a certain and an uncertain top."""

from __future__ import annotations

from ...findings import Measured, Results, number, threshold
from ...pipeline.tables import agreement_counts
from ...simulation.scaling import decay_index


def critical_point_bracketed(results: Results) -> Measured:
    """Numbers and verdict of 'critical-point-bracketed' (text: ``findings.toml``)."""
    v = results.table("11_verdicts.csv")
    threshold("trend_confidence")  # the notebook's trend classes (falls, flat, rises) are judged at it
    v = v.assign(pair=v["better"] + " > " + v["worse"], beyond=v["discount"].map(decay_index) >= 1)
    cells = []
    for (label, pair), rows in v.groupby(["label", "pair"], sort=False):
        other = rows[rows["verdict"] != "keeps"]
        rising = other[other["verdict"] == "loses"]["discount"].tolist()
        cells.append(
            {
                "label": label,
                "pair": pair,
                "keeps": ", ".join(rows[rows["verdict"] == "keeps"]["discount"]) or "none",
                "others": (f"; not under {', '.join(other['discount'])}" if len(other) else "")
                + (f" (rising under {', '.join(rising)})" if rising else ""),
            }
        )
    uncertain, certain = v[v["label"] == "uncertain"], v[v["label"] == "certain"]
    loss_side, below = uncertain[uncertain["beyond"]], uncertain[~uncertain["beyond"]]
    kept_beyond = loss_side[loss_side["verdict"] == "keeps"]
    # Rule (written before the full run): the reading holds, for an uncertain top only, when there no discount at
    # or beyond 1/r keeps a falling failure rate while with a certain top every discount of the bracket does.
    lost_from_r = bool((loss_side["verdict"] != "keeps").all())
    verdict = "holds with qualification" if lost_from_r and (certain["verdict"] == "keeps").all() else "does not hold"
    counts = agreement_counts(v["agreement"])
    return Measured(
        verdict,
        {
            "n0": int(v["n_first"].min()),
            "n1": int(v["n_last"].max()),
            "cells": cells,
            **counts,
            "kept_beyond": [
                {
                    "discount": r.discount,
                    "pair": r.pair,
                    "b": f"{number(r.failure_exponent, 2)} [{number(r.failure_low, 2)}, {number(r.failure_high, 2)}]",
                    "p": number(r.p_last, 2),
                    "n": int(r.n_last),
                }
                for r in kept_beyond.itertuples()
            ],
            "kept_at_r": len(kept_beyond[kept_beyond["discount"] == "zipf"]),
            "kept_below": [
                {"discount": r.discount, "pair": r.pair} for r in below[below["verdict"] == "keeps"].itertuples()
            ],
            "unresolved_cells": [
                {"label": r.label, "discount": r.discount, "pair": r.pair}
                for r in v[v["agreement"] == "unresolved"].itertuples()
            ],
        },
        {name: float(value) for name, value in counts.items()},
    )
