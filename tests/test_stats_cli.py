"""The compare command, end to end on TREC files written by the simulated collection."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pandas as pd
import pytest

from ndcg_research.cli import main
from ndcg_research.stats import COMPARE_METHODS, CORRECTIONS, INTERVALS, compare_systems, run_matrices
from ndcg_research.stats import _cli as stats_cli
from ndcg_research.studies.query_sets.experiment import CollectionModel, simulate_collection

MODEL = CollectionModel(systems=4, documents=150, depth=40, relevant_median=10)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    collection = simulate_collection(MODEL, topics=30, seed=11)
    qrels, runs = collection.write_trec(tmp_path_factory.mktemp("trec"))
    return collection, str(qrels), [str(r) for r in runs]


def invoke(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_csv_output_equals_the_library_on_the_simulators_values(files):
    collection, qrels, runs = files
    status, out, _ = invoke(
        "compare",
        qrels,
        *runs,
        "-m",
        "ndcg@10",
        "--test",
        "permutation",
        "--correction",
        "bh",
        "--format",
        "csv",
        "--resamples",
        "2000",
        "--seed",
        "3",
    )
    assert status == 0
    table = pd.read_csv(io.StringIO(out))  # one tidy table: a row per run (mean) and per pair (difference)
    systems = table[table.kind == "mean"].rename(columns={"system_a": "system", "estimate": "mean"})
    pairs = table[table.kind == "difference"].rename(columns={"estimate": "difference"})
    assert set(table.kind) == {"mean", "difference"} and (table.test == "permutation").all()
    expected = compare_systems(
        collection.scores(k=10),
        systems=collection.systems,
        test="permutation",
        correction="bh",
        n_resamples=2000,
        seed=3,
    )
    assert systems.system.tolist() == collection.systems and (systems.measure == "ndcg@10").all()
    np.testing.assert_allclose(systems["mean"], expected.systems["mean"], rtol=1e-9)
    np.testing.assert_allclose(systems[["ci_low", "ci_high"]], expected.systems[["ci_low", "ci_high"]], rtol=1e-8)
    assert list(zip(pairs.system_a, pairs.system_b, strict=True)) == list(
        zip(expected.pairs.system_a, expected.pairs.system_b, strict=True)
    )
    np.testing.assert_allclose(
        pairs[["difference", "ci_low", "ci_high"]],
        expected.pairs[["difference", "ci_low", "ci_high"]],
        rtol=1e-8,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        pairs[["pvalue", "pvalue_adjusted"]], expected.pairs[["pvalue", "pvalue_adjusted"]], rtol=1e-9
    )


def test_json_and_text_outputs(files):
    _, qrels, runs = files
    status, out, _ = invoke("compare", qrels, *runs, "-m", "ndcg", "-m", "ndcg@5", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert [d["measure"] for d in data] == ["ndcg", "ndcg@5"]
    assert data[0]["test"] == "t" and data[0]["correction"] == "holm" and len(data[0]["pairs"]) == 6
    p = [row["pvalue"] for row in data[0]["pairs"]]
    adjusted = sorted(zip(p, [row["pvalue_adjusted"] for row in data[0]["pairs"]], strict=True))
    assert adjusted[0][1] == pytest.approx(min(1, 6 * adjusted[0][0]))  # Holm's first step
    status, out, _ = invoke("compare", qrels, *runs)
    assert status == 0 and out.startswith("measure ndcg: 4 runs, 30 queries; test t, correction holm")
    assert all(name in out for name in ("sys1", "sys4", "pvalue_adjusted"))


def test_run_matrices_pair_the_queries(files):
    collection, qrels, runs = files
    data = run_matrices(qrels, runs, ["ndcg(gain=exp2, discount=zipf)"])
    np.testing.assert_allclose(
        next(iter(data.matrices.values())), collection.scores(gain="exp2", discount="zipf"), atol=1e-12
    )
    assert data.systems == collection.systems and data.queries.size == 30


def test_query_ids_that_are_not_utf8_are_compared_and_named(tmp_path):
    # evaluate keeps such ids (surrogate escapes); run_matrices put them in pandas' str indexes, which refuse them:
    # compare failed with "'utf-8' codec can't encode character '\\udcff'"
    (tmp_path / "qrels").write_bytes(b"q1 0 a 1\nq1 0 b 0\n\xff 0 a 1\n\xff 0 b 2\nq3 0 a 1\n")
    (tmp_path / "r1").write_bytes(
        b"q1 Q0 a 1 1 t\nq1 Q0 b 2 0.5 t\n\xff Q0 a 1 1 t\n\xff Q0 b 2 0.5 t\nq3 Q0 a 1 1 t\n"
    )
    (tmp_path / "r2").write_bytes(b"q1 Q0 b 1 1 u\nq1 Q0 a 2 0.5 u\n\xff Q0 b 1 1 u\n\xff Q0 a 2 0.5 u\n")
    data = run_matrices(tmp_path / "qrels", [tmp_path / "r1", tmp_path / "r2"], "ndcg", complete=False)
    assert data.queries.tolist() == ["q1", "\udcff"]  # sorted as evaluate sorts them (their bytes)
    one, two = 1 / np.log2(3), (1 + 2 / np.log2(3)) / (2 + 1 / np.log2(3))  # by hand: r2 on q1, r1 on \xff
    np.testing.assert_allclose(data.matrices["ndcg"], [[1.0, two], [one, 1.0]], rtol=1e-12)
    assert any("1 query left out of the comparison ('q3')" in note for note in data.notes)
    out = io.StringIO()
    with redirect_stdout(out):
        assert (
            main(["compare", "--answered-only", str(tmp_path / "qrels"), str(tmp_path / "r1"), str(tmp_path / "r2")])
            == 0
        )
    assert "r1" in out.getvalue() and "r2" in out.getvalue()
    # a run file whose name is not UTF-8 is named by its surrogate escapes, as evaluate names it (it failed alike)
    odd = tmp_path / "r\udcff"
    odd.write_bytes((tmp_path / "r1").read_bytes())
    comparison = compare_systems(
        run_matrices(tmp_path / "qrels", [odd, tmp_path / "r2"], "ndcg").matrices["ndcg"], systems=["r\udcff", "r2"]
    )
    assert comparison.pairs["system_a"].tolist() == ["r\udcff"]


def test_errors_are_reported(files, tmp_path):
    _, qrels, runs = files
    status, _, err = invoke("compare", qrels, runs[0])
    assert status == 1 and "at least 2 runs" in err
    status, _, err = invoke("compare", str(tmp_path / "missing.txt"), *runs)
    assert status == 1 and "missing.txt" in err
    # Options the command line refuses name the options, never the API's arguments (n_resamples).
    status, _, err = invoke("compare", "missing-qrels", *runs, "--test", "bootstrap", "--resamples", "15")
    assert status == 1 and err == (
        "ndcg-research compare: error: --resamples must be at least 40 for a 95% percentile bootstrap interval "
        "(each tail holds 0.025 of the resamples), got 15\n"
    )
    bad_usage = (
        (["--test", "tukey", "--correction", "holm"], "--correction holm is not allowed with --test tukey"),
        (["--resamples", "9" * 20], f"argument --resamples: must be an integer in [1, 2147483647], got '{'9' * 20}'"),
        (["--resamples", "1e14"], "argument --resamples: must be an integer in [1, 2147483647], got '1e14'"),
    )
    for bad, message in bad_usage:
        err = io.StringIO()
        with pytest.raises(SystemExit) as exit_info, redirect_stderr(err):
            main(["compare", qrels, *runs, *bad])
        assert exit_info.value.code == 2 and f"ndcg-research compare: error: {message}" in err.getvalue()
    for bad, named in ((["--confidence", "95"], "--confidence"), (["--convention", "trec"], "--convention")):
        err = io.StringIO()
        with pytest.raises(SystemExit) as exit_info, redirect_stderr(err):
            main(["compare", qrels, *runs, *bad])
        assert exit_info.value.code == 2 and named in err.getvalue() and repr(bad[1]) in err.getvalue()


def test_compare_and_evaluate_share_their_input_arguments():
    import argparse

    from ndcg_research.evaluation import cli as evaluation_cli

    def options(register):
        parser = argparse.ArgumentParser()
        register(parser.add_subparsers())
        command = next(iter(parser._subparsers._group_actions[0].choices.values()))
        return {a.dest: (a.option_strings, a.nargs, a.choices, a.default) for a in command._actions}

    compare, evaluate = options(stats_cli.register), options(evaluation_cli.register)
    for dest in ("qrels", "runs", "measures", "convention", "quiet", "complete", "input"):
        assert compare[dest] == evaluate[dest], dest


def test_option_choices_are_the_librarys():
    assert stats_cli.TESTS == COMPARE_METHODS
    assert stats_cli.CORRECTIONS == CORRECTIONS
    assert stats_cli.INTERVALS == INTERVALS


def test_help_does_not_import_scipy():
    code = (
        "import sys; from ndcg_research.cli import build_parser; build_parser(); "
        "assert 'scipy' not in sys.modules and 'pandas' not in sys.modules, sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.fixture(scope="module")
def twelve(tmp_path_factory):
    collection = simulate_collection(MODEL, topics=12, seed=5)
    qrels, runs = collection.write_trec(tmp_path_factory.mktemp("trec12"))
    return collection, str(qrels), [str(r) for r in runs]


def test_csv_writes_wins_ties_losses_as_integers(twelve):
    import csv

    collection, qrels, runs = twelve
    status, out, _ = invoke("compare", qrels, *runs, "-m", "ndcg@10", "--format", "csv")
    assert status == 0
    rows = [row for row in csv.DictReader(io.StringIO(out)) if row["kind"] == "difference"]
    scores = collection.scores(k=10)
    for row in rows:  # counted here from the matrix: a tie is a difference within 1e-12
        i, j = collection.systems.index(row["system_a"]), collection.systems.index(row["system_b"])
        d = scores[i] - scores[j]
        expected = [np.sum(d > 1e-12), np.sum(np.abs(d) <= 1e-12), np.sum(d < -1e-12)]
        assert [row["wins"], row["ties"], row["losses"]] == [str(int(v)) for v in expected]
    means = [row for row in csv.DictReader(io.StringIO(out)) if row["kind"] == "mean"]
    assert all(row["wins"] == "" for row in means)


def test_every_format_reports_an_exact_test_as_exact(twelve):
    import csv

    _, qrels, runs = twelve
    args = ("compare", qrels, *runs, "--test", "permutation")
    # 12 queries: every one of the 2**11 sign patterns with a first + (exact up to 20 queries)
    data = json.loads(invoke(*args, "--format", "json")[1])[0]
    assert data["exact"] is True and data["sign_patterns"] == 2**11 and data["resamples"] is None
    assert data["interval_resamples"] == 10_000  # the percentile intervals do draw resamples
    rows = list(csv.DictReader(io.StringIO(invoke(*args, "--format", "csv")[1])))
    assert {(r["exact"], r["sign_patterns"], r["resamples"], r["interval_resamples"]) for r in rows} == {
        ("True", "2048", "", "10000")
    }
    text = invoke(*args)[1]
    assert "test permutation (exact: 2048 sign patterns)" in text and "(percentile, 10000 resamples)" in text
    # with t intervals, nothing random at all: no resamples, no seed
    text = invoke(*args, "--interval", "t")[1]
    assert text.splitlines()[0].endswith(
        "test permutation (exact: 2048 sign patterns), correction holm, 95% intervals (t)"
    )


def test_every_format_reports_random_resamples(files):
    import csv

    _, qrels, runs = files
    args = ("compare", qrels, *runs, "--test", "permutation", "--resamples", "500", "--interval", "t")
    data = json.loads(invoke(*args, "--format", "json")[1])[0]  # 30 queries: Monte Carlo
    assert (data["exact"], data["sign_patterns"], data["resamples"], data["interval_resamples"]) == (
        False,
        None,
        500,
        None,
    )
    rows = list(csv.DictReader(io.StringIO(invoke(*args, "--format", "csv")[1])))
    assert {(r["exact"], r["sign_patterns"], r["resamples"], r["interval_resamples"]) for r in rows} == {
        ("False", "", "500", "")
    }
    assert "test permutation (500 resamples)" in invoke(*args)[1]
    data = json.loads(invoke("compare", qrels, *runs, "--format", "json")[1])[0]  # t test, t intervals
    assert (data["exact"], data["sign_patterns"], data["resamples"], data["interval_resamples"]) == (
        False,
        None,
        None,
        None,
    )


def test_a_query_left_undefined_is_said_to_be_undefined_not_unanswered():
    # Both runs rank q3, one with a single document, which scikit-learn's convention leaves undefined (NaN): the note
    # said q3 was left out because not every run answered it.
    qrels = pd.DataFrame({"query": ["q1", "q1", "q2", "q2", "q3", "q3"], "doc": list("abcdef"), "relevance": 1})
    scores = {"query": ["q1", "q1", "q2", "q2", "q3"], "doc": list("abcde"), "score": [2.0, 1.0, 1.0, 2.0, 1.0]}
    one = pd.DataFrame(scores)
    other = pd.concat([one, pd.DataFrame({"query": ["q3"], "doc": ["f"], "score": [0.5]})])
    data = run_matrices(qrels, {"one": one, "other": other}, "ndcg", convention="sklearn")
    assert data.queries.tolist() == ["q1", "q2"]
    assert any("left out of the comparison ('q3')" in n and "answered with a defined value" in n for n in data.notes)
