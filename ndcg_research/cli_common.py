"""Command-line helpers shared by every command (evaluate, compare, reproduce...): one home, below every layer.

- :func:`number_argument` (with :data:`positive_int`, :data:`non_negative_int`): the one
  parser of numeric options, so that every command accepts and refuses the same texts and says
  so the same way;
- :func:`add_collection_arguments`: the arguments of the commands on run files (QRELS, RUN...,
  ``-m``, ``--convention``, ``-c`` / ``--answered-only``, ``--input``, ``--quiet``), defined once;
- :func:`fail` and :func:`write_output`: a one-line error and exit status 1; output written
  to standard output whatever happens to it (a reader that leaves, a full disk).

Standard library only: every subpackage's command module may import it (the layer test places
it below the metric core).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence

__all__ = ["number_argument", "positive_int", "non_negative_int", "add_collection_arguments", "fail", "write_output",
           "STDIN"]

#: The file name that means standard input.
STDIN = "-"


def number_argument(kind: type[int] | type[float], *, minimum: float | None = None, maximum: float | None = None,
                    strict: bool = False, expected: str | None = None) -> Callable[[str], int | float]:
    """An argparse ``type=``: the text read as ``kind`` (int or float), finite and within the bounds.

    The one parser of numeric options of every command (evaluate, compare, reproduce), so
    that they accept and refuse the same texts and say so the same way.

    Parameters
    ----------
    kind : int or float
        ``int`` accepts whole numbers only (``"5"``, not ``"5.0"`` or ``"1e3"``).
    minimum, maximum : float, optional
        Bounds; included unless ``strict``.
    strict : bool, default False
        Exclude the bounds (e.g. a confidence level strictly between 0 and 1).
    expected : str, optional
        What the message says is expected; by default made from ``kind`` and the bounds.

    Returns
    -------
    callable
        ``str -> int | float``; raises :class:`argparse.ArgumentTypeError` ("expected ..., got
        'text'"), which argparse reports as ``argument --x: expected ..., got 'text'`` (exit 2).

    Examples
    --------
    >>> level = number_argument(float, minimum=0, maximum=1, strict=True)
    >>> level("0.9")
    0.9
    >>> level("1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected a number strictly between 0 and 1, got '1'
    >>> positive_int("2.5")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected a positive integer, got '2.5'
    """
    if kind not in (int, float):
        raise TypeError(f"kind must be int or float, got {kind!r}")
    if expected is None:
        expected = _describe(kind, minimum, maximum, strict)

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = None
        # NaN fails every comparison and infinity is no count, level or time: both refused.
        if (value is None or not math.isfinite(value)
                or (minimum is not None and (value <= minimum if strict else value < minimum))
                or (maximum is not None and (value >= maximum if strict else value > maximum))):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    # argparse names the type in its own messages ("invalid <name> value") if one slips through.
    parse.__name__ = parse.__qualname__ = f"{kind.__name__}_argument"
    return parse


def _describe(kind: type, minimum: float | None, maximum: float | None, strict: bool) -> str:
    noun = "integer" if kind is int else "number"
    if maximum is None and (minimum == 0 or (kind is int and minimum == 1 and not strict)):
        # The usual cases in words: > 0 (or >= 1 for integers) is positive, >= 0 non-negative.
        return f"a {'positive' if strict or minimum == 1 else 'non-negative'} {noun}"
    described = f"an {noun}" if kind is int else f"a {noun}"
    if minimum is not None and maximum is not None:
        return f"{described} {'strictly ' if strict else ''}between {minimum:g} and {maximum:g}" + (
            "" if strict else " (inclusive)")
    if minimum is not None:
        return f"{described} {'>' if strict else '>='} {minimum:g}"
    if maximum is not None:
        return f"{described} {'<' if strict else '<='} {maximum:g}"
    return described


#: ``type=`` of options counting something (documents, resamples, threads): an integer >= 1.
positive_int = number_argument(int, minimum=1)
#: ``type=`` of an integer >= 0 (e.g. a seed).
non_negative_int = number_argument(int, minimum=0)


def add_collection_arguments(parser: argparse.ArgumentParser, *, runs_help: str, measure_help: str,
                             conventions: Sequence[str], aliases: Sequence[str] = ()) -> None:
    """The arguments every command on run files shares (``evaluate``, ``compare``), defined once so that they
    read and check alike: QRELS, RUN..., ``-m/--measure``, ``--convention``, ``-c`` / ``--answered-only``,
    ``--input`` and ``--quiet``.

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> add_collection_arguments(parser, runs_help="runs", measure_help="measure", conventions=["trec_eval"])
    >>> args = parser.parse_args(["qrels.txt", "a.run", "--answered-only"])
    >>> args.complete, args.input
    (False, 'trec')
    """
    parser.add_argument("qrels", metavar="QRELS",
                        help="qrels file (query iteration document relevance), plain or compressed; - reads standard "
                             "input; with --input svmlight, the SVMlight/LETOR data file")
    parser.add_argument("runs", metavar="RUN", nargs="+", help=runs_help)
    parser.add_argument("-m", "--measure", dest="measures", action="append", metavar="MEASURE", help=measure_help)
    parser.add_argument("--convention", default="trec_eval", choices=[*conventions, *aliases], metavar="NAME",
                        help=f"whose rules to follow (default trec_eval): {', '.join(conventions)}")
    missing = parser.add_mutually_exclusive_group()
    missing.add_argument("-c", "--complete_rel_info_wanted", dest="complete", action="store_true", default=None,
                         help="a judged query missing from a run scores 0 (trec_eval -c; the default of the trec_eval "
                              "and ranx conventions)")
    missing.add_argument("--answered-only", dest="complete", action="store_false",
                         help="leave a judged query missing from a run out of the mean (default of the other "
                              "conventions)")
    parser.add_argument("--input", default="trec", choices=["trec", "svmlight"],
                        help="trec (default): TREC qrels and run files; svmlight: QRELS is an SVMlight/LETOR file "
                             "(relevance qid:Q features # docid = ID) and each RUN a model's predictions for it, one "
                             "score per line")
    parser.add_argument("--quiet", action="store_true",
                        help="do not print notes (queries left out or scored 0, ...) on standard error")


def fail(command: str, message: str) -> int:
    """Print ``ndcg_research COMMAND: error: MESSAGE`` (on one line) on standard error; return exit status 1.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     status = fail("evaluate", "run.txt:3: score 'x' is not a number")
    >>> status, err.getvalue()
    (1, "ndcg_research evaluate: error: run.txt:3: score 'x' is not a number\\n")
    """
    print(f"ndcg_research {command}: error: {' '.join(message.split(chr(10)))}", file=sys.stderr)
    return 1


def write_output(command: str, data: bytes) -> int:
    """Write ``data`` to standard output; return the exit status.

    A reader that closes the pipe early (``| head``) ends the command quietly with status 141,
    as C tools do; any other failure to write (a full disk, a closed descriptor) is a one-line
    error and status 1, never a traceback.
    """
    try:
        if hasattr(sys.stdout, "buffer"):
            sys.stdout.buffer.write(data)
        else:  # a text stream put in its place (tests, notebooks)
            sys.stdout.write(data.decode("utf-8", errors="surrogateescape"))
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
        return 141
    except OSError as error:
        _drop_stdout()
        return fail(command, f"cannot write the output to standard output ({error.strerror or error}); the output "
                             f"is incomplete")
    return 0


def _drop_stdout() -> None:
    """Forget what could not be written, so that the interpreter's final flush does not fail again."""
    try:
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
