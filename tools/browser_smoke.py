#!/usr/bin/env python3
"""Browser smoke test: open notebooks in a real JupyterLab in Chromium, run them through the UI.

    .venv/bin/python tools/browser_smoke.py [--only 01 03] [--out build/browser]

What it does, as a user would (run by ``.ci/run``; needs Debian's ``chromium`` package
and the ``playwright`` Python package from ``requirements-browser.txt``; it never downloads a
browser: Playwright drives ``/usr/bin/chromium``):

1. Copies the notebooks into a scratch folder ``<out>/work/notebooks`` (the committed files
   are never opened, so nothing in the repository changes) and stores the copies as
   ``python -m ndcg_research store --strip-only`` does, which records the kernel metadata of
   this environment (``--as-committed`` skips this). It also says whether the committed
   files already hold this environment's kernel metadata (then opening them changes nothing).
2. Starts ``.venv``'s JupyterLab on a free port of 127.0.0.1 with a random token and
   isolated Jupyter settings (no news pop-up, no update check; cell timing recorded).
3. For each notebook: opens it and waits for the kernel; **fails if opening marked the
   notebook modified** (JupyterLab filled in metadata the stored file lacks); runs
   Run > Run All Cells from the menu; waits until the kernel is idle; saves it (in the
   scratch folder) and reads the saved file; **fails if a cell has an error output, a code
   cell did not run, or a declared figure (``metadata["ndcg_research"]["figures"]``) is not
   displayed as a decoded image by the cell that saved it** (matched by time: the cell's
   recorded execution window holds the figure's save). Screenshots of the opened notebook,
   of every figure cell and of any failing cell go to ``<out>``.
4. Stops JupyterLab by its process id and prints ``browser: N passed, M failed``.

Exit status: 0 if every notebook passed, 1 otherwise, 2 if the browser or JupyterLab
cannot be started.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 1000}

#: JupyterLab settings of the smoke test (an isolated settings folder, not the user's).
LAB_SETTINGS = {
    # No "Would you like to get notified about official Jupyter news?" pop-up over the
    # notebook, and no request for news or updates: the test runs offline.
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    # Record when each cell ran (metadata "execution"), to tell which cell saved which figure.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"recordTiming": True},
}


@dataclass
class Outcome:
    notebook: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    screenshots: list[Path] = field(default_factory=list)
    seconds: float = 0.0


# --------------------------------------------------------------------------- JupyterLab


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_jupyterlab(
    root: Path, settings_home: Path, runtime: Path, log_path: Path
) -> tuple[subprocess.Popen, str, str]:
    """Start ``.venv``'s JupyterLab serving ``root``; return (process, base URL, token)."""
    port, token = free_port(), secrets.token_hex(16)
    user_settings = settings_home / "lab" / "user-settings"
    for name, value in LAB_SETTINGS.items():
        path = user_settings / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value), encoding="utf-8")
    env = dict(os.environ)
    env.update(
        {
            "JUPYTER_CONFIG_DIR": str(settings_home),  # user settings and workspaces: ours, empty
            "JUPYTER_DATA_DIR": str(settings_home / "data"),  # no user-installed kernel specs
            "JUPYTER_RUNTIME_DIR": str(runtime),  # short path: IPC socket names are limited
            "IPYTHONDIR": str(settings_home / "ipython"),  # no user start-up scripts
        }
    )
    jupyter = Path(sys.executable).with_name("jupyter")
    cmd = [
        str(jupyter),
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # CI runs as root
    log = open(log_path, "w", encoding="utf-8")
    process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with status {process.returncode}; see {log_path}")
        try:
            request = urllib.request.Request(f"{base}/api/status", headers={"Authorization": f"token {token}"})
            with urllib.request.urlopen(request, timeout=2):
                return process, base, token
        except OSError:
            time.sleep(0.5)
    stop_jupyterlab(process)
    raise RuntimeError(f"JupyterLab did not answer on {base} within 120 s; see {log_path}")


def stop_jupyterlab(process: subprocess.Popen) -> None:
    """Stop JupyterLab by its process id: SIGTERM (it shuts its kernels down), SIGKILL after 30 s."""
    if process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


# --------------------------------------------------------------------------- one notebook


def figure_windows(saved: dict, figures_dir: Path, declared: list[str]) -> tuple[dict[int, list[str]], list[str]]:
    """Which cell (index in the notebook) saved which declared figure, from JupyterLab's cell timings."""
    windows = []
    for index, cell in enumerate(saved["cells"]):
        timing = cell.get("metadata", {}).get("execution", {})
        start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
        if start and end:
            windows.append(
                (
                    index,
                    datetime.fromisoformat(start.replace("Z", "+00:00")),
                    datetime.fromisoformat(end.replace("Z", "+00:00")),
                )
            )
    owners: dict[int, list[str]] = {}
    problems = []
    for name in declared:
        record = figures_dir / f"{name}.json"
        if not record.is_file():
            problems.append(f"declared figure {name} was not saved (no {record})")
            continue
        saved_at = datetime.fromtimestamp(record.stat().st_mtime, tz=UTC)
        matches = [index for index, start, end in windows if start <= saved_at <= end]
        if len(matches) != 1:
            problems.append(f"declared figure {name} was saved outside the recorded run of any one cell")
            continue
        owners.setdefault(matches[0], []).append(name)
    return owners, problems


def wait_idle(page, timeout: float) -> None:
    """Wait until the notebook's kernel is idle and no cell is queued or running ([*])."""
    deadline = time.monotonic() + timeout
    calm = 0
    while time.monotonic() < deadline:
        state = page.evaluate("""() => {
            const panel = '.jp-NotebookPanel:not(.lm-mod-hidden)';
            const indicator = document.querySelector(`${panel} .jp-Notebook-ExecutionIndicator`);
            const prompts = Array.from(document.querySelectorAll(`${panel} .jp-InputPrompt`));
            return {status: indicator ? indicator.getAttribute('data-status') : null,
                    running: prompts.filter(p => p.textContent.includes('*')).length};
        }""")
        calm = calm + 1 if state["status"] == "idle" and state["running"] == 0 else 0
        if calm >= 3:
            return
        time.sleep(0.5)
    raise TimeoutError(f"the kernel was still busy after {timeout:.0f} s")


def is_dirty(page, name: str) -> bool:
    return page.evaluate(
        """(name) => Array.from(document.querySelectorAll('.lm-TabBar-tab'))
        .some(t => t.textContent.trim() === name && t.classList.contains('jp-mod-dirty'))""",
        name,
    )


def cell_images(page) -> list[int]:
    """Decoded images displayed in each cell's outputs, in notebook order."""
    return page.evaluate("""() => Array.from(
        document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell'))
        .map(cell => Array.from(cell.querySelectorAll('.jp-OutputArea-output img'))
             .filter(img => img.complete && img.naturalWidth > 0).length)""")


def screenshot_cell(page, index: int, path: Path) -> list[Path]:
    """Screenshots of a cell: one per image it displays (each scrolled into view), else of its output."""
    cell = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").nth(index)
    images = cell.locator(".jp-OutputArea-output img")
    targets = [images.nth(k) for k in range(images.count())] or [cell.locator(".jp-Cell-outputWrapper")]
    paths = []
    for k, target in enumerate(targets, start=1):
        target.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        shot = path.with_name(f"{path.stem}_{k}{path.suffix}") if len(targets) > 1 else path
        page.screenshot(path=str(shot))
        paths.append(shot)
    return paths


def check_notebook(page, base: str, token: str, work: Path, nb_path: Path, out: Path, timeout: float) -> Outcome:
    from ndcg_research.pipeline import runner

    outcome = Outcome(nb_path.name)
    started = time.monotonic()
    stem = nb_path.stem.split("_", 1)[0]
    declared = runner.declared_figures(nb_path)
    figures_dir = work / "build" / "figures"  # the notebooks' default figures_dir, relative to work/notebooks

    page.goto(f"{base}/lab/tree/notebooks/{nb_path.name}?token={token}")
    # JupyterLab reopens the notebooks of earlier pages as hidden tabs: wait for a cell of the visible one.
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell", timeout=120_000)
    wait_idle(page, 120)
    page.wait_for_timeout(2000)  # metadata from the kernel arrives right after it is ready
    outcome.screenshots.append(out / f"{stem}_opened.png")
    page.screenshot(path=str(outcome.screenshots[-1]))
    if is_dirty(page, nb_path.name):
        outcome.problems.append(
            "opening the notebook marked it modified: JupyterLab filled in kernel metadata "
            "the file lacks (`python -m ndcg_research store --strip-only` records it)"
        )

    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_timeout(1000)
    wait_idle(page, timeout)
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 60
    while is_dirty(page, nb_path.name) and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    saved = json.loads((work / "notebooks" / nb_path.name).read_text(encoding="utf-8"))

    code = [(i, c) for i, c in enumerate(saved["cells"]) if c["cell_type"] == "code"]
    counts = [c.get("execution_count") for _, c in code]
    if counts != list(range(1, len(code) + 1)):
        outcome.problems.append(f"not every code cell ran once, in order, in this session: prompts {counts}")
    for position, (index, cell) in enumerate(code, start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                first = "".join(cell["source"]).strip().splitlines()[0]
                outcome.problems.append(
                    f"code cell {position} ({first!r}) raised {output['ename']}: {output['evalue']}"
                )
                outcome.screenshots += screenshot_cell(page, index, out / f"{stem}_error_cell_{position}.png")

    shown = cell_images(page)
    if len(shown) != len(saved["cells"]):
        outcome.problems.append(f"the page shows {len(shown)} cells, the notebook has {len(saved['cells'])}")
    else:
        owners, problems = figure_windows(saved, figures_dir, declared)
        outcome.problems += problems
        for index, names in sorted(owners.items()):
            outcome.screenshots += screenshot_cell(page, index, out / f"{stem}_figure_cell_{index}.png")
            if shown[index] < len(names):
                outcome.problems.append(f"the cell that saves {', '.join(names)} displays {shown[index]} image(s)")
        outcome.notes.append(f"{sum(shown)} image(s) displayed, {len(declared)} figure(s) declared")
    outcome.seconds = time.monotonic() - started
    return outcome


# --------------------------------------------------------------------------- main


def scratch_copy(notebooks_dir: Path, only: list[str] | None, out: Path) -> tuple[Path, list[Path]]:
    """Empty ``out``, copy the selected notebooks into ``out/work/notebooks``; return (work folder, originals)."""
    from ndcg_research.pipeline import runner

    shutil.rmtree(out, ignore_errors=True)
    work = out / "work"
    (work / "notebooks").mkdir(parents=True)
    selected = runner.select_notebooks(runner.discover_notebooks(notebooks_dir), only)
    for path in selected:
        shutil.copy(path, work / "notebooks" / path.name)
    # Notebooks read the example collection beside them (notebook 14: ../examples), as in the repository.
    shutil.copytree(notebooks_dir.resolve().parent / "examples", work / "examples")
    return work, selected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only",
        nargs="+",
        default=["01", "03"],
        metavar="NAME",
        help="notebooks to open (stem, file name or number; default: 01 03)",
    )
    parser.add_argument("--notebooks-dir", type=Path, default=ROOT / "notebooks")
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "build" / "browser",
        help="screenshots, JupyterLab's log and the scratch copy (default: build/browser)",
    )
    parser.add_argument("--timeout", type=float, default=900, help="seconds for Run All of one notebook")
    parser.add_argument(
        "--as-committed",
        action="store_true",
        help="open the copies as committed, without first recording this environment's kernel "
        "metadata in them (opening then marks them modified if they were stored with "
        "another Python version)",
    )
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from ndcg_research.pipeline import runner

    out = args.out.resolve()
    work, selected = scratch_copy(args.notebooks_dir, args.only, out)
    kernel = runner.kernel_metadata()
    if not args.as_committed:
        runner.store(notebooks_dir=work / "notebooks", execute=False, stream=io.StringIO())
    for path in selected:
        committed = json.loads(path.read_text(encoding="utf-8"))["metadata"]
        same = all(committed.get(key) == value for key, value in kernel.items())
        print(
            f"{path.name}: committed kernel metadata {'matches' if same else 'differs from'} this environment's "
            f"(Python {kernel['language_info'].get('version')}): opening the committed file here "
            f"{'changes nothing' if same else 'marks it modified'}"
        )

    runtime = Path(tempfile.mkdtemp(prefix="jl-"))
    log_path = out / "jupyterlab.log"
    outcomes: list[Outcome] = []
    try:
        process, base, token = start_jupyterlab(work, work / "jupyter", runtime, log_path)
    except RuntimeError as exc:
        print(f"browser: cannot start JupyterLab: {exc}", file=sys.stderr)
        return 2
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                for path in selected:
                    page = browser.new_page(viewport=VIEWPORT)
                    console_errors: list[str] = []
                    page.on(
                        "console", lambda m, errors=console_errors: errors.append(m.text) if m.type == "error" else None
                    )
                    try:
                        outcome = check_notebook(page, base, token, work, path, out, args.timeout)
                    except Exception as exc:  # a time-out or a page that never loaded: a failure, with a picture
                        outcome = Outcome(path.name, problems=[f"{type(exc).__name__}: {exc}"])
                        outcome.screenshots.append(out / f"{path.stem.split('_', 1)[0]}_failure.png")
                        page.screenshot(path=str(outcome.screenshots[-1]))
                    if console_errors:
                        outcome.notes.append(
                            f"{len(console_errors)} browser console error(s), first: {console_errors[0][:200]!r}"
                        )
                    outcomes.append(outcome)
                    page.close()
            finally:
                browser.close()
    finally:
        stop_jupyterlab(process)
        shutil.rmtree(runtime, ignore_errors=True)

    for outcome in outcomes:
        status = "FAILED" if outcome.problems else "ok"
        print(f"{outcome.notebook}: {status} in {outcome.seconds:.0f} s; " + "; ".join(outcome.notes))
        for problem in outcome.problems:
            print(f"  - {problem}")
        print("  screenshots: " + ", ".join(str(p.relative_to(out)) for p in outcome.screenshots))
    log = log_path.read_text(encoding="utf-8", errors="replace").splitlines()
    errors = [line for line in log if line.startswith("[E ") or "Traceback" in line]
    print(f"JupyterLab log ({log_path}): {len(errors)} error line(s)" + "".join(f"\n  {e}" for e in errors[:10]))
    failed = sum(1 for o in outcomes if o.problems)
    print(f"browser: {len(outcomes) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
