"""The ``evaluate`` command: ``python -m ndcg_research evaluate [options] QRELS RUN [RUN ...]``.

A drop-in for trec_eval's nDCG measures (same options, same output bytes), plus any
gain or discount of the package, the conventions of other tools, SVMlight/LETOR input, CSV/JSON
output and several runs at once. Exit status: 0 on success, 1 on bad input (a one-line message
naming the file and line) or an unknown measure, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..cli_common import add_collection_arguments, fail, positive_int, write_output

__all__ = ["register", "run"]

_DESCRIPTION = """\
Evaluate TREC run files against qrels with nDCG, as trec_eval does (same options, same
output), or under another tool's convention. Measures (-m, repeatable): trec_eval names
(ndcg, ndcg_cut, ndcg_cut.10,20, ndcg.1=3,2=9,4=4.5, runid, num_q) or specs of the
package (ndcg@10, "ndcg@10(gain=exp2, discount='power(beta=0.5)')"). Default: -m ndcg.
Run files are read in blocks of whole queries (memory bounded by the largest block); a
run whose queries are interleaved is read whole instead. - as a file name reads standard input.
"""

#: trec_eval measures that are not nDCG: printed from the evaluation's bookkeeping.
_INFO_MEASURES = ("runid", "num_q")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``evaluate`` command to the subcommands of ``python -m ndcg_research``."""
    from .conventions import ALIASES, CONVENTIONS

    parser = sub.add_parser(
        "evaluate",
        help="nDCG of TREC run files against qrels (a drop-in for trec_eval's ndcg measures)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_collection_arguments(parser, runs_help="run file(s) (query Q0 document rank score tag); - reads standard input",
                             measure_help="measure to compute (repeatable); see above",
                             conventions=list(CONVENTIONS), aliases=list(ALIASES))
    parser.add_argument("-q", "--query_eval_wanted", dest="per_query", action="store_true",
                        help="also print the value of each query")
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

    Evaluating a large run allocates and frees arrays of some MB for every block. By default
    glibc maps each one afresh and the kernel zero-fills every page again on first touch
    (on the project's virtual machines about a third of the command's time); raising
    malloc's mmap threshold to 64 MB and its trim threshold, and letting Arrow allocate through
    malloc too, keeps those pages in the process. Arrays of 64 MB and more (those of large qrels,
    built once) are still mapped and given back when freed, so that the peak memory stays that
    of the data alive at once. Values and results are unaffected.
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
    if mallopt(m_mmap_threshold, 64 << 20) and mallopt(m_trim_threshold, 1 << 30):
        import pyarrow as pa

        pa.set_memory_pool(pa.system_memory_pool())


def _measures(args: argparse.Namespace) -> tuple[list[Any], bool, bool, bool]:
    """The nDCG measures asked for, whether ``runid`` / ``num_q`` are, and whether any nDCG measure is."""
    from .measures import parse_measures

    requested = args.measures or ["ndcg"]
    specs = [m for m in requested if m not in _INFO_MEASURES]
    measures = parse_measures(specs or ["ndcg"])  # with only runid / num_q, ndcg is computed, not printed
    if args.gain is not None or args.discount is not None:
        from ..core import parse_discount, parse_gain

        gain = None if args.gain is None else str(parse_gain(args.gain, builtin_only=True))
        discount = None if args.discount is None else str(parse_discount(args.discount, builtin_only=True))
        measures = [m.with_defaults(gain, discount) for m in measures]
    return measures, "runid" in requested, "num_q" in requested, bool(specs)


def run(args: argparse.Namespace) -> int:
    """Run the ``evaluate`` command; return the exit status."""
    from .collection import read_collection
    from .evaluator import evaluate
    from .output import csv_text, json_text, trec_text
    from .readers import InputError

    _keep_freed_memory()
    try:
        measures, runid, num_q, any_ndcg = _measures(args)
        qrels, runs = read_collection(args.qrels, args.runs, svmlight=args.input == "svmlight")
        result = evaluate(qrels, runs, measures, convention=args.convention, complete=args.complete,
                          judged_only=args.judged_only, max_docs=args.max_docs)
    except (InputError, ValueError, TypeError, OSError) as error:
        return fail("evaluate", str(error))
    if not args.quiet:
        for note in result.notes:
            print(f"ndcg_research evaluate: note: {note}", file=sys.stderr)
    if args.format == "trec":
        text = trec_text(result, per_query=args.per_query, summary=args.summary,
                         runid=runid or len(args.runs) > 1, num_q=num_q, ndcg=any_ndcg)
    elif args.format == "csv":
        text = csv_text(result, per_query=args.per_query)
    else:
        text = json_text(result, per_query=args.per_query) + "\n"
    return write_output("evaluate", text.encode("utf-8", errors="surrogateescape"))
