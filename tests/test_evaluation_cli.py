"""The ``evaluate`` command: trec_eval's output bytes, its options, the extensions, errors and exit codes."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading

import pytest

from ndcg_research.cli import main

QRELS = "# judged\n2 0 b 1\n2 0 a 2\n10 0 a 1\n10 0 c 3\n7 0 x 1\n"
RUN = (
    "10 Q0 a 1 0.9 myrun\n10 Q0 c 2 0.9 myrun\n10 Q0 n 3 0.1 myrun\n2 Q0 a 1 3 myrun\n2 Q0 z 2 2 myrun\n"
    "99 Q0 a 1 1 myrun\n"
)


def _dcg(gains):
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return tmp_path


def run_cli(capfdbinary, *args):
    status = main(["evaluate", *map(str, args)])
    out, err = capfdbinary.readouterr()
    return status, out.decode(), err.decode()


def test_trec_eval_output_bytes(files, capfdbinary):
    status, out, err = run_cli(
        capfdbinary,
        "-q",
        "-m",
        "ndcg_cut.1",
        "-m",
        "ndcg",
        "-m",
        "runid",
        "-m",
        "num_q",
        files / "qrels",
        files / "run",
    )
    assert status == 0
    # Query 10: c (3) and a (1) tie at 0.9, docno descending puts c first: nDCG 1 at every depth.
    # Query 2: a (2) first, z unjudged; ideal [2, 1]. Query 7 is judged, not ranked: 0 (trec_eval -c,
    # which trec_eval 10.0 demands for such a run).
    q2 = _dcg([2, 0]) / _dcg([2, 1])
    expected = (
        f"ndcg                  \t10\t{1:6.4f}\nndcg_cut_1            \t10\t{1:6.4f}\n"
        f"ndcg                  \t2\t{q2:6.4f}\nndcg_cut_1            \t2\t{1:6.4f}\n"
        f"ndcg                  \t7\t{0:6.4f}\nndcg_cut_1            \t7\t{0:6.4f}\n"
        f"runid                 \tall\tmyrun\nnum_q                 \tall\t3\n"
        f"ndcg                  \tall\t{(1 + q2) / 3:6.4f}\nndcg_cut_1            \tall\t{2 / 3:6.4f}\n"
    )
    assert out == expected  # queries in strcmp order ("10" < "2" < "7"), ndcg before ndcg_cut
    assert "run: 1 query has no judgments in" in err and "('99'); left out" in err
    assert "run: 1 judged query has no ranking ('7'); scored 0" in err


def test_complete_nosummary_judged_only_max_docs(files, capfdbinary):
    status, out, _ = run_cli(capfdbinary, "-q", "-c", "-n", "-m", "ndcg", files / "qrels", files / "run")
    assert status == 0
    assert out.splitlines()[-1] == "ndcg                  \t7\t0.0000"  # missing query printed with 0, no 'all'
    _, out, _ = run_cli(
        capfdbinary, "-M", "1", "-J", "-l", "2", "-m", "ndcg", "--quiet", files / "qrels", files / "run"
    )
    # Only the first document of each ranking (c in query 10, a in query 2); ideals uncut; query 7: 0.
    assert out == f"ndcg                  \tall\t{(3 / _dcg([3, 1]) + 2 / _dcg([2, 1])) / 3:6.4f}\n"
    _, out, _ = run_cli(capfdbinary, "--answered-only", "-m", "ndcg", "--quiet", files / "qrels", files / "run")
    assert out == f"ndcg                  \tall\t{(1 + _dcg([2, 0]) / _dcg([2, 1])) / 2:6.4f}\n"


def test_max_docs_0_scores_every_query_0(files, capfdbinary):
    # trec_eval 10.0 -M 0: no document of any ranking counts (num_ret 0), so every query, and the mean, is 0.
    status, out, _ = run_cli(
        capfdbinary, "-q", "-M", "0", "-m", "ndcg", "-m", "ndcg_cut.10", "-m", "num_q", files / "qrels", files / "run"
    )
    assert status == 0
    expected = "".join(f"{m:<22}\t{q}\t0.0000\n" for q in ("10", "2", "7") for m in ("ndcg", "ndcg_cut_10"))
    assert (
        out
        == expected
        + "num_q                 \tall\t3\n"
        + f"{'ndcg':<22}\tall\t0.0000\n{'ndcg_cut_10':<22}\tall\t0.0000\n"
    )


def test_max_docs_0_refused_where_the_ideal_comes_from_the_ranking(files, capfdbinary):
    status, out, err = run_cli(capfdbinary, "--convention", "sklearn", "-M", "0", files / "qrels", files / "run")
    assert (status, out) == (1, "")
    assert err.splitlines() == [
        "ndcg-research evaluate: error: max_docs=0 (-M 0) leaves no document, and convention 'sklearn' takes its "
        "ideal from the ranked list: every query would score as an ideal DCG of 0 does, which says nothing of the run; "
        "give max_docs (-M) >= 1"
    ]


def test_gain_map_name_and_extensions(files, capfdbinary):
    _, out, _ = run_cli(capfdbinary, "-m", "ndcg.1=3,2=9", "--quiet", files / "qrels", files / "run")
    assert out.startswith("ndcg_1=3,2=9          \tall\t")
    # trec_eval prints a gain map's name as given, blanks at its end too (seen past 22 characters, the padding)
    for blank in (" ", "\t", "\v"):
        _, out, _ = run_cli(
            capfdbinary, "-m", f"ndcg.1=3,2=9,3=27,4=81{blank}", "--quiet", files / "qrels", files / "run"
        )
        assert out.startswith(f"ndcg_1=3,2=9,3=27,4=81{blank}\tall\t")
    _, out, _ = run_cli(
        capfdbinary,
        "-m",
        "ndcg_cut.1",
        "--gain",
        "exp2",
        "--discount",
        "power(beta=0.5)",
        "--quiet",
        files / "qrels",
        files / "run",
    )
    assert out.startswith("ndcg@1(gain=exp2,discount=power(beta=0.5))\tall\t")
    _, out, _ = run_cli(
        capfdbinary, "-m", "ndcg@2(gain=exp2)", "--convention", "sklearn", "--quiet", files / "qrels", files / "run"
    )
    assert out.startswith("ndcg@2(gain=exp2)     \tall\t")


def test_several_runs_and_formats(files, capfdbinary):
    (files / "run2").write_text(RUN.replace("myrun", "other").replace(" 0.9 ", " 0.5 "))
    _, out, _ = run_cli(capfdbinary, "-m", "ndcg", "--quiet", files / "qrels", files / "run", files / "run2")
    assert [line.split("\t")[2] for line in out.splitlines() if line.startswith("runid")] == ["myrun", "other"]
    _, out, _ = run_cli(capfdbinary, "-q", "-m", "ndcg", "--format", "csv", "--quiet", files / "qrels", files / "run")
    lines = out.splitlines()
    assert lines[0] == "run,query,measure,value" and lines[1].startswith("run,10,ndcg,1.0")
    assert lines[-1].startswith("run,,ndcg,")  # the mean: an empty query
    _, out, _ = run_cli(capfdbinary, "-m", "ndcg", "--format", "json", "--quiet", files / "qrels", files / "run")
    data = json.loads(out)
    assert data["convention"] == "trec_eval" and data["runs"][0]["tag"] == "myrun" and data["runs"][0]["num_q"] == 3


def test_several_runs_in_trec_text_can_be_told_apart_or_are_refused(files, capfdbinary):
    # trec_eval's text has no run column: a run's block ends with its runid line (the tag), which -n drops, so
    # -q -n ran the per-query lines of several runs together; two runs of one tag printed two alike runid lines.
    (files / "copy").write_text(RUN)
    status, out, err = run_cli(capfdbinary, "-q", "-n", files / "qrels", files / "run", files / "copy")
    assert status == 1 and out == "" and "-q -n with several runs prints per-query lines that name no run" in err
    status, out, err = run_cli(capfdbinary, "-m", "ndcg", files / "qrels", files / "run", files / "copy")
    assert status == 0 and [line.split("\t")[2] for line in out.splitlines()[::2]] == ["myrun", "myrun"]
    assert "note: runs run and copy carry one tag, 'myrun': their runid lines are alike" in err
    status, out, err = run_cli(
        capfdbinary, "-q", "-n", "--format", "csv", files / "qrels", files / "run", files / "copy"
    )
    assert status == 0 and {line.split(",")[0] for line in out.splitlines()[1:]} == {"run", "copy"}
    assert "carry one tag" not in err  # csv names each run


def test_a_trec_eval_measure_repeated_with_other_parameters_is_refused_only_where_trec_eval_s_output_is_the_aim(
    files, capfdbinary
):
    twice = ["-m", "ndcg_cut.5", "-m", "ndcg_cut.10"]
    for extra in (["--convention", "ranx"], ["--format", "json"]):
        status, _, err = run_cli(capfdbinary, *twice, *extra, "--quiet", files / "qrels", files / "run")
        assert status == 0 and err == ""
    same = ["-m", "ndcg_cut.5,10", "-m", "ndcg_cut.10,5"]  # one set of cut-offs, written two ways
    status, out, _ = run_cli(capfdbinary, *same, "--quiet", files / "qrels", files / "run")
    assert status == 0 and [line.split()[0] for line in out.splitlines()] == ["ndcg_cut_5", "ndcg_cut_10"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["-m", "map"], "unknown measure 'map' (nDCG only); valid measures: ndcg, ndcg@K"),
        (["-m", "nDCG@10"], "unknown measure 'nDCG@10' (measure names are lower case: 'ndcg@10'); valid measures"),
        (["-m", "NDCG_cut.10"], "unknown measure 'NDCG_cut.10' (measure names are lower case: 'ndcg_cut.10')"),
        (["-m", "ndcgx"], "unknown measure 'ndcgx'; valid measures"),
        (["-m", "ndcg@10(gain=exp2"], "unknown measure 'ndcg@10(gain=exp2' (its parentheses do not pair); valid"),
        # a newcomer's slips: the name trec_eval prints copied back, two measures in one -m, an upper-case name
        # that is no measure in lower case either (it said "measure names are lower case: 'ndcg@x'")
        (["-m", "ndcg_cut_10"], "(the name trec_eval prints; it reads ndcg_cut.10, or write ndcg@10); valid"),
        (["-m", "ndcg@10,ndcg@20"], "(one measure per spec, each -m on the command line; ndcg_cut.10,20 lists"),
        (["-m", "NDCG@X"], "unknown measure 'NDCG@X'; valid measures"),
        (["-m", "ndcg_cut.0"], "cut-offs must be >= 1"),
        # trec_eval compares the name before a dot as written: blanks make another name, which it refuses
        (["-m", "ndcg "], "measure 'ndcg ': trec_eval refuses it (illegal measure 'ndcg '): write it without blanks"),
        (["-m", " runid"], "measure ' runid': trec_eval refuses it (illegal measure ' runid')"),
        (["-m", "ndcg_cut .5"], "measure 'ndcg_cut .5': trec_eval refuses it (illegal measure 'ndcg_cut ')"),
        # a measure of trec_eval's that is not computed here is not called unknown to trec_eval
        # trec_eval skips a gain map entry whose grade is not an integer (gain_init.c's valid_int) and prints the
        # value without it under the name with it
        (["-m", "ndcg.1 =3"], "grade '1 ' must be an integer >= 0 (trec_eval skips the entry, silently)"),
        (["-m", "ndcg.1.5=3,2=4"], "grade '1.5' must be an integer >= 0 (trec_eval skips the entry, silently)"),
        (["-m", "runid."], "measure 'runid.': trec_eval refuses a dot with nothing after it ('improper measure')"),
        (["-m", "num_q."], "measure 'num_q.': trec_eval refuses a dot with nothing after it ('improper measure')"),
        (["-m", "Rndcg"], "(trec_eval's Rndcg, a variant of nDCG, is not computed here; ndcg and ndcg_cut are)"),
        (["-m", "ndcg_rel.1=3"], "(trec_eval's ndcg_rel, a variant of nDCG, is not computed here"),
        (["-m", "ndcg_rel"], "(trec_eval's ndcg_rel, a variant of nDCG, is not computed here; ndcg and ndcg_cut are)"),
        (["-m", "ndcg_cut.-5"], "cut-offs must be >= 1 (trec_eval: 'Negative cutoff detected')"),
        (["-m", "ndcg@5(gain=cubic)"], "unknown gain 'cubic'"),
        # trec_eval computes a measure once, with the first -m that has parameters, and drops the others
        # (it prints only ndcg_cut_5 here, only ndcg_1=2 below): refused, not printed differently.
        (
            ["-m", "ndcg_cut.5", "-m", "ndcg_cut.10"],
            "-m ndcg_cut.5 and -m ndcg_cut.10 ask for trec_eval's ndcg_cut twice",
        ),
        (["-m", "ndcg_cut", "-m", "ndcg_cut.3"], "one -m (ndcg_cut.5,10), or use ndcg@K"),
        (["-m", "ndcg", "-m", "ndcg.1=2"], "-m ndcg and -m ndcg.1=2 ask for trec_eval's ndcg twice"),
    ],
)
def test_bad_measures(files, capfdbinary, args, message):
    status, out, err = run_cli(capfdbinary, *args, files / "qrels", files / "run")
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and message in err


@pytest.mark.parametrize(
    "again", [["ndcg.2=9,1=3"], ["ndcg.1=3.0,2=9"], ["ndcg.01=3,2=9"], ["ndcg.+1=3,2=9", "ndcg.1=3,2=9.0"]]
)
def test_one_gain_map_written_again_another_way_is_printed_once_as_first_named(files, capfdbinary, again):
    # trec_eval computes ndcg once, with the first -m's parameters: these are the same map, so it prints ndcg_1=3,2=9
    # alone (checked with the binary). They were refused as "twice with different parameters".
    twice = [arg for spec in again for arg in ("-m", spec)]
    status, out, err = run_cli(capfdbinary, "-q", "-m", "ndcg.1=3,2=9", *twice, files / "qrels", files / "run")
    q2 = _dcg([9, 0]) / _dcg([9, 3])  # query 2: a (grade 2, gain 9) first, z unjudged; ideal a, b (grade 1, gain 3)
    assert status == 0 and out.count("ndcg_") == 4 and "ndcg_2=9" not in out and "ndcg_1=3.0" not in out
    assert f"ndcg_1=3,2=9          \t2\t{q2:6.4f}\n" in out


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_a_measure_given_without_its_m_is_said_to_be_one(files, capfdbinary, command):
    # "-m ndcg@10 ndcg@20 QRELS RUN": ndcg@20 became the qrels file, and the message said only that it does not exist.
    runs = [files / "run"] * (2 if command == "compare" else 1)
    status = main([command, "-m", "ndcg@10", "ndcg@20", *map(str, [files / "qrels", *runs])])
    out, err = (stream.decode() for stream in capfdbinary.readouterr())
    assert status == 1 and out == ""
    assert err.endswith("qrels file 'ndcg@20' does not exist; a measure? give -m before each: -m ndcg@10 -m ndcg@20\n")


def test_bad_input_one_line_error(files, capfdbinary):
    (files / "bad").write_text("10 Q0 a 1 0.9 r\n10 Q0 b 1 high r\n")
    status, out, err = run_cli(capfdbinary, files / "qrels", files / "bad")
    assert status == 1 and out == ""
    assert err == f"ndcg-research evaluate: error: {files / 'bad'}:2: score 'high' is not a number\n"
    status, _, err = run_cli(capfdbinary, files / "missing", files / "run")
    assert status == 1 and "does not exist" in err


def test_a_run_name_beginning_with_a_dash_is_refused_as_trec_eval_reads_standard_input_for_it(files, capfdbinary):
    # get_trec_results.c reads standard input for any results name whose first character is '-'.
    (files / "-run").write_text(RUN)
    status, out, err = run_cli(capfdbinary, "--", files / "qrels", "-run")
    assert status == 1 and out == "" and "trec_eval reads standard input for any run name that begins with '-'" in err
    assert err.count("\n") == 1 and "write ./-run" in err


def test_a_directory_is_named_as_one_and_a_named_pipe_is_read(files, capfdbinary):
    # A named pipe is what a shell's <(zcat run.gz) gives; it was refused as "not a file" (trec_eval cannot
    # read one: it seeks in its files; reading it is an extension).
    status, _, err = run_cli(capfdbinary, files, files / "run")
    assert status == 1 and err == f"ndcg-research evaluate: error: qrels file {str(files)!r} is a directory\n"
    # Read once, a pipe is kept as it is read: an interleaved run (query 10 again at the end), which is read a
    # second time whole, gave "no data lines" from the emptied pipe.
    interleaved = RUN.split("\n", 1)[1] + RUN.split("\n", 1)[0] + "\n"
    (files / "interleaved").write_text(interleaved)
    for name, text in (("run", RUN), ("interleaved", interleaved)):
        expected = run_cli(capfdbinary, "-q", files / "qrels", files / name)
        os.mkfifo(files / f"pipe-{name}")
        writer = threading.Thread(target=(files / f"pipe-{name}").write_text, args=(text,), daemon=True)
        writer.start()  # blocks until the pipe is read
        assert run_cli(capfdbinary, "-q", files / "qrels", files / f"pipe-{name}")[:2] == expected[:2]  # notes: names
        writer.join(timeout=10)
        assert not writer.is_alive() and expected[0] == 0


def test_usage_errors_exit_2(files):
    result = subprocess.run(
        [sys.executable, "-m", "ndcg_research", "evaluate", "-M", "-1", str(files / "qrels"), str(files / "run")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "must be an integer >= 0, got '-1'" in result.stderr  # trec_eval segfaults
    result = subprocess.run(
        [sys.executable, "-m", "ndcg_research", "evaluate", str(files / "qrels")], capture_output=True, text=True
    )
    assert result.returncode == 2


@pytest.mark.parametrize("quiet", [[], ["--quiet"]])
def test_a_reader_that_closed_the_pipe_gets_141_and_only_the_notes_on_stderr(files, quiet):
    # As C tools (trec_eval | true: 141, silent). The pipe's read end is closed before the command writes: it
    # closed standard error on the broken pipe, then the exit's flush of it raised ValueError (status 1 and the
    # interpreter's "lost sys.stderr" dump).
    read_end, write_end = os.pipe()
    os.close(read_end)
    command = [sys.executable, "-m", "ndcg_research", "evaluate", *quiet, str(files / "qrels"), str(files / "run")]
    result = subprocess.run(command, stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    assert result.returncode == 141
    assert all(line.startswith(b"ndcg-research evaluate: note: ") for line in result.stderr.splitlines())
    assert bool(result.stderr) != bool(quiet)  # the notes, unless --quiet


def test_a_reader_that_leaves_mid_output_gets_141(tmp_path):
    # 5,000 per-query lines (150 KB, more than a pipe holds): head takes 10 bytes and leaves while the command is
    # writing. The pipe took part of the write, which returned that count without an error: the rest was dropped and
    # the status was 0. The rest is written again, which raises BrokenPipeError: 141, as trec_eval | head.
    (tmp_path / "qrels").write_text("".join(f"q{i} 0 d 1\n" for i in range(5000)))
    (tmp_path / "run").write_text("".join(f"q{i} Q0 d 1 1.0 r\n" for i in range(5000)))
    command = f"{sys.executable} -m ndcg_research evaluate -q {tmp_path / 'qrels'} {tmp_path / 'run'}"
    result = subprocess.run(["bash", "-c", f"{command} | head -c 10 > /dev/null; exit ${{PIPESTATUS[0]}}"])
    assert result.returncode == 141


def test_whole_process_matches_in_process(files):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ndcg_research",
            "evaluate",
            "-q",
            "-m",
            "ndcg_cut.1,2",
            str(files / "qrels"),
            str(files / "run"),
        ],
        capture_output=True,
    )
    assert result.returncode == 0
    assert result.stdout.decode().count("\n") == 8


def test_runid_and_num_q_take_a_parameter_as_trec_eval_does_and_ignores(files, capfdbinary):
    plain = run_cli(capfdbinary, "-m", "runid", "-m", "num_q", files / "qrels", files / "run")
    assert plain[0] == 0 and plain[1].split() == ["runid", "all", "myrun", "num_q", "all", "3"]
    # trec_eval 10.0 prints the same for runid.x and num_q.5 (they were refused as unknown measures)
    assert run_cli(capfdbinary, "-m", "runid.x", "-m", "num_q.5", files / "qrels", files / "run") == plain


def test_a_gain_with_blanks_around_it_is_read_as_atof_reads_it(files, capfdbinary):
    # trec_eval's gain map reads each gain with atof, which skips leading blanks: it prints "ndcg_1= 3" (refused
    # before as "gain ' 3' is not a number"); the value is that of the gain 3
    status, out, _ = run_cli(capfdbinary, "--quiet", "-m", "ndcg.1= 3", files / "qrels", files / "run")
    _, plain, _ = run_cli(capfdbinary, "--quiet", "-m", "ndcg.1=3", files / "qrels", files / "run")
    assert status == 0 and out.split("\t")[0] == "ndcg_1= 3".ljust(22) and out.split("\t")[1:] == plain.split("\t")[1:]


@pytest.mark.parametrize("form", ["csv", "json"])
def test_csv_and_json_print_what_was_asked_for_as_trec_text_does(files, capfdbinary, form):
    # -m runid alone printed an nDCG mean nobody asked for, and CSV left runid and num_q out
    args = ["--quiet", "--format", form, files / "qrels", files / "run"]
    status, out, _ = run_cli(capfdbinary, "-m", "runid", "-m", "num_q", *args)
    assert status == 0
    if form == "csv":
        assert out == "run,query,measure,value\nrun,,runid,myrun\nrun,,num_q,3\n"
    else:
        assert json.loads(out)["runs"] == [{"run": "run", "tag": "myrun", "num_q": 3, "means": {}}]
    status, out, _ = run_cli(capfdbinary, "-q", "-m", "num_q", "-m", "ndcg", "-m", "runid", *args)
    assert status == 0
    if form == "csv":  # trec_eval's order: per-query lines, then runid, num_q and the means
        rows = [line.split(",")[1:3] for line in out.splitlines()[1:]]
        assert rows == [
            ["10", "ndcg"],
            ["2", "ndcg"],
            ["7", "ndcg"],
            ["", "runid"],
            ["", "num_q"],
            ["", "ndcg"],
        ]
    else:
        assert list(json.loads(out)["runs"][0]["means"]) == ["ndcg"]


def test_csv_of_several_runs_has_runid_rows_only_where_asked_for(files, capfdbinary):
    # trec_eval's text names a run only by its runid line, which several runs get; CSV names each by its file, and
    # gave every run a runid row nobody asked for (which made the value column text)
    (files / "run2").write_text(RUN.replace("myrun", "other"))
    args = ["--quiet", "--format", "csv", files / "qrels", files / "run", files / "run2"]
    status, out, _ = run_cli(capfdbinary, *args)
    assert status == 0 and [line.split(",")[:3] for line in out.splitlines()] == [
        ["run", "query", "measure"],
        ["run", "", "ndcg"],
        ["run2", "", "ndcg"],
    ]
    status, out, _ = run_cli(capfdbinary, "-m", "runid", "-m", "ndcg", *args)
    assert status == 0 and [line.split(",")[2:] for line in out.splitlines() if ",runid," in line] == [
        ["runid", "myrun"],
        ["runid", "other"],
    ]


@pytest.mark.parametrize("closed", [">&-", "2>&-", "wrapper 2>&-"])
def test_a_closed_standard_stream_neither_crashes_nor_mixes_notes_into_the_output(files, capfdbinary, closed):
    # stdout closed was an AttributeError traceback; with stderr closed the notes (query 99 is not judged, 7 not
    # ranked) were printed into the output (print to a missing stream writes to stdout), then exit status 1; run
    # through a wrapper that execs Python, a closed stderr is the script bash read (writes fail): no output, status 1
    program = f"{sys.executable} -m ndcg_research evaluate"
    if closed.startswith("wrapper"):
        (files / "wrapper").write_text(f'#!/bin/bash\nexec {program} "$@"\n')
        (files / "wrapper").chmod(0o755)
        program, closed = str(files / "wrapper"), "2>&-"
    command = f"{program} -m ndcg {files / 'qrels'} {files / 'run'} {closed}"
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
    if closed == ">&-":
        assert result.returncode == 1
        assert result.stderr.endswith(
            "\nndcg-research evaluate: error: cannot write the output: standard output is closed\n"
        )
    else:
        quiet = run_cli(capfdbinary, "--quiet", "-m", "ndcg", files / "qrels", files / "run")
        assert result.returncode == 0 and result.stdout == quiet[1] and quiet[1].startswith("ndcg ")


def test_the_guide_s_recipe_reads_csv_output_back_ids_as_given(tmp_path, capfdbinary):
    # the recipe (dtype str) stopped at an id that is not UTF-8, which CSV writes as its bytes
    import re
    from pathlib import Path

    import pandas

    guide = (Path(__file__).parents[1] / "docs" / "guides" / "evaluating-runs.md").read_text()
    recipe = re.search(r"`(pandas\.read_csv\(path, [^`]*\))`", guide)[1]
    (tmp_path / "qrels").write_bytes(b"q\xff 0 a 1\nNA 0 a 1\n007 0 a 1\n")
    (tmp_path / "run").write_bytes(b"q\xff Q0 a 1 1 t\nNA Q0 a 1 1 t\n007 Q0 a 1 1 t\n")
    status = main(["evaluate", "-q", "--format", "csv", str(tmp_path / "qrels"), str(tmp_path / "run")])
    (tmp_path / "out.csv").write_bytes(capfdbinary.readouterr().out)
    table = eval(recipe, {"pandas": pandas, "path": tmp_path / "out.csv"})
    assert status == 0 and list(table["query"]) == ["007", "NA", "q\udcff", ""] and list(table["value"]) == [1.0] * 4


@pytest.mark.parametrize(
    ("option", "value"), [("-M", "1"), ("-m", "ndcg_cut.1"), ("-l", "1"), ("-N", "5"), ("-R", "qrels")]
)
def test_a_short_option_glued_to_its_value_by_equals_is_refused(files, capfdbinary, option, value):
    # argparse read -M=1 as -M 1 (one document per query); trec_eval's getopt reads the value "=1", which atol reads
    # as 0 (every query 0.0000), and -m=ndcg_cut.1 as the measure '=ndcg_cut' (refused): silently different values.
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", f"{option}={value}", str(files / "qrels"), str(files / "run")])
    err = capfdbinary.readouterr().err.decode()
    assert exit_.value.code == 2
    assert f"{option}={value}: give the value after a blank ({option} {value}): trec_eval reads '={value}'" in err
    status, out, _ = run_cli(capfdbinary, option, value, "-q", files / "qrels", files / "run")  # as trec_eval reads it
    assert status == 0 and out


@pytest.mark.parametrize(
    ("value", "atol_reads"), [("1_0", 1), ("5x", 5), ("١٠", 0), ("1e3", 1), ("0x10", 0), ("2.9", 2), ("ten", 0)]
)
def test_integer_options_take_what_trec_eval_reads_in_full(files, capfdbinary, value, atol_reads):
    # trec_eval reads -M, -l and -N with C's atol (its sign and ASCII digits, the rest ignored); int() read '1_0' as 10
    # and Arabic-Indic digits as 10, so -M 1_0 cut rankings at 10 where trec_eval cuts at 1: refused, saying so.
    for option in ("-M", "-l", "-N"):
        with pytest.raises(SystemExit) as exit_:
            main(["evaluate", option, value, str(files / "qrels"), str(files / "run")])
        err = capfdbinary.readouterr().err.decode()
        assert exit_.value.code == 2
        assert f"must be an integer, got {value!r} (trec_eval's atol reads {atol_reads})" in err


def test_trec_eval_options_that_change_no_ndcg_are_accepted(files, capfdbinary):
    # -N (the collection's size) serves other trec_eval measures; -R qrels and -T trec_results are its defaults.
    _, plain, _ = run_cli(capfdbinary, "-q", "-m", "ndcg", files / "qrels", files / "run")
    extra = ("-N", "100", "-l", " +2", "-R", "qrels", "-T", "trec_results", "-M", "+1000")
    _, out, _ = run_cli(capfdbinary, *extra, "-q", "-m", "ndcg", files / "qrels", files / "run")
    assert out == plain and plain.count("\n") == 4
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", "-R", "qrels_prefs", str(files / "qrels"), str(files / "run")])
    assert (
        exit_.value.code == 2
        and "invalid choice: 'qrels_prefs' (choose from 'qrels')" in capfdbinary.readouterr().err.decode()
    )
    with pytest.raises(SystemExit):
        main(["evaluate", "-M", "-3", str(files / "qrels"), str(files / "run")])
    # (trec_eval 10.0 crashes on -1, -2 and -2^31; on -2^32 it reads 0 in 32 bits and prints zeros)
    assert "got '-3' (trec_eval crashes on most negative values)" in capfdbinary.readouterr().err.decode()
