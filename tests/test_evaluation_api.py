"""The evaluation API: measure specs, the result tables, several runs, lazy top-level names."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import ndcg_research as nr
from ndcg_research.evaluation import Measure, evaluate, parse_measures
from ndcg_research.evaluation._frames import run_names

QRELS = pd.DataFrame(
    {"query": ["q1", "q1", "q1", "q2", "q2"], "doc": ["a", "b", "c", "a", "d"], "relevance": [3, 1, 0, 2, 2]}
)
RUN_A = pd.DataFrame({"query": ["q1", "q1", "q2", "q2"], "doc": ["b", "a", "d", "e"], "score": [2.0, 1.0, 1.0, 0.5]})
RUN_B = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "c", "a"], "score": [2.0, 1.0, 1.0]})


def _dcg(gains, discount=lambda r: 1 / math.log2(r + 1)):
    return sum(g * discount(rank) for rank, g in enumerate(gains, start=1))


def test_spec_language():
    m = parse_measures('ndcg@10(gain=exp2, discount="power(beta=0.5)")')[0]
    assert (m.k, m.gain, m.discount) == (10, "exp2", "power(beta=0.5)")
    assert parse_measures("ndcg@10(discount=power(beta=0.50), gain='exp2')")[0] == m  # canonical, quotes optional
    assert parse_measures("ndcg@3(gain=mapping({0: 0, 1: 2}))")[0].gain == "mapping({0: 0, 1: 2})"
    assert [x.k for x in parse_measures("ndcg_cut")] == [5, 10, 15, 20, 30, 100, 200, 500, 1000]
    assert parse_measures(["ndcg@5", "ndcg_cut.5"]) == [Measure("ndcg@5", 5), Measure("ndcg_cut_5", 5)]
    for bad, message in [
        ("ndcg@0", "cut-off must be >= 1"),
        ("ndcg(k=3)", "unknown option"),
        ("ndcg(gains={1: 2}, gain=exp2)", "either gain or gains"),
        ("ndcg.a=3", "must be an integer"),
        ("ndcg_cut.5,5", "duplicate cut-offs"),
        ("ndcg(discount=log(base=1))", "base must be > 1"),
        ("ndcg(gains={-1: 2})", "integer grades >= 0"),
        ("precision@5", "unknown measure"),
        ("ndcg(gain=linear, gain=exp2)", "'gain' is given twice"),  # the last was kept silently
        ("ndcg(gains={1: 2, 1: 5})", "the key 1 is given twice"),
        ("ndcg(gains={1: 2, True: 5})", "the key True is given twice"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_measures(bad)


def test_tables_and_several_runs():
    per_query, means = evaluate(QRELS, {"A": RUN_A, "B": RUN_B}, ["ndcg", "ndcg@1(gain=exp2)"])
    assert list(per_query.columns) == ["run", "query", "measure", "value"]
    assert len(per_query) == 2 * 2 * 2
    row = per_query[(per_query.run == "A") & (per_query["query"] == "q1") & (per_query.measure == "ndcg")]
    assert row.value.item() == pytest.approx(_dcg([1, 3]) / _dcg([3, 1]))
    assert list(means.index) == ["A", "B"] and list(means.columns) == ["ndcg", "ndcg@1(gain=exp2)", "queries"]
    # Run B: q2 ranks only "a" (2) of the two grade-2 documents: nDCG@1 is 1 with exp2 gain.
    assert means.loc["B", "ndcg@1(gain=exp2)"] == pytest.approx(1.0)
    assert means.loc["B", "ndcg"] == pytest.approx((3 / _dcg([3, 1]) + 2 / _dcg([2, 2])) / 2)


def test_measure_options_go_to_the_core():
    result = evaluate(QRELS, RUN_A, ['ndcg(discount="power(beta=0.5)", gain=exp2)', "ndcg(gains={1: 5})"])
    power = lambda r: r**-0.5  # noqa: E731
    expected = _dcg([1, 7], power) / _dcg([7, 1], power)
    assert result.values[0][0][0] == pytest.approx(expected)
    expected_map = _dcg([5, 3]) / _dcg([5, 3])
    assert result.values[0][1][0] == pytest.approx(expected_map)
    # The same as the core on the same lists.
    core = nr.ndcg([1, 3], ideal=[3, 1, 0], gain="exp2", discount="power(beta=0.5)")
    assert result.values[0][0][0] == core


def test_run_names():
    assert run_names(["runs/bm25.txt", "runs/dense.txt.gz"]) == ["bm25", "dense"]
    assert run_names(["a/bm25.txt", "b/bm25.txt"]) == ["a/bm25.txt", "b/bm25.txt"]  # clashing names: the paths
    a = RUN_A.copy()
    a.attrs["run"] = "bm25"
    assert evaluate(QRELS, [a, RUN_B], "ndcg").runs == ("bm25", "run2")
    with pytest.raises(ValueError, match=r"runs\[1\]: run 'bm25' is given twice \(as runs\[0\] too\)"):
        evaluate(QRELS, [a, a], "ndcg")
    with pytest.raises(
        ValueError,
        match=r"runs\[0\] and runs\[1\] are different runs named 'bm25'; name them with a "
        r"dict",
    ):
        evaluate(QRELS, [a, a.copy()], "ndcg")


def test_max_docs_and_judged_only_checked():
    with pytest.raises(TypeError, match="max_docs must be an integer"):
        evaluate(QRELS, RUN_A, max_docs=2.5)
    with pytest.raises(ValueError, match=r"max_docs must be an integer >= 0 or None, got -1"):
        evaluate(QRELS, RUN_A, max_docs=-1)
    result = evaluate(QRELS, {"a": RUN_A, "b": RUN_B}, ["ndcg", "ndcg@1"], max_docs=0)  # trec_eval -M 0
    assert result.averaged() == [2, 2] and all((values == 0).all() for values in result.values)
    assert (result.mean_values == 0).all()
    with pytest.raises(ValueError, match="unknown convention"):
        evaluate(QRELS, RUN_A, convention="trec")


@pytest.mark.parametrize("name", sorted(nr.evaluation.CONVENTIONS))
def test_max_docs_0_scores_0_or_is_refused_when_the_ideal_comes_from_the_ranking(name):
    # An empty ranking has an ideal DCG of 0 under the tools that build the ideal from the list (their own
    # policies would then print 0 or 1 for every query): refused, rather than a score that means nothing.
    convention = nr.evaluation.CONVENTIONS[name]
    if convention.ideal == "ranking":
        with pytest.raises(ValueError, match=rf"max_docs=0 .* convention '{name}' takes its ideal from the ranked"):
            evaluate(QRELS, RUN_A, convention=name, max_docs=0)
    else:
        result = evaluate(QRELS, RUN_A, convention=name, max_docs=0)
        assert all((values == 0).all() for values in result.values)


def test_lazy_top_level_names_keep_import_numpy_only():
    code = (
        "import sys, ndcg_research as nr\n"
        "heavy = [m for m in ('pandas', 'pyarrow', 'scipy') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "assert callable(nr.evaluate) and callable(nr.read_run) and callable(nr.read_qrels)\n"
        "assert 'trec_eval' in nr.CONVENTIONS\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_evaluate_command_on_trec_files_imports_neither_pyarrow_compute_nor_pandas(tmp_path):
    # pyarrow.compute costs a quarter of the command on 250,000 lines (see _readers.kernel), pandas far more. The
    # files take the paths that used to import them: ties ordered by docno, qrels not grouped by query, a judged
    # query the run misses (q4: trec_eval -c's placeholder looked up), a run query without judgments (q3).
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 a 2\nq2 0 a 1\nq1 0 b 0\nq4 0 z 1\n")
    run.write_text("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\nq3 Q0 c 1 2.0 t\nq2 Q0 a 1 0.5 t\n")
    code = (
        "import sys\nfrom ndcg_research.cli import main\n"
        f"main(['evaluate', '--quiet', '-m', 'ndcg', '-m', 'ndcg_cut.10', {str(qrels)!r}, {str(run)!r}])\n"
        "print([m for m in ('pyarrow.compute', 'pandas') if m in sys.modules])\n"
        # leave as the console script does: Arrow's idle pool threads can abort the interpreter's teardown
        "sys.stdout.flush()\nimport os\nos._exit(0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.splitlines()[-3:] == ["ndcg                  \tall\t0.5436", "ndcg_cut_10           \tall\t0.5436", "[]"]


def test_unsorted_ungrouped_run_same_as_sorted():
    rng = np.random.default_rng(3)
    run = pd.DataFrame(
        {
            "query": rng.choice(["q1", "q2"], 40),
            "doc": [f"x{i}" for i in range(40)],
            "score": rng.integers(0, 5, 40).astype(float),
        }
    )
    qrels = pd.DataFrame(
        {"query": ["q1"] * 10 + ["q2"] * 10, "doc": [f"x{i}" for i in range(20)], "relevance": rng.integers(0, 3, 20)}
    )
    ordered = run.sort_values(["query", "score", "doc"], ascending=[True, False, False])
    for convention in ("trec_eval", "sklearn", "lightgbm"):
        a = evaluate(qrels, run, ["ndcg", "ndcg@3"], convention=convention)
        b = evaluate(qrels, ordered, ["ndcg", "ndcg@3"], convention=convention)
        if convention != "lightgbm":  # file order of ties differs on purpose
            np.testing.assert_allclose(a.values[0], b.values[0], rtol=1e-12)


def test_a_gain_map_listing_grade_0_gives_the_ideal_padding_no_gain():
    # q's ideal has 3 grades >= 0 (2, 1, 0), s's one (1): in one batch, s's ideal row is padded to 3 with grade 0,
    # which the map {0: 5} gains 5; the padding must still gain nothing. By hand, ndcg@2 (unlisted grades gain
    # themselves; d and z, grade -1, are unjudged): q ranks d, a (1): 1/log2(3); its ideal c (0 -> 5), b (2):
    # 5 + 2/log2(3). s ranks x (1), z: 1 over 1.
    qrels = pd.DataFrame(
        {"query": list("qqqqss"), "doc": list("abcdxz"), "relevance": [1, 2, 0, -1, 1, -1]},
    )
    run = pd.DataFrame({"query": list("qqqss"), "doc": list("dabxz"), "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    values = evaluate(qrels, run, [Measure("m", 2, None, None, ((0, 5.0),))]).values[0][0]
    third = 1 / math.log2(3)
    assert values.tolist() == pytest.approx([third / (5 + 2 * third), 1.0], abs=1e-15)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"k": 0}, r"k must be an integer >= 1 or None, got int 0"),  # every query scored 0, noted as no relevant
        ({"k": 2.5}, r"k must be an integer >= 1 or None, got float 2.5"),  # numpy's casting error
        ({"k": True}, r"k must be an integer >= 1 or None, got bool True"),
        ({"gains": ((-1, 5.0),)}, r"gains keys must be integer grades >= 0, got -1"),  # as 'ndcg.-1=5' is
        ({"gains": ()}, r"gains must be a non-empty dict"),
        ({"gains": ((1, math.nan),)}, r"gains values must be finite numbers, got nan"),  # 'DCG overflows'
        ({"gains": ((1, 2.0), (1, 3.0))}, r"each grade once"),
        ({"gain": "exp2", "gains": ((1, 2.0),)}, r"give either gain or gains"),  # the gain was ignored
        ({"gain": "cubic"}, r"unknown gain 'cubic'"),
    ],
)
def test_a_measure_made_by_hand_is_checked_as_a_spec_is(options, message):
    # parse_measures and evaluate take a Measure as it is: its fields were never checked.
    with pytest.raises(ValueError, match=message):
        Measure("m", **options)
    assert Measure("m", gains={1: 3}).gains == ((1, 3.0),)  # a dict, as the spec language writes it
    assert Measure("m", discount=" power(beta=0.5) ").discount == "power(beta=0.5)"  # the canonical text: the key
    with pytest.raises(ValueError, match=r"^two different measures are named 'ndcg@10'; name them apart$"):
        parse_measures(["ndcg@10", Measure("ndcg@10", k=1)])  # two columns of one name; .mean() took the first
    assert parse_measures(["ndcg@10", Measure("ndcg@10", k=10)]) == [Measure("ndcg@10", k=10)]
    # A function as the gain is kept as given (checked: a non-callable, non-spec value is refused).
    qrels, run = {"q1": {"a": 2, "b": 1, "c": 0}}, {"q1": {"a": 1.0, "b": 2.0, "c": 3.0}}
    assert evaluate(qrels, run, [Measure("m", gain=abs)]).mean() == evaluate(qrels, run, "ndcg").mean()
    with pytest.raises(TypeError, match="gain"):
        Measure("m", gain=3)


def test_private_helpers_of_matching_and_scoring():
    # (were doctests) distinct values with their first positions; grades >= 0 descending per code, counted for small
    # integer grades and lexsorted for others; rows padded to a width; a mean over the defined values only.
    from ndcg_research.evaluation._evaluator import mean_of
    from ndcg_research.evaluation._matching import _ideal_grades, distinct, padded

    assert [a.tolist() for a in distinct(np.array([3, 1, 3, 2]))] == [[1, 2, 3], [1, 3, 0]]
    for grade in (np.array([0, 2, 3, -1]), np.array([0, 2, 300, -1]), np.array([0.0, 2.5, 3.0, -1.0])):
        grades, starts, counts = _ideal_grades(np.array([1, 0, 1, 1]), grade, 2)
        assert (
            grades.tolist() == [grade[1], grade[2], grade[0]]
            and counts.tolist() == [1, 2]
            and starts.tolist() == [0, 1]
        )
    assert padded(np.array([5, 6, 7, 8]), np.array([0, 2]), np.array([2, 2]), 3, -1).tolist() == [
        [5, 6, -1],
        [7, 8, -1],
    ]
    assert padded(np.array([5, 6, 7, 8]), np.array([2, 0]), np.array([1, 2]), 3, 0).tolist() == [[7, 0, 0], [5, 6, 0]]
    assert mean_of(np.array([[1.0, np.nan, 0.5], [0.0, 0.0, 0.0]])).tolist() == [0.75, 0.0]


@pytest.mark.parametrize("argument", ["qrels", "run"])
def test_a_refused_input_type_lists_only_public_types(argument):
    # Columns is the evaluator's private type: a refusal names what a user can pass, and only that.
    good = pd.DataFrame({"query": ["q"], "doc": ["d"], "relevance": [1]})
    args = {"qrels": good, "run": good.rename(columns={"relevance": "score"})}
    args[argument] = 3
    with pytest.raises(TypeError, match=f"{argument}.* must be a .*DataFrame.*dict .*got") as caught:
        evaluate(args["qrels"], args["run"], "ndcg")
    assert "Columns" not in str(caught.value)
