"""Speed of the embedded LanceDB store: writes, FTS and vector queries, sources(), open.

Rows are 40-line windows of real Python from this interpreter's site-packages with
random 384-d unit vectors. Run: `.venv/bin/python benchmarks/store_speed.py`
(`--ann-rows 0` skips the slow ANN part).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from strata.index.records import chunk_id, make_record
from strata.store import Filter, lance
from strata.store.lance import LanceStore
from strata.types import Record

log = logging.getLogger("store_speed")
DIM = 384
QUERIES = [
    ["parse", "header"], ["read", "file", "encoding"], ["http", "request", "timeout"],
    ["json", "decode"], ["thread", "lock"], ["cache", "key"], ["path", "join"],
    ["error", "message", "raise"], ["config", "default", "value"], ["socket", "connect"],
]  # fmt: skip


def windows(limit: int) -> Iterator[tuple[str, int, str]]:
    """(relative path, ordinal, text) of 40-line windows of installed Python files."""
    root = Path(sysconfig.get_paths()["purelib"])
    n = 0
    for file in sorted(root.rglob("*.py")):
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        rel = file.relative_to(root).as_posix()
        for i, start in enumerate(range(0, len(lines), 40)):
            yield rel, i, "\n".join(lines[start : start + 40])
            n += 1
            if n >= limit:
                return


def batches(rows: int, seed: int, prefix: str = "") -> Iterator[dict[str, list[Record]]]:
    """Commits of ~3000 rows, whole files each, with random unit vectors."""
    rng = np.random.default_rng(seed)
    batch: dict[str, list[Record]] = {}
    size = 0
    for rel, i, text in windows(rows):
        path = prefix + rel
        vec = rng.normal(size=DIM).astype(np.float32)
        record = make_record(
            id=chunk_id(path, i), path=path, layer="C0_SOURCE_CHUNKS", title="", content=text,
            lang="python", file_hash="h", span=(40 * i + 1, 40 * i + 40), kind="block",
        )  # fmt: skip
        batch.setdefault(path, []).append(_with_vector(record, vec / np.linalg.norm(vec)))
        size += 1
        if size >= 3000 and i == 0 and len(batch) > 1:
            last = batch.pop(path)
            yield batch
            batch, size = {path: last}, len(last)
    if batch:
        yield batch


def _with_vector(r: Record, vec: np.ndarray[Any, Any]) -> Record:
    import dataclasses

    return dataclasses.replace(r, vector=vec.astype(np.float32), file_size=1, file_mtime_ns=1)


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def write(store: LanceStore, rows: int, seed: int, prefix: str = "") -> tuple[int, float]:
    n, t0 = 0, time.perf_counter()
    for batch in batches(rows, seed, prefix):
        store.replace_sources(batch)
        n += sum(len(v) for v in batch.values())
    return n, time.perf_counter() - t0


def query_latencies(store: LanceStore, label: str) -> None:
    rng = np.random.default_rng(1)
    qs = [rng.normal(size=DIM).astype(np.float32) for _ in range(40)]
    it = iter(range(10**9))
    p50, p95 = timed(lambda: store.lexical_search(QUERIES[next(it) % 10], 20, Filter()), 40)
    log.info("%s FTS top-20: p50 %.1f ms, p95 %.1f ms", label, p50, p95)
    p50, p95 = timed(lambda: store.vector_search(qs[next(it) % 40], 20, Filter()), 40)
    log.info("%s vector top-20: p50 %.1f ms, p95 %.1f ms", label, p50, p95)
    p50, p95 = timed(lambda: store.vector_search(qs[next(it) % 40], 20, Filter(is_test=False)), 20)
    log.info("%s vector top-20 with filter: p50 %.1f ms, p95 %.1f ms", label, p50, p95)


def ann(store: LanceStore, extra: int) -> None:
    """Grow to 30k + `extra` vector rows; compare flat search with two ANN indexes."""
    from lancedb.index import IvfHnswSq, IvfPq

    lance.ANN_MIN_ROWS = 10**12  # keep the search flat until the indexes below are built
    n, secs = write(store, extra, seed=2, prefix="copy/")
    store.optimize()
    total = store._table.count_rows()
    log.info("grew by %d rows in %.1f s; %d rows in all", n, secs, total)
    rng = np.random.default_rng(3)
    qs = [rng.normal(size=DIM).astype(np.float32) for _ in range(30)]
    exact = [[r.id for r, _ in store.vector_search(q, 10, Filter())] for q in qs]
    p50, p95 = timed(lambda: store.vector_search(qs[0], 10, Filter()), 10)
    log.info("flat vector top-10 over %d: p50 %.1f ms, p95 %.1f ms", total, p50, p95)
    configs = {
        "IVF_PQ": IvfPq(distance_type="cosine", num_sub_vectors=DIM // 8),
        "IVF_HNSW_SQ": IvfHnswSq(distance_type="cosine"),
    }
    for name, config in configs.items():
        t0 = time.perf_counter()
        store._table.create_index("vector", config=config, name="vector_idx", replace=True)
        build = time.perf_counter() - t0
        store._has_ann = True
        got = [[r.id for r, _ in store.vector_search(q, 10, Filter())] for q in qs]
        recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(exact, got, strict=True)])
        p50, p95 = timed(lambda: store.vector_search(qs[0], 10, Filter()), 20)
        log.info(
            "%s: build %.1f s, top-10 p50 %.1f ms, p95 %.1f ms, recall@10 %.2f",
            name, build, p50, p95, recall,
        )  # fmt: skip


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=30_000)
    parser.add_argument("--ann-rows", type=int, default=90_000, help="extra rows for ANN")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store = LanceStore(tmp, DIM)
        log.info("create: %.0f ms", (time.perf_counter() - t0) * 1000)
        n, secs = write(store, args.rows, seed=0)
        log.info("replace: %d rows in %.1f s = %.0f rows/s", n, secs, n / secs)
        query_latencies(store, "unoptimized")
        t0 = time.perf_counter()
        store.optimize()
        log.info("optimize: %.1f s", time.perf_counter() - t0)
        query_latencies(store, "optimized")
        p50, p95 = timed(store.sources, 10)
        log.info("sources() over %d rows: p50 %.1f ms, p95 %.1f ms", n, p50, p95)
        p50, p95 = timed(store.counts, 10)
        log.info("counts(): p50 %.1f ms", p50)
        paths = tuple(store.sources())[::2]
        p50, _ = timed(lambda: store.fetch(Filter(paths=paths), limit=10), 5)
        log.info("fetch with %d paths in the filter: p50 %.1f ms", len(paths), p50)
        p50, _ = timed(lambda: LanceStore(tmp, DIM, create=False), 5)
        log.info("open existing: p50 %.0f ms", p50)
        log.info("ANN threshold in lance.py: %d vector rows", lance.ANN_MIN_ROWS)
        if args.ann_rows:
            ann(store, args.ann_rows)


if __name__ == "__main__":
    main(sys.argv[1:])
