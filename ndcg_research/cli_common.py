"""Command-line helpers shared by every command, below every layer (imports the standard library and
:mod:`ndcg_research._validation` only): the program's name, argparse types that check numbers with the
package's own checks (an option refuses what the Python API refuses, in the same words), one-line errors and
notes, output that survives a closed pipe, strict JSON."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from ._validation import MAX_RESAMPLES, Closed, check_int, check_real

#: The program's name in usage lines and messages.
PROG = "ndcg-research"

_T = TypeVar("_T", int, float)
#: The name the checks are given; argparse puts the option's name before the message instead.
_SUBJECT = "value"


def _argument(read: Callable[[str], object], check: Callable[[object], _T]) -> Callable[[str], _T]:
    def parse(text: str) -> _T:
        try:
            value: object = read(text)
        except ValueError:
            value = text  # not a number at all: the check refuses it, showing what it got
        try:
            return check(value)
        except (TypeError, ValueError) as error:
            # "value must be an integer >= 1, got float 2.5" -> "must be an integer >= 1, got '2.5'": the
            # check's words, then the text as typed; argparse puts "argument -M: " before it.
            wanted = str(error).removeprefix(f"{_SUBJECT} ").partition(", got ")[0]
            raise argparse.ArgumentTypeError(f"{wanted}, got {text!r}") from None

    return parse


def _read_int(text: str) -> int | float:
    """``int(text)``, else a float (``2.5``, ``1e3``), which :func:`check_int` refuses rather than truncating it."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def int_argument(*, low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=``: the text as an integer within ``[low, high]`` (:func:`check_int`)."""
    return _argument(_read_int, lambda value: check_int(value, _SUBJECT, low=low, high=high))


def real_argument(
    *, low: float | None = None, high: float | None = None, closed: Closed = "both"
) -> Callable[[str], float]:
    """An argparse ``type=``: the text as a finite number within the bounds (:func:`check_real`)."""
    return _argument(float, lambda value: check_real(value, _SUBJECT, low=low, high=high, closed=closed))


def checked_argument(check: Callable[[object, str], float]) -> Callable[[str], float]:
    """An argparse ``type=``: the text as a number that ``check(value, name)``, a check of the API, accepts."""
    return _argument(_read_int, lambda value: check(value, _SUBJECT))


#: ``type=`` of options counting something (documents, resamples, threads): an integer >= 1.
positive_int = int_argument(low=1)
#: ``type=`` of resamples or random trials: an integer from 1 to ``MAX_RESAMPLES``, as the API takes them.
resample_count = int_argument(low=1, high=MAX_RESAMPLES)
#: ``type=`` of an integer >= 0 (e.g. a seed).
non_negative_int = int_argument(low=0)
#: ``type=`` of a share or a level (--alpha, --confidence): a number strictly between 0 and 1.
share = real_argument(low=0, high=1, closed="neither")


def path_argument(text: str) -> str:
    """An argparse ``type=`` of a file or folder option: the text, unless empty (``Path("")`` is the working
    directory: ``--output ""`` would silently mean the folder the command runs in)."""
    if not text:
        raise argparse.ArgumentTypeError("must name a file or folder, got ''")
    return text


def fail(command: str, message: str) -> int:
    """Print ``ndcg-research COMMAND: error: MESSAGE`` (on one line, as argparse's usage errors) on stderr; return 1."""
    print(f"{PROG} {command}: error: " + message.replace("\n", " "), file=sys.stderr)
    return 1


def note(command: str, message: str) -> None:
    """Print ``ndcg-research COMMAND: note: MESSAGE`` (on one line) on standard error."""
    print(f"{PROG} {command}: note: " + message.replace("\n", " "), file=sys.stderr)


def finish(command: str, notes: Iterable[str], quiet: bool, text: str) -> int:
    """Print the ``notes`` (unless ``quiet``), then :func:`write_output` the ``text``; return the exit status."""
    if not quiet:
        for message in notes:
            note(command, message)
    return write_output(command, text)


def write_output(command: str, text: str) -> int:
    """Write ``text`` to standard output; return the exit status: 141 (quietly, as C tools) if the reader closed the
    pipe early (``| head``), 1 with a one-line error on any other failure to write (a full disk)."""
    if sys.stdout is None:  # closed (>&-): Python has no stream for it
        return fail(command, "cannot write the output: standard output is closed")
    try:
        if hasattr(sys.stdout, "buffer"):
            data = memoryview(text.encode("utf-8", errors="surrogateescape"))
            while data:  # a pipe whose reader left takes part of it; writing the rest raises BrokenPipeError
                data = data[sys.stdout.buffer.write(data) :]
        else:  # a text stream put in its place (tests, notebooks)
            sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        drop_stdout()
        return 141
    except OSError as error:
        drop_stdout()
        return fail(
            command, f"cannot write the output to standard output ({error.strerror or error}); the output is incomplete"
        )
    return 0


def drop_stdout() -> None:
    """Forget what could not be written, so that the interpreter's final flush does not fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def json_value(value: Any) -> Any:
    """``value`` as strict JSON writes it: a numpy scalar as Python's, a float that is not finite as null."""
    value = value.item() if hasattr(value, "item") else value
    return None if isinstance(value, float) and not math.isfinite(value) else value


def strict_json(value: Any) -> str:
    """``value`` as the commands write JSON: indented by one space, strict (a value that is not finite must be
    given as :func:`json_value`), a DataFrame as a list of its rows, each a dict of :func:`json_value`."""
    import json  # here: the other commands need not load it

    return json.dumps(value, indent=1, allow_nan=False, default=_json_rows) + "\n"


def _json_rows(table: Any) -> list[dict[str, Any]]:
    if not hasattr(table, "to_dict"):  # json's own error for what is neither JSON nor a table
        raise TypeError(f"Object of type {type(table).__name__} is not JSON serializable")
    return [{key: json_value(value) for key, value in row.items()} for row in table.to_dict("records")]
