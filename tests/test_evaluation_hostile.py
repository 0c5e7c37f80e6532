"""Hostile files and arguments (issue 20, section 4): each class read as trec_eval reads it, or refused with
a one-line message naming the file and line (or the argument); never a traceback, a silent change of value,
or work out of proportion with the bytes read."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import math
import os
import re
import subprocess
import sys
import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ndcg_research.cli import main
from ndcg_research.evaluation import InputError, evaluate, parse_measures, read_qrels, read_run
from ndcg_research.evaluation._readers import _arrow_block, _fast_block, _line_block, read_whole, svmlight_columns
from ndcg_research.evaluation._sources import Source, line_blocks

QRELS = "q1 0 a 2\nq1 0 b 1\nq2 0 a 1\n"
RUN = "q1 Q0 a 1 2.5 r\nq1 Q0 b 2 1.5 r\nq2 Q0 a 1 1.0 r\n"


def _dcg(gains):
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return tmp_path


def cli(capfdbinary, *args):
    status = main([*map(str, args)])
    out, err = capfdbinary.readouterr()
    return status, out.decode(), err.decode()


# ---------------------------------------------------------------- one parser, two paths


def _both(data: bytes, kind: str):
    """What each reading path makes of one block: (queries, docs, values, lines) or the error message."""
    out = []
    for fast in (True, False):
        try:
            columns, n_lines, _ = (fast and _fast_block(data, kind, "f", 1)) or _line_block(data, kind, "f", 1, None)

            def text(a):
                return [x if isinstance(x, bytes) else x.encode() for x in pa_text(a)]

            out.append(
                (
                    text(columns.query),
                    text(columns.doc),
                    columns.value.astype(float).tolist(),
                    columns.line_numbers().tolist(),
                    columns.tag,
                    n_lines,
                )
            )
        except InputError as error:
            out.append(str(error))
    return out


def pa_text(array):
    import pyarrow as pa

    chunks = [c.dictionary_decode() if pa.types.is_dictionary(c.type) else c for c in array.chunks]
    return pa.chunked_array(chunks).to_pylist()


_FIELD = st.sampled_from(
    [
        b"q1",
        b"q2",
        b"a",
        b"b",
        b"d10",
        b"#x",
        b"0",
        b"Q0",
        b"1",
        b"2",
        b"-1",
        b"0.5",
        b"1e1",
        b"1_0",
        b"0x10",
        b"+3",
        b".5",
        b"5.",
        b"nan",
        b"inf",
        b"1e400",
        b"tag",
        b"x\xc3\xa9",
    ]
)
_BLANK = st.sampled_from([b" ", b"\t", b"  ", b" \t", b"\x0b", b"\x0c"])


@st.composite
def _files(draw, fields: int):
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(draw(st.sampled_from([b"", b"   ", b"# comment", b"  # indented comment"])))
            continue
        n = fields + draw(st.sampled_from([0, 0, 0, 0, -1, 1]))
        parts = [draw(_FIELD) for _ in range(max(n, 1))]
        line = parts[0]
        for part in parts[1:]:
            line += draw(_BLANK) + part
        if draw(st.booleans()):
            line = draw(_BLANK) + line
        lines.append(line + draw(st.sampled_from([b"", b"", b" ", b"\r"])))
    return b"\n".join(lines) + draw(st.sampled_from([b"\n", b"", b"\r\n"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_files(4))
@example(data=b"q1 0 d \n")  # three fields and a blank: pyarrow reads an empty grade (the fast path raised IndexError)
@example(data=b"q1 0 d 0\n   ")  # a blank last line without its end: single-spacing it away lost the line
def test_both_reading_paths_agree_on_random_qrels(data):
    fast, exact = _both(data, "qrels")
    assert fast == exact


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_files(6))
def test_both_reading_paths_agree_on_random_runs(data):
    fast, exact = _both(data, "run")
    assert fast == exact


@pytest.mark.parametrize(
    "data",
    [b"q Q0 d 1 2 t \n", b"q  Q0 d 1 2 t\n", b" q Q0 d 1 2 t\n", b"q\tQ0 d 1 2 t\n", b"q Q0\x0bd 1\x0c2 t\t \n"],
)
def test_blanks_other_than_single_spaces_stay_on_the_fast_path(data):
    # A trailing blank, a doubled space, tabs among spaces: read line by line they made a run 4-5x slower than
    # trec_eval (1M lines: 6.5 s against 1.7 s). Made single spaces, pyarrow reads them as the line rules do.
    block = data * 3
    assert _arrow_block(block, "run", "f", 1) is not None
    fast, exact = _both(block, "run")
    assert fast == exact and fast[1] == [b"d"] * 3 and fast[4] == "t"


def test_comment_and_blank_lines_of_a_run_stay_on_the_fast_path():
    # A run with a comment every 10^4 lines was read line by line, block after block: 6x slower than without them
    # (slower than trec_eval). They are left out before pyarrow reads the block, each row keeping its line number.
    block = b"# run of 2026\nq Q0 a 1 2 t\n\n  # indented\r\nq Q0 b 2 1 t\n \t\nq Q0 c 3 0 last\n"
    assert _arrow_block(block, "run", "f", 1) is None and _fast_block(block, "run", "f", 1) is not None
    fast, exact = _both(block, "run")
    assert fast == exact and fast[3] == [2, 5, 7] and fast[4] == "last" and fast[5] == 7
    assert _fast_block(b"# only a comment\n\n", "run", "f", 1) is None  # (no data line: the line reader's)
    assert _fast_block(b"#q 0 d 1\nq 0 e 0\n", "qrels", "f", 1) is None  # qrels comments: their own rule


def test_blocks_of_blank_lines_are_skipped_and_counted(tmp_path):
    # Blank lines (trec_eval skips them in runs) filling whole blocks: skipped without parsing, their lines counted.
    (tmp_path / "qrels").write_text("q 0 a 1\n")
    (tmp_path / "run").write_bytes(b"q Q0 a 1 1 r\n" + b"\n" * (5 << 20) + b" \t\nq Q0 a 2 0 r\n")
    with pytest.raises(
        InputError, match=rf"run:1: document 'a' is ranked twice for query 'q' \(again at .*run:{(5 << 20) + 3}\)"
    ):
        evaluate(tmp_path / "qrels", tmp_path / "run")


def test_a_hash_inside_an_id_stays_on_the_fast_path_and_a_comment_does_not():
    # '#' begins a comment only as a line's first field (the line rules decide those); in a document id it is data.
    for block, kind in ((b"q Q0 d#1 1 2 t\n" * 3, "run"), (b"q 0 d#1 1\nq 0 e 0\n", "qrels")):
        assert _arrow_block(block, kind, "f", 1) is not None
        fast, exact = _both(block, kind)
        assert fast == exact and fast[1][0] == b"d#1"
    for block, kind in ((b"#q Q0 d 1 2 t\nq Q0 d 1 2 t\n", "run"), (b"#q 0 d 1\nq 0 e 0\n", "qrels")):
        assert _arrow_block(block, kind, "f", 1) is None


@pytest.mark.parametrize(
    "data, message",
    [
        (
            b"\xef\xbb\xbfq1 0 a 1\n",
            r"qrels:1: a UTF-8 byte-order mark \(EF BB BF\), which trec_eval reads into the first query id; remove it",
        ),
        (b"q1 0 a 1\rq1 0 b 2\r", r"qrels:1: a carriage return \(\\r\) that does not end a line"),
        # get_qrels.c reads a \r inside a line as a blank between fields (isspace): the message says so
        (
            b"q1\r0\ra\r1\n",
            r"qrels:1: a carriage return \(\\r\) that does not end a line: trec_eval reads it as a blank between fields",
        ),
        (b"q1 0 a 1\nq1 0 b 2\rq1 0 c 1\n", r"qrels:2: a carriage return"),
        (b"q1 0 a 1\nq1 0 \x00b 1\n", r"qrels:2: a NUL byte"),
    ],
)
def test_byte_order_mark_lone_carriage_return_and_nul_are_refused_on_both_paths(tmp_path, data, message):
    (tmp_path / "qrels").write_bytes(data)
    with pytest.raises(InputError, match=message):
        read_qrels(tmp_path / "qrels")
    # The same file with a tab added (which used to send it down the other reader) is refused alike.
    (tmp_path / "qrels").write_bytes(data.replace(b" ", b"\t", 1))
    with pytest.raises(InputError, match=message):
        read_qrels(tmp_path / "qrels")


def test_crlf_line_ends_read_like_plain_ones(tmp_path):
    (tmp_path / "a").write_text(QRELS)
    (tmp_path / "b").write_bytes(QRELS.replace("\n", "\r\n").encode())
    assert read_whole(tmp_path / "a", "qrels").value.tolist() == read_whole(tmp_path / "b", "qrels").value.tolist()


# ---------------------------------------------------------------- missing fields


@pytest.mark.parametrize(
    "kind, line, got",
    [
        ("qrels", "q1 0  1", 3),  # no docno: two blanks are one separator, as in trec_eval
        ("qrels", "q1  a 1", 3),  # no iteration
        ("run", "q1 Q0  1 0.5 r", 5),  # no docno
        ("run", " Q0 a 1 0.5 r", 5),  # no query id
        ("run", "q1 Q0 a 1 0.5 ", 5),  # no tag
    ],
)
def test_missing_fields_are_malformed_lines(tmp_path, kind, line, got):
    good = QRELS if kind == "qrels" else RUN
    (tmp_path / "f").write_text(good + line + "\n")
    reader = read_qrels if kind == "qrels" else read_run
    with pytest.raises(InputError, match=rf"f:4: a {kind} line needs .*got {got}"):
        reader(tmp_path / "f")


@pytest.mark.parametrize(
    ("kind", "text", "hint"),
    [
        (
            "qrels",
            "q1 Q0 d1 1 6.0 run_a\n",
            r"got 6: 'q1 Q0 d1 1 6.0 run_a'; a run's line\? the qrels file comes first$",
        ),
        ("run", "q1 0 d1 3\n", r"got 4: 'q1 0 d1 3'; a qrels line\? the qrels file comes first, then the runs$"),
        ("qrels", "query,doc,relevance\n", "got 1: 'query,doc,relevance'; fields are separated by blanks, not commas$"),
        ("run", "q1 Q0 d1 1\n", "got 4: 'q1 Q0 d1 1'$"),  # a run's line cut short
        ("qrels", "q1 0 d1\n", "got 3: 'q1 0 d1'$"),  # no guess where nothing points to one
    ],
)
def test_a_line_of_the_wrong_file_says_which_mistake_it_points_to(tmp_path, kind, text, hint):
    # Files given in the wrong order (run first) or a CSV file: the commonest mistakes, named by the message.
    (tmp_path / "f").write_text(text)
    with pytest.raises(InputError, match=rf"^{re.escape(str(tmp_path / 'f'))}:1: a {kind} line needs .*{hint}"):
        (read_qrels if kind == "qrels" else read_run)(tmp_path / "f")


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "kind, text, message",
    [
        ("run", "1_0", r"score '1_0' is not a number \(trec_eval's atof reads 1 and ignores the rest\)"),
        ("run", "0x10", r"score '0x10' is a hexadecimal number, .* \(trec_eval's atof reads 16\)"),
        ("run", "3abc", r"score '3abc' is not a number"),
        ("qrels", "1e1", r"relevance '1e1' has an exponent; write the integer \(trec_eval's atol reads 1\)"),
        ("qrels", "2e0", r"relevance .2e0. has an exponent"),
        ("qrels", "0x1", r"relevance '0x1' is not a number"),
        ("qrels", "1_0", r"relevance '1_0' is not a number"),
        ("qrels", "9007199254740993", r"relevance '9007199254740993' is too large"),
        ("qrels", "0X1", r"relevance '0X1' is not a number"),  # Arrow's integer parser reads hexadecimal
        ("qrels", "9007199254740992", r"relevance '9007199254740992' is too large"),  # 2^53
        ("qrels", "-9007199254740992", r"relevance '-9007199254740992' is too large"),
        ("qrels", "-9223372036854775808", r"relevance '-9223372036854775808' is too large"),  # int64's smallest
    ],
)
def test_numbers_trec_eval_would_misread_are_refused_with_the_line(tmp_path, kind, text, message):
    if kind == "run":
        (tmp_path / "f").write_text(RUN + f"q2 Q0 b 2 {text} r\n")
        reader = read_run
    else:
        (tmp_path / "f").write_text(QRELS + f"q2 0 b {text}\n")
        reader = read_qrels
    with pytest.raises(InputError, match=rf"f:4: {message}"):
        reader(tmp_path / "f")


def test_the_largest_grades_read_are_just_below_2_to_the_53(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 a 9007199254740991\nq1 0 b -9007199254740991\nq1 0 c 0007\nq1 0 d -0\n")
    assert read_whole(tmp_path / "qrels", "qrels").value.tolist() == [2**53 - 1, -(2**53) + 1, 7, 0]


def test_fractional_grades_refused_by_integer_presets_not_read_as_something_else(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 a 2.5\nq1 0 b 1\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 2 r\nq1 Q0 b 2 1 r\n")
    with pytest.raises(InputError, match=r"qrels:1: grade '2.5' is not an integer"):
        evaluate(tmp_path / "qrels", tmp_path / "run")
    # A convention that takes real-valued grades reads 2.5 as 2.5.
    assert evaluate(tmp_path / "qrels", tmp_path / "run", convention="sklearn").values[0][0, 0] == 1.0


def test_huge_grades_allocate_nothing_by_their_value(tmp_path):
    import tracemalloc

    (tmp_path / "qrels").write_text("q1 0 a 10000000000\nq1 0 b 1\n")
    (tmp_path / "run").write_text("q1 Q0 b 1 2 r\nq1 Q0 a 2 1 r\n")
    tracemalloc.start()
    measures = ["ndcg", "ndcg.1000000000=2", "ndcg(gains={999999999: 5})"]
    # ranx's rules: under trec_eval's, gains 10^10 apart are refused (its sort of them is undefined)
    result = evaluate(tmp_path / "qrels", tmp_path / "run", measures, convention="ranx")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 2**20  # a table indexed by grade would take 75 GB here
    expected = _dcg([1, 1e10]) / _dcg([1e10, 1])
    assert result.values[0][:, 0] == pytest.approx([expected, expected, expected], rel=1e-12)


def test_a_cut_off_beyond_int64_is_no_cut(tmp_path):
    # numpy's minimum of lengths and such a cut-off overflowed (OverflowError traceback); no list reaches it.
    (tmp_path / "qrels").write_text("q1 0 a 2\nq1 0 b 1\nq2 0 c 1\n")
    (tmp_path / "run").write_text("q1 Q0 b 1 2 r\nq1 Q0 a 2 1 r\nq2 Q0 c 1 1 r\n")
    huge = "9" * 25
    result = evaluate(tmp_path / "qrels", tmp_path / "run", ["ndcg", f"ndcg@{huge}", f"ndcg_cut.{huge}"])
    expected = (_dcg([1, 2]) / _dcg([2, 1]) + 1.0) / 2
    assert result.mean_values[0].tolist() == pytest.approx([expected] * 3, rel=1e-15)
    # trec_eval reads the cut-off with atol, which saturates at LONG_MAX, and names the measure by that value
    assert [m.name for m in result.measures][2] == "ndcg_cut_9223372036854775807"
    with pytest.raises(ValueError, match="duplicate cut-offs"):  # both read as LONG_MAX, as trec_eval says
        evaluate(tmp_path / "qrels", tmp_path / "run", f"ndcg_cut.{huge},{huge[:-1]}")


# ---------------------------------------------------------------- compressed input, standard input


@pytest.mark.parametrize(
    "name, pack",
    [
        ("run.gz", gzip.compress),
        ("run.txt", gzip.compress),
        ("run", gzip.compress),
        ("run.bz2", gzip.compress),
        ("run.gz", lambda b: b),
        ("run.xz", bz2.compress),
        ("run.bz2", bz2.compress),
    ],
)
def test_compressed_input_recognised_by_content_not_by_name(files, name, pack):
    (files / name).write_bytes(pack(RUN.encode()))
    a = evaluate(files / "qrels", files / name)
    b = evaluate(files / "qrels", files / "run")
    np.testing.assert_array_equal(a.values[0], b.values[0])


@pytest.mark.parametrize("pack", [lzma.compress, bz2.compress])
def test_concatenated_streams_are_one_file_and_bytes_after_them_are_refused(files, pack):
    # As xz -d and bzip2 -d read them: streams one after another are one file, xz's stream padding (zero bytes,
    # between and after streams) is allowed, and bytes after the last stream that begin none are not data: bz2.open
    # and lzma.open dropped them silently (a run's last lines lost), and refused xz's padding as corrupt data.
    data = RUN.encode()
    half = data.index(b"\n", len(data) // 2) + 1
    padding = b"\0" * 4 if pack is lzma.compress else b""
    (files / "streams").write_bytes(pack(data[:half]) + padding + pack(data[half:]) + padding)
    expected = evaluate(files / "qrels", files / "run")
    np.testing.assert_array_equal(evaluate(files / "qrels", files / "streams").values[0], expected.values[0])
    (files / "tail").write_bytes(pack(data[:half]) + data[half:])
    with pytest.raises(InputError, match=r"tail: cannot read the (xz|bzip2) data \(truncated or corrupt\?\)"):
        evaluate(files / "qrels", files / "tail")
    if pack is lzma.compress:  # as xz -d: padding in fours only, and no .lzma stream after an .xz one
        for name, tail, said in (("pad3", b"\0" * 3, "3 zero bytes between two streams"), ("alone", None, "")):
            second = pack(data[half:], format=lzma.FORMAT_ALONE) if tail is None else tail + pack(data[half:])
            (files / name).write_bytes(pack(data[:half]) + second)
            with pytest.raises(InputError, match=rf"{name}: cannot read the xz data .*{said}"):
                evaluate(files / "qrels", files / name)


@pytest.mark.parametrize("pack", [lzma.compress, bz2.compress])
def test_many_small_streams_are_read_in_blocks_of_many_lines(files, pack):
    # Each stream was returned by its own read, so every stream (a line each, as `cat q*.bz2` makes) became a block
    # of its own, each paying a block's fixed cost: 10,000 one-line streams took 25 s (decompressed: 0.26 s)
    from ndcg_research.evaluation._sources import line_blocks, open_source

    lines = [f"q{i % 7} Q0 d{i} {i} {1000 - i} r\n".encode() for i in range(300)]
    (files / "plain").write_bytes(b"".join(sorted(lines)))
    (files / "streams").write_bytes(b"".join(pack(line) for line in sorted(lines)))
    (files / "judged").write_text("".join(f"q{i} 0 d{5 * i} 1\n" for i in range(7)))
    with open_source(files / "streams", "run") as source:
        blocks = list(line_blocks(source))
    assert blocks == [b"".join(sorted(lines))]
    expected = evaluate(files / "judged", files / "plain").values[0]
    np.testing.assert_array_equal(evaluate(files / "judged", files / "streams").values[0], expected)


class _Trickle(io.RawIOBase):
    """A pipe whose writer is slow: each read gives one byte (a buffered reader's peek then holds one byte)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self.data:
            return 0
        buffer[0], self.data = self.data[0], self.data[1:]
        return 1


@pytest.mark.parametrize("pack", [gzip.compress, lzma.compress, bz2.compress, lambda b: b])
def test_compressed_standard_input_is_recognised_however_slowly_its_bytes_arrive(files, monkeypatch, pack):
    # The format was told by peek(8), which on a pipe gives only what has arrived: a gzip run whose writer paused
    # after its first byte was read as text ("a NUL byte: not a text file").
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(_Trickle(pack(RUN.encode())))))
    a = evaluate(files / "qrels", "-")
    np.testing.assert_array_equal(a.values[0], evaluate(files / "qrels", files / "run").values[0])


def test_text_that_begins_like_a_bzip2_header_is_text(tmp_path):
    # "BZh" alone was bzip2's magic: a query named BZh9 made the file "corrupt bzip2 data". trec_eval reads it.
    (tmp_path / "qrels").write_bytes(b"BZh9 0 a 1\nBZh9 0 b 2\n")
    (tmp_path / "run").write_bytes(b"BZh9 Q0 a 1 2 t\nBZh9 Q0 b 2 1 t\n")
    result = evaluate(tmp_path / "qrels", tmp_path / "run")
    assert result.queries[0].tolist() == ["BZh9"]
    assert result.mean() == pytest.approx(_dcg([1, 2]) / _dcg([2, 1]))


def _closed_stdin() -> io.TextIOWrapper:
    stream = io.TextIOWrapper(io.BytesIO(RUN.encode()))
    stream.close()
    return stream


@pytest.mark.parametrize("stdin", [None, io.StringIO(RUN), _closed_stdin()])
def test_standard_input_without_bytes_is_refused_by_name(files, monkeypatch, stdin):
    # A closed standard input (sys.stdin is None: `<&-`) or a text stream in its place (a notebook, a test) raised
    # AttributeError: 'NoneType' object has no attribute 'buffer'.
    monkeypatch.setattr(sys, "stdin", stdin)
    for qrels, run in ((files / "qrels", "-"), ("-", files / "run")):
        with pytest.raises(InputError, match=r"^standard input \(-\) cannot be read as bytes here"):
            evaluate(qrels, run)


def test_a_file_without_line_ends_is_read_as_one_line(tmp_path):
    # Each 2 MB read joined everything since the last line end again (4 times the bytes: 18 times the time); the
    # bytes after the last line end are kept in pieces and joined once. Blocks are still whole lines.
    pieces = [b"q Q0 d 1 1 t\r" * 1000] * 30 + [b"\n", b"q Q0 e 1 1 t\r" * 5, b"\nlast"]
    source = Source("run", io.BytesIO(b"".join(pieces)))
    blocks = list(line_blocks(source, size=4096))
    assert b"".join(blocks) == b"".join(pieces)
    assert all(block.endswith(b"\n") for block in blocks[:-1]) and blocks[-1] == b"last"


def test_a_document_ranked_twice_is_named_in_a_line_of_a_readable_length(tmp_path):
    (tmp_path / "qrels").write_bytes(b"q 0 a 1\n")
    (tmp_path / "run").write_bytes(b"q Q0 %s 1 2 t\nq Q0 %s 2 1 t\n" % (b"x" * 40000, b"x" * 40000))
    with pytest.raises(InputError, match=r"run:1: document 'x{60}\.\.\.' is ranked twice for query 'q'") as error:
        evaluate(tmp_path / "qrels", tmp_path / "run")
    assert "x" * 61 not in str(error.value)  # the 40,000-byte id was written whole


def test_truncated_or_unreadable_compressed_input_names_the_file(files, capfdbinary):
    (files / "cut.gz").write_bytes(gzip.compress(RUN.encode() * 200)[:-30])
    status, out, err = cli(capfdbinary, "evaluate", files / "qrels", files / "cut.gz")
    assert status == 1 and out == "" and err.count("\n") == 1
    assert f"{files / 'cut.gz'}: cannot read the gzip data (truncated or corrupt?)" in err
    for name, pack, what in (("bad.xz", lzma.compress, "xz"), ("bad.bz2", bz2.compress, "bzip2")):
        data = bytearray(pack(RUN.encode() * 200))
        data[len(data) // 2] ^= 0xFF  # corrupt in the middle: lzma.LZMAError, OSError from bz2
        (files / name).write_bytes(bytes(data))
        status, out, err = cli(capfdbinary, "evaluate", files / "qrels", files / name)
        assert (
            status == 1 and out == "" and f"{files / name}: cannot read the {what} data (truncated or corrupt?)" in err
        )
    (files / "run.zst").write_bytes(b"\x28\xb5\x2f\xfd" + b"\x00" * 20)
    status, _, err = cli(capfdbinary, "evaluate", files / "qrels", files / "run.zst")
    assert (
        status == 1
        and f"{files / 'run.zst'}: holds zstd-compressed data, not read here: decompress it (zstd -d)" in err
    )
    # xz's legacy .lzma format (xz --format=lzma) was refused as "a carriage return that does not end a line"
    (files / "run.lzma").write_bytes(lzma.compress(RUN.encode(), format=lzma.FORMAT_ALONE))
    status, _, err = cli(capfdbinary, "evaluate", files / "qrels", files / "run.lzma")
    assert status == 1 and f"{files / 'run.lzma'}: holds lzma-compressed data, not read here: decompress it" in err


def test_dash_reads_standard_input(files):
    for args, stdin in (([str(files / "qrels"), "-"], RUN), (["-", str(files / "run")], QRELS)):
        result = subprocess.run(
            [sys.executable, "-m", "ndcg_research", "evaluate", "-q", *args], input=stdin.encode(), capture_output=True
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.decode().splitlines()[0] == f"ndcg                  \tq1\t{1:6.4f}"
    result = subprocess.run(
        [sys.executable, "-m", "ndcg_research", "evaluate", "-", "-"], input=b"", capture_output=True
    )
    assert result.returncode == 1 and b"standard input (-) can be read once" in result.stderr


def test_interleaved_queries_from_a_file_fall_back_to_reading_it_whole(files):
    interleaved = "q1 Q0 a 1 2.5 r\nq2 Q0 a 1 1.0 r\nq1 Q0 b 2 1.5 r\n"
    (files / "mixed").write_text(interleaved)
    result = evaluate(files / "qrels", files / "mixed")
    np.testing.assert_array_equal(result.values[0], evaluate(files / "qrels", files / "run").values[0])
    # (a file this small is one block: whole queries; the fallback shows on blocks of one line)
    blocks = [read_whole(files / "mixed", "run")[i : i + 1] for i in range(3)]
    evaluator = sys.modules["ndcg_research.evaluation._evaluator"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(evaluator, "query_blocks", lambda path, stream=None: iter(blocks))
        fallback = evaluate(files / "qrels", files / "mixed")
    np.testing.assert_array_equal(fallback.values[0], result.values[0])
    assert any(
        "query 'q1' appears again at" in note and "the run was read whole into memory instead of in blocks" in note
        for note in fallback.notes
    )


@pytest.mark.parametrize("pack", [lambda b: b, gzip.compress], ids=["plain", "gzip"])
def test_interleaved_queries_on_standard_input_are_read_again_from_its_copy(files, pack):
    # q1 at both ends of a run longer than the first block (1 MB): standard input cannot be read twice,
    # so what was read is kept and the rest joins it. Expected: trec_eval's values, by hand.
    # q2: its one judged document (a, grade 1) third of 60,001: nDCG = (1 / log2 4) / 1 = 0.5.
    filler = [f"q2 Q0 x{i} {i + 1} {-i} r\n" for i in range(60_000)]
    filler.insert(2, "q2 Q0 a 3 -1.5 r\n")
    run = "q1 Q0 a 1 2.5 r\n" + "".join(filler) + "q1 Q0 b 2 1.5 r\n"
    result = subprocess.run(
        [sys.executable, "-m", "ndcg_research", "evaluate", "-q", str(files / "qrels"), "-"],
        input=pack(run.encode()),
        capture_output=True,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    by_query = {line.split("\t")[1]: float(line.split("\t")[2]) for line in lines if line.startswith("ndcg ")}
    assert by_query == {"q1": 1.0, "q2": 0.5, "all": 0.75}  # q1: a (grade 2) then b (grade 1), the ideal order
    assert b"query 'q1' appears again at standard input:60003" in result.stderr


# ---------------------------------------------------------------- cost proportional to the bytes read


def test_one_long_id_costs_its_own_bytes_not_every_rows(tmp_path):
    # Ids are hashed by pyarrow over their bytes: one 32 KB id among 50,000 short ones costs its own bytes.
    # Anything that padded ids to the longest (50,000 x 32 KB = 1.6 GB) would show in the peak memory.
    long_id = "x" * 32_768
    judged = "".join(f"q 0 doc{i} {i % 2}\n" for i in range(0, 50_000, 3))
    (tmp_path / "qrels").write_text(f"q 0 {long_id} 1\n" + judged)
    (tmp_path / "run").write_text(
        "".join(f"q Q0 doc{i} {i} {50_000 - i} r\n" for i in range(50_000)) + f"q Q0 {long_id} 50001 0 r\n"
    )
    # The child's own peak (VmHWM; ru_maxrss would keep the high-water mark of this process across exec).
    code = (
        "import sys, ndcg_research as nr\n"
        "nr.evaluate(sys.argv[1], sys.argv[2])\n"
        "print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "qrels"), str(tmp_path / "run")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(result.stdout) < 400 * 1024  # KiB: the interpreter, numpy, pandas and pyarrow take about 150 MB


def test_huge_ids_and_a_huge_line_are_evaluated(tmp_path):
    big = "d" * 5_000_000
    (tmp_path / "qrels").write_text(f"q 0 {big}1 1\nq 0 {big}2 2\n")
    (tmp_path / "run").write_text(f"q Q0 {big}1 1 1.0 r\nq Q0 {big}2 2 1.0 r\n")  # two tied 5 MB ids
    result = evaluate(tmp_path / "qrels", tmp_path / "run")
    assert result.values[0][0, 0] == 1.0  # tie: ...2 > ...1 by strcmp, so grade 2 first
    (tmp_path / "line").write_text("q Q0 " + "e" * 40_000_000 + " 1 1.0 r\n")  # one 40 MB line, longer than a block
    assert evaluate(tmp_path / "qrels", tmp_path / "line").values[0][0, 0] == 0.0  # an unjudged document


# ---------------------------------------------------------------- measures


@pytest.mark.parametrize(
    "spec, message",
    [
        (
            "ndcg_cut.",
            r"no cut-offs listed \(trec_eval: 'improper measure'\); give them after the dot \(ndcg_cut.10,20\), or write "
            r"ndcg_cut for its defaults$",
        ),
        ("ndcg_cut.1e3", r"cut-off '1e3' is not a whole number \(trec_eval's atol would read 1\)"),
        ("ndcg_cut.1e0", r"cut-off '1e0' is not a whole number"),
        ("ndcg.1=3,1=5", r"grade 1 is given two gains; trec_eval accepts this, but its ranking may take one gain"),
        # (form_res_rels.c: a ranked document absent from the qrels is level -1, one judged below 0 is level -2; it
        # said that trec_eval gives a negative grade's gain "to the ranked documents of that grade")
        (
            "ndcg.-1=5",
            r"grade -1 is below 0: trec_eval marks a ranked document absent from the qrels -1 and one judged ",
        ),
        ("ndcg.1=2,-2=5", r"grade -2 is below 0: .*grade -2's to every document judged below 0 \(never to the ideal\)"),
        ("ndcg.-5=5", r"grade -5 is below 0: .*and another negative grade's to none"),
        ("ndcg_cut.2.5", r"cut-off '2.5' is not a whole number \(trec_eval's atol would read 2\)"),
        # C's atol skips only C's blanks: \x1c (a blank to Python's lstrip) stops it at once (it said "would read 5")
        ("ndcg_cut.\x1c5", r"cut-off '\\x1c5' is not a whole number \(trec_eval's atol would read 0\)"),
        ("ndcg.1=1_0", r"gain '1_0' is not a number \(trec_eval's atof reads 1 and ignores the rest\)"),
        # meas_init.c's get_param_pairs: one '=' per entry ("1=3;2=9" was said to be read as gain 3); atof("") is 0
        ("ndcg.1=3;2=9", r"entries are GRADE=GAIN, got '1=3;2=9' \(trec_eval refuses it too\)"),
        ("ndcg.1=3,2", r"entries are GRADE=GAIN, got '2' \(trec_eval refuses it too\)"),
        ("ndcg.1=", r"entries are GRADE=GAIN, got '1=' \(trec_eval reads an empty gain as 0\)"),
        ("ndcg.=3", r"grade '' must be an integer >= 0 \(trec_eval skips the entry, silently\)"),
        # trec_eval's atof reads these (gain_init.c): they were "not a number" (checked with the binary: 0x10 is 16)
        ("ndcg.1=0x10", r"gain '0x10' is a hexadecimal number, .* \(trec_eval's atof reads 16\)"),
        ("ndcg.1=inf", r"gain 'inf' is not a finite number \(trec_eval's atof reads inf\)"),
        ("ndcg.1=1e400", r"gain '1e400' is beyond the float64 range \(trec_eval's atof reads inf\)"),
        ("ndcg.1=\u0131nf", r"gain '\u0131nf' is not a number;"),  # a dotless i: not 'inf' to C's atof
    ],
)
def test_measure_names_trec_eval_reads_otherwise_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_measures(spec)


def test_gain_maps_trec_eval_reads_alike_are_read_alike():
    # gain_init.c reads a level with atol after valid_int (an optional sign, digits): -0 is grade 0. The same gain
    # given twice for one grade is one gain (two entries, one value: ranking and ideal agree).
    assert parse_measures("ndcg.-0=4,2=9")[0].gains == ((0, 4.0), (2, 9.0))
    assert parse_measures("ndcg.1=3,1=3.0")[0].gains == ((1, 3.0),)


@pytest.mark.parametrize("spec", ["ndcg_cut.1, 2", "ndcg_cut. 1,2 ", "ndcg_cut.1,\t2\n"])
def test_blanks_around_a_cut_off_are_skipped_as_atol_skips_them(spec):
    # trec_eval (meas_init.c, get_long_cutoffs) reads each cut-off with atol, which skips leading blanks and stops
    # at trailing ones: "1, 2" is cut-offs 1 and 2. It was refused as "' 2' is not a whole number (atol would read 2)".
    assert [m.k for m in parse_measures(spec)] == [1, 2]
    assert [m.name for m in parse_measures(spec)] == ["ndcg_cut_1", "ndcg_cut_2"]


def test_runid_alone_prints_only_runid(files, capfdbinary):
    status, out, _ = cli(capfdbinary, "evaluate", "-m", "runid", files / "qrels", files / "run")
    assert status == 0 and out == "runid                 \tall\tr\n"
    status, out, _ = cli(capfdbinary, "evaluate", "-m", "num_q", "-m", "runid", files / "qrels", files / "run")
    assert out == "runid                 \tall\tr\nnum_q                 \tall\t2\n"


# ---------------------------------------------------------------- output


def test_a_query_named_all_stays_apart_from_the_mean_in_csv(tmp_path, capfdbinary):
    (tmp_path / "qrels").write_text("all 0 a 1\nb 0 a 1\n")
    (tmp_path / "run").write_text("all Q0 a 1 1 r\nb Q0 x 1 1 r\n")
    status, out, _ = cli(
        capfdbinary, "evaluate", "-q", "--format", "csv", "--quiet", tmp_path / "qrels", tmp_path / "run"
    )
    table = pd.read_csv(__import__("io").StringIO(out))
    assert status == 0 and table["query"].tolist()[:2] == ["all", "b"]
    assert table["query"].isna().tolist() == [False, False, True]  # the mean: an empty query
    assert table.value.tolist() == [1.0, 0.0, 0.5]


def test_a_full_disk_on_standard_output_is_a_one_line_error(files):
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "ndcg_research", "evaluate", "-q", str(files / "qrels"), str(files / "run")],
            stdout=full,
            stderr=subprocess.PIPE,
        )
    assert result.returncode == 1
    assert result.stderr.decode().splitlines() == [
        "ndcg-research evaluate: error: cannot write the output to standard output (No space left on device); "
        "the output is incomplete"
    ]


def _strict_json(text):
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_compare_json_is_strict_json_and_a_run_given_twice_is_named(files, capfdbinary):
    (files / "same").write_text(RUN)
    (files / "other").write_text(RUN.replace("2.5", "0.5"))
    status, out, _ = cli(
        capfdbinary,
        "compare",
        "--format",
        "json",
        "--quiet",
        files / "qrels",
        files / "run",
        files / "same",
        files / "other",
    )
    assert status == 0
    pairs = _strict_json(out)[0]["pairs"]
    assert pairs[0]["system_a"] == "run" and pairs[0]["system_b"] == "same" and pairs[0]["effect_size"] is None
    status, _, err = cli(capfdbinary, "compare", files / "qrels", files / "run", files / "run")
    assert status == 1 and f"run '{files / 'run'}' is given twice" in err and "got 1" not in err
    # The same file however its path is spelled: through '..', or a symbolic link.
    (files / "link").symlink_to(files / "run")
    for spelling in (files / "link", files / ".." / files.name / "run"):
        status, _, err = cli(capfdbinary, "compare", files / "qrels", files / "run", spelling)
        assert status == 1 and f"run '{spelling}' is given twice (as runs[0] too)" in err


def test_bootstrap_intervals_need_enough_resamples(files, capfdbinary):
    (files / "other").write_text(RUN.replace("2.5", "0.5"))
    status, out, err = cli(
        capfdbinary, "compare", "--interval", "bca", "--resamples", "1", files / "qrels", files / "run", files / "other"
    )
    assert status == 1 and out == "" and "nan" not in err.lower()
    assert "error: --resamples must be at least 40 for a 95% bca bootstrap interval" in err  # the option, by its name


# ---------------------------------------------------------------- the Python API


def _frames(**run_columns):
    qrels = pd.DataFrame({"query": ["q1", "q1"], "doc": ["1", "2"], "relevance": [1, 2]})
    run = pd.DataFrame({"query": ["q1", "q1"], "doc": ["1", "2"], "score": [2.0, 1.0]} | run_columns)
    return qrels, run


def test_float_document_ids_are_refused_not_scored_zero():
    qrels, run = _frames(doc=[1.0, 2.0])
    with pytest.raises(InputError, match=r"column 'doc' holds floats \(1.0 at row 0\).*would not match '1'"):
        evaluate(qrels, run)
    qrels, run = _frames(doc=[1, 2])  # integers are their decimal text
    assert evaluate(qrels, run).values[0][0, 0] == pytest.approx(_dcg([1, 2]) / _dcg([2, 1]))


def test_float_and_boolean_ids_are_named_by_their_row_label_or_category():
    # Index labels, as other messages name rows (they were named by position): the frames are labelled 10, 11.
    for ids, shown in (
        ([0.5, 2.0], r"floats \(0.5 at row 10\)"),
        ([False, True], r"booleans \(False at row 10\)"),
    ):
        qrels, run = _frames(doc=ids)
        with pytest.raises(InputError, match=rf"run DataFrame column 'doc' holds {shown}"):
            evaluate(qrels, run.set_axis([10, 11]))
    qrels, run = _frames(doc=pd.Categorical([True, False]))  # categories are sorted: False is category 0
    with pytest.raises(InputError, match=r"column 'doc' holds booleans \(False at category 0\)"):
        evaluate(qrels, run)


def test_int64_scores_beyond_two_to_the_53_are_refused_not_rounded_into_ties():
    qrels, run = _frames(score=np.array([2**53 + 1, 2**53 + 2], dtype=np.int64))
    with pytest.raises(InputError, match=r"DataFrame row 0: score 9007199254740993 is not exact as a float64"):
        evaluate(qrels, run)


def test_a_duplicated_index_names_rows_by_position():
    qrels = pd.DataFrame({"query": ["q1", "q1", "q1"], "doc": ["a", "b", "a"], "relevance": [1, 2, 0]}, index=[0, 0, 0])
    run = pd.DataFrame({"query": ["q1"], "doc": ["a"], "score": [1.0]})
    with pytest.raises(
        InputError,
        match=r"DataFrame row at position 0: document 'a' is judged twice for query 'q1' "
        r"\(again at qrels DataFrame row at position 2\)",
    ):
        evaluate(qrels, run)


def test_duplicated_column_names_are_refused():
    qrels, run = _frames()
    twice = pd.concat([run, run[["doc"]]], axis=1)
    with pytest.raises(InputError, match=r"run DataFrame has 2 columns named 'doc'; keep one"):
        evaluate(qrels, twice)


@pytest.mark.parametrize(
    "argument, value", [("complete", "no"), ("complete", 0), ("judged_only", "yes"), ("judged_only", None)]
)
def test_strings_and_other_values_for_booleans_are_refused(argument, value):
    qrels, run = _frames()
    with pytest.raises(TypeError, match=rf"{argument} must be True(, | or )False"):
        evaluate(qrels, run, **{argument: value})


def test_measures_none_is_a_clear_error():
    qrels, run = _frames()
    with pytest.raises(TypeError, match=r"measures must be a measure spec or a sequence of them.*got None"):
        evaluate(qrels, run, None)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (2**70, r"score 1180591620717411303424 does not fit in 64 bits"),
        (-(2**70), r"score -1180591620717411303424 does not fit in 64 bits"),
        (1 + 2j, r"score must be a real number, got complex \(1\+2j\)"),
    ],
)
def test_dict_values_numpy_cannot_hold_are_refused_by_name(value, message):
    # These made an object or complex array in which the search for the bad value found nothing (StopIteration).
    with pytest.raises(InputError, match=r"run dict: query 'q', document 'd': " + message):
        evaluate({"q": {"d": 1}}, {"q": {"d": value, "e": 1.0}}, "ndcg")


@pytest.mark.parametrize("values", [([1, 2], [0, 1]), ([1, 2], [0]), (1.0, [0.5])])
def test_dict_values_that_are_lists_are_refused_by_name(values):
    # numpy made lists of one length rows of a 2-D array (scored 1.0, silently), of other lengths an error of its own.
    run = {"q": dict(zip("ab", values, strict=True))}
    with pytest.raises(
        InputError, match=r"run dict: query 'q', document '[ab]': score must be a real number, got list"
    ):
        evaluate({"q": {"a": 1, "b": 0}}, run, "ndcg")


def test_dict_values_that_are_0d_arrays_are_numbers():
    # A 0-d array holds one number: "b" (grade 0) is ranked above "a" (grade 1), so nDCG = 1 / log2(3).
    value = evaluate({"q": {"a": np.array(1), "b": 0}}, {"q": {"a": np.array(1.0), "b": np.array(2.0)}}, "ndcg")
    assert value.mean() == pytest.approx(1 / np.log2(3), abs=1e-15)


@pytest.mark.parametrize("other", [bytearray(b"a"), memoryview(b"a")])
def test_ids_mixing_text_and_any_bytes_type_are_refused(other):
    # pyarrow reads bytearray and memoryview as it reads bytes: beside str they made one text column.
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["b", other], "score": [1.0, 2.0]})
    shown = r"bytearray\(b'a'\)" if isinstance(other, bytearray) else "b'a'"  # (a memoryview by its bytes)
    with pytest.raises(InputError, match=rf"mixes strings \('b' at row 0\) and bytes \({shown} at row 1\)"):
        evaluate({"q": {"a": 1, "b": 0}}, run, "ndcg")


def test_ids_mixing_integers_and_bytes_name_that_pair():
    run = pd.DataFrame({"query": ["q", "q"], "doc": [1, b"a"], "score": [1.0, 2.0]})
    with pytest.raises(InputError, match=r"so 1 and b'1' would be one id"):
        evaluate({"q": {"a": 1, "1": 0}}, run, "ndcg")


def test_dict_ids_messages_name_the_dict_and_its_entries():
    with pytest.raises(
        InputError, match=r"run dict \(its document ids\) mixes strings \('d' at entry 0\) and integers"
    ):
        evaluate({"q": {"d": 1}}, {"q": {"d": 1.0, 1: 2.0}}, "ndcg")
    with pytest.raises(InputError, match=r"document '': doc is an empty string.*trec_eval could not read an empty id"):
        evaluate({"q": {"d": 1, "": 1}}, {"q": {"d": 1.0}}, "ndcg")


def test_run_names_do_not_depend_on_the_hash_seed():
    # Tags x, x, z, z read from files whose names clash with the tags: renaming one clash changes the names the
    # next one sees, so the clashes must be resolved in a fixed order (they were taken in set order).
    code = (
        "import pandas as pd\n"
        "from ndcg_research.evaluation._frames import run_names\n"
        "frames = []\n"
        "for tag, source in [('x', 'p/y.txt'), ('x', 'q/z.txt'), ('z', 'r/w.txt'), ('z', 's/y.txt')]:\n"
        "    frame = pd.DataFrame({'query': ['q'], 'doc': ['d'], 'score': [1.0]})\n"
        "    frame.attrs.update(run=tag, source=source)\n"
        "    frames.append(frame)\n"
        "print(run_names(frames))\n"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in range(12)
    }
    assert seen == {"['y', 'q/z.txt', 'w', 's/y.txt']"}


def test_integer_columns_beyond_int64_are_named_by_their_own_value():
    # uint64 values above 2^63 were shown wrapped (negative) with a numpy overflow warning; a grade was refused with
    # the scores' wording ("would tie with its neighbours; rescale the relevances") or as "np.float64(1.15e+18)".
    qrels = pd.DataFrame({"query": ["q"] * 4, "doc": list("abcd"), "relevance": [1, 0, 1, 0]})
    run = pd.DataFrame({"query": ["q"] * 4, "doc": list("abcd"), "score": [4.0, 3.0, 2.0, 1.0]})
    cases = [
        (
            qrels,
            run.assign(score=np.array([2**63 + 1, 2**63, 1, 1], dtype=np.uint64)),
            "score 9223372036854775809 is not exact",
        ),
        (
            qrels.assign(relevance=np.array([2**63 + 5, 0, 1, 0], dtype=np.uint64)),
            run,
            "relevance 9223372036854775813 is too large",
        ),
        (
            qrels.assign(relevance=[2**60, 0, 1, 0]),
            run,
            r"relevance 1152921504606846976 is too large; grades must be below 2\^53 in magnitude",
        ),
    ]
    for judged, ranked, message in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(InputError, match=r"DataFrame row 0: " + message):
                evaluate(judged, ranked, "ndcg")


def test_a_run_whose_queries_gdeval_does_not_evaluate_is_refused_for_that_reason():
    # Every ranked query has judgments, all of grade 0: the message said no query had both a ranking and judgments.
    qrels = pd.DataFrame({"query": ["1", "1"], "doc": ["a", "b"], "relevance": [0, 0]})
    run = pd.DataFrame({"query": ["1", "1"], "doc": ["a", "b"], "score": [1.0, 0.5]})
    with pytest.raises(InputError, match=r"no ranked query has a judgment above 0 .*gdeval evaluates only such"):
        evaluate(qrels, run, "ndcg@20", convention="gdeval")


def test_a_dict_row_is_named_by_its_query_and_document_in_every_message():
    # A grade outside the preset's range in a dict said "dict row 0", where the other dict messages name the entry.
    with pytest.raises(InputError, match=r"^qrels dict: query 'q', document 'd': grade 31 is above 30"):
        evaluate({"q": {"d": 31, "e": 1}}, {"q": {"d": 1.0, "e": 2.0}}, "ndcg@5", convention="lightgbm")


def test_ids_of_one_kind_that_is_not_text_are_refused_for_what_they_are():
    # A column of dates said it "mixes Timestamp ...: 1 and '1' would be one id", though nothing was mixed.
    qrels = pd.DataFrame(
        {"query": ["q", "q"], "doc": pd.to_datetime(["2020-01-01", "2020-01-02"]), "relevance": [1, 0]}
    )
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [1.0, 2.0]})
    with pytest.raises(InputError, match=r"column 'doc' holds Timestamp \(.* at row 0\): ids must be strings or integ"):
        evaluate(qrels, run, "ndcg")


def test_a_gain_that_overflows_names_the_judgments_and_the_measure():
    # The message said "for grade 2000.0 in relevance", naming neither the file nor the measure.
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [2000, 1]})
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [1.0, 2.0]})
    with pytest.raises(
        ValueError, match=r"grade 2000.0 in the grades of qrels DataFrame \(measure ndcg\(gain=exp2\)\)"
    ):
        evaluate(qrels, run, "ndcg(gain=exp2)")


def test_a_dataframe_row_is_named_with_whose_frame_it_is():
    # "DataFrame row 1: doc is missing" did not say whether the judgments or the run lacked it.
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", None], "score": [1.0, 2.0]})
    with pytest.raises(InputError, match=r"^run DataFrame row 1: doc is missing"):
        evaluate(qrels, run, "ndcg")
    with pytest.raises(InputError, match=r"^qrels DataFrame row 1: doc is missing"):
        evaluate(
            run.rename(columns={"score": "relevance"}).assign(relevance=[1, 0]),
            qrels.rename(columns={"relevance": "score"}),
            "ndcg",
        )


def test_a_dict_run_that_ranks_nothing_is_named_so_not_taken_for_a_mapping_of_runs():
    # {"q1": {}} was read as one run named "q1" whose value {} is no run: a TypeError about run types.
    for run in ({"q1": {}}, {"q1": {}, "q2": {}}):
        with pytest.raises(InputError, match=r"^run dict: every query maps to an empty dict$"):
            evaluate({"q1": {"d": 1}}, run, "ndcg")
    with pytest.raises(ValueError, match="runs must hold at least one run, got an empty mapping"):
        evaluate({"q1": {"d": 1}}, {}, "ndcg")


@pytest.mark.parametrize("where", ["query", "doc"])
def test_tuple_ids_in_a_dict_are_named_as_tuples(where):
    # np.asarray made the tuples rows of a 2-D array: the message showed an ndarray row, not the id.
    ids = {"query": (("q", 1), "d"), "doc": ("q", ("d", 1))}[where]
    query, doc = ids
    kind = "query" if where == "query" else "document"
    with pytest.raises(
        InputError,
        match=rf"qrels dict \(its {kind} ids\) holds tuple \({re.escape(repr(ids[where == 'doc']))} at entry 0\)",
    ):
        evaluate({query: {doc: 1}}, {query: {doc: 1.0}}, "ndcg")


@pytest.mark.parametrize(
    ("grade", "shown"),
    [
        (10**30, "grade 1000000000000000000000000000000 does not fit in 64 bits"),
        (1e300, r"relevance 1e\+300 is too large"),
    ],
)
def test_a_huge_dict_grade_is_refused_with_the_limit_not_advice_that_fails_too(grade, shown):
    # "give it as a float" was the advice for 10**30; as a float it was then refused as too large.
    with pytest.raises(InputError, match=shown + r"; grades must be below 2\^53 in magnitude"):
        evaluate({"q": {"d": grade, "e": 0}}, {"q": {"d": 1.0, "e": 0.5}}, "ndcg", convention="sklearn")


@pytest.mark.parametrize(
    ("qrels", "shown"),
    [
        (b"q1 0 d\xff1 1\nq1 0 d2 0\n", r"qrels:1: document id b'd\\xff1' is not UTF-8 text"),
        (b"q1 0 d1 1\nq\xfe2 0 d2 0\n", r"qrels:2: query id b'q\\xfe2' is not UTF-8 text"),
    ],
)
def test_read_qrels_names_the_line_and_id_that_is_not_utf8(tmp_path, qrels, shown):
    # The message named the file only ("ids must be UTF-8 text to go into a DataFrame").
    (tmp_path / "qrels").write_bytes(qrels)
    with pytest.raises(
        InputError, match=shown + ", as a DataFrame needs; pass the file to evaluate, which keeps the bytes$"
    ):
        read_qrels(tmp_path / "qrels")


@pytest.mark.parametrize(
    ("measure", "option", "value", "message"),
    [
        ("ndcg.1=3", "--gain", "exp2", "--gain exp2 and the measure ndcg_1=3 both set a gain; set it once"),
        ("ndcg@2(gain=exp2)", "--gain", "linear", "--gain linear and the measure ndcg@2(gain=exp2) both set a gain"),
        ("ndcg(discount=zipf)", "--discount", "log2", "--discount log2 and the measure ndcg(discount=zipf) both set"),
    ],
)
def test_a_gain_or_discount_set_twice_is_refused_not_one_of_them_ignored(
    files, capfdbinary, measure, option, value, message
):
    # --gain was silently ignored for a measure with its own gain or gain map.
    status, out, err = cli(capfdbinary, "evaluate", "-m", measure, option, value, files / "qrels", files / "run")
    assert (status, out) == (1, "") and message in err
    status, out, _ = cli(capfdbinary, "evaluate", "-m", "ndcg", option, value, files / "qrels", files / "run")
    assert status == 0 and out.startswith(f"ndcg({option[2:]}={value})")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            "1 qid:1 1:1\n0 qid:1 1:2\n2 qid:2 1:1\n0 qid:2 1:3\n1 qid:1 1:1\n0 qid:1 1:0\n",
            r"data:5: qid:1 comes back after other queries \(its lines begin at line 1\)",
        ),
        ("1 qid:1 1:1\n0 qid:01 1:2\n2 qid:01 1:1\n", r"data:2: qid:01 and qid:1 \(line 1\) are one integer"),
        ("1 qid:+7 1:1\n\n0 qid:7 1:2\n", r"data:3: qid:7 and qid:\+7 \(line 1\) are one integer"),
    ],
)
def test_svmlight_qids_are_grouped_as_the_learning_to_rank_tools_group_them_or_refused(tmp_path, data, message):
    # XGBoost makes a group of each run of consecutive lines with one qid, read as an integer; the reader grouped
    # lines by the qid's text wherever they were: a silently different number (XGBoost 0.7540, ours 0.6968).
    (tmp_path / "data").write_text(data)
    with pytest.raises(InputError, match=message):
        svmlight_columns(tmp_path / "data")
    grouped = "1 qid:1 1:1\n0 qid:1 1:2\n2 qid:2 1:1\n0 qid:10 1:3\n"  # one run per qid, each written once
    (tmp_path / "data").write_text(grouped)
    assert svmlight_columns(tmp_path / "data").query.to_pylist() == [b"1", b"1", b"2", b"10"]


def test_a_carriage_return_that_ends_the_file_ends_its_last_line(tmp_path):
    # trec_eval adds the missing line end and reads the \r as a blank; it was refused as "a carriage return that
    # does not end a line" (it does). A \r inside a line is still refused.
    (tmp_path / "qrels").write_bytes(b"q1 0 d1 0\r\nq1 0 d2 1\r")
    (tmp_path / "run").write_bytes(b"q1 Q0 d1 1 2 t\r\nq1 Q0 d2 2 1 t\r")
    result = evaluate(tmp_path / "qrels", tmp_path / "run", "ndcg")
    assert result.values[0][0, 0] == pytest.approx(1 / math.log2(3))  # the relevant d2 at rank 2
    (tmp_path / "run").write_bytes(b"q1 Q0 d1 1 2 t\rq1 Q0 d2 2 1 t\r")
    with pytest.raises(InputError, match=r"run:1: a carriage return \(\\r\) that does not end a line"):
        evaluate(tmp_path / "qrels", tmp_path / "run", "ndcg")


def test_an_svmlight_qid_of_thousands_of_digits_is_compared_as_text(tmp_path):
    # int() refuses more than 4,300 digits: a bare ValueError without the file or line.
    long = "1" * 5000
    (tmp_path / "data").write_text(f"1 qid:{long} 1:1\n0 qid:{long} 1:2\n2 qid:0{long} 1:1\n")
    with pytest.raises(InputError, match=rf"data:3: qid:0{long} and qid:{long} \(line 1\) are one integer"):
        svmlight_columns(tmp_path / "data")
    (tmp_path / "data").write_text(f"1 qid:{long} 1:1\n0 qid:-0 1:2\n2 qid:0 1:1\n")
    with pytest.raises(InputError, match=r"data:3: qid:0 and qid:-0 \(line 2\) are one integer"):
        svmlight_columns(tmp_path / "data")


def test_ids_with_surrogate_escapes_match_the_bytes_they_stand_for(tmp_path):
    # Evaluation.queries keeps a file's undecodable bytes as surrogate escapes (b"q\xff" -> "q\udcff"); given back in
    # a dict or an object column, such an id raised a bare UnicodeEncodeError from pyarrow.
    (tmp_path / "qrels").write_bytes(b"q\xff 0 d1 1\nq\xff 0 d2 2\n")
    expected = (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))  # d1 (grade 1) first, then d2 (grade 2)
    escaped = b"q\xff".decode("utf-8", "surrogateescape")
    frame = pd.DataFrame({"query": [escaped] * 2, "doc": ["d1", "d2"], "score": [2.0, 1.0]}, dtype=object)
    runs = {"dict": {escaped: {"d1": 2.0, "d2": 1.0}}, "frame": frame.astype({"score": float})}
    result = evaluate(tmp_path / "qrels", runs, "ndcg")
    assert [v[0, 0] for v in result.values] == [pytest.approx(expected)] * 2
    assert result.queries[0].tolist() == [escaped]
    with pytest.raises(InputError, match=r"run dict: .*query 'q\\ud800' holds a surrogate that stands for no byte"):
        evaluate(tmp_path / "qrels", {"q\ud800": {"d1": 1.0}}, "ndcg")


def test_a_file_named_like_a_table_has_its_rows_named_by_line(tmp_path, monkeypatch):
    # Rows were named as a DataFrame's when the source's name was the text "DataFrame": a file of that name said
    # "qrels DataFrame row 1" for its first line. How rows are named is the reader's to say, not the name's.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "DataFrame").write_bytes(b"q 0 a 1\nq 0 a 2\n")
    with pytest.raises(InputError, match=r"^DataFrame:1: document 'a' is judged twice .*again at DataFrame:2\)"):
        evaluate("DataFrame", {"run": {"q": {"a": 1.0}}}, "ndcg")
    frame = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [1, -(2**60)]}, index=[10, 20])
    with pytest.raises(InputError, match=r"^qrels DataFrame row 20: "):
        evaluate(frame, {"run": {"q": {"a": 1.0}}}, "ndcg")


def test_surrogate_escapes_of_utf8_text_are_refused_not_merged():
    # "\udcc3\udca9" escapes the bytes C3 A9, UTF-8 for "é": read as bytes it was the id "é", so two queries (or two
    # judgments) of different keys became one, silently (a ranking joined from both; an IndexError for the qrels).
    escaped = "\udcc3\udca9"
    with pytest.raises(InputError, match=r"query '\\udcc3\\udca9' escapes bytes that are UTF-8 text: it is the id 'é'"):
        evaluate({"é": {"a": 1, "b": 1, "c": 0}}, {"é": {"a": 1.0}, escaped: {"b": 0.5, "c": 0.9}}, "ndcg")
    with pytest.raises(InputError, match=r"doc '\\udcc3\\udca9' escapes bytes that are UTF-8 text"):
        evaluate({"q": {"é": 1, escaped: 0}}, {"q": {"é": 1.0}}, "ndcg")
    # an escape of a byte that is not UTF-8 text stays that byte's id
    assert evaluate({"\udcff": {"a": 1}}, {"\udcff": {"a": 1.0}}, "ndcg").queries[0].tolist() == ["\udcff"]


@pytest.mark.parametrize("frame", [True, False])
def test_long_double_scores_that_float64_ties_are_refused(frame):
    # 1 + 2^-60 and 1 are two scores in long double, one in float64: a silent tie where scikit-learn keeps them apart.
    a = np.longdouble(1) + np.longdouble(2) ** -60
    qrels = {"q": {"a": 1, "b": 0, "c": 0}}
    scores = np.array([a, 1, 0], dtype=np.longdouble)
    run = (
        pd.DataFrame({"query": ["q"] * 3, "doc": list("abc"), "score": scores})
        if frame
        else {"q": dict(zip("abc", scores, strict=True))}
    )
    with pytest.raises(InputError, match=r"score 1.00000000000000000\d+ and 1.0 \(.*\) are one float64, 1.0"):
        evaluate(qrels, run, "ndcg", convention="sklearn")
    # rounded apart, they stay apart: "a" (the relevant one) first
    apart = np.array(["0.3", "0.2", "0.1"], dtype=np.longdouble)
    run = pd.DataFrame({"query": ["q"] * 3, "doc": list("abc"), "score": apart})
    assert evaluate(qrels, run if frame else {"q": dict(zip("abc", apart, strict=True))}, "ndcg").mean() == 1.0


@pytest.mark.parametrize("frame", [True, False])
def test_ids_holding_a_nul_are_refused_as_in_files(frame):
    # pytrec_eval cuts a C string at the NUL: "a\x00x" and "a\x00y" became one document there.
    qrels, run = {"q": {"a\x00x": 2, "a\x00y": 0}}, {"q": {"a\x00x": 0.5, "a\x00y": 1.0}}
    if frame:
        run = pd.DataFrame({"query": ["q", "q"], "doc": ["a\x00x", "a\x00y"], "score": [0.5, 1.0]})
    with pytest.raises(InputError, match=r"doc 'a\\x00x' holds a NUL character \(byte 2\)"):
        evaluate(qrels, run, "ndcg")


def test_a_mapping_that_repeats_a_key_is_refused_by_name():
    class Repeating(Mapping):  # yields "a" twice (a Mapping is what the caller makes it)
        def __getitem__(self, key):
            return {"a": 1}[key]

        def __iter__(self):
            return iter(["a", "a"])

        def __len__(self):
            return 2

    with pytest.raises(InputError, match=r"document 'a' is judged twice for query 'q'"):
        evaluate({"q": Repeating()}, {"q": {"a": 1.0}}, "ndcg")


def test_frames_whose_columns_are_ambiguous_are_refused():
    qrels = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "score": [1.0, 2.0]})
    two_levels = run.set_axis(pd.MultiIndex.from_tuples([("query", "x"), ("doc", "x"), ("score", "x")]), axis=1)
    with pytest.raises(InputError, match=r"run DataFrame column 'query' is a group of columns \(2 levels\)"):
        evaluate(qrels, two_levels, "ndcg")  # (it raised AttributeError)
    flat = run.set_axis(pd.MultiIndex.from_tuples([("query", ""), ("doc", ""), ("score", "")]), axis=1)  # reset_index's
    assert evaluate(qrels, flat, "ndcg").mean() == pytest.approx(1 / np.log2(3), abs=1e-15)
    with pytest.raises(InputError, match=r"run DataFrame has the id columns query, doc and query_id, doc_id: which"):
        evaluate(qrels, run.assign(query_id=["q", "q"], doc_id=["b", "a"]), "ndcg")
    pyterrier = {"query": "qid", "doc": "docno"}
    # PyTerrier's "query" is its query's text: its ids are qid and docno beside any "doc" column
    pyterrier_run = run.rename(columns=pyterrier).assign(query="text", doc="x")
    assert evaluate(qrels.rename(columns=pyterrier), pyterrier_run, "ndcg").mean() == pytest.approx(1 / np.log2(3))
    with pytest.raises(InputError, match=r"qrels DataFrame has 2 grade columns \(label, relevance\): keep one"):
        evaluate(qrels.rename(columns=pyterrier).assign(label=[0, 1]), run.rename(columns=pyterrier), "ndcg")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (np.array(2**53 + 1), r"score 9007199254740993 is not exact as a float64"),
        (np.timedelta64(3), r"score must be a real number, got timedelta64"),
    ],
)
def test_dict_scores_numpy_types_are_read_as_their_numbers(value, message):
    with pytest.raises(InputError, match=r"run dict: query 'q', document 'a': " + message):
        evaluate({"q": {"a": 1}}, {"q": {"a": value, "b": np.array(2**53), "c": 0.5}}, "ndcg")


def test_categories_keep_their_dtype_when_read():
    # Object categories holding a surrogate escape were re-read as text by pandas 3 (a raw UnicodeEncodeError).
    categories = pd.CategoricalDtype(pd.Index(["a\udcff", "b"], dtype=object))
    run = pd.DataFrame(
        {"query": ["q", "q"], "doc": pd.Categorical.from_codes([0, 1], dtype=categories), "score": [1.0, 2.0]}
    )
    assert evaluate({"q": {"a\udcff": 1}}, run, "ndcg").mean() == pytest.approx(1 / np.log2(3), abs=1e-15)
