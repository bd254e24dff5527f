"""Processes for per-file work: one spawned pool per run, shared by its passes.

Spawn, not fork: LanceDB's threads are running by the time files are read. A spawned
worker imports the parent's main module unless it cannot find it, and an API user's
unguarded script would index again in every worker; the workers only need
`strata.index.passages` and `strata.index.pipeline`, so the main module's file and spec are hidden
while they start.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from strata.config import Config, IndexConfig
from strata.index.passages import FileOutcome
from strata.types import SourceFile
from strata.workspace.memory import collect_young, collector_paused

FILES_PER_TASK = 32
TASK_BYTES = 256 * 1024
PARALLEL_MIN_FILES = 200
PARSING_GC_THRESHOLD = 20_000  # allocations between collections (Python's default: 700)

T = TypeVar("T")
Batch = Callable[[list[SourceFile], Config], list[FileOutcome]]


def workers_for(cfg: IndexConfig, files: int) -> int:
    """Processes for extraction: one per core by default, and 1 when too few files to pay."""
    if files < PARALLEL_MIN_FILES:
        return 1
    return max(1, cfg.workers or (os.cpu_count() or 1))


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[Executor | None]:
    """A pool of `workers` spawned processes (None for one: work stays in this process).

    All of them start now, not at the first task: a caller that knows it will need them
    opens the pool first, and they start (about 0.2 s of imports each) while it goes on.
    """
    if workers <= 1:
        with collector_paused():
            yield None
        return
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=parsing_gc) as pool:
        with _main_hidden():  # workers start here; they need strata, not the caller's script
            for _ in range(workers):
                pool.submit(_started)
        with collector_paused():
            yield pool


def parsing_gc() -> None:
    """Collect garbage less often, in a process that parses: an AST is hundreds of thousands
    of short-lived objects, freed by reference count (not cycles), and the default
    collection every 700 allocations spent a fifth of a worker's time scanning them
    (`gc.freeze` first keeps the imported modules out of every scan)."""
    gc.freeze()
    gc.set_threshold(PARSING_GC_THRESHOLD, 10, 10)


def _started() -> None:
    """A worker's first task: nothing beyond importing this module (and `strata.index.passages`)."""


def outcomes(
    files: Sequence[SourceFile], batch: Batch, cfg: Config, pool: Executor | None
) -> Iterator[FileOutcome]:
    """`batch` over `files` (see `batches`): each file's outcome, task by task."""
    for _task, result, _waiting in batches(files, batch, (cfg,), pool):
        yield from result


def batches(
    files: Sequence[SourceFile],
    fn: Callable[..., T],
    args: tuple[Any, ...],
    pool: Executor | None,
) -> Iterator[tuple[list[SourceFile], T, bool]]:
    """Each task of files with `fn(task, *args)`: in the pool, if any, `balanced_tasks` in
    order; else tasks of `FILES_PER_TASK` in the files' order. With whether the next
    result is still being made (the caller would only wait for it: a good moment for its
    own work)."""
    if pool is None:
        for i in range(0, len(files), FILES_PER_TASK):
            task = list(files[i : i + FILES_PER_TASK])
            yield task, fn(task, *args), False
            collect_young()
        return
    tasks = balanced_tasks(files)
    futures = [pool.submit(fn, task, *args) for task in tasks]
    try:
        for i, (task, future) in enumerate(zip(tasks, futures, strict=True)):
            waiting = i + 1 < len(futures) and not futures[i + 1].done()
            yield task, future.result(), waiting
            collect_young()
    finally:
        for future in futures:
            future.cancel()


def balanced_tasks(files: Sequence[SourceFile]) -> list[list[SourceFile]]:
    """`files` in tasks for a pool: largest files first, each task at most `FILES_PER_TASK`
    files and `TASK_BYTES` bytes (a larger file alone). Taken in order, such tasks keep the
    workers equally busy to the end: one task of big files last would leave one working."""
    tasks: list[list[SourceFile]] = []
    size = 0
    for f in sorted(files, key=lambda f: f.size, reverse=True):
        if not tasks or len(tasks[-1]) >= FILES_PER_TASK or size + f.size > TASK_BYTES:
            tasks.append([])
            size = 0
        tasks[-1].append(f)
        size += f.size
    return tasks


@contextlib.contextmanager
def _main_hidden() -> Iterator[None]:
    """Hide the main module's file and spec while workers start (see the module doc)."""
    main = sys.modules.get("__main__")
    file, spec = getattr(main, "__file__", None), getattr(main, "__spec__", None)
    try:
        if file is not None:
            del main.__file__  # type: ignore[union-attr]
        if main is not None:
            main.__spec__ = None
        yield
    finally:
        if file is not None:
            main.__file__ = file  # type: ignore[union-attr]
        if main is not None:
            main.__spec__ = spec
