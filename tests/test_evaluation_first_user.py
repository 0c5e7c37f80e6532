"""What a first user hit (issue 20, section 3): one default for judged queries missing from a run, one name per
run, a CSV pandas can read, LETOR/SVMlight input on the command line, and messages in plain grammar."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from ndcg_research.cli import main

QRELS = "q1 0 a 2\nq1 0 b 1\nq2 0 a 1\nq2 0 c 2\nq3 0 a 1\n"
BM25 = "q1 Q0 a 1 3 bm25\nq1 Q0 b 2 2 bm25\nq2 Q0 c 1 2 bm25\nq2 Q0 x 2 1 bm25\n"  # q3 missing
DENSE = "q1 Q0 b 1 3 dense\nq1 Q0 a 2 2 dense\nq2 Q0 a 1 2 dense\nq3 Q0 a 1 1 dense\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "bm25.run").write_text(BM25)
    (tmp_path / "dense.run").write_text(DENSE)
    return tmp_path


def cli(capfdbinary, *args):
    status = main([*map(str, args)])
    out, err = capfdbinary.readouterr()
    return status, out.decode(), err.decode()


def test_evaluate_and_compare_treat_a_missing_judged_query_alike_and_say_which(files, capfdbinary):
    status, out, err = cli(
        capfdbinary, "evaluate", "--format", "json", files / "qrels.txt", files / "bm25.run", files / "dense.run"
    )
    assert status == 0
    evaluated = {r["run"]: r for r in json.loads(out)["runs"]}
    assert evaluated["bm25"]["num_q"] == 3  # q3 scored 0, as trec_eval -c (trec_eval 10.0 stops without it)
    assert "bm25: 1 judged query has no ranking ('q3'); scored 0" in err
    status, out, err = cli(
        capfdbinary, "compare", "--format", "json", files / "qrels.txt", files / "bm25.run", files / "dense.run"
    )
    assert status == 0 and "bm25: 1 judged query has no ranking ('q3'); scored 0" in err
    compared = {s["system"]: s for s in json.loads(out)[0]["systems"]}
    assert compared["bm25"]["queries"] == 3
    assert compared["bm25"]["mean"] == pytest.approx(evaluated["bm25"]["means"]["ndcg"], rel=1e-12)
    # --answered-only leaves it out in both, and says so.
    _, out, err = cli(
        capfdbinary, "evaluate", "--answered-only", "--format", "json", files / "qrels.txt", files / "bm25.run"
    )
    assert json.loads(out)["runs"][0]["num_q"] == 2 and "('q3'); left out of the mean" in err
    _, out, err = cli(
        capfdbinary,
        "compare",
        "--answered-only",
        "--format",
        "json",
        files / "qrels.txt",
        files / "bm25.run",
        files / "dense.run",
    )
    assert json.loads(out)[0]["queries"] == 2 and "1 query left out of the comparison ('q3')" in err


def test_one_name_per_run_in_every_output(files, capfdbinary):
    names = set()
    _, out, _ = cli(
        capfdbinary,
        "evaluate",
        "--format",
        "csv",
        "--quiet",
        files / "qrels.txt",
        files / "bm25.run",
        files / "dense.run",
    )
    names |= {tuple(pd.read_csv(io.StringIO(out))["run"].unique())}
    _, out, _ = cli(
        capfdbinary,
        "evaluate",
        "--format",
        "json",
        "--quiet",
        files / "qrels.txt",
        files / "bm25.run",
        files / "dense.run",
    )
    names |= {tuple(r["run"] for r in json.loads(out)["runs"])}
    _, out, _ = cli(
        capfdbinary,
        "compare",
        "--format",
        "csv",
        "--quiet",
        files / "qrels.txt",
        files / "bm25.run",
        files / "dense.run",
    )
    table = pd.read_csv(io.StringIO(out))
    names |= {tuple(table[table.kind == "mean"]["system_a"])}
    assert names == {("bm25", "dense")}
    # The tag (trec_eval's runid) stays the tag.
    _, out, _ = cli(capfdbinary, "evaluate", "-m", "runid", "--quiet", files / "qrels.txt", files / "bm25.run")
    assert out == "runid                 \tall\tbm25\n"


def test_compare_csv_is_one_table_pandas_reads(files, capfdbinary):
    status, out, _ = cli(
        capfdbinary,
        "compare",
        "--format",
        "csv",
        "-m",
        "ndcg",
        "-m",
        "ndcg@1",
        "--quiet",
        files / "qrels.txt",
        files / "bm25.run",
        files / "dense.run",
    )
    table = pd.read_csv(io.StringIO(out))
    assert status == 0 and len(table) == 2 * (2 + 1)  # per measure: 2 runs, 1 pair
    assert table.groupby("measure").kind.value_counts().to_dict() == {
        ("ndcg", "mean"): 2,
        ("ndcg", "difference"): 1,
        ("ndcg@1", "mean"): 2,
        ("ndcg@1", "difference"): 1,
    }


def test_letor_input_for_evaluate_and_compare(tmp_path, capfdbinary):
    (tmp_path / "test.txt").write_text(
        "2 qid:7 1:0.5 # docid = GX-a inc = 1\n0 qid:7 1:0.1 # docid = GX-b\n1 qid:7 1:0.2 # docid = GX-c\n"
        "1 qid:8 1:3 # docid = GX-a\n0 qid:8 2:1 # docid = GX-d\n"
    )
    (tmp_path / "lambdamart.txt").write_text("0.9\n0.1\n0.5\n0.2\n0.8\n")
    (tmp_path / "linear.txt").write_text("0.1\n0.9\n0.5\n0.7\n0.2\n")
    status, out, err = cli(
        capfdbinary,
        "evaluate",
        "--input",
        "svmlight",
        "--convention",
        "lightgbm",
        "-q",
        "--format",
        "csv",
        tmp_path / "test.txt",
        tmp_path / "lambdamart.txt",
    )
    table = pd.read_csv(io.StringIO(out), dtype={"query": str})
    assert status == 0, err
    assert table["run"].unique().tolist() == ["lambdamart"]
    # query 7: GX-a (2) first, GX-c (1), GX-b (0): ideal order; query 8: GX-d (0) above GX-a (1).
    assert table.set_index("query").loc["7", "value"] == pytest.approx(1.0)
    assert table.set_index("query").loc["8", "value"] == pytest.approx(1 / np.log2(3))
    status, out, err = cli(
        capfdbinary,
        "compare",
        "--input",
        "svmlight",
        "--format",
        "json",
        "--quiet",
        "--convention",
        "lightgbm",
        tmp_path / "test.txt",
        tmp_path / "lambdamart.txt",
        tmp_path / "linear.txt",
    )
    assert status == 0, err
    assert [s["system"] for s in json.loads(out)[0]["systems"]] == ["lambdamart", "linear"]


def test_notes_speak_plain_grammar(files, capfdbinary):
    (files / "one.run").write_text("q1 Q0 a 1 3 r\nzz Q0 a 1 3 r\n")
    _, _, err = cli(capfdbinary, "evaluate", files / "qrels.txt", files / "one.run")
    assert "one: 1 query has no judgments in" in err and "('zz'); left out" in err
    assert "one: 2 judged queries have no ranking ('q2', 'q3'); scored 0" in err
    assert "1 queries" not in err and "2 judged queries has" not in err
