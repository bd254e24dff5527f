"""Worker processes: tasks come back in order, and the workers parse with a lazier GC."""

from __future__ import annotations

import gc
from pathlib import Path

from strata.types import SourceFile
from strata.workers import FILES_PER_TASK, PARSING_GC_THRESHOLD, batches, worker_pool


def _names(task: list[SourceFile], suffix: str) -> list[str]:
    return [f.rel + suffix for f in task]


def _gc_threshold(_task: list[SourceFile]) -> tuple[int, int, int]:
    return gc.get_threshold()


def _files(n: int) -> list[SourceFile]:
    return [SourceFile(Path(f"/nowhere/f{i}.py"), f"f{i}.py", 1, 1) for i in range(n)]


def test_tasks_come_back_in_order_in_a_pool_or_not() -> None:
    files = _files(3 * FILES_PER_TASK + 5)
    with worker_pool(2) as pool:
        assert pool is not None
        pooled = list(batches(files, _names, ("!",), pool))
        threshold = {t for _, t, _ in batches(files, _gc_threshold, (), pool)}
    inline = list(batches(files, _names, ("!",), None))
    assert [t for t, _, _ in pooled] == [t for t, _, _ in inline]
    assert [r for _, r, _ in pooled] == [r for _, r, _ in inline]
    assert [n for _, r, _ in pooled for n in r] == [f.rel + "!" for f in files]
    assert not any(waiting for _, _, waiting in inline)  # nothing runs meanwhile
    assert not pooled[-1][2]  # nothing after the last
    assert threshold == {(PARSING_GC_THRESHOLD, 10, 10)}
    assert gc.get_threshold()[0] != PARSING_GC_THRESHOLD  # this process keeps its own


def test_one_worker_means_no_pool() -> None:
    with worker_pool(1) as pool:
        assert pool is None
