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

from ndcg_research.pipeline import profiles, runner
from ndcg_research.pipeline.cli import format_parameters, notebook_path
from ndcg_research.pipeline.figures import figure_files
from ndcg_research.pipeline.profiles import (
    declared_figures,
    declared_tables,
    describe_parameters,
    notebook_parameters,
    select_notebooks,
)
from ndcg_research.pipeline.runner import (
    NotebookResult,
    format_summary,
    kernel_manager_class,
    kernel_metadata,
    plan_run,
    publishing,
    strip_volatile,
)

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
        o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "stream"
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
        [
            sys.executable,
            "-m",
            "ndcg_research",
            "reproduce",
            "--profile",
            "quick",
            "--notebooks-dir",
            str(FIXTURES),
            "--output",
            str(tmp_path / "out"),
            "--only",
            "03_fails",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CI": "true"},
    )
    assert proc.returncode == 1
    assert "03_fails.ipynb" in proc.stderr
    # Named as a user finds it: JupyterLab shows the executed cell as [4] (parameters [1],
    # injected parameters [2], x = 41 [3], raise [4]); in the committed notebook it is the
    # third code cell (the injected cell is not there).
    assert (
        "failed at cell [4] of the executed notebook (code cell 3 of 03_fails.ipynb, "
        "starting 'raise ValueError(f\"boom {x + 1}\")')"
    ) in proc.stderr
    assert "ValueError: boom 42" in proc.stderr
    # The partial executed notebook is kept, with the traceback in the cell shown as [4]
    # (papermill added its banner cells, so positions in the file have shifted).
    executed = nbformat.read(tmp_path / "out" / "notebooks" / "03_fails.ipynb", as_version=4)
    [failed] = [c for c in executed.cells if c.cell_type == "code" and c.execution_count == 4]
    assert failed.source.startswith("raise ValueError")
    assert [o.ename for o in failed.outputs if o.output_type == "error"] == ["ValueError"]
    assert executed.cells.index(failed) != 4


def test_missing_declared_figure_is_reported(tmp_path):
    with pytest.raises(runner.RunFailed) as info:
        _reproduce(tmp_path, ["02"])
    message = str(info.value)
    assert message.startswith("1 of 1 notebook(s) failed:")
    assert "02_missing_figure.ipynb" in message
    assert "02_never_written.png is missing" in message
    assert "02_never_written.json is missing" in message
    assert "table 02_never_written.csv: no such file" in message
    [failure] = info.value.failures
    assert failure.notebook == "02_missing_figure.ipynb"


def test_declared_tables_are_written_and_stale_ones_do_not_count(tmp_path):
    _reproduce(tmp_path, ["01"])  # declares "01_fixture_*.csv" and writes it from its parameters
    assert (tmp_path / "out" / "results" / "01_fixture_values.csv").read_text() == "value\n3\n4\n5\n"
    left_over = tmp_path / "out" / "results" / "02_never_written.csv"
    left_over.write_text("from an earlier run")
    os.utime(left_over, (1_000_000_000, 1_000_000_000))
    with pytest.raises(runner.RunFailed, match=r"table 02_never_written\.csv: stale"):
        _reproduce(tmp_path, ["02"])


def test_stale_figure_files_do_not_count_as_written(tmp_path):
    figures = tmp_path / "out" / "figures"
    figures.mkdir(parents=True)
    for path in figure_files("02_never_written", figures):
        path.write_text("left over from an earlier run")
        os.utime(path, (1_000_000_000, 1_000_000_000))
    with pytest.raises(runner.RunFailed, match=r"02_never_written\.pdf is stale"):
        _reproduce(tmp_path, ["02"])


def test_run_goes_on_after_a_failure_and_lists_every_failure(tmp_path):
    stream = io.StringIO()
    with pytest.raises(runner.RunFailed) as info:
        runner.reproduce(
            "quick",
            output=tmp_path / "out",
            only=["01", "02", "03"],
            notebooks_dir=FIXTURES,
            stream=stream,
            progress=False,
        )
    failed = info.value
    assert [f.notebook for f in failed.failures] == ["02_missing_figure.ipynb", "03_fails.ipynb"]
    assert [r.notebook for r in failed.results] == ["01_ok.ipynb", "02_missing_figure.ipynb", "03_fails.ipynb"]
    assert [r.error is None for r in failed.results] == [True, False, False]
    message = str(failed)
    assert message.startswith("2 of 3 notebook(s) failed:")
    assert "02_never_written.png is missing" in message and "ValueError: boom 42" in message
    executed = tmp_path / "out" / "notebooks"
    assert all((executed / name).is_file() for name in ("01_ok.ipynb", "02_missing_figure.ipynb", "03_fails.ipynb"))
    # The summary marks the failures; the index holds the figure that was written.
    log = stream.getvalue()
    assert [line.split()[-1] for line in log.splitlines() if line.startswith(("02_", "03_"))][-2:] == ["FAILED"] * 2
    assert "2 notebook(s) FAILED" in log
    assert "| `01_fixture_plot` |" in (tmp_path / "out" / "figures" / "README.md").read_text()


def test_timeout_names_the_notebook_and_cell(tmp_path):
    with pytest.raises(runner.RunFailed) as info:
        _reproduce(tmp_path, ["04"], timeout=2)
    message = str(info.value)
    assert "04_slow.ipynb" in message
    assert "timed out" in message
    # parameters [1], injected parameters [2], the sleeping cell [3] = second code cell of the notebook.
    assert "at cell [3] of the executed notebook (code cell 2 of 04_slow.ipynb, starting 'import time ...')" in message


def test_the_timeout_is_whole_seconds(tmp_path):
    # papermill's cell timeout is an integer trait: 2.5 failed every notebook of a run with a TraitError
    with pytest.raises(TypeError, match="timeout must be an integer >= 1 or None, got float 2.5"):
        runner.run_notebook(FIXTURES / "01_ok.ipynb", tmp_path / "out.ipynb", timeout=2.5)
    assert not (tmp_path / "out.ipynb").exists()
    # reproduce refuses it before it makes any folder or prints its plan (it did both, then failed the first notebook)
    stream = io.StringIO()
    with pytest.raises(TypeError, match="timeout must be an integer >= 1 or None, got float 2.5"):
        runner.reproduce("quick", output=tmp_path / "run", timeout=2.5, stream=stream, progress=False)
    assert not (tmp_path / "run").exists() and stream.getvalue() == ""


@pytest.mark.parametrize("option", ["output", "figures_dir", "results_dir"])
def test_an_output_folder_that_is_a_file_is_refused_by_its_option(tmp_path, option):
    # --output FILE was a NotADirectoryError traceback
    (tmp_path / "file").write_text("mine\n")
    flag = "--" + option.replace("_", "-")
    with pytest.raises(runner.RunnerError, match=f"^{flag} '{tmp_path / 'file'}' is a file, not a folder$"):
        folders = {"output": tmp_path / "out", option: tmp_path / "file"}
        runner.reproduce("quick", only=["01"], notebooks_dir=FIXTURES, stream=io.StringIO(), **folders)
    assert (tmp_path / "file").read_text() == "mine\n" and not (tmp_path / "out").exists()


@pytest.mark.parametrize("blocked", ["out/figures", "out/results", "out/notebooks", "out"])
def test_a_file_where_the_run_makes_a_folder_is_refused_before_it_runs(tmp_path, blocked):
    # a file at OUT/figures was a FileExistsError traceback after the plan was printed; a file at OUT with
    # --output OUT/sub a NotADirectoryError
    (tmp_path / blocked).parent.mkdir(exist_ok=True)
    (tmp_path / blocked).write_text("mine\n")
    output = tmp_path / "out" / "sub" if blocked == "out" else tmp_path / "out"
    stream = io.StringIO()
    match = f"^--output '{output}' needs '{tmp_path / blocked}', which is a file, not a folder$"
    with pytest.raises(runner.RunnerError, match=match):
        runner.reproduce("quick", only=["01"], notebooks_dir=FIXTURES, output=output, stream=stream)
    assert (tmp_path / blocked).read_text() == "mine\n" and stream.getvalue() == ""


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


@pytest.mark.parametrize("name", ["figures_dir", "results_dir"])
def test_a_profile_must_not_set_the_output_folders(tmp_path, name):
    profiles = tmp_path / "profiles.yaml"
    profiles.write_text(f"quick:\n  01_ok:\n    {name}: /somewhere/else\n")
    with pytest.raises(runner.RunnerError, match=f"notebook '01_ok' .* sets {name}, which the runner sets itself"):
        _reproduce(tmp_path, ["01"], profiles_file=profiles)
    assert not (tmp_path / "out").exists()


def _fake_repository(tmp_path: Path, monkeypatch) -> Path:
    """A repository with the fixture notebooks and a committed figure, as the runner sees it."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES, repo / "notebooks")
    monkeypatch.setattr(profiles, "repo_root", lambda: repo)
    return repo


def test_a_partial_full_run_leaves_the_committed_figures_alone(tmp_path, monkeypatch):
    repo = _fake_repository(tmp_path, monkeypatch)
    (repo / "notebooks" / "02_missing_figure.ipynb").unlink()
    (repo / "notebooks" / "03_fails.ipynb").unlink()
    (repo / "notebooks" / "04_slow.ipynb").unlink()
    shutil.copy(FIXTURES / "01_ok.ipynb", repo / "notebooks" / "02_ok_too.ipynb")
    stream = io.StringIO()
    runner.reproduce("full", only=["01"], stream=stream, progress=False)
    assert (repo / "build" / "full" / "figures" / "01_fixture_plot.json").is_file()
    assert (repo / "build" / "full" / "results" / "01_fixture_values.csv").is_file()
    assert not (repo / "figures").exists() and not (repo / "results").exists()
    assert "the committed figures/ and results/full/ are left alone; --publish updates them" in stream.getvalue()
    # Asking for it (one folder, or both with publish), or running every notebook, writes the committed folders.
    runner.reproduce("full", only=["01"], figures_dir=repo / "figures", stream=io.StringIO(), progress=False)
    assert (repo / "figures" / "01_fixture_plot.json").is_file() and not (repo / "results").exists()
    (repo / "figures" / "01_fixture_plot.json").unlink()
    runner.reproduce("full", only=["01"], publish=True, stream=io.StringIO(), progress=False)
    assert (repo / "figures" / "01_fixture_plot.json").is_file()
    assert (repo / "results" / "full" / "01_fixture_values.csv").is_file()
    (repo / "figures" / "01_fixture_plot.json").unlink()
    (repo / "results" / "full" / "01_fixture_values.csv").unlink()
    runner.reproduce("full", stream=io.StringIO(), progress=False)
    assert (repo / "figures" / "01_fixture_plot.json").is_file()
    assert (repo / "results" / "full" / "01_fixture_values.csv").is_file()
    # Another profile, or an explicit output folder, never publishes by default.
    (repo / "results" / "full" / "01_fixture_values.csv").unlink()
    runner.reproduce("full", output=tmp_path / "elsewhere", stream=io.StringIO(), progress=False)
    assert not (repo / "results" / "full" / "01_fixture_values.csv").exists()


def test_notebook_without_parameters_cell_is_rejected(tmp_path):
    nb = nbformat.read(FIXTURES / "01_ok.ipynb", as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("tags", None)
    folder = tmp_path / "nbs"
    folder.mkdir()
    nbformat.write(nb, folder / "01_ok.ipynb")
    (folder / "profiles.yaml").write_text("quick: {}\n")
    with pytest.raises(runner.RunnerError, match="no cell tagged 'parameters'"):
        runner.reproduce("quick", output=tmp_path / "out", notebooks_dir=folder, progress=False, stream=io.StringIO())


def test_notebook_with_two_parameters_cells_is_rejected(tmp_path):
    # papermill injects after the first tagged cell: a second one would set its defaults again, silently
    nb = nbformat.read(FIXTURES / "01_ok.ipynb", as_version=4)
    tagged = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    nb.cells.append(nbformat.v4.new_code_cell(tagged.source, metadata={"tags": ["parameters"]}))
    path = tmp_path / "01_ok.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(runner.RunnerError, match="01_ok.ipynb has 2 cells tagged 'parameters'"):
        profiles.describe_parameters(path)


def test_select_notebooks_by_stem_name_or_number():
    nbs = runner.discover_notebooks(FIXTURES)
    assert [p.name for p in nbs] == ["01_ok.ipynb", "02_missing_figure.ipynb", "03_fails.ipynb", "04_slow.ipynb"]
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
    # What JupyterLab writes when it opens the notebook: the kernel spec and the kernel's own
    # language_info (asked here directly with jupyter_client, not through the runner).
    assert nb.metadata.language_info == _language_info_from_a_kernel()
    assert nb.metadata.kernelspec == {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
    for cell in nb.cells:
        assert not {"papermill", "execution", "ExecuteTime"} & set(cell.metadata)
    assert "label=default" in _stdout_of(folder / "01_ok.ipynb")
    # Default figures_dir is ../build/figures relative to the notebook folder.
    assert (tmp_path / "build" / "figures" / "01_fixture_plot.png").is_file()
    # Stripping is idempotent.
    assert runner.strip_volatile(nb) == nb


def test_store_refuses_a_folder_without_notebooks_as_reproduce_does(tmp_path, capsys):
    from ndcg_research.cli import main

    (tmp_path / "notes.ipynb").write_text("{}")  # not NN_*.ipynb: store --strip-only did nothing, with status 0
    assert main(["store", "--strip-only", "--notebooks-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"ndcg-research store: error: no notebooks matching [0-9][0-9]_*.ipynb in {str(tmp_path)!r}\n"
    )
    (tmp_path / "profiles.yaml").write_text("quick: {}\n")
    with pytest.raises(runner.RunnerError, match=r"^no notebooks matching \[0-9\]\[0-9\]_\*\.ipynb in "):
        runner.reproduce("quick", output=tmp_path / "out", notebooks_dir=tmp_path, stream=io.StringIO())


def test_store_leaves_a_failing_notebook_unchanged(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    shutil.copy(FIXTURES / "03_fails.ipynb", folder)
    before = (folder / "03_fails.ipynb").read_bytes()
    with pytest.raises(runner.NotebookFailed, match="ValueError: boom 42") as caught:
        runner.store(notebooks_dir=folder, stream=io.StringIO())
    shutil.rmtree(caught.value.output_path.parent)  # the executed notebook the message names, kept for the reader
    assert (folder / "03_fails.ipynb").read_bytes() == before


def test_summary_format():
    rows = [runner.NotebookResult("01_a.ipynb", Path("x"), 2.0, ("01_f", "01_g"))]
    text = runner.format_summary(rows)
    assert text.splitlines()[1].split() == ["01_a.ipynb", "2.0", "01_f,", "01_g"]
    assert text.splitlines()[-1].split() == ["total", "2.0", "2", "figure(s)"]


def _language_info_from_a_kernel() -> dict:
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    try:
        return kc.kernel_info(reply=True, timeout=60)["content"]["language_info"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_store_strip_only_records_the_kernel_metadata_and_keeps_outputs(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    shutil.copy(FIXTURES / "03_fails.ipynb", folder)  # never executed: would fail
    nb = nbformat.read(folder / "03_fails.ipynb", as_version=4)
    nb.metadata.language_info = {"name": "python", "version": "3.0.0"}
    nb.metadata.papermill = {"duration": 1.0}
    nbformat.write(nb, folder / "03_fails.ipynb")
    runner.store(notebooks_dir=folder, execute=False, stream=io.StringIO())
    stored = nbformat.read(folder / "03_fails.ipynb", as_version=4)
    assert stored.metadata.language_info == _language_info_from_a_kernel()
    assert "papermill" not in stored.metadata
    assert [c.source for c in stored.cells] == [c.source for c in nb.cells]


def test_kernel_metadata_is_what_the_kernel_reports():
    import platform

    meta = runner.kernel_metadata()
    assert meta["language_info"] == _language_info_from_a_kernel()
    assert meta["language_info"]["version"] == platform.python_version()
    assert meta["kernelspec"]["name"] == "python3"
    with pytest.raises(runner.RunnerError, match="no Jupyter kernel named 'no-such-kernel'"):
        runner.kernel_metadata("no-such-kernel")


def test_runner_kernels_get_no_interrupt_at_shutdown_and_use_ipc(tmp_path):
    """jupyter_client's stock manager sends SIGINT before every shutdown (the source of the
    "KeyboardInterrupt caught in kernel" noise); the runner's does not. Observed in the kernel:
    a SIGINT handler that the kernel keeps while idle writes a file."""
    import asyncio

    from jupyter_client import AsyncKernelManager

    code = (
        "import signal\n"
        "kernel = get_ipython().kernel\n"
        f"def mark(*args): open({str(tmp_path / 'sigint')!r}, 'a').write('SIGINT\\n')\n"
        # ipykernel sends the execute reply before its post-handler hook restores the idle
        # handler, so the shutdown's SIGINT can arrive in between: install `mark` now and make
        # both hooks re-install it, leaving no moment at which another handler is in place.
        "keep_mark = lambda: signal.signal(signal.SIGINT, mark)\n"
        "keep_mark()\n"
        "kernel.pre_handler_hook = kernel.post_handler_hook = keep_mark\n"
    )

    async def run(manager_class) -> tuple[bool, str]:
        km = manager_class(kernel_name="python3")
        await km.start_kernel()
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=60)
            reply = await kc.execute(code, reply=True, timeout=60)
            assert reply["content"]["status"] == "ok", reply["content"]
        finally:
            kc.stop_channels()
            await km.shutdown_kernel()
        marked = (tmp_path / "sigint").exists()
        (tmp_path / "sigint").unlink(missing_ok=True)
        return marked, km.transport

    assert asyncio.run(run(AsyncKernelManager)) == (True, "tcp")  # the stock behaviour, for contrast
    marked, transport = asyncio.run(run(runner.kernel_manager_class()))
    assert not marked
    assert transport == ("ipc" if os.name == "posix" else "tcp")


@pytest.mark.skipif(os.name != "posix", reason="IPC sockets exist on POSIX only")
def test_runner_kernels_running_at_once_in_one_folder_keep_their_own_sockets(tmp_path, monkeypatch):
    """jupyter_client names IPC sockets kernel-ipc-1 ... in the working directory: two kernels
    started there at once would share them. The runner's kernels each use their own path."""
    import asyncio

    monkeypatch.chdir(tmp_path)

    async def start_two() -> list[tuple[str, list[str]]]:
        managers = [runner.kernel_manager_class()(kernel_name="python3") for _ in range(2)]
        await asyncio.gather(*(km.start_kernel() for km in managers))
        clients = [km.client() for km in managers]
        try:
            for kc in clients:
                kc.start_channels()
            await asyncio.gather(*(kc.wait_for_ready(timeout=60) for kc in clients))
            replies = await asyncio.gather(*(kc.execute("1", reply=True, timeout=60) for kc in clients))
            assert [r["content"]["status"] for r in replies] == ["ok", "ok"]
            sockets = [sorted(Path(km.ip).parent.glob(Path(km.ip).name + "-*")) for km in managers]
        finally:
            for kc in clients:
                kc.stop_channels()
            await asyncio.gather(*(km.shutdown_kernel() for km in managers))
        return [(km.ip, [p.name for p in found]) for km, found in zip(managers, sockets, strict=False)]

    (ip_a, sockets_a), (ip_b, sockets_b) = asyncio.run(start_two())
    assert ip_a != ip_b
    assert len(sockets_a) == len(sockets_b) == 5  # shell, iopub, stdin, control, heartbeat
    assert not set(sockets_a) & set(sockets_b)
    assert list(tmp_path.iterdir()) == []  # nothing written into the working directory
    assert not list(Path(ip_a).parent.glob(Path(ip_a).name + "-*"))  # removed at shutdown


def _notebook_with_parameters(tmp_path: Path, source: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    nb.cells[0].metadata["tags"] = ["parameters"]
    path = tmp_path / "01_params.ipynb"
    nbformat.write(nb, path)
    return path


def test_parameters_keep_their_comments(tmp_path):
    path = _notebook_with_parameters(
        tmp_path,
        (
            "# a comment line of its own belongs to no parameter\n"
            'gain = "exp2"   # gain spec: "exp2" is 2**rel - 1 (k = 3 is no assignment)\n'
            "ns = [10,\n"
            "      100]      # list lengths\n"
            "seed: int = 7\n"
            "k = 1  # first\n"
            "k = 2  # wins\n"
        ),
    )
    described = profiles.describe_parameters(path)
    assert [(p.name, p.default, p.comment) for p in described] == [
        ("gain", '"exp2"', 'gain spec: "exp2" is 2**rel - 1 (k = 3 is no assignment)'),
        ("ns", "[10,\n      100]", "list lengths"),
        ("seed", "7", ""),
        ("k", "2", "wins"),
    ]
    assert runner.notebook_parameters(path) == {"gain": '"exp2"', "ns": "[10,\n      100]", "seed": "7", "k": "2"}


def test_params_command_prints_defaults_and_comments():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ndcg_research",
            "params",
            str(FIXTURES.parent.parent.parent / "notebooks" / "01_worked_example.ipynb"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = proc.stdout.splitlines()
    assert "k = 6                             # cut-off; None keeps the whole list" in lines
    assert all("#" in line for line in lines), lines


def test_params_of_a_file_that_is_not_a_notebook_is_one_line(tmp_path, capsys):
    # nbformat's NotJSONError, or its failed conversion of JSON that is no notebook, printed a traceback.
    from ndcg_research.cli import main

    (tmp_path / "notes.md").write_text("# notes\n")
    (tmp_path / "empty.ipynb").write_text("{}")
    (tmp_path / "cells.ipynb").write_text('{"cells": 3}')
    for name in ("notes.md", "empty.ipynb", "cells.ipynb"):
        assert main(["params", str(tmp_path / name)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"ndcg-research params: error: {str(tmp_path / name)!r} is not a Jupyter notebook: ")
        assert err.count("\n") == 1


def test_a_missing_library_of_the_notebooks_extra_is_named(monkeypatch, capsys):
    from ndcg_research.cli import main

    monkeypatch.setitem(sys.modules, "nbformat", None)  # as if not installed: import raises ModuleNotFoundError
    assert main(["params", "01"]) == 1
    err = capsys.readouterr().err
    assert (
        err == "ndcg-research params: error: needs nbformat, of the notebooks extra: pip install '.[notebooks]' in the "
        "package's folder\n"
    )
    monkeypatch.setitem(sys.modules, "no_such_module_of_ours", None)
    monkeypatch.setattr(
        "ndcg_research.pipeline.profiles.read_notebook", lambda path: __import__("no_such_module_of_ours")
    )
    with pytest.raises(ModuleNotFoundError):  # not one of the extra's: a bug to see, not an install to advise
        main(["params", "01"])


@pytest.mark.parametrize("name", ["1", "01", "01_worked_example", "01_worked_example.ipynb"])
def test_params_names_a_notebook_as_reproduce_only_does(name):
    proc = subprocess.run(
        [sys.executable, "-m", "ndcg_research", "params", name], capture_output=True, text=True, timeout=120, check=True
    )
    assert "k = 6                             # cut-off; None keeps the whole list" in proc.stdout.splitlines()
    proc = subprocess.run(
        [sys.executable, "-m", "ndcg_research", "params", "99"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 1 and proc.stderr.startswith(
        "ndcg-research params: error: notebook '99' matches no notebook; available: 01_"
    )


def test_a_run_prints_no_tcp_warning_of_the_kernel(tmp_path, capfd):
    # ipykernel warns "Kernel is running over TCP without encryption" on stderr when it uses TCP; the runner's
    # kernels use IPC sockets on POSIX (as tasks.py configures JupyterLab), so a run prints no such line.
    _reproduce(tmp_path, ["01"])
    captured = capfd.readouterr()
    assert "without encryption" not in captured.err + captured.out
    if os.name == "posix":
        assert runner.kernel_manager_class()().transport == "ipc"


def test_the_publish_rule():
    assert runner.publishing(partial=False, publish=None).publish  # the full run of notebooks/ publishes
    partial = runner.publishing(partial=True, publish=None)
    assert not partial.publish and "left alone" in partial.note
    assert runner.publishing(partial=True, publish=True) == runner.Publishing(True)
    # Another profile, notebooks folder or profiles file, or a folder given: no publishing, nothing to say about it.
    assert runner.publishing(partial=False, publish=None, other=["--output"]) == runner.Publishing(False)
    assert runner.publishing(partial=True, publish=None, other=["--figures-dir"]) == runner.Publishing(False)


@pytest.mark.parametrize(
    "options, named",
    [
        (dict(profile="quick"), "--profile quick"),
        (dict(output="out"), "--output"),
        (dict(figures_dir="figs"), "--figures-dir"),
        (dict(results_dir="tables"), "--results-dir"),
        (dict(notebooks_dir=FIXTURES), "--notebooks-dir"),
        (dict(profiles_file=FIXTURES / "profiles.yaml"), "--profiles-file"),
    ],
)
def test_publish_is_refused_but_for_the_full_profile_of_notebooks_into_the_committed_folders(
    tmp_path, monkeypatch, options, named
):
    # --publish with another profile wrote its tables over the committed full ones, with --output it ignored it.
    repo = _fake_repository(tmp_path, monkeypatch).resolve()
    profile = options.pop("profile", "full")
    with pytest.raises(runner.RunnerError, match=f"--publish writes the committed .*: not with {named}$"):
        plan_run(profile, only=["01"], publish=True, **options)
    # Not asked for, every notebook: no publishing either, neither to the folder given nor to the other one.
    plan = plan_run(profile, **options)
    assert not plan.publishing.publish
    assert {plan.figures_dir, plan.results_dir}.isdisjoint({repo / "figures", repo / "results" / "full"})


def test_reproduce_publish_is_refused_before_any_run(tmp_path, monkeypatch, capsys):
    from ndcg_research.cli import main

    repo = _fake_repository(tmp_path, monkeypatch)
    argv = ["reproduce", "--profile", "quick", "--only", "01", "--publish", "--output", str(tmp_path / "out")]
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        "ndcg-research reproduce: error: --publish writes the committed figures/ and results/full/ from the full "
        "profile of notebooks/ and its profiles.yaml only, into no other folder: not with --profile quick, --output\n"
    )
    assert not (repo / "figures").exists() and not (repo / "results").exists() and not (tmp_path / "out").exists()


# ------------------------------------------------------------ examples of pipeline.runner


def test_publishing_example():
    assert [publishing(partial=partial, publish=None).publish for partial in (False, True)] == [True, False]
    assert repr(publishing(partial=True, publish=True)) == "Publishing(publish=True, note='')"
    assert repr(publishing(partial=False, publish=None, other=["--output"])) == "Publishing(publish=False, note='')"


def test_plan_run_example():
    plan = plan_run("quick", only=["01"], output="/tmp/ndcg-plan-example")
    expected = (["01_worked_example.ipynb"], False, "figures")
    assert ([run.path.name for run in plan.runs], plan.publishing.publish, plan.figures_dir.name) == expected


def test_format_summary_example():
    from pathlib import Path

    ok = NotebookResult("01_a.ipynb", Path("x"), 1.234, ("01_fig",))
    bad = NotebookResult("02_b.ipynb", Path("y"), 0.5, ("02_fig",), error="boom")
    expected = (
        "notebook    seconds  figures\n"
        "01_a.ipynb      1.2  01_fig\n"
        "02_b.ipynb      0.5  FAILED\n"
        "total           1.7  1 figure(s), 1 notebook(s) FAILED"
    )
    assert str(format_summary([ok, bad])) == expected


def test_kernel_manager_class_example():
    from jupyter_client import AsyncKernelManager

    cls = kernel_manager_class()
    assert (issubclass(cls, AsyncKernelManager), cls().transport in {"ipc", "tcp"}) == (True, True)


def test_kernel_metadata_example():
    import platform

    meta = kernel_metadata()
    expected = ("python3", True)
    assert (meta["kernelspec"]["name"], meta["language_info"]["version"] == platform.python_version()) == expected


def test_strip_volatile_example():
    import nbformat

    cell = nbformat.v4.new_code_cell("1 + 1", metadata={"papermill": {"duration": 0.1}})
    nb = nbformat.v4.new_notebook(cells=[cell], metadata={"papermill": {}})
    clean = strip_volatile(nb)
    assert (dict(clean.metadata), dict(clean.cells[0].metadata)) == ({}, {})


# ------------------------------------------------------------ examples of pipeline.profiles


def test_select_notebooks_example():
    from pathlib import Path

    nbs = [Path("01_a.ipynb"), Path("02_b.ipynb")]
    assert [p.name for p in select_notebooks(nbs, ["02"])] == ["02_b.ipynb"]
    with pytest.raises(Exception, match="\\-\\-only\\ '9'\\ matches\\ no\\ notebook;\\ available:\\ 01_a,\\ 02_b"):
        select_notebooks(nbs, ["9"])


def test_declared_figures_example():
    import nbformat

    assert declared_figures(nbformat.v4.new_notebook(metadata={"ndcg_research": {"figures": ["01_a"]}})) == ["01_a"]


def test_declared_tables_example():
    import nbformat

    expected = ["02_*.csv"]
    assert declared_tables(nbformat.v4.new_notebook(metadata={"ndcg_research": {"tables": ["02_*.csv"]}})) == expected


def test_notebook_parameters_example():
    import os
    import tempfile

    import nbformat

    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell('k = 6  # cut-off "k" (None: all)\nfigures_dir = "../build/figures"')]
    )
    nb.cells[0].metadata["tags"] = ["parameters"]
    path = os.path.join(tempfile.mkdtemp(), "01_x.ipynb")
    nbformat.write(nb, path)
    assert notebook_parameters(path) == {"k": "6", "figures_dir": '"../build/figures"'}


def test_describe_parameters_example():
    import os
    import tempfile

    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("ns = [10,\n      100]  # list lengths\nseed = 1")])
    nb.cells[0].metadata["tags"] = ["parameters"]
    path = os.path.join(tempfile.mkdtemp(), "01_x.ipynb")
    nbformat.write(nb, path)
    assert [(p.name, p.comment) for p in describe_parameters(path)] == [("ns", "list lengths"), ("seed", "")]


# ------------------------------------------------------------ examples of pipeline.cli


def test_notebook_path_example():
    expected = ("13_cutoff_growth.ipynb", "01_worked_example.ipynb")
    assert (notebook_path("13").name, notebook_path("01_worked_example").name) == expected


def test_format_parameters_example():
    P = profiles.NotebookParameter
    expected = 'k = 6          # cut-off\nseed = 2013\ngain = "exp2"  # gain spec'
    assert (
        str(format_parameters([P("k", "6", "cut-off"), P("seed", "2013", ""), P("gain", '"exp2"', "gain spec")]))
        == expected
    )


@pytest.mark.parametrize("command", ["reproduce", "store"])
def test_a_file_the_command_cannot_write_is_a_one_line_error(monkeypatch, capsys, command):
    from ndcg_research.cli import main

    def refuse(*args, **kwargs):  # as the figure index or an executed notebook on a full or read-only disk
        raise PermissionError(13, "Permission denied", "/x/figures/README.md")

    monkeypatch.setattr(runner, command, refuse)
    assert main([command, "--only", "01"]) == 1  # it was a PermissionError traceback
    err = capsys.readouterr().err
    assert err == f"ndcg-research {command}: error: Permission denied: '/x/figures/README.md'\n"


def test_a_reader_that_closes_the_pipe_early_is_no_error(monkeypatch, capsys):
    from ndcg_research.cli import main

    def closed(*args, **kwargs):  # as print() to `| head` that has left
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(profiles, "describe_parameters", closed)
    assert main(["params", "01"]) == 0  # it was "error: [Errno 32] Broken pipe", status 1
    assert capsys.readouterr().err == ""


def test_a_file_where_a_publishing_run_writes_is_named_as_the_committed_folder(tmp_path, monkeypatch):
    # it blamed --output, an option the run was not given, for a file at the repository's figures/
    repo = _fake_repository(tmp_path, monkeypatch)
    (repo / "figures").write_text("mine\n")
    match = f"^the committed figures folder '{repo / 'figures'}' is a file, not a folder$"
    with pytest.raises(runner.RunnerError, match=match):
        runner.plan_run("full", only=["01"], publish=True)


# ------------------------------------------------------------ refusals before anything runs


def test_output_over_the_notebooks_it_runs_is_refused(tmp_path, monkeypatch):
    # --output . beside notebooks/ wrote the executed notebooks over the ones it ran
    repo = _fake_repository(tmp_path, monkeypatch)
    before = (repo / "notebooks" / "01_ok.ipynb").read_bytes()
    copy = tmp_path / "copy"
    shutil.copytree(FIXTURES, copy / "notebooks")
    for notebooks_dir, output, folder, what in (
        (None, repo, repo / "notebooks", "the folder of the notebooks it runs"),
        (copy / "notebooks", copy, copy / "notebooks", "the folder of the notebooks it runs"),
        (copy / "notebooks", repo, repo / "notebooks", "the folder of the committed notebooks"),
    ):
        with pytest.raises(runner.RunnerError) as caught:
            plan_run("quick", only=["01"], notebooks_dir=notebooks_dir, output=output)
        assert (
            str(caught.value)
            == f"--output {str(output)!r} would write into {str(folder)!r}, {what}: choose another folder"
        )
    assert (repo / "notebooks" / "01_ok.ipynb").read_bytes() == before


@pytest.mark.parametrize("kind", ["figures", "results"])
def test_output_into_the_committed_folders_is_refused_unless_named(tmp_path, monkeypatch, kind):
    # A run that does not publish must leave figures/ and results/full/ alone, even where --output leads there.
    repo = _fake_repository(tmp_path, monkeypatch)
    committed = repo / "figures" if kind == "figures" else repo / "results" / "full"
    committed.mkdir(parents=True)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / kind).symlink_to(committed)
    with pytest.raises(runner.RunnerError, match=f"^--output .* would write into {str(committed)!r}, the committed"):
        plan_run("quick", only=["01"], output=tmp_path / "out")
    # Named on purpose, the folder is used.
    plan = plan_run("quick", only=["01"], output=tmp_path / "out", **{f"{kind}_dir": committed})
    assert (plan.figures_dir if kind == "figures" else plan.results_dir) == committed


@pytest.mark.parametrize("option", ["output", "notebooks_dir", "profiles_file", "figures_dir", "results_dir"])
def test_an_empty_path_is_refused(tmp_path, capsys, option):
    # "" was the working directory (--notebooks-dir "") or the default (--results ""), silently
    with pytest.raises(runner.RunnerError, match=f"^--{option.replace('_', '-')} is empty \\(''\\)$"):
        plan_run("quick", **{"output": tmp_path / "out", "notebooks_dir": FIXTURES, option: ""})
    from ndcg_research.cli import main

    flag = "--" + option.replace("_", "-")
    for argv in (["reproduce", flag, ""], ["store", "--strip-only", flag, ""]):
        if argv[0] == "store" and option != "notebooks_dir":
            continue
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        assert capsys.readouterr().err.endswith(f"error: argument {flag}: must name a file or folder, got ''\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("quick:\n  01_ok: {1: 2}\n", "profile 'quick', notebook '01_ok' in .*: the parameter name 1 \\(int\\) is not"),
        ("quick:\n  01_ok: {null: 2}\n", "the parameter name None \\(NoneType\\) is not text"),
        ("quick:\n  01_ok: {1: 2, foo: 3}\n", "the parameter name 1 \\(int\\) is not text"),
        ("quick:\n  1: {}\n", "profile 'quick' in .*: the notebook name 1 \\(int\\) is not text"),
        ("2020: {}\nquick: {}\n", "the file in .*: the profile name 2020 \\(int\\) is not text"),
        ("quick:\n  01_ok: {label: a}\nquick: {}\n", "the key 'quick' is given twice \\(line 3, column 1\\)$"),
        ("quick:\n  01_ok: {label: a, label: b}\n", "the key 'label' is given twice \\(line 2, column 21\\)$"),
    ],
)
def test_a_malformed_profiles_file_is_refused_by_key(tmp_path, text, message):
    # keys that are not text were TypeError tracebacks; a key given twice was silently the last one
    profiles_file = tmp_path / "profiles.yaml"
    profiles_file.write_text(text)
    with pytest.raises(runner.RunnerError, match=message):
        _reproduce(tmp_path, ["01"], profiles_file=profiles_file)
    assert not (tmp_path / "out").exists()


def test_a_profiles_file_that_is_not_utf8_or_a_file_is_named_so(tmp_path, capsys):
    from ndcg_research.cli import main

    (tmp_path / "latin1.yaml").write_bytes("quick:\n  01_ok: {label: caf\xe9}\n".encode("latin-1"))
    with pytest.raises(runner.RunnerError, match="^profiles file .*latin1.yaml' is not UTF-8 text: "):
        _reproduce(tmp_path, ["01"], profiles_file=tmp_path / "latin1.yaml")
    with pytest.raises(runner.RunnerError, match=f"^profiles file {str(tmp_path)!r} is a directory$"):
        _reproduce(tmp_path, ["01"], profiles_file=tmp_path)
    # a notebooks folder that is a file was named as a missing profiles file in it
    for command in (["reproduce", "--output", str(tmp_path / "out")], ["store", "--strip-only"]):
        assert main([*command, "--notebooks-dir", str(tmp_path / "latin1.yaml")]) == 1
        assert capsys.readouterr().err == (
            f"ndcg-research {command[0]}: error: notebooks directory {str(tmp_path / 'latin1.yaml')!r} "
            "is not a directory\n"
        )


def test_a_profile_value_that_is_not_json_is_refused_before_running(tmp_path):
    # n_max: 2020-01-01 failed in papermill ("Object of type date is not JSON serializable"), naming no parameter
    profiles_file = tmp_path / "profiles.yaml"
    profiles_file.write_text("quick:\n  01_ok: {label: 2020-01-01}\n")
    with pytest.raises(
        runner.RunnerError, match=r"^profile 'quick' sets label for notebook 01_ok.ipynb to datetime.date\(2020, 1, 1\)"
    ):
        _reproduce(tmp_path, ["01"], profiles_file=profiles_file)
    assert not (tmp_path / "out").exists()


def test_a_failure_names_only_an_executed_notebook_that_exists(tmp_path):
    import datetime

    # Papermill fails before it writes anything: an earlier run's executed notebook is not named as this run's.
    executed = tmp_path / "01_ok.ipynb"
    executed.write_text("an earlier run's\n")
    with pytest.raises(runner.NotebookFailed) as caught:
        runner.run_notebook(FIXTURES / "01_ok.ipynb", executed, {"label": datetime.date(2020, 1, 1)})
    assert str(executed) not in str(caught.value) and caught.value.output_path is None
    # store executes into a temporary folder: it named it after deleting it.
    folder = tmp_path / "notebooks"
    folder.mkdir()
    shutil.copy(FIXTURES / "03_fails.ipynb", folder)
    with pytest.raises(runner.NotebookFailed) as caught:
        runner.store(notebooks_dir=folder, stream=io.StringIO())
    kept = caught.value.output_path
    try:
        assert f"executed notebook (with the traceback): {kept}" in str(caught.value)
        assert "ValueError" in _stdout_of(kept) or any(
            o.get("ename") == "ValueError"
            for c in nbformat.read(kept, as_version=4).cells
            for o in c.get("outputs", [])
        )
    finally:
        shutil.rmtree(kept.parent)


@pytest.mark.parametrize("content", ["{x", '{"cells": 5}'])
def test_store_strip_only_of_a_file_that_is_not_a_notebook_is_one_line(tmp_path, capsys, content):
    from ndcg_research.cli import main

    (tmp_path / "04_bad.ipynb").write_text(content)
    assert main(["store", "--strip-only", "--notebooks-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ndcg-research store: error: {str(tmp_path / '04_bad.ipynb')!r} is not a Jupyter notebook: ")
    assert err.count("\n") == 1 and (tmp_path / "04_bad.ipynb").read_text() == content


def test_a_default_of_several_lines_shows_its_comments_once(tmp_path):
    path = _notebook_with_parameters(tmp_path, 'd = ["a",  # one per line\n     "b"]\ne = [1,\n     2]  # after\n')
    printed = format_parameters(describe_parameters(path))
    assert printed.count("# one per line") == 1 and printed.count("# after") == 1
    assert [(p.name, p.comment) for p in describe_parameters(path)] == [("d", ""), ("e", "after")]


def test_a_tuple_assignment_declares_each_name(tmp_path):
    # c, d = 1, 2 was left out: a profile setting c was refused as undeclared
    path = _notebook_with_parameters(tmp_path, "c, d = 1, [2, 3]  # two\n(e, f), g = (4, 5), 6\n")
    assert notebook_parameters(path) == {"c": "1", "d": "[2, 3]", "e": "4", "f": "5", "g": "6"}
    for source in ("c, d = f()\n", "c, *d = 1, 2, 3\n", "c, d = 1, 2, 3\n"):
        path = _notebook_with_parameters(tmp_path, source)
        with pytest.raises(runner.RunnerError, match="^the parameters cell of notebook 01_params.ipynb assigns 'c, "):
            describe_parameters(path)


def test_a_notebook_run_in_place_is_not_deleted_first(tmp_path):
    # Removing an earlier run's output before running removed the notebook itself when the two are one file.
    notebook = tmp_path / "01_ok.ipynb"
    shutil.copy(FIXTURES / "01_ok.ipynb", notebook)
    runner.run_notebook(notebook, notebook, timeout=120)
    executed = nbformat.read(notebook, as_version=4)
    assert any(cell.get("outputs") for cell in executed.cells if cell.cell_type == "code")  # run, and written back
