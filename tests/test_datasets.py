"""Tests of :mod:`ndcg_research.datasets`: the MovieLens-100k reader on tiny files made here, the
download path's failure message, and one test of the real download (cached, pinned by hash)."""

from __future__ import annotations

import errno
import hashlib
import io
import os
import re
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import numpy as np
import pytest

from ndcg_research import datasets
from ndcg_research.datasets import _movielens

# Four made-up ratings in u.data format (user, item, rating, timestamp; tab-separated, no header).
TINY = b"3\t10\t4\t881250949\n1\t20\t5\t881250950\n3\t20\t1\t881250951\n2\t10\t2\t881250952\n"
TINY_ROWS = [[3, 10, 4, 881250949], [1, 20, 5, 881250950], [3, 20, 1, 881250951], [2, 10, 2, 881250952]]


def check_tiny(table):
    assert list(table.columns) == ["user", "item", "rating", "timestamp"]
    assert all(str(t) == "int64" for t in table.dtypes)
    assert table.to_numpy().tolist() == TINY_ROWS
    assert table.attrs["sha256"] == hashlib.sha256(TINY).hexdigest()


def test_reads_u_data(tmp_path):
    (tmp_path / "u.data").write_bytes(TINY)
    check_tiny(datasets.movielens_100k(tmp_path / "u.data"))
    check_tiny(datasets.movielens_100k(str(tmp_path)))  # the folder holding u.data


def test_reads_recbole_inter_with_the_same_hash_as_u_data(tmp_path):
    (tmp_path / "ml-100k.inter").write_bytes(datasets.INTER_HEADER.encode() + b"\n" + TINY)
    check_tiny(datasets.read_ratings(tmp_path / "ml-100k.inter"))


def test_reads_zip_and_wheel(tmp_path):
    grouplens = tmp_path / "ml-100k.zip"
    with zipfile.ZipFile(grouplens, "w") as z:
        z.writestr("ml-100k/u.item", "1|Toy Story (1995)|\n")
        z.writestr("ml-100k/u.data", TINY)
    check_tiny(datasets.read_ratings(grouplens))
    wheel = tmp_path / datasets.RECBOLE_WHEEL
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("recbole/__init__.py", "")
        z.writestr(datasets.RECBOLE_MEMBER, datasets.INTER_HEADER.encode() + b"\n" + TINY)
    check_tiny(datasets.read_ratings(wheel))


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(datasets.CACHE_ENV, str(tmp_path / "c"))
    assert datasets.cache_dir() == tmp_path / "c"
    monkeypatch.delenv(datasets.CACHE_ENV)
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert datasets.cache_dir() == tmp_path / "xdg" / "ndcg_research"


@pytest.mark.parametrize(
    "content, match",
    [
        (b"1\t2\t3\n", r"line 1: expected 4 tab-separated fields"),
        (b"1\t2\t3\t4\n5\t6\t3\t7\t9\n", r"not four tab-separated fields .*line 2"),
        (b"1\t2\t3\t4\n5\t6\t3\n", r"line 2: timestamp must be an integer, got ''"),
        (b"1\t2\t3.5\t4\n", r"line 1: rating must be an integer, got '3.5'"),
        (b"1\tx\t3\t4\n", r"line 1: item must be an integer, got 'x'"),
        (b"1\t2\t3\t4\n1\t5\t0\t4\n", r"line 2: rating must be an integer from 1 to 5, got 0"),
        (b"1\t2\t3\t4\n1\t3\t3\t4\n1\t2\t5\t9\n", r"line 3: user 1 rated item 2 a second time"),
        (b"1\t2\t3\t4\n\n2\t2\t3\t4\n", r"line 2: user must be an integer"),
        (b"", r"no ratings"),
        (b"user_id:token\titem_id:token\trating:float\n1\t2\t3\t4\n", r"line 1: expected the header"),
        (b"1\t2\t3\t4\xe9\n", r"u\.data line 1: not UTF-8 text \(byte 0xe9\)"),
        (b"1\t2\t3\t4\n5\t6\t\xff\t8\n", r"u\.data line 2: not UTF-8 text \(byte 0xff\)"),
        (b'"1"\t2\t3\t4\n', r"line 1: user must be an integer, got '\"1\"'"),  # quotes are not stripped
        (b'1\t"2\t3\t4\n5\t6\t3\t8\n', r"line 1: item must be an integer, got '\"2'"),  # nor span lines
        (b"1\t2\t3\t4\n-5\t6\t3\t8\n", r"u\.data line 2: user must be >= 0, got -5"),  # it was accepted
        (b"1\t2\t3\t-4\n", r"u\.data line 1: timestamp must be >= 0, got -4"),
        ("1\t\u0662\t3\t4\n".encode(), r"line 1: item must be an integer, got '\u0662'"),  # read as item 2
    ],
)
def test_bad_files_name_the_line(tmp_path, content, match):
    (tmp_path / "u.data").write_bytes(content)
    with pytest.raises(ValueError, match=match):
        datasets.read_ratings(tmp_path / "u.data")


def test_blank_lines_at_the_end_hold_no_rating(tmp_path):
    # One blank line at the end (an editor's) was refused as "user must be an integer, got ''"; the hash is the file's
    (tmp_path / "u.data").write_bytes(TINY + b"\n \n")
    table = datasets.read_ratings(tmp_path / "u.data")
    assert table.to_numpy().tolist() == TINY_ROWS
    assert table.attrs["sha256"] == hashlib.sha256(TINY + b"\n \n").hexdigest()


def test_inter_line_numbers_count_the_header(tmp_path):
    (tmp_path / "ml-100k.inter").write_bytes(datasets.INTER_HEADER.encode() + b"\n1\t2\t3\t4\n1\t2\t9\t4\n")
    with pytest.raises(ValueError, match=r"line 3: rating must be an integer from 1 to 5, got 9"):
        datasets.read_ratings(tmp_path / "ml-100k.inter")


def test_a_non_utf8_byte_after_the_inter_header_names_its_line(tmp_path):
    (tmp_path / "ml-100k.inter").write_bytes(datasets.INTER_HEADER.encode() + b"\n1\t2\t3\t4\n1\t3\t\xe93\t4\n")
    with pytest.raises(ValueError, match=r"ml-100k\.inter line 3: not UTF-8 text \(byte 0xe9\)"):
        datasets.read_ratings(tmp_path / "ml-100k.inter")


def test_damaged_zips_and_wheels_are_said_to_be_damaged(tmp_path):
    # A wheel whose member is large enough to be deflated into many bytes: 2,000 distinct ratings.
    lines = b"".join(b"%d\t%d\t%d\t%d\n" % (u, i, 1 + (u * i) % 5, 881250949 + i) for u in range(40) for i in range(50))
    good = tmp_path / "good.whl"
    with zipfile.ZipFile(good, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("recbole/__init__.py", "")
        z.writestr(datasets.RECBOLE_MEMBER, datasets.INTER_HEADER.encode() + b"\n" + lines)
    assert datasets.read_ratings(good).shape == (2000, 4)
    data = good.read_bytes()
    with zipfile.ZipFile(good) as z:
        info = z.getinfo(datasets.RECBOLE_MEMBER)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)  # the member's deflated bytes
    flipped = {name: bytearray(data) for name in ("flip_start.whl", "flip_middle.whl")}
    flipped["flip_start.whl"][start + 1] ^= 0xFF  # zlib's error (invalid code lengths set)
    flipped["flip_middle.whl"][start + info.compress_size // 2] ^= 0xFF  # zipfile's (Bad CRC-32)
    for name, content in [("half.zip", data[: len(data) // 2]), ("cut.whl", data[:-100]), *flipped.items()]:
        (tmp_path / name).write_bytes(bytes(content))
        with pytest.raises(ValueError, match=rf"^{re.escape(str(tmp_path / name))}: a damaged zip file"):
            datasets.movielens_100k(tmp_path / name)
    # Members compressed with bzip2 or xz, altered: OSError and LZMAError, not zlib's.
    for method in (zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        path = tmp_path / f"member_{method}.zip"
        with zipfile.ZipFile(path, "w", method) as z:
            z.writestr("u.data", lines)
        with zipfile.ZipFile(path) as z:
            info = z.getinfo("u.data")
        data = bytearray(path.read_bytes())
        start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
        data[start + 20 : start + 40] = bytes(20)
        path.write_bytes(bytes(data))
        with pytest.raises(ValueError, match=rf"^{re.escape(str(path))}: a damaged zip file"):
            datasets.read_ratings(path)
    # A member marked encrypted (flag bit 0 in its local and central headers): zipfile's RuntimeError.
    path = tmp_path / "encrypted.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("u.data", lines)
    data = bytearray(path.read_bytes())
    for header, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        data[data.index(header) + flags_at] |= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=rf"^{re.escape(str(path))}: a zip file this reader cannot open, encrypted"):
        datasets.read_ratings(path)


def test_the_hash_is_of_the_bytes_as_in_the_file(tmp_path):
    # The docstring's promise: a CRLF copy reads into the same table, with the hash of its own bytes.
    (tmp_path / "u.data").write_bytes(TINY.replace(b"\n", b"\r\n"))
    table = datasets.read_ratings(tmp_path / "u.data")
    assert table.to_numpy().tolist() == TINY_ROWS
    assert table.attrs["sha256"] == hashlib.sha256(TINY.replace(b"\n", b"\r\n")).hexdigest()


def test_missing_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such ratings file"):
        datasets.read_ratings(tmp_path / "nope.data")
    with pytest.raises(FileNotFoundError, match="no u.data"):
        datasets.read_ratings(tmp_path)
    with zipfile.ZipFile(tmp_path / "x.zip", "w") as z:
        z.writestr("readme.txt", "")
    with pytest.raises(FileNotFoundError, match="neither u.data nor ml-100k.inter"):
        datasets.read_ratings(tmp_path / "x.zip")


def test_unreachable_index_fails_with_advice(monkeypatch, tmp_path, capsys):
    # pip pointed at a closed local port, no other index, no pip cache: the download must fail
    # quickly and say what to do instead.
    for name, value in {
        "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
        "PIP_EXTRA_INDEX_URL": "",
        "PIP_FIND_LINKS": "",
        "PIP_NO_CACHE_DIR": "1",
        "PIP_CONFIG_FILE": "/dev/null",
        "PIP_CONSTRAINT": "",
        "PIP_RETRIES": "0",
        "PIP_DEFAULT_TIMEOUT": "2",
    }.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(
        datasets.DatasetUnavailableError, match=r"(?s)could not download recbole==1\.2\.1 from the package index.*path="
    ):
        datasets.movielens_100k(cache=tmp_path / "cache")
    assert "downloading MovieLens-100k" in capsys.readouterr().err
    assert not (tmp_path / "cache" / datasets.RECBOLE_WHEEL).exists()
    assert list((tmp_path / "cache").iterdir()) == []  # no half-written download left behind


def test_cached_wheel_with_a_wrong_hash_is_not_used(monkeypatch, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    wheel = cache / datasets.RECBOLE_WHEEL
    with zipfile.ZipFile(wheel, "w") as z:  # a look-alike wheel with other data
        z.writestr(datasets.RECBOLE_MEMBER, datasets.INTER_HEADER.encode() + b"\n" + TINY)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    for name, value in {
        "PIP_EXTRA_INDEX_URL": "",
        "PIP_FIND_LINKS": "",
        "PIP_NO_CACHE_DIR": "1",
        "PIP_CONFIG_FILE": "/dev/null",
        "PIP_CONSTRAINT": "",
        "PIP_RETRIES": "0",
        "PIP_DEFAULT_TIMEOUT": "2",
    }.items():
        monkeypatch.setenv(name, value)
    look_alike = wheel.read_bytes()
    with pytest.raises(datasets.DatasetUnavailableError):
        datasets.movielens_100k(cache=cache, verbose=False)
    # Never read, and kept until a verified download replaces it (deleting it could delete another process's
    # good download: see test_concurrent_fetches_never_fail_nor_delete_a_good_wheel).
    assert wheel.read_bytes() == look_alike


def test_a_failed_download_says_the_cached_wheel_failed_its_hash(monkeypatch, tmp_path):
    # Without an index, the error said only that the download failed (the note on the bad hash is verbose only).
    calls = fake_index(monkeypatch, None)
    wheel = tmp_path / datasets.RECBOLE_WHEEL
    wheel.write_bytes(b"PK\x03\x04 cut short")
    with pytest.raises(datasets.DatasetUnavailableError) as caught:
        datasets.fetch_recbole_wheel(tmp_path, verbose=False)
    said = str(caught.value)
    assert said.startswith(f"the cached {str(wheel)!r} failed its SHA-256 check, and could not download ")
    assert "no network" in said and len(calls) == 1


# A look-alike of RecBole's wheel (TINY as its ratings), "published" by the stand-in for pip below.
def look_alike_wheel() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(datasets.RECBOLE_MEMBER, datasets.INTER_HEADER.encode() + b"\n" + TINY)
    return buffer.getvalue()


def fake_index(monkeypatch, wheel: bytes | None) -> list:
    """pip replaced by a stand-in that downloads ``wheel`` (None: fails, as without network), and the pinned
    hash by that wheel's; returns the list of pip's calls."""
    calls: list = []

    def run(command, **_):
        calls.append(command)
        if wheel is None:
            return subprocess.CompletedProcess(command, 1, "", "ERROR: no network")
        (Path(command[command.index("--dest") + 1]) / datasets.RECBOLE_WHEEL).write_bytes(wheel)
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(_movielens, "subprocess", types.SimpleNamespace(run=run))
    monkeypatch.setattr(_movielens, "RECBOLE_WHEEL_SHA256", hashlib.sha256(look_alike_wheel()).hexdigest())
    return calls


def make_read_only(monkeypatch, folder: Path) -> None:
    """chmod 555, and the refusals simulated too for root (whom the permission bits do not stop)."""
    folder.chmod(0o555)

    def refusing(real):
        def call(*args, **kwargs):
            if any(isinstance(a, (str, os.PathLike)) and Path(a).parent == folder for a in args):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(args[0]))
            return real(*args, **kwargs)

        return call

    for name in ("mkdir", "rmdir", "unlink", "replace", "rename"):
        monkeypatch.setattr(os, name, refusing(getattr(os, name)))


@pytest.mark.parametrize("cached", [None, b"PK\x03\x04 cut short"])
def test_a_read_only_cache_folder_gives_the_documented_error(monkeypatch, tmp_path, cached):
    calls = fake_index(monkeypatch, look_alike_wheel())
    cache = tmp_path / "cache"
    cache.mkdir()
    if cached is not None:
        (cache / datasets.RECBOLE_WHEEL).write_bytes(cached)
    make_read_only(monkeypatch, cache)
    try:
        with pytest.raises(
            datasets.DatasetUnavailableError,
            match=rf"(?s)cannot write in the cache folder '{re.escape(str(cache))}'.*{datasets.CACHE_ENV}.*path=",
        ):
            datasets.fetch_recbole_wheel(cache, verbose=False)
    finally:
        cache.chmod(0o755)
    assert calls == []


def test_a_read_only_cache_folder_with_a_good_wheel_works(monkeypatch, tmp_path):
    calls = fake_index(monkeypatch, None)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / datasets.RECBOLE_WHEEL).write_bytes(look_alike_wheel())
    make_read_only(monkeypatch, cache)
    try:
        check_tiny(datasets.movielens_100k(cache=cache, verbose=False))
    finally:
        cache.chmod(0o755)
    assert calls == []


def test_a_folder_named_like_the_wheel_is_refused_before_downloading(monkeypatch, tmp_path):
    calls = fake_index(monkeypatch, look_alike_wheel())
    (tmp_path / datasets.RECBOLE_WHEEL).mkdir()
    with pytest.raises(
        datasets.DatasetUnavailableError, match=rf"'{re.escape(str(tmp_path / datasets.RECBOLE_WHEEL))}' is not a file"
    ):
        datasets.fetch_recbole_wheel(tmp_path, verbose=False)
    assert calls == []


@pytest.mark.parametrize("other_process", ["removes the bad wheel", "puts a good wheel in place"])
def test_concurrent_fetches_never_fail_nor_delete_a_good_wheel(monkeypatch, tmp_path, other_process):
    # Another process acts between this one's check of the cached wheel and what follows: it removes the
    # bad wheel (this one must not fail), or puts a good one in place (this one must not delete it, even
    # if its own download fails).
    good = look_alike_wheel()
    fake_index(monkeypatch, good if other_process == "removes the bad wheel" else None)
    target = tmp_path / datasets.RECBOLE_WHEEL
    target.write_bytes(good[:-1])
    checked = _movielens._sha256_file

    def check_then_other_process(path):
        digest = checked(path)
        if path == target and other_process == "removes the bad wheel":
            target.unlink()
        elif path == target:
            target.write_bytes(good)
        return digest

    monkeypatch.setattr(_movielens, "_sha256_file", check_then_other_process)
    if other_process == "removes the bad wheel":
        assert datasets.fetch_recbole_wheel(tmp_path, verbose=False) == target
        assert sorted(os.listdir(tmp_path)) == [datasets.RECBOLE_WHEEL]  # no download folder left behind
    else:
        with pytest.raises(datasets.DatasetUnavailableError, match="could not download"):
            datasets.fetch_recbole_wheel(tmp_path, verbose=False)
    assert target.read_bytes() == good


def test_real_download_is_cached_and_pinned_by_hash():
    """The real path: RecBole's wheel from the package index (once; then the per-user cache)."""
    wheel = datasets.fetch_recbole_wheel(verbose=True)
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == (
        "9c9948202011f37eb0a7c6768129313f00d6403ad221ec940d5e2d5d5f33a407"  # the wheel's published SHA-256
    )
    ratings = datasets.movielens_100k()
    # GroupLens's description of ml-100k: 100,000 ratings (1-5) from 943 users on 1,682 movies,
    # each user has rated at least 20 movies; and the published SHA-256 of its u.data.
    assert ratings.shape == (100_000, 4)
    assert ratings["user"].nunique() == 943 and ratings["item"].nunique() == 1682
    assert sorted(ratings["user"].unique()) == list(range(1, 944))
    assert sorted(ratings["item"].unique()) == list(range(1, 1683))
    assert set(ratings["rating"].unique()) == {1, 2, 3, 4, 5}
    assert ratings.groupby("user").size().min() >= 20
    assert ratings.attrs["sha256"] == "06416e597f82b7342361e41163890c81036900f418ad91315590814211dca490"
    assert np.all(ratings["timestamp"].to_numpy() > 8.7e8)  # 1997-1998


def test_the_suite_keeps_its_caches_in_the_temporary_folder(tmp_path):
    """No test writes into the user's home: the package's cache, ir_datasets' and matplotlib's are the session's."""
    import os
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    temporary = Path(tempfile.gettempdir()).resolve()
    for variable in ("NDCG_RESEARCH_CACHE", "IR_DATASETS_HOME", "MPLCONFIGDIR"):
        assert Path(os.environ[variable]).resolve().is_relative_to(temporary), variable
    assert datasets.cache_dir().resolve().is_relative_to(temporary)
    # ir_datasets makes its folders on import (ir_measures imports it): in the session's folder, not in HOME.
    subprocess.run(
        [sys.executable, "-c", "import ir_measures, ir_datasets"], check=True, env={**os.environ, "HOME": str(tmp_path)}
    )
    assert not (tmp_path / ".ir_datasets").exists()
