"""Notebook 01's tables and lines, by hand."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from ndcg_research.studies.worked_example import report
from ndcg_research.studies.worked_example.report import comparison, contributions_table, is_articles_example, swaps

GRADES = [3, 2, 3, 0, 1, 2]


def test_contributions_by_hand():
    ranks = np.arange(1, 7)
    discounts = 1 / np.log2(ranks + 1)
    table = report.contributions_table(np.asarray(GRADES, float), np.asarray(GRADES, float), discounts)
    want = [round(g / math.log2(i + 1), 3) for i, g in enumerate(GRADES, start=1)]
    assert table["contribution g*D"].tolist() == want
    assert table["DCG so far"].iloc[-1] == 6.861 and len(table) == 6  # the article's DCG_6


def test_swaps_by_hand():
    lines = report.swaps(GRADES, 6, "linear", "log2")
    differ = sum(GRADES[a] != GRADES[b] for a, b in combinations(range(6), 2))
    assert lines[-1] == (
        f"all 15 swaps: CG unchanged in 15; DCG changed in {differ}; the swapped grades differ in {differ}"
    )
    assert lines[0] == "returned [3, 2, 3, 0, 1, 2]: CG = 11.000, DCG = 6.861"


def test_comparison_names_the_article_only_for_its_example():
    assert report.is_articles_example(GRADES, [3, 2], 6, "linear", "log2")
    assert not report.is_articles_example(GRADES, [3, 2], 6, "exp2", "log2")
    shown = report.comparison({"nDCG": 6.861 / 8.740, "CG": 11}, True)
    assert shown.loc["nDCG"].tolist() == ["0.785", "0.785"] and shown.loc["CG"].tolist() == ["11.000", "11.000"]
    assert report.comparison({"nDCG": 0.5}, False).loc["nDCG", "the article"] == "-"


# ------------------------------------------------------------ examples of studies.worked_example.report


def test_is_articles_example_example():
    expected = (True, False)
    assert (
        is_articles_example([3, 2, 3, 0, 1, 2], [3, 2], 6, "linear", "log2"),
        is_articles_example([1], [], 1, "linear", "log2"),
    ) == expected


def test_contributions_table_example():
    expected = [[3.0, 3.0, 1.0, 3.0, 3.0], [2.0, 2.0, 2.0, 1.0, 4.0]]
    assert (
        contributions_table(np.array([3.0, 2.0]), np.array([3.0, 2.0]), np.array([1.0, 0.5])).values.tolist()
        == expected
    )


def test_swaps_example():
    expected = "all 1 swaps: CG unchanged in 1; DCG changed in 1; the swapped grades differ in 1"
    assert swaps([1, 0], 2, "linear", "log2")[-1] == expected


def test_comparison_example():
    assert comparison({"CG": 11.0, "other": 0.5}, True).values.tolist() == [["11.000", "11.000"], ["0.500", "-"]]
