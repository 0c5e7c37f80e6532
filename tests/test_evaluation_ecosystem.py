"""The ecosystem's tables in and out of the evaluator (issue 26, items 2 and 4).

``evaluate`` takes PyTerrier's frames (``qid, docno, label`` / ``qid, docno, score``), ir_measures'
(``query_id, doc_id, relevance`` / ``query_id, doc_id, score``), ranx ``Qrels`` / ``Run`` objects and
pytrec_eval's ``{qid: {docno: value}}`` dicts; each gives the values of the same data in the package's own
columns, and pytrec_eval's own values on its dicts. Results name the query column as the caller's frame did.
One run and one measure give one float.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import ndcg_research as nr
from ndcg_research.evaluation import InputError, evaluate

QRELS = {"q1": {"a": 2, "b": 0, "c": 1, "x": 3}, "q2": {"a": 1, "d": 2}, "q3": {"z": 1}}
RUN = {"q1": {"a": 0.9, "b": 0.8, "c": 0.8, "n": 0.1}, "q2": {"d": 0.3, "e": 0.5}, "q4": {"a": 1.0}}


def _rows(nested, value):
    return pd.DataFrame(
        [(q, d, v) for q, docs in nested.items() for d, v in docs.items()], columns=["query", "doc", value]
    )


OURS_QRELS, OURS_RUN = _rows(QRELS, "relevance"), _rows(RUN, "score")
MEASURES = ["ndcg", "ndcg@2"]


def _reference():
    return evaluate(OURS_QRELS, OURS_RUN, MEASURES)


def test_pytrec_eval_dicts_give_pytrec_eval_values():
    import pytrec_eval

    theirs = pytrec_eval.RelevanceEvaluator(QRELS, {"ndcg", "ndcg_cut.2"}).evaluate(RUN)
    result = evaluate(QRELS, RUN, MEASURES, complete=False)  # pytrec_eval leaves q3 (no ranking) out
    assert list(result.queries[0]) == sorted(theirs)
    for j, name in enumerate(["ndcg", "ndcg_cut_2"]):
        for q, value in zip(result.queries[0], result.values[0][j], strict=False):
            assert math.isclose(value, theirs[q][name], rel_tol=1e-12), (q, name)
    np.testing.assert_array_equal(evaluate(QRELS, RUN, MEASURES).values[0], _reference().values[0])


def test_a_query_a_run_dict_answers_with_no_document_scores_0_as_pytrec_eval_and_ranx_score_it():
    # The dict's {} had no rows, so the query counted as missing: left out under the pytrec_eval preset, where
    # pytrec_eval scores it 0 (a query the run lists, answered with nothing).
    import pytrec_eval
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    qrels, run = {"1": {"a": 1, "b": 0}, "2": {"a": 1}, "3": {"c": 2}}, {"1": {}, "2": {"a": 1.0, "z": 2.0}}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)
    result = evaluate(qrels, run, "ndcg", convention="pytrec_eval")
    assert list(result.queries[0]) == sorted(theirs) == ["1", "2"]
    assert [float(v) for v in result.values[0][0]] == pytest.approx([theirs[q]["ndcg"] for q in ["1", "2"]], 1e-12)
    assert "run1: 1 judged query has an empty ranking ('1'); scored 0" in result.notes
    assert result.values[0][0, 0] == 0.0
    ours = evaluate(Qrels(qrels), Run(run), "ndcg", convention="ranx").mean()
    assert ours == pytest.approx(ranx_evaluate(Qrels(qrels), Run(run), "ndcg", make_comparable=True), abs=1e-12)
    # A query without judgments answered with nothing is left out, as any query without judgments.
    assert (
        "no judgments in qrels dict ('9')"
        in evaluate(qrels, {**run, "9": {}}, "ndcg", convention="pytrec_eval").notes[0]
    )
    # The tools that take no dict (scikit-learn refuses an empty list) do not say: there it is a missing query, scored
    # or left out by the convention's rule for those (sklearn: left out; trec_eval: scored 0, as -c).
    sklearn = evaluate(qrels, run, "ndcg", convention="sklearn")
    assert sklearn.queries[0].tolist() == ["2"] and any(
        "judged queries have no ranking ('1', '3')" in n for n in sklearn.notes
    )
    assert evaluate(qrels, run, "ndcg").queries[0].tolist() == ["1", "2", "3"]
    # Ids that match no judged query are refused under the default, a {} of a judged query or not.
    with pytest.raises(InputError, match=r"none of its queries \('Q2'\) is judged"):
        evaluate(qrels, {"Q2": {"a": 1.0}, "1": {}}, "ndcg")


def test_integer_scores_beside_floats_in_a_run_dict_are_refused_where_a_float64_would_change_them():
    # numpy made the scores float64 before they were checked: 2^53 + 1 and 2^53 tied silently (b first by docno),
    # where the same integers alone are refused as inexact.
    qrels = {"1": {"a": 1, "b": 0}}
    message = r"^run dict: query '1', document 'a': score 9007199254740993 is not exact as a float64"
    for big in (2**53 + 1, np.int64(2**53 + 1)):
        with pytest.raises(InputError, match=message):
            evaluate(qrels, {"1": {"a": big, "b": 2**53, "c": 0.5}})
    assert evaluate(qrels, {"1": {"a": 2**60, "b": 0.5}}).mean() == 1.0  # exact in float64: a first


def test_a_mapping_of_names_to_dict_runs_names_them():
    result = evaluate(QRELS, {"bm25": RUN, "dense": {"q1": {"x": 1.0}}}, "ndcg")
    assert result.runs == ("bm25", "dense")
    np.testing.assert_array_equal(result.values[0], _reference().values[0][:1])


def test_pyterrier_frames_and_their_column_names():
    qrels = OURS_QRELS.rename(columns={"query": "qid", "doc": "docno", "relevance": "label"})
    # PyTerrier's run frames hold the query's text in "query": the id is "qid".
    run = OURS_RUN.rename(columns={"query": "qid", "doc": "docno"}).assign(query="text of the query", rank=0)
    result = evaluate(qrels, run, MEASURES)
    np.testing.assert_array_equal(result.values[0], _reference().values[0])
    assert list(result.per_query.columns) == ["run", "qid", "measure", "value"]


def test_ir_measures_frames_and_their_column_names():
    qrels = OURS_QRELS.rename(columns={"query": "query_id", "doc": "doc_id"}).assign(iteration="0")
    run = OURS_RUN.rename(columns={"query": "query_id", "doc": "doc_id"})
    result = evaluate(qrels, run, MEASURES)
    np.testing.assert_array_equal(result.values[0], _reference().values[0])
    assert list(result.per_query.columns) == ["run", "query_id", "measure", "value"]


def test_ranx_objects_and_the_run_name():
    ranx = pytest.importorskip("ranx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        qrels, run = ranx.Qrels(QRELS), ranx.Run(RUN, name="bm25")
    result = evaluate(qrels, run, MEASURES)
    assert result.runs == ("bm25",)
    np.testing.assert_array_equal(result.values[0], _reference().values[0])


def test_a_ranx_run_s_tied_documents_are_noted_where_the_convention_orders_ties_as_given():
    # ranx re-sorts a Run's documents (from 16 on, not in the order given), so under XGBoost's or LightGBM's input
    # order of ties a Run and the dict it was built from gave 0.25 and 1.0, with no note.
    from ranx import Qrels, Run

    docs = [f"d{i:02d}" for i in range(16)]
    qrels = {"q": {d: int(i == 0) for i, d in enumerate(docs)}}
    tied, untied = {"q": dict.fromkeys(docs, 1.0)}, {"q": {d: float(-i) for i, d in enumerate(docs)}}
    assert evaluate(qrels, tied, convention="xgboost").mean() == 1.0  # d00, the relevant one, given first
    for convention in ("xgboost", "lightgbm"):
        noted = evaluate(Qrels(qrels), Run(tied), convention=convention).notes
        assert [n for n in noted if "a ranx Run keeps no input order" in n] == [
            f"run1: 1 query has tied scores, which {convention} orders as its input, but a ranx Run keeps no input "
            "order (ranx sorts it): they are ordered as the Run holds them now; give the run as a dict or DataFrame "
            "in your order"
        ]
        without_ties = evaluate(Qrels(qrels), Run(untied), convention=convention)
        assert without_ties.mean() == 1.0 and not without_ties.notes
    for convention in (
        "ranx",
        "trec_eval",
        "sklearn",
    ):  # ranx reads a Run as it holds it; others order by id or average
        assert not [n for n in evaluate(Qrels(qrels), Run(tied), convention=convention).notes if "input order" in n]


def test_a_ranx_objects_refusals_name_the_query_and_document_not_a_line():
    # A ranx object has no lines: its rows were named "ranx Qrels:2", the second entry, as if it were a file.
    ranx = pytest.importorskip("ranx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        qrels, run = ranx.Qrels({"q1": {"a": 1, "b": -1}}), ranx.Run({"q1": {"a": 1.0, "b": 0.5}}, name="bm25")
    where = r"ranx Qrels: query 'q1', document 'b': grade -1 is negative"
    with pytest.raises(InputError, match=where):
        evaluate(qrels, run, "ndcg@2", convention="sklearn")
    with pytest.raises(InputError, match=r"ranx Run: query 'q1', document 'a': score must be finite, got inf"):
        evaluate(QRELS, ranx.Run({"q1": {"a": math.inf}}), "ndcg")


def test_frames_that_fit_no_known_columns_are_named_with_the_choices():
    with pytest.raises(
        InputError,
        match=r"run DataFrame needs columns query, doc, score \(or PyTerrier's qid, docno, "
        r"score, or ir_measures' query_id, doc_id, score\); has id, doc, score",
    ):
        evaluate(OURS_QRELS, OURS_RUN.rename(columns={"query": "id"}))


def test_dict_runs_are_checked_like_frames():
    with pytest.raises(
        InputError, match=r"run dict: query 'q1', document 'a': score must be a real number, got str 'x'"
    ):
        evaluate(QRELS, {"q1": {"a": "x"}})
    with pytest.raises(InputError, match=r"qrels dict: query 'q1' must map documents to grades, got int 3"):
        evaluate({"q1": 3}, RUN)
    # numpy reads True beside numbers as 1; a boolean is refused, as in a frame's column
    with pytest.raises(
        InputError, match=r"run dict: query 'q1', document 'a': score must be a real number, got bool True"
    ):
        evaluate({"q1": {"a": 1, "b": 0}}, {"q1": {"a": True, "b": 0.5}})
    with pytest.raises(
        InputError, match=r"qrels dict: query 'q1', document 'a': grade must be a real number, got bool"
    ):
        evaluate({"q1": {"a": True, "b": 0}}, {"q1": {"a": 1.0, "b": 0.5}})


def test_a_dict_run_with_a_query_that_ranks_nothing_is_one_run():
    # {"q2": {}} made the whole dict read as a mapping of runs named q1 and q2, with a self-contradicting error.
    qrels = {"q1": {"a": 2, "b": 1}, "q2": {"c": 1}}
    result = evaluate(qrels, {"q1": {"a": 0.9, "b": 0.5}, "q2": {}}, "ndcg")
    assert result.runs == ("run1",) and list(result.queries[0]) == ["q1", "q2"]
    assert result.values[0][0].tolist() == [1.0, 0.0]  # q2: judged, nothing ranked, scored 0 (trec_eval -c)


def test_one_run_one_measure_one_float():
    result = evaluate(OURS_QRELS, OURS_RUN, "ndcg_cut.10")
    assert isinstance(result.mean(), float) and result.mean() == result.mean_values[0, 0]
    assert result.mean("ndcg@10") == result.mean("ndcg_cut_10") == result.mean_values[0, 0]  # one measure, two names
    two = evaluate(OURS_QRELS, {"a": OURS_RUN, "b": OURS_RUN.assign(score=-OURS_RUN.score)}, MEASURES)
    assert two.mean("ndcg@2", run="b") == two.mean_values[1, 1]
    with pytest.raises(ValueError, match=r"2 runs \('a', 'b'\): say which with run="):
        two.mean("ndcg")
    with pytest.raises(ValueError, match=r"2 measures \('ndcg', 'ndcg@2'\): say which"):
        two.mean(run="a")
    with pytest.raises(ValueError, match=r"measure 'ndcg@5' was not evaluated; evaluated: 'ndcg', 'ndcg@2'"):
        two.mean("ndcg@5", run="a")
    assert nr.evaluate(OURS_QRELS, OURS_RUN, "ndcg").mean() == pytest.approx(_reference().mean_values[0, 0])


def test_a_ranx_object_of_the_other_kind_is_refused_by_its_class():
    # A ranx Qrels given as the run scored every query 1.0 (its grades read as scores), without a word.
    from ranx import Qrels, Run

    judged = {"1": {"a": 2, "b": 0, "c": 1}, "2": {"a": 1, "d": 3}}
    with pytest.raises(InputError, match=r"^a ranx Qrels was given as the run: give a ranx Run"):
        evaluate(Qrels(judged), Qrels(judged))
    with pytest.raises(InputError, match=r"^a ranx Run was given as the qrels: give a ranx Qrels"):
        evaluate(Run({"1": {"a": 2.0, "b": 1.0}}), Run({"1": {"b": 0.9, "a": 0.5}}))
