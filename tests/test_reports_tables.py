"""The reports' table helpers: counts with Wilson intervals in one format, the chance-level rule, columns in words.

Wilson intervals are computed here by hand from the closed form (score interval,
Wilson 1927), independently of the package's ``scipy.stats.binomtest`` route.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from ndcg_research.findings.catalogue import catalogue
from ndcg_research.pipeline.tables import (
    CHANCE_MARK,
    agreement_counts,
    agreement_text,
    chance_level,
    count_cells,
    exponent_text,
    gaps_resolved,
    headed,
    interval_text,
    pivot,
    replication_line,
    rounded,
    trend_agreement,
    with_exponent_text,
)
from ndcg_research.stats._replication import share_label

THRESHOLDS = catalogue().thresholds

CELL = re.compile(r"^(\d+)/(\d+) \[(\d\.\d\d),(\d\.\d\d)\]( \(chance\))?$")


def wilson(k: int, n: int, confidence: float) -> tuple[float, float]:
    z = norm.ppf(1 - (1 - confidence) / 2)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_count_cells_have_one_format_and_hand_computed_intervals():
    table = pd.DataFrame({"p": [0.87, 1.0, 0.32, 0.0, 0.5], "replicates": [100, 20, 50, 200, 2]})
    cells = count_cells(table, "p")
    for cell, (p, n) in zip(cells, zip(table["p"], table["replicates"], strict=False), strict=False):
        match = CELL.match(cell)
        assert match, cell
        k = round(p * n)
        low, high = wilson(k, n, 0.95)
        assert (int(match[1]), int(match[2])) == (k, n)
        assert (match[3], match[4]) == (f"{low:.2f}", f"{high:.2f}"), cell
    assert cells[1] == "20/20 [0.84,1.00]"  # a perfect record of 20 reads as a count, never as 1.00
    assert cells[3] == "0/200 [0.00,0.02]"  # ... and so does a share of none, in the same format as the others


def test_count_cells_refuse_a_share_that_is_not_a_count_and_a_misshaped_flag():
    with pytest.raises(ValueError, match="p of row 0 must be a share of 3 trials"):
        count_cells(pd.DataFrame({"p": [0.5], "replicates": [3]}), "p")
    with pytest.raises(ValueError, match="flag must have one entry per row"):
        count_cells(pd.DataFrame({"p": [0.5], "replicates": [2]}), "p", flag=np.array([True, False]))


def test_the_chance_rule_is_a_family_wise_wilson_interval_around_one_half():
    assert THRESHOLDS["chance_p"].value == 0.5
    assert THRESHOLDS["chance_p"].fixed == "after seeing data"  # and says which data in its note
    rows = [(k, n) for n in (20, 50, 200) for k in range(0, n + 1, max(1, n // 20))]
    table = pd.DataFrame({"p": [k / n for k, n in rows], "replicates": [n for _, n in rows]})
    for family in (1, 12, 48):
        level = 1 - 0.05 / family
        want = [wilson(k, n, level)[0] <= 0.5 <= wilson(k, n, level)[1] for k, n in rows]
        assert chance_level(table, "p", family=family).tolist() == want, family
    # Issue 18's cell: 16 wins of 50 data sets. Alone, its 95% interval [0.21,0.46] excludes one half; judged
    # as one of the 48 cells of notebook 04's table it cannot be told from a coin flip.
    cell = pd.DataFrame({"p": [0.32], "replicates": [50]})
    assert chance_level(cell, "p", family=1).tolist() == [False]
    assert chance_level(cell, "p", family=48).tolist() == [True]
    assert count_cells(cell, "p", flag=chance_level(cell, "p", family=48)) == ["16/50 [0.21,0.46]" + CHANCE_MARK]
    # Far from one half it never flags, however large the family.
    assert not chance_level(pd.DataFrame({"p": [0.9], "replicates": [100]}), "p", family=10_000).any()


def test_headed_names_rounds_and_indexes():
    table = pd.DataFrame({"label": ["a", "b"], "mean": [0.123456, 2.0], "sd": [0.5, 0.25], "junk": [1, 2]})
    out = headed(
        table, {"label": "model", "mean": "mean nDCG", "sd": "sd across data sets"}, {"mean": 2}, index=["label"]
    )
    assert out.index.name == "model" and out.columns.tolist() == ["mean nDCG", "sd across data sets"]
    assert out["mean nDCG"].tolist() == [0.12, 2.0] and out["sd across data sets"].tolist() == [0.5, 0.25]
    with pytest.raises(KeyError, match=r"\['nope'\] are not in the table"):
        headed(table, {"nope": "x"})


# ------------------------------------------------------------ examples of pipeline.tables


def test_pivot_example():
    t = pd.DataFrame({"m": ["b", "b", "a"], "d": ["x", "y", "x"], "v": [0.5, 0.7, 0.1]})
    wide = pivot(t, "m", "d", "v")
    expected = (["b", "a"], ["x", "y"], [0.5, 0.7])
    assert (wide.index.tolist(), wide.columns.tolist(), wide.loc["b"].tolist()) == expected


def test_rounded_example():
    expected = "   a      b\n0  x  0.123\n1  y  0.000\n2  z  0.751"
    assert repr(rounded(pd.DataFrame({"a": ["x", "y", "z"], "b": [0.12345, -1e-17, 0.7515]}))) == expected


def test_share_label_of_table_rows_example():
    t = pd.DataFrame({"p_better": [0.87, 1.0, 1.0], "replicates": [100, 20, 1000]})
    assert [share_label(p, n) for p, n in zip(t["p_better"], t["replicates"], strict=True)] == [
        "0.87 [0.79,0.92]",
        "20/20 [0.84,1.00]",
        "1.00 [1.00,1.00]",
    ]


def test_chance_level_example():
    t = pd.DataFrame({"p": [0.32, 0.9, 0.55], "replicates": [50, 50, 100]})
    # one of 24 cells judged together
    assert chance_level(t, "p", family=24).tolist() == [True, False, True]
    # one cell alone: 16 of 50 is below a coin flip
    assert chance_level(t, "p", family=1).tolist() == [False, False, True]


def test_count_cells_example():
    t = pd.DataFrame({"p": [0.87, 1.0, 0.32], "replicates": [100, 20, 50]})
    expected = ["87/100 [0.79,0.92]", "20/20 [0.84,1.00]", "16/50 [0.21,0.46] (chance)"]
    assert count_cells(t, "p", flag=np.array([False, False, True])) == expected


def test_headed_example():
    t = pd.DataFrame({"n": [10, 100], "m": [0.12345, 0.5], "x": [1, 2]})
    expected = "               mean nDCG\nlist length n           \n10                  0.12\n100                 0.50"
    assert repr(headed(t, {"n": "list length n", "m": "mean nDCG"}, {"m": 2}, index=["n"])) == expected


def test_replication_line_counts_the_cells_beyond_three_standard_errors():
    a = pd.DataFrame({"cell": ["x"], "p_better": [0.8], "replicates": [100], "seed": [1]})
    expected = (
        "replication (seed 1 here, 2 in the full profile): 1 cells in common, largest |z| = 3.09, |z| > 3 in 1 "
        "(about 0.0 expected by chance)"
    )
    assert replication_line(a, a.assign(p_better=0.6, seed=2), ["cell"], "p_better") == expected


def test_interval_text_example():
    assert (interval_text(0.2123, 0.15, 0.27), interval_text(float("nan"), 0.0, 0.0)) == ("0.21 [0.15, 0.27]", "-")


def test_replication_line_example():
    a = pd.DataFrame(dict(n=[10, 20], p=[0.5, 0.6], replicates=100, seed=1))
    b = pd.DataFrame(dict(n=[10, 30], p=[0.55, 0.7], replicates=400, seed=2))
    expected = (
        "replication (seed 1 here, 2 in the full profile): 1 cells in common, largest |z| = 0.90, |z| > 3 in 0 "
        "(about 0.0 expected by chance)"
    )
    assert replication_line(a, b, ["n"], "p") == expected
    expected = "this run is the full profile itself: no independent replication to compare with"
    assert replication_line(a, a, ["n"], "p") == expected


def test_trend_agreement_example():
    expected = ["agrees", "unresolved", "contradicts", "contradicts", "no call", "unresolved"]
    assert [
        trend_agreement(p, m)
        for p, m in [
            ("grows", "grows"),
            ("grows", "flat"),
            ("grows", "shrinks"),
            ("flat", "grows"),
            ("no call", "grows"),
            ("shrinks", "undefined"),
        ]
    ] == expected


def test_agreement_counts_example():
    expected = {"agrees": 1, "called": 2, "contradicts": 0, "unresolved": 1}
    assert agreement_counts(pd.Series(["agrees", "unresolved", "no call"])) == expected


def test_agreement_text_example():
    expected = "agrees in 2, contradicts in 0, unresolved in 1 of 3 cells with a prediction"
    assert agreement_text(pd.Series(["agrees", "agrees", "unresolved", "no call"])) == expected


def test_exponent_text_says_not_resolved_for_an_unbounded_or_unresolved_fit():
    assert exponent_text(0.21, 0.15, 0.27) == "0.21 [0.15, 0.27]"
    assert exponent_text(-10.03, -8039697969.16, 8039697949.11) == "not resolved"
    assert exponent_text(0.1, -0.2, 0.4, resolved=False) == "not resolved"
    assert exponent_text(float("nan"), float("nan"), float("nan")) == "-"
    table = pd.DataFrame(
        {"a": [1, 2], "exponent": [0.2, -10.0], "exponent_low": [0.1, -8e9], "exponent_high": [0.3, 8e9]}
    )
    assert with_exponent_text(table)["exponent [95%]"].tolist() == ["0.20 [0.10, 0.30]", "not resolved"]


def test_gaps_resolved_when_some_fitted_gap_is_distinguishable_from_0():
    pairs = pd.DataFrame(
        {
            "discount": ["a", "a", "b", "b"],
            "n": [10, 100, 10, 100],
            "std_gap": [0.5, 0.9, 0.01, -0.02],
            "std_gap_se": [0.1, 0.1, 0.05, 0.05],
        }
    )
    fits = pd.DataFrame({"discount": ["a", "b"], "n_from": [10, 10]})
    assert gaps_resolved(pairs, fits, ["discount"]).tolist() == [True, False]
