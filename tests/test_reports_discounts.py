"""Notebook 02's tables by hand: partial sums, closed forms, the top share and its limits."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import ndcg_research as nr
from ndcg_research.studies.discount_functions import report
from ndcg_research.studies.discount_functions.report import (
    closed_form_checks,
    discount_table,
    eps_table,
    readable_discounts,
    readable_top_share,
    top_share_table,
)

N = 10**5
SPECS = ["power(beta=2)", "geometric(p=0.5)", "zipf", "power(beta=0.5)", "log2", "none"]


@pytest.fixture(scope="module")
def sums():
    ranks = np.arange(1, N + 1, dtype=np.float64)
    D = {d: nr.parse_discount(d)(ranks) for d in SPECS}
    return D, {d: np.cumsum(v) for d, v in D.items()}


def test_discount_table_by_hand(sums):
    D, C = sums
    table = report.discount_table(D, C).set_index("discount")
    harmonic = sum(1 / r for r in range(1, 1001))
    assert math.isclose(table.loc["zipf", "sum_1000"], harmonic, rel_tol=1e-12)
    assert table.loc["none", "sum_ratio"] == N / 1000
    assert table.loc["log2", "D_10"] == pytest.approx(1 / math.log2(11))
    shown = report.readable_discounts(table.reset_index(), N)
    assert shown.columns.tolist()[-1] == "sum to 10^5 / sum to 1000" and len(shown) == len(SPECS)


def test_closed_forms(sums):
    _, C = sums
    checks = report.closed_form_checks(C, N)
    assert checks.loc["zipf: H_n - ln n", "closed form"] == round(0.5772156649, 4)
    # power(2): its tail beyond N, about 1/N, is below 1e-3; power(0.5): the next term of the expansion, 1/(2 sqrt N)
    assert checks.loc["power(2): sum", "|difference|"] == "< 1e-3"
    assert checks.loc["power(0.5): sum - 2 sqrt(n)", "|difference|"] == f"{1 / (2 * math.sqrt(N)):.1e}"


def test_top_share_limits_and_its_reader_table(sums):
    _, C = sums
    shares = report.top_share_table(C, [1000, 10**5], 0.01).set_index("discount")
    assert shares.loc["none", "n=1e+05"] == pytest.approx(0.01)
    harmonic = [sum(1 / r for r in range(1, m + 1)) for m in (10, 1000)]
    assert shares.loc["zipf", "n=1e+03"] == pytest.approx(harmonic[0] / harmonic[1])
    assert shares["limit"].to_dict() == {
        "power(beta=2)": 1.0,
        "geometric(p=0.5)": 1.0,
        "zipf": 1.0,
        "power(beta=0.5)": 0.1,
        "log2": 0.01,
        "none": 0.01,
    }
    shown = report.readable_top_share(shares.reset_index(), 0.01)
    assert shown.columns.tolist() == [
        "class",
        "n = 1000",
        "n = 10^5",
        "limit (theory)",
        "top weight / its size at n = 10^5",
    ]
    assert shown.loc["log2", "top weight / its size at n = 10^5"] == round(shares.loc["log2", "n=1e+05"] / 0.01, 3)


def test_eps_table_is_1_over_ln_n_for_log2():
    eps = report.eps_table(["log2"], [10**4]).set_index("discount")
    n = 10**4
    assert eps.loc["log2", "n=1e+04"] == pytest.approx(n / ((1 + n) * math.log(1 + n)))
    assert report.readable_eps(eps.reset_index()).columns.tolist() == ["n = 10^4", "max rel. diff. numeric"]


# ------------------------------------------------------------ examples of studies.discount_functions.report


def test_discount_table_example():
    D = {"none": np.ones(2000)}
    expected = [["none", 1000.0, 2.0]]
    assert (
        discount_table(D, {"none": np.cumsum(D["none"])})[["discount", "sum_1000", "sum_ratio"]].values.tolist()
        == expected
    )


def test_readable_discounts_example():
    t = pd.DataFrame(
        {
            "discount": ["none"],
            "decay": ["constant"],
            "D_1": [1.0],
            "D_10": [1.0],
            "D_1000": [1.0],
            "D_nmax": [1.0],
            "sum_1000": [1000.0],
            "sum_nmax": [2000.0],
            "sum_ratio": [2.0],
        }
    )
    assert readable_discounts(t, 2000).columns.tolist()[:2] == ["class", "D(1)"]


def test_closed_form_checks_example():
    expected = [[2.0, 2.0, "< 1e-3"]]
    assert closed_form_checks({"geometric(p=0.5)": np.cumsum(0.5 ** np.arange(60.0))}, 60).values.tolist() == expected


def test_top_share_table_example():
    C = {"none": np.cumsum(np.ones(1000))}
    assert top_share_table(C, [1000], 0.01).values.tolist() == [["none", "constant", 0.01, 0.01]]


def test_readable_top_share_example():
    t = pd.DataFrame({"discount": ["log2"], "decay": ["slowly varying"], "n=1e+03": [0.037], "limit": [0.01]})
    assert readable_top_share(t, 0.01).values.tolist() == [["slowly varying", 0.037, 0.01, 3.7]]


def test_eps_table_example():
    assert bool(eps_table(["log2"], [1000])["max rel. diff. numeric"].iloc[0] < 1e-6)
