#!/usr/bin/env python3
"""The commands of the project; standard library only.

    python tasks.py reproduce [ARGS...]   # run all notebooks (profile full), regenerate figures/
    python tasks.py test [ARGS...]        # run the whole test suite (unit tests, doctests, nbval)
    python tasks.py docs [ARGS...]        # build the documentation site into build/site/

Each command first makes sure ``.venv`` exists (created with :mod:`venv` if
missing) and holds the pinned dependencies (``requirements.txt``, plus
``requirements-test.txt`` for ``test`` and ``requirements-docs.txt`` for ``docs``)
and the package in editable mode. A stamp file in ``.venv`` records a hash of the
requirement files and ``pyproject.toml``, so later runs skip the installation when
nothing changed. It also writes the JupyterLab settings of ``.venv``
(:data:`JUPYTER_SETTINGS`) that ``.venv/bin/jupyter lab`` reads.

Extra arguments are passed on: to ``python -m ndcg_research reproduce`` (e.g.
``--profile quick --output DIR``, ``--only 01``), to ``pytest`` (e.g. ``-k runner``)
or to ``sphinx-build`` (e.g. ``-E`` to re-read every page).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".ndcg_research-install.json"
BASE_FILES = ("requirements.txt", "pyproject.toml")
#: The requirement files of each command beyond the base ones.
EXTRA_FILES = {"test": ("requirements-test.txt",), "docs": ("requirements-docs.txt",)}
SITE = ROOT / "build" / "site"
MIN_PYTHON = (3, 11)

# setuptools prints an informational warning at every editable install ("Please be careful
# with folders in your working directory with the same name as your package"): here the
# folder of that name *is* the package. Ignored by its message; every other warning shows.
QUIET_INSTALL_WARNINGS = "ignore:Editable installation"

# Settings of the JupyterLab in .venv, merged into each file (other settings are kept):
# - the server: kernels talk over local IPC sockets rather than TCP (so ipykernel does not warn
#   at every start that it runs "over TCP without encryption"); POSIX only, Windows has no IPC;
# - JupyterLab's defaults: it does not ask whether to fetch "official Jupyter news" (a request
#   to a website, and a pop-up over the notebook) nor check for updates.
JUPYTER_SETTINGS = {
    VENV / "etc" / "jupyter" / "jupyter_server_config.json": {"KernelManager": {"transport": "ipc"}},
    VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json": {
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}},
}

USAGE = """usage: python tasks.py {reproduce,test,docs} [ARGS...]

  reproduce  run every notebook with the 'full' profile and regenerate figures/ and
             figures/README.md; ARGS go to `python -m ndcg_research reproduce`
             (e.g. --profile quick --output DIR, --only 01)
  test       run the whole test suite (unit tests, doctests of the package and the
             documentation pages, nbval on the notebooks); ARGS go to pytest
  docs       build the documentation site offline into build/site/ (warnings are
             errors); ARGS go to sphinx-build
"""


def venv_python() -> Path:
    """Path of the virtual environment's interpreter."""
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def run(cmd: list[str], **kwargs) -> None:
    """Run a command from the repository root, echoing it; exit on failure."""
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    result = subprocess.run([str(c) for c in cmd], cwd=ROOT, **kwargs)
    if result.returncode != 0:
        sys.exit(f"tasks.py: command failed with exit status {result.returncode}: {' '.join(map(str, cmd))}")


def digest(names: tuple[str, ...]) -> str:
    """SHA-256 over the named files of the repository."""
    h = hashlib.sha256()
    for name in names:
        h.update(name.encode() + b"\0")
        h.update((ROOT / name).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def read_stamp() -> dict[str, str]:
    try:
        data = json.loads(STAMP.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def ensure_env(*extras: str) -> Path:
    """Create ``.venv`` if needed and install what changed since the last install.

    ``extras`` names the requirement sets of :data:`EXTRA_FILES` wanted beside the base ones.
    """
    if sys.version_info < MIN_PYTHON:
        sys.exit(f"tasks.py: Python {'.'.join(map(str, MIN_PYTHON))} or newer is needed, "
                 f"this is {sys.version.split()[0]}")
    python = venv_python()
    if not python.exists():
        print(f"Creating virtual environment {VENV}", flush=True)
        run([sys.executable, "-m", "venv", VENV])
        STAMP.unlink(missing_ok=True)

    stamp = read_stamp()
    wanted = {"base": digest(BASE_FILES), **{extra: digest(EXTRA_FILES[extra]) for extra in extras}}
    if all(stamp.get(key) == value for key, value in wanted.items()):
        return python

    print("Installing dependencies (requirements changed or first run)", flush=True)
    quiet = dict(os.environ)
    quiet["PYTHONWARNINGS"] = ",".join(filter(None, [quiet.get("PYTHONWARNINGS"), QUIET_INSTALL_WARNINGS]))
    run([python, "-m", "pip", "install", "--disable-pip-version-check", "--quiet", "--upgrade", "pip"])
    cmd = [python, "-m", "pip", "install", "--disable-pip-version-check", "--quiet", "-r", "requirements.txt"]
    for extra in extras:
        for name in EXTRA_FILES[extra]:
            cmd += ["-r", name]
    cmd += ["-e", "."]
    run(cmd, env=quiet)
    # Keep what earlier installs recorded (another command's extras stay installed) and
    # record what was installed now.
    base_changed = stamp.get("base") != wanted["base"]
    kept = {} if base_changed else {key: value for key, value in stamp.items() if key not in wanted}
    STAMP.write_text(json.dumps({**kept, **wanted}, indent=2) + "\n", encoding="utf-8")
    return python


def configure_jupyter() -> None:
    """Merge :data:`JUPYTER_SETTINGS` into the JupyterLab settings files of ``.venv``."""
    for path, config in JUPYTER_SETTINGS.items():
        if os.name != "posix" and "KernelManager" in config:
            continue   # no IPC transport on Windows
        try:
            settings = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            settings = {}
        if not isinstance(settings, dict):
            settings = {}
        merged = {**settings, **{section: {**settings.get(section, {}), **values} for section, values in config.items()}}
        if merged != settings or not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    env = dict(os.environ)
    env.setdefault("PYTHONHASHSEED", "0")
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    if command == "reproduce":
        python = ensure_env()
        configure_jupyter()
        if not any(a == "--profile" or a.startswith("--profile=") for a in rest):
            rest = ["--profile", "full", *rest]
        cmd = [str(python), "-m", "ndcg_research", "reproduce", *rest]
    elif command == "test":
        python = ensure_env("test")
        configure_jupyter()
        # In parallel on every core unless told otherwise; loadfile keeps each notebook's cells on one worker.
        if not any(a.startswith(("-n", "--numprocesses")) or a == "no:xdist" for a in rest):
            rest = ["-n", "auto", "--dist", "loadfile", *rest]
        cmd = [str(python), "-m", "pytest", *rest]
    elif command == "docs":
        python = ensure_env("docs")
        # The repository root is the source directory (docs/conf.py says why); -W: warnings are
        # errors, --keep-going: report all of them; -n: broken cross-references are warnings.
        cmd = [str(python), "-m", "sphinx", "-c", "docs", "-b", "html", "-W", "--keep-going", "-n", "-q",
               *rest, ".", str(SITE)]
    else:
        print(f"tasks.py: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
