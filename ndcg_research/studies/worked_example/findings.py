"""Notebook 01 (the worked example): its finding."""

from __future__ import annotations

from ...findings import Measured, Results, cases, number, threshold


def worked_example(results: Results) -> Measured:
    """Numbers and verdict of 'worked-example' (text: ``findings.toml``)."""
    table = results.table("01_worked_example.csv").set_index("quantity")
    quoted = table[table["article"].notna()]
    decimals = threshold("worked_example_decimals")
    matches = [
        round(float(m), decimals) == round(float(a), decimals)
        for m, a in zip(quoted["measured"], quoted["article"], strict=True)
    ]
    inflated = float(table.loc["nDCG, ideal from returned list only", "measured"])
    return Measured(
        "holds" if all(matches) else "does not hold",
        {
            "values": ", ".join(f"{q} {number(v, 4)}" for q, v in zip(quoted.index, quoted["measured"], strict=False)),
            "agree": cases(sum(matches), len(matches)),
            "inflated": number(inflated, 3),
        },
        {q: float(v) for q, v in table["measured"].items()},
    )
