"""The private readers' small helpers, tested directly (their examples used to be doctests)."""

import io

import numpy as np
import pytest

from ndcg_research.evaluation import InputError
from ndcg_research.evaluation._measures import atol
from ndcg_research.evaluation._readers import _line_block, parse_grade, parse_score
from ndcg_research.evaluation._sources import Source, check_text, describe, line_blocks


def test_atol_reads_an_optional_sign_and_digits_else_zero():
    assert (atol("1.9999999999999999"), atol("-0.5"), atol("1e3"), atol("high")) == (1, 0, 1, 0)


def test_parse_score_and_parse_grade():
    assert parse_score(b"-1.5e3", "run:1") == -1500.0
    with pytest.raises(
        InputError,
        match=r"^run:1: score '0x1p1' is a hexadecimal number, .*most tools do not read.* decimal .*atof reads 2\)$",
    ):
        parse_score(b"0x1p1", "run:1")
    assert [parse_grade(t, "q:1") for t in (b"2", b"1.9999999999999999", b"-1.0")] == [2, b"1.9999999999999999", -1]
    with pytest.raises(
        InputError, match=r"^qrels:3: relevance '1e1' has an exponent; write the integer \(trec_eval's atol reads 1\)$"
    ):
        parse_grade(b"1e1", "qrels:3")


def test_line_block_counts_comment_lines_and_names_rows_by_line():
    rows, n_lines, _ = _line_block(b"q1 0 a 2\n# comment\nq1 0 b 0\n", "qrels", "qrels.txt", 1, None)
    assert (rows.value.tolist(), rows.where(1), n_lines) == ([2, 0], "qrels.txt:3", 3)


def test_line_blocks_hold_whole_lines_and_the_last_line_without_its_end():
    blocks = list(line_blocks(Source("example", io.BytesIO(b"a 1\nb 2\nc 3")), size=6))
    assert blocks == [b"a 1\n", b"b 2\n", b"c 3"]


def test_describe_and_check_text():
    assert (describe("-"), describe("runs/bm25.txt")) == ("standard input", "runs/bm25.txt")
    check_text(b"q 0 a 1\r\n", "qrels", 1)  # CRLF line ends are fine
    with pytest.raises(InputError, match=r"^qrels:1: a carriage return \(\\r\) that does not end a line: "):
        check_text(b"q 0 a 1\rq 0 b 2\r", "qrels", 1)


@pytest.mark.parametrize("text", ["q1 0 a 2\nq1 0 b 0\nq2 0 a 1\n", "q2 0 a 1\nq1 0 a 2\nq2 0 b 0\nq1 0 b 1\n"])
def test_judgments_let_go_of_the_qrels_as_read_before_building_the_ideal(tmp_path, monkeypatch, text):
    # The qrels as read (ids and all) set the peak memory of a large evaluation: Judgments.build copies what it
    # keeps and frees them before its last, largest step. A constructor call would keep them alive (the caller's
    # arguments live until __init__ returns), so this checks the object is really gone by then.
    import weakref

    from ndcg_research.evaluation import _matching
    from ndcg_research.evaluation._readers import read_whole

    path = tmp_path / "qrels"
    path.write_text(text)
    refs, alive = [], []
    build_ideal = _matching._ideal_grades

    def watched(*args):
        alive.append(refs[0]() is not None)
        return build_ideal(*args)

    def read():
        columns = read_whole(path, "qrels")
        refs.append(weakref.ref(columns))
        return columns

    monkeypatch.setattr(_matching, "_ideal_grades", watched)
    judgments = _matching.Judgments.build(read())
    assert alive == [False]
    assert judgments.query_text(np.arange(2)).tolist() == ["q1", "q2"]
