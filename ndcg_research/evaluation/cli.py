"""The ``evaluate`` command, ``ndcg-research evaluate [options] QRELS RUN [RUN ...]``: a drop-in for trec_eval's nDCG
measures (same options, same output bytes) with the package's gains, discounts and presets, and CSV/JSON output.
Exit status: 0 on success, 1 on bad input or an unknown measure, 2 on bad usage."""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..cli_common import fail, finish, json_value, strict_json
from ..core import parse_discount, parse_gain
from ._measures import ALIASES, ATOL, CONVENTIONS, Measure, atol, get_convention, parse_measures  # light: no pyarrow

if TYPE_CHECKING:
    from ._evaluator import Evaluation

_DESCRIPTION = """\
Evaluate TREC run files against qrels with nDCG, as trec_eval does (same options, same
output), or under another tool's convention. Measures (-m, repeatable): trec_eval names
(ndcg, ndcg_cut, ndcg_cut.10,20, ndcg.1=3,2=9,4=4.5, runid, num_q) or specs of the
package (ndcg@10, "ndcg@10(gain=exp2, discount='power(beta=0.5)')"). Default: -m ndcg.
Run files are read in blocks of whole queries (memory bounded by the largest block); a
run whose queries are interleaved is read whole instead. - as a file name reads standard input."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``evaluate`` command to the subcommands of ``ndcg-research``."""
    parser = sub.add_parser(
        "evaluate",
        help="nDCG of TREC run files against qrels (a drop-in for trec_eval's ndcg measures)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_collection_arguments(
        parser,
        runs_help="run file(s) (query Q0 document rank score tag); - reads standard input",
        measure_help="measure to compute (repeatable); see above",
    )
    parser.add_argument(
        "-q", "--query_eval_wanted", dest="per_query", action="store_true", help="also print the value of each query"
    )
    parser.add_argument("-n", "--nosummary", dest="summary", action="store_false", help="do not print the averages")
    parser.add_argument(
        "-M",
        "--Max_retrieved_per_topic",
        dest="max_docs",
        type=_atol_argument(low=0),
        metavar="N",
        help="use only the first N documents of each ranking (0: none, so trec_eval scores every query 0)",
    )
    parser.add_argument(
        "-J",
        "--Judged_docs_only",
        dest="judged_only",
        action="store_true",
        help="remove unjudged documents from each ranking (after -M has cut it, as trec_eval does)",
    )
    for flags in (("-l", "--level_for_rel"), ("-N", "--Number_docs_in_coll")):  # trec_eval's, for other measures
        parser.add_argument(*flags, type=_atol_argument(), metavar="N", help="accepted as trec_eval's; unused by nDCG")
    for flags, name in ((("-R", "--Rel_info_format"), "qrels"), (("-T", "--Results_format"), "trec_results")):
        parser.add_argument(*flags, choices=[name], help=f"accepted as trec_eval's; {name} is the one format read")
    parser.add_argument("--gain", metavar="SPEC", help="gain of the measures: linear, exp2, 'mapping({...})'")
    parser.add_argument("--discount", metavar="SPEC", help="discount of the measures, e.g. log2, 'power(beta=0.5)'")
    parser.add_argument(
        "--format",
        default="trec",
        choices=["trec", "csv", "json"],
        help="output format (default trec: trec_eval's text)",
    )
    parser.set_defaults(run=run)


def _atol_argument(low: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` of a trec_eval integer option: text that C's ``atol`` reads in full (blanks, a sign, ASCII
    digits), at least ``low``; other text is refused, saying what trec_eval reads (``1_0``: 1, where int() reads 10)."""

    def parse(text: str) -> int:
        value = atol(text)
        if not ATOL.fullmatch(text):
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r} (trec_eval's atol reads {value})")
        if low is not None and value < low:  # (-M: trec_eval crashes on most negative values, checked)
            raise argparse.ArgumentTypeError(
                f"must be an integer >= {low}, got {text!r} (trec_eval crashes on most negative values)"
            )
        return value

    return parse


def add_convention_arguments(parser: argparse.ArgumentParser) -> None:
    """``--convention`` (a bad name is a usage error) and ``-c`` / ``--answered-only`` (``args.complete``)."""

    def preset(text: str) -> str:
        if text in CONVENTIONS or text in ALIASES:
            return text
        raise argparse.ArgumentTypeError(f"unknown convention {text!r}; valid conventions: {', '.join(CONVENTIONS)}")

    parser.add_argument(
        "--convention",
        default="trec_eval",
        type=preset,
        metavar="NAME",
        help=f"whose rules to follow (default trec_eval): {', '.join(CONVENTIONS)}",
    )
    missing = parser.add_mutually_exclusive_group()
    missing.add_argument(
        "-c",
        "--complete_rel_info_wanted",
        dest="complete",
        action="store_true",
        default=None,
        help="a judged query missing from a run scores 0 (trec_eval -c; default of the trec_eval and ranx conventions)",
    )
    missing.add_argument(
        "--answered-only",
        dest="complete",
        action="store_false",
        help="leave a judged query missing from a run out of the mean (default of the other conventions)",
    )


def add_collection_arguments(parser: argparse.ArgumentParser, *, runs_help: str, measure_help: str) -> None:
    """The arguments of ``evaluate`` and ``compare``, defined once so that they read and check alike."""
    parser.add_argument(
        "qrels",
        metavar="QRELS",
        help="qrels file (query iteration document relevance), plain or compressed; - reads standard "
        "input; with --input svmlight, the SVMlight/LETOR data file",
    )
    parser.add_argument("runs", metavar="RUN", nargs="+", help=runs_help)
    parser.add_argument("-m", "--measure", dest="measures", action="append", metavar="MEASURE", help=measure_help)
    add_convention_arguments(parser)
    parser.add_argument(
        "--input",
        default="trec",
        choices=["trec", "svmlight"],
        help="trec (default): TREC qrels and run files; svmlight: QRELS is an SVMlight/LETOR file (relevance qid:Q "
        "features # docid = ID) and each RUN a model's predictions for it, one score per line",
    )
    parser.add_argument("--quiet", action="store_true", help="no notes (queries left out or scored 0, ...) on stderr")


def read_collection(qrels: str, runs: Sequence[str], *, svmlight: bool = False) -> tuple[Any, dict[str, Any]]:
    """The qrels and named runs of ``evaluate`` and ``compare``: TREC files stay paths, SVMlight files are read."""
    from ._frames import named_runs
    from ._readers import predictions_columns, svmlight_columns

    if not os.path.exists(qrels) and re.fullmatch(r"ndcg\S*", qrels):  # -m ndcg@10 ndcg@20 QRELS RUN
        raise ValueError(f"qrels file {qrels!r} does not exist; a measure? give -m before each: -m ndcg@10 -m ndcg@20")
    named = dict(named_runs(list(runs)))
    if not svmlight:
        return qrels, named
    judged = svmlight_columns(qrels)
    return judged, {name: predictions_columns(judged, path) for name, path in named.items()}


def _keep_freed_memory() -> None:
    """Let freed memory be reused, not returned to the system (glibc only): process-wide settings that only the command
    makes (in ``cli.main``'s caller too), malloc's and Arrow's default pool's (overriding ARROW_DEFAULT_MEMORY_POOL)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    import pyarrow as pa

    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own symbols hold the C library's (no ldconfig call)
    except (OSError, AttributeError):
        return
    # Blocks' arrays of some MB, freed, are mapped afresh and zero-filled (a third of the time): a 64 MB threshold keeps
    # them; Arrow through malloc likewise (10^7 run lines 2.2-2.3 s, not 3.2-3.5 s; mimalloc maps afresh too).
    mallopt(-3, 64 << 20)  # M_MMAP_THRESHOLD
    mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
    pa.set_memory_pool(pa.system_memory_pool())


class Shown(NamedTuple):
    """What the output holds: per-query values (``-q``), the means (unless ``-n``), and whether the ``runid`` and
    ``num_q`` lines asked for and the nDCG lines are printed (none with ``-m runid`` alone)."""

    per_query: bool
    summary: bool
    runid: bool
    num_q: bool
    ndcg: bool


def _measures(args: argparse.Namespace) -> tuple[list[Measure], Shown]:
    """The nDCG measures and what the output shows; refuses a trec_eval measure asked for twice with different
    parameters (trec_eval keeps the first)."""
    requested = args.measures or ["ndcg"]
    names = [m.partition(".")[0] for m in requested]  # trec_eval's: the text before a dot, compared with strcmp
    for m, name in zip(requested, names, strict=True):
        if name != name.strip() and name.strip() in ("ndcg", "ndcg_cut", "runid", "num_q"):
            raise ValueError(f"measure {m!r}: trec_eval refuses it (illegal measure {name!r}): write it without blanks")
        if name in ("runid", "num_q") and m == name + ".":  # trec_eval.c's add_meas_arg_info
            raise ValueError(f"measure {m!r}: trec_eval refuses a dot with nothing after it ('improper measure')")
    # runid and num_q are not nDCG: printed from the bookkeeping (trec_eval ignores their parameters, as runid.x)
    specs = [m for m, name in zip(requested, names, strict=True) if name not in ("runid", "num_q")]
    trec = args.format == "trec" and get_convention(args.convention).name == "trec_eval"
    first: dict[str, tuple[int, str, frozenset[tuple[Any, ...]]]] = {}
    given, specs = specs, []
    for index, spec in enumerate(given):  # (blanks before a trec_eval name are refused above; after it, kept)
        match = re.fullmatch(r"(ndcg|ndcg_cut)(\.[^()]*)?", spec)
        if not trec or match is None:
            specs.append(spec)
            continue
        try:
            parsed = frozenset(m.key for m in parse_measures(spec))  # what they compute, whatever their names
        except ValueError:
            if "." not in first.get(match[1], (0, ""))[1]:  # trec_eval reads the first -m with parameters
                raise
            parsed = frozenset()  # a second list trec_eval never reads: refused below as asked twice
        at, seen, kept = first.setdefault(match[1], (index, spec, parsed))
        if parsed != kept:
            other = "give every cut-off in one -m (ndcg_cut.5,10), or use ndcg@K"
            if match[1] == "ndcg":
                other = "give one gain map, or write another as ndcg(gains={grade: gain, ...})"
            raise ValueError(
                f"-m {seen} and -m {spec} ask for trec_eval's {match[1]} twice with different parameters; trec_eval "
                f"computes it once, with the parameters of the first -m that has any, and drops the other: {other}"
            )
        if at == index:  # the same parameters written again (ndcg.2=9,1=3 after ndcg.1=3,2=9): printed once, as first
            specs.append(spec)
    measures = parse_measures(specs or ["ndcg"])  # with only runid / num_q, ndcg is computed, not printed
    gain = None if args.gain is None else str(parse_gain(args.gain, builtin_only=True))
    discount = None if args.discount is None else str(parse_discount(args.discount, builtin_only=True))
    for option, value, fields in (("--gain", gain, ("gain", "gains")), ("--discount", discount, ("discount",))):
        clash = next((m for m in measures if any(getattr(m, f) is not None for f in fields)), None)
        if value is not None and clash is not None:  # one of the two would be ignored
            raise ValueError(f"{option} {value} and the measure {clash.name} both set a {option[2:]}; set it once")
    measures = [m.with_defaults(gain, discount) for m in measures]
    return measures, Shown(args.per_query, args.summary, "runid" in names, "num_q" in names, bool(specs))


def run(args: argparse.Namespace) -> int:
    """Run the ``evaluate`` command; return the exit status."""
    from ._evaluator import evaluate
    from ._sources import STDIN, InputError

    _keep_freed_memory()
    try:
        for path in args.runs:
            if path.startswith("-") and path != STDIN:  # get_trec_results.c
                raise ValueError(
                    f"run file {path!r}: trec_eval reads standard input for any run name that begins with '-', not "
                    f"the file; write ./{path} to read the file"
                )
        if len(args.runs) > 1 and args.format == "trec" and args.per_query and not args.summary:
            raise ValueError(
                "-q -n with several runs prints per-query lines that name no run (trec_eval's text has no run "
                "column; a run's runid line is part of the averages -n drops): give --format csv or json, or one run"
            )
        measures, shown = _measures(args)
        qrels, runs = read_collection(args.qrels, args.runs, svmlight=args.input == "svmlight")
        result = evaluate(
            qrels,
            runs,
            measures,
            convention=args.convention,
            complete=args.complete,
            judged_only=args.judged_only,
            max_docs=args.max_docs,
        )
    except (InputError, ValueError, TypeError, OSError) as error:
        return fail("evaluate", str(error))
    notes = list(result.notes)
    text = {"trec": trec_text, "csv": csv_text, "json": json_text}[args.format](result, shown)
    if args.format == "trec":
        tags = [tag if tag is not None else run for run, tag in zip(result.runs, result.tags, strict=True)]
        for tag in sorted({tag for tag in tags if tags.count(tag) > 1}):
            alike = " and ".join(run for run, other in zip(result.runs, tags, strict=True) if other == tag)
            notes.append(
                f"runs {alike} carry one tag, {tag!r}: their runid lines are alike (--format csv or json "
                "names each run by its file)"
            )
    return finish("evaluate", notes, args.quiet, text)


def trec_text(evaluation: Evaluation, shown: Shown) -> str:
    """trec_eval's output, byte for byte: per run, per-query lines (``-q``; queries in ``strcmp`` order), then the
    ``all`` lines (unless ``-n``)."""
    measures = evaluation.measures  # in trec_eval's order: uncut ones first, then by cut-off
    order = sorted(range(len(measures)), key=lambda i: measures[i].k or 0) if shown.ndcg else []
    averaged = evaluation.averaged()
    lines: list[tuple[str, str, object]] = []  # measure, query, value (as printed)
    for r, run in enumerate(evaluation.runs):
        rows = zip(evaluation.queries[r], evaluation.values[r].T, strict=True) if shown.per_query else []
        lines.extend((measures[i].name, query, f"{values[i]:6.4f}") for query, values in rows for i in order)
        if shown.summary:
            if shown.runid or len(evaluation.runs) > 1:  # (trec_eval's text has no run column)
                lines.append(("runid", "all", evaluation.tags[r] if evaluation.tags[r] is not None else run))
            if shown.num_q:
                lines.append(("num_q", "all", averaged[r]))
            lines.extend((measures[i].name, "all", f"{evaluation.mean_values[r][i]:6.4f}") for i in order)
    return "".join(f"{name:<22}\t{query}\t{value}\n" for name, query, value in lines)


def csv_text(evaluation: Evaluation, shown: Shown) -> str:
    """CSV with columns ``run, query, measure, value``, every float written exactly; the mean's ``query`` is
    empty (no query id is, so a query named ``all``, trec_eval's name for the mean, stays distinct from it); with
    the means, ``runid`` (the run's tag) and ``num_q`` rows where asked for, as in trec_eval's text."""
    import csv  # here, as json in strict_json: the default output (trec) loads neither

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["run", "query", "measure", "value"])
    names = [m.name for m in evaluation.measures] if shown.ndcg else []
    averaged = evaluation.averaged()
    for r, run in enumerate(evaluation.runs):
        if shown.per_query:
            for query, values in zip(evaluation.queries[r], evaluation.values[r].T, strict=True):
                writer.writerows((run, query, name, repr(float(v))) for name, v in zip(names, values, strict=False))
        if shown.summary:  # trec_eval's order: runid, num_q, the means
            tag = evaluation.tags[r] if evaluation.tags[r] is not None else run
            writer.writerows([(run, "", "runid", tag)] * shown.runid + [(run, "", "num_q", averaged[r])] * shown.num_q)
            writer.writerows(
                (run, "", name, repr(float(v))) for name, v in zip(names, evaluation.mean_values[r], strict=False)
            )
    return buffer.getvalue()


def json_text(evaluation: Evaluation, shown: Shown) -> str:
    """JSON (:func:`strict_json`): the convention, then per run its tag, ``num_q``, means (not with ``-n``) and
    per-query values (with ``-q``), of the nDCG measures asked for (none with ``-m runid`` or ``-m num_q`` alone)."""
    runs = []
    averaged = evaluation.averaged()
    names = [m.name for m in evaluation.measures] if shown.ndcg else []
    for r, run in enumerate(evaluation.runs):
        entry: dict[str, Any] = {"run": run, "tag": evaluation.tags[r], "num_q": averaged[r]}
        if shown.summary:
            entry["means"] = dict(zip(names, map(json_value, evaluation.mean_values[r]), strict=False))
        if shown.per_query:
            rows = zip(evaluation.queries[r], evaluation.values[r].T, strict=True)
            entry["per_query"] = {query: dict(zip(names, map(json_value, row), strict=False)) for query, row in rows}
        runs.append(entry)
    return strict_json({"convention": evaluation.convention.name, "runs": runs})
