"""The private readers' small helpers, tested directly (their examples used to be doctests)."""

import io

import pytest

from ndcg_research.evaluation import InputError
from ndcg_research.evaluation._measures import atol
from ndcg_research.evaluation._readers import parse_block, parse_grade, parse_score
from ndcg_research.evaluation._sources import Source, check_text, describe, line_blocks


def test_atol_reads_an_optional_sign_and_digits_else_zero():
    assert (atol("1.9999999999999999"), atol("-0.5"), atol("1e3"), atol("high")) == (1, 0, 1, 0)


def test_parse_score_and_parse_grade():
    assert parse_score(b"-1.5e3", "run:1") == -1500.0
    with pytest.raises(InputError, match=r"^run:1: score '0x1p1' is a hexadecimal number: .* reads 2 "):
        parse_score(b"0x1p1", "run:1")
    assert [parse_grade(t, "q:1") for t in (b"2", b"1.9999999999999999", b"-1.0")] == [
        (2, False),
        (1, True),
        (-1, False),
    ]
    with pytest.raises(InputError, match=r"^qrels:3: relevance '1e1' has an exponent; .* which reads 1: "):
        parse_grade(b"1e1", "qrels:3")


def test_parse_block_counts_comment_lines_and_names_rows_by_line():
    rows, n_lines, _ = parse_block(b"q1 0 a 2\n# comment\nq1 0 b 0\n", "qrels", "qrels.txt", 1)
    assert (rows.value.tolist(), rows.where(1), n_lines) == ([2, 0], "qrels.txt:3", 3)


def test_line_blocks_hold_whole_lines_and_the_last_line_without_its_end():
    blocks = list(line_blocks(Source("example", io.BytesIO(b"a 1\nb 2\nc 3")), size=6))
    assert blocks == [b"a 1\n", b"b 2\n", b"c 3"]


def test_describe_and_check_text():
    assert (describe("-"), describe("runs/bm25.txt")) == ("standard input", "runs/bm25.txt")
    check_text(b"q 0 a 1\r\n", "qrels", 1)  # CRLF line ends are fine
    with pytest.raises(InputError, match=r"^qrels:1: a carriage return \(\\r\) that does not end a line: "):
        check_text(b"q 0 a 1\rq 0 b 2\r", "qrels", 1)
