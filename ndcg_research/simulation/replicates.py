"""Replicates of a study: their seeds (the same numbers whatever the worker, order or chunking), and chunks of them
run in this process or through joblib, each saved atomically in a cache folder so that an interrupted run resumes.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numpy as np

from .._validation import check_bool, check_instance, check_int

#: Default number of items (replicates x list length) per chunk of work.
CHUNK_ITEMS = 2_000_000

T = TypeVar("T")
R = TypeVar("R")


def seed_sequence(seed: int, *key: int) -> np.random.SeedSequence:
    """``SeedSequence(seed, spawn_key=key)``: the seed of one replicate, e.g. key (experiment, n, replicate, stream);
    ``seed`` an integer >= 0 (None would draw entropy from the system: numbers no one could reproduce)."""
    return np.random.SeedSequence(check_int(seed, "seed", low=0), spawn_key=key)


def replicate_rng(seed: int, *key: int) -> np.random.Generator:
    """The generator (PCG64) seeded by :func:`seed_sequence`."""
    return np.random.default_rng(seed_sequence(seed, *key))


def replicate_counts(
    ns: Iterable[int], replicates: int | Sequence[int] | Mapping[int, int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sorted distinct list lengths and the replicates at each (one count for all, one per n, or ``{n: count}``):
    integers >= 1."""
    ns_list = [check_int(n, "list length in ns", low=1) for n in check_instance(ns, "ns", Iterable, what="a list")]
    if not ns_list or len(set(ns_list)) != len(ns_list):
        raise ValueError(f"ns must be a non-empty list of distinct list lengths, got {ns_list!r}")
    if isinstance(replicates, Mapping):
        if missing := [n for n in ns_list if n not in replicates]:
            raise ValueError(f"replicates gives no count for n = {missing}")
        if extra := [n for n in replicates if n not in ns_list]:
            raise ValueError(f"replicates gives counts for n = {extra}, which ns {ns_list} does not have")
        counts = [replicates[n] for n in ns_list]
    elif isinstance(replicates, Sequence) and not isinstance(replicates, str):
        counts = list(replicates)
        if len(counts) != len(ns_list):
            raise ValueError(f"replicates must give one count per n ({len(ns_list)}), got {counts!r}")
    else:
        counts = [replicates] * len(ns_list)
    counts = [check_int(count, "replicates", low=1) for count in counts]
    pairs = sorted(zip(ns_list, counts, strict=True))
    return tuple(n for n, _ in pairs), tuple(r for _, r in pairs)


class Chunk(NamedTuple):
    """Replicates ``start`` to ``stop - 1`` at list length ``n``."""

    n: int
    start: int
    stop: int


def plan_chunks(ns: Sequence[int], replicates: Sequence[int], chunk_items: int = CHUNK_ITEMS) -> list[Chunk]:
    """Split the replicates of every n into chunks of about ``chunk_items`` items, at multiples of
    ``max(1, chunk_items // n)``: boundaries do not move when replicates are added, finished chunks stay reusable."""
    check_int(chunk_items, "chunk_items", low=1)
    out = []
    for n, count in zip(ns, replicates, strict=True):
        out.extend(Chunk(n, start, stop) for start, stop in chunk_bounds(count, max(1, chunk_items // n)))
    return out


def chunk_bounds(count: int, size: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of consecutive chunks of ``size`` replicates out of ``count`` (the last one shorter): integers,
    count >= 0 and size >= 1."""
    count, size = check_int(count, "count", low=0), check_int(size, "size", low=1)
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def _single_threaded(function: Callable[[T], R], item: T) -> tuple[T, R]:
    """``(item, function(item))`` on one BLAS thread, whatever the worker: the values do not depend on ``n_jobs``
    (OpenBLAS splits a dot product by its threads, which moves the last bits), and idle BLAS threads would stall on
    busy cores. threadpoolctl is required, as tqdm is (the ``notebooks`` and ``experiments`` extras)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1, user_api="blas"):
        return item, function(item)


def parallel_map(
    function: Callable[[T], R], items: Iterable[T], *, n_jobs: int = 1, backend: str | None = None
) -> Iterator[tuple[T, R]]:
    """Yield ``(item, function(item))`` in the order the results finish: in this process (``n_jobs == 1`` without
    a backend) or through joblib (e.g. ``backend="dask"`` with a running client); one BLAS thread per call. A backend
    that cannot yield results as they finish (``"multiprocessing"``) gives them all at the end."""
    if check_int(n_jobs, "n_jobs") == 0:
        raise ValueError("n_jobs must be a number of workers >= 1, or negative as in joblib (-1: every core), got 0")
    if n_jobs == 1 and backend is None:
        yield from (_single_threaded(function, item) for item in items)
        return
    import joblib

    config = joblib.parallel_config(backend=backend) if backend is not None else contextlib.nullcontext()
    with config:
        try:
            parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        except ValueError:  # "Backend ... does not support return_as=generator_unordered": a list at the end
            parallel = joblib.Parallel(n_jobs=n_jobs, return_as="list")
        yield from parallel(joblib.delayed(_single_threaded)(function, item) for item in items)


@dataclass
class ChunkRun:
    """Values of every chunk, joined per list length: ``values[n]`` stacks replicates along axis 0."""

    values: dict[int, np.ndarray]
    computed: int
    reused: int


def run_chunks(
    compute: Callable[[Chunk], np.ndarray],
    chunks: Sequence[Chunk],
    *,
    n_jobs: int = 1,
    backend: str | None = None,
    cache: str | os.PathLike[str] | None = None,
    description: Mapping[str, Any] | None = None,
    progress: bool | None = None,
    label: str = "",
    row_shape: Sequence[int] = (),
) -> ChunkRun:
    """Compute (or load from the ``cache`` folder, which must belong to this computation alone) every chunk:
    ``compute`` gives one row of shape ``row_shape`` per replicate (a cached chunk that cannot be read or has not that
    shape is computed again, with a warning); ``description`` is written once into the cache folder, for humans;
    ``progress``: a tqdm bar (default: when stderr is a terminal)."""
    folder = None if cache is None else Path(cache)
    done: dict[Chunk, np.ndarray] = {}
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        about = folder / "description.json"
        if description is not None and not about.exists():
            about.write_text(json.dumps(dict(description), indent=1, default=str) + "\n", encoding="utf-8")
        for c in chunks:
            if (values := _cached(_chunk_path(folder, c), (c.stop - c.start, *row_shape))) is not None:
                done[c] = values
    todo = [c for c in chunks if c not in done]

    from tqdm import tqdm

    show = sys.stderr.isatty() if progress is None else check_bool(progress, "progress")
    total, initial = (sum(c.stop - c.start for c in group) for group in (chunks, done))
    with tqdm(total=total, initial=initial, disable=not show, desc=label, unit="rep", leave=False) as bar:
        for chunk, values in parallel_map(compute, todo, n_jobs=n_jobs, backend=backend):
            if folder is not None:
                _save_atomically(_chunk_path(folder, chunk), values)
            done[chunk] = values
            bar.update(chunk.stop - chunk.start)
    values = {n: np.concatenate([done[c] for c in chunks if c.n == n]) for n in dict.fromkeys(c.n for c in chunks)}
    return ChunkRun(values, computed=len(todo), reused=len(chunks) - len(todo))


def _chunk_path(folder: Path, chunk: Chunk) -> Path:
    return folder / f"n{chunk.n}_r{chunk.start}-{chunk.stop}.npy"


def _cached(path: Path, shape: tuple[int, ...]) -> np.ndarray | None:
    """The values saved at ``path`` if they have ``shape``; None if there are none, or (with a warning) if the file
    cannot be read or has another shape. Changed values of the right shape are not detected (no checksum)."""
    if not path.exists():
        return None
    try:
        with open(path, "rb") as file:  # a .npy file only (np.load would open a .npz file too)
            values = np.lib.format.read_array(file, allow_pickle=False)
    except IsADirectoryError:
        raise IsADirectoryError(f"the cached chunk {path} is a folder: remove it") from None
    except (OSError, ValueError, EOFError) as error:  # truncated, empty, not a .npy file, pickled objects
        problem = f"cannot be read ({type(error).__name__}: {error})"
    else:
        if values.shape == shape:
            return values
        problem = f"has shape {values.shape}, not {shape}"
    warnings.warn(f"the cached chunk {path} {problem}: computing it again", RuntimeWarning, stacklevel=3)
    return None


def _save_atomically(path: Path, values: np.ndarray) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, values)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _package_imports(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Modules of this package imported anywhere in ``tree`` (``from pkg import mod`` counts ``pkg.mod``)."""
    root = module.split(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == root)
        elif isinstance(node, ast.ImportFrom):
            package = module if is_package else module.rpartition(".")[0]
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            if base.split(".")[0] == root:
                found.add(base)
                found.update(f"{base}.{a.name}" for a in node.names)
    return found


def code_fingerprint(module: str, package: Path | None = None) -> str:
    """16 hex digits hashing the code ``module`` runs (its syntax tree and those of the package modules it imports,
    without docstrings and comments) and the numpy version: a cache key blind to documentation. ``package``: the source
    folder (default: this installed package)."""
    if package is None:  # the installed package does not change while it runs: hash it once
        return _installed_fingerprint(module)
    package = Path(package)
    trees: dict[str, str] = {}
    todo = [module]
    while todo:
        current = todo.pop()
        if current in trees or current.split(".")[0] != package.name:
            continue
        relative = Path(*current.split(".")[1:])
        is_package = (package / relative).is_dir()
        path = package / relative / "__init__.py" if is_package else package / relative.with_suffix(".py")
        if not path.is_file():  # a name imported from a module, not a module
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        todo.extend(sorted(_package_imports(tree, current, path.name == "__init__.py")))
        for node in ast.walk(tree):  # without docstrings
            kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
            if isinstance(node, kinds) and ast.get_docstring(node, clean=False) is not None:
                node.body = node.body[1:] or [ast.Pass()]
        trees[current] = ast.dump(tree)
    if module not in trees:
        raise ValueError(f"module must name a module of {package.name}, got {module!r}")
    digest = hashlib.sha256(f"numpy {np.__version__}".encode())
    for name in sorted(trees):  # a fixed order: the hash must not depend on the order of discovery
        digest.update(name.encode() + b"\0" + trees[name].encode() + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def _installed_fingerprint(module: str) -> str:
    return code_fingerprint(module, Path(__file__).resolve().parents[1])  # ndcg_research/simulation/ -> ndcg_research
