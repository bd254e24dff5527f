"""Read a file found by discovery without trusting that it is still what discovery saw.

Between the walk and the read a path can be swapped for a symlink out of the root, a FIFO
or a device. So a file is opened with `O_NOFOLLOW | O_NONBLOCK` (a FIFO cannot block the
open), and the opened descriptor, not the path, is checked: `fstat` must say regular file,
and the descriptor's real path must lie inside the root (this also catches a parent
directory swapped for a symlink). A symlink in the last component is followed only to a
target inside the root, as discovery allows. Reads stop one byte past a cap, so
`/dev/zero` or a file that grew cannot eat memory.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from strata.types import Skip, SkipReason, SourceFile

__all__ = [
    "Refused",
    "content_digest",
    "file_hash",
    "file_kind",
    "iter_inside",
    "read_inside",
    "read_source",
    "skip_of",
]

_FLAGS: Final = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
_CHUNK: Final = 1 << 20


class Refused(OSError):
    """A path that must not be read: not a regular file, outside the root, or too large."""

    def __init__(self, reason: SkipReason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def read_source(f: SourceFile, max_bytes: int | None = None) -> bytes | Skip:
    """The bytes of a discovered file, or a Skip saying why it was not read."""
    try:
        return read_inside(f.abspath, source_root(f), max_bytes)
    except OSError as exc:
        return skip_of(f.rel, exc)


def skip_of(rel: str, exc: OSError) -> Skip:
    """The Skip for an error reading `rel` (`Refused` says its own reason)."""
    if isinstance(exc, Refused):
        return Skip(rel, exc.reason, exc.detail)
    if isinstance(exc, FileNotFoundError):
        return Skip(rel, SkipReason.VANISHED, "deleted before it was read")
    return Skip(rel, SkipReason.UNREADABLE, exc.strerror or str(exc))


def file_hash(f: SourceFile, max_bytes: int | None = None) -> str:
    """The hash of a discovered file's bytes (`bytes_hash`), or "" when it cannot be read
    safely. Read a piece at a time: hashing a large file does not hold it in memory."""
    digest = content_digest()
    try:
        for part in iter_inside(f.abspath, source_root(f), max_bytes):
            digest.update(part)
    except OSError:  # Refused included
        return ""
    return digest.hexdigest()


def content_digest() -> hashlib.blake2b:
    """A fresh hasher of `strata.types.bytes_hash`, fed a piece at a time."""
    return hashlib.blake2b(digest_size=16)


def source_root(f: SourceFile) -> Path:
    """The root a SourceFile was found under (`abspath` is `root / rel`)."""
    return f.abspath.parents[f.rel.count("/")]


def read_inside(path: Path, root: Path, max_bytes: int | None = None) -> bytes:
    """Read `path`, a regular file that must resolve inside `root`.

    Raises:
        Refused: not a regular file, resolves outside the root, or over `max_bytes`.
        OSError: it cannot be opened or read.
    """
    return b"".join(iter_inside(path, root, max_bytes))


def iter_inside(
    path: Path, root: Path, max_bytes: int | None = None, piece: int = _CHUNK
) -> Iterator[bytes]:
    """`read_inside` a piece (at most `piece` bytes) at a time, checked the same way before
    the first; raises as it does, `TOO_LARGE` once the pieces pass `max_bytes`."""
    fd = _open(path)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(
                SkipReason.NOT_A_FILE, f"no longer a regular file ({file_kind(st.st_mode)})"
            )
        if not _inside(_fd_path(fd, path, st), _real_root(str(root))):
            raise Refused(SkipReason.NOT_A_FILE, "resolves outside the root")
        os.set_blocking(fd, True)
        yield from _read_capped(fd, max_bytes, piece)
    finally:
        os.close(fd)


def _open(path: Path) -> int:
    try:
        return os.open(path, _FLAGS | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
    # The last component is a symlink: follow it, the descriptor check decides.
    return os.open(path, _FLAGS)


def _read_capped(fd: int, max_bytes: int | None, piece: int) -> Iterator[bytes]:
    size = 0
    while True:
        want = piece if max_bytes is None else min(piece, max_bytes + 1 - size)
        part = os.read(fd, want) if want > 0 else b""
        if not part:
            break
        size += len(part)
        if max_bytes is not None and size > max_bytes:
            raise Refused(SkipReason.TOO_LARGE, f"more than {max_bytes} bytes")
        yield part


def _fd_path(fd: int, path: Path, st: os.stat_result) -> str:
    """The real path of an open descriptor (Linux /proc; elsewhere realpath checked by inode)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        real = os.path.realpath(path)
        there = os.stat(real)
        if (there.st_dev, there.st_ino) != (st.st_dev, st.st_ino):
            raise Refused(SkipReason.VANISHED, "replaced while it was read") from None
        return real


@functools.lru_cache(maxsize=64)
def _real_root(root: str) -> str:
    return os.path.realpath(root)


def _inside(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISDIR(mode):
        return "directory"
    return "special file"
