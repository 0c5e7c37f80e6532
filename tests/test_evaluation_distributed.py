"""Beyond one process: a run in blocks, as a Dask DataFrame on a dask.distributed cluster, or as several files,
gives exactly the values (every bit) of the run evaluated in one piece."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ndcg_research.evaluation import InputError, evaluate
from ndcg_research.evaluation import evaluate as evaluate_module  # noqa: F401  (the module is patched below)
from ndcg_research.evaluation._readers import read_whole

MEASURES = ["ndcg", "ndcg_cut.3,10", "ndcg@5(gain=exp2, discount=zipf)"]


def _collection(seed=4, n_queries=60):
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(n_queries):
        n = int(rng.integers(1, 300))  # lengths of many classes: batches differ between parts and one piece
        docs = [f"d{i}" for i in rng.choice(5000, n, replace=False)]
        scores = np.round(rng.gamma(2.0, 2.0, n), 2)  # ties
        run += [(f"q{q}", d, s) for d, s in zip(docs, scores, strict=False)]
        judged = rng.choice(n, min(n, int(rng.integers(1, 40))), replace=False)
        qrels += [(f"q{q}", docs[i], int(rng.integers(0, 4))) for i in judged]
    qrels.append(("missing", "x", 2))  # a judged query no run answers: 0 (trec_eval) or left out
    return (
        pd.DataFrame(qrels, columns=["query", "doc", "relevance"]),
        pd.DataFrame(run, columns=["query", "doc", "score"]),
    )


@pytest.mark.parametrize("convention", ["trec_eval", "sklearn", "lightgbm", "ranx"])
def test_dask_partitions_on_a_local_cluster_give_the_values_of_one_process(convention):
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    qrels, run = _collection()
    one = evaluate(qrels, {"r": run}, MEASURES, convention=convention)
    # Partitioned by query: whole queries in each of 5 partitions of different sizes.
    frame = dd.from_pandas(run.set_index("query", drop=False).rename_axis(None), npartitions=5, sort=True)
    assert frame.npartitions > 1
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        many = evaluate(qrels, {"r": frame}, MEASURES, convention=convention)
        assert client.run(lambda: True)  # the cluster's workers were there
    assert list(many.queries[0]) == list(one.queries[0])
    np.testing.assert_array_equal(many.values[0], one.values[0])  # bit for bit
    np.testing.assert_array_equal(many.mean_values, one.mean_values)


def test_a_query_split_between_partitions_is_refused():
    dd = pytest.importorskip("dask.dataframe")
    qrels, run = _collection()
    frame = dd.from_pandas(run, npartitions=4, sort=False)  # split by position: a query across two partitions
    with pytest.raises(
        Exception,
        match=r"is in two parts of the run \(partitions or files\); each part must hold "
        r"whole queries",
    ):
        evaluate(qrels, {"r": frame}, "ndcg")


@pytest.mark.parametrize("column", ["qid", "docno"])
def test_ids_of_two_kinds_in_two_partitions_are_refused_as_in_pandas(column):
    # Each partition was checked alone: integers in one and strings in another were evaluated (1 and '1' as one id).
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    qrels = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["a", "b", "a", "d"], "label": [2, 0, 1, 3]})
    run = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["b", "a", "a", "d"], "score": [0.9, 0.5, 0.3, 0.2]})
    mixed = run.astype({column: object})
    mixed.loc[2:, column] = [2, 2] if column == "qid" else [5, 6]
    with pytest.raises(InputError, match="mixes strings"):
        evaluate(qrels, mixed)
    with dask.config.set({"dataframe.convert-string": False}):  # (else from_pandas makes them all strings)
        frame = dd.from_pandas(mixed, npartitions=2, sort=False)
        assert [len(p) for p in frame.partitions] == [2, 2]
        with pytest.raises(InputError, match=rf"column '{column}' holds strings in one partition and integers in "):
            evaluate(qrels, frame)
        same = dd.from_pandas(run, npartitions=2, sort=False)
        assert evaluate(qrels, same).mean() == evaluate(qrels, run).mean()


def test_a_dask_run_of_empty_partitions_is_refused_unless_zeros_are_asked_for():
    dd = pytest.importorskip("dask.dataframe")
    from ndcg_research.evaluation import NoJudgedQuery

    qrels = pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]})
    empty = pd.DataFrame({"query": pd.Series([], dtype=str), "doc": pd.Series([], dtype=str), "score": []})
    with pytest.raises(NoJudgedQuery, match=r"^run run1: it ranks no query \(judged: '1'\); scoring every judged"):
        evaluate(qrels, dd.from_pandas(empty, npartitions=1))
    assert evaluate(qrels, dd.from_pandas(empty, npartitions=1), complete=True).mean() == 0.0


def test_blocks_of_a_file_give_the_values_of_one_piece(tmp_path, monkeypatch):
    import sys

    qrels, run = _collection(seed=9)
    run = run.assign(q0="Q0", rank=1, tag="t")[["query", "q0", "doc", "rank", "score", "tag"]]
    run.to_csv(tmp_path / "run", sep=" ", header=False, index=False)
    whole = evaluate(qrels, {"r": read_whole(tmp_path / "run", "run")}, MEASURES)
    module = sys.modules["ndcg_research.evaluation._evaluator"]
    original = module.query_blocks  # what the evaluator reads a run file with
    monkeypatch.setattr(
        module, "query_blocks", lambda path, stream=None: original(path, block_size=4096, stream=stream)
    )  # small blocks
    blocks = evaluate(qrels, {"r": tmp_path / "run"}, MEASURES)
    assert not any("appears again" in note for note in blocks.notes)  # read in blocks, not whole again
    np.testing.assert_array_equal(blocks.values[0], whole.values[0])
    np.testing.assert_array_equal(blocks.mean_values, whole.mean_values)


def test_a_run_in_several_files_gives_the_values_of_one_file(tmp_path):
    qrels, run = _collection(seed=5)
    run = run.assign(q0="Q0", rank=1, tag="t")[["query", "q0", "doc", "rank", "score", "tag"]]
    run.to_csv(tmp_path / "all", sep=" ", header=False, index=False)
    queries = run["query"].unique()
    for i, part in enumerate(np.array_split(queries, 3)):
        run[run["query"].isin(part)].to_csv(tmp_path / f"part{i}", sep=" ", header=False, index=False)
    one = evaluate(qrels, {"r": tmp_path / "all"}, MEASURES)
    shards = evaluate(qrels, {"r": [tmp_path / f"part{i}" for i in range(3)]}, MEASURES)
    np.testing.assert_array_equal(shards.values[0], one.values[0])
    np.testing.assert_array_equal(shards.mean_values, one.mean_values)
