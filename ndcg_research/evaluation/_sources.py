"""Input bytes as blocks of lines: files (gzip, bzip2, xz recognised by content; zstd, zip, 7-zip refused) or stdin.
A damaged stream, a byte-order mark, a lone \\r and a NUL are refused (trec_eval would read them)."""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

#: The path that means standard input (as for trec_eval's results file).
STDIN = "-"
#: Bytes per block of lines: reading one (pyarrow) overlaps evaluating the one before (numpy) on two cores; 2 MB beat 1,
#: 4 and 8 MB at 250,000 and 10^7 run lines (benchmarks/bench_evaluate.py); a block's evaluation holds ~10x its size.
BLOCK_SIZE = 2 << 20

# magic bytes -> (format, module that opens it or None, command); a module is imported only for its data. bzip2's
# "BZh" is text too (a query id): its level digit and its first block's (or end's) magic are required with it.
_COMPRESSED: dict[re.Pattern[bytes], tuple[str, str | None, str | None]] = {
    re.compile(rb"\x1f\x8b"): ("gzip", "gzip", None),
    re.compile(rb"BZh[1-9](?:1AY&SY|\x17rE8P\x90)"): ("bzip2", "bz2", None),
    re.compile(rb"\xfd7zXZ\x00"): ("xz", "lzma", None),
    re.compile(rb"\x28\xb5\x2f\xfd"): ("zstd", None, "zstd -d"),
    re.compile(rb"PK\x03\x04"): ("zip", None, "unzip"),
    re.compile(rb"7z\xbc\xaf\x27\x1c"): ("7-zip", None, "7z x"),
    re.compile(rb"\x5d\x00\x00"): ("lzma", None, "xz -d"),  # legacy .lzma, with xz's default header (NULs: never text)
}
#: Bytes that tell every format above (bzip2's header is the longest).
_MAGIC_SIZE = 10


class InputError(ValueError):
    """A qrels, run or SVMlight input is malformed; the message names the file and line."""


class NoJudgedQuery(InputError):
    """A run has no query with judgments (or none that its convention evaluates): there is nothing to average."""


def describe(path: str | os.PathLike[str]) -> str:
    """How messages name an input: its path, or ``standard input`` for ``"-"``."""
    return "standard input" if os.fspath(path) == STDIN else os.fspath(path)


@dataclass
class Source:
    """An opened input: its name for messages and a binary stream of its (decompressed) bytes."""

    name: str
    stream: Any
    compression: str | None = None

    def read(self, size: int) -> bytes:
        try:
            return bytes(self.stream.read(size))
        except Exception as error:
            # zlib.error and lzma.LZMAError by their module: neither imported for plain text (nor lzma always built)
            if not isinstance(error, (EOFError, OSError)) and type(error).__module__ not in ("zlib", "_lzma"):
                raise
            what = self.compression or "file"
            raise InputError(f"{self.name}: cannot read the {what} data (truncated or corrupt?): {error}") from None


class Recording:
    """A binary stream that writes every byte read from it into ``copy`` (an open file), to be read again later."""

    def __init__(self, stream: Any, copy: Any) -> None:
        self.stream, self.copy = stream, copy

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.copy.write(data)
        return data


class Streams:
    """The data of concatenated bzip2 or xz streams (``library``: bz2 or lzma), stream by stream: bytes after the last
    stream that begin none are refused (``bz2.open`` and ``lzma.open`` drop them silently; ``bzip2 -d`` warns, ``xz -d``
    refuses), and xz's stream padding (zero bytes in fours) is skipped, as ``xz -d`` does (``lzma.open`` refuses it)."""

    def __init__(self, stream: Any, library: Any) -> None:
        self.stream, self.raw, self.zeros = stream, b"", 0
        self.decompressor: Any = None  # the current stream's, None between streams
        self.xz = library.__name__ == "lzma"
        self.new = (lambda: library.LZMADecompressor(library.FORMAT_XZ)) if self.xz else library.BZ2Decompressor

    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes, from as many streams as hold them (one a call made a block of each tiny stream)."""
        parts = []
        while size > 0:
            if self.decompressor is not None and self.decompressor.eof:  # a stream ended: what it was given past it
                self.raw, self.decompressor = self.decompressor.unused_data + self.raw, None
            if self.decompressor is None:  # between streams: another one, padding, or the end
                self.raw = self.raw or self.stream.read(BLOCK_SIZE)
                if not self.raw:  # the end
                    if self.zeros % 4:
                        raise OSError(f"{self.zeros} zero bytes after the last stream: xz's padding comes in fours")
                    break
                if self.xz and self.raw[0] == 0:  # padding (more of it may follow in the next read)
                    rest = self.raw.lstrip(b"\0")
                    self.raw, self.zeros = rest, self.zeros + len(self.raw) - len(rest)
                    continue
                if self.zeros % 4:
                    raise OSError(f"{self.zeros} zero bytes between two streams: xz's padding comes in fours")
                self.decompressor, self.zeros = self.new(), 0
            data = b""
            if self.decompressor.needs_input:
                data, self.raw = self.raw or self.stream.read(BLOCK_SIZE), b""
                if not data:
                    raise EOFError("the data end inside a stream")
            parts.append(self.decompressor.decompress(data, size))  # (bytes that begin no stream raise its error)
            size -= len(parts[-1])
        return b"".join(parts)


class Prefixed:
    """A binary stream that reads ``head`` (bytes already read from ``stream``) before the rest of ``stream``."""

    def __init__(self, head: bytes, stream: Any) -> None:
        self.head, self.stream = head, stream

    def read(self, size: int) -> bytes:
        head, self.head = self.head[:size], self.head[size:]
        return head + self.stream.read(size - len(head))


def standard_input() -> Any:
    """Standard input's binary stream, refused where there is none (closed, or a text stream put in its place)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None or stream.closed:
        raise InputError(
            "standard input (-) cannot be read as bytes here (it is closed, or a text stream such as a notebook's "
            "replaces it): give a file"
        )
    return stream


@contextlib.contextmanager
def open_source(path: str | os.PathLike[str], what: str, stream: Any = None) -> Iterator[Source]:
    """Open ``path`` (``"-"``: standard input), decompressing data recognised by content; ``what`` names it if
    missing. ``stream``: bytes to read instead of ``path``'s, named as ``path`` (standard input's recording)."""
    path = os.fspath(path)
    with contextlib.ExitStack() as opened:  # closes what it opens: not ``stream``, nor standard input
        if stream is None and path == STDIN:
            stream = standard_input()
        elif stream is None:
            # A named pipe (a shell's ``<(zcat run.gz)``) is read too, which trec_eval cannot (it seeks in its files).
            if os.path.isdir(path):
                raise InputError(f"{what} file {path!r} is a directory")
            if not os.path.exists(path):
                raise InputError(f"{what} file {path!r} does not exist")
            stream = opened.enter_context(open(path, "rb"))
        # read, not peeked: a pipe's peek gives only what has arrived (a slow writer's first byte of a magic)
        head = stream.read(_MAGIC_SIZE)
        stream = Prefixed(head, stream)
        fmt, module, command = next((v for m, v in _COMPRESSED.items() if m.match(head)), (None, None, None))
        if command:
            raise InputError(f"{describe(path)}: holds {fmt}-compressed data, not read here: decompress it ({command})")
        if module:
            library = importlib.import_module(module)
            stream = opened.enter_context(library.open(stream, "rb")) if module == "gzip" else Streams(stream, library)
        yield Source(describe(path), stream, fmt)


def line_blocks(source: Source, size: int = BLOCK_SIZE, first: int | None = None) -> Iterator[bytes]:
    """Blocks of whole lines, about ``size`` bytes each (from ``first``, doubling: work on small first blocks starts
    while the next are read). Callers number the lines (counting here would cost a pass over every byte)."""
    carry: list[bytes] = []  # the bytes after the last line end: joined once a line ends (a long line, copied once)
    current = min(first or size, size)
    while chunk := source.read(current):
        current = min(2 * current, size)
        if b"\0" in chunk:  # not text (check_text refuses it): now, not once a line ends (a binary file may have none)
            yield b"".join([*carry, chunk])
            return
        end = chunk.rfind(b"\n") + 1
        if end:
            yield b"".join([*carry, chunk[:end]])
            carry = []
        carry.append(chunk[end:])
    if any(carry):
        yield b"".join(carry)


def check_text(block: bytes, name: str, first_line: int) -> None:
    """Refuse a byte-order mark, NUL bytes, a carriage return that does not end a line (CRLF line ends are fine)."""
    if first_line == 1 and block.startswith(b"\xef\xbb\xbf"):
        raise InputError(
            f"{name}:1: a UTF-8 byte-order mark (EF BB BF), which trec_eval reads into the first query id; remove it"
        )
    if b"\x00" in block:  # first: a binary file (an image, other compressions) is not text, whatever else
        line = first_line + block.count(b"\n", 0, block.index(b"\x00"))
        start = "skips that line" if name == describe(STDIN) else "ends the file there"  # (stdin: line by line)
        raise InputError(
            f"{name}:{line}: a NUL byte: not a text file (trec_eval reads a NUL as the text's end: at the start of "
            f"a line it {start}; within a line what it reads is undefined: a field cut short, an error or a crash)"
        )
    # Blocks end at a line end but the file's last: a \r that ends the file ends its last line.
    if b"\r" in block and (lone := re.search(rb"\r(?!\n|\Z)", block)) is not None:
        line = first_line + block.count(b"\n", 0, lone.start())
        raise InputError(
            f"{name}:{line}: a carriage return (\\r) that does not end a line: trec_eval reads it as a blank between "
            f"fields (\\r line ends make one long line); this reader refuses it rather than guess: use \\n line ends "
            "or remove it"
        )


def prefetched(items: Iterable[Any]) -> Generator[Any, None, None]:
    """``items``, each made on a thread while the one before is used (closing waits for it): reading and parsing a
    block (file reads and pyarrow release the GIL) overlaps with evaluating the one before (numpy releases it too)."""
    iterator, done = iter(items), object()
    with ThreadPoolExecutor(1, thread_name_prefix="ndcg_research-reader") as reader:
        ahead = reader.submit(next, iterator, done)
        while (item := ahead.result()) is not done:
            ahead = reader.submit(next, iterator, done)
            yield item
