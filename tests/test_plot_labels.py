"""Axis labels of the grid figures are true of every panel they label.

A row label sits on the first column only but describes the whole row: it must not name a pair
of rankers when the columns show different pairs (the bug: every row of ``decision_grid`` said
"P(head(m=10) > noisy)", also over the head(m=100) column).
"""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_research.pipeline.style import n_label, n_text
from ndcg_research.pipeline.tables import rounded
from ndcg_research.studies.consistent_distinguishability import plots as consistency_plots
from ndcg_research.studies.crossing_rankers import plots as crossing_plots
from ndcg_research.studies.discount_functions import plots as discount_plots
from ndcg_research.studies.limitations import plots as limitations_plots
from ndcg_research.studies.query_sets import plots as query_set_plots

PAIRS = [("head(m=10)", "noisy(sigma=1)"), ("head(m=100)", "noisy(sigma=1)")]
MODELS = ["certain", "uncertain"]
DISCOUNTS = ["log2", "zipf"]


def _decisions() -> dict[str, pd.DataFrame]:
    rows = [
        dict(
            first=a,
            second=b,
            discount=d,
            reference="log2",
            n=n,
            p_first=0.6,
            p_first_low=0.5,
            p_first_high=0.7,
            p_differs=0.1,
            p_differs_low=0.05,
            p_differs_high=0.2,
        )
        for a, b in PAIRS
        for d in DISCOUNTS
        for n in (10, 100)
    ]
    return {m: pd.DataFrame(rows) for m in MODELS}


@pytest.mark.parametrize("value", ["p_first", "p_differs"])
def test_decision_grid_labels_name_each_columns_own_pair(value):
    fig = crossing_plots.decision_grid(_decisions(), DISCOUNTS, value)
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
    shown = rounded(pd.DataFrame({"v": values}), 3)["v"].to_numpy()
    want = [f"{v:.3f}".replace("-0.000", "0.000") for v in values]
    assert [f"{v:.3f}" for v in shown] == want
    assert f"{rounded(pd.DataFrame({'v': [2.675]}), 2)['v'].iloc[0]}" == "2.67"  # not numpy's 2.68


# --------------------------------------------------------------------------- figures readable at paper size


def test_the_expected_crossings_sit_in_a_strip_not_across_the_panels():
    # Issue 17: dotted lines for every discount's crossing piled up near n = 60-70 inside the panels.
    crossings = pd.DataFrame(
        [
            dict(first=a, second=b, discount=d, crossing_n=n)
            for (a, b), ns in zip(PAIRS, [(60.0, 70.0), (600.0, float("inf"))], strict=False)
            for d, n in zip(DISCOUNTS, ns, strict=False)
        ]
    )
    fig = crossing_plots.decision_grid(_decisions(), DISCOUNTS, "p_first", crossings)
    strips, panels = fig.axes[: len(PAIRS)], fig.axes[len(PAIRS) :]
    assert [ax.get_title() for ax in strips] == [f"{a} vs {b}" for a, b in PAIRS]
    assert all(ax.get_title() == "" for ax in panels)
    # No vertical line in a panel; in the strip one marker per finite crossing, at its n, on its own row.
    assert not any(len(set(line.get_xdata())) == 1 and len(line.get_xdata()) == 2 for ax in panels for line in ax.lines)
    marks = [(line.get_xdata()[0], line.get_ydata()[0]) for line in strips[0].lines]
    assert marks == [(60.0, 0), (70.0, 1)]
    assert [t.get_text() for t in strips[1].texts] == ["none"]  # zipf never crosses in the second pair


def test_titles_write_a_power_of_ten_as_one():
    fig = discount_plots.discount_panels(["log2", "zipf"], 10**4)
    assert fig.axes[1].get_title() == "share of the mass in the top r (n = $10^{4}$)"
    assert [n_label(v) for v in (10**7, 1000, 250, 100, 1e-6)] == ["$10^{7}$", "$10^{3}$", "250", "100", "$10^{-6}$"]
    assert (n_text(1000), n_text(300), n_text(10**7)) == ("10^3", "300", "10^7")


def test_failure_rate_panels_label_only_decades():
    # a panel spanning several decades (its range follows its data: 2e-5 to 0.35, with a margin) is labelled at
    # the powers of ten within it, no minor labels
    rows = pd.DataFrame(
        dict(
            discount="log2",
            better="a",
            worse="b",
            n=[100, 1000],
            p_fail=[0.3, 1e-4],
            p_fail_low=[0.25, 2e-5],
            p_fail_high=[0.35, 5e-4],
            p_fail_normal=[0.3, 1e-4],
        )
    )
    fig = consistency_plots.failure_rate_grid({"m": rows}, ["log2"], [("a", "b")])
    fig.canvas.draw()
    ax = fig.axes[0]
    low, high = ax.get_ylim()
    assert low <= 2e-5 and high >= 0.35
    shown = [t.get_text() for t in ax.get_yticklabels() if t.get_text() and low <= t.get_position()[1] <= high]
    assert shown == ["$10^{-4}$", "$10^{-3}$", "$10^{-2}$", "$10^{-1}$"]
    assert not [t.get_text() for t in ax.yaxis.get_minorticklabels() if t.get_text()]


def test_pooling_bias_colours_mean_one_thing_and_intervals_are_drawn():
    import numpy as np

    shape = (2, 2, 5)
    b = {"bias": np.zeros(shape), "low": -0.01 * np.ones(shape), "high": 0.01 * np.ones(shape)}
    order = {
        "true": [1.0, 1.0],
        "unjudged = 0": [0.0, 0.5],
        "condensed": [0.9, 1.0],
        "unjudged = 0, novel pooled too": [0.2, 1.0],
    }
    fig = limitations_plots.pooling_bias_panels([1, 10], b, b, order, best=0, novel=4, k=10, replicates=20)
    left, right = fig.axes
    # Every curve of both panels is drawn with error bars (95% intervals), and the left title gives their size.
    assert len(left.containers) == 5 and len(right.containers) == 4
    assert "largest half-width is 0.010" in left.get_title()

    # One colour per way of scoring, the same in both panels (red meant a system on the left, a method on the right).
    def colours(ax):
        return [c.lines[0].get_color() for c in ax.containers]

    assert colours(left) == ["C3", "C3", "C0", "C0", "C2"] and colours(right) == ["0.15", "C3", "C0", "C2"]


def test_discount_styles_group_by_class_and_single_out_log2():
    discounts = [
        "log2",
        "loglog",
        "jarvelin(base=2)",
        "power(beta=0.25)",
        "power(beta=0.5)",
        "zipf",
        "power(beta=2)",
        "geometric(p=0.8)",
        "none",
    ]
    styles = query_set_plots.style.discount_styles(discounts)
    assert styles["log2"]["color"] == "black" and styles["log2"]["zorder"] > max(
        s["zorder"] for d, s in styles.items() if d != "log2"
    )
    from ndcg_research import parse_discount

    for a in discounts[1:]:
        for b in discounts[1:]:
            same_class = parse_discount(a).decay == parse_discount(b).decay
            if a != b:
                # Within a class the colour may repeat but the dash or marker differs; across classes colours differ.
                assert (styles[a]["color"] != styles[b]["color"]) or same_class
                assert (styles[a]["ls"], styles[a]["marker"]) != (
                    styles[b]["ls"],
                    styles[b]["marker"],
                ) or not same_class
    curves = pd.concat(
        [
            pd.DataFrame(
                dict(
                    gain="linear",
                    discount=d,
                    size=[5, 10],
                    accuracy=[0.8, 0.9],
                    accuracy_low=[0.79, 0.89],
                    accuracy_high=[0.81, 0.91],
                    expected_power=[0.1, 0.3],
                )
            )
            for d in discounts
        ]
    )
    fig = query_set_plots.queries_needed_panels(curves, ["linear"], discounts, [5, 10], target_accuracy=0.9, alpha=0.05)
    # One legend for the figure, outside the panels, naming each discount with its class.
    assert not any(ax.get_legend() for ax in fig.axes) and len(fig.legends) == 1
    assert "log2 (slowly varying)" in [t.get_text() for t in fig.legends[0].get_texts()]
