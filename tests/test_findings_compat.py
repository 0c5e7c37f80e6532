"""Temporary: studies.realdata keeps copies of the MovieLens verdict functions for notebook 08 (findings sit
above studies, so the copies cannot import them); both must give the same numbers and verdicts. Delete this
file with the copies once notebook 08 calls ndcg_research.findings.rules.movielens."""

from pathlib import Path

import pandas as pd
import pytest

from ndcg_research.findings.model import Results
from ndcg_research.findings.rules import movielens
from ndcg_research.studies import realdata

FULL = Results(Path(__file__).resolve().parents[1] / "results" / "full")


def _same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], (pd.DataFrame, pd.Series)):
            pd.testing.assert_frame_equal(pd.DataFrame(a[key]), pd.DataFrame(b[key]))
        else:
            assert a[key] == b[key], key


@pytest.mark.parametrize("name, tables", [
    ("list_length_findings", ("08_list_length_means.csv", "08_list_length_pairs.csv", "08_list_length_first_order.csv")),
    ("query_set_findings", ("08_query_sets_power.csv",)),
    ("cutoff_findings", ("08_cutoffs_decisions.csv",)),
    ("convention_findings", ("08_conventions_decisions.csv",)),
])
def test_the_copies_give_the_findings_numbers_and_verdicts(name, tables):
    args = [FULL.table(t) for t in tables]
    _same(getattr(realdata, name)(*args), getattr(movielens, name)(*args))
