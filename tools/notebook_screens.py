#!/usr/bin/env python3
"""How long each notebook is to read: its height in screens of JupyterLab in Chromium, with screenshots.

    .venv/bin/python tools/notebook_screens.py [--only 04 07] [--out build/screens]

Opens copies of the stored notebooks (nothing is executed, nothing in the repository
changes) in ``.venv``'s JupyterLab, in a 1400 x 1000 px Chromium window (Debian's
``/usr/bin/chromium`` driven by Playwright, as ``tools/browser_smoke.py`` does), with every
cell rendered (no windowing, so the scroll height is measured, not estimated). For each
notebook it prints

- its length in screens: the notebook's scroll height / 1000 px;
- the outputs wider than the window (cut off at the right, to scroll sideways), by cell;

and saves one screenshot per screen into ``<out>/<NN>/screen_<k>.png``. Cells whose output is
collapsed (metadata ``jupyter.outputs_hidden``, the appendix tables) count as collapsed, as a
reader first sees them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_smoke import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    LAB_SETTINGS,
    ROOT,
    VIEWPORT,
    scratch_copy,
    start_jupyterlab,
    stop_jupyterlab,
)

#: Render every cell: JupyterLab's default windowing leaves cells out of view unrendered, so heights are guesses.
SETTINGS = {**LAB_SETTINGS, "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"}}

PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def measure(page, base: str, token: str, name: str, out: Path) -> dict:
    """Open one notebook; its height in screens, its too-wide outputs, and one screenshot per screen."""
    # ?reset: a fresh workspace, so JupyterLab does not first show the notebooks of earlier pages; then wait until the
    # visible tab is this notebook's.
    page.goto(f"{base}/lab/tree/notebooks/{name}?reset&token={token}")
    page.wait_for_function(
        """(name) => Array.from(document.querySelectorAll('.lm-TabBar-tab.lm-mod-current'))
        .some(t => t.textContent.trim() === name)""",
        arg=name,
        timeout=120_000,
    )
    page.wait_for_selector(f"{PANEL} .jp-Notebook .jp-Cell", timeout=120_000)
    page.wait_for_timeout(4000)  # images decode and MathJax typesets after the cells appear
    geometry = page.evaluate(
        """(panel) => {
        const scroller = document.querySelector(panel + ' .jp-WindowedPanel-outer')
                         || document.querySelector(panel + ' .jp-Notebook');
        const cells = Array.from(document.querySelectorAll(panel + ' .jp-Notebook .jp-Cell'));
        const wide = [];
        cells.forEach((cell, index) => {
            cell.querySelectorAll('.jp-OutputArea-output, .jp-RenderedHTMLCommon').forEach(out => {
                if (out.scrollWidth > out.clientWidth + 2) wide.push(index);
            });
        });
        return {height: scroller.scrollHeight, view: scroller.clientHeight, width: scroller.clientWidth,
                wide: Array.from(new Set(wide))};
    }""",
        PANEL,
    )
    folder = out / name.split("_", 1)[0]
    folder.mkdir(parents=True, exist_ok=True)
    screens = max(1, -(-geometry["height"] // geometry["view"]))
    for k in range(screens):
        page.evaluate(
            """([panel, top]) => {
            const scroller = document.querySelector(panel + ' .jp-WindowedPanel-outer')
                             || document.querySelector(panel + ' .jp-Notebook');
            scroller.scrollTop = top; }""",
            [PANEL, k * geometry["view"]],
        )
        page.wait_for_timeout(250)
        page.screenshot(path=str(folder / f"screen_{k + 1:02d}.png"))
    return {
        "notebook": name,
        "screens": geometry["height"] / VIEWPORT["height"],
        "height_px": geometry["height"],
        "wide_output_cells": geometry["wide"],
        "screenshots": screens,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=None, metavar="NAME", help="notebooks (stem or number)")
    parser.add_argument("--notebooks-dir", type=Path, default=ROOT / "notebooks")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "screens")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    out = args.out.resolve()
    work, selected = scratch_copy(args.notebooks_dir, args.only, out)
    runtime = Path(tempfile.mkdtemp(prefix="jl-"))
    settings = work / "jupyter"
    process, base, token = start_jupyterlab(work, settings, runtime, out / "jupyterlab.log")
    # Our settings over the smoke test's (JupyterLab reads them when a page loads).
    for key, value in SETTINGS.items():
        (settings / "lab" / "user-settings" / key).write_text(json.dumps(value), encoding="utf-8")
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                for path in selected:
                    page = browser.new_page(viewport=VIEWPORT)
                    rows.append(measure(page, base, token, path.name, out))
                    page.close()
            finally:
                browser.close()
    finally:
        stop_jupyterlab(process)
        shutil.rmtree(runtime, ignore_errors=True)
    for row in rows:
        wide = row["wide_output_cells"]
        print(
            f"{row['notebook']}: {row['screens']:.1f} screens ({row['height_px']} px); "
            f"outputs wider than the window in cells {wide if wide else 'none'}"
        )
    (out / "screens.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
