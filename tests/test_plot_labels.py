"""Axis labels of the grid figures are true of every panel they label.

A row label sits on the first column only but describes the whole row: it must not name a pair
of rankers when the columns show different pairs (the bug: every row of ``decision_grid`` said
"P(head(m=10) > noisy)", also over the head(m=100) column).
"""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_research.pipeline import plots

PAIRS = [("head(m=10)", "noisy(sigma=1)"), ("head(m=100)", "noisy(sigma=1)")]
MODELS = ["certain", "uncertain"]
DISCOUNTS = ["log2", "zipf"]


def _decisions() -> dict[str, pd.DataFrame]:
    rows = [
        dict(first=a, second=b, discount=d, reference="log2", n=n, p_first=0.6, p_first_low=0.5, p_first_high=0.7,
             p_differs=0.1, p_differs_low=0.05, p_differs_high=0.2)
        for a, b in PAIRS for d in DISCOUNTS for n in (10, 100)
    ]
    return {m: pd.DataFrame(rows) for m in MODELS}


@pytest.mark.parametrize("value", ["p_first", "p_differs"])
def test_decision_grid_labels_name_each_columns_own_pair(value):
    fig = plots.decision_grid(_decisions(), DISCOUNTS, value)
    axes = fig.axes[: len(MODELS) * len(PAIRS)]  # row-major; the legend adds no axes
    grid = [axes[i * len(PAIRS) : (i + 1) * len(PAIRS)] for i in range(len(MODELS))]
    for j, (first, second) in enumerate(PAIRS):
        assert grid[0][j].get_title() == f"{first} vs {second}"
    rankers = {r for pair in PAIRS for r in pair}
    for i, model in enumerate(MODELS):
        label = grid[i][0].get_ylabel()
        assert label.splitlines()[0] == model
        # The label spans every column of the row, so it names no ranker of any one pair.
        assert not any(r in label for r in rankers), label
        # The other panels of the row carry no label of their own that could contradict it.
        assert all(ax.get_ylabel() == "" for ax in grid[i][1:])
    expected = "P(first ranker scores higher)" if value == "p_first" else "decision differs from log2"
    assert all(grid[i][0].get_ylabel().splitlines()[1] == expected for i in range(len(MODELS)))


def test_tables_round_as_the_sentences_beside_them():
    # Shares of whole counts land on decimal halves (1503/2000 = 0.7515): a displayed table must give
    # the digits an f-string gives (the exact binary value rounded), as the verdict lines print them.
    import numpy as np

    values = np.array([k / 2000 for k in range(2001)] + [-1e-17, 2.675, float("nan")])
    shown = plots.rounded(pd.DataFrame({"v": values}), 3)["v"].to_numpy()
    want = [f"{v:.3f}".replace("-0.000", "0.000") for v in values]
    assert [f"{v:.3f}" for v in shown] == want
    assert f"{plots.rounded(pd.DataFrame({'v': [2.675]}), 2)['v'].iloc[0]}" == "2.67"  # not numpy's 2.68
