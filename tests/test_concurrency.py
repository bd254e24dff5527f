"""Readers in other processes never fail nor see half a file; writers exclude each other."""

from __future__ import annotations

import multiprocessing
import subprocess
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from strata.engine import Engine
from strata.engine.watch import Watcher
from strata.workspace.lock import write_lock
from tests.crash_harness import expected_rows, index_cmd, write_version

FILES = 60
LEXICAL = {"embed.provider": "none"}
Expected = dict[str, dict[str, set[tuple[str, str]]]]


def versions_of(root: Path, versions: range) -> Expected:
    """Per file and version: file hash -> the exact (id, content hash) rows a reader may see."""
    out: Expected = defaultdict(dict)
    for v in versions:
        write_version(root, FILES, v)
        for f in root.rglob("*.py"):
            rel = f.relative_to(root).as_posix()
            h, rows = expected_rows(f.read_text(), rel)
            out[rel][h] = rows
    return dict(out)


def reader(index_dir: str, expected: Expected, stop: Any, results: Any) -> None:
    """Search and read the whole index in a loop; report errors and torn files."""
    reads, problems = 0, []
    while not stop.is_set():
        try:
            eng = Engine.open(index_dir=index_dir, config=LEXICAL)
            eng.search("compute widget render", k=10, mode="lexical")
            by_path: dict[str, set[tuple[str, str]]] = defaultdict(set)
            hashes: dict[str, set[str]] = defaultdict(set)
            for r in eng.records(layers=None):
                by_path[r.path].add((r.id, r.content_hash))
                hashes[r.path].add(r.file_hash)
            for path, rows in by_path.items():
                (h,) = hashes[path] if len(hashes[path]) == 1 else (None,)
                if h is None or expected.get(path, {}).get(h) != rows:
                    problems.append(f"{path}: torn or unknown version ({len(rows)} rows)")
            eng.close()
            reads += 1
        except Exception as exc:  # any error a reader sees is a failure of the test
            problems.append(f"{type(exc).__name__}: {exc}")
    results.put((reads, problems[:5]))


class Readers:
    """Spawned reader processes."""

    def __init__(self, index_dir: Path, expected: Expected, n: int = 2) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.stop, self.results = ctx.Event(), ctx.Queue()
        self.procs = [
            ctx.Process(target=reader, args=(str(index_dir), expected, self.stop, self.results))
            for _ in range(n)
        ]
        for p in self.procs:
            p.start()

    def finish(self) -> list[tuple[int, list[str]]]:
        self.stop.set()
        got = [self.results.get(timeout=120) for _ in self.procs]
        for p in self.procs:
            p.join(timeout=30)
        return got


def assert_clean(results: list[tuple[int, list[str]]]) -> None:
    assert all(reads > 0 for reads, _ in results), results
    assert all(not problems for _, problems in results), results


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path, Expected]:
    root, idx = tmp_path / "repo", tmp_path / "idx"
    expected = versions_of(root, range(1, 4))
    write_version(root, FILES, 1)
    subprocess.run(index_cmd(root, idx), check=True)
    return root, idx, expected


@pytest.mark.parametrize("full", [False, True])
def test_readers_during_strata_index(corpus: tuple[Path, Path, Expected], full: bool) -> None:
    root, idx, expected = corpus
    readers = Readers(idx, expected)
    time.sleep(0.5)  # let the readers start reading the old index
    for v in (2, 3):
        write_version(root, FILES, v, changed=set(range(0, FILES, 2)))
        subprocess.run(index_cmd(root, idx, *(["--full"] if full else [])), check=True)
    assert_clean(readers.finish())


def test_readers_during_the_watcher(corpus: tuple[Path, Path, Expected]) -> None:
    root, idx, expected = corpus
    eng = Engine.open(root, index_dir=idx, config=LEXICAL)
    watcher = Watcher(eng, debounce=0.05, batch_max=7)  # small batches: many commits to race
    stop = threading.Event()
    thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
    thread.start()
    readers = Readers(idx, expected)
    try:
        assert watcher.wait_ready(60)
        for v in (2, 3):
            write_version(root, FILES, v)
            time.sleep(0.3)
        want = {
            rel: h
            for rel, h in (
                (
                    f.relative_to(root).as_posix(),
                    expected_rows(f.read_text(), f.relative_to(root).as_posix())[0],
                )
                for f in root.rglob("*.py")
            )
        }
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            have = {p: s.file_hash for p, s in eng.store.sources().items()}
            if have == want:
                break
            time.sleep(0.1)
        assert {p: s.file_hash for p, s in eng.store.sources().items()} == want
    finally:
        results = readers.finish()
        stop.set()
        thread.join(timeout=10)
    assert_clean(results)
    assert watcher.batches > 1


def test_a_second_writer_exits_2_with_the_lock_message(corpus: tuple[Path, Path, Expected]) -> None:
    root, idx, _ = corpus
    write_version(root, FILES, 2)
    with write_lock(idx):
        got = subprocess.run(index_cmd(root, idx), capture_output=True, text=True)
    assert got.returncode == 2
    assert "another strata process" in got.stderr
    # nothing was written by the loser; the winner's next run applies version 2 whole
    subprocess.run(index_cmd(root, idx), check=True)


def test_a_second_writer_waits_for_the_lock(corpus: tuple[Path, Path, Expected]) -> None:
    root, idx, expected = corpus
    write_version(root, FILES, 2)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with write_lock(idx):
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    loud = [a for a in index_cmd(root, idx) if a != "-q"]
    proc = subprocess.Popen(loud, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # it says why it waits, before it gets the lock
    assert proc.poll() is None  # still waiting, not failed
    release.set()
    holder.join()
    _, rest = proc.communicate(timeout=120)
    err = first + rest
    assert proc.returncode == 0
    assert "waiting up to 10 s for another strata process" in err  # it says why
    eng = Engine.open(index_dir=idx, config=LEXICAL)
    want = {p: next(iter(hs)) for p, hs in expected.items()}
    assert set(eng.store.sources()) == set(want)
