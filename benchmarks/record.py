"""Where a benchmark writes what it measured, so that the documentation quotes its own output.

Each benchmark ends with :func:`record`: it writes ``benchmarks/results/<name>.json`` with the
rows it printed (what was timed, the measurement as ratios against named baselines, the target),
the date, the machine (CPU model, cores, NumPy's SIMD extensions) and how loaded the machine was
(load averages before and after the run, since another job on the cores moves every ratio). The
documentation's *Speed* page renders these files as tables; nothing there is typed by hand.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what :mod:`platform` says."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """The machine and its load, for the record."""
    import numpy as np

    simd = np.__config__.CONFIG.get("SIMD Extensions", {}) if hasattr(np.__config__, "CONFIG") else {}
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numpy_simd_found": simd.get("found", []),
        "load_average_1min": None if load is None else round(load[0], 2),
    }


class Recorder:
    """Collect a benchmark's rows and write them, with the machine and its load, at the end.

    Parameters
    ----------
    name : str
        The benchmark's name (the file is ``benchmarks/results/<name>.json``).
    command : str
        The command that ran it, with its arguments.
    """

    def __init__(self, name: str, command: str) -> None:
        self.name, self.command = name, command
        self.started = datetime.datetime.now(datetime.UTC)
        self.before = machine()
        self.rows: list[dict[str, str | bool]] = []

    def row(self, task: str, measured: str, target: str = "", met: bool | None = None) -> None:
        """One line of the results table: the task, the measurement (ratios, named baselines), the target and
        whether this run met it (None: no target, or none that a number decides)."""
        self.rows.append({"task": task, "measured": measured, "target": target} | ({} if met is None else {"met": met}))

    def write(self, folder: Path = RESULTS) -> Path:
        """Write ``<folder>/<name>.json`` and return its path."""
        after = machine()
        record = {
            "benchmark": self.name,
            "command": self.command,
            "date": self.started.date().isoformat(),
            "machine": {**self.before, "load_average_1min_after": after["load_average_1min"]},
            "rows": self.rows,
        }
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.name}.json"
        path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        return path
