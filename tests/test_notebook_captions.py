"""The committed figures' captions are what the notebooks' code writes, and the figure index is what
:func:`~ndcg_research.pipeline.figures.write_index` writes from them.

A caption is written by the ``save_figure(fig, name, ..., caption=...)`` call of the notebook that makes the figure,
as a string or an f-string whose fields are the run's values. Each committed record (``figures/NN_*.json``) must
match, as a pattern, the caption of the call whose name pattern matches its figure: literal parts equal, each field
any text. A caption edited in the code without regenerating the figure fails here, without running the full profile
(the headline figures, drawn from the committed tables, are checked whole in ``test_notebook_headlines.py``).
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from ndcg_research.pipeline import runner
from ndcg_research.pipeline.figures import read_provenance, write_index

ROOT = Path(__file__).resolve().parent.parent
ALL = runner.discover_notebooks(ROOT / "notebooks")
FIGURES = ROOT / "figures"


def pattern(node: ast.expr) -> re.Pattern[str]:
    """A string or f-string expression as a pattern: its literal parts as they are, each field any text."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.compile(re.escape(node.value.strip()))
    if isinstance(node, ast.JoinedStr):
        parts = [re.escape(v.value) if isinstance(v, ast.Constant) else "(.+?)" for v in node.values]
        return re.compile("".join(parts).strip())
    raise AssertionError(f"a figure's name and caption must be strings or f-strings, got {ast.unparse(node)!r}")


def save_figure_calls(path: Path) -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    """(name pattern, caption pattern) of every ``save_figure`` call in the notebook's code cells."""
    calls = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "save_figure":
                caption = next(k.value for k in node.keywords if k.arg == "caption")
                calls.append((pattern(node.args[1]), pattern(caption)))
    return calls


def test_patterns_match_what_the_f_string_writes():
    k_curve_n = 1000
    node = ast.parse('(f"Expected nDCG@k (n = {k_curve_n}, log2); the dashed line is the "\n f"relevant items.")').body[
        0
    ]
    written = f"Expected nDCG@k (n = {k_curve_n}, log2); the dashed line is the relevant items."
    assert pattern(node.value).fullmatch(written)
    assert not pattern(node.value).fullmatch("Expected nDCG@k (n = 1000, log2): not monotone.")


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_committed_captions_are_what_the_notebook_writes(path):
    headline = runner.profiles.declared_headline(path)
    calls = save_figure_calls(path)
    for name in runner.declared_figures(path):
        if name == headline:  # drawn by save_headline: test_notebook_headlines.py redraws it whole
            continue
        caption = read_provenance(FIGURES / f"{name}.json")["caption"]
        captions = [c for n, c in calls if n.fullmatch(name)]
        assert captions, f"{path.name} has no save_figure call that writes {name}"
        assert any(c.fullmatch(caption) for c in captions), (
            f"{name}: the committed caption {caption!r} is not what {path.name} writes "
            f"({[c.pattern for c in captions]}); regenerate the figure"
        )


def test_the_figure_index_is_what_write_index_writes(tmp_path):
    for record in FIGURES.glob("*.json"):
        shutil.copy(record, tmp_path)
    written = write_index(tmp_path).read_text(encoding="utf-8")
    assert (FIGURES / "README.md").read_text(encoding="utf-8") == written, (
        "figures/README.md differs from the index of the committed records: "
        "python -c 'from ndcg_research.pipeline.figures import write_index; write_index(\"figures\")'"
    )
