"""Each class of silent wrong answer or crash that the adversarial trials found (issue 24), one test per class.

Every test here failed before the fix it guards (the hash-table and comment classes with the exact
inputs of the trials: a pair of 8-byte ids whose 64-bit hashes collided in the former hand-built table,
one query with 40,000 judgments, a 32 KB document id). Expected values are computed by hand from
trec_eval's code (its files are cited where a rule comes from), never copied from this package's output.
"""

from __future__ import annotations

import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from ndcg_research.cli import main
from ndcg_research.evaluation import InputError, NoJudgedQuery, evaluate, read_run
from ndcg_research.evaluation._readers import predictions_columns, svmlight_columns


def _dcg(gains):
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


def cli(capfdbinary, *args):
    status = main([*map(str, args)])
    out, err = capfdbinary.readouterr()
    return status, out, err.decode(errors="replace")


# ---------------------------------------------------------------- regressions


def test_max_docs_cuts_the_ranking_before_judged_only_removes_unjudged_documents(tmp_path, capfdbinary):
    # form_res_rels.c: the ranking is cut to -M documents first, then -J keeps the judged ones among them.
    (tmp_path / "qrels").write_text("q 0 a 2\nq 0 b 1\n")
    (tmp_path / "run").write_text("q Q0 u 1 3 r\nq Q0 a 2 2 r\nq Q0 b 3 1 r\n")
    expected = _dcg([2]) / _dcg([2, 1])  # [u, a] cut at 2, then u dropped: a alone
    result = evaluate(tmp_path / "qrels", tmp_path / "run", "ndcg", judged_only=True, max_docs=2)
    assert result.values[0][0, 0] == pytest.approx(expected, rel=1e-15)
    status, out, _ = cli(capfdbinary, "evaluate", "-J", "-M", "2", "-m", "ndcg", tmp_path / "qrels", tmp_path / "run")
    assert status == 0 and out.decode() == f"ndcg                  \tall\t{expected:6.4f}\n"


def test_qrels_judging_trec_eval_placeholder_for_a_query_without_ranking_are_refused(tmp_path, capfdbinary):
    # trec_eval.c: with -c, a judged query missing from the run is ranked as the one document
    # "ceci_nest_pas_un_docno" (score 1.0); judged relevant, trec_eval scores q2 1.0 where 0 is given here.
    (tmp_path / "qrels").write_text("q1 0 a 1\nq2 0 ceci_nest_pas_un_docno 1\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 1 r\n")
    with pytest.raises(
        InputError,
        match=r"query 'q2', which .* does not rank, judges the document 'ceci_nest_pas_un_docno' with gain 1",
    ):
        evaluate(tmp_path / "qrels", tmp_path / "run")
    status, out, err = cli(capfdbinary, "evaluate", "-c", "-q", tmp_path / "qrels", tmp_path / "run")
    assert status == 1 and out == b"" and "ceci_nest_pas_un_docno" in err and err.count("\n") == 1
    assert evaluate(tmp_path / "qrels", tmp_path / "run", complete=False).values[0].tolist() == [[1.0]]
    # Judged 0, it gains nothing and trec_eval prints 0 too: evaluated; a gain map that gives grade 0 a gain refuses.
    (tmp_path / "qrels").write_text("q1 0 a 1\nq2 0 ceci_nest_pas_un_docno 0\nq2 0 b 1\n")
    assert evaluate(tmp_path / "qrels", tmp_path / "run").values[0].tolist() == [[1.0, 0.0]]
    with pytest.raises(InputError, match=r"judges the document 'ceci_nest_pas_un_docno' with gain 1 under ndcg_0=1"):
        evaluate(tmp_path / "qrels", tmp_path / "run", "ndcg.0=1")
    # -M 0 cuts every ranking, the placeholder's too: trec_eval prints 0 for both queries, as here.
    (tmp_path / "qrels").write_text("q1 0 a 1\nq2 0 ceci_nest_pas_un_docno 1\n")
    status, out, _ = cli(capfdbinary, "evaluate", "-c", "-q", "-M", "0", tmp_path / "qrels", tmp_path / "run")
    assert status == 0 and out.decode().split() == [
        "ndcg",
        "q1",
        "0.0000",
        "ndcg",
        "q2",
        "0.0000",
        *"ndcg all 0.0000".split(),
    ]


@pytest.mark.parametrize("content", [b"", b"# only a comment\n", b"\n\n"])
def test_a_run_file_without_data_lines_is_refused_saying_what_trec_eval_does(tmp_path, capfdbinary, content):
    # get_trec_results.c: "Cannot read results file" for an empty file; a file of blank or comment lines stops it
    # without -c and is scored 0 for every judged query with -c. Refused here, with each case said.
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    (tmp_path / "run").write_bytes(content)
    with pytest.raises(InputError, match=r"run: no data lines"):
        evaluate(tmp_path / "qrels", tmp_path / "run")
    status, out, err = cli(capfdbinary, "evaluate", "-c", tmp_path / "qrels", tmp_path / "run")
    assert status == 1 and out == b"" and "no data lines" in err
    assert (
        "refuses an empty run file" in err
        and "stops on one of blank or comment lines (under -c it scores every judged query 0)" in err
    )


def test_an_empty_run_on_standard_input_is_refused_saying_what_trec_eval_does_there(tmp_path, monkeypatch, capfdbinary):
    # trec_eval reads an empty standard input as a file of blank lines (it stops; under -c it scores 0), not as an
    # empty file ("Cannot read results file"), which the message said
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    status, out, err = cli(capfdbinary, "evaluate", "-c", tmp_path / "qrels", "-")
    assert status == 1 and out == b"" and "standard input: no data lines" in err
    assert "trec_eval stops on an empty run from standard input (under -c it scores every judged query 0)" in err
    assert "empty run file" not in err


# ---------------------------------------------------------------- ids: matched by a library, exactly


def test_one_query_with_thirty_thousand_judgments(tmp_path):
    n = 30_000  # the former hash table recursed once per overflow level: a RecursionError here
    (tmp_path / "qrels").write_text("".join(f"q 0 d{i} {i % 3}\n" for i in range(n)))
    (tmp_path / "run").write_text("q Q0 d2 1 9 r\nq Q0 d1 2 8 r\nq Q0 x 3 7 r\n")
    grades = sorted((i % 3 for i in range(n)), reverse=True)
    expected = _dcg([2, 1, 0]) / _dcg(grades)
    assert evaluate(tmp_path / "qrels", tmp_path / "run").values[0][0, 0] == pytest.approx(expected, rel=1e-12)


def test_a_32_kb_document_id_in_a_50000_line_run(tmp_path):
    docs = ["L" * 32_768 if i == 25_000 else f"doc{i}" for i in range(50_000)]
    (tmp_path / "qrels").write_text("".join(f"q 0 {d} {i % 4}\n" for i, d in enumerate(docs)))
    (tmp_path / "run").write_text("".join(f"q Q0 {d} {i + 1} {50_000 - i} r\n" for i, d in enumerate(docs)))
    grades = [i % 4 for i in range(50_000)]
    expected = _dcg(grades) / _dcg(sorted(grades, reverse=True))
    assert evaluate(tmp_path / "qrels", tmp_path / "run").values[0][0, 0] == pytest.approx(expected, rel=1e-12)


# Two 8-byte ids whose 64-bit hashes were equal in the former hand-built hash table (found by inverting
# its hash function): a repeated id beside its twin went unnoticed in the qrels and crashed the run.
TWINS = ("habeW(5:", "Z_)MFd*r")


def test_a_document_judged_twice_is_found_by_value_whatever_its_hash(tmp_path):
    x, y = TWINS
    (tmp_path / "qrels").write_text(f"q 0 {x} 1\nq 0 {y} 0\nq 0 {x} 2\n")
    (tmp_path / "run").write_text(f"q Q0 {x} 1 1 r\nq Q0 {y} 2 2 r\n")
    with pytest.raises(
        InputError,
        match=rf"qrels:1: document '{re.escape(x)}' is judged twice for query 'q' \(again at "
        rf".*qrels:3\)",
    ):
        evaluate(tmp_path / "qrels", tmp_path / "run")


def test_a_document_ranked_twice_is_found_by_value_whatever_its_hash(tmp_path):
    x, y = TWINS
    (tmp_path / "qrels").write_text(f"q 0 {x} 1\nq 0 {y} 0\n")
    (tmp_path / "run").write_text(f"q Q0 {x} 1 1 r\nq Q0 {y} 2 2 r\nq Q0 {x} 3 3 r\n")
    with pytest.raises(
        InputError,
        match=rf"run:1: document '{re.escape(x)}' is ranked twice for query 'q' \(again at "
        rf".*run:3\)",
    ):
        evaluate(tmp_path / "qrels", tmp_path / "run")


def test_a_document_ranked_twice_far_apart_in_a_query_of_several_megabytes(tmp_path):
    # The parser reads a block in chunks of 1 MB, each with its own dictionary of ids: a query that spans
    # chunks is checked across them.
    (tmp_path / "qrels").write_text("q 0 d1 1\n")
    lines = [f"q Q0 d{i} {i} {100_000 - i} r\n" for i in range(100_000)]
    lines[-3] = "q Q0 d5 99997 3 r\n"  # d5 again, some 2 MB after its first line
    (tmp_path / "run").write_text("p Q0 d1 1 1 r\n" + "".join(lines))
    with pytest.raises(
        InputError, match=r"run:7: document 'd5' is ranked twice for query 'q' \(again at .*run:99999\)"
    ):
        evaluate(tmp_path / "qrels", tmp_path / "run")


def test_a_document_ranked_twice_counts_among_the_documents_max_docs_keeps(tmp_path):
    # form_res_rels.c cuts the ranking to -M documents, then looks for a document given twice among them.
    (tmp_path / "qrels").write_text("q 0 a 1\nq 0 b 2\n")
    (tmp_path / "run").write_text("q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 a 3 1 r\n")
    assert evaluate(tmp_path / "qrels", tmp_path / "run", max_docs=2).values[0][0, 0] == pytest.approx(
        _dcg([1, 2]) / _dcg([2, 1])
    )
    with pytest.raises(InputError, match=r"run:1: document 'a' is ranked twice for query 'q' \(again at .*run:3\)"):
        evaluate(tmp_path / "qrels", tmp_path / "run", max_docs=3)


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize("text, prefix", [("0.99999999999999999", 0), ("1.9999999999999999", 1), ("2.5", 2)])
def test_a_fractional_grade_is_never_rounded_into_an_integer(tmp_path, text, prefix):
    # get_qrels.c reads grades with atol: the integer prefix. Integer presets refuse a fraction (naming what
    # atol would read); the presets of real-valued labels read the number.
    (tmp_path / "qrels").write_text(f"q 0 a {text}\nq 0 b 1\n")
    (tmp_path / "run").write_text("q Q0 a 1 2 r\nq Q0 b 2 1 r\n")
    with pytest.raises(InputError, match=rf"qrels:1: grade '{text}' is not an integer.*atol would read {prefix}"):
        evaluate(tmp_path / "qrels", tmp_path / "run")
    value = float(text)
    result = evaluate(tmp_path / "qrels", tmp_path / "run", convention="sklearn")
    assert result.values[0][0, 0] == pytest.approx(_dcg([value, 1]) / _dcg(sorted([value, 1], reverse=True)))


@pytest.mark.parametrize("grade, prefix", [(1e-05, 1), (2.5e-07, 2), (0.5, 0)])
def test_a_fractional_grade_in_exponent_notation_names_what_atol_reads(tmp_path, grade, prefix):
    # A frame's grade is named by its repr, '1e-05': int() of it used to end in a bare ValueError.
    text = repr(grade)
    qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "relevance": [grade, 1.0]})
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    with pytest.raises(InputError, match=rf"grade '{re.escape(text)}' is not an integer.*atol would read {prefix}\)"):
        evaluate(qrels, run)
    (tmp_path / "qrels").write_text(f"q 0 a {text}\nq 0 b 1\n")
    (tmp_path / "run").write_text("q Q0 a 1 2 r\nq Q0 b 2 1 r\n")
    with pytest.raises(
        InputError,
        match=rf"qrels:1: (grade|relevance) '{re.escape(text)}' .*atol (reads|would read) {prefix}\b",
    ):
        evaluate(tmp_path / "qrels", tmp_path / "run")


def test_integral_grades_written_with_a_fraction_read_as_integers(tmp_path):
    (tmp_path / "qrels").write_text("q 0 a 2.000\nq 0 b 1.\nq 0 c -1.0\n")
    (tmp_path / "run").write_text("q Q0 b 1 2 r\nq Q0 a 2 1 r\n")
    assert evaluate(tmp_path / "qrels", tmp_path / "run").values[0][0, 0] == pytest.approx(_dcg([1, 2]) / _dcg([2, 1]))


@pytest.mark.parametrize(
    "measure, gains", [("ndcg.1=2", {1: 2}), ("ndcg(gains={10000000000: 3})", {10**10: 3}), ("ndcg.0=1", {0: 1})]
)
def test_gain_maps_with_grades_far_beyond_the_listed_ones(tmp_path, measure, gains):
    # gain_init.c: a listed grade gets its gain, any other grade itself; nothing is left out. (ranx's rules:
    # trec_eval's own sort of these gains is undefined, see the next test.)
    (tmp_path / "qrels").write_text("p 0 a 1\nq 0 a 10000000000\nq 0 b 1\nq 0 c 0\n")
    (tmp_path / "run").write_text("p Q0 a 1 1 r\nq Q0 b 1 3 r\nq Q0 a 2 2 r\nq Q0 c 3 1 r\n")
    result = evaluate(tmp_path / "qrels", tmp_path / "run", measure, convention="ranx")
    gain = lambda g: float(gains.get(g, g))  # noqa: E731
    q_list = [gain(1), gain(10**10), gain(0)]
    expected = _dcg(q_list) / _dcg(sorted([g for g in q_list if g > 0], reverse=True))
    assert list(result.queries[0]) == ["p", "q"] and not result.notes
    assert result.values[0][0, 1] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    "measure", ["ndcg.2=3e9", "ndcg.1=4294967296", "ndcg.1=1e10,2=2e10", "ndcg.1=3000000000,2=3100000000", "ndcg.1=2"]
)
def test_gains_2_to_the_31_apart_are_refused_under_trec_eval_rules(tmp_path, capfdbinary, measure):
    # gain_init.c sorts gain levels with comp_rel_gain, which returns the difference of two gains as a C int:
    # 2^31 or more apart, the conversion overflows and the order is undefined (trec_eval prints nDCG
    # 1500000000.6309 for ndcg.2=3e9 here). Level 0 always takes part, with gain 0 unless listed: 3e9 and 3.1e9
    # are close, but 3e9 from 0 (trec_eval prints 0.0000). The last case: grade 10^10 keeps gain 10^10.
    grade = 10**10 if measure == "ndcg.1=2" else 2
    (tmp_path / "qrels").write_text(f"q 0 a 1\nq 0 b {grade}\nq 0 c 0\n")
    (tmp_path / "run").write_text("q Q0 c 1 3 r\nq Q0 a 2 2 r\nq Q0 b 3 1 r\n")
    with pytest.raises(ValueError, match=r"are 2\^31 or more apart; trec_eval sorts gain levels"):
        evaluate(tmp_path / "qrels", tmp_path / "run", measure)
    status, out, err = cli(capfdbinary, "evaluate", "-m", measure, tmp_path / "qrels", tmp_path / "run")
    assert status == 1 and out == b"" and err.count("\n") == 1 and "2^31 or more apart" in err
    if grade == 2:  # gains just less than 2^31 apart: computed
        value = evaluate(tmp_path / "qrels", tmp_path / "run", "ndcg.2=2147483647").values[0][0, 0]
        assert value == pytest.approx(_dcg([0, 1, 2**31 - 1]) / _dcg([2**31 - 1, 1]), rel=1e-15)


def _trec_eval_ndcg(ranked_gains, ideal_gains):
    """m_ndcg.c's loops, transcribed: each gain divided by C's log2(rank + 1), added one by one in rank order."""
    dcg = ideal = 0.0
    for i, gain in enumerate(ranked_gains):
        if gain != 0:
            dcg += gain / math.log2(i + 2)
    for i, gain in enumerate(ideal_gains):
        ideal += gain / math.log2(i + 2)
    return dcg / ideal


def test_values_are_trec_eval_s_to_the_last_bit_even_at_a_rounding_boundary(tmp_path, capfdbinary):
    # An adversarial probe tuned a gain so that the value lies 2e-17 below 0.92715: summed in another order (or
    # multiplied by 1/log2), it came out at 0.92715000000000003 and printed 0.9272 where trec_eval prints 0.9271.
    grades = [1, 4, 2, 4, 4, 1, 1, 2]
    (tmp_path / "qrels").write_text("".join(f"q 0 d{i} {g}\n" for i, g in enumerate(grades)))
    (tmp_path / "run").write_text("".join(f"q Q0 d{i} {i + 1} {8 - i} t\n" for i in range(8)))
    gain = {1: 6.530748891221026, 2: 2.0, 4: 4.0}
    expected = _trec_eval_ndcg([gain[g] for g in grades], sorted((gain[g] for g in grades), reverse=True))
    measure = "ndcg.1=6.530748891221026"
    assert evaluate(tmp_path / "qrels", tmp_path / "run", measure).values[0][0, 0] == expected
    status, out, _ = cli(capfdbinary, "evaluate", "-m", measure, tmp_path / "qrels", tmp_path / "run")
    assert status == 0 and out.decode() == f"{'ndcg_1=6.530748891221026':<22}\tall\t0.9271\n"
    assert f"{expected:6.4f}" == "0.9271"


@pytest.mark.parametrize(
    "text, reads",
    [("0x1p1", "2"), ("0x10", "16"), ("1_0", "1"), ("nan", "nan"), ("-INF", "-inf")]
    + [("0x1p99999", "inf"), ("-0x1.8p1024x", "-inf")],  # beyond float64: strtod's HUGE_VAL (a crash before)
)
def test_messages_about_scores_say_what_trec_eval_reads(tmp_path, text, reads):
    # get_trec_results.c reads scores with atof, i.e. C's strtod: hexadecimal floats, "nan" and "inf" included.
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    (tmp_path / "run").write_text(f"q Q0 a 1 {text} r\n")
    with pytest.raises(InputError, match=rf"run:1: score '{text}' .*trec_eval's atof reads {reads}\b"):
        evaluate(tmp_path / "qrels", tmp_path / "run")


@pytest.mark.parametrize("second", ["ndcg_cut.-1", "ndcg_cut.3,3", "ndcg_cut.0x10"])
def test_a_second_cutoff_list_is_refused_as_asked_twice_not_by_what_trec_eval_never_reads(
    tmp_path, capfdbinary, second
):
    # meas_init.c parses only the first -m's parameters of a measure: trec_eval prints ndcg_cut_5 and never reads
    # the second list, so its complaints ('Negative cutoff detected', ...) do not apply.
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    (tmp_path / "run").write_text("q Q0 a 1 1 r\n")
    status, out, err = cli(
        capfdbinary, "evaluate", "-m", "ndcg_cut.5", "-m", second, tmp_path / "qrels", tmp_path / "run"
    )
    assert status == 1 and out == b"" and f"-m ndcg_cut.5 and -m {second} ask for trec_eval's ndcg_cut twice" in err
    assert "trec_eval:" not in err and "atol" not in err
    # After a bare -m ndcg_cut, the second list is the one trec_eval reads (the first -m with parameters).
    status, _, err = cli(capfdbinary, "evaluate", "-m", "ndcg_cut", "-m", second, tmp_path / "qrels", tmp_path / "run")
    assert status == 1 and "twice" not in err and ("trec_eval" in err or "atol" in err)


@pytest.mark.parametrize("cutoffs", ["1,3000000000", "5,2147483653", "1,-3000000000"])
def test_cutoffs_2_to_the_31_apart_are_refused_where_trec_eval_misorders_them(tmp_path, capfdbinary, cutoffs):
    # meas_init.c sorts cut-offs with comp_long, their difference as a C int: 1 - 3000000000 wraps to a positive
    # int, so trec_eval prints ndcg_cut_3000000000 first with the value at 1 (and passes -3000000000's check).
    (tmp_path / "qrels").write_text("q 0 a 1\nq 0 b 2\n")
    (tmp_path / "run").write_text("q Q0 a 1 2 r\nq Q0 b 2 1 r\n")
    with pytest.raises(ValueError, match=r"differ by 2\^31 or more.*comp_long"):
        evaluate(tmp_path / "qrels", tmp_path / "run", f"ndcg_cut.{cutoffs}")
    status, out, err = cli(capfdbinary, "evaluate", "-m", f"ndcg_cut.{cutoffs}", tmp_path / "qrels", tmp_path / "run")
    assert status == 1 and out == b"" and "comp_long" in err and err.count("\n") == 1
    # One large cut-off alone, or cut-offs less than 2^31 apart, are sorted right by trec_eval: evaluated.
    full = _dcg([1, 2]) / _dcg([2, 1])
    values = evaluate(tmp_path / "qrels", tmp_path / "run", ["ndcg_cut.3000000000", "ndcg_cut.1,2147483647"]).values
    assert values[0][:, 0].tolist() == pytest.approx([full, 0.5, full], rel=1e-15)


def test_grades_beyond_what_trec_eval_computes_are_scored_exactly_with_a_note(tmp_path):
    # gain_init.c allocates its gain table (24-byte entries, one per grade from 0) with a byte count cast to 32 bits:
    # from grade 2^32 // 24 = 178,956,970 it wraps and trec_eval's ndcg crashes (one below, it runs for minutes).
    # form_res_rels.c reserves (grade + 1) longs per query for every measure: trec_eval 10.0 computes ndcg_cut.1 at
    # 178,956,970 (1.4 GB) and stops at 10^10 ("Can't calculate measure 'ndcg_cut'", exit 4; 80 GB).
    (tmp_path / "run").write_text("q Q0 a 1 3 r\nq Q0 b 2 2 r\n")
    for grade, noted in ((178_956_969, False), (178_956_970, True), (10**10, True)):
        (tmp_path / "qrels").write_text(f"q 0 a {grade}\nq 0 b 1\n")
        for measures, crash in ((["ndcg", "ndcg_cut.1"], True), (["ndcg_cut.1"], False)):
            result = evaluate(tmp_path / "qrels", tmp_path / "run", measures)
            assert result.values[0][:, 0].tolist() == [1.0] * len(measures)  # a above b: the ideal order
            said = [n for n in result.notes if f"the largest grade, {grade}, is beyond what trec_eval computes" in n]
            assert len(said) == noted
            assert all(("from grade 178956970 on (it crashes)" in n) == crash for n in said)
            gigabytes = f"{(grade + 1) * 8 / 1e9:.1f} GB"  # 1.4 GB, 80.0 GB
            assert all(f"8 bytes per grade from 0 for each query (form_res_rels.c: {gigabytes})" in n for n in said)


# ---------------------------------------------------------------- the qrels comment rule (get_qrels.c)


def test_a_comment_line_between_judgments_is_skipped(tmp_path):
    (tmp_path / "qrels").write_text("# judged by NIST\nq 0 a 1\n# second batch\nq 0 b 2\n")
    (tmp_path / "run").write_text("q Q0 a 1 2 r\nq Q0 b 2 1 r\n")
    assert evaluate(tmp_path / "qrels", tmp_path / "run").values[0][0, 0] == pytest.approx(_dcg([1, 2]) / _dcg([2, 1]))


@pytest.mark.parametrize(
    "qrels, line, why",
    [
        ("# one\n# two\nq 0 a 1\n", 2, "right after another comment line"),  # trec_eval reads it as data
        ("q 0 a 1\n  # note 0 b\nq 0 c 1\n", 2, "first column"),  # query '#' for trec_eval
        # What trec_eval does with such a line: 4 fields are a judgment, others "Malformed line" (get_qrels.c).
        ("# one\n#two 0 b 1\nq 0 a 1\n", 2, "such lines and reads this line as a judgment of a query named '#two'"),
        ("# one\n# two x\nq 0 a 1\n", 2, r'such lines and refuses this line as data with 3 fields \("Malformed'),
        ("q 0 a 1\n  # note\n", 2, r'first column and refuses this line as data with 2 fields \("Malformed line'),
        ("q 0 a 1\n  # 0 b 1\n", 2, "first column and reads this line as a judgment of a query named '#'"),
        ("q 0 a 1\n\nq 0 b 1\n", 2, "blank line"),  # "Malformed line"
        ("q 0 a 1\n   \n", 2, "blank line"),
        ("q 0 a 1\n# the end\n", 2, "last line"),  # trec_eval reads past the end
    ],
)
def test_qrels_lines_trec_eval_reads_otherwise_are_refused_with_the_line(tmp_path, qrels, line, why):
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text("q Q0 a 1 2 r\n")
    with pytest.raises(InputError, match=rf"qrels:{line}: .*{why}"):
        evaluate(tmp_path / "qrels", tmp_path / "run")


# ---------------------------------------------------------------- bytes


def test_a_nul_byte_is_refused_saying_what_trec_eval_does(tmp_path):
    # trec_eval reads its files as C strings: a NUL that begins a line ends the file (the lines after it are never
    # read); within a line it depends on the field: cut short (exit 0), "Can't calculate measure" (exit 4), or a
    # glibc abort ("malloc(): invalid size"). The message said it always crashed.
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    for run, line in ((b"q Q0 a 1 1 r\n\x00q Q0 b 2 0 r\n", 2), (b"q Q0 a\x00 1 1 r\n", 1)):
        (tmp_path / "run").write_bytes(run)
        with pytest.raises(
            InputError,
            match=rf"run:{line}: a NUL byte.*start of a line it ends the file there; within "
            r"a line what it reads is undefined: a field cut short, an error or a crash\)$",
        ):
            evaluate(tmp_path / "qrels", tmp_path / "run")


def test_a_nul_byte_on_standard_input_is_said_as_trec_eval_reads_it(capfdbinary, monkeypatch, tmp_path):
    # get_trec_results.c reads standard input line by line (fgets): a NUL that begins a line drops that line only.
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    monkeypatch.setattr(
        "sys.stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(b"q Q0 a 1 1 r\n\x00q Q0 b 2 0 r\n")))
    )
    status, out, err = cli(capfdbinary, "evaluate", tmp_path / "qrels", "-")
    assert status == 1 and out == b"" and "standard input:2: a NUL byte" in err and "it skips that line;" in err


def test_a_run_tag_keeps_its_bytes(tmp_path, capfdbinary):
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    (tmp_path / "run").write_bytes(b"q Q0 a 1 2 t\xe9st\xff\n")
    status, out, _ = cli(capfdbinary, "evaluate", "-m", "runid", tmp_path / "qrels", tmp_path / "run")
    assert status == 0 and out == b"runid                 \tall\tt\xe9st\xff\n"
    assert evaluate(tmp_path / "qrels", tmp_path / "run").tags[0].encode("utf-8", "surrogateescape") == b"t\xe9st\xff"


def test_the_per_query_table_keeps_ids_that_are_not_utf8(tmp_path):
    # pandas' default text columns hold UTF-8 only; such ids stay Python str with their bytes as escapes.
    (tmp_path / "qrels").write_bytes(b"q\xe9 0 a 1\nq2 0 a 1\n")
    (tmp_path / "run").write_bytes(b"q\xe9 Q0 a 1 2 t\nq2 Q0 b 1 2 t\n")
    per_query, means = evaluate(tmp_path / "qrels", tmp_path / "run")
    assert [q.encode("utf-8", "surrogateescape") for q in per_query["query"]] == [b"q2", b"q\xe9"]
    assert per_query["value"].tolist() == [0.0, 1.0] and means["ndcg"].tolist() == [0.5]


# ---------------------------------------------------------------- SVMlight


def test_svmlight_docids_on_some_lines_are_used_where_present_and_said(tmp_path):
    (tmp_path / "test.txt").write_text("2 qid:1 1:1 # docid = A\n1 qid:1 1:2\n0 qid:1 1:3 # docid = C\n")
    (tmp_path / "pred.txt").write_text("0.5\n0.9\n0.1\n")
    qrels = svmlight_columns(tmp_path / "test.txt")
    assert [d.decode() for d in qrels.doc.to_pylist()] == ["A", "2", "C"]
    run = predictions_columns(qrels, tmp_path / "pred.txt")
    result = evaluate(qrels, run, convention="lightgbm")
    said = "test.txt: 1 of 3 lines has no docid comment; its document is named by its data line number (line 2)"
    assert any(note.endswith(said) for note in result.notes)
    assert result.values[0][0, 0] == pytest.approx(_dcg([1, 3, 0]) / _dcg([3, 1, 0]))


@pytest.mark.parametrize(
    "data, line, how",
    [
        ("1 qid:1 1:0 # docid = 2\n0 qid:1 1:1\n", 2, "by its data line number, having no docid"),
        ("1 qid:1 1:0 # docid = X\n0 qid:1 1:1 # docid = X\n", 2, "by its docid"),
    ],
)
def test_svmlight_lines_of_a_qid_named_alike_are_refused_not_merged(tmp_path, data, line, how):
    # The learning-to-rank tools see two documents (two lines); matched by name here they would be one, and the
    # second line was refused as "judged twice ... trec_eval refuses this too" (trec_eval reads no SVMlight).
    (tmp_path / "test.txt").write_text(data)
    with pytest.raises(
        InputError, match=rf"test.txt:{line}: document '\w' of qid:1 is named as line 1 is \(this one {how}\)"
    ):
        svmlight_columns(tmp_path / "test.txt")
    # Named alike in two different qids: two queries, evaluated (each line its own document).
    (tmp_path / "test.txt").write_text(data.replace("0 qid:1", "0 qid:2"))
    assert len(svmlight_columns(tmp_path / "test.txt")) == 2


# ---------------------------------------------------------------- DataFrames


def _qrels():
    return pd.DataFrame({"query": ["1", "1", "2"], "doc": ["10", "9", "10"], "relevance": [1, 2, 1]})


def test_integer_ids_in_a_category_column_are_their_decimal_text():
    run = pd.DataFrame(
        {"query": pd.Categorical([1, 1, 2]), "doc": pd.Categorical([10, 9, 10]), "score": [1.0, 2.0, 1.0]}
    )
    plain = pd.DataFrame({"query": ["1", "1", "2"], "doc": ["10", "9", "10"], "score": [1.0, 2.0, 1.0]})
    np.testing.assert_array_equal(evaluate(_qrels(), run).values[0], evaluate(_qrels(), plain).values[0])


def test_a_value_column_that_is_not_numeric_is_named_by_its_dtype():
    run = pd.DataFrame({"query": ["1"], "doc": ["10"], "score": ["high"]})
    with pytest.raises(InputError, match=r"^run DataFrame column 'score' must be numeric, got dtype \S+$"):
        evaluate(_qrels(), run)
    with pytest.raises(InputError, match=r"^run dict: query '1', document '10': score must be a real number"):
        evaluate(_qrels(), {"1": {"10": "high"}})


def test_a_column_mixing_integer_and_text_ids_is_named():
    run = pd.DataFrame({"query": ["1", "1", "2"], "doc": [10, "9", "10"], "score": [1.0, 2.0, 1.0]})
    with pytest.raises(InputError, match=r"column 'doc' mixes integers \(10 at row 0\) and strings \('9' at row 1\)"):
        evaluate(_qrels(), run)


@pytest.mark.parametrize("column", ["query", "doc"])
def test_an_empty_id_is_refused(column):
    run = pd.DataFrame({"query": ["1", "1", "2"], "doc": ["10", "9", "10"], "score": [1.0, 2.0, 1.0]})
    run.loc[2, column] = ""
    with pytest.raises(InputError, match=rf"DataFrame row 2: {column} is an empty string"):
        evaluate(_qrels(), run)


def test_two_frames_with_the_same_tag_are_both_evaluated_or_named_clearly(tmp_path):
    (tmp_path / "a.txt").write_text("1 Q0 10 1 2 bm25\n1 Q0 9 2 1 bm25\n")
    (tmp_path / "b.txt").write_text("1 Q0 9 1 2 bm25\n1 Q0 10 2 1 bm25\n")
    result = evaluate(_qrels(), [read_run(tmp_path / "a.txt"), read_run(tmp_path / "b.txt")])
    assert result.runs == ("a", "b") and result.tags == ("bm25", "bm25")
    first, second = (pd.DataFrame({"query": ["1"], "doc": ["10"], "score": [s]}) for s in (1.0, 2.0))
    first.attrs["run"] = second.attrs["run"] = "bm25"
    with pytest.raises(ValueError, match=r"runs\[0\] and runs\[1\] are different runs named 'bm25'.*a dict"):
        evaluate(_qrels(), [first, second])
    with pytest.raises(ValueError, match=r"runs\[1\]: run 'bm25' is given twice \(as runs\[0\] too\)"):
        evaluate(_qrels(), [first, first])
    # In a mapping, names are text: the keys 1 and "1" would give two runs one name, and the second would hide.
    with pytest.raises(
        ValueError, match=r"runs\[1\] and runs\['1'\] would both be named '1' \(names are text\); rename one"
    ):
        evaluate(_qrels(), {1: first, "1": second})


@pytest.mark.parametrize(
    "qrels, run, message",
    [
        ({"1": {"a": 1}}, {None: {"a": 1.0}, "1": {"a": 1.0}}, r"run dict: query None, document 'a': query is missing"),
        ({"1": {"a": 1, None: 2}}, {"1": {"a": 1.0}}, r"qrels dict: query '1', document None: doc is missing"),
        ({"1": {"a": 1}}, {"1": {"a": 1.0, None: 3.0}}, r"run dict: query '1', document None: doc is missing"),
        ({"1": {"a": 1}}, {b"1": {"b": 5.0}, "1": {"a": 1.0}}, r"run dict \(its query ids\) mixes bytes \(b'1' at"),
        (_qrels(), pd.DataFrame({"query": [b"1", "1"], "doc": ["a", "b"], "score": [1.0, 2.0]}), r"so b'1' and '1'"),
    ],
)
def test_none_ids_and_bytes_beside_text_ids_are_refused(qrels, run, message):
    # pyarrow reads None as a null and bytes beside str as text: a None query was merged into another query, a
    # None document entered the ideal, b'1' and '1' became one query; pytrec_eval refuses each (TypeError).
    with pytest.raises(InputError, match=message):
        evaluate(qrels, run)


def test_messages_about_a_frame_name_it_and_say_what_is_wrong():
    run = pd.DataFrame({"query": ["1", "1"], "doc": ["10", "9"], "score": [1.0, 2.0]})
    cases = [
        (_qrels(), run.assign(query=[1.0, 1.0]), r"^run DataFrame column 'query' holds floats \(1.0 at row 0\)"),
        (
            _qrels(),
            run.assign(query=pd.Series([True, 1], dtype=object)),
            r"^run DataFrame column 'query' holds booleans",
        ),
        (
            _qrels().assign(relevance=pd.array([1, None, 1], dtype="Int64")),
            run,
            r"^qrels DataFrame row 1: relevance is missing$",
        ),
        # a nullable float column's <NA> is missing too, not "must be finite, got nan" (its NaN: not finite)
        *(
            (_qrels(), run.assign(score=pd.array(values, dtype=dtype)), rf"^run DataFrame row 1: score {said}$")
            for dtype in ("Float64", "double[pyarrow]")
            for values, said in (([1.0, None], "is missing"), ([1.0, float("inf")], "must be finite, got inf"))
        ),
    ]
    for qrels, table, message in cases:
        with pytest.raises(InputError, match=message):
            evaluate(qrels, table)
    # A fraction under ranx: ranx's reason, not what trec_eval's atol would read.
    with pytest.raises(
        InputError, match=r"grade '1.5' is not an integer; the tool reads integer grades \(convention 'ranx'\)$"
    ):
        evaluate(_qrels().assign(relevance=[1.5, 2.0, 1.0]), run, convention="ranx")
    # A Dask frame as qrels: one line, not the frame's repr.
    dd = pytest.importorskip("dask.dataframe")
    with pytest.raises(TypeError, match=r"^qrels must not be a Dask DataFrame .*compute\(\) it into pandas$"):
        evaluate(dd.from_pandas(_qrels(), npartitions=1), run)


# ---------------------------------------------------------------- output


def _collection(folder, n_queries=40, seed=3):
    rng = np.random.default_rng(seed)
    qrels, a, b = [], [], []
    for q in range(n_queries):
        for d in range(12):
            qrels.append(f"q{q:02d} 0 d{d} {rng.integers(0, 4)}")
            a.append(f"q{q:02d} Q0 d{d} {d} {rng.random():.6f} a")
            b.append(f"q{q:02d} Q0 d{d} {d} {rng.random():.6f} b")
    for name, lines in (("qrels", qrels), ("a", a), ("b", b)):
        (folder / name).write_text("\n".join(lines) + "\n")


def test_compare_csv_writes_the_exact_floats_of_the_api(tmp_path, capfdbinary):
    _collection(tmp_path)
    status, out, _ = cli(
        capfdbinary, "compare", "--format", "csv", "--quiet", tmp_path / "qrels", tmp_path / "a", tmp_path / "b"
    )
    table = pd.read_csv(io.StringIO(out.decode()))
    means = evaluate(tmp_path / "qrels", [tmp_path / "a", tmp_path / "b"]).mean_values[:, 0]
    assert status == 0 and table[table.kind == "mean"].estimate.tolist() == means.tolist()  # every bit


def test_evaluate_and_compare_give_the_same_mean_to_the_last_bit(tmp_path, capfdbinary):
    _collection(tmp_path, n_queries=61)
    _, out, _ = cli(
        capfdbinary, "evaluate", "--format", "json", "--quiet", tmp_path / "qrels", tmp_path / "a", tmp_path / "b"
    )
    evaluated = [run["means"]["ndcg"] for run in json.loads(out)["runs"]]
    _, out, _ = cli(
        capfdbinary, "compare", "--format", "json", "--quiet", tmp_path / "qrels", tmp_path / "a", tmp_path / "b"
    )
    compared = [system["mean"] for system in json.loads(out)[0]["systems"]]
    assert evaluated == compared
    values = evaluate(tmp_path / "qrels", [tmp_path / "a", tmp_path / "b"]).values
    assert evaluated == [sum(v[0].tolist()) / v.shape[1] for v in values]  # added in query order, as trec_eval


@pytest.mark.parametrize("form", ["csv", "json"])
def test_nosummary_leaves_out_the_means_in_every_format(tmp_path, capfdbinary, form):
    (tmp_path / "qrels").write_text("q1 0 a 1\nq2 0 a 1\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 1 r\nq2 Q0 b 1 1 r\n")
    status, out, _ = cli(capfdbinary, "evaluate", "-q", "-n", "--format", form, tmp_path / "qrels", tmp_path / "run")
    text = out.decode()
    if form == "csv":
        assert status == 0 and text.splitlines() == ["run,query,measure,value", "run,q1,ndcg,1.0", "run,q2,ndcg,0.0"]
    else:
        entry = json.loads(text)["runs"][0]
        assert status == 0 and "means" not in entry and entry["per_query"] == {"q1": {"ndcg": 1.0}, "q2": {"ndcg": 0.0}}


def test_evaluate_and_compare_write_json_in_one_style(tmp_path, capfdbinary):
    _collection(tmp_path, n_queries=3)
    for command in ("evaluate", "compare"):
        _, out, _ = cli(
            capfdbinary, command, "--format", "json", "--quiet", tmp_path / "qrels", tmp_path / "a", tmp_path / "b"
        )
        text = out.decode()
        assert text == json.dumps(json.loads(text), indent=1) + "\n", command


def test_notes_name_the_program_as_it_is_installed(tmp_path, capfdbinary):
    (tmp_path / "qrels").write_text("q 0 a 1\nr 0 a 1\n")
    (tmp_path / "run").write_text("q Q0 a 1 2 r\n")
    _, _, err = cli(capfdbinary, "evaluate", tmp_path / "qrels", tmp_path / "run")
    assert err.startswith("ndcg-research evaluate: note: run: 1 judged query has no ranking ('r')")


# ---------------------------------------------------------------- presets


def test_sklearn_leaves_a_single_document_query_undefined_and_scores_the_others():
    from sklearn.metrics import ndcg_score

    qrels = pd.DataFrame(
        {
            "query": ["q", "q", "q", "r", "s", "s"],
            "doc": ["a", "b", "c", "a", "a", "b"],
            "relevance": [1, 0, 2, 1, 2, 1],
        }
    )
    run = pd.DataFrame(
        {
            "query": ["q", "q", "q", "r", "s", "s"],
            "doc": ["a", "b", "c", "a", "a", "b"],
            "score": [3.0, 2.0, 1.0, 1.0, 1.0, 2.0],
        }
    )
    result = evaluate(qrels, run, ["ndcg", "ndcg@2"], convention="sklearn")
    values = dict(zip(result.queries[0], result.values[0][0], strict=False))
    q, s = ndcg_score([[1, 0, 2]], [[3, 2, 1]]), ndcg_score([[2, 1]], [[1, 2]])
    assert math.isnan(values["r"]) and values["q"] == pytest.approx(q) and values["s"] == pytest.approx(s)
    assert result.mean_values[0, 0] == pytest.approx((q + s) / 2)
    assert result.means.loc["run1", "queries"] == 2
    assert any(
        "'r'" in note and "single ranked document" in note and "left out of the mean" in note for note in result.notes
    )


def test_sklearn_single_document_queries_are_not_counted_as_ideal_dcg_0():
    # q2's one document is unjudged, so its ideal DCG is 0; scikit-learn refuses the list first: undefined, not 0.
    qrels, run = {"q1": {"a": 1, "b": 2}, "q2": {"a": 1}}, {"q1": {"a": 1.0, "b": 2.0}, "q2": {"b": 1.0}}
    result = evaluate(qrels, run, "ndcg", convention="sklearn")
    assert result.values[0][0, 0] == 1.0 and math.isnan(result.values[0][0, 1])
    assert not any("ideal DCG 0" in note for note in result.notes)
    assert any("single ranked document ('q2')" in note for note in result.notes)


def test_sklearn_run_of_single_document_queries_only_is_refused_as_having_no_value(tmp_path, capsys):
    # Its mean was NaN, printed as "all nan" with status 0; scikit-learn refuses each such list, so nothing averages
    from sklearn.metrics import ndcg_score

    from ndcg_research.cli import main

    with pytest.raises(ValueError, match="only meaningful when there is more than 1 document"):
        ndcg_score([[1]], [[1.0]])
    qrels, run = {"q1": {"a": 1}, "q2": {"b": 2}}, {"q1": {"a": 1.0}, "q2": {"c": 1.0}}
    with pytest.raises(NoJudgedQuery, match=r"^run run1: every query .*single ranked document \('q1', 'q2'\)"):
        evaluate(qrels, run, convention="sklearn")
    (tmp_path / "q").write_text("q1 0 a 1\n")
    (tmp_path / "r").write_text("q1 Q0 a 1 1 t\n")
    assert main(["evaluate", "--convention", "sklearn", str(tmp_path / "q"), str(tmp_path / "r")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "single ranked document ('q1')" in err


def test_a_run_without_a_judged_query_raises_the_input_error_that_says_so():
    # ir_measure returns no value for such a run (ir_measures then gives each judged query its default 0), where a
    # filter by the text of ids dropped float ids before they were checked; evaluate names the case by its type.
    qrels = pd.DataFrame({"query": ["q1"], "doc": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query": ["q2"], "doc": ["a"], "score": [1.0]})
    with pytest.raises(
        NoJudgedQuery, match=r"^run run1: no query has both a ranking and judgments in qrels DataFrame$"
    ):
        evaluate(qrels, run, complete=False)  # (complete=True scores q1 0: a value)
    with pytest.raises(NoJudgedQuery, match=r"no ranked query has a judgment above 0 .*gdeval evaluates only such"):
        evaluate(qrels.assign(relevance=[0]), run.assign(query=["q1"]), "ndcg@5", convention="gdeval")
    assert issubclass(NoJudgedQuery, InputError)


def test_a_run_whose_query_ids_match_none_of_the_judged_is_refused_unless_zeros_are_asked_for(tmp_path, capsys):
    # Query ids that do not match ('Q1' against 'q1': the classic mistake) scored every judged query 0 under the
    # default, a plausible 0.0000 with exit 0. trec_eval without -c stops on it (trec_eval.c: exit 4); with -c it
    # prints 0, and so does complete=True here.
    (tmp_path / "qrels").write_text("q1 0 a 1\nq2 0 b 2\n")
    (tmp_path / "run").write_text("Q1 Q0 a 1 1.0 t\nQ2 Q0 b 1 1.0 t\n")
    message = r"^run run: none of its queries \('Q1', 'Q2'\) is judged in .*qrels \(judged: 'q1', 'q2'\)"
    with pytest.raises(NoJudgedQuery, match=message):
        evaluate(tmp_path / "qrels", tmp_path / "run")
    assert evaluate(tmp_path / "qrels", tmp_path / "run", complete=True).mean() == 0.0
    assert main(["evaluate", str(tmp_path / "qrels"), str(tmp_path / "run")]) == 1
    assert "none of its queries ('Q1', 'Q2') is judged" in capsys.readouterr().err
    assert main(["evaluate", "-c", str(tmp_path / "qrels"), str(tmp_path / "run")]) == 0
    assert capsys.readouterr().out == "ndcg                  \tall\t0.0000\n"
    # One judged query ranked is enough: the others score 0 under the default, as before.
    (tmp_path / "run").write_text("q1 Q0 a 1 1.0 t\n")
    assert evaluate(tmp_path / "qrels", tmp_path / "run").mean() == 0.5  # q1: 1, q2: 0


def test_a_tag_that_is_not_text_is_kept_as_text():
    # A ranx Run's name or a DataFrame's attrs["run"] may be any value; Evaluation.tags holds text (an int was kept).
    from ranx import Run

    frame = pd.DataFrame({"query": ["1"], "doc": ["10"], "score": [1.0]})
    frame.attrs["run"] = 7
    named = Run({"1": {"10": 1.0}}, name=5)
    result = evaluate(_qrels(), {"frame": frame, "ranx": named})
    assert result.tags == ("7", "5")


def test_an_empty_run_read_from_path_dash_is_described_as_standard_input(monkeypatch):
    # Path("-") is standard input as "-" is; the empty-run message said "trec_eval refuses an empty run file" for it
    from pathlib import Path

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    with pytest.raises(InputError, match=r"^standard input: no data lines.*trec_eval stops on an empty run from stan"):
        read_run(Path("-"))
