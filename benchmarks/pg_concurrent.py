"""Many writers beside many readers on one PostgreSQL store (`python -m benchmarks.pg_load
concurrent`): writer processes (one repository each, each write replacing one whole file
with a new version of 2-6 rows) and reader threads that check every read: one file's rows
are all of one version and as many as that version has."""

from __future__ import annotations

import dataclasses
import multiprocessing
import threading
import time
from typing import Any

import numpy as np

from strata.index.records import make_record
from strata.store import Filter, open_store
from strata.types import Record

__all__ = ["concurrent"]


def version(path: str, k: int, repo: str) -> list[Record]:
    rows = []
    for i in range(2 + k % 5):
        r = make_record(
            id=f"{path}:{i}", path=path, layer="C0_SOURCE_CHUNKS", title=f"unit{i}",
            content=f"marker v{k} row {i} of {path} in {repo}", lang="python", file_hash=f"h{k}",
            span=(i + 1, i + 1), kind="function",
        )  # fmt: skip
        rows.append(dataclasses.replace(r, repo_id=repo))
    return rows


def writer(uri: str, repo: str, seconds: float, out: Any) -> None:
    store = open_store(uri, 0)
    writes, errors, k = 0, 0, 0
    deadline = time.monotonic() + seconds
    with store.writer_lock(repo):  # type: ignore[attr-defined]
        while time.monotonic() < deadline:
            k += 1
            path = f"src/f{k % 20}.py"
            try:
                store.replace_sources({path: version(path, k, repo)}, repo=repo)
                writes += 1
            except Exception:
                errors += 1
    store.close()
    out.put({"repo": repo, "writes": writes, "errors": errors})


def reader(store: Any, repos: list[str], stop: threading.Event, tally: dict[str, int]) -> None:
    rng = np.random.default_rng(threading.get_ident() % 1000)
    while not stop.is_set():
        repo = repos[int(rng.integers(len(repos)))]
        path = f"src/f{int(rng.integers(20))}.py"
        try:
            got = store.fetch(Filter(paths=(path,), repo_id=repo))
            marks = {r.content.split()[1] for r in got}
            if got and (len(marks) != 1 or len(got) != 2 + int(next(iter(marks))[1:]) % 5):
                tally["partial"] += 1
            hits = store.lexical_search(["marker", repo.lower()], 20, Filter(repo_id=repo))
            by_path: dict[str, set[str]] = {}
            for r, _ in hits:
                by_path.setdefault(r.path, set()).add(r.content.split()[1])
            tally["partial"] += sum(1 for v in by_path.values() if len(v) > 1)
            tally["reads"] += 2
        except Exception:
            tally["errors"] += 1


def concurrent(uri: str, seconds: float, writers: int, readers: int) -> dict[str, Any]:
    repos = [f"repo{i}" for i in range(writers)]
    setup = open_store(uri, 0)
    for repo in repos:  # every file exists before the clock starts
        files = {f"src/f{j}.py": version(f"src/f{j}.py", 0, repo) for j in range(20)}
        setup.replace_sources(files, repo=repo)
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=writer, args=(uri, r, seconds, out)) for r in repos]
    for p in procs:
        p.start()
    stop = threading.Event()
    tallies = [{"reads": 0, "errors": 0, "partial": 0} for _ in range(readers)]
    threads = [threading.Thread(target=reader, args=(setup, repos, stop, t)) for t in tallies]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    results = [out.get(timeout=seconds + 120) for _ in procs]
    stop.set()
    for t in threads:
        t.join()
    for p in procs:
        p.join()
    elapsed = time.perf_counter() - t0
    setup.close()
    reads = sum(t["reads"] for t in tallies)
    return {
        "seconds": round(elapsed, 1),
        "writers": sorted(results, key=lambda r: r["repo"]),
        "writes_per_s": round(sum(r["writes"] for r in results) / elapsed, 1),
        "reads": reads,
        "reads_per_s": round(reads / elapsed, 1),
        "read_errors": sum(t["errors"] for t in tallies),
        "partial_files_seen": sum(t["partial"] for t in tallies),
    }
