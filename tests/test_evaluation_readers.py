"""Readers of qrels, runs, SVMlight files and DataFrames: formats, and errors that name file and line."""

from __future__ import annotations

import gzip
import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from ndcg_research.evaluation import InputError, evaluate, read_qrels, read_run, read_svmlight
from ndcg_research.evaluation._readers import predictions_columns, read_whole, svmlight_columns


def _text(array):
    return [
        x.decode() if isinstance(x, bytes) else x
        for x in pa.chunked_array(
            [c.dictionary_decode() if pa.types.is_dictionary(c.type) else c for c in array.chunks]
        ).to_pylist()
    ]


def test_regular_and_irregular_files_read_the_same(tmp_path):
    lines = [f"q{i % 7} Q0 doc{i} {i} {np.sin(i):.6f} tag" for i in range(500)]
    (tmp_path / "regular").write_text("\n".join(lines) + "\n")
    # Irregular: tabs and runs of blanks, a comment, a blank line, extra fields, CRLF endings.
    messy = ["# header", ""] + [
        line.replace(" ", "\t  ", 2) + (" extra" if i % 3 == 0 else "") for i, line in enumerate(lines)
    ]
    (tmp_path / "messy").write_bytes(("\r\n".join(messy) + "\r\n").encode())
    a, b = read_whole(tmp_path / "regular", "run"), read_whole(tmp_path / "messy", "run")
    assert _text(a.query) == _text(b.query) and _text(a.doc) == _text(b.doc)
    np.testing.assert_array_equal(a.value, b.value)
    assert a.tag == b.tag == "tag"
    assert b.where(0).endswith("messy:3")  # line numbers count the comment and the blank line


def test_qrels_grades_integers_or_floats(tmp_path):
    (tmp_path / "q1").write_text("1 0 a 2\n1 0 b 0\n1 0 c -1\n")
    (tmp_path / "q2").write_text("1 0 a 0.5\n1 0 b 1\n")
    assert read_whole(tmp_path / "q1", "qrels").value.dtype == np.int64
    assert read_whole(tmp_path / "q2", "qrels").value.tolist() == [0.5, 1.0]


@pytest.mark.parametrize(
    "kind, text, line, message",
    [
        ("qrels", "q 0 a 1\nq 0 b\n", 2, "exactly 4 fields"),
        ("qrels", "q 0 a 1\nq 0 b 1 extra\n", 2, "exactly 4 fields"),
        ("qrels", "# c\nq 0 a high\n", 2, "relevance 'high' is not a number"),
        ("run", "q Q0 a 1 0.5 r\n\nq Q0 b 2 r\n", 3, "needs 6 fields"),
        ("run", "q Q0 a 1 0.5 r\nq Q0 b 2 abc r\n", 2, "score 'abc' is not a number"),
        ("run", "q Q0 a 1 nan r\n", 1, "score 'nan' is not a finite number"),
        ("run", "q Q0 a 1 1e400 r\n", 1, r"score '1e400' is beyond the float64 range \(trec_eval's atof reads inf\)"),
        ("run", "q Q0 a 1 -1e400 r\n", 1, r"score '-1e400' is beyond the float64 range \(trec_eval's atof reads -inf"),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path, kind, text, line, message):
    path = tmp_path / "input.txt"
    path.write_text(text)
    with pytest.raises(InputError, match=rf"input\.txt:{line}: .*{message}"):
        (read_qrels if kind == "qrels" else read_run)(path)


def test_line_numbers_count_blank_lines_of_regular_files(tmp_path):
    (tmp_path / "run").write_text("q Q0 a 1 0.5 r\n\n\nq Q0 b 2 0.4 r\n")
    assert read_whole(tmp_path / "run", "run").where(1).endswith("run:4")


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        read_run(tmp_path / "nope")


def test_duplicates_are_errors_naming_both_lines(tmp_path):
    (tmp_path / "qrels").write_text("q 0 a 1\nq 0 b 1\nr 0 a 1\n")
    (tmp_path / "run").write_text("q Q0 a 1 3 r\nq Q0 b 2 2 r\nr Q0 a 1 1 r\nq Q0 a 3 1 r\n")
    with pytest.raises(InputError, match=r"run:1: document 'a' is ranked twice for query 'q' \(again at .*run:4\)"):
        evaluate(tmp_path / "qrels", tmp_path / "run")
    (tmp_path / "qrels2").write_text("q 0 a 1\nq 0 b 1\nq 0 a 0\n")
    with pytest.raises(InputError, match=r"qrels2:1: document 'a' is judged twice"):
        evaluate(tmp_path / "qrels2", tmp_path / "run")


def test_read_qrels_and_run_as_dataframes(tmp_path):
    (tmp_path / "qrels").write_text("# judged\n401 0 FBIS3-10 1\n401 0 FBIS3-11 0\n")
    (tmp_path / "run.gz").write_bytes(gzip.compress(b"401 Q0 FBIS3-10 1 12.5 bm25\n401 Q0 FBIS3-99 2 11 bm25\n"))
    qrels, run = read_qrels(tmp_path / "qrels"), read_run(tmp_path / "run.gz")
    assert qrels.to_dict("list") == {"query": ["401", "401"], "doc": ["FBIS3-10", "FBIS3-11"], "relevance": [1, 0]}
    assert qrels.index.tolist() == [2, 3]
    assert run["score"].tolist() == [12.5, 11.0] and run.attrs["run"] == "bm25"
    # The frames evaluate to the same as the files.
    a = evaluate(qrels, {"bm25": run}, "ndcg").mean_values
    b = evaluate(tmp_path / "qrels", {"bm25": tmp_path / "run.gz"}, "ndcg").mean_values
    np.testing.assert_array_equal(a, b)


def test_dataframe_inputs_checked():
    run = pd.DataFrame({"query": [1, 1], "doc": [10, 9], "score": [0.5, 0.5]})  # numeric ids: compared as text
    qrels = pd.DataFrame({"query": [1], "doc": [9], "relevance": [1]})
    result = evaluate(qrels, run, "ndcg")
    assert result.queries[0].tolist() == ["1"]
    assert result.values[0][0, 0] == pytest.approx(1.0)  # tie: "9" > "10" as strings, so 9 comes first
    with pytest.raises(InputError, match=r"needs columns query, doc, score \(or PyTerrier's .*\); has query, doc$"):
        evaluate(qrels, pd.DataFrame({"query": ["q"], "doc": ["d"]}))
    with pytest.raises(InputError, match=r"DataFrame row 'x': score must be finite"):
        evaluate(qrels, pd.DataFrame({"query": ["q"], "doc": ["d"], "score": [np.inf]}, index=["x"]))
    with pytest.raises(InputError, match="doc is missing"):
        evaluate(qrels, pd.DataFrame({"query": ["q"], "doc": [None], "score": [1.0]}))


def test_svmlight_with_predictions(tmp_path):
    (tmp_path / "test.txt").write_text(
        "2 qid:7 1:0.5 2:1\n0 qid:7 1:0.1 # doc b\n# comment\n1 qid:8 1:3\n0 qid:8 2:1\n"
    )
    (tmp_path / "pred.txt").write_text("0.1\n0.7\n0.3\n0.3\n")
    qrels, run = read_svmlight(tmp_path / "test.txt", tmp_path / "pred.txt")
    assert qrels["relevance"].tolist() == [2, 0, 1, 0] and run["score"].tolist() == [0.1, 0.7, 0.3, 0.3]
    qrels_columns = svmlight_columns(tmp_path / "test.txt")
    run_columns = predictions_columns(qrels_columns, tmp_path / "pred.txt")
    assert qrels_columns.where(2).endswith("test.txt:4")  # the third data line
    # LightGBM's convention keeps tied documents in file order: query 8 ranks its grade-1 line first.
    result = evaluate(qrels_columns, run_columns, "ndcg", convention="lightgbm")
    assert result.values[0][0].tolist() == pytest.approx([3 / np.log2(3) / 3, 1.0])


def test_svmlight_errors(tmp_path):
    (tmp_path / "bad.txt").write_text("2 qid:7 1:0.5\n1 7 1:3\n")
    with pytest.raises(InputError, match=r"bad\.txt:2: an SVMlight line starts 'relevance qid:QUERY', got '1 7 1:3'"):
        read_svmlight(tmp_path / "bad.txt")
    (tmp_path / "ok.txt").write_text("2 qid:7 1:0.5\n1 qid:7 1:3\n")
    (tmp_path / "pred.txt").write_text("0.5\n")
    with pytest.raises(InputError, match=r"1 prediction\(s\) for 2 data lines of .*: one per line, in order"):
        read_svmlight(tmp_path / "ok.txt", tmp_path / "pred.txt")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"1 qid:7 1:abc", r"bad\.txt:2: feature '1:abc' is not INDEX:VALUE"),
        (b"1 qid:7 x:0.3", r"feature 'x:0.3' is not INDEX:VALUE"),
        (b"1 qid:7 1:0.1 2", r"feature '2' is not INDEX:VALUE"),
        (b"1 qid:a 1:0.3", r"bad\.txt:2: qid:a is not an integer"),
    ],
)
def test_svmlight_lines_the_learning_to_rank_tools_refuse_are_refused(tmp_path, line, message):
    # They were scored silently (only the fields before the features and the docid comment were read)
    from sklearn.datasets import load_svmlight_file

    text = b"2 qid:7 1:0.5 2:nan 3:-inf 4:1e-3 # docid = d1\n" + line + b"\n"
    good = b"2 qid:7 1:0.5 2:nan 3:-inf 4:1e-3\n1 qid:7 1:0.3\n"
    load_svmlight_file(io.BytesIO(good), query_id=True)  # the first line is valid to scikit-learn
    with pytest.raises(ValueError):  # and the second is not
        load_svmlight_file(io.BytesIO(text.split(b"#")[0] + b"\n" + line + b"\n"), query_id=True)
    (tmp_path / "bad.txt").write_bytes(text)
    with pytest.raises(InputError, match=message):
        read_svmlight(tmp_path / "bad.txt")
    (tmp_path / "good.txt").write_bytes(good)
    assert read_svmlight(tmp_path / "good.txt")[0]["relevance"].tolist() == [2, 1]


@pytest.mark.parametrize(
    ("predictions", "message"),
    [
        ("0.1\n\n0.7\n", r"pred\.txt:2: a predictions line holds one number \(one per data line\), got a blank line"),
        ("0.1\n# x\n0.7\n", r"pred\.txt:2: a predictions line holds one number \(one per data line\), got 2 fields"),
        ("0.1\n#x\n", r"pred\.txt:2: score '#x' is not a number"),
    ],
)
def test_predictions_skip_no_line(tmp_path, predictions, message):
    # A blank or '#' line was skipped: with a line missing elsewhere, scores were matched to the wrong documents
    (tmp_path / "ok.txt").write_text("2 qid:7 1:0.5\n1 qid:7 1:3\n")
    (tmp_path / "pred.txt").write_text(predictions)
    with pytest.raises(InputError, match=message):
        read_svmlight(tmp_path / "ok.txt", tmp_path / "pred.txt")


def test_ids_are_matched_and_ordered_by_their_bytes_across_chunks():
    # Tied scores are ordered by document id, descending, in strcmp order (bytes, not numbers or text);
    # ids that differ only after a long common prefix, or in a multi-byte character, are told apart.
    ids = ["d1", "d10", "d9", "a" * 17, "a" * 16, "\u00e9t\u00e9", "\u00e9t\u00e8"]
    grades = dict(zip(ids, range(len(ids)), strict=False))
    qrels = pd.DataFrame({"query": "q", "doc": ids, "relevance": [grades[d] for d in ids]})
    run = pd.DataFrame({"query": "q", "doc": ids, "score": 1.0})
    value = evaluate(qrels, run).values[0][0, 0]
    ordered = sorted(ids, key=lambda d: d.encode(), reverse=True)
    gains = [grades[d] for d in ordered]
    dcg = sum(g / np.log2(r + 2) for r, g in enumerate(gains))
    ideal = sum(g / np.log2(r + 2) for r, g in enumerate(sorted(gains, reverse=True)))
    assert value == pytest.approx(dcg / ideal, rel=1e-12)


@pytest.mark.parametrize("block_size", [64, 1000, 1 << 20])
@pytest.mark.parametrize("fast", [True, False])
def test_query_blocks_hold_whole_queries_in_file_order(tmp_path, block_size, fast):
    # A run read in blocks of whole queries (as evaluate streams it): q2 spans many small blocks, a comment and a
    # blank line sit inside q3 and between queries (those blocks are read line by line), the last line has no
    # newline. Every row comes once, in file order, with its own line number, and the tag is the last line's.
    from ndcg_research.evaluation._readers import query_blocks

    rows = [("q1", 3), ("q2", 120), ("q3", 4), ("q4", 1), ("q5", 2)]
    lines, expected = [], []  # expected: (query, document, line number)
    for query, n in rows:
        for i in range(n):
            if query == "q3" and i == 2:
                lines += ["# a comment inside q3", ""]
            lines.append(f"{query} Q0 {query}d{i} {i + 1} {-i} {'last' if query == 'q5' else 'tag'}")
            expected.append((query, f"{query}d{i}", len(lines)))
        if query == "q1":
            lines.append("# between q1 and q2")
    (tmp_path / "run").write_text("\n".join(lines))
    blocks = list(query_blocks(tmp_path / "run", block_size=block_size, fast=fast))
    got = [
        (q, d, int(b.where(i).rsplit(":", 1)[1]))
        for b in blocks
        for i, (q, d) in enumerate(zip(_text(b.query), _text(b.doc), strict=True))
    ]
    assert got == expected
    queries = [set(_text(b.query)) for b in blocks]
    assert all(not (a & b) for i, a in enumerate(queries) for b in queries[i + 1 :])  # each query in one block
    assert blocks[-1].tag == "last"
    if block_size == 64:
        assert len(blocks) == len(rows)  # small blocks: one query each


@pytest.mark.parametrize("n_names", [2, 500])  # fewer judged queries than a part's ids, and more
def test_query_codes_are_positions_among_the_judged_names(n_names):
    # Each row's query: its position among the sorted judged names, -1 for an unjudged one, which is listed
    # once; ids in two dictionary chunks (as the parser gives them) are one query.
    from ndcg_research.evaluation._matching import query_codes

    names = sorted(f"q{i:03d}".encode() for i in range(n_names))
    judged = [names[1], names[0], names[1]]
    chunks = [pa.array(judged[:2] + [b"x"]).dictionary_encode(), pa.array([judged[2], b"x", b"y"]).dictionary_encode()]
    codes, unknown = query_codes(pa.chunked_array(chunks), pa.array(names, pa.binary()))
    assert codes.tolist() == [1, 0, -1, 1, -1, -1]
    assert sorted(unknown) == [b"x", b"y"]  # each once


def test_query_codes_of_a_dictionary_that_repeats_an_id():
    # Arrow lets a dictionary hold a value twice: rows of either entry are the same judged query.
    from ndcg_research.evaluation._matching import query_codes

    names = pa.array([f"q{i:03d}".encode() for i in range(100)], pa.binary())
    query = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2], pa.int32()), pa.array([b"q007", b"q007", b"zz"]))
    codes, unknown = query_codes(pa.chunked_array([query]), names)
    assert codes.tolist() == [7, 7, -1] and unknown == [b"zz"]


@pytest.mark.parametrize("path", ["line by line", "gzip", "standard input"])
def test_other_trec_file_paths_import_neither_pyarrow_compute_nor_pandas(tmp_path, path):
    # test_evaluation_api checks the block-parsed path; these are the other ways a TREC file is read: irregular
    # lines (comments, a tab beside blanks) parsed line by line, gzip data, standard input (recorded, line by line).
    import subprocess
    import sys

    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels_text = "# judged\nq1 0 a 2\nq2 0 a 1\nq1 0 b 0\nq4 0 z 1\n"
    run_text = "# run\nq1 Q0 a 1 1.0 t\nq1\tQ0 b 2 1.0 t\nq3 Q0 c 1 2.0 t\nq2 Q0 a 1 0.5 t\n"
    if path == "gzip":
        qrels.write_bytes(gzip.compress(qrels_text.replace("# judged\n", "").encode()))
        run.write_bytes(gzip.compress(run_text.replace("# run\n", "").replace("\t", " ").encode()))
    else:
        qrels.write_text(qrels_text)
        run.write_text(run_text)
    stdin = run.read_bytes() if path == "standard input" else None
    code = (
        "import sys\nfrom ndcg_research.cli import main\n"
        f"main(['evaluate', '--quiet', '-m', 'ndcg', '-m', 'ndcg_cut.10', {str(qrels)!r}, "
        f"{'-' if stdin is not None else str(run)!r}])\n"
        "print([m for m in ('pyarrow.compute', 'pandas') if m in sys.modules])\n"
        # leave as the console script does: Arrow's idle pool threads can abort the interpreter's teardown
        "sys.stdout.flush()\nimport os\nos._exit(0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], input=stdin, check=True, capture_output=True)
    assert done.stdout.decode().splitlines()[-3:] == [
        "ndcg                  \tall\t0.5436",
        "ndcg_cut_10           \tall\t0.5436",
        "[]",
    ]


class _EndlessZeros:
    """A binary stream of NUL bytes (as /dev/zero) that fails once more than ``limit`` bytes were read from it."""

    def __init__(self, limit: int) -> None:
        self.read_so_far, self.limit = 0, limit

    def read(self, size: int = -1) -> bytes:
        assert size >= 0 and self.read_so_far + size <= self.limit, "read on past the first block of a binary file"
        self.read_so_far += size
        return b"\0" * size


@pytest.mark.parametrize("kind", ["qrels", "run"])
def test_a_binary_file_without_line_ends_is_refused_at_its_first_block(kind):
    # A NUL was found only once a block of whole lines was complete: a binary file without line ends (/dev/zero, a
    # disk image given by mistake) was read whole into memory first (/dev/zero: 3.6 GB after 13 s).
    with pytest.raises(InputError, match=r"^zeros:1: a NUL byte: not a text file"):
        read_whole("zeros", kind, stream=_EndlessZeros(limit=16 << 20))


@pytest.mark.parametrize("column", ["relevance", "score"])
def test_sparse_numeric_columns_are_read_as_their_values(column):
    # pandas' Sparse dtype has no itemsize: a Sparse float column was an AttributeError traceback.
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [0.5, 0.9]})
    frames = {"relevance": qrels, "score": run}
    frames[column] = frames[column].assign(**{column: pd.arrays.SparseArray(frames[column][column].astype(float))})
    # b (grade 0) first, a (grade 1) second: nDCG = (1 / log2 3) / 1, by hand
    assert evaluate(frames["relevance"], frames["score"], "ndcg").mean() == pytest.approx(1 / np.log2(3), abs=1e-15)


@pytest.mark.parametrize(
    ("index", "shown"),
    [
        (pd.date_range("2020", periods=2, unit="ns"), r"row Timestamp\('2020-01-02 00:00:00'\)"),
        (pd.timedelta_range(0, periods=2, freq="s"), r"row Timedelta\('0 days 00:00:01'\)"),
    ],
)
def test_rows_indexed_by_time_are_named_by_their_labels(index, shown):
    # numpy's item() of a nanosecond datetime64 is an integer: "row 1577923200000000000".
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [0.5, np.inf]}, index=index)
    with pytest.raises(InputError, match=rf"^run DataFrame {shown}: score must be finite"):
        evaluate(qrels, run)


def test_mixed_ids_are_named_by_row_label_as_other_messages_name_rows():
    qrels = pd.DataFrame({"query": ["1", "1"], "doc": ["a", "b"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["1", 1], "doc": ["a", "b"], "score": [2.0, 1.0]}, index=[7, 3])
    with pytest.raises(InputError, match=r"mixes strings \('1' at row 7\) and integers \(1 at row 3\)"):
        evaluate(qrels, run)
    with pytest.raises(InputError, match=r"mixes strings \('1' at position 0\) and integers \(1 at position 1\)"):
        evaluate(qrels, run.set_axis([5, 5]))  # labels that repeat name no row: positions


def test_an_svmlight_id_that_is_not_utf8_names_the_svmlight_file_and_the_command(tmp_path):
    # With predictions, the run was converted first: the message named the predictions file, and advised passing
    # the file to evaluate, which takes no SVMlight path (the command's --input svmlight does).
    (tmp_path / "t.svm").write_bytes(b"2 qid:1 1:0.5 # docid = A\xe9\n0 qid:1 1:0.1 # docid = B\n")
    (tmp_path / "p.txt").write_text("0.1\n0.2\n")
    with pytest.raises(InputError, match=r"t\.svm:1: document id b'A\\xe9' is not UTF-8 text.*--input svmlight"):
        read_svmlight(tmp_path / "t.svm", tmp_path / "p.txt")


def test_a_binary_file_is_named_as_such_before_any_carriage_return_in_it(tmp_path):
    # A PNG (and lzma data with other options than xz's default) has a \r before its first NUL: it was refused as
    # "a carriage return that does not end a line ... use \n line ends".
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00")
    with pytest.raises(InputError, match=r"image\.png:3: a NUL byte: not a text file"):
        read_whole(tmp_path / "image.png", "run")
