"""Which notebooks run with which parameters: discovery, selection, profiles, and what a notebook declares."""

from __future__ import annotations

import ast
import functools
import io
import os
import tokenize
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._validation import check_path, type_and_value

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


def given_path(path: str | os.PathLike[str], what: str) -> Path:
    """``path`` as a :class:`~pathlib.Path`; an empty one is a :class:`RunnerError` naming ``what`` (``Path("")`` is
    the working directory: an empty option would silently run there); one that is not a path is a TypeError."""
    if isinstance(path, str) and not path:
        raise RunnerError(f"{what} is empty ('')")
    return Path(check_path(path, what))


def discover_notebooks(notebooks_dir: str | os.PathLike[str]) -> list[Path]:
    """The notebooks ``NN_*.ipynb`` of a folder, in run order (:class:`RunnerError` if none)."""
    folder = given_path(notebooks_dir, "notebooks directory")
    if not folder.is_dir():
        wrong = "is not a directory" if folder.exists() else "does not exist"
        raise RunnerError(f"notebooks directory {str(folder)!r} {wrong}")
    notebooks = sorted(p for p in folder.glob(NOTEBOOK_GLOB) if p.is_file())
    if not notebooks:
        raise RunnerError(f"no notebooks matching {NOTEBOOK_GLOB} in {str(folder)!r}")
    return notebooks


def select_notebooks(notebooks: Sequence[Path], only: Iterable[str] | None, what: str = "--only") -> list[Path]:
    """The notebooks named in ``only`` (stem, file name or number, each as text: ``"01"``, ``"1"``) in run order; all
    if ``None`` (``what``: the option). A str is refused (its letters would name notebooks: ``"14"`` ran 01 and 04), so
    are an empty list (it ran every notebook, as None does) and a name that is not text: a number is given as text,
    as the command line gives it, never as an int."""
    if only is None:
        return list(notebooks)
    if isinstance(only, str | bytes):
        give = f": give [{only!r}]" if only else ""
        raise TypeError(f"{what} must be a list of notebook names, not a single {type_and_value(only)}{give}")
    try:
        names = list(only)
    except TypeError:
        raise TypeError(f"{what} must be a list of notebook names or None, got {type_and_value(only)}") from None
    if not names:
        raise ValueError(f"{what} must name at least one notebook, got an empty {type(only).__name__} (None runs all)")
    for position, name in enumerate(names):
        if not isinstance(name, str):
            raise TypeError(
                f"{what} must hold notebook names as text (stem, file name or number such as '01'), got "
                f"{type_and_value(name)} at position {position}"
            )
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
    """A profiles file as ``{profile: {notebook_stem: {parameter: value}}}``; :class:`RunnerError` if malformed (a key
    that is not a name, or one given twice)."""
    import yaml

    path = given_path(path, "profiles file")
    if path.is_dir() or not path.exists():
        raise RunnerError(f"profiles file {str(path)!r} {'is a directory' if path.is_dir() else 'does not exist'}")
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_unique_key_loader())
    except UnicodeDecodeError as exc:
        raise RunnerError(f"profiles file {str(path)!r} is not UTF-8 text: {exc}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise RunnerError(f"profiles file {str(path)!r} is not valid YAML: {problem}{where}") from exc
    if not isinstance(data, dict) or not data:
        raise RunnerError(f"profiles file {str(path)!r} must map profile names to notebooks")

    def mapping(value: Any, where: str, to: str, key: str) -> dict[str, Any]:
        value = {} if value is None else value
        if not isinstance(value, dict):
            raise RunnerError(f"{where} in {str(path)!r} must map {to}, got {type(value).__name__}")
        for name in value:  # YAML reads 1, null or 2024-01-01 as such, never as the text a name is
            if not isinstance(name, str):
                raise RunnerError(
                    f"{where} in {str(path)!r}: the {key} {name!r} ({type(name).__name__}) is not text (quote it)"
                )
        return value

    profiles: dict[str, dict[str, dict[str, Any]]] = {}
    for profile, notebooks in mapping(data, "the file", "profile names to notebooks", "profile name").items():
        entry = profiles[profile] = {}
        notebooks = mapping(notebooks, f"profile {profile!r}", "notebook names to parameters", "notebook name")
        for stem, params in notebooks.items():
            params = mapping(
                params, f"profile {profile!r}, notebook {stem!r}", "parameter names to values", "parameter name"
            )
            injected = [name for name in INJECTED_PARAMETERS if name in params]
            if injected:
                raise RunnerError(
                    f"profile {profile!r}, notebook {stem!r} in {str(path)!r} sets {', '.join(injected)}, which the "
                    "runner sets itself: choose the output folders with --output DIR (or --figures-dir DIR) instead"
                )
            entry[stem] = dict(params)
    return profiles


@functools.cache
def _unique_key_loader() -> type:
    """yaml's SafeLoader refusing a key given twice in one mapping (it keeps the last silently: a profile or a
    parameter written twice would run with one of them)."""
    import yaml

    class UniqueKeyLoader(yaml.SafeLoader):
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":  # '<<' merges keys another mapping gives: no repeat
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    repeated = key in seen
                except TypeError:  # an unhashable key: SafeLoader's own error says so
                    break
                if repeated:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"the key {key!r} is given twice", key_node.start_mark
                    )
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    return UniqueKeyLoader


def declared_figures(notebook: str | os.PathLike[str] | Any) -> list[str]:
    """The figures a notebook (file, or read notebook) declares in its metadata."""
    return _declared(notebook, "figures")


def declared_tables(notebook: str | os.PathLike[str] | Any) -> list[str]:
    """The result tables (names or globs in ``results_dir``) a notebook declares in its metadata."""
    return _declared(notebook, "tables")


def declared_headline(notebook: str | os.PathLike[str] | Any) -> str | None:
    """The headline (one of its figures) a notebook declares in its metadata, or None."""
    nb = _read(notebook)
    name = (nb.metadata.get(METADATA_KEY, {}) or {}).get("headline")
    if name is not None and name not in _declared(nb, "figures"):
        raise RunnerError(f"metadata[{METADATA_KEY!r}]['headline'] must name a declared figure, got {name!r}")
    return name


def _read(notebook: str | os.PathLike[str] | Any) -> Any:
    """The notebook a path names, or ``notebook`` itself if it is one already read (it has a ``metadata`` mapping)."""
    if isinstance(notebook, str | os.PathLike):
        return read_notebook(notebook)
    if not isinstance(getattr(notebook, "metadata", None), Mapping):  # None gave AttributeError: 'NoneType' ...
        raise TypeError(f"notebook must be a path or a notebook read by nbformat, got {type_and_value(notebook)}")
    return notebook


def _declared(notebook: str | os.PathLike[str] | Any, kind: str) -> list[str]:
    nb = _read(notebook)
    names = (nb.metadata.get(METADATA_KEY, {}) or {}).get(kind, [])
    if not isinstance(names, list) or not all(isinstance(f, str) for f in names):
        raise RunnerError(f"metadata[{METADATA_KEY!r}][{kind!r}] must be a list of names, got {names!r}")
    return list(names)


def notebook_parameters(path: str | os.PathLike[str]) -> dict[str, str]:
    """``{name: default as source text}`` of a notebook's ``parameters`` cell."""
    return {p.name: p.default for p in describe_parameters(path)}


def describe_parameters(path: str | os.PathLike[str]) -> list[NotebookParameter]:
    """The top-level assignments of a notebook's ``parameters`` cell in order (a reassigned name once, its last
    value) with their lines' comments (but those inside a default of several lines, which it shows), parsed with
    :mod:`ast` (papermill gives up on ``k = 6  # "a" (b)``). ``c, d = 1, 2`` gives each name its element; a tuple
    target with any other value (``c, d = f()``, ``c, *d = ...``) is refused: it has no default to show per name."""
    name = Path(check_path(path, "path")).name
    cells = [c for c in read_notebook(path).cells if "parameters" in c.metadata.get("tags", [])]
    if not cells:
        raise RunnerError(
            f"notebook {name} has no cell tagged 'parameters' "
            "(papermill would inject parameters at the top and the defaults would win)"
        )
    if len(cells) > 1:
        raise RunnerError(
            f"notebook {name} has {len(cells)} cells tagged 'parameters'; papermill injects the parameters after the "
            "first, so a later one would set its defaults again: keep one"
        )
    source = cells[0].source
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise RunnerError(f"the parameters cell of notebook {name} is not valid Python: {exc}") from exc
    comments = {
        token.start[0]: token.string.lstrip("#").strip()
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    }
    declared: dict[str, NotebookParameter] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value:
            targets, value = [node.target], node.value
        else:
            continue
        end = node.end_lineno if node.end_lineno is not None else node.lineno
        inside = range(value.lineno, value.end_lineno or value.lineno)  # lines whose comments the default shows
        comment = " ".join(comments[n] for n in range(node.lineno, end + 1) if n in comments and n not in inside)
        for target in targets:
            for target_name, default in _defaults(target, value, source, name):
                declared.pop(target_name, None)
                declared[target_name] = NotebookParameter(target_name, default, comment)
    return list(declared.values())


def _defaults(target: ast.expr, value: ast.expr, source: str, notebook: str) -> list[tuple[str, str]]:
    """``(name, default as source text)`` of each name an assignment's ``target`` binds (none for ``x.a = ...``)."""
    if isinstance(target, ast.Name):
        return [(target.id, ast.get_source_segment(source, value) or "")]
    if not isinstance(target, ast.Tuple | ast.List):
        return []
    if (
        isinstance(value, ast.Tuple | ast.List)
        and len(value.elts) == len(target.elts)
        and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
    ):
        return [
            pair for t, v in zip(target.elts, value.elts, strict=True) for pair in _defaults(t, v, source, notebook)
        ]
    raise RunnerError(
        f"the parameters cell of notebook {notebook} assigns {ast.get_source_segment(source, target)!r} on line "
        f"{target.lineno} from {ast.get_source_segment(source, value)!r}, not a tuple of as many values: give each "
        "parameter its own assignment"
    )


def read_notebook(path: str | os.PathLike[str]) -> Any:
    """The notebook at ``path`` (nbformat 4); a missing file, or a folder, is a :class:`RunnerError`."""
    import nbformat

    check_path(path, "path")  # str(None) would be read as a file named 'None'
    try:
        notebook = nbformat.read(str(path), as_version=4)
        nbformat.validate(notebook)
        return notebook
    except FileNotFoundError as exc:
        raise RunnerError(f"notebook {str(path)!r} does not exist") from exc
    except IsADirectoryError as exc:
        raise RunnerError(f"notebook {str(path)!r} is a directory, not a notebook file") from exc
    except (ValueError, TypeError, KeyError, AttributeError, nbformat.ValidationError) as exc:
        # not JSON (NotJSONError is a ValueError), or JSON that is not a notebook (nbformat's conversion
        # fails on missing or mistyped fields before its validation can say so)
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RunnerError(f"{str(path)!r} is not a Jupyter notebook: {first}") from exc
