"""LanceDB and PostgreSQL side by side on the same corpus and embeddings: index time and
warm query latency per search mode.

    python -m benchmarks.store_compare --sets devqs --repeat 3
    python -m benchmarks.store_compare --sets devqs --embedder none --modes lexical

Uses the quality benchmark's indexes (`benchmarks/quality/indexes.py`; built if missing,
the second store's embeddings come from the first one's embedding cache, so both hold the
same vectors) and its queries; each query runs once to warm up, then `--repeat` times.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from typing import Any

from benchmarks.quality.indexes import open_index
from benchmarks.quality.run import build_corpora

log = logging.getLogger("store_compare")
MODES = ("lexical", "semantic", "hybrid")


def latencies(eng: Any, queries: list[str], mode: str, repeat: int) -> tuple[float, float]:
    """p50 and p95 in milliseconds of warm `eng.search` calls."""
    for q in queries:
        eng.search(q, k=10, mode=mode)
    samples = []
    for _ in range(repeat):
        for q in queries:
            t0 = time.perf_counter()
            eng.search(q, k=10, mode=mode)
            samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return round(statistics.median(samples), 1), round(samples[int(0.95 * (len(samples) - 1))], 1)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default="devqs")
    parser.add_argument("--embedder", default="all-MiniLM-L6-v2")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--modes", default=",".join(MODES), help="search modes to time")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    rows = []
    for corpus in build_corpora(args.sets.split(",")):
        queries = [q.text for q in corpus.queries]
        for store in ("lancedb", "postgresql"):
            eng, facts = open_index(corpus, args.embedder, store=store)
            eng.keep_warm()
            row: dict[str, Any] = {
                "corpus": corpus.name,
                "store": store,
                "index_s": facts.get("seconds"),
                "queries": len(queries),
            }
            for mode in args.modes.split(","):
                row[mode] = latencies(eng, queries, mode, args.repeat)
            eng.close()
            rows.append(row)
            log.info("%s", row)
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
