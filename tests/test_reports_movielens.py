"""Notebook 08's items (sentences and tables) against the committed full profile."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ndcg_research.simulation.tables import read_table
from ndcg_research.studies.movielens import findings as ml_rules
from ndcg_research.studies.movielens import report
from ndcg_research.studies.movielens.report import rankers_items

FULL = Path(__file__).resolve().parent.parent / "results" / "full"
GAINS = ["rating", "max(0, rating-3)", "2^rating-1"]
DISCOUNTS = ["power(beta=2)", "geometric(p=0.5)", "zipf", "power(beta=0.5)", "log2", "logpower(gamma=0.5)", "loglog"]


def read(name: str) -> pd.DataFrame:
    return read_table(FULL / name)


def tables(items):
    return [i for i in items if isinstance(i, pd.DataFrame)]


def test_rankers_best_first_and_the_untested_pairs():
    table, pairs = read("08_rankers.csv"), read("08_ranker_pairs.csv")
    items = report.rankers_items(table, pairs)
    whole = tables(items)[0]
    first = table[(table.gain == GAINS[0]) & (table.cutoff.astype(str) == "all")].sort_values("mean", ascending=False)
    assert whole.index.tolist() == first["system"].tolist()
    top = first.iloc[0]
    assert whole.loc[top["system"], GAINS[0]] == f"{top['mean']:.3f} [{top['ci_low']:.3f},{top['ci_high']:.3f}]"
    assert items[-1].startswith("pairs not significantly different (paired t, Holm, 5%; gain rating, whole list): ")


def test_every_shown_table_of_the_full_profile_is_short():
    means, first_order = read("08_list_length_means.csv"), read("08_list_length_first_order.csv")
    f1 = ml_rules.list_length_findings(means, read("08_list_length_pairs.csv"), first_order)
    power = read("08_query_sets_power.csv")
    decisions, cut = read("08_conventions_decisions.csv"), read("08_cutoffs_decisions.csv")
    items = (
        report.list_length_items(f1, means, first_order)
        + report.query_set_items(
            power,
            read("08_query_sets_swaps.csv"),
            read("08_query_sets_agreement.csv"),
            GAINS,
            DISCOUNTS,
            ml_rules.query_set_findings(power),
        )
        + report.convention_items(decisions, ml_rules.convention_findings(decisions))
        + report.cutoff_items(cut, ml_rules.cutoff_findings(cut))
    )
    assert max(len(t) for t in tables(items)) <= 15
    # The verdict sentences carry the verdicts of the findings' rules (studies.realdata).
    assert f"verdict: {ml_rules.cutoff_findings(cut)['verdict']};" in items[-1]
    shown = sum(len(t) for t in tables(report.convention_items(decisions, ml_rules.convention_findings(decisions))))
    assert shown == int((decisions.convention != "trec_eval").sum())  # every preset against trec_eval, once


# ------------------------------------------------------------ examples of studies.movielens.report


def test_rankers_items_example():
    t = pd.DataFrame(
        {
            "gain": "g",
            "cutoff": "all",
            "system": ["a", "b"],
            "mean": [0.2, 0.3],
            "ci_low": [0.1, 0.2],
            "ci_high": [0.3, 0.4],
        }
    )
    p = pd.DataFrame(
        {
            "gain": ["g"],
            "cutoff": ["all"],
            "system_a": ["a"],
            "system_b": ["b"],
            "difference": [-0.1],
            "pvalue_adjusted": [0.2],
        }
    )
    items = rankers_items(t, p)
    expected = (
        ["b", "a"],
        "pairs not significantly different (paired t, Holm, 5%; gain g, whole list): a vs b (-0.1000, p = 0.20)",
    )
    assert (items[1].index.tolist(), items[-1]) == expected


def test_non_finite_ranker_scores_are_refused_not_rounded_to_nan():
    # One NaN or inf made every rounded score NaN; score_items promises finite scores (the check was lost once).
    from ndcg_research.studies.movielens.recommenders import _quantize

    for bad in (np.nan, np.inf):
        with pytest.raises(ValueError, match="non-finite scores"):
            _quantize(np.array([[1.0, bad], [0.5, 0.25]]))
    assert _quantize(np.array([[1.0, 0.5]])).tolist() == [[1.0, 0.5]]
