"""The ``findings`` command: write (or check) FINDINGS.md and the README's Findings section."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path

from ..cli_common import fail, json_value, path_argument, strict_json, write_output


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``findings`` command to the subcommands of ``python -m ndcg_research``."""
    cmd = sub.add_parser(
        "findings",
        help="write FINDINGS.md and the README's Findings section from the committed result tables",
        description=(
            "Evaluate every finding on the committed tables (results/full/) and write FINDINGS.md and the "
            "Findings section of README.md. With --check, write nothing and exit 1 if either is stale."
        ),
    )
    mode = cmd.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 if FINDINGS.md or the README section is stale")
    mode.add_argument("--json", action="store_true", help="print the findings as JSON instead of writing files")
    cmd.add_argument(
        "--root",
        type=path_argument,
        metavar="DIR",
        default=None,
        help="repository root (default: the checkout holding this package)",
    )
    cmd.add_argument(
        "--results", type=path_argument, metavar="DIR", default=None, help="tables folder (default: ROOT/results/full)"
    )
    cmd.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from .catalogue import catalogue, collect
    from .confirmatory import problems
    from .model import MissingTableError, Results, UnreadableTableError
    from .render import outputs

    # The checkout of an editable install, else (pip install .: site-packages) the working directory, as reproduce's
    root = Path(args.root) if args.root is not None else Path(__file__).resolve().parents[2]
    if args.root is None and not (root / "pyproject.toml").is_file():
        root = Path.cwd()
    for option, folder in (("--root", args.root), ("--results", args.results)):
        if folder is not None and not Path(folder).is_dir():
            return fail(
                "findings", f"{option} {folder!r} is not a folder" + ("" if Path(folder).exists() else " (missing)")
            )
    # Only --json of given tables needs no checkout.
    if args.root is None and not (root / "pyproject.toml").is_file() and not (args.json and args.results):
        return fail("findings", f"{str(root)!r} holds no checkout of ndcg_research: give --root DIR, a clone of it")
    results = Results(Path(args.results) if args.results is not None else root / "results" / "full")
    try:
        findings = collect(results)
    except (MissingTableError, UnreadableTableError) as exc:
        return fail("findings", str(exc))
    if args.json:  # strict JSON: a number that is not finite is null
        rows = [{**asdict(f), "numbers": {k: json_value(v) for k, v in f.numbers.items()}} for f in findings]
        return write_output("findings", strict_json(rows))
    try:
        files = outputs(findings, root)
    except (OSError, ValueError) as exc:
        return fail("findings", str(exc))
    stale = [path for path, text in files.items() if not path.is_file() or path.read_text(encoding="utf-8") != text]
    # The rules a confirmatory run is judged by must be those its record names (thresholds.toml, [confirmatory]).
    try:
        contradictions = problems(root, catalogue().confirmatory)
    except ImportError as exc:  # yaml, to read the profiles' seeds
        return fail(
            "findings", f"needs {exc.name}, of the notebooks extra: pip install '.[notebooks]' in the package's folder"
        )
    for line in contradictions:
        fail("findings", line)
    if contradictions:
        return 1
    wrote = ", ".join(str(p.relative_to(root)) for p in stale)
    if args.check:
        if stale:
            return fail(
                "findings", f"{wrote} out of date with the committed tables; run: python -m ndcg_research findings"
            )
        print(f"findings up to date ({len(findings)} findings)")
        return 0
    for path in stale:
        try:
            path.write_text(files[path], encoding="utf-8")
        except OSError as exc:
            return fail("findings", f"cannot write {str(path)!r}: {exc.strerror or exc}")
    print(f"{len(findings)} findings; wrote {wrote or 'nothing (up to date)'}")
    return 0
