"""Which notebooks run with which parameters: discovery, selection, profiles, and what a notebook declares."""

from __future__ import annotations

import ast
import io
import os
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NOTEBOOK_GLOB = "[0-9][0-9]_*.ipynb"
#: The project's key of a notebook's metadata, and the parameters the runner injects into every notebook.
METADATA_KEY = "ndcg_research"
INJECTED_PARAMETERS = ("figures_dir", "results_dir")
#: Per cell, in seconds.
DEFAULT_TIMEOUT = 3600


class RunnerError(Exception):
    """A problem that stops the run, with a message meant for the user."""


@dataclass(frozen=True)
class NotebookParameter:
    """One parameter of a notebook's ``parameters`` cell: name, default as source text, comment without ``#``."""

    name: str
    default: str
    comment: str = ""


def repo_root() -> Path:
    """The folder that holds ``notebooks/``: the repository of an editable install, else the working directory."""
    candidate = Path(__file__).resolve().parents[2]  # ndcg_research/pipeline/profiles.py -> repository
    return candidate if (candidate / "notebooks").is_dir() else Path.cwd()


def discover_notebooks(notebooks_dir: str | os.PathLike[str]) -> list[Path]:
    """The notebooks ``NN_*.ipynb`` of a folder, in run order (:class:`RunnerError` if none)."""
    folder = Path(notebooks_dir)
    if not folder.is_dir():
        raise RunnerError(f"notebooks directory {str(folder)!r} does not exist")
    notebooks = sorted(p for p in folder.glob(NOTEBOOK_GLOB) if p.is_file())
    if not notebooks:
        raise RunnerError(f"no notebooks matching {NOTEBOOK_GLOB} in {str(folder)!r}")
    return notebooks


def select_notebooks(notebooks: Sequence[Path], only: Iterable[str] | None, what: str = "--only") -> list[Path]:
    """The notebooks named in ``only`` (stem, file name or number) in run order; all if none (``what``: the option)."""
    names = list(only or [])
    if not names:
        return list(notebooks)
    chosen: set[Path] = set()
    for name in names:
        matches = [
            p
            for p in notebooks
            if name in (p.stem, p.name) or (name.isdigit() and p.stem.split("_", 1)[0] == name.zfill(2))
        ]
        if not matches:
            available = ", ".join(p.stem for p in notebooks) or "(none)"
            raise RunnerError(f"{what} {name!r} matches no notebook; available: {available}")
        chosen.update(matches)
    return [p for p in notebooks if p in chosen]


def load_profiles(path: str | os.PathLike[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """A profiles file as ``{profile: {notebook_stem: {parameter: value}}}``; :class:`RunnerError` if malformed."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise RunnerError(f"profiles file {str(path)!r} does not exist")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise RunnerError(f"profiles file {str(path)!r} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or not data:
        raise RunnerError(f"profiles file {str(path)!r} must map profile names to notebooks")

    def mapping(value: Any, where: str, to: str) -> dict[Any, Any]:
        value = {} if value is None else value
        if not isinstance(value, dict):
            raise RunnerError(f"{where} in {str(path)!r} must map {to}, got {type(value).__name__}")
        return value

    profiles: dict[str, dict[str, dict[str, Any]]] = {}
    for profile, notebooks in data.items():
        entry = profiles[str(profile)] = {}
        for stem, params in mapping(notebooks, f"profile {profile!r}", "notebook names to parameters").items():
            params = mapping(params, f"profile {profile!r}, notebook {stem!r}", "parameter names to values")
            injected = [name for name in INJECTED_PARAMETERS if name in params]
            if injected:
                raise RunnerError(
                    f"profile {profile!r}, notebook {stem!r} in {str(path)!r} sets {', '.join(injected)}, which the "
                    "runner sets itself: choose the output folders with --output DIR (or --figures-dir DIR) instead"
                )
            entry[str(stem)] = dict(params)
    return profiles


def declared_figures(notebook: str | os.PathLike[str] | Any) -> list[str]:
    """The figures a notebook (file, or read notebook) declares in its metadata."""
    return _declared(notebook, "figures")


def declared_tables(notebook: str | os.PathLike[str] | Any) -> list[str]:
    """The result tables (names or globs in ``results_dir``) a notebook declares in its metadata."""
    return _declared(notebook, "tables")


def declared_headline(notebook: str | os.PathLike[str] | Any) -> str | None:
    """The headline (one of its figures) a notebook declares in its metadata, or None."""
    nb = read_notebook(notebook) if isinstance(notebook, str | os.PathLike) else notebook
    name = (nb.metadata.get(METADATA_KEY, {}) or {}).get("headline")
    if name is not None and name not in _declared(nb, "figures"):
        raise RunnerError(f"metadata[{METADATA_KEY!r}]['headline'] must name a declared figure, got {name!r}")
    return name


def _declared(notebook: str | os.PathLike[str] | Any, kind: str) -> list[str]:
    nb = read_notebook(notebook) if isinstance(notebook, str | os.PathLike) else notebook
    names = (nb.metadata.get(METADATA_KEY, {}) or {}).get(kind, [])
    if not isinstance(names, list) or not all(isinstance(f, str) for f in names):
        raise RunnerError(f"metadata[{METADATA_KEY!r}][{kind!r}] must be a list of names, got {names!r}")
    return list(names)


def notebook_parameters(path: str | os.PathLike[str]) -> dict[str, str]:
    """``{name: default as source text}`` of a notebook's ``parameters`` cell."""
    return {p.name: p.default for p in describe_parameters(path)}


def describe_parameters(path: str | os.PathLike[str]) -> list[NotebookParameter]:
    """The top-level assignments of a notebook's ``parameters`` cell in order (a reassigned name once, its last
    value) with their lines' comments, parsed with :mod:`ast` (papermill gives up on ``k = 6  # "a" (b)``)."""
    cells = [c for c in read_notebook(path).cells if "parameters" in c.metadata.get("tags", [])]
    if not cells:
        raise RunnerError(
            f"notebook {Path(path).name} has no cell tagged 'parameters' "
            "(papermill would inject parameters at the top and the defaults would win)"
        )
    declared: dict[str, NotebookParameter] = {}
    for cell in cells:
        try:
            tree = ast.parse(cell.source)
        except SyntaxError as exc:
            raise RunnerError(f"the parameters cell of notebook {Path(path).name} is not valid Python: {exc}") from exc
        comments = {
            token.start[0]: token.string.lstrip("#").strip()
            for token in tokenize.generate_tokens(io.StringIO(cell.source).readline)
            if token.type == tokenize.COMMENT
        }
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                targets = [node.target.id]
            else:
                continue
            text = ast.get_source_segment(cell.source, node.value) or ""
            end = node.end_lineno if node.end_lineno is not None else node.lineno
            comment = " ".join(comments[line] for line in range(node.lineno, end + 1) if line in comments)
            for name in targets:
                declared.pop(name, None)
                declared[name] = NotebookParameter(name, text, comment)
    return list(declared.values())


def read_notebook(path: str | os.PathLike[str]) -> Any:
    """The notebook at ``path`` (nbformat 4); a missing file is a :class:`RunnerError`."""
    import nbformat

    try:
        notebook = nbformat.read(str(path), as_version=4)
        nbformat.validate(notebook)
        return notebook
    except FileNotFoundError as exc:
        raise RunnerError(f"notebook {str(path)!r} does not exist") from exc
    except (ValueError, TypeError, KeyError, AttributeError, nbformat.ValidationError) as exc:
        # not JSON (NotJSONError is a ValueError), or JSON that is not a notebook (nbformat's conversion
        # fails on missing or mistyped fields before its validation can say so)
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RunnerError(f"{str(path)!r} is not a Jupyter notebook: {first}") from exc
