"""The committed notebooks follow the pipeline's rules, and nbval really checks them.

Rules for every ``notebooks/NN_*.ipynb`` (new notebooks plug in by following them):

- a cell tagged ``parameters`` declaring ``figures_dir = "../build/figures"`` and
  ``results_dir = "../build/results"`` (so nbval never overwrites ``figures/``);
- an entry in both the ``quick`` and ``full`` profiles, naming only declared parameters;
- declared figures (``metadata["ndcg_research"]["figures"]``) named ``NN_...`` after the notebook;
- stored outputs from a clean top-to-bottom run (execution counts 1..N, no errors), without
  volatile metadata, with the kernel metadata JupyterLab fills in when it opens the notebook
  (``kernelspec``, complete ``language_info``), so that opening it does not mark it modified
  (``python -m ndcg_research store`` does all of this);
- at least one cell tagged ``nbval-check-output`` (nbval's marker as a cell tag, so that no test marker is
  shown on a page or in JupyterLab), and no marker left in a cell's source;
- the answer cell (the findings' table, read from ``results/full``) right after the title cell, its input hidden
  on the site (``remove-input``) and in JupyterLab (``jupyter.source_hidden``): the table follows the Answer;
- the publication figures in ``figures/`` exist for every declared figure and are indexed.

nbval itself runs on the committed notebooks through ``pytest`` (see pyproject.toml);
the last tests show that a changed number in a checked output makes nbval fail.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from ndcg_research.pipeline import runner
from ndcg_research.pipeline.figures import figure_files, read_provenance

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
FIGURES = ROOT / "figures"
ALL = runner.discover_notebooks(NOTEBOOKS)
# A figure name: the notebook's two digits, then lower-case words joined by underscores (``01_contributions``).
FIGURE_NAME_PATTERN = re.compile(r"^\d{2}_[a-z0-9]+(?:_[a-z0-9]+)*$")
CHECK = "nbval-check-output"
#: nbval's markers as source comments (``# NBVAL_CHECK_OUTPUT`` ...): cell tags replace them.
COMMENT_MARKER = re.compile(r"^\s*#\s*(NBVAL_[A-Z_]+|PYTEST_VALIDATE_IGNORE_OUTPUT)\s*$", re.M)


def checked(cell) -> bool:
    """Whether nbval compares the stored outputs of a code cell (``--nbval-lax``): its tag ``nbval-check-output``."""
    return cell.cell_type == "code" and CHECK in cell.metadata.get("tags", [])


def is_answer_cell(cell) -> bool:
    """The cell that displays the notebook's findings from the committed full profile (its answer)."""
    return cell.cell_type == "code" and "answer(" in cell.source and '"../results/full"' in cell.source


def test_there_are_notebooks():
    assert ALL, "notebooks/ holds no NN_*.ipynb"
    assert ALL[0].name == "01_worked_example.ipynb"


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_parameters_cell_and_profiles(path):
    params = runner.notebook_parameters(path)
    assert params.get("figures_dir") == '"../build/figures"'
    assert params.get("results_dir") == '"../build/results"'
    # papermill's own (line-based) inspection must see the same parameters, or it warns
    # "Passed unknown parameter" and `papermill --help-notebook` is wrong. It gives up on
    # lines whose comment contains "=" or quotes.
    # The one exception: a default that is a spec string such as "power(beta=2)" holds an '='
    # that papermill cannot tell from an assignment; `python -m ndcg_research params` lists it.
    import papermill

    seen = set(papermill.inspect_notebook(str(path)))
    specs = {name for name, default in params.items() if "=" in default}
    assert seen | specs == set(params), (
        f"papermill's inspection of {path.name} misses {sorted(set(params) - seen - specs)}: it reads the "
        "parameters cell line by line and gives up on a value spread over several lines or a "
        "comment containing '=' or quotes; keep one `name = value  # comment` per line"
    )
    profiles = runner.load_profiles(NOTEBOOKS / "profiles.yaml")
    for profile in ("quick", "full"):
        assert path.stem in profiles[profile], f"{path.stem} has no entry in profile {profile!r}"
        extra = set(profiles[profile][path.stem]) - set(params)
        assert not extra, f"profile {profile!r} sets undeclared parameters {extra} for {path.name}"
        injected = set(profiles[profile][path.stem]) & set(runner.INJECTED_PARAMETERS)
        assert not injected, f"profile {profile!r} must not set {injected}: the runner injects them"


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_stored_outputs_are_clean(path):
    nb = nbformat.read(path, as_version=4)
    assert runner.strip_volatile(nb) == nb, (
        f"{path.name} holds volatile metadata: run `python -m ndcg_research store --only {path.stem}`"
    )
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), (
        f"{path.name} was not stored from one top-to-bottom run"
    )
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name} stores an error output"
    assert any(checked(c) for c in code), f"{path.name} has no cell tagged {CHECK}"


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_nbval_markers_are_tags_not_source(path):
    """A marker in the source is shown to every reader (on the site and in JupyterLab); a tag is not."""
    nb = nbformat.read(path, as_version=4)
    marked = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and COMMENT_MARKER.search(c.source)]
    assert not marked, f"{path.name}: cells {marked} carry nbval's marker in their source; tag them {CHECK!r} instead"


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_the_answer_table_follows_the_answer(path):
    """The answer cell comes right after the title cell (Question, Answer), is checked by nbval, and shows only its
    table: input removed on the site (myst-nb's ``remove-input``), hidden in JupyterLab (``source_hidden``)."""
    nb = nbformat.read(path, as_version=4)
    answers = [i for i, c in enumerate(nb.cells) if is_answer_cell(c)]
    if not answers:  # the answer is the title cell's prose (notebook 14: advise's words are its measurements)
        assert "**Answer.**" in nb.cells[0].source, f"{path.name} has no answer cell and no Answer paragraph"
        return
    assert answers == [1], f"{path.name}: the answer cell is cell {answers}, not the one after the title cell"
    cell = nb.cells[1]
    assert checked(cell), f"{path.name}: the answer cell is not tagged {CHECK}"
    assert "remove-input" in cell.metadata.get("tags", []), f"{path.name}: the answer cell's input is shown on the site"
    assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, (
        f"{path.name}: the answer cell's input is shown in JupyterLab"
    )


@pytest.fixture(scope="module")
def kernel() -> dict:
    return runner.kernel_metadata()


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_stored_kernel_metadata_is_what_jupyterlab_fills_in(path, kernel):
    """JupyterLab writes the kernel spec and the kernel's language_info into a notebook it opens;
    if the file lacks any of it the notebook is marked modified and autosave rewrites it. Only
    the Python version may differ from this machine's (it is that of the Python that stored it)."""
    nb = nbformat.read(path, as_version=4)
    fix = f"run `python -m ndcg_research store --strip-only --only {path.stem}`"
    assert nb.metadata.get("kernelspec") == kernel["kernelspec"], f"{path.name}: kernelspec differs; {fix}"
    stored = dict(nb.metadata.get("language_info", {}))
    expected = dict(kernel["language_info"])
    assert re.fullmatch(r"3\.\d+\.\d+", str(stored.pop("version", ""))), f"{path.name}: no Python version; {fix}"
    expected.pop("version")
    assert stored == expected, f"{path.name}: language_info differs from the kernel's; {fix}"


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_stored_file_is_what_saving_writes(path):
    """JupyterLab saves through nbformat.write (jupyter_server's contents manager), as `store`
    does: a file in that form is rewritten byte for byte, so a save changes nothing."""
    import io

    buffer = io.StringIO()
    nbformat.write(nbformat.read(path, as_version=4), buffer)
    stored, saved = path.read_text(encoding="utf-8").splitlines(), buffer.getvalue().splitlines()
    if stored != saved:
        line = next(
            (i for i, (a, b) in enumerate(zip(stored, saved, strict=True)) if a != b), min(len(stored), len(saved))
        )
        pytest.fail(
            f"{path.name} is not in the form nbformat writes (first difference at line {line + 1}: "
            f"{stored[line : line + 1]} vs {saved[line : line + 1]}); "
            f"run `python -m ndcg_research store --strip-only --only {path.stem}`"
        )
    assert path.read_text(encoding="utf-8") == buffer.getvalue()  # line endings, final newline


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_declared_figures_are_named_and_published(path):
    names = runner.declared_figures(path)
    number = path.stem.split("_", 1)[0]
    index = (FIGURES / "README.md").read_text(encoding="utf-8") if (FIGURES / "README.md").exists() else ""
    for name in names:
        assert FIGURE_NAME_PATTERN.match(name) and name.startswith(number + "_"), name
        for file in figure_files(name, FIGURES):
            assert file.is_file(), f"{file} missing: run `python tasks.py reproduce`"
        record = read_provenance(FIGURES / f"{name}.json")
        assert record["notebook"] == path.name
        assert f"| `{name}` |" in index, f"{name} is not in figures/README.md"


def _run_nbval(notebook: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    (cwd / "pytest.ini").write_text("[pytest]\n")
    if not (cwd / "results" / "full").exists():  # the committed tables the notebook's answer cell reads
        (cwd / "results").mkdir(exist_ok=True)
        (cwd / "results" / "full").symlink_to(ROOT / "results" / "full")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            str(cwd / "pytest.ini"),
            "--nbval-lax",
            "--nbval-current-env",
            str(notebook),
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def worked_example_copy(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("nbval")
    (base / "notebooks").mkdir()
    copy = base / "notebooks" / "01_worked_example.ipynb"
    shutil.copy(NOTEBOOKS / "01_worked_example.ipynb", copy)
    return copy


def test_nbval_passes_on_the_unchanged_notebook(worked_example_copy):
    proc = _run_nbval(worked_example_copy, worked_example_copy.parent.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " passed" in proc.stdout


def test_nbval_fails_when_a_checked_number_changes(worked_example_copy, tmp_path):
    nb = nbformat.read(worked_example_copy, as_version=4)
    changed = False
    for cell in nb.cells:
        if changed or not checked(cell):
            continue
        for output in cell.outputs:
            if output.output_type == "stream" and "IDCG = 6.861 / 8.740 = 0.785" in output.text:
                output.text = output.text.replace("= 0.785", "= 0.786")
                changed = True
    assert changed, "the worked example no longer prints nDCG = 0.785 in a checked cell"
    (tmp_path / "notebooks").mkdir()
    altered = tmp_path / "notebooks" / "01_worked_example.ipynb"
    nbformat.write(nb, altered)

    proc = _run_nbval(altered, tmp_path)
    assert proc.returncode != 0
    assert re.search(r"\b1 failed\b", proc.stdout), proc.stdout
    assert "Cell outputs differ" in proc.stdout
    assert "740 = 0.786" in proc.stdout and "740 = 0.785" in proc.stdout
