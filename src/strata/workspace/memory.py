"""Handing freed memory back to the system, for processes that stay up (glibc only), and
when Python's cyclic collector runs.

A warm process reads whole columns from LanceDB (whose threads allocate from their own
malloc arenas) and drops most of it again. glibc keeps what was freed for reuse, and it
raises its mmap threshold after each large free, so later large buffers come from the
heap and stay there too: measured, a 113 MB in-memory copy of 39k passages left the
process 250 MB larger. A fixed mmap threshold returns large buffers as they are freed,
and `malloc_trim` returns what is left. Elsewhere (macOS, musl) both are no-ops.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "collect_young",
    "collector_paused",
    "keep_what_is_built",
    "release",
    "release_now_and_then",
    "return_large_buffers",
]

log = logging.getLogger(__name__)

_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number
MMAP_THRESHOLD = 256 * 1024


@functools.cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    if libc is None or not hasattr(libc, "mallopt") or not hasattr(libc, "malloc_trim"):
        return None
    return libc


@functools.cache
def return_large_buffers() -> bool:
    """From now on, buffers of 256 KiB and more go back to the system when freed, and
    pyarrow allocates from the C library instead of its own mimalloc pool, which keeps
    what it freed (once per process; True if the C library took the threshold).

    Measured on a warm searcher of 39k passages: building the symbol catalogue left it
    ~45 MB larger with pyarrow's pool than with the system's."""
    import pyarrow as pa

    pa.set_memory_pool(pa.system_memory_pool())
    libc = _libc()
    ok = bool(libc is not None and libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1)
    log.debug("fixed mmap threshold: %s", ok)
    return ok


def release() -> None:
    """Give the memory freed so far back to the system, where the C library can."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


RELEASE_EVERY_S = 1.0
_last_release = [time.monotonic()]  # a process that searches once never trims
_release_lock = threading.Lock()


def release_now_and_then() -> None:
    """`release()` at most once every `RELEASE_EVERY_S` seconds: for a process that keeps
    searching, whose queries free a few MB each that glibc would otherwise keep (measured:
    300 routed queries left a warm searcher 65 MB larger, 48 MB of it freed). The trim runs
    on a thread of its own: it walks the whole heap, ~0.2 ms on an idle machine but 5 to
    100 ms in a warm server on a busy one, and no search should wait for it."""
    now = time.monotonic()
    with _release_lock:
        if now - _last_release[0] < RELEASE_EVERY_S:
            return
        _last_release[0] = now
    # not a daemon: the interpreter waits for a trim under way before it exits (a trim still
    # walking the heap while the process tears down can abort a one-shot `strata search`)
    threading.Thread(target=release, name="strata-trim").start()


def keep_what_is_built() -> None:
    """Leave every object alive now out of Python's cyclic garbage collection, for a
    process that has built what it keeps (a warm searcher's catalogues and copies): a full
    collection would walk them all again and again, a pause of tens of milliseconds in
    whichever request set it off. Freed objects are still freed (by reference counts)."""
    gc.collect()
    gc.freeze()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic cyclic garbage collection in this process while files are read and
    their rows written (`strata.index.workers.worker_pool`) or the corpus pass runs:
    building a big file's rows makes millions of objects that live to the batch's commit,
    and every collection the allocations set off walked them again (a third of a 40k-line
    data table's run). Rows are freed by reference count; a young collection now and then
    (`collect_young`: the reading loop runs it after each task) frees any cycles and moves
    the survivors out of the young generations, so each object is walked once at most."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def collect_young() -> None:
    """A young collection, when `collector_paused` holds the automatic ones off."""
    if not gc.isenabled():
        gc.collect(1)
