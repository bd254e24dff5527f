"""The passage layers in memory for a warm process: the same answers as LanceDB, never stale."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from strata import Engine
from strata.index.records import make_record
from strata.layers import C0_SOURCE_CHUNKS, D0_DOC_CHUNKS
from strata.store import Filter, scan
from strata.store.lance import LanceStore
from strata.types import Record

DIM = 16


def rows(rng: np.random.Generator) -> dict[str, list[Record]]:
    """60 files of code and docs, some tests, two repositories, random unit vectors."""
    out: dict[str, list[Record]] = {}
    for f in range(60):
        doc = f % 3 == 0
        path = f"docs/d{f}.md" if doc else (f"tests/test_{f}.py" if f % 5 == 0 else f"src/m{f}.py")
        out[path] = []
        for i in range(4):
            vec = rng.standard_normal(DIM).astype(np.float32)
            r = make_record(
                id=f"{path}:{i}",
                path=path,
                layer=D0_DOC_CHUNKS if doc else C0_SOURCE_CHUNKS,
                title=f"t{f}.{i}",
                content=f"chunk {i} of {path}",
                lang="markdown" if doc else "python",
                file_hash=f"h{f}",
                span=(i * 10 + 1, i * 10 + 9),
                kind="section" if doc else ("class" if i == 0 else "function"),
                is_test=path.startswith("tests/"),
            )
            repo = "a" if f % 2 else "b"
            out[path].append(dataclasses.replace(r, vector=vec / np.linalg.norm(vec), repo_id=repo))
    return out


@pytest.fixture
def store(tmp_path: Path) -> LanceStore:
    s = LanceStore(tmp_path / "lance", DIM)
    s.replace_sources(rows(np.random.default_rng(7)))
    return s


PASSAGES = Filter(layers=(C0_SOURCE_CHUNKS, D0_DOC_CHUNKS))


def warm(store: LanceStore, query: np.ndarray) -> None:
    """Keep warm in the background (what a process's second search asks), search, then
    wait for the copy to be built."""
    store.keep_warm(background=True)
    store.vector_search(query, 5, PASSAGES)
    assert store._warm.wait(10.0)
    assert store._warm.get() is not None


FILTERS = [
    PASSAGES,
    Filter(layers=(C0_SOURCE_CHUNKS,)),
    Filter(layers=(D0_DOC_CHUNKS,), langs=("markdown",)),
    dataclasses.replace(PASSAGES, is_test=False, kinds=("function",)),
    dataclasses.replace(PASSAGES, paths=("src/m1.py", "docs/d3.md", "nope.py")),
    dataclasses.replace(PASSAGES, paths=()),
    dataclasses.replace(PASSAGES, repo_id="a", is_test=True),
    dataclasses.replace(PASSAGES, repo_id="nope"),
    Filter(),  # not only passages: answered by LanceDB, the same either way
]


@pytest.mark.parametrize("where", FILTERS)
def test_memory_gives_what_the_flat_scan_gives(
    store: LanceStore, tmp_path: Path, where: Filter
) -> None:
    rng = np.random.default_rng(11)
    queries = [rng.standard_normal(DIM).astype(np.float32) for _ in range(5)]
    cold = LanceStore(tmp_path / "lance", DIM)  # a fresh handle: never warm
    expected = [cold.vector_search(q, 12, where) for q in queries]
    warm(store, queries[0])
    for q, want in zip(queries, expected, strict=True):
        got = store.vector_search(q, 12, where)
        assert [r for r, _ in got] == [r for r, _ in want]  # whole records, not only ids
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)
        assert all(r.content and r.path for r, _ in got)


@pytest.mark.parametrize("first_pass", ["split float32", "int8"])
@pytest.mark.parametrize("where", FILTERS[:5])
def test_a_scan_over_rows_some_without_vectors_gives_the_flat_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: Filter, first_pass: str
) -> None:
    # Every matrix here scanned as a large one is (not only 8k rows and more): each half on
    # its own thread, or an int8 first pass and the candidates it keeps scored in float32;
    # a mask for the rows with no vector yet: what LanceDB's flat scan gives.
    monkeypatch.setattr(scan, "SPLIT_ROWS", 1)
    monkeypatch.setattr(scan, "INT8_ROWS", 1 if first_pass == "int8" else 10**9)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    store = LanceStore(tmp_path / "lance", DIM)
    some = {
        path: [dataclasses.replace(r, vector=None) if i == 1 else r for i, r in enumerate(rs)]
        for path, rs in rows(np.random.default_rng(5)).items()
    }
    store.replace_sources(some)
    rng = np.random.default_rng(13)
    queries = [rng.standard_normal(DIM).astype(np.float32) for _ in range(5)]
    cold = LanceStore(tmp_path / "lance", DIM)
    expected = [cold.vector_search(q, 30, where) for q in queries]
    warm(store, queries[0])
    copy = store._warm.get()
    assert copy is not None and not copy.every_vector
    assert (copy.int8 is not None) is (first_pass == "int8")
    for q, want in zip(queries, expected, strict=True):
        got = store.vector_search(q, 30, where)
        assert [r.id for r, _ in got] == [r.id for r, _ in want]
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)
        assert not any(r.id.endswith(":1") for r, _ in got)  # no vector: never a vector hit


def test_a_commit_makes_the_copy_stale_and_the_new_row_is_found(store: LanceStore) -> None:
    rng = np.random.default_rng(3)
    q = rng.standard_normal(DIM).astype(np.float32)
    q /= np.linalg.norm(q)
    warm(store, q)
    r = make_record(
        id="src/new.py:0",
        path="src/new.py",
        layer=C0_SOURCE_CHUNKS,
        title="new",
        content="the new chunk",
        lang="python",
        file_hash="hn",
        span=(1, 2),
    )
    store.replace_sources({"src/new.py": [dataclasses.replace(r, vector=q)]})
    first = store.vector_search(q, 3, PASSAGES)
    assert first[0][0].id == "src/new.py:0" and first[0][1] == pytest.approx(1.0, abs=1e-5)
    warm(store, q)  # rebuilt for the new version, still right
    assert store.vector_search(q, 3, PASSAGES)[0][0].id == "src/new.py:0"


def test_reads_alone_build_nothing(store: LanceStore) -> None:
    for _ in range(4):  # a one-shot routed search reads the passages three to five times
        store.lexical_search(["chunk"], 5, PASSAGES)
        store.vector_search(np.ones(DIM, dtype=np.float32), 5, PASSAGES)
        store.fetch(PASSAGES, 3, vectors=False)
    assert store._warm.wait(1.0) and store._warm._hot is None


LEXICAL = [["chunk"], ["chunk", "docs"], ["src", "m7", "py"], ["nothing", "here"]]


@pytest.mark.parametrize("where", FILTERS)
def test_bm25_from_memory_gives_what_lancedb_gives(
    store: LanceStore, tmp_path: Path, where: Filter
) -> None:
    cold = LanceStore(tmp_path / "lance", DIM)
    expected = [cold.lexical_search(t, 12, where) for t in LEXICAL]
    warm(store, np.ones(DIM, dtype=np.float32))
    hot = store._warm.get()
    assert hot is not None and hot.bm25 is not None  # answered from memory, not by LanceDB
    for terms, want in zip(LEXICAL, expected, strict=True):
        assert_same_ranking(store.lexical_search(terms, 12, where), want)


def assert_same_ranking(got: list[tuple[Record, float]], want: list[tuple[Record, float]]) -> None:
    """The same scores rank by rank, and the same records at each score; LanceDB orders
    records of one score arbitrarily (memory: by row id), and the limit may cut such a band
    anywhere."""
    assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-5)

    def bands(hits: list[tuple[Record, float]]) -> dict[float, list[Record]]:
        out: dict[float, list[Record]] = {}
        for r, s in hits:
            out.setdefault(round(s, 4), []).append(r)
        return out

    mine, theirs = bands(got), bands(want)
    last = round(want[-1][1], 4) if want else None
    for score, records in theirs.items():
        if score != last:
            assert sorted(mine[score], key=lambda r: r.id) == sorted(records, key=lambda r: r.id)


def test_without_vectors_the_passages_are_kept_too(tmp_path: Path) -> None:
    store = LanceStore(tmp_path / "lance", 0)
    plain = {
        p: [dataclasses.replace(r, vector=None) for r in rs]
        for p, rs in rows(np.random.default_rng(5)).items()
    }
    store.replace_sources(plain)
    want = store.lexical_search(["chunk", "src"], 20, PASSAGES)
    store.keep_warm()
    assert store._warm.wait(10.0)
    hot = store._warm.get()
    assert hot is not None and hot.bm25 is not None
    assert_same_ranking(store.lexical_search(["chunk", "src"], 20, PASSAGES), want)
    assert len(want) == 20


def test_keep_warm_builds_at_once_and_again_after_a_commit(store: LanceStore) -> None:
    store.keep_warm()
    assert store._warm.wait(10.0)
    first = store._warm.get()
    assert first is not None and len(first) == 240
    store.delete_by_source("src/m1.py")
    assert store._warm.get() is None  # stale: the next search goes to LanceDB, a build starts
    assert store._warm.wait(10.0)
    again = store._warm.get()
    assert again is not None and len(again) == 236
    assert all(not r.path.endswith("m1.py") for r, _ in store.lexical_search(["m1"], 9, PASSAGES))


def test_row_ids_of_another_version_are_not_taken_for_rows(store: LanceStore) -> None:
    store.keep_warm()
    assert store._warm.wait(10.0)
    hot = store._warm.get()
    assert hot is not None
    some = [int(x) for x in hot.row_ids[:3]]
    at = hot.positions(some[::-1])
    assert at is not None and list(at) == [2, 1, 0]
    assert hot.records(at) == hot.records([0, 1, 2])[::-1]
    assert hot.positions([*some, int(hot.row_ids.max()) + 1]) is None


FETCHED = [
    *FILTERS,
    dataclasses.replace(PASSAGES, ids=("src/m1.py:2", "docs/d3.md:0", "nope:0")),
    dataclasses.replace(PASSAGES, ids=("src/m1.py:2",), paths=("docs/d3.md",)),
    dataclasses.replace(PASSAGES, has_vector=True, branch="main"),
]


@pytest.mark.parametrize("where", FETCHED)
def test_fetch_from_memory_gives_what_lancedb_gives(
    store: LanceStore, tmp_path: Path, where: Filter
) -> None:
    cold = LanceStore(tmp_path / "lance", DIM)
    columns = ["id", "path", "span_start", "span_end", "layer"]
    expected = (cold.fetch(where, vectors=False), cold.fetch_table(where, columns))
    limited = cold.fetch(where, 5, vectors=False)
    warm(store, np.ones(DIM, dtype=np.float32))
    assert store.fetch(where, vectors=False) == expected[0]  # whole records, in order
    assert store.fetch(where, 5, vectors=False) == limited
    assert store.fetch_table(where, columns).to_pylist() == expected[1].to_pylist()


def test_a_read_in_one_version_asks_lancedb_once(store: LanceStore, tmp_path: Path) -> None:
    other = LanceStore(tmp_path / "lance", DIM)
    before = store.version
    with store.one_version():
        other.delete_by_source("src/m1.py")  # another process's commit, inside the block
        assert store.version == before  # one number for the whole read
        with store.one_version():  # nested: still the same read
            assert store.version == before
        assert store.version == before
    assert store.version > before  # the next read sees the commit at once


CHILD = """
import atexit, sys, threading
from pathlib import Path

def after_strata_hooks() -> None:  # registered first, so it runs after strata's own
    from strata.store import warm
    sys.stdout.write(f"builds alive at exit: {sum(t.is_alive() for t in warm._builders)}\\n")

atexit.register(after_strata_hooks)
from strata.store.lance import LanceStore

store = LanceStore(Path(sys.argv[1]), 16)
store.keep_warm(background=True)  # the process exits while the copy is being built
"""


def test_a_build_running_at_exit_stops_first_and_the_process_exits_cleanly(
    tmp_path: Path,
) -> None:
    # A LanceDB call still running on a daemon thread while Python finalizes aborted
    # one-shot commands (`Fatal Python error: PyGILState_Release`, exit 134).
    big = LanceStore(tmp_path / "lance", DIM)
    rng = np.random.default_rng(3)
    big.replace_sources(
        {
            p: [
                dataclasses.replace(r, vector=rng.standard_normal(DIM).astype(np.float32))
                for r in rs
            ]
            for p, rs in {
                f"src/m{f}.py": [
                    make_record(
                        id=f"src/m{f}.py:{i}",
                        path=f"src/m{f}.py",
                        layer=C0_SOURCE_CHUNKS,
                        title=f"t{i}",
                        content=f"chunk {i} word{f % 97}",
                        lang="python",
                        file_hash=f"h{f}",
                        span=(i * 10 + 1, i * 10 + 9),
                    )
                    for i in range(10)
                ]
                for f in range(1500)
            }.items()
        }
    )
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, str(script), str(tmp_path / "lance")],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert "builds alive at exit: 0" in done.stdout, done.stdout


def test_a_process_keeps_warm_from_its_second_search(minirepo: Path) -> None:
    eng = Engine.open(minirepo, config={"embed.provider": "none"})
    eng.index()
    kept = eng.parts.base_store._warm  # type: ignore[attr-defined]
    eng.search("retry delay", k=3)  # a one-shot command: LanceDB answers, no copy
    assert kept.wait(1.0) and kept._hot is None and not kept._kept
    eng.search("retry delay", k=3)  # searches again: the copy is built in the background
    assert kept.wait(30.0) and kept.get() is not None


def test_the_int8_first_pass_keeps_every_row_of_the_exact_top_k_and_few_others() -> None:
    """Clustered rows with near ties (what embeddings of one codebase look like), filters
    or none: the same top k, in the same order, as the float32 product; and the rows
    scored in float32 are a small part of the matrix (else the first pass buys nothing)."""
    rng = np.random.default_rng(3)
    centres = rng.standard_normal((40, 384)).astype(np.float32)
    rows = centres[rng.integers(0, 40, 20_000)] + 0.35 * rng.standard_normal((20_000, 384))
    rows[::97] = rows[1::97]  # exact duplicates: ties
    matrix = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
    matrix[5::331] = 0.0  # rows with no vector yet (masked out, as the copy does)
    int8 = scan.Int8Rows.build(matrix)
    assert int8 is not None
    has_vector = np.linalg.norm(matrix, axis=1) > 0
    for i in range(20):
        query = rng.standard_normal(384).astype(np.float32)
        query = (query + 3 * centres[i % 40]) if i % 2 else query
        query /= np.linalg.norm(query)
        mask = has_vector if i % 3 else has_vector & (rng.random(20_000) < 0.3)
        exact = scan.top(matrix, None, query, 50, mask)
        got = scan.top(matrix, int8, query, 50, mask)
        assert [s for _, s in got] == pytest.approx([s for _, s in exact], abs=1e-6)
        assert {p for p, _ in got} - {p for p, _ in exact} <= tied(exact, matrix, query)
        assert len(int8.candidates(query, 50, mask)) < 2_000


def tied(hits: list[tuple[int, float]], matrix: np.ndarray, query: np.ndarray) -> set[int]:
    """Rows scoring the same as the last hit (either may come first)."""
    last = hits[-1][1]
    return {int(i) for i in np.flatnonzero(np.abs(matrix @ query - last) < 1e-6)}


def test_the_int8_first_pass_widens_its_search_when_more_rows_are_in_the_band() -> None:
    """1,500 copies of one row, the query beside it: every copy is within the bound of the
    limit-th score, more than the first pass's first `k`, and all of them are kept."""
    rng = np.random.default_rng(9)
    rows = rng.standard_normal((12_000, 384)).astype(np.float32)
    rows[:1_500] = rows[0]
    matrix = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
    int8 = scan.Int8Rows.build(matrix)
    assert int8 is not None
    query = matrix[0] + 0.01 * rng.standard_normal(384).astype(np.float32)
    query /= np.linalg.norm(query)
    assert set(range(1_500)) <= set(int8.candidates(query, 50, None).tolist())
    got = scan.top(matrix, int8, query, 50, None)
    assert [s for _, s in got] == pytest.approx(
        [s for _, s in scan.top(matrix, None, query, 50, None)], abs=1e-6
    )
