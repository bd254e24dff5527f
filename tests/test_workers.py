"""Worker processes: balanced tasks come back in order, and workers parse with a lazier GC."""

from __future__ import annotations

import gc
from pathlib import Path

from strata.index.workers import (
    FILES_PER_TASK,
    PARSING_GC_THRESHOLD,
    TASK_BYTES,
    balanced_tasks,
    batches,
    worker_pool,
)
from strata.types import SourceFile


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
    assert [t for t, _, _ in pooled] == balanced_tasks(files)
    assert [n for _, r, _ in pooled for n in r] == [f.rel + "!" for t, _, _ in pooled for f in t]
    assert [n for _, r, _ in inline for n in r] == [f.rel + "!" for f in files]  # files' order
    assert not any(waiting for _, _, waiting in inline)  # nothing runs meanwhile
    assert not pooled[-1][2]  # nothing after the last
    assert threshold == {(PARSING_GC_THRESHOLD, 10, 10)}
    assert gc.get_threshold()[0] != PARSING_GC_THRESHOLD  # this process keeps its own


def test_one_worker_means_no_pool() -> None:
    with worker_pool(1) as pool:
        assert pool is None


def test_balanced_tasks_put_large_files_first_and_cap_bytes_and_count() -> None:
    sizes = [10, TASK_BYTES * 2, 300, TASK_BYTES // 2, TASK_BYTES // 2 + 1] + [1] * 70
    files = [SourceFile(Path(f"/x/{i}"), f"{i}", size, 1) for i, size in enumerate(sizes)]
    tasks = balanced_tasks(files)
    order = [f.size for task in tasks for f in task]
    assert order == sorted(sizes, reverse=True)  # every file once, largest first
    assert [f.size for f in tasks[0]] == [TASK_BYTES * 2]  # too big to share: alone
    assert [f.size for f in tasks[1]] == [TASK_BYTES // 2 + 1]  # the other half does not fit
    assert tasks[2][0].size == TASK_BYTES // 2 and len(tasks[2]) == FILES_PER_TASK
    assert all(len(t) <= FILES_PER_TASK for t in tasks)
    assert all(sum(f.size for f in t) <= TASK_BYTES for t in tasks[1:])
