"""The judged-only option (``judged=``): nDCG on the condensed list (Sakai 2007; trec_eval ``-J``).

Unjudged documents are removed from the ranking and the ranks below them close up;
the ideal is built from the judged grades of the query (``ideal=``). Checked against
values written out term by term, against removing the documents by hand, and against
trec_eval's ``-J`` flag through pytrec_eval (``judged_docs_only_flag=True``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_research as nr

TOL = 1e-9
L2, L3, L4, L5, L6 = (math.log2(r) for r in (2, 3, 4, 5, 6))


# ---------------------------------------------------------------- by hand


def test_condensed_list_by_hand():
    # Six retrieved documents; those at ranks 2 and 5 were never judged (their grade is unknown,
    # passed as 0). One more judged document of grade 2 was not retrieved.
    relevance = [2, 0, 3, 0, 0, 1]
    judged = [True, False, True, True, False, True]
    known = [2, 3, 0, 1, 2]  # every judged grade of the query, retrieved or not
    # Condensed list: 2, 3, 0, 1 at ranks 1, 2, 3, 4.
    dcg = 2 / L2 + 3 / L3 + 0 / L4 + 1 / L5
    # Ideal: 3, 2, 2, 1, 0.
    idcg = 3 / L2 + 2 / L3 + 2 / L4 + 1 / L5 + 0 / L6
    parts = nr.ndcg_parts(relevance, ideal=known, judged=judged)
    assert parts.dcg == pytest.approx(dcg, abs=TOL)
    assert parts.idcg == pytest.approx(idcg, abs=TOL)
    assert parts.ndcg == pytest.approx(dcg / idcg, abs=TOL)
    assert round(parts.ndcg, 4) == 0.7595


def test_condensed_list_by_hand_with_cutoff():
    relevance = [2, 0, 3, 0, 0, 1]
    judged = [True, False, True, True, False, True]
    known = [2, 3, 0, 1, 2]
    # @2: condensed top two are 2, 3 (the unjudged rank-2 document no longer blocks the 3);
    # ideal top two are 3, 2.
    assert nr.ndcg(relevance, 2, ideal=known, judged=judged) == pytest.approx(
        (2 / L2 + 3 / L3) / (3 / L2 + 2 / L3), abs=TOL
    )
    # Without the option the unjudged document counts as non-relevant: 2, 0 at ranks 1, 2.
    assert nr.ndcg(relevance, 2, ideal=known) == pytest.approx((2 / L2) / (3 / L2 + 2 / L3), abs=TOL)


def test_condensed_from_scores_by_hand():
    # Documents in arbitrary order with scores; the highest-scored one is unjudged.
    y_true = [0, 1, 3, 0]
    y_score = [0.9, 0.5, 0.7, 0.1]
    judged = [False, True, True, True]
    # Ranking by score: (unjudged), 3, 1, 0  ->  condensed: 3, 1, 0.
    dcg = 3 / L2 + 1 / L3 + 0 / L4
    idcg = 3 / L2 + 1 / L3
    assert nr.ndcg_from_scores(y_true, y_score, ideal=[1, 3, 0], judged=judged) == pytest.approx(dcg / idcg, abs=TOL)
    # Not condensed: (0), 3, 1, 0 at ranks 1..4.
    plain = (3 / L3 + 1 / L4) / idcg
    assert nr.ndcg_from_scores(y_true, y_score, ideal=[1, 3, 0], judged=None) == pytest.approx(plain, abs=TOL)


def test_condensed_is_never_below_unjudged_as_nonrelevant():
    # Closing up the ranks only moves judged documents up, and D is non-increasing.
    rng = np.random.default_rng(5)
    relevance = rng.integers(0, 4, size=(200, 15)).astype(float)
    judged = rng.random((200, 15)) < 0.6
    observed = np.where(judged, relevance, 0.0)
    known = np.concatenate([observed, rng.integers(0, 4, size=(200, 5))], axis=1)
    for discount in ("log2", "zipf", "loglog", "power(beta=2)"):
        condensed = nr.ndcg(observed, 10, ideal=known, judged=judged, discount=discount)
        plain = nr.ndcg(observed, 10, ideal=known, discount=discount)
        assert np.all(condensed >= plain - 1e-12)


# ---------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=1, max_size=25),
    st.integers(1, 30) | st.none(),
    st.sampled_from(["log2", "zipf", "loglog", "power(beta=2)", "geometric(p=0.5)"]),
    st.sampled_from(["linear", "exp2"]),
)
def test_condensed_equals_removing_unjudged_documents(docs, k, discount, gain):
    grades = np.array([g for g, _ in docs], dtype=float)
    judged = np.array([j for _, j in docs])
    observed = np.where(judged, grades, 0.0)
    known = np.concatenate([observed, [2.0]])  # one more judged relevant document, not retrieved
    got = nr.ndcg(observed, k, ideal=known, judged=judged, gain=gain, discount=discount)
    if judged.any():
        expected = nr.ndcg(observed[judged], k, ideal=known, gain=gain, discount=discount)
    else:  # nothing judged was retrieved: empty condensed list, DCG 0
        expected = 0.0
    assert got == pytest.approx(expected, abs=TOL)


def test_all_judged_is_the_plain_metric():
    rng = np.random.default_rng(1)
    relevance = rng.integers(0, 4, size=(50, 12)).astype(float)
    known = np.concatenate([relevance, rng.integers(0, 4, size=(50, 3))], axis=1)
    everything = np.ones_like(relevance, dtype=bool)
    np.testing.assert_allclose(
        nr.ndcg(relevance, 5, ideal=known, judged=everything), nr.ndcg(relevance, 5, ideal=known), atol=TOL
    )


def test_ragged_queries_are_condensed_independently():
    relevance = [[1, 0, 2], [0, 3]]
    judged = [[True, False, True], [False, True]]
    known = [[1, 0, 2], [0, 3]]
    got = nr.ndcg(relevance, ideal=known, judged=judged)
    expected = [nr.ndcg([1, 2], ideal=[1, 0, 2]), nr.ndcg([3], ideal=[0, 3])]
    np.testing.assert_allclose(got, expected, atol=TOL)


def test_judged_must_match_the_shape():
    with pytest.raises(ValueError, match="judged"):
        nr.ndcg([1, 0, 2], judged=[True, False])


def test_ideal_from_list_uses_judged_documents_only():
    # The unjudged rank-2 document carries grade 3; it should neither count in the DCG nor the ideal.
    assert nr.ndcg([0, 3, 1], judged=[True, False, True]) == pytest.approx((1 / L3) / (1 / L2), abs=TOL)


# ---------------------------------------------------------------- trec_eval -J


def _trec_eval_J(qrels, run, measures):
    return pytrec_eval.RelevanceEvaluator(qrels, measures, judged_docs_only_flag=True).evaluate(run)


def test_pytrec_eval_flag_name():
    # The keyword is judged_docs_only_flag (pytrec_eval-terrier); -J changes the result here.
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"x": 2.0, "a": 1.0}}
    plain = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)["q"]["ndcg"]
    condensed = _trec_eval_J(qrels, run, {"ndcg"})["q"]["ndcg"]
    assert plain == pytest.approx(1 / L3, abs=TOL)
    assert condensed == pytest.approx(1.0, abs=TOL)
    assert nr.ndcg([0, 1], ideal=[1, 0], judged=[False, True]) == pytest.approx(condensed, abs=TOL)


def _random_collection(seed, n_queries=40, n_docs=60, n_run=30):
    """qrels over a judged subset, runs mixing judged and unjudged documents, distinct scores."""
    rng = np.random.default_rng(seed)
    qrels, run, cases = {}, {}, []
    for q in range(n_queries):
        docs = [f"d{i:03d}" for i in range(n_docs)]
        grades = rng.choice(4, size=n_docs, p=[0.6, 0.2, 0.12, 0.08])
        judged = rng.random(n_docs) < rng.uniform(0.2, 0.9)
        anchor = rng.integers(n_docs)  # at least one judged relevant document per query
        judged[anchor], grades[anchor] = True, 2
        retrieved = rng.choice(n_docs, size=n_run, replace=False)
        scores = rng.permutation(n_run) + rng.random(n_run) * 0.5  # distinct
        qid = f"q{q}"
        qrels[qid] = {docs[i]: int(grades[i]) for i in np.flatnonzero(judged)}
        run[qid] = {docs[i]: float(s) for i, s in zip(retrieved, scores, strict=True)}
        cases.append((qid, grades[retrieved], judged[retrieved], scores, grades[judged]))
    return qrels, run, cases


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("cut", [None, 1, 5, 10, 1000])
def test_condensed_matches_trec_eval_J_per_query(seed, cut):
    qrels, run, cases = _random_collection(seed)
    measure = "ndcg" if cut is None else f"ndcg_cut.{cut}"
    key = "ndcg" if cut is None else f"ndcg_cut_{cut}"
    reference = _trec_eval_J(qrels, run, {measure})
    # Batched: one call for all queries (2-D arrays, one row per query).
    y_true = np.array([np.where(j, g, 0) for _, g, j, _, _ in cases], dtype=float)
    judged = np.array([j for _, _, j, _, _ in cases])
    scores = np.array([s for _, _, _, s, _ in cases])
    ideal = [k for _, _, _, _, k in cases]
    ours = nr.ndcg_from_scores(y_true, scores, cut, ideal=ideal, judged=judged)
    theirs = np.array([reference[qid][key] for qid, *_ in cases])
    np.testing.assert_allclose(ours, theirs, atol=TOL, rtol=0)
    # And the condensed list actually differs from treating unjudged as non-relevant somewhere.
    plain = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
    assert any(abs(plain[qid][key] - reference[qid][key]) > 1e-6 for qid, *_ in cases)


def test_condensed_with_ties_matches_trec_eval_J_by_docid_order():
    # Tied scores: trec_eval breaks ties by document id, descending. ties="first" with the
    # documents passed in descending id order reproduces it, also after condensing.
    rng = np.random.default_rng(11)
    qrels, run, rows = {}, {}, []
    for q in range(30):
        n = 20
        docs = [f"d{i:02d}" for i in range(n)]
        grades = rng.integers(0, 4, size=n)
        judged = rng.random(n) < 0.6
        judged[0], grades[0] = True, 3
        scores = rng.integers(0, 4, size=n).astype(float)  # many ties
        qid = f"q{q}"
        qrels[qid] = {docs[i]: int(grades[i]) for i in np.flatnonzero(judged)}
        run[qid] = {docs[i]: scores[i] for i in range(n)}
        order = np.argsort(docs)[::-1]  # descending document id
        rows.append((qid, np.where(judged, grades, 0)[order], judged[order], scores[order], grades[judged]))
    reference = _trec_eval_J(qrels, run, {"ndcg_cut.5", "ndcg"})
    for cut, key in ((5, "ndcg_cut_5"), (None, "ndcg")):
        ours = nr.ndcg_from_scores(
            np.array([r[1] for r in rows], dtype=float),
            np.array([r[3] for r in rows]),
            cut,
            ideal=[r[4] for r in rows],
            judged=np.array([r[2] for r in rows]),
            ties="first",
        )
        np.testing.assert_allclose(ours, [reference[r[0]][key] for r in rows], atol=TOL, rtol=0)


def test_run_without_judged_documents_gets_zero_like_trec_eval():
    qrels = {"q": {"a": 3, "b": 0}}
    run = {"q": {"x": 2.0, "y": 1.0}}
    assert _trec_eval_J(qrels, run, {"ndcg"})["q"]["ndcg"] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the ideal is not 0: no warning expected
        assert nr.ndcg([0, 0], ideal=[3, 0], judged=[False, False]) == 0.0


def test_unjudged_grades_are_ignored_also_with_an_explicit_ideal():
    # Whatever grade an unjudged position carries, it is dropped before the ideal is checked.
    for hidden in (0, 1, 3):
        got = nr.ndcg([0, hidden, 1], ideal=[0, 1], judged=[True, False, True])
        assert got == pytest.approx((1 / L3) / (1 / L2), abs=TOL)
        got = nr.ndcg_from_scores([0, hidden, 1], [3.0, 2.0, 1.0], ideal=[0, 1], judged=[True, False, True])
        assert got == pytest.approx((1 / L3) / (1 / L2), abs=TOL)
