"""Tests of ndcg_research.simulation.tables: a table read back has the values and the column types it was written with;
grid tables have one row per combination of axis labels."""

from __future__ import annotations

import math
import os

import numpy as np
import pandas as pd
import pytest

from ndcg_research.simulation.tables import dtypes_path, grid_table, read_table, write_table


def test_round_trip_keeps_types_that_plain_csv_loses(tmp_path):
    table = pd.DataFrame(
        {
            "code": ["007", "True", "", "1e3"],  # text that looks like a number, a boolean, nothing, a float
            "flag": [True, False, True, False],
            "n": [1, 10, 2**40, -3],
            "x": [0.1, math.nan, -1e-300, 1 / 3],
            "rule": ["fixed(k=10)", "all", "power(a=0.5)", "all"],
            "id": ["007", "010", "2", "3"],
            "answer": ["True", "False", "True", "True"],
        }
    )
    path = write_table(table, tmp_path / "t.csv")
    back = read_table(path)
    pd.testing.assert_frame_equal(back, table, check_exact=False, rtol=1e-9, atol=0)
    assert back["code"].tolist() == ["007", "True", "", "1e3"]
    assert back["flag"].dtype == bool and back["n"].dtype == np.int64
    # What a plain reader makes of the same file (the reason for the dtypes file):
    naive = pd.read_csv(path)
    assert naive["id"].tolist() == [7, 10, 2, 3] and naive["answer"].dtype == bool
    assert back["id"].tolist() == ["007", "010", "2", "3"] and back["answer"].tolist()[0] == "True"


def test_csv_is_plain_with_ten_significant_digits(tmp_path):
    path = write_table([{"name": "a", "v": 2 / 3}, {"name": "b", "v": math.nan}], tmp_path / "t.csv")
    assert path.read_text().splitlines() == ["name,v", "a,0.6666666667", "b,NaN"]
    assert dtypes_path(path).read_text().count("float64") == 1


def test_bad_tables_are_refused(tmp_path):
    with pytest.raises(TypeError, match="column 'name' must hold only text"):
        write_table(pd.DataFrame({"name": ["a", None]}), tmp_path / "t.csv")
    with pytest.raises(TypeError, match="column 'cell' must hold only text"):
        write_table(pd.DataFrame({"cell": [[1], [2]]}), tmp_path / "t.csv")
    (tmp_path / "other.csv").write_text("a\n1\n")
    with pytest.raises(FileNotFoundError, match="other.csv.dtypes.json is missing"):
        read_table(tmp_path / "other.csv")


def test_grid_table_rows_follow_the_axes():
    table = grid_table({"a": ["x", "y"], "n": [1, 2, 3]}, {"v": np.arange(6).reshape(2, 3), "c": "const"})
    assert table[["a", "n", "v"]].values.tolist() == [
        ["x", 1, 0],
        ["x", 2, 1],
        ["x", 3, 2],
        ["y", 1, 3],
        ["y", 2, 4],
        ["y", 3, 5],
    ]
    assert set(table["c"]) == {"const"}
    with pytest.raises(ValueError, match="column 'v' has shape"):
        grid_table({"a": ["x", "y"]}, {"v": [1, 2, 3]})


# ------------------------------------------------------------ examples of simulation.tables


def test_dtypes_path_example():
    assert dtypes_path("results/03_ndcg_certain.csv").name == "03_ndcg_certain.csv.dtypes.json"


def test_write_table_example():
    import tempfile

    p = write_table([{"n": 10, "mean": 1 / 3}], os.path.join(tempfile.mkdtemp(), "t.csv"))
    assert p.read_text().splitlines() == ["n,mean", "10,0.3333333333"]


def test_read_table_example():
    import tempfile

    p = write_table([{"code": "007", "flag": "True", "n": 10}], os.path.join(tempfile.mkdtemp(), "t.csv"))
    back = read_table(p)
    assert (back["code"].tolist(), back["flag"].tolist(), back["n"].tolist()) == (["007"], ["True"], [10])


def test_grid_table_example():
    expected = (
        "  ranker   n  mean model\n"
        "0      a  10   1.0     m\n"
        "1      a  20   2.0     m\n"
        "2      b  10   3.0     m\n"
        "3      b  20   4.0     m"
    )
    assert (
        repr(grid_table({"ranker": ["a", "b"], "n": [10, 20]}, {"mean": [[1.0, 2.0], [3.0, 4.0]], "model": "m"}))
        == expected
    )
