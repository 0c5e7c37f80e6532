"""The package's nDCG as an ir_measures measure (``nr.ir_measure``), in ir_measures and in PyTerrier.

References: ir_measures' own nDCG (its pytrec_eval provider, i.e. trec_eval) for trec_eval's rules, and
:func:`ndcg_research.evaluate` for everything beyond them (other gains, discounts, tie rules and
conventions, which ir_measures' nDCG cannot express). PyTerrier's ``pt.Experiment`` is run where it
is installed (the ``ecosystem`` extra); every test here needs ir_measures.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ir_measures = pytest.importorskip("ir_measures")

from ndcg_research.evaluation import evaluate  # noqa: E402
from ndcg_research.interop import ir_measure  # noqa: E402


def collection(seed: int, *, queries: int = 8, docs: int = 12, ties: bool = False):
    """Random qrels and run frames in ir_measures' columns: grades 0-3; some judged queries not in the run,
    some run queries not judged, unjudged documents in the run; distinct scores unless ``ties``."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(queries):
        judged = rng.choice(docs, size=rng.integers(1, docs), replace=False)
        grades = rng.integers(0, 4, judged.size)
        qrels += [(f"q{q}", f"d{d}", int(g)) for d, g in zip(judged, grades, strict=True)]
        if q % 4 == 3:
            continue  # a judged query the run does not answer
        retrieved = rng.choice(docs + 4, size=rng.integers(2, docs), replace=False)  # some never judged
        scores = rng.integers(0, 3, retrieved.size) if ties else rng.permutation(retrieved.size) + rng.random()
        run += [(f"q{q}", f"d{d}", float(s)) for d, s in zip(retrieved, scores, strict=True)]
    run += [("unjudged", "d1", 1.0), ("unjudged", "d2", 0.5)]
    return (
        pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"]),
        pd.DataFrame(run, columns=["query_id", "doc_id", "score"]),
    )


def package_columns(qrels: pd.DataFrame, run: pd.DataFrame):
    return (
        qrels.rename(columns={"query_id": "query", "doc_id": "doc"}),
        run.rename(columns={"query_id": "query", "doc_id": "doc"}),
    )


def per_query(measure, qrels, run) -> dict[str, float]:
    return {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}


# ---------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("spec", "options", "printed"),
    [
        ("ndcg", {}, "ndcg"),
        ("ndcg@10", {}, "ndcg@10"),
        ("ndcg_cut.10", {}, "ndcg@10"),
        ("ndcg@10", {"gain": "exp2"}, "ndcg@10(gain=exp2)"),
        ("ndcg@5(discount='power(beta=0.5)')", {"gain": "exp2"}, "ndcg@5(gain=exp2,discount=power(beta=0.5))"),
        ("ndcg.1=3,2=9", {}, "ndcg(gains={1:3,2:9})"),
        ("ndcg", {"discount": "zipf", "convention": "sklearn"}, "ndcg(discount=zipf,convention=sklearn)"),
        ("ndcg@3", {"ties": "average"}, "ndcg@3(ties=average)"),
        ("ndcg", {"convention": "trec_eval"}, "ndcg"),  # the default is not printed
        ("ndcg", {"convention": "scikit-learn"}, "ndcg(convention=sklearn)"),  # an alias prints as its preset
    ],
)
def test_prints_as_the_packages_canonical_spec_and_parses_back(spec, options, printed):
    measure = ir_measure(spec, **options)
    assert repr(measure) == str(measure) == printed
    again = ir_measure(printed)
    assert again == measure and hash(again) == hash(measure)
    assert isinstance(measure, ir_measures.Measure)


def test_measures_derive_as_ir_measures_measures_do():
    measure = ir_measure("ndcg", gain="exp2")
    assert repr(measure @ 10) == "ndcg@10(gain=exp2)"
    assert repr(measure(discount="zipf")) == "ndcg(gain=exp2,discount=zipf)"
    assert ir_measure("ndcg@10") != ir_measure("ndcg@10", convention="sklearn")  # told apart in result dicts
    assert repr(ir_measure("ndcg", gain=ir_measures_gain())) == "ndcg(gain=exp2)"  # a Gain object prints by name


def ir_measures_gain():
    import ndcg_research as nr

    return nr.parse_gain("exp2")


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: ir_measure("map"), ValueError, "unknown measure 'map' (nDCG only); valid measures"),
        (lambda: ir_measure("ndcg_cut"), ValueError, "spec must name one measure"),
        (lambda: ir_measure(10), TypeError, "spec must be a measure spec (e.g. 'ndcg@10'), got int 10"),
        (lambda: ir_measure("ndcg@10(gain=exp2)", gain="linear"), ValueError, "gain is given twice"),
        (lambda: ir_measure("ndcg", gain="square"), ValueError, "unknown gain 'square'"),
        (lambda: ir_measure("ndcg", discount=lambda r: 1 / r), TypeError, "discount must be a built-in discount"),
        (lambda: ir_measure("ndcg", ties="random"), ValueError, "ties must be one of 'docno', 'input', 'average'"),
        (lambda: ir_measure("ndcg", convention="trec"), ValueError, "unknown convention 'trec'; valid conventions"),
        (lambda: ir_measure("ndcg") @ 0, ValueError, "cutoff must be an integer >= 1, got 0"),
        (lambda: ir_measure("ndcg")(depth=3), TypeError, "unknown option(s) depth"),
        # every option of a spec is listed (ties and convention were left out), and only ASCII digits are a cut-off
        (
            lambda: ir_measure("ndcg@10(CONVENTION=sklearn)"),
            ValueError,
            "unknown option 'CONVENTION' in spec 'ndcg@10(CONVENTION=sklearn)'; options: gain, discount, gains, ties, "
            "convention",
        ),
        (lambda: ir_measure("ndcg@\u0661\u0660"), ValueError, "unknown measure 'ndcg@\u0661\u0660'"),
        (lambda: ir_measure("ndcg@\uff11\uff10"), ValueError, "unknown measure"),
    ],
)
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert message in str(raised.value)


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("seed", range(4))
def test_trec_eval_rules_agree_with_ir_measures_own_ndcg(seed):
    # ir_measures' nDCG runs trec_eval (pytrec_eval; the exponential gain as trec_eval's gain map 2^g - 1);
    # ours runs the package's evaluator.
    qrels, run = collection(seed)
    pairs = [
        (ir_measure("ndcg"), ir_measures.nDCG),
        (ir_measure("ndcg@5"), ir_measures.nDCG @ 5),
        (ir_measure("ndcg@5", gain="exp2"), ir_measures.nDCG(gains={0: 0, 1: 1, 2: 3, 3: 7}) @ 5),
    ]
    for ours, theirs in pairs:
        a, b = per_query(ours, qrels, run), per_query(theirs, qrels, run)
        assert a.keys() == b.keys()
        assert all(math.isclose(a[q], b[q], rel_tol=1e-6, abs_tol=1e-9) for q in a), (ours, a, b)
        agg = ir_measures.calc_aggregate([ours, theirs], qrels, run)
        assert math.isclose(agg[ours], agg[theirs], rel_tol=1e-6)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    ("spec", "options"),
    [
        ("ndcg", {"discount": "zipf"}),
        ("ndcg@5", {"gain": "exp2", "discount": "power(beta=0.5)"}),
        ("ndcg@10", {"discount": "geometric(p=0.8)", "ties": "average"}),
        ("ndcg", {"convention": "sklearn"}),
        ("ndcg@5", {"convention": "lightgbm"}),
        ("ndcg", {"convention": "ranx", "ties": "input"}),
        ("ndcg(gains={1: 2, 3: 10})", {}),
    ],
)
def test_values_are_the_evaluators(seed, spec, options):
    qrels, run = collection(seed, ties=True)
    measure = ir_measure(spec, **options)
    convention = options.get("convention", "trec_eval")
    if "ties" in options:
        from dataclasses import replace

        from ndcg_research.evaluation import get_convention

        convention = replace(get_convention(convention), ties=options["ties"])
    spec_only = ir_measure(spec, gain=options.get("gain"), discount=options.get("discount"))
    ours_qrels, ours_run = package_columns(qrels, run)
    expected = evaluate(ours_qrels, {"r": ours_run}, repr(spec_only), convention=convention, complete=True)
    reference = dict(zip(expected.queries[0], expected.values[0][0], strict=True))
    got = per_query(measure, qrels, run)
    # Every judged query gets a value (0 where the run has none); the unjudged query none.
    assert set(got) == set(qrels["query_id"]) and set(reference) <= set(got)
    assert all(got[q] == reference.get(q, 0.0) for q in got)
    mean = ir_measures.calc_aggregate([measure], qrels, run)[measure]
    assert math.isclose(mean, float(expected.means.iloc[0, 0]), rel_tol=1e-12)


def test_every_input_ir_measures_reads():
    qrels, run = collection(7)
    measure = ir_measure("ndcg@5", discount="zipf")
    expected = ir_measures.calc_aggregate([measure], qrels, run)[measure]
    as_tuples = (
        [ir_measures.Qrel(*row) for row in qrels.itertuples(index=False)],
        [ir_measures.ScoredDoc(*row) for row in run.itertuples(index=False)],
    )
    as_dicts = (
        {q: dict(zip(g.doc_id, g.relevance, strict=True)) for q, g in qrels.groupby("query_id")},
        {q: dict(zip(g.doc_id, g.score, strict=True)) for q, g in run.groupby("query_id")},
    )
    for q, r in (as_tuples, as_dicts):
        assert ir_measures.calc_aggregate([measure], q, r)[measure] == expected
    # Integer query ids come back as the qrels' own ids: each query once, none given the default twice.
    numbered = (
        qrels.assign(query_id=qrels["query_id"].str[1:].astype(int)),
        run[run["query_id"] != "unjudged"].assign(query_id=lambda r: r["query_id"].str[1:].astype(int)),
    )
    metrics = list(ir_measures.iter_calc([measure], *numbered))
    assert sorted(m.query_id for m in metrics) == sorted(numbered[0]["query_id"].unique())
    assert ir_measures.calc_aggregate([measure], *numbered)[measure] == pytest.approx(expected, rel=1e-15)
    # Integer ids in the qrels and their text in the run are the same queries (ids are compared as text, as
    # the evaluator does); a type-sensitive filter emptied the run and scored every query 0.
    mixed = (numbered[0], numbered[1].assign(query_id=numbered[1]["query_id"].astype(str)))
    assert ir_measures.calc_aggregate([measure], *mixed)[measure] == pytest.approx(expected, rel=1e-15)
    # A run that answers no judged query: every judged query scores 0, as ir_measures does.
    empty = pd.DataFrame({"query_id": ["other"], "doc_id": ["d1"], "score": [1.0]})
    assert ir_measures.calc_aggregate([measure], qrels, empty)[measure] == 0.0


def test_run_errors_are_the_evaluators():
    qrels, run = collection(1)
    twice = pd.concat([run, run.iloc[:1]], ignore_index=True)
    with pytest.raises(Exception, match="twice"):
        ir_measures.calc_aggregate([ir_measure("ndcg")], qrels, twice)


def test_undefined_values_are_left_out_of_the_mean():
    # The aggregator averages the values that are not NaN (a query the convention leaves undefined).
    agg = ir_measure("ndcg").aggregator()
    for value in (0.5, float("nan"), 1.0):
        agg.add(value)
    assert agg.result() == 0.75


def test_importing_the_module_does_not_import_ir_measures():
    code = "import sys, ndcg_research.interop; print('ir_measures' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------- PyTerrier


def test_pyterrier_experiment_takes_the_measure():
    pt = pytest.importorskip("pyterrier")
    qrels, run = collection(3)
    topics = pd.DataFrame({"qid": sorted(run["query_id"].unique()), "query": "text"})
    pt_qrels = qrels.rename(columns={"query_id": "qid", "doc_id": "docno", "relevance": "label"})
    results = {
        name: run.assign(score=run["score"] * sign).rename(columns={"query_id": "qid", "doc_id": "docno"})
        for name, sign in (("up", 1.0), ("down", -1.0))
    }
    systems = [pt.Transformer.from_df(frame) for frame in results.values()]
    measures = [ir_measure("ndcg@10"), ir_measure("ndcg", discount="zipf", gain="exp2"), ir_measures.nDCG @ 10]
    table = pt.Experiment(systems, topics, pt_qrels, eval_metrics=measures, names=list(results)).set_index("name")
    # pt.Experiment evaluates the topics' queries: the qrels of the other queries are set aside.
    topic_qrels = qrels[qrels["query_id"].isin(topics["qid"])]
    for name, frame in results.items():
        renamed = frame.rename(columns={"qid": "query_id", "docno": "doc_id"})
        ours_qrels, ours_run = package_columns(topic_qrels, renamed)
        expected = evaluate(
            ours_qrels, {name: ours_run}, ["ndcg@10", "ndcg(gain=exp2,discount=zipf)"], complete=True
        ).means
        assert math.isclose(table.loc[name, "ndcg@10"], table.loc[name, "nDCG@10"], rel_tol=1e-6)
        assert math.isclose(table.loc[name, "ndcg@10"], expected.loc[name, "ndcg@10"], rel_tol=1e-12)
        assert math.isclose(
            table.loc[name, "ndcg(gain=exp2,discount=zipf)"],
            expected.loc[name, "ndcg(gain=exp2,discount=zipf)"],
            rel_tol=1e-12,
        )


@pytest.mark.parametrize(
    ("spec", "rest", "extra"),
    [
        ("ndcg(ties=average)", "ndcg", {"ties": "average"}),
        ("ndcg( ties = 'average' , discount=zipf)", "ndcg( discount=zipf)", {"ties": "average"}),
        ("ndcg@3(discount=zipf , convention=sklearn )", "ndcg@3(discount=zipf )", {"convention": "sklearn"}),
        ("ndcg(gain='mapping({0: 0, 1: 1})',ties=docno)", "ndcg(gain='mapping({0: 0, 1: 1})')", {"ties": "docno"}),
        (
            "ndcg(discount=power(beta=0.5),convention=xgboost-)",
            "ndcg(discount=power(beta=0.5))",
            {"convention": "xgboost-"},
        ),
        ("ndcg_cut.10", "ndcg_cut.10", {}),
        ("ndcg(discount=zipf)", "ndcg(discount=zipf)", {}),
    ],
)
def test_the_measure_options_are_taken_out_of_a_printed_spec(spec, rest, extra):
    from ndcg_research.interop import _extra_options

    assert _extra_options(spec) == (rest, extra)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ndcg(ties='a,b')", "ties must be one of 'docno', 'input', 'average', got 'a,b'"),
        ("ndcg(ties=(average))", "ties must be one of 'docno', 'input', 'average', got '(average)'"),
        ("ndcg(convention=trec_eval)x", "unknown measure 'ndcg(convention=trec_eval)x'"),
        # given twice, the first was dropped silently (the last kept); an unclosed quote and an empty option passed
        ("ndcg(ties=average,ties=docno)", "ties is given twice in spec 'ndcg(ties=average,ties=docno)'"),
        ("ndcg(convention=sklearn, convention=ranx)", "convention is given twice in spec"),
        ("ndcg@10(ties='average)", "ties='average in spec \"ndcg@10(ties='average)\" opens a quote"),
        ("ndcg@10(,ties=average)", "spec 'ndcg@10(,ties=average)' has an empty option between its commas"),
    ],
)
def test_a_malformed_measure_option_is_refused_as_written(spec, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ir_measure(spec)


def test_ir_measure_checks_the_whole_run_before_leaving_out_unjudged_queries():
    # The run's queries are matched to the qrels' as text: float ids (1.0) matched none and every query scored
    # ir_measures' default 0, silently; a NaN score in an unjudged query passed. Refused, as evaluate refuses them.
    from ndcg_research.evaluation import InputError

    qrels = pd.DataFrame({"query_id": [1, 1, 2], "doc_id": ["a", "b", "a"], "relevance": [2, 0, 1]})
    run = pd.DataFrame({"query_id": [1.0, 1.0, 2.0], "doc_id": ["a", "b", "a"], "score": [0.5, 0.9, 0.5]})
    with pytest.raises(InputError, match="holds floats"):
        ir_measures.calc_aggregate([ir_measure("ndcg")], qrels, run)
    run = pd.DataFrame({"query_id": ["1", "1", "9"], "doc_id": ["a", "b", "a"], "score": [0.5, 0.9, np.nan]})
    with pytest.raises(InputError, match="score"):
        ir_measures.calc_aggregate([ir_measure("ndcg")], qrels.astype({"query_id": str}), run)


def test_ir_measure_warns_what_the_evaluator_notes():
    # ir_measures has no place for notes: a query the preset leaves undefined (scikit-learn refuses one document)
    # would leave the mean without a word.
    qrels = [ir_measures.Qrel("q1", "a", 2), ir_measures.Qrel("q1", "b", 0), ir_measures.Qrel("q2", "a", 1)]
    run = [ir_measures.ScoredDoc("q1", "b", 0.9), ir_measures.ScoredDoc("q1", "a", 0.5)]
    run.append(ir_measures.ScoredDoc("q2", "a", 0.5))
    with pytest.warns(UserWarning, match=r"1 query is undefined under the sklearn convention \('q2'\)"):
        result = ir_measures.calc_aggregate([ir_measure("ndcg", convention="sklearn")], qrels, run)
    assert list(result.values()) == [pytest.approx(2 / math.log2(3) / 2)]  # q1 alone: b (grade 0), then a (2)


def test_the_evaluators_other_notes_reach_ir_measures_users_as_warnings():
    # ranx orders ties in lists of 16 or more by an unstable sort, which the preset does not reproduce: evaluate notes
    # it, and ir_measures (which has no place for notes) gave the value without a word. Queries the run leaves out are
    # ir_measures' own business (its default): no warning for them.
    qrels = [ir_measures.Qrel("q1", f"d{i}", i % 4) for i in range(20)] + [ir_measures.Qrel("q2", "a", 1)]
    run = [ir_measures.ScoredDoc("q1", f"d{i}", float(i % 2)) for i in range(20)]
    with pytest.warns(UserWarning) as warned:
        ir_measures.calc_aggregate([ir_measure("ndcg@5", convention="ranx")], qrels, run)
    messages = [str(w.message) for w in warned]
    assert len(messages) == 1
    assert "tied scores in a list of 16 or more documents, where ranx orders ties by an unstable sort" in messages[0]


def test_notes_on_what_ir_measures_scores_alike_are_not_warned():
    # q2 has no relevant judgment (ideal DCG 0: scored 0 by trec_eval's rules, as ir_measures scores it) and the run's
    # q3 has no judgments (ir_measures ignores it): no warning. XGBoost's preset scores such a query 1: warned.
    qrels = [ir_measures.Qrel("q1", "a", 1), ir_measures.Qrel("q2", "a", 0)]
    run = [ir_measures.ScoredDoc(q, "a", 1.0) for q in ("q1", "q2", "q3")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = ir_measures.calc_aggregate([ir_measure("ndcg@10")], qrels, run)
    assert list(values.values()) == [0.5]
    with pytest.warns(UserWarning, match=r"1 query has ideal DCG 0 .*; scored 1 \(xgboost\)"):
        values = ir_measures.calc_aggregate([ir_measure("ndcg@10", convention="xgboost")], qrels, run)
    assert list(values.values()) == [1.0]


def test_scores_equal_in_float32_tie_only_under_the_pytrec_eval_convention():
    # ir_measures' nDCG runs pytrec_eval, which keeps scores as float32: 12.3456781 and 12.3456780 are one float32,
    # a tie ordered by document id descending (b before a: nDCG 1); trec_eval 10 keeps them apart (a first: 1/log2 3).
    qrels = [ir_measures.Qrel("q", "a", 0), ir_measures.Qrel("q", "b", 1)]
    run = [ir_measures.ScoredDoc("q", "a", 12.3456781), ir_measures.ScoredDoc("q", "b", 12.3456780)]
    assert np.float32(12.3456781) == np.float32(12.3456780)
    ours, like_pytrec_eval = ir_measure("ndcg"), ir_measure("ndcg", convention="pytrec_eval")
    values = ir_measures.calc_aggregate([ours, like_pytrec_eval, ir_measures.nDCG], qrels, run)
    assert values[ours] == pytest.approx(1 / math.log2(3))
    assert values[like_pytrec_eval] == values[ir_measures.nDCG] == pytest.approx(1.0)


def test_ir_measure_scores_an_empty_run_as_ir_measures_does():
    # A pipeline that retrieves nothing: ir_measures gives every judged query its default 0 (evaluate refuses an
    # empty run, and that refusal came out of ir_measures).
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    for run in ([], pd.DataFrame({"query_id": [], "doc_id": [], "score": []})):
        assert ir_measures.calc_aggregate([ir_measure("ndcg@10")], qrels, run)[ir_measure("ndcg@10")] == 0.0


def test_bytes_query_ids_are_matched_as_the_evaluator_matches_them():
    # The qrels' b"1" was looked up as "b'1'": a KeyError traceback, where evaluate gives the value.
    qrels = pd.DataFrame({"query_id": [b"1", b"1", b"2"], "doc_id": ["a", "b", "a"], "relevance": [2, 0, 1]})
    run = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["b", "a", "a"], "score": [0.5, 0.3, 0.2]})
    # q1: b (grade 0) above a (grade 2): (2 / log2 3) / 2; q2: a alone, 1. By hand.
    expected = (1 / math.log2(3) + 1) / 2
    assert evaluate(qrels, run).mean() == pytest.approx(expected, abs=1e-15)
    measure = ir_measure("ndcg")
    assert ir_measures.calc_aggregate([measure], qrels, run)[measure] == pytest.approx(expected, abs=1e-15)


def test_a_query_gdeval_does_not_evaluate_is_warned_of_as_ir_measures_scores_it():
    # gdeval leaves out a query without a relevant document; ir_measures gives it its default, 0. The warning said
    # only "not evaluated (gdeval)", beside a mean that counts it as 0.
    qrels = [ir_measures.Qrel("q1", "a", 1), ir_measures.Qrel("q2", "a", 0)]
    run = [ir_measures.ScoredDoc(q, "a", 1.0) for q in ("q1", "q2")]
    measure = ir_measure("ndcg", convention="gdeval")
    with pytest.warns(UserWarning, match=r"not evaluated \(gdeval\); ir_measures scores such a query 0"):
        values = ir_measures.calc_aggregate([measure], qrels, run)
    assert values[measure] == 0.5  # q1: 1, q2: 0


def test_the_install_hint_names_what_can_be_installed(monkeypatch):
    # "pip install 'ndcg_research[ecosystem]'": the package is not on PyPI under that name.
    monkeypatch.setitem(sys.modules, "ir_measures", None)  # import ir_measures fails
    monkeypatch.delitem(sys.modules, "ndcg_research.interop._ir_measures", raising=False)
    with pytest.raises(ImportError, match=r"pip install '\.\[ecosystem\]' in the package's folder"):
        ir_measure("ndcg")


def test_the_spec_options_listed_are_the_evaluators():
    from ndcg_research import interop
    from ndcg_research.evaluation import _measures

    assert interop.SPEC_OPTIONS == _measures.SPEC_OPTIONS


def test_pyterrier_keeps_one_column_per_name_and_the_guide_says_how_to_keep_both():
    # pt.Experiment named both ours and its own "ndcg" `ndcg` and kept one of two different values (review t13).
    pt = pytest.importorskip("pyterrier")
    topics = pd.DataFrame({"qid": ["1"], "query": ["x"]})
    qrels = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "label": [0, 1]})
    system = pt.Transformer.from_df(pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "score": [1.0 + 1e-9, 1.0]}))
    # By hand: float32 ties the scores, and trec_eval 9 orders the tie by docno descending (b first): nDCG 1. In
    # float64 a ranks first: DCG = 1/log2(3), ideal 1.
    table = pt.Experiment([system], topics, qrels, names=["s"], eval_metrics=[ir_measures.nDCG, ir_measure("ndcg")])
    assert table["nDCG"].iloc[0] == pytest.approx(1.0) and table["ndcg"].iloc[0] == pytest.approx(1 / math.log2(3))
    guide = " ".join((Path(__file__).resolve().parents[1] / "docs/guides/ecosystem.md").read_text().split())
    assert "gives a single `ndcg` column and silently drops one of two values" in guide
    assert 'eval_metrics=[ir_measures.nDCG, nr.ir_measure("ndcg")]' in guide
