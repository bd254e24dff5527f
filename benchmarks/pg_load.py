"""PostgreSQL store under load: a large synthetic index, and many writers beside many readers.

    python -m benchmarks.pg_load synthetic --rows 1000000   # insert rate, HNSW build, p50/p95,
                                                            # recall@10 vs exact, database size
    python -m benchmarks.pg_load concurrent --seconds 60    # 4 writers + 16 readers

`synthetic` loads 40-line windows of the real Python in this interpreter's site-packages
(repeated under other paths to reach `--rows`), through the store's own write path
(`replace_sources`: prepare, then DELETE + COPY per batch; `--writers` processes, each its
share of the batches), with the full-text and HNSW indexes dropped during the load and
rebuilt by `ensure_indexes()` after, as a bulk load would do (a second run with the same
`--uri` measures the queries again without loading). The vectors are real embeddings read
from `--vectors` caches, each copy of the set turned by a random rotation of its own (the
queries: held-out embeddings, turned by a random copy's rotation), or random unit vectors
without `--vectors`; recall@10 is measured against exact search for each `--ef`.
`concurrent` runs writer processes (one repository each, each write replacing one whole
file with a new version of 2-6 rows) and reader threads that check every read: one file's
rows are all of one version and as many as that version has. Both run against a
real server (`benchmarks/pgserver.py`) or `--uri`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import multiprocessing
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

from benchmarks.pg_concurrent import concurrent
from benchmarks.pg_vectors import BATCH, DIM, Vectors, hybrid_figures, queries, real_vectors, timed
from benchmarks.store_speed import QUERIES, windows
from strata.index.records import chunk_id, make_record
from strata.store import Filter, open_store
from strata.store.postgres import search
from strata.store.postgres import store as pg_store
from strata.store.postgres.migrations import index_ddl
from strata.types import Record

log = logging.getLogger("pg_load")


Planned = list[tuple[str, int, str]]  # a batch's rows: (path, window ordinal, text)


def planned_batches(total: int) -> Iterator[Planned]:
    """Batches of whole files (~BATCH rows), `total` rows in all, in row order."""
    texts = list(windows(min(total, 200_000)))
    batch: Planned = []
    made, copy = 0, 0
    while made < total:
        for rel, i, text in texts[: total - made]:
            if i == 0 and len(batch) >= BATCH:
                yield batch
                batch = []
            batch.append((f"copy{copy}/{rel}", i, text))
        made += min(len(texts), total - made)
        copy += 1
    if batch:
        yield batch


def records(batch: Planned, first: int, vectors: Vectors) -> dict[str, list[Record]]:
    """The batch's records by path; row `first + n` gets vector `first + n`."""
    out: dict[str, list[Record]] = {}
    for n, (path, i, text) in enumerate(batch):
        r = make_record(
            id=chunk_id(path, i), path=path, layer="C0_SOURCE_CHUNKS", title="",
            content=text, lang="python", file_hash="h", span=(40 * i + 1, 40 * i + 40),
            kind="block",
        )  # fmt: skip
        r = dataclasses.replace(r, vector=vectors(first + n), is_test="test" in path)
        out.setdefault(path, []).append(r)
    return out


def write_share(
    uri: str, total: int, caches: list[Path], share: int, shares: int, done: frozenset[int]
) -> None:
    """Write every `shares`-th batch (from batch `share` on) through the store, but those
    in `done` (already written by an earlier run)."""
    store = open_store(uri, DIM)
    vectors = Vectors(real_vectors(caches)[50:] if caches else None)
    first = 0
    for n, batch in enumerate(planned_batches(total)):
        if n % shares == share and n not in done:
            store.replace_sources(records(batch, first, vectors))
        first += len(batch)
    store.close()


def expected(rows: int, caches: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """Every row's vector and test flag, in row order (and `_ORDINAL`, id -> row)."""
    vectors = Vectors(real_vectors(caches)[50:] if caches else None)
    tests: list[bool] = []
    matrix = np.empty((rows, DIM), dtype=np.float32)
    for batch in planned_batches(rows):
        for path, i, _ in batch:
            _ORDINAL[chunk_id(path, i)] = len(tests)
            matrix[len(tests)] = vectors(len(tests))
            tests.append("test" in path)
    return matrix, np.array(tests)


def written(uri: str, rows: int) -> frozenset[int]:
    """The batches an earlier, interrupted load wrote whole (`--resume`)."""
    with psycopg.connect(uri) as conn:
        present = {p for (p,) in conn.execute("SELECT DISTINCT path FROM rag_chunks")}
    done = (n for n, b in enumerate(planned_batches(rows)) if {p for p, _, _ in b} <= present)
    return frozenset(done)


def load(
    store: Any, uri: str, rows: int, caches: list[Path], writers: int, resume: bool
) -> dict[str, Any]:
    """Write `rows` synthetic rows through the store (`writers` processes, each its share
    of the batches), then build the indexes over them. `resume`: write only the batches an
    earlier load did not, with the full-text index kept current (so that it can be searched
    meanwhile), and time the builds of both indexes after."""
    done = written(uri, rows) if resume else frozenset()
    before = store.count() if resume else 0
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute("DROP INDEX IF EXISTS rag_chunks_embedding")
        if not resume:
            conn.execute("DROP INDEX IF EXISTS rag_chunks_lex")
    ctx = multiprocessing.get_context("spawn")
    procs = [
        ctx.Process(target=write_share, args=(uri, rows, caches, i, writers, done))
        for i in range(writers)
    ]
    log.info("%d batches written before, %d rows", len(done), before)
    t0 = time.perf_counter()
    for p in procs:
        p.start()
    while any(p.is_alive() for p in procs):
        time.sleep(30)
        done = store.count()
        log.info("%d rows, %.0f rows/s", done, done / (time.perf_counter() - t0))
    if any(p.exitcode for p in procs):
        raise SystemExit("a writer failed")
    insert = time.perf_counter() - t0
    n = store.count()
    figures = {"rows": n, "writers": writers, "insert_s": round(insert, 1)}
    figures["rows_per_s"] = round((n - before) / insert)
    if resume:
        figures["resumed_from_rows"] = before
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute("DROP INDEX IF EXISTS rag_chunks_lex")
    return {**figures, **build(store)}


def build(store: Any) -> dict[str, Any]:
    """Build the indexes the load left out, each timed (GIN, then HNSW)."""
    out: dict[str, Any] = {}
    for name in store.integrity().missing:
        t0 = time.perf_counter()
        with store._write(f"build {name}") as conn:
            conn.execute(f"SET LOCAL maintenance_work_mem = '{pg_store.BUILD_MEMORY}'".encode())
            conn.execute(index_ddl(DIM)[name].encode())
        out[f"{name}_build_s"] = round(time.perf_counter() - t0, 1)
        log.info("built %s in %.0f s", name, out[f"{name}_build_s"])
    store.optimize()  # ANALYZE
    return out


def cut(uri: str, rows: int) -> int:
    """Keep the longest run of whole batches an interrupted load wrote, in row order, and
    drop the rest: a load measured at the size it reached (returns its rows)."""
    with psycopg.connect(uri) as conn:
        present = {p for (p,) in conn.execute("SELECT DISTINCT path FROM rag_chunks")}
        kept, n = set(), 0
        for batch in planned_batches(rows):
            names = {path for path, _, _ in batch}
            if not names <= present:
                break
            kept |= names
            n += len(batch)
        conn.execute("DELETE FROM rag_chunks WHERE path = ANY(%s)", (sorted(present - kept),))
    log.info("kept the first %d rows", n)
    return n


_ORDINAL: dict[str, int] = {}  # row id -> its row in the load's vector matrix


def recall(store: Any, qs: np.ndarray, matrix: np.ndarray, keep: np.ndarray | None) -> float:
    """Mean recall@10 of the store's vector search against exact search (row order = id order)."""
    hits = 0
    for q in qs:
        scores = matrix @ q
        if keep is not None:
            scores = np.where(keep, scores, -np.inf)
        exact = set(np.argsort(-scores)[:10].tolist())
        where = Filter(is_test=True) if keep is not None else Filter()
        found = store.vector_search(q, 10, where)
        hits += len(exact & {_ORDINAL[r.id] for r, _ in found})
    return hits / (10 * len(qs))


def synthetic(
    uri: str,
    rows: int,
    caches: list[Path],
    efs: list[int],
    writers: int,
    resume: bool,
    *,
    measure_only: bool = False,
    lexical: bool = True,
    hybrid: bool = True,
) -> dict[str, Any]:
    """Load (unless the store already holds `rows`, or `measure_only`), build what is
    missing, then measure recall and latency at each `ef_search` in `efs`."""
    default_ef = search.EF_SEARCH
    base = held = None
    if caches:
        real = real_vectors(caches)
        held, base = real[:50], real[50:]
        log.info("%d real vectors (%d held out as queries)", len(real), len(held))
    store = open_store(uri, DIM)
    figures: dict[str, Any] = {"rows": store.count()}
    if measure_only and figures["rows"] != rows:
        raise SystemExit(f"--measure-only: the store holds {figures['rows']} rows, not {rows}")
    if figures["rows"] != rows:  # else: measure the queries of a former run's load
        figures = load(store, uri, rows, caches, writers, resume)
        log.info("loaded: %s", figures)
    elif not measure_only:
        figures.update(build(store))
    matrix, tests = expected(rows, caches)
    qs = queries(base, held, rows)
    figures["vectors"] = "rotated real MiniLM" if caches else "random"
    figures["is_test_rows"] = int(tests.sum())
    it = iter(range(10**9))
    for ef in efs:
        search.EF_SEARCH = ef
        figures[f"ef{ef}"] = {
            "recall_at_10": round(recall(store, qs, matrix, None), 3),
            "recall_at_10_is_test": round(recall(store, qs, matrix, tests), 3),
            "vector_ms": timed(lambda: store.vector_search(qs[next(it) % 50], 10, Filter()), 30),
            "vector_is_test_ms": timed(
                lambda: store.vector_search(qs[next(it) % 50], 10, Filter(is_test=True)), 30
            ),
        }
        log.info("ef_search %d: %s", ef, figures[f"ef{ef}"])
    search.EF_SEARCH = default_ef
    if lexical:
        figures["lexical_ms"] = timed(
            lambda: store.lexical_search(QUERIES[next(it) % 10], 10, Filter()), 30
        )
        figures["lexical_is_test_ms"] = timed(
            lambda: store.lexical_search(QUERIES[next(it) % 10], 10, Filter(is_test=True)), 30
        )
    if hybrid:
        figures.update(hybrid_figures(store, qs))
    with psycopg.connect(uri) as conn:
        for name in ("rag_chunks", "rag_chunks_lex", "rag_chunks_embedding"):
            size = conn.execute("SELECT pg_total_relation_size(%s)", (name,)).fetchone()
            figures[f"{name}_bytes"] = int(size[0]) if size else 0
    store.close()
    return figures


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["synthetic", "concurrent"])
    parser.add_argument("--uri", default=None, help="a store URI (default: the cache's server)")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=16)
    parser.add_argument(
        "--vectors", type=Path, action="append", default=[],
        help="an embedding cache (embed_cache.sqlite) whose vectors, rotated, the rows get",
    )  # fmt: skip
    parser.add_argument("--ef", type=int, action="append", help="hnsw.ef_search values to try")
    parser.add_argument("--build-memory", default=None, help="maintenance_work_mem for HNSW")
    parser.add_argument(
        "--cut", action="store_true", help="measure an interrupted load at the size it reached"
    )
    parser.add_argument(
        "--resume", action="store_true", help="finish an interrupted load (with --uri)"
    )
    parser.add_argument(
        "--measure-only", action="store_true",
        help="only measure a finished load (no load, no index build)",
    )  # fmt: skip
    parser.add_argument("--no-lexical", action="store_true", help="skip the BM25 timings")
    parser.add_argument("--no-hybrid", action="store_true", help="skip the hybrid timings")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    from benchmarks.pgserver import store_uri

    uri = args.uri or store_uri(f"pg_load-{args.mode}-{time.time()}")
    if args.build_memory:
        pg_store.BUILD_MEMORY = args.build_memory
    if args.cut:
        args.rows = cut(uri, args.rows)
    if args.mode == "synthetic":
        result = synthetic(
            uri, args.rows, args.vectors, args.ef or [search.EF_SEARCH], args.writers,
            args.resume, measure_only=args.measure_only, lexical=not args.no_lexical,
            hybrid=not args.no_hybrid,
        )  # fmt: skip
    else:
        result = concurrent(uri, args.seconds, args.writers, args.readers)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
