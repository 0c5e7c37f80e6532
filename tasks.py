#!/usr/bin/env python3
"""The commands of the project; standard library only.

    python3 tasks.py reproduce [ARGS...]   # run all notebooks (profile full), regenerate figures/
    python3 tasks.py test [ARGS...]        # run the whole test suite (unit tests, doctests, nbval)
    python3 tasks.py docs [ARGS...]        # build the documentation site into build/site/
    python3 tasks.py lab [ARGS...]         # open the notebooks in JupyterLab
    python3 tasks.py lint                  # ruff check, ruff format --check, mypy
    python3 tasks.py lock [ARGS...]        # resolve requirements.lock again

Each command first makes sure ``.venv`` exists (created with :mod:`venv` if missing) and
holds its requirement sets (:data:`SETS`) at the versions of ``requirements.lock``, the
lock of the whole stack, transitive packages included: ``pip install -c requirements.lock
-r requirements.txt [-r requirements-SET.txt] -e ".[EXTRAS]"``. A stamp file in ``.venv``
records a hash of the files of each set, so later runs skip the installation when nothing
changed. It also writes the JupyterLab settings of ``.venv`` (:data:`JUPYTER_SETTINGS`).

Extra arguments are passed on: to ``python -m ndcg_research reproduce`` (e.g.
``--profile quick --output DIR``, ``--only 01``), to ``pytest`` (e.g. ``-k runner``),
to ``sphinx-build`` (e.g. ``-E`` to re-read every page), to ``jupyter lab`` or to
``uv pip compile`` (``--upgrade``, ``--upgrade-package NAME``).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".ndcg_research-install.json"
#: The lock of the whole stack: every command installs with it as constraints.
LOCK = "requirements.lock"


class RequirementSet(NamedTuple):
    files: tuple[str, ...]  # requirement files (names only: the lock pins the versions)
    extras: tuple[str, ...]  # extras of the package (pyproject.toml's optional-dependencies)


#: What each command installs: ``base`` always, and the set named after the command
#: (``test`` and ``docs``: the ecosystem extra too, for the ir_measures / PyTerrier / ranx tests and pages).
SETS = {
    "base": RequirementSet(("requirements.txt",), ("notebooks", "experiments")),
    "test": RequirementSet(("requirements-test.txt",), ("ecosystem",)),
    "docs": RequirementSet(("requirements-docs.txt",), ("ecosystem",)),  # the API pages import interop/
    "dev": RequirementSet(("requirements-dev.txt",), ()),
}
#: What ``lock`` resolves: the package with all its extras and every requirement file
#: (requirements-browser.txt is installed by .ci/run's browser step, with the lock).
LOCK_INPUTS = (
    "pyproject.toml",
    "requirements.txt",
    "requirements-test.txt",
    "requirements-docs.txt",
    "requirements-dev.txt",
    "requirements-browser.txt",
)
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
JUPYTER_SETTINGS: dict[Path, dict[str, dict[str, Any]]] = {
    VENV / "etc" / "jupyter" / "jupyter_server_config.json": {"KernelManager": {"transport": "ipc"}},
    VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json": {
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}
    },
}

USAGE = """usage: python3 tasks.py {reproduce,test,docs,lab,lint,lock} [ARGS...]

  reproduce  run every notebook with the 'full' profile and regenerate figures/ and
             figures/README.md; ARGS go to `python -m ndcg_research reproduce`
             (e.g. --profile quick --output DIR, --only 01)
  test       run the whole test suite (unit tests, doctests of the package and the
             documentation pages, nbval on the notebooks); ARGS go to pytest
  docs       build the documentation site offline into build/site/ (warnings are
             errors); ARGS go to sphinx-build
  lab        open notebooks/ in .venv's JupyterLab (as root with --allow-root);
             ARGS go to `jupyter lab`
  lint       ruff check, ruff format --check and mypy (configured in pyproject.toml)
  lock       resolve requirements.lock again from pyproject.toml and the requirement
             files, keeping every locked version that still fits; ARGS go to
             `uv pip compile` (--upgrade: newest versions of everything;
             --upgrade-package NAME: of one package)

Each command creates .venv/ if it is missing and installs into it what it needs at the
versions of requirements.lock.
"""


def venv_tool(name: str) -> Path:
    """Path of a program of the virtual environment (``python``, ``ruff``, ``jupyter``...)."""
    if os.name == "nt":
        return VENV / "Scripts" / f"{name}.exe"
    return VENV / "bin" / name


def venv_python() -> Path:
    """Path of the virtual environment's interpreter."""
    return venv_tool("python")


def run(cmd: Sequence[str | Path], **kwargs: Any) -> None:
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


def make_venv() -> Path:
    """Create ``.venv`` with :mod:`venv` if it is missing; return its interpreter."""
    if sys.version_info < MIN_PYTHON:
        sys.exit(
            f"tasks.py: Python {'.'.join(map(str, MIN_PYTHON))} or newer is needed, this is {sys.version.split()[0]}"
        )
    python = venv_python()
    if not python.exists():
        print(f"Creating virtual environment {VENV}", flush=True)
        run([sys.executable, "-m", "venv", VENV])
        STAMP.unlink(missing_ok=True)
    return python


def pip(python: Path) -> list[str | Path]:
    return [python, "-m", "pip", "--disable-pip-version-check", "--quiet"]


def ensure_env(*extras: str) -> Path:
    """Create ``.venv`` if needed and install what changed since the last install.

    ``extras`` names the requirement sets of :data:`SETS` wanted beside ``base``. Every
    version comes from :data:`LOCK` (``pip install -c``), pip's and the build backend's too.
    A set is installed again when its files, ``pyproject.toml`` or the lock changed.
    """
    python = make_venv()
    stamp = read_stamp()
    names = ("base", *extras)
    wanted = {name: digest((LOCK, "pyproject.toml", *SETS[name].files)) for name in names}
    if all(stamp.get(key) == value for key, value in wanted.items()):
        return python

    print(f"Installing dependencies at the versions of {LOCK} (requirements changed or first run)", flush=True)
    quiet = dict(os.environ)
    quiet["PYTHONWARNINGS"] = ",".join(filter(None, [quiet.get("PYTHONWARNINGS"), QUIET_INSTALL_WARNINGS]))
    # pip first, at its locked version: it knows --build-constraint, which pins the build backend.
    run([*pip(python), "install", "-c", LOCK, "pip"])
    cmd: list[str | Path] = [*pip(python), "install", "-c", LOCK, "--build-constraint", LOCK]
    for name in names:
        for file in SETS[name].files:
            cmd += ["-r", file]
    cmd += ["-e", f".[{','.join(extra for name in names for extra in SETS[name].extras)}]"]
    run(cmd, env=quiet)
    run([*pip(python), "check"])
    # Keep what earlier installs recorded (another command's sets stay installed) and record
    # what was installed now; a new base (lock, pyproject.toml) forgets the other sets.
    base_changed = stamp.get("base") != wanted["base"]
    kept = {} if base_changed else {key: value for key, value in stamp.items() if key not in wanted}
    STAMP.write_text(json.dumps({**kept, **wanted}, indent=2) + "\n", encoding="utf-8")
    return python


def configure_jupyter() -> None:
    """Merge :data:`JUPYTER_SETTINGS` into the JupyterLab settings files of ``.venv``."""
    for path, config in JUPYTER_SETTINGS.items():
        if os.name != "posix" and "KernelManager" in config:
            continue  # no IPC transport on Windows
        try:
            settings = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            settings = {}
        if not isinstance(settings, dict):
            settings = {}
        merged = {
            **settings,
            **{section: {**settings.get(section, {}), **values} for section, values in config.items()},
        }
        if merged != settings or not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")


def lint() -> int:
    """Run ruff (lint, then format in check mode) and mypy; return 1 if any of them found something."""
    ensure_env("dev")
    failed = []
    for name, cmd in (
        ("ruff check", [venv_tool("ruff"), "check", "--output-format", "concise", "."]),
        ("ruff format", [venv_tool("ruff"), "format", "--check", "."]),
        ("mypy", [venv_tool("mypy")]),
    ):
        print("+ " + " ".join(map(str, cmd)), flush=True)
        if subprocess.run([str(c) for c in cmd], cwd=ROOT).returncode != 0:
            failed.append(name)
    if failed:
        print(
            f"tasks.py lint: findings from {', '.join(failed)} (ruff format and ruff check --fix repair "
            f"some; see their messages)",
            file=sys.stderr,
        )
        return 1
    return 0


def lock(args: list[str]) -> list[str]:
    """The command that resolves :data:`LOCK` again, with uv (installed alone, at its locked version).

    One lock for every supported Python and platform (``--universal``, from the oldest Python
    the package supports), with the package's extras and every requirement file. uv keeps
    each version already in the lock while it still fits, so only what the inputs changed
    moves, unless ``--upgrade`` or ``--upgrade-package NAME`` says otherwise. uv alone, not the
    whole environment: a lock that no longer fits the inputs could not install it.
    """
    run([*pip(make_venv()), "install", "-c", LOCK, "uv"])
    return [
        str(venv_tool("uv")),
        "pip",
        "compile",
        "--universal",
        "--python-version",
        ".".join(map(str, MIN_PYTHON)),
        "--all-extras",
        "--custom-compile-command",
        "python3 tasks.py lock",
        "--quiet",  # the lock is written to the file, not printed as well
        *args,
        *LOCK_INPUTS,
        "-o",
        LOCK,
    ]


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
        cmd = [
            str(python),
            "-m",
            "sphinx",
            "-c",
            "docs",
            "-b",
            "html",
            "-W",
            "--keep-going",
            "-n",
            "-q",
            *rest,
            ".",
            str(SITE),
        ]
    elif command == "lab":
        ensure_env()
        configure_jupyter()
        # Jupyter refuses to start as root unless told: as root (a container, CI) say so, on purpose.
        as_root = os.name == "posix" and os.geteuid() == 0
        cmd = [str(venv_tool("jupyter")), "lab", *(["--allow-root"] if as_root else []), *rest, "notebooks/"]
    elif command == "lint":
        if rest:
            print(f"tasks.py lint: takes no arguments, got {' '.join(rest)}", file=sys.stderr)
            return 2
        return lint()
    elif command == "lock":
        cmd = lock(rest)
    else:
        print(f"tasks.py: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    print("+ " + " ".join(cmd), flush=True)
    status = subprocess.run(cmd, cwd=ROOT, env=env).returncode
    if command == "lock" and status == 0:
        print(f"wrote {LOCK} (`git diff {LOCK}` shows what moved)")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
