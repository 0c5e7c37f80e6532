"""Sphinx extension: pages written from committed files before the sources are read.

- ``generated/figures.md``: every publication figure ``figures/NAME.png`` with its provenance
  record ``figures/NAME.json`` (written by :func:`ndcg_research.pipeline.figures.save_figure`):
  one section per figure, anchored by its file name (so "cite a figure by its file name" has a
  place to point at), with the image, the caption, a link to the notebook page that makes it,
  and the files to download (PNG, PDF, provenance JSON).
- ``generated/speed_results.md``: the tables the benchmarks wrote (``benchmarks/results/*.json``,
  by ``benchmarks/record.py``), with the date, the machine and its load of each run.
- ``generated/findings_table.md``: the findings table of the README (generated there by
  ``python -m ndcg_research findings`` from the committed tables), with its links made relative
  to ``docs/generated/``, for the landing page to include.

``FINDINGS.md`` itself is read as :func:`ndcg_research.findings.render.for_site` rewrites it: its
evidence links to figures open the figure's entry on the figures page, not a raw image download.

A page is rewritten only when its text changes, so that Sphinx's incremental build stays quiet.
"""

from __future__ import annotations

import json
from pathlib import Path

from ndcg_research.findings.render import README_END, README_START, for_site
from ndcg_research.pipeline.figures import seed_text

FOLDER = "docs/generated"  # relative to the source directory, the repository root

FIGURES_INTRO = """\
# Figures

Every publication figure of the package, as committed in `figures/` by the full profile
(`python3 tasks.py reproduce`). Cite a figure by its file name and the commit in its provenance
record (the JSON file): the record names the notebook, its parameters, the seed, the package
version, the commit and the environment that made it, with SHA-256 of the image files.
"""


def figure_section(name: str, record: dict) -> str:
    """The MyST Markdown of one figure: anchor, heading, image, caption, notebook and files."""
    stem = record.get("notebook", "").removesuffix(".ipynb")
    commit = record.get("git", {}).get("commit") or "unknown"
    caption = record.get("caption", "")
    return "\n".join(
        [
            f"({name})=",
            f"## `{name}`",
            "",
            f"```{{image}} ../../figures/{name}.png",
            f":alt: {caption or name}",
            ":width: 100%",
            "```",
            "",
            caption,
            "",
            f"Made by notebook {{doc}}`{stem} </notebooks/{stem}>` with {seed_text(record.get('seed'))}, "
            f"package version {record.get('package_version', 'unknown')}, commit `{commit[:12]}`. "
            f"Files: {{download}}`PNG <../../figures/{name}.png>`, {{download}}`PDF <../../figures/{name}.pdf>`, "
            f"{{download}}`provenance JSON <../../figures/{name}.json>`.",
            "",
        ]
    )


def figures_page(figures: Path) -> str:
    """The figures page from the provenance records in ``figures``."""
    records = sorted(figures.glob("*.json"))
    if not records:
        raise RuntimeError(f"no figure records in {figures}")
    return (
        FIGURES_INTRO
        + "\n"
        + "\n".join(figure_section(path.stem, json.loads(path.read_text(encoding="utf-8"))) for path in records)
    )


def findings_table(readme: Path) -> str:
    """The README's generated findings table, its links made relative to ``generated/``."""
    text = readme.read_text(encoding="utf-8")
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        raise RuntimeError(f"{readme} has no findings markers")
    table = text[start + len(README_START) : end].strip()
    return table.replace("](FINDINGS.md#", "](../FINDINGS.md#") + "\n"


def speed_results(folder: Path) -> str:
    """One table per benchmark record in ``folder``: what was measured, against what, and the target.

    The growth table of ``bench_evaluate.py`` (``evaluate_growth.csv`` and its figure) follows
    that benchmark's record, or opens the page if it has no record.
    """
    records = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))]
    growth = growth_table(folder / "evaluate_growth.csv")
    if not records and not growth:
        return "No benchmark has recorded its results yet (run the scripts in `benchmarks/`).\n"
    recorded = any(record["benchmark"] == "bench_evaluate" for record in records)
    parts = ["### `bench_evaluate`", "", growth] if growth and not recorded else []
    for record in records:
        machine = record["machine"]
        load = f"load average {machine.get('load_average_1min')} before, {machine.get('load_average_1min_after')} after"
        parts += [
            f"### `{record['benchmark']}`",
            "",
            f"`{record['command']}`, run on {record['date']}: {machine['cpu']}, {machine['cores']} cores, "
            f"Python {machine['python']}, NumPy {machine['numpy']}; {load}.",
            "",
            "| task | measured | target |",
            "|---|---|---|",
            *[f"| {row['task']} | {row['measured']} | {row['target']}{_verdict(row)} |" for row in record["rows"]],
            "",
        ]
        if record["benchmark"] == "bench_evaluate" and growth:
            parts.append(growth)
    return "\n".join(parts)


def _verdict(row: dict) -> str:
    """Whether the run met the row's target, as the benchmark judged it (older records do not say)."""
    if "met" not in row:
        return ""
    return " (met)" if row["met"] else " (**not met**)"


#: The growth table of bench_evaluate.py (``evaluate_growth.csv``): the columns shown, with their headers.
GROWTH_COLUMNS = {
    "lines": "run lines",
    "ours_s": "ours (s)",
    "trec_eval_s": "trec_eval 10.0 (s)",
    "speedup": "speed-up",
    "speedup_per_round": "speed-up per round",
    "ours_mib": "ours (MiB)",
    "trec_eval_mib": "trec_eval (MiB)",
    "memory_ratio": "memory ours / trec_eval",
    "ours_over_floor": "ours / pyarrow read alone",
    "identical_output": "identical output",
    "load_before": "load average",
}


def growth_table(path: Path) -> str:
    """``evaluate_growth.csv`` as a Markdown table with human headers (empty if the file is absent).

    The table may come from another run than the ``bench_evaluate`` record (the record is
    rewritten by every run, the table only where ``--results`` points); its command is told
    from its sizes: 10^8 lines are measured with ``--huge`` only.
    """
    import csv

    if not path.is_file():
        return ""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    lines = ["| " + " | ".join(GROWTH_COLUMNS.values()) + " |", "|" + "---|" * len(GROWTH_COLUMNS)]
    for row in rows:
        cells = [f"{int(row['lines']):,}" if key == "lines" else row[key].replace(";", ", ") for key in GROWTH_COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    huge = " --huge" if any(int(row["lines"]) >= 10**8 for row in rows) else ""
    return "\n".join(
        [
            "#### Growth with the number of run lines",
            "",
            f"`python benchmarks/bench_evaluate.py{huge}`, the run that wrote the growth table and figure "
            "committed in `benchmarks/results/` (it may be older than the record above, whose sizes and "
            "load can differ): time and peak memory of the whole process, best "
            "of the rounds, against trec_eval 10.0 built from source and against reading the same files "
            "with pyarrow alone; the output bytes compared.",
            "",
            *lines,
            "",
            "```{image} ../../benchmarks/results/evaluate_growth.png",
            ":alt: time and memory against run lines",
            ":width: 100%",
            "```",
            "",
        ]
    )


def write(page: Path, text: str) -> None:
    page.parent.mkdir(exist_ok=True)
    if not page.is_file() or page.read_text(encoding="utf-8") != text:
        page.write_text(text, encoding="utf-8")


def check_source_directory(app, config) -> None:
    """Refuse another source directory than the repository root (``sphinx-build docs SITE``), naming the cause
    (a plain exception: the test environment has no Sphinx, and Sphinx reports any exception of a handler)."""
    if not (Path(app.srcdir) / "docs" / "conf.py").is_file():
        raise RuntimeError(
            f"the source directory must be the repository root, got {app.srcdir}: build with "
            "`python3 tasks.py docs`, or `python -m sphinx -c docs -b html . build/site` from the root"
        )


def write_pages(app) -> None:
    srcdir = Path(app.srcdir)
    write(srcdir / FOLDER / "figures.md", figures_page(srcdir / "figures"))
    write(srcdir / FOLDER / "findings_table.md", findings_table(srcdir / "README.md"))
    write(srcdir / FOLDER / "speed_results.md", speed_results(srcdir / "benchmarks" / "results"))


def findings_for_site(app, docname: str, source: list[str]) -> None:
    if docname == "FINDINGS":
        source[0] = for_site(source[0])


def setup(app):
    app.connect("config-inited", check_source_directory)
    app.connect("builder-inited", write_pages)
    app.connect("source-read", findings_for_site)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
