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
import os
import stat
from pathlib import Path
from typing import Final

from strata.types import Skip, SkipReason, SourceFile, bytes_hash

__all__ = ["Refused", "file_hash", "file_kind", "read_inside", "read_source"]

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
    except Refused as exc:
        return Skip(f.rel, exc.reason, exc.detail)
    except FileNotFoundError:
        return Skip(f.rel, SkipReason.VANISHED, "deleted before it was read")
    except OSError as exc:
        return Skip(f.rel, SkipReason.UNREADABLE, exc.strerror or str(exc))


def file_hash(f: SourceFile, max_bytes: int | None = None) -> str:
    """The hash of a discovered file's bytes, or "" when it cannot be read safely."""
    got = read_source(f, max_bytes)
    return "" if isinstance(got, Skip) else bytes_hash(got)


def source_root(f: SourceFile) -> Path:
    """The root a SourceFile was found under (`abspath` is `root / rel`)."""
    return f.abspath.parents[f.rel.count("/")]


def read_inside(path: Path, root: Path, max_bytes: int | None = None) -> bytes:
    """Read `path`, a regular file that must resolve inside `root`.

    Raises:
        Refused: not a regular file, resolves outside the root, or over `max_bytes`.
        OSError: it cannot be opened or read.
    """
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
        return _read_capped(fd, max_bytes)
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


def _read_capped(fd: int, max_bytes: int | None) -> bytes:
    parts: list[bytes] = []
    size = 0
    while True:
        want = _CHUNK if max_bytes is None else min(_CHUNK, max_bytes + 1 - size)
        part = os.read(fd, want) if want > 0 else b""
        if not part:
            break
        parts.append(part)
        size += len(part)
        if max_bytes is not None and size > max_bytes:
            raise Refused(SkipReason.TOO_LARGE, f"more than {max_bytes} bytes")
    return b"".join(parts)


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
