"""Cross-check ``ndcg_from_scores`` against trec_eval (through pytrec_eval), query by query.

trec_eval's conventions, and the parameters of ours that reproduce each one:

* gain = the qrels grade (our ``gain="linear"``), discount 1 / log2(rank + 1) (``"log2"``);
* the ideal ranking is built from **every judged document of the query**, retrieved or
  not (our ``ideal=`` with all qrels grades of the query); a run document absent from
  the qrels counts as grade 0, and a judged grade-0 document adds nothing;
* ``ndcg`` cuts nothing (our ``k=None``); ``ndcg_cut.k`` cuts both the run and the
  ideal at k (our ``k=k``), k past the end of the run included;
* tied scores are broken by document id, **descending** (string order), which
  :func:`test_trec_eval_breaks_ties_by_document_id_descending` establishes empirically.
  Our default ``ties="average"`` does not do that; ``ties="first"`` with the
  documents passed in descending document-id order does;
* a query whose judged documents all have grade 0 gets 0 (our ``zero_ideal="zero"``,
  which warns);
* pytrec_eval reports only queries present in both the qrels and the run.

So trec_eval's ``ndcg_cut.k`` is ``nr.ndcg_from_scores(grades_of_run_docs, scores, k,
ideal=all_judged_grades, ties="first")`` with the run documents sorted by id, descending.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import pytrec_eval

import ndcg_research as nr

TOL = 1e-9
CUTS = (1, 3, 5, 10, 20, 1000)


def _dcg_by_hand(grades_in_rank_order):
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(grades_in_rank_order, start=1))


def _evaluate(qrels, run, measures):
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)


def test_measure_names():
    # 'ndcg_cut.k' in, 'ndcg_cut_k' out; bare 'ndcg_cut' gives trec_eval's default cut-offs.
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0}}
    assert set(_evaluate(qrels, run, {"ndcg", "ndcg_cut.5", "ndcg_cut.10"})["q"]) == {
        "ndcg",
        "ndcg_cut_5",
        "ndcg_cut_10",
    }
    assert {"ndcg_cut_5", "ndcg_cut_10", "ndcg_cut_1000"} <= set(_evaluate(qrels, run, {"ndcg_cut"})["q"])


def test_trec_eval_breaks_ties_by_document_id_descending():
    # Two documents tied on score, one of grade 2 and one of grade 1, a third judged
    # relevant document (grade 3) not retrieved. Whichever tied document trec_eval puts
    # first fixes the value; computed here by hand for both orders.
    idcg = _dcg_by_hand([3, 2, 1])
    high_first = _dcg_by_hand([2, 1]) / idcg
    low_first = _dcg_by_hand([1, 2]) / idcg
    assert not math.isclose(high_first, low_first)
    for ids, expected_first in [(("d1", "d3"), "d3"), (("d3", "d1"), "d3"), (("d10", "d9"), "d9"), (("b", "a"), "b")]:
        for grade_of_first in (2, 1):
            first = expected_first
            other = ids[0] if ids[1] == first else ids[1]
            qrels = {"q": {first: grade_of_first, other: 3 - grade_of_first, "unretrieved": 3}}
            value = _evaluate(qrels, {"q": {ids[0]: 0.5, ids[1]: 0.5}}, {"ndcg"})["q"]["ndcg"]
            # The document with the larger id (string order: "d9" > "d10") comes first.
            assert math.isclose(value, high_first if grade_of_first == 2 else low_first, rel_tol=1e-12)
    # Score order dominates the id order.
    qrels = {"q": {"a": 2, "b": 1, "unretrieved": 3}}
    value = _evaluate(qrels, {"q": {"a": 0.9, "b": 0.1}}, {"ndcg"})["q"]["ndcg"]
    assert math.isclose(value, high_first, rel_tol=1e-12)


def test_trec_eval_discount_gain_and_ideal_by_hand():
    # trec_eval's ndcg: linear gain, 1/log2(r+1), ideal from all judged documents.
    qrels = {"q": {"a": 3, "b": 0, "c": 2, "x": 3, "y": 2, "z": 1}}
    run = {"q": {"a": 0.9, "b": 0.8, "c": 0.7, "n": 0.6}}  # "n" is not judged
    got = _evaluate(qrels, run, {"ndcg", "ndcg_cut.2"})["q"]
    dcg = 3 / math.log2(2) + 0 / math.log2(3) + 2 / math.log2(4) + 0 / math.log2(5)
    idcg = 3 / math.log2(2) + 3 / math.log2(3) + 2 / math.log2(4) + 2 / math.log2(5) + 1 / math.log2(6)
    assert math.isclose(got["ndcg"], dcg / idcg, rel_tol=1e-12)
    assert math.isclose(got["ndcg_cut_2"], (3 / math.log2(2)) / (3 / math.log2(2) + 3 / math.log2(3)), rel_tol=1e-12)
    ours = nr.ndcg_from_scores([3, 0, 2, 0], [0.9, 0.8, 0.7, 0.6], ideal=[3, 0, 2, 3, 2, 1], ties="first")
    assert math.isclose(ours, got["ndcg"], rel_tol=TOL)


def test_query_without_relevant_documents_gets_zero():
    qrels = {"q": {"a": 0, "b": 0}, "r": {"a": 1}}
    run = {"q": {"a": 0.3, "b": 0.2, "c": 0.1}, "r": {"a": 1.0}, "unjudged_query": {"a": 1.0}}
    got = _evaluate(qrels, run, {"ndcg", "ndcg_cut.10"})
    assert got["q"] == {"ndcg": 0.0, "ndcg_cut_10": 0.0}
    assert "unjudged_query" not in got  # queries without qrels are not evaluated
    with pytest.warns(nr.UndefinedNDCGWarning):
        assert nr.ndcg_from_scores([0, 0, 0], [0.3, 0.2, 0.1], ideal=[0, 0], ties="first") == 0.0


def _random_collection(seed, n_queries):
    """Random qrels (grades 0..3) and a run with tied scores, as pytrec_eval dicts."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        n_docs = int(rng.integers(1, 60))
        # Ids without zero padding, so that string order differs from numeric order.
        pool = [f"d{i}" for i in rng.choice(500, size=n_docs + 20, replace=False)]
        retrieved, unretrieved = pool[:n_docs], pool[n_docs:]
        judged = {d: int(rng.integers(0, 4)) for d in retrieved if rng.random() < 0.6}
        # Relevant documents the run missed (the ideal must include them).
        judged |= {d: int(rng.integers(0, 4)) for d in unretrieved if rng.random() < 0.3}
        kind = rng.random()
        if kind < 0.1:  # all judged documents non-relevant: ideal DCG 0
            judged = {d: 0 for d in judged} or {unretrieved[0]: 0}
        elif kind < 0.15:  # nothing retrieved is judged relevant, some relevant unretrieved
            judged = {d: 0 for d in retrieved[:3]} | {unretrieved[0]: 2, unretrieved[1]: 3}
        if not judged:
            judged = {unretrieved[0]: 1}
        # Scores with ties on purpose: rounded, coarse integers, or one constant value.
        style = rng.integers(0, 3)
        raw = rng.normal(size=n_docs)
        scores = np.round(raw, 1) if style == 0 else (rng.integers(0, 4, n_docs) * 0.5 if style == 1 else raw)
        if rng.random() < 0.1:
            scores = np.full(n_docs, 1.25)
        qrels[f"q{q}"] = judged
        run[f"q{q}"] = {d: float(s) for d, s in zip(retrieved, scores, strict=False)}
    return qrels, run


def _ours_in_trec_eval_order(judged, scored, k):
    """Our nDCG with the trec_eval-reproducing parameters (see the module docstring)."""
    docs = sorted(scored, reverse=True)  # descending document id; ties="first" keeps this order
    y_true = [judged.get(d, 0) for d in docs]  # unjudged run documents count as grade 0
    y_score = [scored[d] for d in docs]
    return nr.ndcg_from_scores(y_true, y_score, k, ideal=list(judged.values()), ties="first")


@pytest.mark.parametrize("seed", range(6))
def test_ndcg_and_ndcg_cut_match_trec_eval_per_query(seed):
    qrels, run = _random_collection(np.random.SeedSequence([20260525, seed]), n_queries=40)
    measures = {"ndcg"} | {f"ndcg_cut.{k}" for k in CUTS}
    got = _evaluate(qrels, run, measures)
    assert set(got) == set(qrels)
    n_zero_ideal = 0
    for q, judged in qrels.items():
        zero_ideal = not any(judged.values())
        n_zero_ideal += zero_ideal
        for k, name in [(None, "ndcg")] + [(k, f"ndcg_cut_{k}") for k in CUTS]:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                ours = _ours_in_trec_eval_order(judged, run[q], k)
            assert any(issubclass(w.category, nr.UndefinedNDCGWarning) for w in caught) == zero_ideal
            ref = got[q][name]
            assert abs(ours - ref) <= TOL, f"{q} {name}: ours {ours} vs trec_eval {ref}"


@pytest.mark.parametrize("seed", range(3))
def test_batched_ragged_call_matches_trec_eval(seed):
    # The same, with every query in one ragged call (per-query values back).
    qrels, run = _random_collection(np.random.SeedSequence([7, seed]), n_queries=50)
    got = _evaluate(qrels, run, {"ndcg", "ndcg_cut.10"})
    queries = sorted(qrels)
    docs = [sorted(run[q], reverse=True) for q in queries]
    y_true = [[qrels[q].get(d, 0) for d in ds] for q, ds in zip(queries, docs, strict=False)]
    y_score = [[run[q][d] for d in ds] for q, ds in zip(queries, docs, strict=False)]
    ideal = [list(qrels[q].values()) for q in queries]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nr.UndefinedNDCGWarning)
        for k, name in [(None, "ndcg"), (10, "ndcg_cut_10")]:
            ours = nr.ndcg_from_scores(y_true, y_score, k, ideal=ideal, ties="first")
            ref = np.array([got[q][name] for q in queries])
            np.testing.assert_allclose(ours, ref, rtol=0, atol=TOL)
            # trec_eval's mean over the evaluated queries counts ideal-0 queries as 0.
            assert math.isclose(nr.mean_over_queries(ours), ref.mean(), abs_tol=TOL)


def test_default_tie_averaging_differs_from_trec_eval_on_ties():
    # The finding behind the parameters above: tie averaging is not trec_eval's rule.
    qrels = {"q": {"a": 1, "b": 2}}
    run = {"q": {"a": 0.5, "b": 0.5}}
    ref = _evaluate(qrels, run, {"ndcg"})["q"]["ndcg"]
    assert math.isclose(ref, 1.0)  # "b" > "a": grade 2 first, the ideal order
    averaged = nr.ndcg_from_scores([2, 1], [0.5, 0.5], ideal=[1, 2])
    assert math.isclose(averaged, (1.5 + 1.5 / math.log2(3)) / (2 + 1 / math.log2(3)), rel_tol=1e-12)
    assert averaged < ref
