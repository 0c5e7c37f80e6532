"""Notebook 11: the discounts around 1/r, with a certain and an uncertain top."""

from __future__ import annotations

from ...findings import Measured, Results, cases, number, proportion, threshold
from ...pipeline.tables import agreement_counts
from ...simulation.scaling import decay_index


def critical_point_bracketed(results: Results) -> Measured:
    """Numbers and verdict of 'critical-point-bracketed' (text: ``findings.toml``)."""
    v = results.table("11_verdicts.csv")
    threshold("trend_confidence")  # the notebook's trend classes (falls, flat, rises) are judged at it
    v = v.assign(pair=v["better"] + " > " + v["worse"])
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
    # Below 1/r: decay index under 1; beyond: index at least 1 but not 1/r itself (zipflog is summable).
    side = v["discount"].map(decay_index).where(v["discount"] != "zipf")
    uncertain, certain = v[v["label"] == "uncertain"], v[v["label"] == "certain"]
    below, beyond = uncertain[side[uncertain.index] < 1], uncertain[side[uncertain.index] >= 1]
    at_r = v[v["discount"] == "zipf"]
    falls = {name: rows["verdict"] == "keeps" for name, rows in (("below", below), ("beyond", beyond))}
    # Rule (issue 25, item 6): a finite claim on the trends; the 1/r cells, a slow approach to a constant by
    # derivation (d), are reported and not judged.
    verdict = (
        "holds"
        if falls["below"].all() and not falls["beyond"].any() and (certain["verdict"] == "keeps").all()
        else "does not hold"
    )
    counts = agreement_counts(v["agreement"])
    return Measured(
        verdict,
        {
            "n0": int(v["n_first"].min()),
            "n1": int(v["n_last"].max()),
            "cells": cells,
            **counts,
            "below_falls": cases(int(falls["below"].sum()), len(below)),
            "beyond_falls": cases(int(falls["beyond"].sum()), len(beyond)),
            "certain_falls": cases(int((certain["verdict"] == "keeps").sum()), len(certain)),
            "at_r": [
                {
                    "label": r.label,
                    "pair": r.pair,
                    "b": f"{number(r.failure_exponent, 2)} [{number(r.failure_low, 2)}, {number(r.failure_high, 2)}]",
                    "p": proportion(r.p_last, r.p_last_low, r.p_last_high, int(r.replicates_last)),
                    "n": int(r.n_last),
                }
                for r in at_r.itertuples()
            ],
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
