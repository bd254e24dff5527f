"""The index's single-writer lock: a second writer waits, then exits with a clear message."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path

from strata.errors import LockError

LOCK_NAME = "write.lock"
log = logging.getLogger(__name__)


@contextlib.contextmanager
def write_lock(index_dir: Path, *, wait: float = 10.0) -> Iterator[None]:
    """Hold the index's write lock for the block; wait up to `wait` seconds for it.

    The lock is an `flock` on `<index_dir>/write.lock`, released by the kernel when
    the holder dies, so a killed writer never leaves a stale lock behind; the pid
    written inside is only for the message.
    """
    index_dir.mkdir(parents=True, exist_ok=True)
    path = index_dir / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not told and wait > 0:  # a writer that only waits must say so
                    told = True
                    log.warning(
                        "waiting up to %.0f s for another strata process (%s) writing %s",
                        wait,
                        holder(path) or "unknown pid",
                        index_dir,
                    )
                if time.monotonic() >= deadline:
                    raise LockError(
                        f"another strata process ({holder(path) or 'unknown pid'}) is writing "
                        f"the index at {index_dir}",
                        hint="wait for it to finish, or stop it (a watcher: Ctrl-C)",
                    ) from None
                time.sleep(0.1)
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}\n".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def holder(path: Path) -> str:
    """The `pid N` text of the last holder of a lock file ('' if unknown)."""
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return ""


def is_locked(index_dir: Path) -> bool:
    """Whether some process holds the write lock right now."""
    path = index_dir / LOCK_NAME
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
