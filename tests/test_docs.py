"""The README as an entry point, and the documentation site's sources.

The site itself is built by ``python3 tasks.py docs`` (warnings are errors) and checked in a
browser by ``tools/site_check.py`` (both run by ``.ci/run``); the doctests of its pages run in
this suite through ``--doctest-glob`` (pyproject.toml). Here: what can be checked without Sphinx.
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import re
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def _bash_commands(text: str) -> list[str]:
    """The commands of the ```bash blocks (one per line, trailing comments dropped)."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line and not line.startswith("#"):
                commands.append(line)
    return commands


def test_readme_is_an_entry_point_of_at_most_150_lines():
    assert README.read_text(encoding="utf-8").count("\n") <= 150


def test_readme_python_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)  # the README's paths (examples/...) are relative to the repository root
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = doctest.testfile(str(README), module_relative=False)
    assert result.attempted >= 2 and result.failed == 0


def test_readme_links_name_existing_files():
    text = README.read_text(encoding="utf-8")
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)]+)\)", text) if "://" not in t]
    assert targets, "the README links to nothing"
    missing = sorted({t for t in targets if t and not (ROOT / t).exists()})
    assert not missing, f"README links to files that do not exist: {missing}"


def test_readme_names_the_quick_profile_before_the_full_one():
    commands = _bash_commands(README.read_text(encoding="utf-8"))
    quick = commands.index("python3 tasks.py reproduce --profile quick")
    assert quick < commands.index("python3 tasks.py reproduce")
    assert "python3 tasks.py test" in commands


@pytest.mark.parametrize(
    "command",
    [c for c in _bash_commands(README.read_text(encoding="utf-8")) if c.startswith("ndcg-research ")],
)
def test_readme_command_line_examples_work_as_pasted(command):
    # The README's commands name the console script; this is the same entry point.
    args = shlex.split(command)[1:]
    result = subprocess.run(
        [sys.executable, "-m", "ndcg_research", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_console_script_is_declared_with_a_version_flag():
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"ndcg-research": "ndcg_research.cli:console"}
    result = subprocess.run([sys.executable, "-m", "ndcg_research", "--version"], capture_output=True, text=True)
    import ndcg_research

    assert result.returncode == 0 and result.stdout.strip() == f"ndcg-research {ndcg_research.__version__}"


def test_every_guide_is_in_the_guides_table_of_contents():
    toctree = (DOCS / "guides" / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([a-z-]+)$", toctree, flags=re.M))
    pages = {path.stem for path in (DOCS / "guides").glob("*.md")} - {"index"}
    assert pages == listed


def test_every_notebook_has_a_row_on_the_notebooks_page():
    text = (DOCS / "notebooks.md").read_text(encoding="utf-8")
    notebooks = sorted(path.stem for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert notebooks and all(f"{{doc}}`/notebooks/{stem}`" in text for stem in notebooks)


def _generated_pages():
    spec = importlib.util.spec_from_file_location("generated_pages", DOCS / "_ext" / "generated_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_figure_section_anchors_the_figure_and_links_its_notebook_and_provenance():
    section = _generated_pages().figure_section(
        "04_demo",
        {
            "notebook": "04_x.ipynb",
            "caption": "A caption.",
            "seed": 7,
            "package_version": "9.9.9",
            "git": {"commit": "0123456789abcdef"},
        },
    )
    assert section.startswith("(04_demo)=\n## `04_demo`")
    assert "```{image} ../../figures/04_demo.png" in section
    assert "{doc}`04_x </notebooks/04_x>`" in section
    assert "{download}`provenance JSON <../../figures/04_demo.json>`" in section
    assert "seed 7" in section and "commit `0123456789ab`" in section


def test_figure_section_of_a_figure_without_random_draws_says_so():
    section = _generated_pages().figure_section(
        "02_demo", {"notebook": "02_x.ipynb", "caption": "C.", "seed": None, "git": {"commit": "0123456789abcdef"}}
    )
    assert "with no random draws" in section and "seed None" not in section


def test_figures_page_has_one_section_per_committed_figure():
    page = _generated_pages().figures_page(ROOT / "figures")
    records = sorted(path.stem for path in (ROOT / "figures").glob("*.json"))
    assert re.findall(r"^\((\w+)\)=$", page, flags=re.M) == records


def test_the_speed_page_says_which_targets_a_run_missed(tmp_path):
    # A missed target (evaluate at 50,000 lines: 4.17x trec_eval's time, target at most 2x) read like a met one.
    record = {
        "benchmark": "bench_x",
        "command": "python benchmarks/bench_x.py",
        "date": "2026-12-07",
        "machine": {"cpu": "cpu", "cores": 2, "python": "3.11", "numpy": "2", "load_average_1min": 0.5},
        "rows": [
            {"task": "a", "measured": "4.17x", "target": "at most 2x", "met": False},
            {"task": "b", "measured": "0.5x", "target": "at most 1x", "met": True},
            {"task": "c", "measured": "1 s", "target": "information"},  # no verdict recorded: none shown
        ],
    }
    (tmp_path / "bench_x.json").write_text(json.dumps(record), encoding="utf-8")
    page = _generated_pages().speed_results(tmp_path)
    assert "| a | 4.17x | at most 2x (**not met**) |" in page
    assert "| b | 0.5x | at most 1x (met) |" in page and "| c | 1 s | information |" in page


def test_a_build_from_the_docs_folder_is_refused_with_the_cause():
    # `sphinx-build docs SITE` stopped on "no figure records in docs/figures", which hid the cause.
    from types import SimpleNamespace

    pages = _generated_pages()
    with pytest.raises(RuntimeError, match=r"the source directory must be the repository root, got .*docs: build with"):
        pages.check_source_directory(SimpleNamespace(srcdir=str(DOCS)), None)
    pages.check_source_directory(SimpleNamespace(srcdir=str(ROOT)), None)  # the root: accepted


def test_findings_table_links_are_made_relative_to_the_landing_page(tmp_path):
    from ndcg_research.findings.render import README_END, README_START

    readme = tmp_path / "README.md"
    readme.write_text(f"x\n{README_START}\n| [A](FINDINGS.md#a) | holds |\n{README_END}\ny\n", encoding="utf-8")
    assert _generated_pages().findings_table(readme) == "| [A](../FINDINGS.md#a) | holds |\n"
