"""Figures of the studies do not depend on the last bits of a floating-point sum.

BLAS and SIMD code sum in a machine-dependent order, so the same notebook gives values that
differ in the last bits on another computer. The plot helpers round what they draw
(``round_significant``) and the paired statistics treat rounding-size gaps as ties, so the image
files come out byte-identical; these tests perturb the data in the last bits and compare the
PNG and PDF bytes.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from ndcg_research.pipeline.figures import use_style
from ndcg_research.pipeline.style import (
    crossing_n,
    decade_ticks,
    decay_colors,
    discount_styles,
    discount_title,
    error_bar_lengths,
    interval_markers,
    label_grid_edges,
    label_rows,
    legend_below,
    log_ticks_1_2_5,
    mark_undefined,
    model_panel_grid,
    n_label,
    pair_label,
    panel_grid,
    plotted_column,
    round_significant,
    select,
)
from ndcg_research.simulation import finite_n
from ndcg_research.simulation.sweeps import Sweep, SweepResult, run_sweep
from ndcg_research.studies.consistent_distinguishability.plots import failure_rate_grid, stream_stability_grid
from ndcg_research.studies.convergence.plots import convergence_grid, slow_convergence_grid
from ndcg_research.studies.critical_bracket.plots import exponent_panels, trend_grid
from ndcg_research.studies.crossing_rankers.plots import decision_grid, expected_gap_panels
from ndcg_research.studies.cutoff.plots import cutoff_pair_grid, cutoff_values_grid, ndcg_by_k_panels
from ndcg_research.studies.cutoff_growth.plots import cutoff_exponent_grid, cutoff_gap_grid
from ndcg_research.studies.discount_functions.plots import discount_panels, eps_panel
from ndcg_research.studies.distinguishability.plots import gap_over_eps_grid, pair_grid
from ndcg_research.studies.fixed_crossings.plots import crossing_growth_panel, gain_profile_panel, preference_panels
from ndcg_research.studies.limitations.plots import appending_panels, pooling_bias_panels, truncation_violins
from ndcg_research.studies.movielens.plots import (
    convention_panels,
    cutoff_panels,
    list_length_distinguishability_panels,
    list_length_panels,
    query_set_panels,
    ranker_means_panels,
)
from ndcg_research.studies.query_sets.plots import (
    asl_curves_panels,
    measure_agreement_heatmap,
    per_list_scatter,
    queries_needed_panels,
    swap_rate_panels,
)
from ndcg_research.studies.worked_example.plots import worked_example_panels


def _files(fig) -> tuple[bytes, bytes]:
    """The figure as PNG and as PDF (whose coordinates are written with 10 decimals: the sensitive one)."""
    png, pdf = io.BytesIO(), io.BytesIO()
    fig.savefig(png, format="png", dpi=60, metadata={"Software": None})
    fig.savefig(pdf, format="pdf", metadata={"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None})
    return png.getvalue(), pdf.getvalue()


def _nudged(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The values moved by up to about 100 units in the last place (relative 2e-14), at random: the size of
    the differences between two summation orders of a long sum, i.e. what another machine may compute."""
    return values * (1 + rng.uniform(-2e-14, 2e-14, size=values.shape))


@pytest.fixture(scope="module")
def sweep_and_result():
    use_style()
    s = Sweep.build(
        "probit(lo=0.1, hi=0.6)",
        ns=[30, 300],
        replicates=12,
        seed=5,
        rankers=["bayes", "noisy(sigma=1)", "random"],
        discounts=["zipf", "log2", "none"],
        pairs=[("bayes", "noisy(sigma=1)"), ("noisy(sigma=1)", "random")],
    )
    return s, run_sweep(s)


def test_rounded_plot_values_ignore_the_last_bits():
    rng = np.random.default_rng(0)
    values = rng.random(1000)
    np.testing.assert_array_equal(round_significant(values), round_significant(_nudged(values, rng)))


def test_tables_and_figures_are_the_same_when_the_values_move_in_the_last_bits(sweep_and_result):
    s, result = sweep_and_result
    rng = np.random.default_rng(1)
    other = SweepResult(s, {n: _nudged(v, rng) for n, v in result.values.items()})
    assert any(not np.array_equal(other.values[n], result.values[n]) for n in s.ns)
    th = finite_n.theory_table(s.model, s.rankers, s.discounts, s.ns)
    pairs_a, pairs_b = result.pair_table(), other.pair_table()
    # Under `none` every nDCG is 1 up to rounding: the gaps are ties, the standardized gap undefined, in both.
    none = pairs_b[pairs_b["discount"] == "none"]
    assert (none["p_tie"] == 1).all() and none["std_gap"].isna().all()
    pd.testing.assert_frame_equal(pairs_a[["p_better", "p_tie", "p_worse"]], pairs_b[["p_better", "p_tie", "p_worse"]])
    for draw in (
        lambda r, p: convergence_grid(r, th, s.discounts, s.rankers, "m"),
        lambda r, p: pair_grid(p, s.discounts, s.pairs, "std_gap", "gap"),
        lambda r, p: pair_grid(p, s.discounts, s.pairs, "p_better", "p"),
    ):
        assert _files(draw(result.ranker_table(), pairs_a)) == _files(draw(other.ranker_table(), pairs_b))


# ------------------------------------------------------------ examples of pipeline.style


def test_round_significant_example():
    assert repr(round_significant([0.1 + 0.2, 1e-17, float("nan")]).tolist()) == "[0.3, 1e-17, nan]"


def test_select_example():
    assert select(pd.DataFrame({"n": [2, 1, 1], "r": ["a", "a", "b"]}), r="a")["n"].tolist() == [1, 2]


def test_crossing_n_example():
    t = pd.DataFrame(dict(first="a", second="b", discount=["log2", "zipf"], crossing_n=[71.0, float("nan")]))
    expected = "(71.0, nan, nan)"
    assert (
        repr((crossing_n(t, "a", "b", "log2"), crossing_n(t, "a", "b", "zipf"), crossing_n(t, "a", "b", "loglog")))
        == expected
    )


def test_plotted_column_example():
    assert plotted_column(pd.DataFrame({"p": [0.1 + 0.2, 1]}), "p").tolist() == [0.3, 1.0]


def test_panel_grid_example():
    fig, axes = panel_grid(3, 2)
    assert (len(axes), [ax.get_visible() for ax in axes]) == (4, [True, True, True, False])


def test_model_panel_grid_example():
    fig, axes, panels = model_panel_grid(["m1", "m2"], ["log2"], size=(3.3, 2.8))
    assert [(model, discount) for _, model, discount in panels] == [("m1", "log2"), ("m2", "log2")]


def test_label_rows_example():
    fig, axes = panel_grid(2, 1)
    label_rows(axes, 1, "share")
    assert [ax.get_ylabel() for ax in axes] == ["share", "share"]


def test_label_grid_edges_example():
    axes = Figure().subplots(2, 2, squeeze=False)
    label_grid_edges(axes, ["log2", "zipf"], ["m1", "m2"])
    assert (axes[0, 1].get_title(), axes[1, 0].get_ylabel(), axes[1, 1].get_xlabel()) == ("zipf", "m2", "n")


def test_legend_below_example():
    fig = Figure(layout="constrained")
    (line,) = fig.subplots().plot([0, 1])
    legend_below(fig, [(line, "a"), (line, "b"), (line, "a")])
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["a", "b"]


def test_discount_title_example():
    assert discount_title("zipf") == "zipf  (critical)"


def test_pair_label_example():
    assert pair_label("bayes", "noisy(sigma=0.5)") == "bayes > noisy(sigma=0.5)"


def test_log_ticks_1_2_5_example():
    ax = Figure().subplots()
    _ = ax.set(yscale="log", ylim=(0.1, 1))
    log_ticks_1_2_5(ax)
    assert ax.yaxis.get_major_formatter()(0.2, 0) == "0.2"


def test_decade_ticks_example():
    ax = Figure().subplots()
    _ = ax.set(yscale="log", ylim=(1e-6, 1))
    decade_ticks(ax)
    assert ax.yaxis.get_major_formatter()(1e-3, 0) == "$10^{-3}$"


def test_n_label_example():
    expected = ("$10^{7}$", "$10^{3}$", "250", "$10^{-2}$", "1")
    assert (n_label(10**7), n_label(1000.0), n_label(250), n_label(0.01), n_label(1)) == expected


def test_error_bar_lengths_example():
    expected = [[0.1, 0.0], [0.2, 0.0]]
    lengths = error_bar_lengths(np.array([0.5, 0.5]), np.array([0.4, np.nan]), np.array([0.7, np.nan]))
    assert lengths.round(3).tolist() == expected


def test_interval_markers_example():
    ax = Figure().subplots()
    bar = interval_markers(
        ax, np.array([1.0, 2.0]), np.array([0.5, 0.6]), np.array([0.4, 0.5]), np.array([0.6, 0.7]), 1, "-"
    )
    assert (bar.lines[0].get_marker(), bar.lines[0].get_color()) == ("s", "C1")


def test_mark_undefined_example():
    ax = Figure().subplots()
    assert len(mark_undefined(ax, np.array([10.0, 100.0]), np.array([0.5, np.nan]))) == 1


def test_decay_colors_example():
    colors = decay_colors(["log2", "zipf"])
    assert (len(colors), colors["log2"] != colors["zipf"]) == (2, True)


# ------------------------------------------------------------ examples of studies.worked_example.plots


def test_worked_example_panels_example():
    fig = worked_example_panels([3, 2], [3, 2, 3], [3.0, 1.26], [3.0, 1.89], k=2, dcg=4.26, idcg=4.89)
    assert [ax.get_ylabel() for ax in fig.axes] == ["contribution g(rel$_i$) · D(i)", "grade"]


# ------------------------------------------------------------ examples of studies.discount_functions.plots


def test_discount_panels_example():
    fig = discount_panels(["log2", "zipf", "none"], 1000)
    assert [ax.get_ylabel() for ax in fig.axes] == ["D(r)", "share C(r) / C(n)", "share / (r / n)"]


def test_eps_panel_example():
    fig = eps_panel(["log2", "loglog"], 10**4)
    # per discount a line and its markers, plus 1 / ln n
    assert (isinstance(fig, Figure), len(fig.axes[0].lines)) == (True, 5)


# ------------------------------------------------------------ examples of studies.convergence.plots


def test_convergence_grid_example():
    from ndcg_research.simulation import finite_n
    from ndcg_research.simulation.sweeps import Sweep, run_sweep

    s = Sweep.build(
        "probit",
        ns=[20, 40],
        replicates=4,
        seed=0,
        rankers=["bayes", "random"],
        discounts=["log2", "zipf"],
        pairs=[("bayes", "random")],
    )
    th = finite_n.theory_table("probit", s.rankers, s.discounts, s.ns)
    fig = convergence_grid(run_sweep(s).ranker_table(), th, s.discounts, s.rankers, "probit")
    assert (sum(ax.get_visible() for ax in fig.axes), fig.axes[0].get_ylabel()) == (2, "mean nDCG")


def test_slow_convergence_grid_example():
    means = pd.DataFrame(
        {
            "discount": "log2",
            "ranker": "a",
            "n": [10, 100],
            "mean": [0.90, 0.95],
            "ci_low": [0.89, 0.94],
            "ci_high": [0.91, 0.96],
        }
    )
    th = pd.DataFrame(
        {"discount": "log2", "ranker": "a", "n": [10, 100], "finite_n": [0.90, 0.95], "eps": [0.4, 0.2], "c": 0.2}
    )
    fig = slow_convergence_grid({"m": means}, {"m": th}, ["log2"], ["a"])
    assert (fig.axes[0].get_title(), fig.axes[0].get_ylabel()) == ("m: log2", "1 - mean nDCG")


# ------------------------------------------------------------ examples of studies.distinguishability.plots


def test_pair_grid_example():
    from ndcg_research.simulation.sweeps import Sweep, run_sweep

    s = Sweep.build(
        "probit",
        ns=[20, 40],
        replicates=4,
        seed=0,
        rankers=["bayes", "random"],
        discounts=["log2", "none"],
        pairs=[("bayes", "random")],
    )
    table = run_sweep(s).pair_table()
    fig = pair_grid(table, ["log2", "none"], [("bayes", "random")], "std_gap", "standardized gap")
    expected = ("mean(gap) / sd(gap)", ["undefined: every gap is 0"])
    assert (fig.axes[0].get_ylabel(), [t.get_text() for t in fig.axes[1].texts]) == expected


def test_gap_over_eps_grid_example():
    gaps = pd.DataFrame(
        {
            "discount": "log2",
            "better": "a",
            "worse": "b",
            "n": [10, 100],
            "eps": [0.4, 0.2],
            "mean_gap": [0.04, 0.02],
            "gap_ci_low": [0.03, 0.015],
            "gap_ci_high": [0.05, 0.025],
        }
    )
    th = pd.DataFrame(
        {
            "discount": "log2",
            "ranker": ["a", "a", "b", "b"],
            "n": [10, 100, 10, 100],
            "finite_n": [0.95, 0.97, 0.91, 0.95],
            "eps": [0.4, 0.2, 0.4, 0.2],
            "c": [0.1, 0.1, 0.2, 0.2],
        }
    )
    fig = gap_over_eps_grid({"m": gaps}, {"m": th}, ["log2"], [("a", "b")], "gap / eps")
    assert (fig.axes[0].get_ylabel(), fig.axes[0].get_yscale()) == ("mean gap / eps_D(n)", "log")


# ------------------------------------------------------------ examples of studies.cutoff.plots


def test_cutoff_values_grid_example():
    from ndcg_research.simulation.cutoff import CutoffSweep
    from ndcg_research.simulation.sweeps import run_sweep

    s = CutoffSweep.build(
        "probit",
        ns=[20, 40],
        replicates=3,
        seed=0,
        rankers=["bayes", "random"],
        discounts=["log2"],
        rules=["fixed(k=5)", "all"],
        pairs=[],
    )
    fig = cutoff_values_grid(run_sweep(s).ranker_table(), "probit", s.rules, s.discounts, s.rankers)
    assert fig.axes[0].get_ylabel() == "fixed(k=5)\nmean nDCG@k"


def test_cutoff_pair_grid_example():
    from ndcg_research.simulation.cutoff import CutoffSweep
    from ndcg_research.simulation.sweeps import run_sweep

    s = CutoffSweep.build(
        "probit",
        ns=[20, 40],
        replicates=3,
        seed=0,
        rankers=["bayes", "random"],
        discounts=["log2", "zipf"],
        rules=["all"],
        pairs=[("bayes", "random")],
    )
    fig = cutoff_pair_grid(run_sweep(s).pair_table(), ["probit"], s.rules, s.discounts, "bayes", "random")
    assert fig.axes[0].get_ylabel() == "probit\nP(bayes > random)"


def test_ndcg_by_k_panels_example():
    c = {("m", "r"): {"mean": np.array([1.0, 0.8]), "ci_low": np.array([0.9, 0.7]), "ci_high": np.array([1.0, 0.9])}}
    fig = ndcg_by_k_panels(c, [1, 10], ["m"], ["r"], n=10, relevant={"m": 5})
    assert fig.axes[0].get_ylabel() == "mean nDCG@k (95% interval)"


# ------------------------------------------------------------ examples of studies.limitations.plots


def test_appending_panels_example():
    fig = appending_panels(
        [0, 1],
        {"appended": [0.7, 0.7], "inserted": [0.7, 0.5], "precision": [0.8, 0.6]},
        [0, 1],
        {"ndcg": [0.6, 0.6], "precision": [0.5, 0.4]},
        title_example="a",
        title_random="b",
    )
    assert (fig.axes[0].get_ylabel(), fig.axes[1].get_ylabel()) == ("value", "mean value")


def test_truncation_violins_example():
    fig = truncation_violins({"a": np.array([-0.1, 0.0, 0.1])}, {"a": 0.5}, short_length=2, list_length=4)
    assert fig.axes[0].get_xlabel().startswith("nDCG(first 2)")


def test_pooling_bias_panels_example():
    b = {"bias": np.zeros((2, 2, 2)), "low": -np.ones((2, 2, 2)), "high": np.ones((2, 2, 2))}
    fig = pooling_bias_panels([1, 10], b, b, {"true": [1.0, 1.0]}, best=0, novel=1, k=10, replicates=3)
    assert fig.axes[1].get_ylabel() == "P(novel ranked above best pooled)"


# ------------------------------------------------------------ examples of studies.query_sets.plots


def test_discount_styles_example():
    styles = discount_styles(["log2", "loglog", "zipf", "power(beta=2)"])
    expected = ("black", "#2171b5", "#e6550d")
    assert (styles["log2"]["color"], styles["loglog"]["color"], styles["zipf"]["color"]) == expected


def test_asl_curves_panels_example():
    fig = asl_curves_panels(
        {("linear", "log2"): np.array([0.0, 0.2])}, ["linear"], ["log2"], alpha=0.05, n_resamples=100, topics=5
    )
    assert (fig.axes[0].get_yscale(), fig.axes[0].get_title()) == ("log", "gain linear: ASL curves, 5 topics")


def test_swap_rate_panels_example():
    fig = swap_rate_panels({("linear", "log2"): [0.2, 0.1]}, ["linear"], ["log2"], [5, 10])
    assert fig.axes[0].get_ylabel() == "share of system pairs swapped"


def test_queries_needed_panels_example():
    t = pd.DataFrame(
        dict(
            gain="linear",
            discount="log2",
            size=[5, 10],
            accuracy=[0.8, 0.9],
            accuracy_low=[0.79, 0.89],
            accuracy_high=[0.81, 0.91],
            expected_power=[0.1, 0.3],
        )
    )
    fig = queries_needed_panels(t, ["linear"], ["log2"], [5, 10], target_accuracy=0.9, alpha=0.05)
    assert [ax.get_ylabel() for ax in fig.axes] == ["ordering accuracy (95% band)", "share of pairs with ASL < 0.05"]


def test_measure_agreement_heatmap_example():
    fig = measure_agreement_heatmap(np.array([[1.0, 0.9], [0.9, 1.0]]), ["a", "b"], "t")
    assert fig.axes[0].get_title() == "t"


def test_per_list_scatter_example():
    t = pd.DataFrame(
        dict(
            gain="linear",
            discount="log2",
            per_topic_win=[0.6],
            queries_needed=[20.0],
            queries_needed_low=[18.0],
            queries_needed_high=[23.0],
        )
    )
    assert per_list_scatter(t, ["linear"], ["log2"], target_accuracy=0.9, cap=1000).axes[0].get_yscale() == "log"


# ------------------------------------------------------------ examples of studies.movielens.plots


def test_ranker_means_panels_example():
    t = pd.DataFrame(
        dict(gain="g", cutoff="all", system=["a", "b"], mean=[0.2, 0.3], ci_low=[0.1, 0.2], ci_high=[0.3, 0.4])
    )
    assert ranker_means_panels(t, ["a", "b"], ["g"], ["all"]).axes[0].get_title() == "whole list"


def test_list_length_panels_example():
    info = pd.DataFrame(dict(list_length=["10", "all"], mean_length=[10.0, 100.0], users_with_share_kept=[0.5, 1.0]))
    m = pd.DataFrame(
        dict(
            gain="g",
            discount="log2",
            system="a",
            list_length=["10", "all"],
            mean=[0.3, 0.5],
            ci_low=[0.2, 0.4],
            ci_high=[0.4, 0.6],
        )
    )
    assert list_length_panels(m, info, ["a"], ["log2"], "g").axes[0].get_title() == "log2"


def test_list_length_distinguishability_panels_example():
    info = pd.DataFrame(dict(mean_length=[10.0, 100.0]))
    p = pd.DataFrame(dict(gain="g", discount="log2", list_length=["10", "all"], effect_size=[0.2, 0.5]))
    fig = list_length_distinguishability_panels(
        p, info, {("10", "log2"): 0, ("all", "log2"): 1}, ["10", "all"], ["log2"], "g", 15
    )
    assert fig.axes[0].get_ylabel() == "significant pairs (of 15)"


def test_query_set_panels_example():
    pw = pd.DataFrame(dict(gain="g", discount="log2", users=[25, 50], power=[0.2, 0.4]))
    sw = pd.DataFrame(dict(gain="g", discount="log2", size=[25], swap_rate=[0.3]))
    assert query_set_panels(pw, sw, ["log2"], "g", 91).axes[1].get_ylabel() == "swap rate"


def test_convention_panels_example():
    m = pd.DataFrame(
        dict(
            depth="100",
            measure="ndcg",
            system="a",
            convention=["x", "y"],
            mean=[0.3, 0.4],
            ci_low=[0.2, 0.3],
            ci_high=[0.4, 0.5],
        )
    )
    expected = "ndcg, run files of depth 100"
    assert convention_panels(m, ["a"], ["x", "y"], ["100"], ["ndcg"]).axes[0].get_title() == expected


def test_cutoff_panels_example():
    m = pd.DataFrame(
        dict(gain="g", system="a", cutoff=["5", "all"], mean=[0.2, 0.3], ci_low=[0.1, 0.2], ci_high=[0.3, 0.4])
    )
    sm = pd.DataFrame(dict(gain="g", cutoff=["5", "all"], significant=[3, 4], decisions_changed=[1, 0]))
    expected = ["@5", "whole"]
    assert [
        t.get_text() for t in cutoff_panels(m, sm, ["a"], ["g"], ["5", "all"], 15).axes[0].get_xticklabels()
    ] == expected


# ------------------------------------------------------------ examples of studies.consistent_distinguishability.plots


def test_failure_rate_grid_example():
    t = pd.DataFrame(
        dict(
            discount="log2",
            better="a",
            worse="b",
            n=[100, 1000],
            p_fail=[0.2, 0.0],
            p_fail_low=[0.15, 0.0],
            p_fail_high=[0.25, 0.004],
            p_fail_normal=[0.21, 0.001],
        )
    )
    fig = failure_rate_grid({"m": t}, ["log2"], [("a", "b")])
    assert (fig.axes[0].get_yscale(), fig.axes[0].get_ylabel()) == ("log", "1 - P(better strictly higher)")


def test_stream_stability_grid_example():
    t = pd.DataFrame(
        dict(
            discount="log2",
            better="a",
            worse="b",
            n0=[100, 1000],
            p_settled=[0.5, 0.9],
            p_settled_low=[0.4, 0.8],
            p_settled_high=[0.6, 0.95],
        )
    )
    assert stream_stability_grid({"m": t}, ["log2"], [("a", "b")]).axes[0].get_ylabel() == "share settled from n0"


# ------------------------------------------------------------ examples of studies.crossing_rankers.plots


def test_expected_gap_panels_example():
    th = pd.DataFrame(
        dict(discount="log2", ranker=["a", "a", "b", "b"], n=[10, 100, 10, 100], finite_n=[0.9, 0.8, 0.85, 0.85])
    )
    cr = pd.DataFrame(dict(first="a", second="b", discount=["log2"], crossing_n=[50.0]))
    expected = "E nDCG(first) - E nDCG(second)"
    assert expected_gap_panels(th, cr, [("a", "b")], ["log2"]).axes[0].get_ylabel() == expected


def test_decision_grid_example():
    t = pd.DataFrame(
        dict(
            first=["a", "a", "c", "c"],
            second="b",
            discount="log2",
            n=[10, 100, 10, 100],
            p_first=[0.8, 0.3, 0.6, 0.5],
            p_first_low=[0.7, 0.2, 0.5, 0.4],
            p_first_high=[0.9, 0.4, 0.7, 0.6],
            reference="log2",
        )
    )
    fig = decision_grid({"m": t}, ["log2"], "p_first")
    expected = (["a vs b", "c vs b"], "m\nP(first ranker scores higher)")
    assert ([ax.get_title() for ax in fig.axes], fig.axes[0].get_ylabel()) == expected


# ------------------------------------------------------------ examples of studies.critical_bracket.plots


def test_exponent_panels_example():
    v = pd.DataFrame(
        dict(
            label="m",
            discount=["log2", "zipf"],
            better="a",
            worse="b",
            d_exponent=[0.5, 0.0],
            d_low=[0.4, -0.1],
            d_high=[0.6, 0.1],
            law_exponent=[0.5, 0.0],
            heuristic_exponent=[float("nan"), 0.01],
            failure_exponent=[-1.0, 0.0],
            failure_low=[-1.2, -0.05],
            failure_high=[-0.8, 0.05],
        )
    )
    fig = exponent_panels(v, ["log2", "zipf"])
    assert [ax.get_ylabel() for ax in fig.axes[::1]][:1] == ["exponent of the\nstandardized gap d"]


def test_trend_grid_example():
    t = pd.DataFrame(
        dict(
            discount="zipf",
            better="a",
            worse="b",
            n=[100, 1000],
            p_better=[0.8, 1.0],
            p_better_low=[0.7, 0.99],
            p_better_high=[0.9, 1.0],
            std_gap=[1.0, 2.0],
            std_gap_se=[0.1, 0.1],
        )
    )
    assert trend_grid({"m": t}, ["zipf"], "p_fail").axes[0].get_yscale() == "log"


# ------------------------------------------------------------ examples of studies.fixed_crossings.plots


def test_gain_profile_panel_example():
    fig = gain_profile_panel({"a": lambda t: 1 - t}, [0.1])
    assert fig.axes[0].get_xlabel() == "relative rank t (share of the list above the item)"


def test_preference_panels_example():
    t = pd.DataFrame(
        dict(
            first="a",
            second="b",
            discount="log2",
            n=[10, 100],
            p_first=[0.8, 0.3],
            p_first_low=[0.7, 0.2],
            p_first_high=[0.9, 0.4],
        )
    )
    c = pd.DataFrame(dict(first=["a"], second=["b"], discount=["log2"], crossing_n=[40.0]))
    assert preference_panels({"m": t}, c, ["log2"]).axes[0].get_ylabel() == "P(a scores higher)"


def test_crossing_growth_panel_example():
    f = pd.DataFrame(dict(discount="log2", abs_delta_c=[0.05, 0.02], crossing_n=[200.0, 5000.0]))
    r = pd.DataFrame(dict(label="m", abs_delta_c=[0.05, 0.02], n_reliable=[1000.0, float("nan")]))
    assert crossing_growth_panel(f, r, 10**5).axes[0].get_xscale() == "log"


# ------------------------------------------------------------ examples of studies.cutoff_growth.plots


def test_cutoff_exponent_grid_example():
    t = pd.DataFrame(
        dict(
            model="probit",
            discount="log2",
            better="bayes",
            worse="noisy(sigma=1)",
            a=[0.0, 0.5],
            exponent=[-0.1, 0.2],
            exponent_low=[-0.2, 0.1],
            exponent_high=[0.0, 0.3],
        )
    )
    assert cutoff_exponent_grid(t, ["log2"]).axes[0].get_xlabel() == "a (k = n^a; 0: fixed k)"


def test_cutoff_gap_grid_example():
    t = pd.DataFrame(
        dict(
            model="probit",
            rule="fixed(k=10)",
            discount="log2",
            better="a",
            worse="b",
            n=[100, 1000],
            std_gap=[0.5, 0.4],
            std_gap_se=[0.05, 0.05],
        )
    )
    assert cutoff_gap_grid(t, ["log2"], "a", "b").axes[0].get_xscale() == "log"


def test_grid_plots_refuse_a_value_they_do_not_draw():
    # A slimming removed these checks: an unknown value then drew the other quantity's plot, silently.
    from ndcg_research.studies.critical_bracket.plots import trend_grid
    from ndcg_research.studies.crossing_rankers.plots import decision_grid
    from ndcg_research.studies.distinguishability.plots import pair_grid

    with pytest.raises(ValueError, match="value must be 'p_fail' or 'std_gap', got 'p_better'"):
        trend_grid({}, ["log2"], "p_better")
    with pytest.raises(ValueError, match="value must be 'p_first' or 'p_differs', got 'p_fail'"):
        decision_grid({}, ["log2"], "p_fail")
    with pytest.raises(ValueError, match="value must be 'p_better' or 'std_gap', got 'p_first'"):
        pair_grid(pd.DataFrame(), ["log2"], [("a", "b")], "p_first", "title")


def test_label_rows_skips_the_hidden_panels():
    fig, axes = panel_grid(3, 2)
    label_rows(axes, 2, "mean nDCG")
    assert [ax.get_ylabel() for ax in axes if ax.get_visible()] == ["mean nDCG", "", "mean nDCG"]


def test_column_figure_is_a_column_wide_with_its_margins_and_column_text():
    from ndcg_research.pipeline.style import SAVE_PAD_INCHES, column_figure

    with column_figure(6.0, 2, 1, sharex=True) as (fig, (top, bottom)):
        bottom.set_xlabel("n")
    width_cm = float(fig.get_size_inches()[0]) * 2.54 + 2 * SAVE_PAD_INCHES * 2.54
    assert (round(width_cm, 2), bottom.xaxis.label.get_fontsize()) == (8.5, 7.5)
