"""The notebook runner, on tiny fixture notebooks executed with the real kernel.

Fixtures (tests/fixtures/notebooks): 01_ok reports its parameters and writes one
figure; 02_missing_figure declares a figure it never writes; 03_fails raises in
its third code cell; 04_slow sleeps for a minute.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from ndcg_research.pipeline import runner
from ndcg_research.pipeline.figures import figure_files

FIXTURES = Path(__file__).parent / "fixtures" / "notebooks"


def _reproduce(tmp_path: Path, only: list[str], profile: str = "quick", **kwargs):
    stream = io.StringIO()
    kwargs.setdefault("progress", False)
    results = runner.reproduce(
        profile, output=tmp_path / "out", only=only, notebooks_dir=FIXTURES, stream=stream, **kwargs
    )
    return results, stream.getvalue()


def _injected_source(executed: Path) -> str:
    nb = nbformat.read(executed, as_version=4)
    cells = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, "papermill should inject exactly one parameters cell"
    return cells[0].source


def _stdout_of(executed: Path) -> str:
    nb = nbformat.read(executed, as_version=4)
    return "".join(
        o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs
        if o.output_type == "stream"
    )


def test_profile_parameters_reach_the_notebook(tmp_path, capsys):
    results, log = _reproduce(tmp_path, ["01_ok"], progress=True)
    [result] = results
    executed = tmp_path / "out" / "notebooks" / "01_ok.ipynb"
    assert result.output_path == executed

    injected = _injected_source(executed)
    assert 'label = "from-quick-profile"' in injected
    assert "values = [3, 4, 5]" in injected
    assert f'figures_dir = "{tmp_path / "out" / "figures"}"' in injected
    assert f'results_dir = "{tmp_path / "out" / "results"}"' in injected

    printed = _stdout_of(executed)
    assert "label=from-quick-profile values=[3, 4, 5]" in printed
    # The kernel is the Python running the runner (papermill's kernel_name="python3").
    assert f"prefix={sys.prefix}" in printed

    # Figures, provenance and index are written; the summary names the notebook and figure.
    for path in figure_files("01_fixture_plot", tmp_path / "out" / "figures"):
        assert path.is_file(), path
    index = (tmp_path / "out" / "figures" / "README.md").read_text()
    assert "| `01_fixture_plot` | `01_ok.ipynb` | Fixture plot (from-quick-profile). |" in index
    assert "01_ok.ipynb" in log and "01_fixture_plot" in log and "total" in log
    # The progress bar goes to standard error.
    assert "1/1" in capsys.readouterr().err


def test_other_profile_runs_with_the_notebook_defaults(tmp_path):
    _reproduce(tmp_path, ["01"], profile="full")
    executed = tmp_path / "out" / "notebooks" / "01_ok.ipynb"
    assert "label" not in _injected_source(executed)
    assert "label=default values=[1, 2]" in _stdout_of(executed)


def test_failing_notebook_exits_non_zero_naming_notebook_and_cell(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "ndcg_research", "reproduce", "--profile", "quick",
         "--notebooks-dir", str(FIXTURES), "--output", str(tmp_path / "out"), "--only", "03_fails"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "CI": "true"},
    )
    assert proc.returncode != 0
    assert "03_fails.ipynb" in proc.stderr
    # Cell 4 of the executed notebook: markdown, parameters, injected parameters, x = 41, raise.
    assert "failed in cell 4 (execution count [4])" in proc.stderr
    assert "ValueError: boom 42" in proc.stderr
    assert "raise ValueError" in proc.stderr
    # The partial executed notebook is kept, with the traceback.
    assert (tmp_path / "out" / "notebooks" / "03_fails.ipynb").is_file()


def test_missing_declared_figure_is_reported(tmp_path):
    with pytest.raises(runner.NotebookFailed) as info:
        _reproduce(tmp_path, ["02"])
    message = str(info.value)
    assert "02_missing_figure.ipynb" in message
    assert "02_never_written.png is missing" in message
    assert "02_never_written.json is missing" in message
    assert "table 02_never_written.csv: no such file" in message
    assert info.value.notebook == "02_missing_figure.ipynb"


def test_declared_tables_are_written_and_stale_ones_do_not_count(tmp_path):
    _reproduce(tmp_path, ["01"])  # declares "01_fixture_*.csv" and writes it from its parameters
    assert (tmp_path / "out" / "results" / "01_fixture_values.csv").read_text() == "value\n3\n4\n5\n"
    left_over = tmp_path / "out" / "results" / "02_never_written.csv"
    left_over.write_text("from an earlier run")
    os.utime(left_over, (1_000_000_000, 1_000_000_000))
    with pytest.raises(runner.NotebookFailed, match=r"table 02_never_written\.csv: stale"):
        _reproduce(tmp_path, ["02"])


def test_stale_figure_files_do_not_count_as_written(tmp_path):
    figures = tmp_path / "out" / "figures"
    figures.mkdir(parents=True)
    for path in figure_files("02_never_written", figures):
        path.write_text("left over from an earlier run")
        os.utime(path, (1_000_000_000, 1_000_000_000))
    with pytest.raises(runner.NotebookFailed, match=r"02_never_written\.pdf is stale"):
        _reproduce(tmp_path, ["02"])


def test_run_stops_at_the_first_failure(tmp_path):
    with pytest.raises(runner.NotebookFailed, match="02_missing_figure"):
        _reproduce(tmp_path, ["01", "02", "03"])
    executed = tmp_path / "out" / "notebooks"
    assert (executed / "01_ok.ipynb").is_file()
    assert not (executed / "03_fails.ipynb").exists()


def test_timeout_names_the_notebook_and_cell(tmp_path):
    with pytest.raises(runner.NotebookFailed) as info:
        _reproduce(tmp_path, ["04"], timeout=2)
    message = str(info.value)
    assert "04_slow.ipynb" in message
    assert "timed out" in message
    assert "time.sleep" in message or "import time" in message


def test_unknown_profile_and_notebook_and_parameter_are_rejected(tmp_path):
    with pytest.raises(runner.RunnerError, match="profile 'nope' is not in .*available: full, quick"):
        _reproduce(tmp_path, ["01"], profile="nope")
    with pytest.raises(runner.RunnerError, match="--only '99_x' matches no notebook"):
        _reproduce(tmp_path, ["99_x"])

    profiles = tmp_path / "profiles.yaml"
    profiles.write_text("quick:\n  01_ok:\n    lable: typo\n")
    with pytest.raises(runner.RunnerError, match="sets lable for notebook 01_ok.ipynb"):
        _reproduce(tmp_path, ["01"], profiles_file=profiles)
    profiles.write_text("quick:\n  07_gone: {}\n")
    with pytest.raises(runner.RunnerError, match="names notebooks that do not exist.*07_gone"):
        _reproduce(tmp_path, ["01"], profiles_file=profiles)
    profiles.write_text("quick: [1, 2]\n")
    with pytest.raises(runner.RunnerError, match="must map notebook names to parameters"):
        _reproduce(tmp_path, ["01"], profiles_file=profiles)


def test_notebook_without_parameters_cell_is_rejected(tmp_path):
    nb = nbformat.read(FIXTURES / "01_ok.ipynb", as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("tags", None)
    folder = tmp_path / "nbs"
    folder.mkdir()
    nbformat.write(nb, folder / "01_ok.ipynb")
    (folder / "profiles.yaml").write_text("quick: {}\n")
    with pytest.raises(runner.RunnerError, match="no cell tagged 'parameters'"):
        runner.reproduce("quick", output=tmp_path / "out", notebooks_dir=folder, progress=False,
                         stream=io.StringIO())


def test_select_notebooks_by_stem_name_or_number():
    nbs = runner.discover_notebooks(FIXTURES)
    assert [p.name for p in nbs] == [
        "01_ok.ipynb", "02_missing_figure.ipynb", "03_fails.ipynb", "04_slow.ipynb"
    ]
    pick = runner.select_notebooks
    assert [p.stem for p in pick(nbs, ["03_fails", "01_ok.ipynb"])] == ["01_ok", "03_fails"]
    assert [p.stem for p in pick(nbs, ["2"])] == ["02_missing_figure"]
    assert pick(nbs, None) == nbs


def test_store_executes_in_place_and_strips_volatile_metadata(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    shutil.copy(FIXTURES / "01_ok.ipynb", folder)
    runner.store(notebooks_dir=folder, stream=io.StringIO())
    nb = nbformat.read(folder / "01_ok.ipynb", as_version=4)
    assert "papermill" not in nb.metadata
    assert "version" not in nb.metadata.get("language_info", {})
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
    for cell in nb.cells:
        assert not {"papermill", "execution", "ExecuteTime"} & set(cell.metadata)
    assert "label=default" in _stdout_of(folder / "01_ok.ipynb")
    # Default figures_dir is ../build/figures relative to the notebook folder.
    assert (tmp_path / "build" / "figures" / "01_fixture_plot.png").is_file()
    # Stripping is idempotent.
    assert runner.strip_volatile(nb) == nb


def test_store_leaves_a_failing_notebook_unchanged(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    shutil.copy(FIXTURES / "03_fails.ipynb", folder)
    before = (folder / "03_fails.ipynb").read_bytes()
    with pytest.raises(runner.NotebookFailed, match="ValueError: boom 42"):
        runner.store(notebooks_dir=folder, stream=io.StringIO())
    assert (folder / "03_fails.ipynb").read_bytes() == before


def test_summary_format():
    rows = [runner.NotebookResult("01_a.ipynb", Path("x"), 2.0, ("01_f", "01_g"))]
    text = runner.format_summary(rows)
    assert text.splitlines()[1].split() == ["01_a.ipynb", "2.0", "01_f,", "01_g"]
    assert text.splitlines()[-1].split() == ["total", "2.0", "2", "figure(s)"]
