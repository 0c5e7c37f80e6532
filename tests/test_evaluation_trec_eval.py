"""The evaluator against trec_eval: pytrec_eval (trec_eval's C code) on generated files, and
trec_eval's documented behaviour (-c, -M, -J, gain maps, negative grades) computed by hand.

The generated collections have the features that make tools disagree: tied scores (coarse,
integer and constant), document ids whose string order differs from their numeric order,
unretrieved relevant documents, unjudged retrieved ones, negative ("in the pool, not judged")
grades, queries without relevant documents, runs not sorted by score and not grouped by query.
"""

from __future__ import annotations

import gzip
import math

import numpy as np
import pytest
import pytrec_eval

import ndcg_research as nr
from ndcg_research.evaluation import evaluate
from ndcg_research.evaluation._readers import read_whole

TOL = 1e-12


def _dcg(gains):
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


def write_collection(folder, seed, *, negative=True, shuffle=False):
    """Random qrels and run files (and the same data as pytrec_eval dicts)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed]))
    qrels, run = {}, {}
    qrels_lines, run_lines = [], []
    for q in range(int(rng.integers(3, 25))):
        qid = f"{rng.integers(0, 500)}" if rng.random() < 0.5 else f"topic-{q}"
        if qid in qrels:
            continue
        pool = [
            f"d{i}" if rng.random() < 0.5 else f"DOC{i:04d}"
            for i in rng.choice(1000, int(rng.integers(2, 90)), replace=False)
        ]
        top = int(rng.integers(1, 5))
        judged = {
            d: int(rng.integers(-1 if negative and rng.random() < 0.3 else 0, top + 1))
            for d in pool
            if rng.random() < 0.6
        }
        if not any(g >= 0 for g in judged.values()):
            judged[pool[0]] = int(rng.integers(0, top + 1))
        qrels[qid] = judged
        qrels_lines += [f"{qid} 0 {d} {g}" for d, g in judged.items()]
        retrieved = [d for d in pool if rng.random() < 0.7] or pool[-1:]
        style = int(rng.integers(0, 4))
        scores = [
            [round(float(x), 1) for x in rng.normal(size=len(retrieved))],
            [float(x) for x in rng.integers(0, 4, size=len(retrieved))],
            [1.5] * len(retrieved),
            [float(x) for x in rng.normal(size=len(retrieved))],
        ][style]
        run[qid] = dict(zip(retrieved, scores, strict=False))
        run_lines += [
            f"{qid} Q0 {d} {rank} {s!r} tag{seed}"
            for rank, (d, s) in enumerate(zip(retrieved, scores, strict=False), 1)
        ]
    if shuffle:
        rng.shuffle(run_lines)
        rng.shuffle(qrels_lines)
    (folder / "qrels").write_text("\n".join(qrels_lines) + "\n")
    (folder / "run").write_text("\n".join(run_lines) + "\n")
    return qrels, run


def _ours(folder, measures, **options):
    result = evaluate(folder / "qrels", folder / "run", measures, **options)
    return {
        m.name: dict(zip(result.queries[0], result.values[0][j], strict=False)) for j, m in enumerate(result.measures)
    }, result


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("judged_only", [False, True])
def test_agrees_with_pytrec_eval_query_by_query(tmp_path, seed, judged_only):
    qrels, run = write_collection(tmp_path, seed, shuffle=seed % 3 == 0)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", "ndcg_cut.1,5,10,20"}, judged_docs_only_flag=judged_only)
    theirs = evaluator.evaluate(run)
    ours, result = _ours(tmp_path, ["ndcg", "ndcg_cut.1,5,10,20"], judged_only=judged_only)
    assert set(ours["ndcg"]) >= set(theirs)  # the queries in both files, and judged ones missing from the run (0)
    assert all(ours["ndcg"][q] == 0 for q in set(ours["ndcg"]) - set(theirs))
    for name, values in ours.items():
        for query, value in values.items():  # trec_eval's C code: the same double, to the last bit
            assert value == theirs[query][name], (name, query, value, theirs[query][name])
    for j, m in enumerate(result.measures):
        expected = np.sum([theirs[q][m.name] for q in theirs]) / len(ours["ndcg"])
        assert math.isclose(result.mean_values[0, j], expected, rel_tol=1e-12)


def test_ties_broken_by_document_id_descending_rank_column_ignored(tmp_path):
    # Tied scores: trec_eval puts the larger id (strcmp order: "d9" > "d10") first. The rank
    # column says the opposite and is ignored.
    (tmp_path / "qrels").write_text("q 0 d10 1\nq 0 d9 0\nq 0 x 2\n")
    (tmp_path / "run").write_text("q Q0 d10 1 5.0 r\nq Q0 d9 2 5.0 r\n")
    ours, _ = _ours(tmp_path, "ndcg")
    assert math.isclose(ours["ndcg"]["q"], _dcg([0, 1]) / _dcg([2, 1]), rel_tol=TOL)


def test_complete_counts_missing_queries_as_zero(tmp_path):
    # trec_eval -c: average over every judged query; one without a ranking scores 0. trec_eval 10.0
    # stops without -c, so that is the trec_eval preset's default; complete=False leaves it out (9.x).
    (tmp_path / "qrels").write_text("a 0 d1 1\nb 0 d1 1\nc 0 d2 2\n")
    (tmp_path / "run").write_text("a Q0 d1 1 1.0 r\nb Q0 d9 1 1.0 r\nz Q0 d1 1 1.0 r\n")
    plain = evaluate(tmp_path / "qrels", tmp_path / "run", "ndcg", complete=False)
    assert list(plain.queries[0]) == ["a", "b"]  # z has no judgments, c no ranking
    assert plain.mean_values[0, 0] == pytest.approx(0.5)
    assert any("no ranking ('c'); left out" in note for note in plain.notes)
    assert any("no judgments in" in note and "('z')" in note for note in plain.notes)
    for complete in (
        evaluate(tmp_path / "qrels", tmp_path / "run", "ndcg", complete=True),
        evaluate(tmp_path / "qrels", tmp_path / "run", "ndcg"),
    ):
        assert list(complete.queries[0]) == ["a", "b", "c"]
        assert complete.values[0][0].tolist() == [1.0, 0.0, 0.0]
        assert complete.mean_values[0, 0] == pytest.approx(1 / 3)
        assert any("no ranking ('c'); scored 0" in note for note in complete.notes)


def test_max_docs_cuts_the_run_but_not_the_ideal(tmp_path):
    # trec_eval -M 2: only the first two documents (after ordering) count; ndcg's ideal
    # still holds every judged document, ndcg_cut.3 cuts it at 3.
    (tmp_path / "qrels").write_text("q 0 a 1\nq 0 b 2\nq 0 c 3\nq 0 e 1\n")
    (tmp_path / "run").write_text("q Q0 a 1 4 r\nq Q0 b 2 3 r\nq Q0 c 3 2 r\n")
    ours, _ = _ours(tmp_path, ["ndcg", "ndcg_cut.3"], max_docs=2)
    assert math.isclose(ours["ndcg"]["q"], _dcg([1, 2]) / _dcg([3, 2, 1, 1]), rel_tol=TOL)
    assert math.isclose(ours["ndcg_cut_3"]["q"], _dcg([1, 2]) / _dcg([3, 2, 1]), rel_tol=TOL)


def test_negative_grades_are_pool_members_never_judged(tmp_path):
    # A grade below 0: gain 0, left out of the ideal, and dropped with judged_only (-J),
    # like a document missing from the qrels.
    (tmp_path / "qrels").write_text("q 0 a 2\nq 0 b -1\nq 0 c 1\nq 0 x 3\n")
    (tmp_path / "run").write_text("q Q0 b 1 3 r\nq Q0 a 2 2 r\nq Q0 c 3 1 r\nq Q0 n 4 0.5 r\n")
    ours, _ = _ours(tmp_path, ["ndcg", "ndcg_cut.2"])
    assert math.isclose(ours["ndcg"]["q"], _dcg([0, 2, 1, 0]) / _dcg([3, 2, 1]), rel_tol=TOL)
    assert math.isclose(ours["ndcg_cut_2"]["q"], _dcg([0, 2]) / _dcg([3, 2]), rel_tol=TOL)
    judged, _ = _ours(tmp_path, ["ndcg", "ndcg_cut.2"], judged_only=True)
    assert math.isclose(judged["ndcg"]["q"], _dcg([2, 1]) / _dcg([3, 2, 1]), rel_tol=TOL)
    assert math.isclose(judged["ndcg_cut_2"]["q"], _dcg([2, 1]) / _dcg([3, 2]), rel_tol=TOL)


def test_a_query_of_only_negative_grades_scores_0_with_a_note_of_what_trec_eval_does(tmp_path):
    # trec_eval 10.0 stops ("Can't calculate measure", status 4) when such a query is the first evaluated; the only
    # note said "scored 0 (trec_eval)", which the guide contradicts.
    (tmp_path / "qrels").write_text("q1 0 d1 -1\nq2 0 d1 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 1 t\nq2 Q0 d1 1 1 t\n")
    ours, result = _ours(tmp_path, "ndcg")
    assert ours["ndcg"] == {"q1": 0.0, "q2": 1.0}  # q1: no gain anywhere, ideal DCG 0
    (note,) = [n for n in result.notes if "only negative grades" in n]
    assert note.startswith(f"{tmp_path / 'qrels'}: 1 judged query has only negative grades ('q1'), scored 0 here")
    assert 'trec_eval 10.0 stops on such a query ("Can\'t calculate measure") if it is the first evaluated' in note
    # (checked with the binary: after another query, grades -2 and -1 print 0.0000; -2 and -3 crash, status 139)
    assert note.endswith("and crashes on one whose highest grade is -2 or below after another")
    assert not any("only negative" in n for n in _ours(tmp_path, "ndcg", convention="ranx")[1].notes)


def test_gain_maps_as_trec_eval_documents_them(tmp_path):
    # "-m ndcg.1=3.5,2=9.0,4=7.0 will give gains 3.5, 9.0, 3.0, 7.0 for relevance levels 1,2,3,4
    # (level 3 remains at the default). Gains are allowed to be 0 or negative, and relevance
    # level 0 can be given a gain." The ideal holds the gains above 0, sorted.
    (tmp_path / "qrels").write_text("q 0 a 1\nq 0 b 2\nq 0 c 3\nq 0 d 4\nq 0 z 0\nq 0 u -1\n")
    (tmp_path / "run").write_text("q Q0 a 1 5 r\nq Q0 c 2 4 r\nq Q0 z 3 3 r\nq Q0 u 4 2 r\nq Q0 n 5 1 r\n")
    ours, _ = _ours(tmp_path, ["ndcg.1=3.5,2=9.0,4=7.0", "ndcg.0=1", "ndcg.1=-2"])
    assert math.isclose(
        ours["ndcg_1=3.5,2=9.0,4=7.0"]["q"], _dcg([3.5, 3, 0, 0, 0]) / _dcg([9, 7, 3.5, 3]), rel_tol=TOL
    )
    # level 0 with gain 1: the judged non-relevant z counts (not the unjudged u, n); it is in the ideal.
    assert math.isclose(ours["ndcg_0=1"]["q"], _dcg([1, 3, 1, 0, 0]) / _dcg([4, 3, 2, 1, 1]), rel_tol=TOL)
    # a negative gain lowers the DCG and stays out of the ideal
    assert math.isclose(ours["ndcg_1=-2"]["q"], _dcg([-2, 3, 0, 0, 0]) / _dcg([4, 3, 2]), rel_tol=TOL)


def test_ndcg_cut_reads_whole_cutoffs_written_with_a_zero_fraction_and_refuses_others(tmp_path):
    (tmp_path / "qrels").write_text("q 0 a 1\nq 0 b 2\n")
    (tmp_path / "run").write_text("q Q0 a 1 2 r\nq Q0 b 2 1 r\n")
    ours, result = _ours(tmp_path, ["ndcg_cut.1.0,3."])
    assert [m.name for m in result.measures] == ["ndcg_cut_1", "ndcg_cut_3"]
    assert math.isclose(ours["ndcg_cut_1"]["q"], 1 / 2, rel_tol=TOL)
    # trec_eval's atol reads 1.9 as 1, silently: refused here, as the guide says (it was truncated too)
    with pytest.raises(ValueError, match=r"cut-off '1.9' is not a whole number \(trec_eval's atol would read 1\)"):
        _ours(tmp_path, ["ndcg_cut.1.9,3"])


def test_query_without_relevant_document_scores_zero(tmp_path):
    (tmp_path / "qrels").write_text("q 0 a 0\nr 0 a 1\n")
    (tmp_path / "run").write_text("q Q0 a 1 1 r\nr Q0 a 1 1 r\n")
    ours, result = _ours(tmp_path, "ndcg")
    assert ours["ndcg"] == {"q": 0.0, "r": 1.0}
    assert any("ideal DCG 0" in note for note in result.notes)


def test_gzip_files_and_comment_lines(tmp_path):
    qrels, run = write_collection(tmp_path, 99)
    with gzip.open(tmp_path / "qrels.gz", "wt") as handle:
        handle.write("# comment (trec_eval's qrels reader refuses a blank line)\n" + (tmp_path / "qrels").read_text())
    with gzip.open(tmp_path / "run.gz", "wt") as handle:
        handle.write("#  Q0 x 1 2 commented-out six-field line\n" + (tmp_path / "run").read_text())
    plain = evaluate(tmp_path / "qrels", tmp_path / "run", ["ndcg", "ndcg_cut.10"])
    packed = evaluate(tmp_path / "qrels.gz", tmp_path / "run.gz", ["ndcg", "ndcg_cut.10"])
    np.testing.assert_array_equal(plain.values[0], packed.values[0])
    assert packed.tags[0] == "tag99"


def test_large_batch_path_matches_pytrec_eval(tmp_path):
    # Enough queries of equal length for the reshaped (no-copy) batch, ties in every query,
    # and a second chunk of the Arrow reader.
    rng = np.random.default_rng(5)
    qrels, run, qrels_lines, run_lines = {}, {}, [], []
    for q in range(400):
        docs = [f"doc{i}" for i in rng.choice(10**6, 300, replace=False)]
        scores = np.round(rng.gamma(2, 2, 300), 1)
        run[str(q)] = dict(zip(docs, scores.tolist(), strict=False))
        run_lines += [f"{q} Q0 {d} 0 {s!r} big" for d, s in zip(docs, scores.tolist(), strict=False)]
        judged = {d: int(rng.integers(0, 4)) for d in docs[:40]} | {
            f"other{q}-{i}": int(rng.integers(0, 3)) for i in range(20)
        }
        qrels[str(q)] = judged
        qrels_lines += [f"{q} 0 {d} {g}" for d, g in judged.items()]
    (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
    (tmp_path / "run").write_text("\n".join(run_lines) + "\n")
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", "ndcg_cut.10"}).evaluate(run)
    ours, _ = _ours(tmp_path, ["ndcg", "ndcg_cut.10"])
    for query in theirs:
        assert ours["ndcg"][query] == theirs[query]["ndcg"]
        assert ours["ndcg_cut_10"][query] == theirs[query]["ndcg_cut_10"]


def test_readers_loaded_columns_are_accepted(tmp_path):
    write_collection(tmp_path, 3)
    a = evaluate(read_whole(tmp_path / "qrels", "qrels"), {"x": read_whole(tmp_path / "run", "run")}, "ndcg")
    b = nr.evaluate(str(tmp_path / "qrels"), {"x": str(tmp_path / "run")}, "ndcg")
    np.testing.assert_array_equal(a.values[0], b.values[0])
