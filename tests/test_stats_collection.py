"""The simulated test collection of notebook 07 (ndcg_research.studies.query_sets.experiment)."""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval

import ndcg_research as nr
from ndcg_research.studies.query_sets.experiment import (
    TOPIC_BLOCK,
    CollectionModel,
    fewest_queries,
    ordering_accuracy,
    queries_needed,
    queries_needed_interval,
    simulate_collection,
)

SMALL = CollectionModel(systems=4, documents=120, depth=30, relevant_median=8)


def test_topics_do_not_depend_on_how_many_are_simulated():
    many = simulate_collection(SMALL, topics=2 * TOPIC_BLOCK + 7, seed=3)
    few = simulate_collection(SMALL, topics=TOPIC_BLOCK + 2, seed=3)
    np.testing.assert_array_equal(many.grades[: few.n_topics], few.grades)
    np.testing.assert_array_equal(many.ranked_documents[:, : few.n_topics], few.ranked_documents)
    assert not np.array_equal(simulate_collection(SMALL, topics=20, seed=4).grades, many.grades[:20])


def test_judgments_and_runs_are_well_formed():
    c = simulate_collection(SMALL, topics=80, seed=1)
    assert set(np.unique(c.grades)) <= {0, 1, 2, 3}
    relevant = np.count_nonzero(c.grades, axis=1)
    assert relevant.min() >= 1 and relevant.max() <= SMALL.documents // 2
    # each run: depth distinct documents, scores decreasing
    docs = np.sort(c.ranked_documents, axis=2)
    assert np.all(np.diff(docs, axis=2) > 0)
    assert np.all(np.diff(c.ranked_scores, axis=2) <= 0)
    assert c.systems == ["sys1", "sys2", "sys3", "sys4"]
    np.testing.assert_allclose(c.skills, [1.0, 2 / 3, 1 / 3, 0.0], rtol=1e-15)


def test_per_topic_ndcg_equals_one_query_at_a_time():
    c = simulate_collection(SMALL, topics=12, seed=2)
    values = c.scores(gain="exp2", discount="zipf", k=10)
    grades = c.ranked_grades()
    for s in range(SMALL.systems):
        for t in range(12):
            expected = nr.ndcg(grades[s, t].tolist(), 10, ideal=c.grades[t].tolist(), gain="exp2", discount="zipf")
            assert values[s, t] == pytest.approx(expected, abs=1e-12)


def test_written_trec_files_evaluate_to_the_same_ndcg_in_trec_eval(tmp_path):
    c = simulate_collection(SMALL, topics=15, seed=5)
    qrels_path, run_paths = c.write_trec(tmp_path)
    qrels: dict[str, dict[str, int]] = {}
    for line in qrels_path.read_text().splitlines():
        topic, _, doc, grade = line.split()
        qrels.setdefault(topic, {})[doc] = int(grade)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"})
    ours = c.scores()  # linear gain, log2, whole run, ideal from all judgments
    for s, path in enumerate(run_paths):
        run: dict[str, dict[str, float]] = {}
        for line in path.read_text().splitlines():
            topic, _, doc, _, score, _ = line.split()
            run.setdefault(topic, {})[doc] = float(score)
        result = evaluator.evaluate(run)
        for t, topic in enumerate(sorted(result)):
            assert result[topic]["ndcg"] == pytest.approx(ours[s, t], abs=1e-9)


def test_better_skill_gives_higher_mean_ndcg_on_many_topics():
    c = simulate_collection(CollectionModel(systems=5, documents=200, depth=50), topics=600, seed=0)
    for discount in ("log2", "power(beta=2)", "none"):
        means = c.scores(discount=discount).mean(axis=1)
        assert np.all(np.diff(means) < 0), discount


@pytest.mark.parametrize(
    "kwargs, text",
    [
        (dict(depth=600), "depth \\(600\\) must not exceed documents"),
        (dict(topic_sd=-1.0), "topic_sd must be >= 0"),
        (dict(grade_probabilities=(0.5, 0.5, 0.5)), "grade_probabilities must be 3 probabilities"),
    ],
)
def test_bad_model_parameters_are_named(kwargs, text):
    with pytest.raises((ValueError, TypeError), match=text):
        CollectionModel(**kwargs)


def test_ordering_accuracy_equals_a_direct_count():
    from ndcg_research.stats._replication import query_subsets
    from ndcg_research.studies.query_sets.experiment import ordering_accuracy

    rng = np.random.default_rng(8)
    x = np.round(rng.random((5, 40)), 1)  # rounded: ties in subset means occur
    skills = [5.0, 4.0, 3.0, 2.0, 1.0]
    acc = ordering_accuracy(x, skills, [3, 8], trials=25, seed=2)
    for row, size in enumerate([3, 8]):
        subsets = query_subsets(40, size, trials=25, seed=2)[0]
        for trial in range(25):
            means = [x[s, subsets[trial]].mean() for s in range(5)]
            score = 0.0
            for i in range(5):
                for j in range(i + 1, 5):
                    gap = means[i] - means[j]
                    score += 0.5 if abs(gap) <= 1e-12 else (1.0 if gap > 0 else 0.0)
            assert acc[row, trial] == pytest.approx(score / 10, abs=1e-12)


def test_queries_needed_interpolates_in_log_size():
    from ndcg_research.studies.query_sets.experiment import queries_needed

    assert queries_needed([5, 10, 20], [0.7, 0.8, 0.9], 0.7) == 5.0
    assert queries_needed([5, 10, 20], [0.7, 0.8, 0.9], 0.85) == pytest.approx(np.sqrt(200))
    assert np.isnan(queries_needed([5, 10], [0.7, 0.8], 0.95))


def test_fewest_queries_group_by_interval_overlap():
    from ndcg_research.studies.query_sets.experiment import fewest_queries

    # Best: index 1 (12 queries, interval up to 14). Index 0 reaches down to 14 exactly (in the group), index 2
    # starts just above 14 (needs more), index 3 never reaches the target (NaN: infinitely many queries).
    best, group, more = fewest_queries(
        [15.0, 12.0, 16.0, np.nan], [14.0, 10.0, 14.5, np.inf], [17.0, 14.0, 18.0, np.inf]
    )
    assert best == 1
    assert group.tolist() == [True, True, False, False]
    assert more.tolist() == [False, False, True, True]
    with pytest.raises(ValueError, match="no finite estimate"):
        fewest_queries([np.nan], [np.inf], [np.inf])
    with pytest.raises(ValueError, match="one shape"):
        fewest_queries([1.0, 2.0], [1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"measure 1: low 5.0, high 4.0"):
        fewest_queries([1.0, 4.5], [0.5, 5.0], [1.5, 4.0])
    with pytest.raises(ValueError, match=r"measure 0: low nan"):
        fewest_queries([1.0, 4.5], [np.nan, 4.0], [1.5, 5.0])
    # An unbounded best interval cannot be told apart from a measure that never reaches the target.
    best, group, _ = fewest_queries([10.0, np.nan], [8.0, np.inf], [np.inf, np.inf])
    assert best == 0 and group.tolist() == [True, True]


# ------------------------------------------------------------ examples of studies.query_sets.experiment


def test_CollectionModel_example():
    m = CollectionModel(systems=5)
    assert m.skills().tolist() == [1.0, 0.75, 0.5, 0.25, 0.0]


def test_simulate_collection_example():
    model = CollectionModel(systems=4, documents=200, depth=50)
    c = simulate_collection(model, topics=60, seed=7)
    expected = (["sys1", "sys2", "sys3", "sys4"], (60, 200), (4, 60, 50))
    assert (c.systems, c.grades.shape, c.ranked_documents.shape) == expected
    # better skill, higher mean nDCG here
    assert bool(np.all(np.diff(c.scores().mean(axis=1)) < 0))
    assert bool((simulate_collection(model, topics=10, seed=7).grades == c.grades[:10]).all())


def test_ordering_accuracy_example():
    x = np.array([[0.9, 0.8, 0.7, 0.9], [0.1, 0.2, 0.3, 0.2]])
    assert ordering_accuracy(x, [2.0, 1.0], [1, 2], trials=3).tolist() == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]


def test_queries_needed_example():
    # halfway in log scale: sqrt(10 * 40)
    assert round(queries_needed([10, 40], [0.8, 0.9], 0.85), 6) == 20.0
    assert repr(queries_needed([10, 40], [0.8, 0.84], 0.85)) == "nan"


def test_queries_needed_interval_example():
    acc = np.array([[0.7, 0.8, 0.75], [0.9, 0.95, 0.92]])
    expected = (14.92, 13.43, 16.82)
    assert tuple(round(v, 2) for v in queries_needed_interval([10, 20], acc, 0.85, n_resamples=200)) == expected


def test_fewest_queries_example():
    best, group, more = fewest_queries(
        [18.0, 19.5, 25.0, float("nan")], [17.0, 18.5, 24.0, float("inf")], [19.0, 20.5, 26.0, float("inf")]
    )
    assert (best, group.tolist(), more.tolist()) == (0, [True, True, False, False], [False, False, True, True])


def test_scores_example():
    c = simulate_collection(CollectionModel(systems=3, documents=60, depth=20), topics=4, seed=1)
    assert c.scores().shape == (3, 4)


def test_write_trec_example():
    import tempfile

    c = simulate_collection(CollectionModel(systems=2, documents=20, depth=5), topics=3, seed=1)
    qrels, runs = c.write_trec(tempfile.mkdtemp())
    assert ([p.name for p in runs], len(qrels.read_text().splitlines())) == (["sys1.run", "sys2.run"], 60)
    assert runs[0].read_text().splitlines()[0].split()[:4] == ["t001", "Q0", "d0013", "1"]


def test_runs_sharing_fewer_than_two_queries_are_refused_in_plain_words():
    import pandas as pd

    from ndcg_research.stats import run_matrices

    qrels = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "a"], "relevance": [1, 1]})
    one = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "a"], "score": [1.0, 1.0]})
    other = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    with pytest.raises(ValueError, match=r"^the runs share only 1 evaluated query; comparing runs needs at least 2$"):
        run_matrices(qrels, {"one": one, "other": other}, "ndcg", complete=False)
