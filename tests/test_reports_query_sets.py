"""Notebook 07's reader tables and verdict numbers, against the committed full profile and by hand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ndcg_research.simulation.tables import read_table, write_table
from ndcg_research.stats import kendall_tau
from ndcg_research.studies.query_sets import report
from ndcg_research.studies.query_sets.experiment import CollectionModel, simulate_collection
from ndcg_research.studies.query_sets.report import by_discount, collection_table, label, needed_cells, truth_lines

FULL = Path(__file__).resolve().parent.parent / "results" / "full"


def test_the_verdict_of_the_full_profile_by_hand():
    table = read_table(FULL / "07_measures.csv")
    out = report.verdict(FULL)
    best = table.loc[table["queries_needed"].idxmin()]
    assert out["best"] == f"{best['gain']} · {best['discount']}"
    # The group: every measure whose interval overlaps the best one's; the others lie entirely above it.
    overlaps = table[table["queries_needed_low"] <= best["queries_needed_high"]]
    assert sorted(out["group"]) == sorted(overlaps["gain"] + " · " + overlaps["discount"])
    assert len(out["group"]) + len(out["worse"]) == len(table)
    finite = table[np.isfinite(table["queries_needed"])]
    tau = kendall_tau(finite["queries_needed"], finite["per_topic_win"])
    assert out["criteria"].loc["per-topic win probability", "Kendall tau"] == round(tau, 3)
    assert len(out["classes"]) <= 15


def test_reader_tables_have_one_row_per_discount():
    rows = read_table(FULL / "07_power.csv")
    shown = report.by_discount(rows, {"power": "discriminative power", "wrong_direction": "wrong"})
    assert shown.shape == (9, 4) and shown.columns.get_level_values("gain").tolist() == ["linear", "exp2"] * 2
    value = rows[(rows["gain"] == "exp2") & (rows["discount"] == "zipf")]["power"].iloc[0]
    assert shown.loc["zipf", ("discriminative power", "exp2")] == round(value, 3)
    cells = report.needed_cells({("linear", "log2"): (18.04, 17.21, 18.96), ("exp2", "none"): (np.inf, np.inf, np.inf)})
    assert [c["queries needed [95%]"] for c in cells] == ["18.0 [17.2, 19.0]", "not reached"]


def test_small_collection_tables_by_hand():
    spec = CollectionModel(systems=4)
    measures = [("linear", "log2"), ("linear", "power(beta=2)")]
    collection, population = simulate_collection(spec, topics=12, seed=1), simulate_collection(spec, topics=60, seed=2)
    X = {m: collection.scores(gain=m[0], discount=m[1]) for m in measures}
    P = {m: population.scores(gain=m[0], discount=m[1]) for m in measures}
    rows = report.collection_rows(X, P)
    assert len(rows) == 4 and all(
        abs(r["share_system"] + r["share_topic"] + r["share_interaction"] - 1) < 1e-9 for r in rows
    )
    truth = report.truth_rows(P, collection.skills)
    assert truth[0]["tau_population"] == kendall_tau(P[measures[0]].mean(axis=1), collection.skills)
    power, power_rows = report.power_rows(X, alpha=0.05, n_resamples=200, seed=1, n_jobs=1, topics=12)
    assert [r["pairs"] for r in power_rows] == [6, 6]
    assert all(r["wrong_direction"] <= round(r["power"] * r["pairs"]) for r in power_rows)
    lines, smallest = report.truth_lines(truth, 4)
    assert lines[0].endswith(f"{sum(r['tau_population'] == 1.0 for r in truth)} of 2") and len(smallest) == 2
    table, line = report.collection_table(rows, ["log2"])
    assert table.shape == (2, 6) and line.startswith("over all 4 (measure, sample) tables")
    measured = pd.DataFrame(
        report.measure_rows(
            P,
            power_rows,
            report.ordering_rows(X, collection.skills)[1],
            truth,
            {m: (5.0, 4.0, 6.0) for m in measures},
            {m: np.array([0.2, 0.1]) for m in measures},
        )
    )
    first, second = np.triu_indices(4, k=1)
    win = (P[measures[1]][first] > P[measures[1]][second]).mean()
    assert measured["per_topic_win"].iloc[1] == win and (measured["swap_rate"] == 0.1).all()
    assert measured["decay"].tolist() == ["slowly varying", "summable"]


# ------------------------------------------------------------ examples of studies.query_sets.report


def test_label_example():
    assert label(("linear", "log2")) == "linear · log2"


def test_by_discount_example():
    rows = [dict(gain=g, discount="log2", power=p) for g, p in (("linear", 0.6543), ("exp2", 0.61))]
    assert by_discount(rows, {"power": "discriminative power"}).values.tolist() == [[0.654, 0.61]]


def test_collection_table_example():
    r = [
        dict(
            gain="linear",
            discount="log2",
            sample="collection",
            mean=0.4,
            best_system=0.5,
            worst_system=0.3,
            share_system=0.1,
            share_topic=0.6,
            share_interaction=0.3,
        )
    ]
    expected = (
        "over all 1 (measure, sample) tables: topic share 0.60-0.60, interaction 0.30-0.30, system 0.10-0.10; "
        "topic "
        "> interaction > system in 1 of 1"
    )
    assert collection_table(r, ["log2"])[1] == expected


def test_truth_lines_example():
    lines, low = truth_lines([dict(gain="g", discount="d", tau_population=1.0, min_neighbour_z=0.5)], 3)
    assert lines[0] == "measures whose population mean orders all 3 systems as the truth: 1 of 1"


def test_needed_cells_example():
    assert needed_cells({("linear", "log2"): (18.04, 17.2, 18.96)})[0]["queries needed [95%]"] == "18.0 [17.2, 19.0]"


def test_a_measure_that_never_reaches_the_target_is_named_without_nan(tmp_path):
    # A measure whose accuracy stays below the target needs infinitely many queries (NaN where the curve is
    # undefined): "most queries" named it with "inf (inf x the best)" or "nan (nan x the best)".
    table = read_table(FULL / "07_measures.csv")
    for missing in (np.inf, np.nan):
        changed = table.copy()
        changed.loc[3, ["queries_needed", "queries_needed_low", "queries_needed_high"]] = missing
        write_table(changed, tmp_path / "07_measures.csv")
        (tmp_path / "07_query_sets.json").write_text((FULL / "07_query_sets.json").read_text(encoding="utf-8"))
        most = report.verdict(tmp_path)["lines"][3]
        name = f"{table.loc[3, 'gain']} · {table.loc[3, 'discount']}"
        assert most == f"most queries: {name}, which does not reach that accuracy with the query sets simulated"


def test_ordering_accuracy_refuses_tied_skills():
    # A pair of systems without a true order would count as half right (0.5) in every subset, silently.
    from ndcg_research.studies.query_sets.experiment import ordering_accuracy

    scores = np.random.default_rng(0).random((3, 20))
    with pytest.raises(ValueError, match="skills must not tie"):
        ordering_accuracy(scores, [0.1, 0.1, 0.5], [5], trials=4)
    assert ordering_accuracy(scores, [0.1, 0.2, 0.5], [5], trials=4).shape == (1, 4)


def test_query_set_functions_refuse_inputs_of_the_wrong_shape():
    # Checks lost in a slimming and put back: 4 skills for 3 systems gave accuracies, a 3 x 4 accuracy for 4 sizes a
    # number of queries, a wrong model an AttributeError.
    from ndcg_research.studies.query_sets.experiment import ordering_accuracy, queries_needed_interval

    scores = np.random.default_rng(0).random((3, 20))
    with pytest.raises(ValueError, match=r"skills one per system, got shapes \(3, 20\) and \(4,\)"):
        ordering_accuracy(scores, [0.1, 0.2, 0.3, 0.4], [5], trials=4)
    with pytest.raises(ValueError, match=r"accuracy must be len\(sizes\) x trials, got shape \(3, 4\) for 4 sizes"):
        queries_needed_interval([5, 10, 20, 40], np.full((3, 4), 0.9), 0.8)
    with pytest.raises(TypeError, match="model must be a CollectionModel, got str"):
        simulate_collection("collection", topics=5, seed=1)
