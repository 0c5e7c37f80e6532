"""Tests of :mod:`ndcg_research.studies.movielens.problems` and :mod:`~ndcg_research.studies.movielens.experiment`:
problems, per-query nDCG and the list-length samples."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import ndcg_research as nr
from ndcg_research.simulation.sweeps import DEFAULT_DISCOUNTS
from ndcg_research.studies.movielens import experiment as rd
from ndcg_research.studies.movielens import findings as ml_rules
from ndcg_research.studies.movielens import problems
from ndcg_research.studies.movielens import recommenders as rec
from ndcg_research.studies.movielens.experiment import (
    compare_table,
    convention_values,
    decisions_against,
    list_length_label,
    list_length_values,
    list_lengths,
    ndcg_values,
    relevant_in_lists,
    sample_lists,
    user_subsets,
)
from ndcg_research.studies.movielens.problems import (
    RankingProblem,
    movielens_problem,
    qrels_table,
    run_table,
    trec_problem,
)


def toy_problem(seed: int, n_queries: int = 9, width: int = 40, systems: int = 3) -> problems.RankingProblem:
    """Ragged lists, graded relevance (some queries without any relevant item) and tied scores."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(5, width + 1, n_queries)
    lengths[0] = width
    grades = np.where(rng.random((n_queries, width)) < 0.2, rng.integers(1, 6, (n_queries, width)), 0).astype(float)
    grades[1] = 0.0  # no relevant item
    grades[2, :3] = [3, 3, 2]  # only ratings <= 3: no relevant item under max(0, rating-3)
    grades[2, 3:] = 0
    valid = np.arange(width) < lengths[:, None]
    grades[~valid] = 0
    scores = {}
    for s in range(systems):
        x = np.round(rng.normal(size=(n_queries, width)) + grades * s * 0.3, 1)  # rounding makes ties
        scores[f"s{s}"] = np.where(valid, x, -np.inf)
    docs = np.where(valid, np.char.add("d", np.arange(width).astype(str))[None, :], "").astype(object)
    return problems.RankingProblem(
        "toy", np.arange(n_queries).astype(str), docs, grades, lengths.astype(np.int64), scores
    )


#: The notebook's gains: the rating, the rating above "neutral" (3), and the exponential gain of Burges et al.
GAINS = ["linear", "mapping({1: 0, 2: 0, 3: 0, 4: 1, 5: 2})", "exp2"]


@pytest.mark.parametrize("seed", range(3))
def test_ndcg_values_match_ndcg_from_scores(seed):
    p = toy_problem(seed)
    ks = [1, 5, 17, None]
    values = rd.ndcg_values(p, gains=GAINS, discounts=DEFAULT_DISCOUNTS, ks=ks)
    assert values.shape == (3, len(GAINS), len(DEFAULT_DISCOUNTS), len(ks), 9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nr.UndefinedNDCGWarning)
        for i, s in enumerate(p.systems):
            grades = [row[:n] for row, n in zip(p.grades, p.lengths, strict=False)]
            scores = [row[:n] for row, n in zip(p.scores[s], p.lengths, strict=False)]
            for g, gain in enumerate(GAINS):
                for d, discount in enumerate(DEFAULT_DISCOUNTS):
                    for m, k in enumerate(ks):
                        expected = nr.ndcg_from_scores(
                            grades, scores, k, gain=gain, discount=discount, zero_ideal="nan"
                        )
                        assert np.allclose(values[i, g, d, m], expected, atol=1e-12, equal_nan=True), (
                            s,
                            gain,
                            discount,
                            k,
                        )
    assert np.isnan(values[:, :, :, :, 1]).all()  # no relevant item
    assert np.isnan(values[:, 1, :, :, 2]).all() and not np.isnan(values[:, 0, :, :, 2]).any()


def test_ndcg_values_by_hand_with_ties():
    # grades (2, 0, 1, 0), scores (0.5, 0.5, 0.9, 0.1): c first, then a and b tied (mean gain 1 each), then d.
    p = problems.RankingProblem(
        "hand",
        np.array(["q"]),
        np.array([list("abcd")], dtype=object),
        np.array([[2.0, 0, 1, 0]]),
        np.array([4]),
        {"s": np.array([[0.5, 0.5, 0.9, 0.1]])},
    )
    v = rd.ndcg_values(p, gains=["linear"], discounts=["log2", "zipf"], ks=[None, 2])
    dcg = 1 + 1 / math.log2(3) + 1 / 2
    idcg = 2 + 1 / math.log2(3)
    assert v[0, 0, 0, 0, 0] == pytest.approx(dcg / idcg)
    assert v[0, 0, 0, 1, 0] == pytest.approx((1 + 1 / math.log2(3)) / idcg)
    assert v[0, 0, 1, 0, 0] == pytest.approx((1 + 1 / 2 + 1 / 3) / (2 + 1 / 2))


def test_movielens_problem_candidates_and_grades():
    ratings = pd.DataFrame(
        {
            "user": [1, 1, 1, 1, 1, 2, 2, 2, 2, 2],
            "item": [1, 2, 3, 4, 5, 2, 3, 6, 7, 8],
            "rating": [5, 4, 3, 2, 1, 2, 4, 5, 3, 1],
            "timestamp": [1, 2, 3, 4, 5, 5, 4, 3, 2, 1],
        }
    )
    p = problems.movielens_problem(ratings, rankers=["popularity", "itemknn(k=2)"], test_fraction=0.4)
    # user 1 trains on items 1-3 and is tested on 4 (2) and 5 (1); user 2 trains on 8, 7, 6 and is tested on 3 (4),
    # 2 (2).
    assert p.queries.tolist() == [1, 2]
    assert p.lengths.tolist() == [5, 5]
    assert [set(zip(d[:n], g[:n], strict=False)) for d, g, n in zip(p.docs, p.grades, p.lengths, strict=False)] == [
        {("4", 2.0), ("5", 1.0), ("6", 0.0), ("7", 0.0), ("8", 0.0)},
        {("1", 0.0), ("2", 2.0), ("3", 4.0), ("4", 0.0), ("5", 0.0)},
    ]
    # Scores are the rankers' scores of those items.
    split = rec.temporal_split(ratings, 0.4)
    full = rec.score_items("itemknn(k=2)", split.train > 0)
    for q in range(2):
        cols = [int(np.flatnonzero(split.items == int(d))[0]) for d in p.docs[q, : p.lengths[q]]]
        assert np.array_equal(p.scores["itemknn(k=2)"][q, : p.lengths[q]], full[q, cols])
    assert p.notes["test_ratings"] == 4 and p.notes["train_ratings"] == 6


def test_trec_problem_pools_runs_and_qrels():
    qrels = pd.DataFrame(
        {"query": ["1", "1", "1", "2", "2"], "doc": ["a", "b", "c", "a", "x"], "relevance": [2, -1, 1, 0, 3]}
    )
    run_a = pd.DataFrame({"query": ["1", "1", "2"], "doc": ["b", "d", "a"], "score": [3.0, 2.0, 1.0]})
    run_b = pd.DataFrame({"query": ["1", "3"], "doc": ["c", "z"], "score": [0.5, 9.0]})
    p = problems.trec_problem(qrels, {"A": run_a, "B": run_b})
    assert p.queries.tolist() == ["1", "2"]  # query 3 is not judged
    assert p.lengths.tolist() == [4, 2]
    assert p.docs[0, :4].tolist() == ["a", "b", "c", "d"] and p.docs[1, :2].tolist() == ["a", "x"]
    assert p.grades[0, :4].tolist() == [2, 0, 1, 0]  # -1 (pooled, not judged) counts as 0
    # Unretrieved documents rank below all retrieved ones, tied.
    assert p.scores["A"][0, :4].tolist() == [1.0, 3.0, 1.0, 2.0]
    assert p.scores["B"][0, :4].tolist() == [-0.5, -0.5, 0.5, -0.5]
    assert p.scores["B"][1, :2].tolist() == [-1.0, -1.0]  # B retrieved nothing for query 2
    assert np.isneginf(p.scores["A"][1, 2:]).all()


@pytest.mark.parametrize(
    "qrels, runs, match",
    [
        (
            pd.DataFrame({"query": ["1"], "doc": ["a"]}),
            {"A": pd.DataFrame({"query": ["1"], "doc": ["a"], "score": [1.0]})},
            r"qrels must be a DataFrame.*missing \['relevance'\]",
        ),
        (
            pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]}),
            {"A": pd.DataFrame({"query": ["1", "1"], "doc": ["a", "a"], "score": [1.0, 2.0]})},
            "retrieves document 'a' twice",
        ),
        (
            pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]}),
            {"A": pd.DataFrame({"query": ["2"], "doc": ["a"], "score": [1.0]})},
            "no query is both judged",
        ),
        (pd.DataFrame({"query": ["1"], "doc": ["a"], "relevance": [1]}), {}, "at least one run"),
    ],
)
def test_trec_problem_errors(qrels, runs, match):
    with pytest.raises(ValueError, match=match):
        problems.trec_problem(qrels, runs)


def test_sample_lists_keep_the_share_and_are_nested():
    p = toy_problem(4, n_queries=30, width=200)
    ns = [1, 3, 10, 40, 120, None]
    lists = rd.sample_lists(p, ns, seed=9, replicate=2)
    relevant = (p.grades > 0) & p.valid
    r = relevant.sum(axis=1)
    total = p.lengths
    previous = None
    for n in ns:
        cols = lists[n]
        size = total if n is None else np.minimum(total, n)
        assert cols.shape == (30, int(size.max()))
        for q in range(30):
            chosen = cols[q, : size[q]]
            assert len(set(chosen)) == size[q] and np.all(chosen < total[q])  # distinct real candidates
            assert np.all(cols[q, size[q] :] >= total[q])  # the rest points at padding
            share = r[q] / total[q]
            want = min(r[q], max(1 if r[q] else 0, round(size[q] * share)))
            want = size[q] - min(total[q] - r[q], size[q] - want)
            assert relevant[q, chosen].sum() == want
            if previous is not None:
                assert set(previous[q]) <= set(chosen)
        previous = [cols[q, : size[q]] for q in range(30)]
    again = rd.sample_lists(p, [40], seed=9, replicate=2)[40]
    assert np.array_equal(again, lists[40])  # the same draw whatever else is asked for
    assert not np.array_equal(rd.sample_lists(p, [40], seed=9, replicate=3)[40], lists[40])


def test_sampled_lists_are_uniform_within_each_class():
    # One query: 4 relevant among 20; lists of 5 hold one relevant and four others, each drawn uniformly.
    grades = np.zeros((1, 20))
    grades[0, [2, 7, 11, 19]] = 1
    p = problems.RankingProblem(
        "u",
        np.array(["q"]),
        np.array([[str(i) for i in range(20)]], dtype=object),
        grades,
        np.array([20]),
        {"s": np.zeros((1, 20))},
    )
    counts = np.zeros(20)
    draws = 4000
    for rep in range(draws):
        counts[rd.sample_lists(p, [5], seed=1, replicate=rep)[5][0]] += 1
    rel = counts[[2, 7, 11, 19]] / draws  # each relevant item with probability 1/4
    other = np.delete(counts, [2, 7, 11, 19]) / draws  # each other item with probability 4/16
    # 4000 draws: sd of a frequency <= sqrt(0.25 * 0.75 / 4000) = 0.0068; 5 sd bound.
    assert np.all(np.abs(rel - 0.25) < 0.035) and np.all(np.abs(other - 0.25) < 0.035)


def test_list_length_values_average_the_draws():
    p = toy_problem(2)
    ns = [5, None]
    got = rd.list_length_values(p, ns, gains=GAINS[:1], discounts=["log2", "zipf"], replicates=3, seed=5)
    draws = [
        rd.ndcg_values(
            p, gains=GAINS[:1], discounts=["log2", "zipf"], columns=rd.sample_lists(p, [5], seed=5, replicate=r)[5]
        )[:, :, :, 0]
        for r in range(3)
    ]
    assert np.allclose(got[0], np.mean(draws, axis=0), equal_nan=True)
    assert np.allclose(
        got[1], rd.ndcg_values(p, gains=GAINS[:1], discounts=["log2", "zipf"])[:, :, :, 0], equal_nan=True
    )


def test_ndcg_values_errors():
    p = toy_problem(0)
    with pytest.raises(ValueError, match="one row per query"):
        rd.ndcg_values(p, gains=GAINS, discounts=["log2"], columns=np.zeros((2, 3), dtype=int))
    with pytest.raises(TypeError, match="built-in"):
        rd.ndcg_values(p, gains=[abs], discounts=["log2"])


# --------------------------------------------------------------------------- tables (issue 9's statistics)

from scipy import stats as sps  # noqa: E402


def test_compare_table_against_scipy():
    rng = np.random.default_rng(3)
    values = rng.normal(0.5, 0.1, (2, 3, 40)) + np.array([0.0, 0.02, 0.05])[None, :, None]
    values[1, :, 7] = np.nan  # query 7 undefined in the second slice: dropped for every system
    systems, pairs = rd.compare_table(values, ["a", "b", "c"], {"gain": ["g1", "g2"]})
    assert systems["gain"].tolist() == ["g1"] * 3 + ["g2"] * 3
    for s, gain in enumerate(["g1", "g2"]):
        matrix = values[s][:, ~np.isnan(values[s]).any(axis=0)]
        n = matrix.shape[1]
        half = sps.t.ppf(0.975, n - 1) * matrix.std(axis=1, ddof=1) / np.sqrt(n)
        got = systems[systems.gain == gain]
        assert np.allclose(got["mean"], matrix.mean(axis=1)) and (got["queries"] == n).all()
        assert np.allclose(got["ci_low"], matrix.mean(axis=1) - half) and np.allclose(
            got["ci_high"], matrix.mean(axis=1) + half
        )
        got = pairs[pairs.gain == gain]
        p = [sps.ttest_rel(matrix[i], matrix[j]).pvalue for i, j in [(0, 1), (0, 2), (1, 2)]]
        assert np.allclose(got["pvalue"], p)
        order = np.argsort(p)  # Holm by hand: (m - rank) * p, running maximum, capped at 1
        holm = np.minimum(1, np.maximum.accumulate(np.array(p)[order] * (3 - np.arange(3))))
        expected = np.empty(3)
        expected[order] = holm
        assert np.allclose(got["pvalue_adjusted"], expected)
        assert np.allclose(
            got["difference"],
            [
                matrix[0].mean() - matrix[1].mean(),
                matrix[0].mean() - matrix[2].mean(),
                matrix[1].mean() - matrix[2].mean(),
            ],
        )


def test_compare_table_checks_the_shape():
    with pytest.raises(ValueError, match="values must have shape"):
        rd.compare_table(np.zeros((2, 3, 5)), ["a", "b"], {"gain": ["g1", "g2"]})


def test_user_subsets_are_seeded_and_independent_of_other_sizes():
    a = rd.user_subsets(50, 10, 4, seed=3)
    assert a.shape == (4, 10) and all(len(set(r)) == 10 for r in a.tolist()) and a.max() < 50
    assert np.array_equal(a, rd.user_subsets(50, 10, 4, seed=3))
    assert not np.array_equal(a, rd.user_subsets(50, 10, 4, seed=4))
    assert not np.array_equal(a[:, :5], rd.user_subsets(50, 5, 4, seed=3))  # another size, another stream
    with pytest.raises(ValueError, match="at most n_users"):
        rd.user_subsets(5, 6, 1, seed=0)


def test_query_set_tables_against_a_direct_count():
    rng = np.random.default_rng(5)
    topic = rng.normal(0.5, 0.15, 60)
    shifts = np.array([0.0, 0.01, 0.03, 0.08])
    values = np.stack(
        [topic + shifts[:, None] + rng.normal(0, 0.05, (4, 60)), topic + shifts[:, None] + rng.normal(0, 0.2, (4, 60))]
    )  # two measures, the second noisier
    power, swaps, agreement = rd.query_set_tables(
        values, list("abcd"), {"measure": ["quiet", "noisy"]}, sizes=[10, 60], draws=3, swap_trials=50, test="t", seed=2
    )
    assert power[["measure", "users", "draws"]].values.tolist() == [
        ["quiet", 10, 3],
        ["quiet", 60, 1],
        ["noisy", 10, 3],
        ["noisy", 60, 1],
    ]
    for m, name in enumerate(["quiet", "noisy"]):
        # all users: share of the 6 pairs whose paired t test is significant at 5%
        direct = np.mean(
            [sps.ttest_rel(values[m, i], values[m, j]).pvalue < 0.05 for i in range(4) for j in range(i + 1, 4)]
        )
        assert power[(power.measure == name) & (power.users == 60)]["power"].iloc[0] == pytest.approx(direct)
        # subsets of 10: the mean over the same subsets, counted directly
        subsets = rd.user_subsets(60, 10, 3, seed=2)
        direct = np.mean(
            [
                np.mean(
                    [
                        sps.ttest_rel(values[m, i, s], values[m, j, s]).pvalue < 0.05
                        for i in range(4)
                        for j in range(i + 1, 4)
                    ]
                )
                for s in subsets
            ]
        )
        assert power[(power.measure == name) & (power.users == 10)]["power"].iloc[0] == pytest.approx(direct)
    assert swaps["size"].tolist() == [10, 10]  # 60 users: only sets of up to 30 have a disjoint twin
    assert agreement["kendall_tau"].iloc[0] == 1.0  # the reference against itself
    with pytest.raises(ValueError, match="no NaN"):
        rd.query_set_tables(
            np.where(values > 0.9, np.nan, values),
            list("abcd"),
            {"measure": ["q", "n"]},
            sizes=[10],
            draws=1,
            swap_trials=5,
        )


def test_first_order_table_by_hand():
    from ndcg_research.simulation.theory import eps

    p = toy_problem(1, n_queries=6, width=30)
    values = rd.list_length_values(p, [10, None], gains=["linear"], discounts=["log2", "zipf", "loglog"], seed=0)
    table = rd.first_order_table(values, p, [10, None], list(p.systems), ["linear"], ["log2", "zipf", "loglog"])
    assert set(table["discount"]) == {"log2", "loglog"}  # zipf is not slowly varying
    row = table[(table.list_length == "all") & (table.system == "s1") & (table.discount == "loglog")].iloc[0]
    v = values[1, 1, 0, 2]
    ok = ~np.isnan(v)
    assert row["c_estimate"] == pytest.approx(np.mean((1 - v[ok]) / eps("loglog", p.lengths[ok].astype(float))))
    assert row["one_minus_ndcg"] == pytest.approx(1 - v[ok].mean())


def test_decisions_against_the_whole_list():
    means = pd.DataFrame(
        {
            "gain": "g",
            "cutoff": ["all"] * 3 + ["5"] * 3,
            "system": list("abc") * 2,
            "mean": [0.5, 0.4, 0.3, 0.2, 0.25, 0.1],
        }
    )
    pairs = pd.DataFrame(
        {
            "gain": "g",
            "cutoff": ["all"] * 3 + ["5"] * 3,
            "system_a": ["a", "a", "b"] * 2,
            "system_b": ["b", "c", "c"] * 2,
            "difference": [0.1, 0.2, 0.1, -0.05, 0.1, 0.15],
            "pvalue_adjusted": [0.01, 0.001, 0.2, 0.01, 0.3, 0.01],
        }
    )
    out, summary = rd.decisions_against(means, pairs, column="cutoff", reference="all")
    assert out["decision"].tolist() == [1, 1, 0, -1, 0, 1]
    at5 = summary[summary.cutoff == "5"].iloc[0]
    # a-b reversed and significant both times; a-c lost its significance; b-c became significant
    assert (at5.significant, at5.decisions_changed, at5.orders_reversed, at5.significant_reversals) == (2, 3, 1, 1)
    assert at5.max_mean_shift == pytest.approx(0.3)
    assert at5.kendall_tau_vs_reference == pytest.approx(sps.kendalltau([0.5, 0.4, 0.3], [0.2, 0.25, 0.1]).statistic)
    f = ml_rules.cutoff_findings(summary, small=("5",))
    assert f["changed"] == 3 and f["reversed_significant"] == 1
    assert f["verdict"] == "does not hold"  # @5 finds as many significant pairs (2) as the whole list, not fewer


def findings_tables(spread_narrows=True, loglog_sig=3):
    """Minimal list-length tables: two lengths, two rankers, one gain, discounts log2 / loglog / zipf."""
    rows, pairs, fo = [], [], []
    for n, kept in (("100", 1.0), ("all", 1.0)):
        for d in ("zipf", "log2", "loglog"):
            top, low = (0.5, 0.3) if n == "100" else ((0.6, 0.45) if spread_narrows else (0.6, 0.35))
            for s, m in (("x", top), ("y", low)):
                rows.append(dict(list_length=n, gain="g", discount=d, system=s, mean=m, users_with_share_kept=kept))
            sig = {"zipf": 0.5, "log2": 0.01, "loglog": 0.01 if loglog_sig else 0.5}[d]
            pairs.append(
                dict(
                    list_length=n,
                    gain="g",
                    discount=d,
                    system_a="x",
                    system_b="y",
                    pvalue_adjusted=sig,
                    effect_size=0.5,
                )
            )
            if d != "zipf":
                for s, c in (("x", 4.0), ("y", 5.0)):
                    fo.append(
                        dict(
                            list_length=n,
                            gain="g",
                            discount=d,
                            system=s,
                            c_estimate=c * (1.1 if d == "loglog" else 1.0),
                        )
                    )
    return pd.DataFrame(rows), pd.DataFrame(pairs), pd.DataFrame(fo)


def test_list_length_findings_rules():
    f = ml_rules.list_length_findings(*findings_tables())
    assert (f["n0"], f["n1"], f["slow"], f["fast"]) == ("100", "all", ["log2", "loglog"], ["zipf"])
    assert f["verdicts"] == {
        "1a drift together (slowly varying)": "holds",
        "1a first-order law": "holds",
        "1b differences stay detectable": "holds",
        "1c zipf/summable lose": "holds",
    }
    f = ml_rules.list_length_findings(*findings_tables(spread_narrows=False, loglog_sig=0))
    assert f["verdicts"]["1a drift together (slowly varying)"] == "does not hold"
    assert f["verdicts"]["1b differences stay detectable"] == "does not hold"


def test_query_set_findings_rule():
    power = pd.DataFrame(
        {
            "gain": "g",
            "discount": ["zipf", "log2", "loglog"] * 2,
            "users": [25] * 3 + [100] * 3,
            "power": [0.1, 0.3, 0.3, 0.2, 0.5, 0.46],
        }
    )
    f = ml_rules.query_set_findings(power)
    assert f["users"] == 100 and f["verdict"] == "holds" and f["best"] == "log2"
    power.loc[5, "power"] = 0.4  # loglog more than 0.05 below log2
    assert ml_rules.query_set_findings(power)["verdict"] == "does not hold"


def test_a_trec_export_of_the_movielens_problem_gives_the_same_values():
    # The same rankings written as TREC qrels and runs (every candidate retrieved) make the same problem.
    ratings = pd.DataFrame(
        {
            "user": np.repeat([1, 2, 3], 8),
            "item": np.tile(np.arange(1, 9), 3),
            "rating": np.random.default_rng(0).integers(1, 6, 24),
            "timestamp": np.arange(24),
        }
    )
    ratings = ratings.drop(index=[3, 12, 21]).reset_index(drop=True)  # users did not rate everything
    p = problems.movielens_problem(ratings, rankers=["popularity", "random"], test_fraction=0.3)
    valid = p.valid
    q = np.broadcast_to(p.queries.astype(str)[:, None], p.docs.shape)
    qrels = pd.DataFrame(
        {
            "query": q[valid & (p.grades > 0)],
            "doc": p.docs[valid & (p.grades > 0)],
            "relevance": p.grades[valid & (p.grades > 0)],
        }
    )
    runs = {s: pd.DataFrame({"query": q[valid], "doc": p.docs[valid], "score": p.scores[s][valid]}) for s in p.systems}
    t = problems.trec_problem(qrels, runs)
    a = rd.ndcg_values(p, gains=GAINS, discounts=["log2", "zipf"], ks=[None, 2])
    b = rd.ndcg_values(t, gains=GAINS, discounts=["log2", "zipf"], ks=[None, 2])
    assert np.allclose(a, b, equal_nan=True)


# --------------------------------------------------------------------------- conventions (issue 8's presets)


def tie_free_problem(seed: int = 0) -> problems.RankingProblem:
    p = toy_problem(seed, n_queries=12, width=30)
    rng = np.random.default_rng(seed + 100)
    scores = {s: np.where(p.valid, rng.random(v.shape), -np.inf) for s, v in p.scores.items()}  # no ties
    return problems.RankingProblem(p.name, p.queries, p.docs, p.grades, p.lengths, scores)


def test_qrels_and_run_tables():
    p = toy_problem(1)
    q = problems.qrels_table(p)
    assert len(q) == int(((p.grades > 0) & p.valid).sum()) and q["relevance"].dtype.kind == "i"
    whole = problems.run_table(p, "s1")
    assert len(whole) == int(p.lengths.sum())
    top = problems.run_table(p, "s1", depth=4)
    assert top.groupby("query").size().tolist() == [min(4, n) for n in p.lengths]
    for query, block in top.groupby("query", sort=False):
        row = int(query)
        scores = p.scores["s1"][row, : p.lengths[row]]
        assert np.allclose(sorted(block["score"], reverse=True), sorted(scores, reverse=True)[:4])


def test_convention_values_match_the_metric_core():
    p = tie_free_problem(2)
    systems = list(p.systems)
    qrels = problems.qrels_table(p)
    queries = p.queries.astype(str)
    whole = {s: problems.run_table(p, s) for s in systems}
    top = {s: problems.run_table(p, s, depth=5) for s in systems}
    v_whole, refused = rd.convention_values(qrels, whole, ["trec_eval", "sklearn"], ["ndcg", "ndcg@3"], queries)
    assert refused == {}
    mine = rd.ndcg_values(p, gains=["linear"], discounts=["log2"], ks=[None, 3])[:, 0, 0]  # systems, ks, queries
    defined = ~np.isnan(mine[0, 0])
    for c in range(2):  # whole lists hold every relevant item: trec_eval's and scikit-learn's ideals coincide
        for m in range(2):
            assert np.allclose(v_whole[c, m][:, defined], mine[:, m][:, defined], atol=1e-12)
    v_top, _ = rd.convention_values(qrels, top, ["trec_eval", "sklearn", "lightgbm"], ["ndcg"], queries)
    for s, system in enumerate(systems):
        t = top[system]
        for q, query in enumerate(queries):
            block = t[t["query"] == query]
            grades = qrels[(qrels["query"] == query)].set_index("doc")["relevance"]
            got = block["doc"].map(grades).fillna(0).to_numpy(dtype=float)
            all_grades = grades.to_numpy(dtype=float)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", nr.UndefinedNDCGWarning)
                # trec_eval: ideal from every judged grade; scikit-learn: from the retrieved list only
                expected = (
                    nr.ndcg_from_scores(got, block["score"].to_numpy(), ideal=all_grades) if all_grades.size else np.nan
                )
                sk = nr.ndcg_from_scores(got, block["score"].to_numpy())
            if not all_grades.size:  # no judgment: the query is in one file only, no preset evaluates it
                assert np.isnan(v_top[:, 0, s, q]).all()
                continue
            assert v_top[0, 0, s, q] == pytest.approx(expected, abs=1e-12)
            assert v_top[1, 0, s, q] == pytest.approx(sk, abs=1e-12)
            if got.sum() == 0:  # LightGBM: a list without a relevant item scores 1
                assert v_top[2, 0, s, q] == 1.0


def test_convention_values_record_refusals():
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [5, -1]})
    run = pd.DataFrame({"query": ["q"], "doc": ["a"], "score": [1.0]})
    v, refused = rd.convention_values(qrels, {"r": run}, ["trec_eval", "gdeval", "sklearn"], ["ndcg"], ["q"])
    assert set(refused) == {"gdeval", "sklearn"} and "above 4" in refused["gdeval"] and "negative" in refused["sklearn"]
    assert v[0, 0, 0, 0] == 1.0 and np.isnan(v[1:]).all()


def test_convention_findings_rule():
    decisions = pd.DataFrame(
        {
            "convention": ["trec_eval", "sklearn", "lightgbm"],
            "max_mean_shift": [0, 0.1, 0.5],
            "significant_reversals": [0, 0, 2],
            "kendall_tau_vs_reference": [1.0, 0.9, -0.3],
        }
    )
    f = ml_rules.convention_findings(decisions)
    assert f["verdict"] == "does not hold" and f["reversing"]["convention"].tolist() == ["lightgbm"]
    assert f["max_shift"] == 0.5
    assert ml_rules.convention_findings(decisions.iloc[:2])["verdict"] == "holds"


def test_query_set_tables_on_a_small_collection_uses_a_size_that_fits_and_says_so():
    # A TREC track of 20 topics: no user-set size of the notebook (25 or more) has a disjoint twin.
    rng = np.random.default_rng(8)
    values = rng.uniform(size=(1, 3, 20))
    with pytest.warns(
        UserWarning,
        match=r"a size must be at most half the 20 users \(queries\): none of sizes "
        r"\[20\] fits; the swap rates use 10, the largest that does",
    ):
        power, swaps, _ = rd.query_set_tables(
            values, list("abc"), {"measure": ["m"]}, sizes=[20], draws=1, swap_trials=5, test="t"
        )
    assert swaps["size"].tolist() == [10] and len(swaps.columns) > 1
    assert power["users"].tolist() == [20]
    with pytest.raises(ValueError, match="need at least 2 users, got 1"):
        rd.query_set_tables(values[..., :1], list("abc"), {"measure": ["m"]}, sizes=[1], draws=1, swap_trials=5)


def test_verdict_1b_is_not_given_without_a_significant_pair():
    import pandas as pd

    lengths, discounts, systems = ["10", "all"], ["log2", "loglog"], ["a", "b"]
    means = pd.DataFrame(
        [(n, "rating", d, s, 0.5 + 0.1 * (s == "a"), 1.0) for n in lengths for d in discounts for s in systems],
        columns=["list_length", "gain", "discount", "system", "mean", "users_with_share_kept"],
    )
    pairs = pd.DataFrame(
        [(n, "rating", d, "a", "b", 0.9, 0.5) for n in lengths for d in discounts],
        columns=["list_length", "gain", "discount", "system_a", "system_b", "pvalue_adjusted", "effect_size"],
    )
    first_order = pd.DataFrame(
        [(n, "rating", d, s, 1.0) for n in lengths for d in discounts for s in systems],
        columns=["list_length", "gain", "discount", "system", "c_estimate"],
    )
    from ndcg_research.studies.movielens.findings import list_length_findings

    found = list_length_findings(means, pairs, first_order)
    assert found["significant"][("all", "log2")] == 0
    assert found["verdicts"]["1b differences stay detectable"] == "undecided"


# ------------------------------------------------------------ examples of studies.movielens.experiment


def test_ndcg_values_example():
    p = RankingProblem(
        "toy",
        np.array(["q"]),
        np.array([["a", "b", "c"]]),
        np.array([[0.0, 2.0, 1.0]]),
        np.array([3]),
        {"s": np.array([[0.9, 0.5, 0.1]])},
    )
    v = ndcg_values(p, gains=["linear"], discounts=["log2"], ks=[None, 1])
    assert (v.shape, round(float(v[0, 0, 0, 0, 0]), 4), float(v[0, 0, 0, 1, 0])) == ((1, 1, 1, 2, 1), 0.6697, 0.0)


def test_list_length_label_example():
    assert (list_length_label(100), list_length_label(None)) == ("100", "all")


def test_sample_lists_example():
    grades = np.array([[1.0, 0, 0, 0, 2.0, 0, 0, 0, 0, 0]])
    p = RankingProblem(
        "toy", np.array(["q"]), np.array([list("abcdefghij")]), grades, np.array([10]), {"s": np.zeros((1, 10))}
    )
    lists = sample_lists(p, [2, 5, None], seed=1)
    # share 0.2 kept
    assert [int(np.count_nonzero(grades[0, lists[n][0]])) for n in (2, 5, None)] == [1, 1, 2]
    # nested
    assert set(lists[2][0]) <= set(lists[5][0])


def test_list_length_values_example():
    grades = np.array([[1.0, 0, 0, 0, 2.0, 0, 0, 0, 0, 0]])
    p = RankingProblem(
        "toy", np.array(["q"]), np.array([list("abcdefghij")]), grades, np.array([10]), {"s": -np.arange(10.0)[None, :]}
    )
    assert list_length_values(p, [10], gains=["linear"], discounts=["none"], seed=0).tolist() == [[[[[1.0]]]]]


def test_compare_table_example():
    # one slice: 2 systems x 4 queries
    v = np.array([[[0.5, 0.6, 0.7, 0.9], [0.4, 0.5, 0.5, 0.8]]])
    s, p = compare_table(v, ["a", "b"], {"gain": ["linear"]})
    expected = [["linear", "a", 0.675, 4], ["linear", "b", 0.55, 4]]
    assert s[["gain", "system", "mean", "queries"]].values.tolist() == expected
    assert round(float(p["difference"].iloc[0]), 3) == 0.125


def test_user_subsets_example():
    s = user_subsets(10, 4, 3, seed=1)
    assert (s.shape, all(len(set(row)) == 4 for row in s.tolist())) == ((3, 4), True)


def test_list_lengths_example():
    p = RankingProblem(
        "t", np.array(["a", "b"]), np.zeros((2, 5), dtype=object), np.zeros((2, 5)), np.array([5, 3]), {}
    )
    assert (list_lengths(p, 4).tolist(), list_lengths(p, None).tolist()) == ([4, 3], [5, 3])


def test_relevant_in_lists_example():
    p = RankingProblem(
        "t",
        np.array(["a"]),
        np.zeros((1, 100), dtype=object),
        np.r_[np.ones(5), np.zeros(95)][None, :],
        np.array([100]),
        {},
    )
    # share 0.05: max(1, round(0.05 n))
    assert [int(relevant_in_lists(p, n)[0]) for n in (10, 40, None)] == [1, 2, 5]


def test_decisions_against_example():
    import pandas as pd

    m = pd.DataFrame(
        {"gain": ["g"] * 4, "cutoff": ["all", "all", "5", "5"], "system": ["a", "b"] * 2, "mean": [0.5, 0.4, 0.2, 0.3]}
    )
    p = pd.DataFrame(
        {
            "gain": ["g", "g"],
            "cutoff": ["all", "5"],
            "system_a": ["a", "a"],
            "system_b": ["b", "b"],
            "difference": [0.1, -0.1],
            "pvalue_adjusted": [0.01, 0.2],
        }
    )
    pairs, summary = decisions_against(m, p, column="cutoff", reference="all")
    expected = [["all", 1, False, False], ["5", 0, True, True]]
    assert pairs[["cutoff", "decision", "decision_changed", "order_reversed"]].values.tolist() == expected
    expected = [["all", 1, 0.0, 1.0], ["5", 0, 0.3, -1.0]]
    assert (
        summary[["cutoff", "significant", "max_mean_shift", "kendall_tau_vs_reference"]].round(3).values.tolist()
        == expected
    )


def test_convention_values_example():
    import pandas as pd

    qrels = pd.DataFrame({"query": ["q"], "doc": ["b"], "relevance": [1]})
    # misses b
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "c"], "score": [0.5, 0.4]})
    v, refused = convention_values(qrels, {"r": run}, ["trec_eval", "lightgbm"], ["ndcg"], ["q"])
    # LightGBM: a list without relevant items scores 1
    assert (v[:, 0, 0, 0].tolist(), refused) == ([0.0, 1.0], {})


# ------------------------------------------------------------ examples of studies.movielens.problems


def test_movielens_problem_example():
    import pandas as pd

    r = pd.DataFrame(
        {
            "user": [1, 1, 1, 2, 2, 2],
            "item": [1, 2, 3, 1, 2, 4],
            "rating": [5, 4, 3, 2, 5, 4],
            "timestamp": [1, 2, 3, 1, 2, 3],
        }
    )
    p = movielens_problem(r, rankers=["popularity", "random"], test_fraction=0.3)
    assert (p.systems, p.lengths.tolist(), p.relevant_counts().tolist()) == (("popularity", "random"), [2, 2], [1, 1])
    assert (p.docs.tolist(), p.grades.tolist()) == ([["3", "4"], ["3", "4"]], [[3.0, 0.0], [0.0, 4.0]])


def test_trec_problem_example():
    import pandas as pd

    qrels = pd.DataFrame({"query": ["q1", "q1", "q1"], "doc": ["a", "b", "c"], "relevance": [2, 0, 1]})
    run = pd.DataFrame({"query": ["q1", "q1"], "doc": ["b", "d"], "score": [0.9, 0.5]})
    p = trec_problem(qrels, {"bm25": run})
    expected = ([["a", "b", "c", "d"]], [[2.0, 0.0, 1.0, 0.0]], [[-0.5, 0.9, -0.5, 0.5]])
    assert (p.docs.tolist(), p.grades.tolist(), p.scores["bm25"].tolist()) == expected


def test_qrels_table_example():
    p = RankingProblem(
        "t", np.array([7]), np.array([["a", "b", ""]], dtype=object), np.array([[0.0, 3.0, 0.0]]), np.array([2]), {}
    )
    assert qrels_table(p).values.tolist() == [["7", "b", 3]]


def test_run_table_example():
    p = RankingProblem(
        "t",
        np.array([7]),
        np.array([["a", "b", "c"]], dtype=object),
        np.zeros((1, 3)),
        np.array([3]),
        {"s": np.array([[0.1, 0.9, 0.5]])},
    )
    assert run_table(p, "s", depth=2).values.tolist() == [["7", "b", 0.9], ["7", "c", 0.5]]
