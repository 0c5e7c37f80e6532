"""The command line as a whole: the order of ``--help``, the program's one name, the numeric options.

The commands themselves are tested with their subpackages (test_evaluation_cli, test_stats_cli,
test_runner, test_findings).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

import pytest

from ndcg_research import _validation
from ndcg_research.cli import USER_COMMANDS, build_parser, main
from ndcg_research.cli_common import (
    PROG,
    fail,
    int_argument,
    non_negative_int,
    note,
    positive_int,
    real_argument,
    resample_count,
    share,
)


def _run(*args: str) -> subprocess.CompletedProcess:
    """``python -m ndcg_research ARGS``, the way the README's ``ndcg-research`` runs (same entry point)."""
    return subprocess.run([sys.executable, "-m", "ndcg_research", *args], capture_output=True, text=True, timeout=300)


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


@pytest.mark.parametrize("command", sorted(_subcommands()))
def test_every_option_and_argument_of_every_command_says_what_it_does(command):
    # store --help showed --timeout SECONDS with no text
    bare = [a.option_strings or [a.dest] for a in _subcommands()[command]._actions if not (a.help or "").strip()]
    assert not bare, f"{command}: {bare} have no help text"


# --- --help: the user's commands first --------------------------------------------------------------------


def _help_sections(text: str) -> dict[str, list[str]]:
    """The commands listed under each heading of ``--help`` (a heading is a line ending with ':')."""
    sections: dict[str, list[str]] = {}
    heading = None
    for line in text.splitlines():
        if re.fullmatch(r"[a-z][a-z ]*:", line):
            heading = line[:-1]
            sections[heading] = []
        elif heading and (match := re.match(r"  ([a-z]+)  ", line)):
            sections[heading].append(match[1])
    return sections


def test_help_lists_the_users_commands_first_then_the_maintainers_under_their_own_heading():
    result = _run("--help")
    assert result.returncode == 0 and result.stderr == ""
    sections = _help_sections(result.stdout)
    headings = list(sections)
    assert headings[:2] == ["commands", "maintainer commands"], headings
    users = [name for name in USER_COMMANDS if name in _subcommands()]
    assert {"evaluate", "compare"} <= set(users)
    assert sections["commands"] == users
    assert {"reproduce", "store", "params", "findings"} <= set(sections["maintainer commands"])
    # every command is listed once, under one heading
    listed = sections["commands"] + sections["maintainer commands"]
    assert sorted(listed) == sorted(_subcommands())
    assert result.stdout.startswith(f"usage: {PROG} [-h] [--version] COMMAND ...\n")


def test_every_command_has_a_one_line_summary_in_help():
    text = _run("--help").stdout
    for name in _subcommands():
        line = next(line for line in text.splitlines() if line.startswith(f"  {name} "))
        assert line[len(name) + 2 :].strip(), f"{name} has no summary in --help"


# --- One program name -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, status, last_line",
    [
        ([], 2, f"{PROG}: error: the following arguments are required: COMMAND"),
        (["frobnicate"], 2, f"{PROG}: error: argument COMMAND: invalid choice: 'frobnicate'"),
        (["evaluate", "examples/qrels.txt"], 2, f"{PROG} evaluate: error: the following arguments are required: RUN"),
        (
            ["evaluate", "-M", "-1", "examples/qrels.txt", "examples/run_a.txt"],
            2,
            f"{PROG} evaluate: error: argument -M/--Max_retrieved_per_topic: must be an integer >= 0, got '-1' (trec_eval "
            "crashes on most negative values)",
        ),
        (
            ["evaluate", "examples/qrels.txt", "no_such_run.txt"],
            1,
            f"{PROG} evaluate: error: run file 'no_such_run.txt' does not exist",
        ),
        (
            ["compare", "examples/qrels.txt", "examples/run_a.txt"],
            1,
            f"{PROG} compare: error: compare needs at least 2 runs, got 1",
        ),
        (
            ["compare", "examples/qrels.txt", "examples/run_a.txt", "examples/run_b.txt", "--confidence", "1"],
            2,
            f"{PROG} compare: error: argument --confidence: must be strictly between 0 and 1, got '1'",
        ),
        (["reproduce", "--timeout", "-5"], 2, f"{PROG} reproduce: error: argument --timeout: must be an integer >= 0"),
        # one way for the three commands on run files (advise took any name, then failed with status 1), and the
        # message lists the presets' names, not their aliases
        *(
            (
                [command, "--convention", "nope", "examples/qrels.txt", "examples/run_a.txt", "examples/run_b.txt"],
                2,
                f"{PROG} {command}: error: argument --convention: unknown convention 'nope'; valid conventions: "
                "trec_eval, pytrec_eval, gdeval, sklearn,",
            )
            for command in ("evaluate", "compare", "advise")
        ),
    ],
)
def test_messages_name_the_program_one_way_also_under_python_m(args, status, last_line):
    result = _run(*args)
    assert result.returncode == status and result.stdout == ""
    assert result.stderr.splitlines()[-1].startswith(last_line), result.stderr
    assert "ndcg_research" not in result.stderr


def test_an_unknown_option_of_a_command_is_reported_with_the_command_s_usage():
    result = _run("evaluate", "--bogus", "examples/qrels.txt", "examples/run_a.txt")
    assert result.returncode == 2 and result.stderr.startswith(f"usage: {PROG} evaluate ")
    assert result.stderr.splitlines()[-1] == f"{PROG} evaluate: error: unrecognized arguments: --bogus"


def test_run_files_after_an_option_are_run_files_as_trec_eval_reads_them():
    # `evaluate Q run_a -m ndcg run_b` was "unrecognized arguments: run_b"; trec_eval's getopt reads operands anywhere
    apart = _run("evaluate", "examples/qrels.txt", "examples/run_a.txt", "-m", "ndcg", "examples/run_b.txt")
    together = _run("evaluate", "-m", "ndcg", "examples/qrels.txt", "examples/run_a.txt", "examples/run_b.txt")
    assert apart.returncode == 0 and apart.stdout == together.stdout and together.stdout.count("runid") == 2
    assert _run("evaluate", "examples/qrels.txt", "examples/run_a.txt", "-m", "ndcg", "--bogus").returncode == 2


def test_version_names_the_program():
    import ndcg_research

    assert _run("--version").stdout == f"{PROG} {ndcg_research.__version__}\n"


def test_fail_and_note_are_one_line_each(capsys):
    assert fail("evaluate", "first line\nsecond line") == 1
    note("compare", "a\nb")
    assert capsys.readouterr().err == (f"{PROG} evaluate: error: first line second line\n{PROG} compare: note: a b\n")


# --- Numeric options: the package's own checks ------------------------------------------------------------


@pytest.mark.parametrize(
    "parse, text, value",
    [
        (positive_int, "1", 1),
        (positive_int, " 25 ", 25),
        (positive_int, "10_000", 10_000),
        (non_negative_int, "0", 0),
        (non_negative_int, "7", 7),
        (int_argument(low=-3, high=3), "-3", -3),
        (real_argument(low=0, high=1, closed="neither"), "0.95", 0.95),
        (real_argument(low=0, high=1), "1", 1.0),
        (real_argument(low=0, closed="neither"), "1e-3", 0.001),
        (real_argument(), "-2", -2.0),
    ],
)
def test_numeric_arguments_accept(parse, text, value):
    got = parse(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    "parse, text, message",
    [
        (positive_int, "0", "must be an integer >= 1, got '0'"),
        (positive_int, "-3", "must be an integer >= 1, got '-3'"),
        (positive_int, "2.5", "must be an integer >= 1, got '2.5'"),  # no silent truncation
        (positive_int, "1e3", "must be an integer >= 1, got '1e3'"),
        (positive_int, "", "must be an integer >= 1, got ''"),
        (positive_int, "ten", "must be an integer >= 1, got 'ten'"),
        (non_negative_int, "-1", "must be an integer >= 0, got '-1'"),
        (int_argument(high=4), "5", "must be an integer <= 4, got '5'"),
        (real_argument(low=0, high=1, closed="neither"), "1", "must be strictly between 0 and 1, got '1'"),
        (real_argument(low=0, high=1, closed="neither"), "0", "must be strictly between 0 and 1, got '0'"),
        (real_argument(low=0, high=1, closed="neither"), "nan", "must be strictly between 0 and 1, got 'nan'"),
        (real_argument(low=0, high=1), "1.5", "must be in [0, 1], got '1.5'"),
        (real_argument(low=0, closed="neither"), "inf", "must be finite, got 'inf'"),
        (real_argument(), "-inf", "must be finite, got '-inf'"),
        (real_argument(low=2), "1", "must be a number >= 2, got '1'"),
        (real_argument(low=0), "soon", "must be a number, got 'soon'"),
        (real_argument(low=0), "1, got 2", "must be a number, got '1, got 2'"),
    ],
)
def test_numeric_arguments_refuse_naming_the_value(parse, text, message):
    with pytest.raises(argparse.ArgumentTypeError) as error:
        parse(text)
    assert str(error.value) == message


@pytest.mark.parametrize("value", [0, -1, 7, 2.5])
def test_an_option_refuses_what_the_python_api_refuses_in_the_same_words(value):
    """One integer check in the package: the option's message is check_int's, after the argument's name."""
    try:
        _validation.check_int(value, "n_resamples", low=1)
    except (TypeError, ValueError) as error:
        wanted = str(error).removeprefix("n_resamples ").partition(", got ")[0]
        with pytest.raises(argparse.ArgumentTypeError) as refused:
            positive_int(str(value))
        assert str(refused.value) == f"{wanted}, got {str(value)!r}"
    else:
        assert positive_int(str(value)) == value


def test_counting_options_of_every_command_share_one_parser():
    def option_type(command, option):
        return next(a.type for a in _subcommands()[command]._actions if option in a.option_strings)

    assert option_type("compare", "--resamples") is resample_count
    assert option_type("advise", "--resamples") is option_type("advise", "--trials") is resample_count
    assert option_type("compare", "--jobs") is positive_int
    assert option_type("compare", "--seed") is non_negative_int
    assert option_type("compare", "--confidence") is share
    assert option_type("advise", "--alpha") is share  # (--target-swap-rate: advise's own check, below 0.5)


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["evaluate", "-M", "ten", "q", "r"],
            "argument -M/--Max_retrieved_per_topic: must be an integer, got 'ten' (trec_eval's atol reads 0)",
        ),
        (
            ["compare", "q", "a", "b", "--resamples", "2.5"],
            "argument --resamples: must be an integer in [1, 2147483647], got '2.5'",
        ),
        (["compare", "q", "a", "b", "-j", "0"], "argument -j/--jobs: must be an integer >= 1, got '0'"),
        (["compare", "q", "a", "b", "--seed", "-1"], "argument --seed: must be an integer >= 0, got '-1'"),
        (
            ["compare", "q", "a", "b", "--confidence", "95"],
            "argument --confidence: must be strictly between 0 and 1, got '95'",
        ),
        (["reproduce", "--timeout", "soon"], "argument --timeout: must be an integer >= 0, got 'soon'"),
        # papermill takes whole seconds: 2.5 passed, then failed every notebook with a TraitError
        (["reproduce", "--timeout", "2.5"], "argument --timeout: must be an integer >= 0, got '2.5'"),
        (["store", "--timeout", "2.5"], "argument --timeout: must be an integer >= 0, got '2.5'"),
    ],
)
def test_bad_numbers_are_usage_errors_naming_option_and_value(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(f"{PROG} {argv[0]}: error: {message}\n"), err


@pytest.mark.parametrize("text, value", [("none", None), ("None", None), ("0", None), ("00", None), ("90", 90)])
def test_timeout_accepts_whole_seconds_or_none(text, value):
    from ndcg_research.pipeline import cli as pipeline_cli

    assert pipeline_cli._timeout(text) == value and type(pipeline_cli._timeout(text)) is type(value)


def test_a_reader_that_closes_the_pipe_early_gets_no_traceback():
    # `ndcg-research params 13 | head -1`: head closes the pipe after one line; Python's BrokenPipeError on
    # the next write must end the command quietly, not with a traceback.
    command = f"{sys.executable} -m ndcg_research params 13 | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.startswith("seed") and "Traceback" not in done.stderr, done.stderr
