"""PostgreSQL store under load: a large synthetic index, and many writers beside many readers.

    python -m benchmarks.pg_load synthetic --rows 1000000   # insert rate, HNSW build, p50/p95,
                                                            # recall@10 vs exact, database size
    python -m benchmarks.pg_load concurrent --seconds 60    # 4 writers + 16 readers

`synthetic` loads 40-line windows of the real Python in this interpreter's site-packages
(repeated under other paths to reach `--rows`) with random unit vectors, through the
store's own write path (`replace_sources`: prepare, then DELETE + COPY per batch), with the
HNSW index dropped during the load and rebuilt by `ensure_indexes()` after, as a bulk load
would do. `concurrent` runs writer processes (one repository each, each write replacing one
whole file with a new version of 2-6 rows) and reader threads that check every read: one
file's rows are all of one version and as many as that version has. Both run against a
real server (`benchmarks/pgserver.py`) or `--uri`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import multiprocessing
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import psycopg

from benchmarks.store_speed import QUERIES, windows
from strata.index.records import chunk_id, make_record
from strata.store import Filter, open_store
from strata.types import Record

log = logging.getLogger("pg_load")
DIM = 384
BATCH = 5000


def _percentiles(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return _percentiles(out)


def synthetic_rows(total: int, seed: int) -> Iterator[tuple[dict[str, list[Record]], np.ndarray]]:
    """Batches of whole files (~BATCH rows) and their vectors, `total` rows in all."""
    texts = list(windows(min(total, 200_000)))
    rng = np.random.default_rng(seed)
    batch: dict[str, list[Record]] = {}
    vecs: list[np.ndarray] = []
    made, copy = 0, 0
    while made < total:
        for rel, i, text in texts:
            if made >= total:
                break
            if i == 0 and len(vecs) >= BATCH:
                yield batch, np.stack(vecs)
                batch, vecs = {}, []
            path = f"copy{copy}/{rel}"
            v = rng.normal(size=DIM).astype(np.float32)
            v /= np.linalg.norm(v)
            r = make_record(
                id=chunk_id(path, i), path=path, layer="C0_SOURCE_CHUNKS", title="",
                content=text, lang="python", file_hash="h", span=(40 * i + 1, 40 * i + 40),
                kind="block",
            )  # fmt: skip
            is_test = "test" in rel
            batch.setdefault(path, []).append(dataclasses.replace(r, vector=v, is_test=is_test))
            vecs.append(v)
            made += 1
        copy += 1
    if vecs:
        yield batch, np.stack(vecs)


def synthetic(uri: str, rows: int) -> dict[str, Any]:
    store = open_store(uri, DIM)
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute("DROP INDEX IF EXISTS rag_chunks_embedding")
    ids: list[str] = []
    vectors: list[np.ndarray] = []
    t0 = time.perf_counter()
    n = 0
    for batch, vecs in synthetic_rows(rows, seed=0):
        store.replace_sources(batch)
        ids += [r.id for rs in batch.values() for r in rs]
        vectors.append(vecs)
        n += len(vecs)
        if n % 50_000 < BATCH:
            log.info("%d rows, %.0f rows/s", n, n / (time.perf_counter() - t0))
    insert = time.perf_counter() - t0
    t0 = time.perf_counter()
    store.ensure_indexes()  # the HNSW index, built over every row at once
    store.optimize()
    build = time.perf_counter() - t0
    matrix = np.concatenate(vectors)
    rng = np.random.default_rng(7)
    queries = [rng.normal(size=DIM).astype(np.float32) for _ in range(50)]
    found = [[r.id for r, _ in store.vector_search(q, 10, Filter())] for q in queries]
    exact = [
        [ids[i] for i in np.argsort(-(matrix @ (q / np.linalg.norm(q))))[:10]] for q in queries
    ]
    recall = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(found, exact, strict=True)]))
    it = iter(range(10**9))
    lex = _timed(lambda: store.lexical_search(QUERIES[next(it) % 10], 10, Filter()), 30)
    vec = _timed(lambda: store.vector_search(queries[next(it) % 50], 10, Filter()), 30)
    vec_f = _timed(
        lambda: store.vector_search(queries[next(it) % 50], 10, Filter(is_test=True)), 30
    )
    lex_f = _timed(
        lambda: store.lexical_search(QUERIES[next(it) % 10], 10, Filter(is_test=True)), 30
    )
    with psycopg.connect(uri) as conn:
        size = conn.execute("SELECT pg_total_relation_size('rag_chunks')").fetchone()[0]  # type: ignore[index]
    store.close()
    return {
        "rows": n,
        "insert_s": round(insert, 1),
        "rows_per_s": round(n / insert),
        "hnsw_build_s": round(build, 1),
        "recall_at_10": round(recall, 3),
        "lexical_ms": lex,
        "lexical_filtered_ms": lex_f,
        "vector_ms": vec,
        "vector_filtered_ms": vec_f,
        "table_bytes": int(size),
    }


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


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["synthetic", "concurrent"])
    parser.add_argument("--uri", default=None, help="a store URI (default: the cache's server)")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=16)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    from benchmarks.pgserver import store_uri

    uri = args.uri or store_uri(f"pg_load-{args.mode}-{time.time()}")
    if args.mode == "synthetic":
        result = synthetic(uri, args.rows)
    else:
        result = concurrent(uri, args.seconds, args.writers, args.readers)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
