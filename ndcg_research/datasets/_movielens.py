"""MovieLens-100k (Harper & Konstan, ACM TiiS 2015): fetched on demand, since its licence forbids redistribution.
RecBole's wheel is fetched with pip (``--no-deps``: RecBole would pull in torch), its SHA-256 checked;
``attrs["sha256"]`` hashes the rating lines' bytes as read, so a figure's provenance names its data exactly."""

import csv
import hashlib
import io
import lzma
import os
import re
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from .._validation import check_bool, check_path

__all__ = [  # the public names of ndcg_research.datasets
    "movielens_100k",
    "read_ratings",
    "cache_dir",
    "fetch_recbole_wheel",
    "DatasetUnavailableError",
    "MOVIELENS_100K_CITATION",
    "RECBOLE_REQUIREMENT",
    "RECBOLE_WHEEL",
    "RECBOLE_WHEEL_SHA256",
    "RECBOLE_MEMBER",
    "U_DATA_SHA256",
    "CACHE_ENV",
    "COLUMNS",
    "INTER_HEADER",
]

#: Environment variable that overrides the cache folder.
CACHE_ENV = "NDCG_RESEARCH_CACHE"
#: Column names of the returned ratings table.
COLUMNS: tuple[str, ...] = ("user", "item", "rating", "timestamp")
#: How to cite the data (README, figure captions).
MOVIELENS_100K_CITATION = (
    "MovieLens-100k (F. M. Harper and J. A. Konstan, The MovieLens Datasets: History and Context, ACM TiiS 5(4), 2015)"
)
#: The PyPI release whose wheel carries the ratings.
RECBOLE_REQUIREMENT = "recbole==1.2.1"
#: The file name of that wheel.
RECBOLE_WHEEL = "recbole-1.2.1-py3-none-any.whl"
#: The SHA-256 of that wheel, checked after every download.
RECBOLE_WHEEL_SHA256 = "9c9948202011f37eb0a7c6768129313f00d6403ad221ec940d5e2d5d5f33a407"
#: The ratings file inside the wheel.
RECBOLE_MEMBER = "recbole/dataset_example/ml-100k/ml-100k.inter"
#: SHA-256 of GroupLens's ``ml-100k/u.data`` (as published by projects that pin it); the lines of
#: RecBole's ``ml-100k.inter`` after its header hash to the same value: they are ``u.data`` byte for byte.
U_DATA_SHA256 = "06416e597f82b7342361e41163890c81036900f418ad91315590814211dca490"
#: The header line of the ratings file inside the wheel.
INTER_HEADER = "user_id:token\titem_id:token\trating:float\ttimestamp:float"

# pip download's options: the wheel alone (RecBole would pull in torch), quietly, giving up soon without network.
_PIP_OPTIONS = "--no-deps --only-binary=:all: --no-input --disable-pip-version-check --retries 1 --timeout 30".split()
_GROUPLENS_HINT = (
    "download ml-100k.zip from GroupLens (https://grouplens.org/datasets/movielens/100k/), unzip it "
    "and pass the file: movielens_100k(path='.../ml-100k/u.data')"
)


class DatasetUnavailableError(RuntimeError):
    """The data could not be fetched or verified; the message says what to do instead."""


def cache_dir() -> Path:
    """The per-user folder where downloaded data are kept (created on first download).

    ``$NDCG_RESEARCH_CACHE`` if set; otherwise the platform's user cache folder:
    ``$XDG_CACHE_HOME/ndcg_research`` or ``~/.cache/ndcg_research`` on Linux,
    ``~/Library/Caches/ndcg_research`` on macOS, ``%LOCALAPPDATA%\\ndcg_research\\Cache`` on Windows.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os
    >>> before = os.environ.get(CACHE_ENV)
    >>> os.environ[CACHE_ENV] = "/tmp/my-cache"
    >>> str(cache_dir())
    '/tmp/my-cache'
    >>> _ = os.environ.pop(CACHE_ENV) if before is None else os.environ.update({CACHE_ENV: before})
    >>> cache_dir().name in {"ndcg_research", "Cache"}
    True
    """
    override = os.environ.get(CACHE_ENV, "")
    if override:
        return Path(override).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "ndcg_research" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "ndcg_research"
    return Path(os.environ.get("XDG_CACHE_HOME", "") or home / ".cache") / "ndcg_research"


def movielens_100k(
    path: str | os.PathLike[str] | None = None, *, cache: str | os.PathLike[str] | None = None, verbose: bool = True
) -> Any:
    """MovieLens-100k ratings as a pandas DataFrame (Harper & Konstan, ACM TiiS 2015).

    Parameters
    ----------
    path : str or path-like, optional
        A local copy: GroupLens's ``u.data`` (or the folder or ``ml-100k.zip`` that holds it),
        RecBole's ``ml-100k.inter``, or RecBole's wheel. Default: RecBole 1.2.1's wheel from
        PyPI, downloaded once into ``cache`` and checked against ``RECBOLE_WHEEL_SHA256``.
    cache : str or path-like, optional
        Folder for the downloaded wheel; default ``cache_dir``.
    verbose : bool, default True
        Say on standard error what is being downloaded and where (only when downloading).

    Returns
    -------
    pandas.DataFrame
        Columns ``user``, ``item``, ``rating`` (1-5), ``timestamp`` (Unix seconds), all int64, in file
        order. ``attrs["source"]`` names the file read, ``attrs["sha256"]`` is the SHA-256 of its rating
        lines' bytes as they are in the file (after ``ml-100k.inter``'s header): ``U_DATA_SHA256`` for the
        full data set, from either source; a copy with other line ends (CRLF) gives the same table and
        another hash.

    Raises
    ------
    DatasetUnavailableError
        If the wheel cannot be downloaded (no network, no pip, a cache folder that cannot be written)
        or does not match its hash; the message says how to pass a local copy with ``path=``.
    FileNotFoundError, ValueError
        If ``path`` does not exist or does not hold ratings in one of the formats above.

    Examples
    --------
    >>> ratings = movielens_100k()  # doctest: +SKIP
    >>> ratings.shape, ratings["user"].nunique(), ratings["item"].nunique()  # doctest: +SKIP
    ((100000, 4), 943, 1682)

    A local copy (here a two-line file in ``u.data`` format):

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "u.data").write_text("196\\t242\\t3\\t881250949\\n186\\t302\\t3\\t891717742\\n")
    >>> movielens_100k(folder / "u.data").to_dict("list")
    {'user': [196, 186], 'item': [242, 302], 'rating': [3, 3], 'timestamp': [881250949, 891717742]}
    """
    path = None if path is None else check_path(path, "path")
    cache = None if cache is None else check_path(cache, "cache")
    verbose = check_bool(verbose, "verbose")
    return read_ratings(path if path is not None else fetch_recbole_wheel(cache, verbose=verbose))


def fetch_recbole_wheel(cache: str | os.PathLike[str] | None = None, *, verbose: bool = True) -> Path:
    """Path of RecBole 1.2.1's wheel in the cache, downloaded with pip if needed, its SHA-256 checked.

    Parameters
    ----------
    cache : str or path-like, optional
        Cache folder; default ``cache_dir``.
    verbose : bool, default True
        Say on standard error what is being downloaded.

    Returns
    -------
    pathlib.Path
        The cached wheel, whose SHA-256 equals ``RECBOLE_WHEEL_SHA256``.

    Raises
    ------
    DatasetUnavailableError
        If pip fails (no network, say), the file's hash differs, the cache folder cannot be written,
        or the wheel's path in it is not a file.

    Examples
    --------
    >>> (cache_dir() / RECBOLE_WHEEL).name  # where it is kept
    'recbole-1.2.1-py3-none-any.whl'
    """
    cache = None if cache is None else check_path(cache, "cache")
    verbose = check_bool(verbose, "verbose")
    folder = Path(cache).expanduser() if cache is not None else cache_dir()
    target = folder / RECBOLE_WHEEL
    if target.exists() and not target.is_file():
        raise DatasetUnavailableError(
            f"{str(target)!r} is not a file: remove it, set {CACHE_ENV} to another folder, or {_GROUPLENS_HINT}"
        )
    failed = ""  # why a download is needed, said again by any error below (the note is only said when verbose)
    if target.is_file():
        if _sha256_file(target) == RECBOLE_WHEEL_SHA256:
            return target
        # Kept until a verified download replaces it (os.replace, atomic): another process may be doing the same.
        failed = f"the cached {str(target)!r} failed its SHA-256 check, and "
        _say(verbose, f"ndcg_research: the cached {target} does not match its SHA-256; downloading it again")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        download = tempfile.TemporaryDirectory(dir=folder, prefix=".download-")
    except OSError as error:
        raise DatasetUnavailableError(
            f"{failed}cannot write in the cache folder {str(folder)!r} ({error}); set {CACHE_ENV} to a writable "
            f"folder, or {_GROUPLENS_HINT}"
        ) from None
    _say(
        verbose,
        f"ndcg_research: downloading MovieLens-100k (Harper & Konstan 2015) inside the 2.1 MB wheel of "
        f"{RECBOLE_REQUIREMENT} from the package index with pip, into {folder} (once; later calls read the cache) ...",
    )
    with download as tmp:
        command = [sys.executable, "-m", "pip", "download", RECBOLE_REQUIREMENT, "--dest", tmp, *_PIP_OPTIONS]
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as error:
            raise DatasetUnavailableError(f"{failed}could not run pip ({error}); {_GROUPLENS_HINT}") from None
        downloaded = Path(tmp) / RECBOLE_WHEEL
        if done.returncode != 0 or not downloaded.is_file():
            said = "\n".join((done.stderr or done.stdout or "").strip().splitlines()[-3:])
            raise DatasetUnavailableError(
                f"{failed}could not download {RECBOLE_REQUIREMENT} from the package index (pip exit status "
                f"{done.returncode}: {said or 'no message'}). Without network access, {_GROUPLENS_HINT}"
            )
        digest = _sha256_file(downloaded)
        if digest != RECBOLE_WHEEL_SHA256:
            raise DatasetUnavailableError(
                f"{failed}the downloaded {RECBOLE_WHEEL} has SHA-256 {digest}, expected {RECBOLE_WHEEL_SHA256}: "
                f"refusing to use it; {_GROUPLENS_HINT}"
            )
        os.replace(downloaded, target)
    _say(verbose, f"ndcg_research: done; SHA-256 checked, cached as {target}")
    return target


def read_ratings(path: str | os.PathLike[str]) -> Any:
    """Read MovieLens-100k ratings from a local file, folder, zip or wheel.

    Parameters
    ----------
    path : str or path-like
        ``u.data`` (tab-separated ``user item rating timestamp``), RecBole's ``ml-100k.inter``
        (the same after ``INTER_HEADER``), or a folder, zip or wheel holding either.

    Returns
    -------
    pandas.DataFrame
        As ``movielens_100k``.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist, or a folder or zip holds no ratings file.
    ValueError
        If a line is not UTF-8 text or does not have four tab-separated integers (ASCII digits, an optional
        sign and zero fraction, as ``+3.0``; blanks around a field and blank lines at the end are skipped;
        unquoted), a rating is outside 1-5, an id or a timestamp is negative,
        or a (user, item) pair is rated twice: the message names the file and
        the line; or if a zip or wheel is damaged (cut short, altered): the message names the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "u.data"
    >>> _ = file.write_text("1\\t2\\t6\\t0\\n")
    >>> read_ratings(file)
    Traceback (most recent call last):
    ...
    ValueError: ...u.data line 1: rating must be an integer from 1 to 5, got 6
    """
    file = Path(check_path(path, "path")).expanduser()
    if file.is_dir():
        candidates = [file / "u.data", file / "ml-100k" / "u.data", file / "ml-100k.inter"]
        found = next((c for c in candidates if c.is_file()), None)
        if found is None:
            raise FileNotFoundError(f"no u.data or ml-100k.inter in the folder {str(file)!r}")
        file = found
    if not file.is_file():
        raise FileNotFoundError(f"no such ratings file: {str(file)!r}")
    data = file.read_bytes()
    if not data.startswith(b"PK") and not zipfile.is_zipfile(io.BytesIO(data)):  # "PK": a zip, even if cut short
        return _parse(data, str(file))
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            member = next((n for n in names if n == RECBOLE_MEMBER or n.endswith("ml-100k.inter")), None)
            member = member or next((n for n in names if n == "u.data" or n.endswith("/u.data")), None)
            if member is None:
                raise FileNotFoundError(f"{str(file)!r} holds neither u.data nor ml-100k.inter")
            data = archive.read(member)
    except FileNotFoundError:  # (no ratings member)
        raise
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError) as error:  # deflate, xz, bzip2 members
        raise ValueError(f"{file}: a damaged zip file, cut short or altered ({error})") from None
    except (RuntimeError, NotImplementedError) as error:
        raise ValueError(
            f"{file}: a zip file this reader cannot open, encrypted or compressed otherwise ({error})"
        ) from None
    return _parse(data, f"{file}!{member}")


def _parse(data: bytes, source: str) -> Any:
    import pandas as pd

    first_line = 1
    if data.startswith(b"user_id:"):  # RecBole's .inter: one header line, then u.data's lines
        header, _, data = data.partition(b"\n")
        if header.decode("utf-8", "replace").rstrip("\r") != INTER_HEADER:
            raise ValueError(f"{source} line 1: expected the header {INTER_HEADER!r}, got {header[:200]!r}")
        first_line = 2
    if not data.strip():
        raise ValueError(f"{source}: no ratings")
    digest = hashlib.sha256(data).hexdigest()
    data = re.sub(rb"\s+\Z", b"\n", data)  # blank lines at the end (an editor's) hold no rating
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = first_line + data.count(b"\n", 0, error.start)
        raise ValueError(f"{source} line {line}: not UTF-8 text (byte {data[error.start]:#04x})") from None
    try:
        table = pd.read_csv(
            io.BytesIO(data),
            sep="\t",
            header=None,
            dtype=str,
            keep_default_na=False,
            skip_blank_lines=False,
            quoting=csv.QUOTE_NONE,  # a quote is text, refused below as not an integer
        )
    except pd.errors.ParserError as error:  # a line with more fields than the first
        detail = " ".join(str(error).split())
        raise ValueError(f"{source}: not four tab-separated fields per line ({detail})") from None
    if table.shape[1] != len(COLUMNS):
        raise ValueError(
            f"{source} line {first_line}: expected {len(COLUMNS)} tab-separated fields "
            f"(user, item, rating, timestamp), got {table.shape[1]}"
        )
    text = table.apply(lambda column: column.str.strip())
    # [0-9], not \d: Python's \d matches every script's digits (int() reads '١٢' as 12)
    ok = text.apply(lambda column: column.str.fullmatch(r"[+-]?[0-9]{1,18}(\.0*)?")).to_numpy(dtype=bool)
    if not ok.all():
        j, i = (int(k) for k in np.argwhere(~ok.T)[0])  # the first bad value of the first column with one
        raise ValueError(f"{source} line {first_line + i}: {COLUMNS[j]} must be an integer, got {table.iat[i, j]!r}")
    values = text.replace(r"\.0*$", "", regex=True).astype(np.int64).to_numpy()
    ratings = pd.DataFrame(values, columns=list(COLUMNS))
    bad = np.flatnonzero((values[:, 2] < 1) | (values[:, 2] > 5))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{source} line {first_line + i}: rating must be an integer from 1 to 5, got {values[i, 2]}")
    if (negative := np.argwhere(values < 0)).size:  # ids and Unix times are never negative
        i, j = (int(k) for k in negative[0])
        raise ValueError(f"{source} line {first_line + i}: {COLUMNS[j]} must be >= 0, got {values[i, j]}")
    twice = ratings.duplicated(["user", "item"]).to_numpy()
    if twice.any():
        i = int(np.flatnonzero(twice)[0])
        raise ValueError(
            f"{source} line {first_line + i}: user {values[i, 0]} rated item {values[i, 1]} "
            f"a second time; one rating per (user, item) is expected"
        )
    ratings.attrs["source"] = source
    ratings.attrs["sha256"] = digest
    return ratings


def _sha256_file(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _say(verbose: bool, message: str) -> None:
    if verbose:
        print(message, file=sys.stderr, flush=True)
