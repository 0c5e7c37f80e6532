"""The ``evaluate`` command: ``python -m ndcg_research evaluate [options] QRELS RUN [RUN ...]``.

A drop-in for trec_eval's nDCG measures (same options, same output bytes), plus any
gain or discount of the package, the conventions of other tools, CSV/JSON output and
several runs at once. Exit status: 0 on success, 1 on bad input (a one-line message
naming the file and line) or an unknown measure, 2 on bad usage.

Also home of :func:`number_argument` (with :data:`positive_int` and :data:`non_negative_int`),
the parser of the numeric options of every command: the ``compare`` and ``reproduce``
commands import it from here (the evaluation layer is below both).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable

__all__ = ["register", "run", "number_argument", "positive_int", "non_negative_int"]

_DESCRIPTION = """\
Evaluate TREC run files against qrels with nDCG, as trec_eval does (same options, same
output), or under another tool's convention. Measures (-m, repeatable): trec_eval names
(ndcg, ndcg_cut, ndcg_cut.10,20, ndcg.1=3,2=9,4=4.5, runid, num_q) or specs of the
package (ndcg@10, "ndcg@10(gain=exp2, discount='power(beta=0.5)')"). Default: -m ndcg.
"""


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


def add_collection_arguments(parser: argparse.ArgumentParser, *, runs_help: str, measure_help: str) -> None:
    """The arguments every command on run files shares (``evaluate``, ``compare``): QRELS, RUN...,
    ``-m/--measure``, ``--convention`` and ``--quiet``, defined once so that they read and check alike."""
    from .conventions import ALIASES, CONVENTIONS

    parser.add_argument("qrels", metavar="QRELS", help="qrels file (query iteration document relevance), plain or gzip")
    parser.add_argument("runs", metavar="RUN", nargs="+", help=runs_help)
    parser.add_argument("-m", "--measure", dest="measures", action="append", metavar="MEASURE", help=measure_help)
    parser.add_argument("--convention", default="trec_eval",
                        choices=[*CONVENTIONS, *ALIASES], metavar="NAME",
                        help=f"whose rules to follow (default trec_eval): {', '.join(CONVENTIONS)}")
    parser.add_argument("--quiet", action="store_true", help="do not print notes (queries left out, ...) on stderr")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``evaluate`` command to the subcommands of ``python -m ndcg_research``."""
    parser = sub.add_parser(
        "evaluate",
        help="nDCG of TREC run files against qrels (a drop-in for trec_eval's ndcg measures)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_collection_arguments(parser, runs_help="run file(s) (query Q0 document rank score tag)",
                             measure_help="measure to compute (repeatable); see above")
    parser.add_argument("-q", "--query_eval_wanted", dest="per_query", action="store_true",
                        help="also print the value of each query")
    parser.add_argument("-c", "--complete_rel_info_wanted", dest="complete", action="store_true", default=None,
                        help="average over every judged query, a query missing from the run scoring 0")
    parser.add_argument("-n", "--nosummary", dest="summary", action="store_false", help="do not print the averages")
    parser.add_argument("-M", "--Max_retrieved_per_topic", dest="max_docs", type=positive_int, metavar="N",
                        help="use only the first N documents of each ranking")
    parser.add_argument("-J", "--Judged_docs_only", dest="judged_only", action="store_true",
                        help="remove unjudged documents from each ranking first")
    parser.add_argument("-l", "--level_for_rel", dest="level", type=int, metavar="N",
                        help="accepted for trec_eval compatibility; nDCG does not use it")
    parser.add_argument("--gain", metavar="SPEC", help="gain for every measure: linear, exp2, 'mapping({...})'")
    parser.add_argument("--discount", metavar="SPEC", help="discount for every measure, e.g. log2, 'power(beta=0.5)'")
    parser.add_argument("--format", default="trec", choices=["trec", "csv", "json"],
                        help="output format (default trec: trec_eval's text)")
    parser.set_defaults(run=run)


def _keep_freed_memory() -> None:
    """Let freed memory be reused instead of returned to the system (glibc only; no effect elsewhere).

    Evaluating a large run allocates and frees arrays of tens of MB many times. By default
    glibc maps each one afresh and the kernel zero-fills every page again on first touch
    (on the project's virtual machines about a third of the command's time); raising
    malloc's mmap and trim thresholds, and letting Arrow allocate through malloc too, keeps
    those pages in the process. Values and results are unaffected.
    """
    import ctypes
    import ctypes.util

    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    if mallopt(m_mmap_threshold, 1 << 30) and mallopt(m_trim_threshold, 1 << 31):
        import pyarrow as pa

        pa.set_memory_pool(pa.system_memory_pool())


def _fail(message: str) -> int:
    print(f"ndcg_research evaluate: error: {message}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    """Run the ``evaluate`` command; return the exit status."""
    from .evaluate import evaluate
    from .measures import parse_measures
    from .output import csv_text, json_text, trec_text
    from .readers import InputError

    _keep_freed_memory()
    requested = args.measures or ["ndcg"]
    runid = "runid" in requested
    num_q = "num_q" in requested
    specs = [m for m in requested if m not in ("runid", "num_q")] or ["ndcg"]
    try:
        measures = parse_measures(specs)
        if args.gain is not None or args.discount is not None:
            from ..core import parse_discount, parse_gain

            gain = None if args.gain is None else str(parse_gain(args.gain, builtin_only=True))
            discount = None if args.discount is None else str(parse_discount(args.discount, builtin_only=True))
            measures = [m.with_defaults(gain, discount) for m in measures]
        result = evaluate(
            args.qrels, args.runs, measures, convention=args.convention, complete=args.complete,
            judged_only=args.judged_only, max_docs=args.max_docs,
        )
    except (InputError, ValueError, TypeError, OSError) as error:
        return _fail(" ".join(str(error).split("\n")))
    if not args.quiet:
        for note in result.notes:
            print(f"ndcg_research evaluate: note: {note}", file=sys.stderr)
    if args.format == "trec":
        text = trec_text(result, per_query=args.per_query, summary=args.summary,
                         runid=runid or len(args.runs) > 1, num_q=num_q)
    elif args.format == "csv":
        text = csv_text(result, per_query=args.per_query)
    else:
        text = json_text(result, per_query=args.per_query) + "\n"
    try:
        sys.stdout.buffer.write(text.encode("utf-8", errors="surrogateescape"))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: stop quietly, as C tools do
        sys.stderr.close()
        return 141
    return 0
