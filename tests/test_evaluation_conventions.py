"""Each convention preset against the tool it names: scikit-learn, LightGBM, XGBoost, ranx,
ir_measures and gdeval.pl (the copy ir_measures ships, run by perl) are run here; TorchMetrics and
TF-Ranking (not installable quickly) are checked against hand computations from their documented
formulas, tie averaging against a brute-force mean over every order of the tied documents."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from ndcg_research.evaluation import CONVENTIONS, Convention, InputError, evaluate, get_convention

TOL = 1e-9


def candidate_lists(seed, n_queries=12, *, ties=True, float32=False, max_label=4, empty_query=True, shortest=1):
    """Per query: labels and scores of the candidates (every candidate judged, as in LETOR data)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 1]))
    lists = []
    for q in range(n_queries):
        n = int(rng.integers(shortest, 30))
        labels = rng.integers(0, max_label + 1, n)
        if empty_query and q == 0:
            labels[:] = 0  # no relevant document
        if ties:
            scores = rng.integers(0, 6, n) * 0.25  # exact in float32, many ties
        else:
            scores = rng.permutation(n) * 0.5 + 1.0
        lists.append((f"q{q:02d}", labels, scores.astype(np.float32).astype(np.float64) if float32 else scores))
    return lists


def frames(lists):
    qrels = pd.DataFrame(
        [(q, f"d{i:03d}", int(g)) for q, labels, _ in lists for i, g in enumerate(labels)],
        columns=["query", "doc", "relevance"],
    )
    run = pd.DataFrame(
        [(q, f"d{i:03d}", float(s)) for q, _, scores in lists for i, s in enumerate(scores)],
        columns=["query", "doc", "score"],
    )
    return qrels, run


def per_query(result, measure=0):
    return dict(zip(result.queries[0], result.values[0][measure], strict=False))


# ---------------------------------------------------------------- scikit-learn (installed)


@pytest.mark.parametrize("seed", range(4))
def test_sklearn(seed):
    from sklearn.metrics import ndcg_score

    lists = candidate_lists(seed, shortest=2)  # scikit-learn refuses one-document lists (tested below)
    qrels, run = frames(lists)
    result = evaluate(qrels, run, ["ndcg", "ndcg@3", "ndcg@10"], convention="sklearn")
    for j, k in enumerate([None, 3, 10]):
        ours = per_query(result, j)
        for q, labels, scores in lists:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = ndcg_score([labels], [scores], k=k)
            assert math.isclose(ours[q], theirs, rel_tol=TOL, abs_tol=TOL), (q, k)


def test_sklearn_refuses_negative_labels_like_sklearn():
    qrels = pd.DataFrame({"query": ["q"], "doc": ["a"], "relevance": [-1]})
    run = pd.DataFrame({"query": ["q"], "doc": ["a"], "score": [1.0]})
    with pytest.raises(InputError, match="negative"):
        evaluate(qrels, run, convention="sklearn")


# ---------------------------------------------------------------- LightGBM and XGBoost (installed)


def _lightgbm_means(lists, ks):
    lgb = pytest.importorskip("lightgbm")
    labels = np.concatenate([labels for _, labels, _ in lists])
    scores = np.concatenate([scores for _, _, scores in lists])
    data = lgb.Dataset(
        np.zeros((labels.size, 1)),
        labels,
        group=[len(labels) for _, labels, _ in lists],
        init_score=scores,
        params={"verbose": -1},
    )
    record = {}
    # One boosting round that cannot split (min_data_in_leaf) adds the same value to every
    # score, so the metric sees the given order and ties.
    lgb.train(
        {
            "objective": "lambdarank",
            "metric": "ndcg",
            "eval_at": ks,
            "verbose": -1,
            "min_data_in_leaf": 10**6,
            "num_threads": 1,
        },
        data,
        num_boost_round=1,
        valid_sets=[data],
        valid_names=["v"],
        callbacks=[lgb.record_evaluation(record)],
    )
    return {k: record["v"][f"ndcg@{k}"][-1] for k in ks}


@pytest.mark.parametrize("seed", range(3))
def test_lightgbm(seed):
    lists = candidate_lists(seed, float32=True)
    qrels, run = frames(lists)
    ks = [1, 3, 5, 1000]
    theirs = _lightgbm_means(lists, ks)
    result = evaluate(qrels, run, [f"ndcg@{k}" for k in ks], convention="lightgbm")
    for j, k in enumerate(ks):
        assert math.isclose(result.mean_values[0, j], theirs[k], rel_tol=1e-9), k
    assert per_query(result)["q00"] == 1.0  # no relevant document: LightGBM gives 1


def _xgboost_means(lists, metrics):
    xgb = pytest.importorskip("xgboost")
    labels = np.concatenate([labels for _, labels, _ in lists])
    scores = np.concatenate([scores for _, _, scores in lists])
    qid = np.repeat(np.arange(len(lists)), [len(labels) for _, labels, _ in lists])
    data = xgb.DMatrix(np.zeros((labels.size, 1)), label=labels, qid=qid, base_margin=scores)
    record = {}
    # learning_rate 0: the margins stay the given scores.
    xgb.train(
        {"objective": "rank:ndcg", "eval_metric": metrics, "learning_rate": 0.0, "nthread": 1, "max_depth": 1},
        data,
        num_boost_round=1,
        evals=[(data, "v")],
        evals_result=record,
        verbose_eval=False,
    )
    return {m: record["v"][m][-1] for m in metrics}


@pytest.mark.parametrize("seed", range(3))
def test_xgboost_both_variants(seed):
    lists = candidate_lists(seed, float32=True)
    qrels, run = frames(lists)
    theirs = _xgboost_means(lists, ["ndcg@3", "ndcg@10", "ndcg@3-", "ndcg@10-"])
    plus = evaluate(qrels, run, ["ndcg@3", "ndcg@10"], convention="xgboost")
    minus = evaluate(qrels, run, ["ndcg@3", "ndcg@10"], convention="xgboost-")
    for j, k in enumerate([3, 10]):
        assert math.isclose(plus.mean_values[0, j], theirs[f"ndcg@{k}"], rel_tol=1e-6)
        assert math.isclose(minus.mean_values[0, j], theirs[f"ndcg@{k}-"], rel_tol=1e-6)
    assert per_query(plus)["q00"] == 1.0 and per_query(minus)["q00"] == 0.0


def test_lightgbm_and_xgboost_label_limits():
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [31, 0]})
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [1.0, 0.0]})
    with pytest.raises(InputError, match="above 30"):
        evaluate(qrels, run, convention="lightgbm")
    evaluate(qrels, run, convention="xgboost")  # XGBoost accepts up to 31
    with pytest.raises(InputError, match="not an integer"):
        evaluate(qrels.assign(relevance=[1.5, 0]), run, convention="xgboost")


def test_the_tools_grade_limits_hold_for_their_own_gain_only():
    # XGBoost's 31 and LightGBM's 30 are limits of their exponential gain (2^31, label_gain's table): with the linear
    # gain XGBoost takes label 40 (ndcg_exp_gain=False), yet a measure with gain=linear was refused "above 31".
    from sklearn.metrics import ndcg_score

    qrels = pd.DataFrame({"query": ["q"] * 3, "doc": list("abc"), "relevance": [40, 0, 3]})
    run = pd.DataFrame({"query": ["q"] * 3, "doc": list("abc"), "score": [0.0, 1.0, 2.0]})
    expected = ndcg_score([[40, 0, 3]], [[0.0, 1.0, 2.0]])  # linear gain, the ideal from the list, as both presets
    for convention, top in (("xgboost", 31), ("lightgbm", 30)):
        assert evaluate(qrels, run, "ndcg(gain=linear)", convention=convention).mean() == pytest.approx(expected)
        for measures in ("ndcg", "ndcg(gain=exp2)", ["ndcg(gain=linear)", "ndcg@2"]):  # the tool's own gain: limited
            with pytest.raises(InputError, match=rf"grade 40 is above {top}, the largest grade the tool accepts with"):
                evaluate(qrels, run, measures, convention=convention)


# ---------------------------------------------------------------- ranx and ir_measures (installed)


@pytest.mark.parametrize("seed", range(3))
def test_ranx_tie_free(seed):
    ranx = pytest.importorskip("ranx")
    lists = candidate_lists(seed, ties=False)
    qrels, run = frames(lists)
    # The qrels hold a query the run lacks, the run one the qrels lack.
    qrels = pd.concat([qrels, pd.DataFrame({"query": ["zz"], "doc": ["x"], "relevance": [2]})], ignore_index=True)
    run = pd.concat([run, pd.DataFrame({"query": ["yy"], "doc": ["x"], "score": [1.0]})], ignore_index=True)
    qrels_dict, run_dict = {}, {}
    for q, d, g in qrels.itertuples(index=False):
        qrels_dict.setdefault(q, {})[d] = int(g)
    for q, d, score in run.itertuples(index=False):
        run_dict.setdefault(q, {})[d] = float(score)
    ranx_qrels, ranx_run = ranx.Qrels(qrels_dict), ranx.Run(run_dict)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = ranx.evaluate(
            ranx_qrels, ranx_run, ["ndcg", "ndcg@5", "ndcg_burges", "ndcg_burges@5"], make_comparable=True
        )
    linear = evaluate(qrels, run, ["ndcg", "ndcg@5"], convention="ranx")
    burges = evaluate(qrels, run, ["ndcg", "ndcg@5"], convention="ranx_burges")
    assert "zz" in linear.queries[0] and "yy" not in linear.queries[0]
    assert math.isclose(linear.mean_values[0, 0], theirs["ndcg"], rel_tol=TOL)
    assert math.isclose(linear.mean_values[0, 1], theirs["ndcg@5"], rel_tol=TOL)
    assert math.isclose(burges.mean_values[0, 0], theirs["ndcg_burges"], rel_tol=TOL)
    assert math.isclose(burges.mean_values[0, 1], theirs["ndcg_burges@5"], rel_tol=TOL)


def test_ir_measures_pytrec_eval_provider_is_trec_eval():
    ir_measures = pytest.importorskip("ir_measures")
    lists = candidate_lists(7)
    qrels, run = frames(lists)
    qrels = qrels[qrels.index % 3 != 0]  # some candidates unjudged
    theirs = ir_measures.calc_aggregate(
        [ir_measures.nDCG, ir_measures.nDCG @ 5],
        qrels.rename(columns={"query": "query_id", "doc": "doc_id"}),
        run.rename(columns={"query": "query_id", "doc": "doc_id"}),
    )
    ours = evaluate(qrels, run, ["ndcg", "ndcg@5"])
    assert math.isclose(ours.mean_values[0, 0], theirs[ir_measures.nDCG], rel_tol=TOL)
    assert math.isclose(ours.mean_values[0, 1], theirs[ir_measures.nDCG @ 5], rel_tol=TOL)


# ---------------------------------------------------------------- hand computations


def _dcg(gains, k=None):
    gains = list(gains)[:k] if k is not None else list(gains)
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


def _expected_dcg_over_tie_orders(gains, scores, k):
    """Mean DCG@k over every order of the tied documents (the ranking by score, ties at random)."""
    groups = {}
    for g, s in zip(gains, scores, strict=False):
        groups.setdefault(s, []).append(g)
    ordered = [groups[s] for s in sorted(groups, reverse=True)]
    total, count = 0.0, 0
    for orders in itertools.product(*(set(itertools.permutations(group)) for group in ordered)):
        total += _dcg([g for group in orders for g in group], k)
        count += 1
    return total / count


def _small_lists(seed):
    rng = np.random.default_rng(np.random.SeedSequence([seed, 2]))
    out = []
    for q in range(8):
        n = int(rng.integers(1, 7))
        labels = rng.integers(0, 4, n)
        if q == 0:
            labels[:] = 0
        out.append((f"q{q}", labels, rng.integers(0, 3, n).astype(float)))
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [None, 2, 4])
def test_torchmetrics_by_hand(seed, k):
    # retrieval_normalized_dcg: linear gain, log2 discount, ideal from the same list cut at
    # top_k, tied predictions averaged (sklearn's algorithm), empty target -> 0 ("neg").
    lists = _small_lists(seed)
    qrels, run = frames(lists)
    ours = per_query(evaluate(qrels, run, "ndcg" if k is None else f"ndcg@{k}", convention="torchmetrics"))
    for q, labels, scores in lists:
        ideal = _dcg(sorted(labels, reverse=True), k)
        expected = 0.0 if ideal == 0 else _expected_dcg_over_tie_orders(labels, scores, k) / ideal
        assert math.isclose(ours[q], expected, rel_tol=TOL, abs_tol=TOL)


@pytest.mark.parametrize("seed", range(3))
def test_tf_ranking_by_hand(seed):
    # NDCGMetric(topn=k): gain 2^l - 1, log(2)/log(1+r), ideal from the list, ties broken at
    # random (expected value = the mean over tie orders), negative labels are padding.
    lists = _small_lists(seed)
    lists = [(q, np.where(np.arange(labels.size) == 1, -1, labels), scores) for q, labels, scores in lists]
    qrels, run = frames(lists)
    ours = per_query(evaluate(qrels, run, "ndcg@3", convention="tf_ranking"))
    for q, labels, scores in lists:
        keep = labels >= 0
        gains, kept_scores = 2.0 ** labels[keep] - 1, scores[keep]
        ideal = _dcg(sorted(gains, reverse=True), 3)
        expected = 0.0 if ideal == 0 else _expected_dcg_over_tie_orders(gains, kept_scores, 3) / ideal
        assert math.isclose(ours[q], expected, rel_tol=TOL, abs_tol=TOL)


def test_gdeval_by_hand():
    # gdeval.pl: gain 2^rel - 1, ties by docno descending, the ideal from the judgments above
    # 0, topics without a relevant judgment not evaluated (nor counted by -c), grades <= 4.
    qrels = pd.DataFrame(
        {
            "query": ["1", "1", "1", "1", "2", "3"],
            "doc": ["a", "b", "c", "d", "a", "a"],
            "relevance": [2, 0, 1, 3, 0, 1],
        }
    )
    run = pd.DataFrame(
        {"query": ["1", "1", "1", "2", "3"], "doc": ["a", "b", "c", "a", "z"], "score": [1.0, 2.0, 2.0, 1.0, 1.0]}
    )
    result = evaluate(qrels, run, "ndcg@2", convention="gdeval")
    assert result.queries[0].tolist() == ["1", "3"]  # topic 2 has no relevant judgment
    # topic 1: c (1) and b (0) tie at 2.0, docno descending: c then b, then a.
    expected = (1 / math.log2(2) + 0) / (7 + 3 / math.log2(3))
    assert math.isclose(per_query(result)["1"], expected, rel_tol=TOL)
    assert per_query(result)["3"] == 0.0
    assert any("no grade above 0" in note for note in result.notes)
    complete = evaluate(qrels, run, "ndcg@2", convention="gdeval", complete=True)
    assert complete.queries[0].tolist() == ["1", "3"]
    with pytest.raises(InputError, match=r"row 0: grade 5 is above 4"):
        evaluate(qrels.assign(relevance=[5, 0, 1, 3, 0, 1]), run, convention="gdeval")


def test_every_preset_is_described():
    for name, convention in CONVENTIONS.items():
        assert get_convention(name) is convention and convention.notes
    assert get_convention("trec_eval9") is CONVENTIONS["pytrec_eval"]
    assert get_convention("trec_eval10") is CONVENTIONS["trec_eval"]
    with pytest.raises(ValueError, match="valid conventions: trec_eval, pytrec_eval, gdeval"):
        get_convention("nope")


# ---------------------------------------------------------------- the tools' edge cases (issue 20, section 2)


def _float32_twins(seed, n_queries=10, n_docs=12):
    """Lists whose scores are distinct in float64 but tie in float32 (1 + tiny steps), and their labels."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 3]))
    lists = []
    for q in range(n_queries):
        levels = rng.integers(0, 4, n_docs).astype(np.float64)
        scores = levels + rng.integers(1, 9, n_docs) * 1e-12  # equal in float32 within a level, distinct in float64
        lists.append((f"q{q:02d}", rng.integers(0, 4, n_docs), scores))
    return lists


def test_xgboost_cuts_ndcg_without_k_at_32():
    lists = [(q, labels, scores) for q, labels, scores in candidate_lists(11, n_queries=8, ties=False, float32=True)]
    rng = np.random.default_rng(4)
    lists = [(f"L{q}", rng.integers(0, 4, 60), rng.permutation(60) * 0.5) for q in range(6)] + lists  # longer than 32
    qrels, run = frames(lists)
    theirs = _xgboost_means(lists, ["ndcg", "ndcg-"])
    plus = evaluate(qrels, run, "ndcg", convention="xgboost").mean_values[0, 0]
    minus = evaluate(qrels, run, "ndcg", convention="xgboost-").mean_values[0, 0]
    assert math.isclose(plus, theirs["ndcg"], rel_tol=1e-6) and math.isclose(minus, theirs["ndcg-"], rel_tol=1e-6)
    whole = evaluate(qrels, run, "ndcg@1000", convention="xgboost").mean_values[0, 0]
    assert not math.isclose(whole, theirs["ndcg"], rel_tol=1e-4)  # the cut matters on these lists


def test_xgboost_ties_scores_equal_in_float32():
    lists = _float32_twins(1)
    qrels, run = frames(lists)
    theirs = _xgboost_means(lists, ["ndcg@5", "ndcg@12"])
    ours = evaluate(qrels, run, ["ndcg@5", "ndcg@12"], convention="xgboost")
    assert math.isclose(ours.mean_values[0, 0], theirs["ndcg@5"], rel_tol=1e-6)
    assert math.isclose(ours.mean_values[0, 1], theirs["ndcg@12"], rel_tol=1e-6)


def test_pytrec_eval_preset_ties_float32_scores_by_document_id_trec_eval_10_does_not():
    import pytrec_eval

    lists = _float32_twins(2)
    qrels, run = frames(lists)
    qrels_dict = {
        q: {d: int(g) for d, g in zip(f["doc"], f["relevance"], strict=False)} for q, f in qrels.groupby("query")
    }
    run_dict = {q: {d: float(s) for d, s in zip(f["doc"], f["score"], strict=False)} for q, f in run.groupby("query")}
    theirs = pytrec_eval.RelevanceEvaluator(qrels_dict, {"ndcg_cut.5", "ndcg"}).evaluate(run_dict)
    ours = evaluate(qrels, run, ["ndcg", "ndcg_cut.5"], convention="pytrec_eval")
    for j, name in enumerate(["ndcg", "ndcg_cut_5"]):
        for q, value in per_query(ours, j).items():
            assert math.isclose(value, theirs[q][name], rel_tol=TOL, abs_tol=TOL), (q, name)
    # trec_eval 10.0 keeps the doubles: the float64 order (ties by document id descending), which differs here.
    ten = per_query(evaluate(qrels, run, "ndcg_cut.5", convention="trec_eval"))
    assert any(not math.isclose(ten[q], theirs[q]["ndcg_cut_5"], rel_tol=1e-9) for q in ten)
    for q, labels, scores in lists:
        ideal = _dcg(sorted(labels, reverse=True), 5)
        ranked = sorted(range(len(labels)), key=lambda i: (-scores[i], [-ord(c) for c in f"d{i:03d}"]))
        assert math.isclose(ten[q], _dcg([labels[i] for i in ranked], 5) / ideal if ideal else 0.0, rel_tol=TOL)


def test_pytrec_eval_preset_ties_scores_beyond_float32_range_as_pytrec_eval_does():
    # Scores beyond float32's range become infinities in pytrec_eval, which tie and are ordered by document id; the
    # tie test subtracted neighbours (inf - inf is NaN) and kept the file order instead.
    import pytrec_eval

    rng = np.random.default_rng(4)
    for case in range(30):
        n = int(rng.integers(3, 9))
        grades = {f"d{i}": int(g) for i, g in enumerate(rng.integers(0, 3, n))}
        magnitude = rng.choice([1e39, 3e38, 1.0], size=n) * rng.choice([-1.0, 1.0], size=n)
        scores = {f"d{i}": float(v * rng.integers(1, 4)) for i, v in enumerate(magnitude)}
        theirs = pytrec_eval.RelevanceEvaluator({"q": grades}, {"ndcg"}).evaluate({"q": scores})["q"]["ndcg"]
        qrels = pd.DataFrame({"query": "q", "doc": list(grades), "relevance": list(grades.values())})
        run = pd.DataFrame({"query": "q", "doc": list(scores), "score": list(scores.values())})
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no numpy overflow warning either
            ours = evaluate(qrels, run, "ndcg", convention="pytrec_eval").mean_values[0, 0]
        assert math.isclose(ours, theirs, rel_tol=1e-12), (case, scores)


def test_ranx_keeps_file_order_of_ties_in_short_lists_and_names_the_long_ones():
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(12)
    short = [(f"s{q}", rng.integers(0, 3, 10), rng.integers(0, 3, 10).astype(float)) for q in range(6)]
    qrels, run = frames(short)
    qrels_dict = {
        q: {d: int(g) for d, g in zip(f["doc"], f["relevance"], strict=False)} for q, f in qrels.groupby("query")
    }
    run_dict = {
        q: {d: float(s) for d, s in zip(f["doc"], f["score"], strict=False)}
        for q, f in run.groupby("query", sort=False)
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = ranx.evaluate(
            ranx.Qrels(qrels_dict), ranx.Run(run_dict), "ndcg@5", make_comparable=True, return_mean=False
        )
    ours = evaluate(qrels, run, "ndcg@5", convention="ranx")
    np.testing.assert_allclose(ours.values[0][0], theirs, rtol=TOL, atol=TOL)
    assert not any("unstable sort" in note for note in ours.notes)
    long = [(f"l{q}", rng.integers(0, 3, 40), rng.integers(0, 3, 40).astype(float)) for q in range(3)]
    qrels, run = frames(short + long)
    notes = evaluate(qrels, run, "ndcg@5", convention="ranx").notes
    assert any(
        note.startswith(
            "run1: 3 queries have tied scores in a list of 16 or more documents, where ranx "
            "orders ties by an unstable sort"
        )
        for note in notes
    )


def test_sklearn_leaves_a_single_document_list_undefined_as_sklearn_refuses_it():
    from sklearn.metrics import ndcg_score

    with pytest.raises(ValueError, match="only meaningful when there is more than 1 document"):
        ndcg_score([[1]], [[0.5]])
    qrels = pd.DataFrame({"query": ["q", "q", "r"], "doc": ["a", "b", "a"], "relevance": [1, 0, 1]})
    run = pd.DataFrame({"query": ["q", "q", "r"], "doc": ["a", "b", "a"], "score": [1.0, 0.5, 1.0]})
    # scikit-learn refuses the query, not the others: 'r' is undefined (NaN, out of the mean), 'q' scored.
    result = evaluate(qrels, run, convention="sklearn")
    assert math.isnan(result.values[0][0, 1]) and result.values[0][0, 0] == ndcg_score([[1, 0]], [[1.0, 0.5]])
    assert result.mean_values[0, 0] == result.values[0][0, 0]
    assert any("1 query has a single ranked document ('r'), which scikit-learn refuses" in n for n in result.notes)
    assert evaluate(qrels, run, convention="trec_eval").values[0][0].tolist() == [1.0, 1.0]  # others score it


def _torchmetrics_model(labels, scores, k):
    """TorchMetrics' retrieval_normalized_dcg, as its source computes it: predictions cast to float32, the
    tie-averaged DCG of scikit-learn's algorithm on the targets as given (negative ones too), the ideal the
    targets sorted descending, cut at top_k; 0 when the ideal DCG is 0 (the function's rule, not the class's)."""
    scores32 = np.asarray(scores, dtype=np.float32).astype(np.float64)
    ideal = _dcg(sorted(labels, reverse=True), k)
    return 0.0 if ideal == 0 else _expected_dcg_over_tie_orders(labels, scores32, k) / ideal


@pytest.mark.parametrize("seed", range(3))
def test_torchmetrics_negative_grades_and_float32_ties_by_its_model(seed):
    rng = np.random.default_rng(np.random.SeedSequence([seed, 9]))
    lists = []
    for q in range(6):
        n = int(rng.integers(2, 7))
        labels = rng.integers(-2, 3, n)  # negative targets lower the DCG and the ideal
        scores = rng.integers(0, 3, n) + rng.integers(0, 2, n) * 1e-12  # ties in float32 only, sometimes
        lists.append((f"q{q}", labels, scores))
    qrels, run = frames(lists)
    for k in (None, 3):
        ours = per_query(evaluate(qrels, run, "ndcg" if k is None else f"ndcg@{k}", convention="torchmetrics"))
        for q, labels, scores in lists:
            assert math.isclose(ours[q], _torchmetrics_model(list(labels), scores, k), rel_tol=TOL, abs_tol=TOL), (q, k)


def test_tf_ranking_float32_ties_averaged_and_said_in_a_note():
    lists = [("q0", np.array([1, 0, 2]), np.array([1.0, 1.0 + 1e-12, 0.5]))]  # a float32 tie of a and b
    qrels, run = frames(lists)
    result = evaluate(qrels, run, "ndcg@1", convention="tf_ranking")
    ideal = _dcg([3.0], 1)  # gain 2^2 - 1
    assert per_query(result)["q0"] == pytest.approx(((2**1 - 1) + (2**0 - 1)) / 2 / ideal)
    assert any(
        "1 query has tied scores, which tf_ranking orders at random; the values are the expectation" in note
        for note in result.notes
    )


@pytest.mark.parametrize(
    "convention, relevance, docs, judged_only",
    [
        ("tf_ranking", [1, 0, -1, -1], list("abcd"), False),  # q2's documents all have negative labels: dropped
        ("ranx", [1, 0, 1, 0], list("abef"), True),  # -J: q2's ranked documents are all unjudged
    ],
)
def test_ties_are_counted_when_the_last_query_is_emptied(convention, relevance, docs, judged_only):
    # The tie count runs after documents are dropped; an emptied last query once sent it past the end of its array.
    qrels = pd.DataFrame({"query": ["q1", "q1", "q2", "q2"], "doc": list("abcd"), "relevance": relevance})
    run = pd.DataFrame({"query": ["q1", "q1", "q2", "q2"], "doc": docs, "score": [0.9, 0.9, 0.5, 0.4]})
    result = evaluate(qrels, run, "ndcg", convention=convention, judged_only=judged_only)
    values = per_query(result)
    assert values["q2"] == 0.0
    gains = [2**1 - 1, 0] if convention == "tf_ranking" else [1, 0]
    tie_average = (gains[0] / math.log2(2) + gains[0] / math.log2(3)) / 2  # a first or second, each half the time
    expected = tie_average / (gains[0] / math.log2(2)) if convention == "tf_ranking" else 1.0  # ranx: file order
    assert values["q1"] == pytest.approx(expected)
    assert any("1 query has tied scores" in note for note in result.notes) == (convention == "tf_ranking")


@pytest.mark.parametrize("name", ["sklearn", "torchmetrics", "tf_ranking"])
def test_max_docs_inside_a_group_of_tied_scores_is_refused_where_the_convention_averages_them(name):
    # x 3.0, y 2.0, then a and c tied at 1.0: -M 3 kept whichever of a and c came first in the rows (1.0 for one
    # order, 0.7602 for the other under sklearn's convention); no tool of these conventions has -M.
    from sklearn.metrics import ndcg_score

    qrels = pd.DataFrame({"query": ["1"] * 4, "doc": ["x", "y", "a", "c"], "relevance": [1, 0, 0, 2]})
    for order in (["x", "y", "a", "c"], ["x", "y", "c", "a"]):
        run = pd.DataFrame({"query": ["1"] * 4, "doc": order, "score": [3.0, 2.0, 1.0, 1.0]})
        with pytest.raises(
            InputError, match=r"^max_docs=3 \(-M\) cuts a group of tied scores of different grades in query '1'"
        ):
            evaluate(qrels, run, convention=name, max_docs=3)
        if name == "sklearn":  # cuts between groups: sklearn on the kept documents
            assert evaluate(qrels, run, convention=name, max_docs=2).mean() == pytest.approx(
                ndcg_score([[1, 0]], [[3.0, 2.0]]), abs=1e-12
            )
            grades = [1, 0, 0, 2] if order[2] == "a" else [1, 0, 2, 0]
            assert evaluate(qrels, run, convention=name, max_docs=4).mean() == pytest.approx(
                ndcg_score([grades], [[3.0, 2.0, 1.0, 1.0]]), abs=1e-12
            )
    # A tied group of equal grades gives one value whichever are kept (an unjudged tail at the cut): not refused.
    tail = pd.DataFrame({"query": ["1"] * 4, "doc": ["x", "c", "u", "v"], "score": [3.0, 2.0, 1.0, 1.0]})
    cut = evaluate(qrels, tail, convention=name, max_docs=3).mean()
    if name == "sklearn":
        assert cut == pytest.approx(ndcg_score([[1, 2, 0]], [[3.0, 2.0, 1.0]]), abs=1e-12)
    # trec_eval orders ties by document id (c before a): its cut is defined. x (1), y (0), c (2) over the uncut
    # ideal c, x.
    assert evaluate(qrels, run, max_docs=3).mean() == pytest.approx((1 + 2 / 2) / (2 + 1 / math.log2(3)), abs=1e-12)


def test_gdeval_preset_against_gdeval_pl_itself(tmp_path):
    # gdeval.pl 1.3 as ir_measures ships it, run by perl on random files: ties (scores rounded to one decimal),
    # grades -1..4, runs that miss judged documents and rank unjudged ones, topics without a relevant judgment
    # (not printed). It prints 5 decimals: each value agrees within half a unit of the last.
    import shutil
    import subprocess
    from pathlib import Path

    ir_measures = pytest.importorskip("ir_measures")
    perl = shutil.which("perl")
    if perl is None:
        pytest.skip("perl is not installed (Debian's perl-base always is)")
    script = Path(ir_measures.__file__).parent / "bin" / "gdeval.pl"
    rng = np.random.default_rng(np.random.SeedSequence(2041))
    evaluated = 0
    for case in range(40):
        qrels, run = [], []
        for topic in range(1, 6):
            docs = [f"d{i}" for i in rng.choice(30, size=int(rng.integers(1, 12)), replace=False)]
            qrels += [f"{topic} 0 {d} {int(rng.integers(-1, 5))}" for d in docs]
            ranked = rng.choice(30, size=int(rng.integers(1, 15)), replace=False)
            run += [f"{topic} Q0 d{d} {r} {rng.integers(0, 8) / 10:.1f} t" for r, d in enumerate(ranked, 1)]
        (tmp_path / "qrels").write_text("\n".join(qrels) + "\n")
        (tmp_path / "run").write_text("\n".join(run) + "\n")
        k = int(rng.choice([1, 3, 5, 20]))
        out = subprocess.run(
            [perl, str(script), str(tmp_path / "qrels"), str(tmp_path / "run"), str(k)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        theirs = {line.split(",")[1]: float(line.split(",")[2]) for line in out[1:]}  # (this copy prints no mean)
        result = evaluate(tmp_path / "qrels", tmp_path / "run", f"ndcg@{k}", convention="gdeval")
        ours = dict(zip(result.queries[0].tolist(), result.values[0][0].tolist(), strict=True))
        assert set(ours) == set(theirs), case  # topics with a relevant judgment, the others not evaluated
        assert all(abs(ours[q] - v) <= 5e-6 for q, v in theirs.items()), (case, ours, theirs)
        evaluated += len(ours)
    assert evaluated >= 100  # (the cases are not all left out)


@pytest.mark.parametrize(
    ("field", "value", "error", "message"),
    [
        ("ties", "Docno", ValueError, r"Convention ties must be one of 'docno', 'input', 'average', got 'Docno'"),
        ("zero_ideal", "nan", ValueError, r"Convention zero_ideal must be one of 'zero', 'one', got 'nan'"),
        ("score_dtype", "float16", ValueError, r"Convention score_dtype must be one of 'float64', 'float32'"),
        ("truncation", -1, ValueError, r"Convention truncation must be an integer >= 1 or None, got -1"),
        ("random_ties", 1, TypeError, r"Convention random_ties must be True or False"),
        ("max_grade", 2.5, TypeError, r"Convention max_grade must be an integer >= 0 or None"),
        ("gain", "exp3", ValueError, r"unknown gain 'exp3'"),
    ],
)
def test_a_users_convention_with_a_value_no_rule_reads_is_refused(field, value, error, message):
    # ties="Docno" fell through to file order (1.0 where docno order gives 0.6309), zero_ideal="nan" scored 0,
    # truncation=-1 scored every query 0 with a note blaming the judgments: all silently.
    with pytest.raises(error, match=message):
        Convention("mine", "my tool", **{field: value})
    q, r = {"q": {"a": 1, "b": 0}}, {"q": {"a": 1.0, "b": 1.0}}
    assert evaluate(q, r, "ndcg", convention=Convention("mine", "t", ties="docno")).mean() == pytest.approx(
        1 / math.log2(3), rel=1e-15
    )
