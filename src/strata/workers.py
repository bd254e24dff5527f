"""Processes for per-file work: one spawned pool per run, shared by its passes.

Spawn, not fork: LanceDB's threads are running by the time files are read. A spawned
worker imports the parent's main module unless it cannot find it, and an API user's
unguarded script would index again in every worker; the workers only need
`strata.pipeline`, so the main module's file and spec are hidden while they start.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor

from strata.config import Config
from strata.pipeline import FileOutcome
from strata.types import SourceFile

FILES_PER_TASK = 32

Batch = Callable[[list[SourceFile], Config], list[FileOutcome]]


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[Executor | None]:
    """A pool of `workers` spawned processes (None for one: work stays in this process)."""
    if workers <= 1:
        yield None
        return
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        yield pool


def outcomes(
    files: Sequence[SourceFile], batch: Batch, cfg: Config, pool: Executor | None
) -> Iterator[FileOutcome]:
    """`batch` over `files` in tasks of `FILES_PER_TASK`, in order, in the pool if any."""
    tasks = [list(files[i : i + FILES_PER_TASK]) for i in range(0, len(files), FILES_PER_TASK)]
    if pool is None:
        for task in tasks:
            yield from batch(task, cfg)
        return
    with _main_hidden():  # workers start here; they need strata, not the caller's script
        results = pool.map(batch, tasks, [cfg] * len(tasks))
    for result in results:
        yield from result


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
