"""Indexing and query speed on real public code: the figures of issue 2 in docs/benchmarks.md.

    python -m benchmarks.index_speed [--corpus sqlalchemy==2.0.36] [--embedder local|none]

Measures, on an unpacked pinned sdist: cold index time to "searchable" and to "fully
embedded", the indexer's embedding rate against the embedder's raw batch throughput in
the same run, no-op and one-file-changed re-index times, warm query latency (p50/p95,
in-process), cold CLI `search` time, peak RSS and index size.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.sdists import fetch_sdist

QUERIES = [
    "create_engine",
    "Session.execute",
    "where is the connection pool configured",
    "how are transactions committed",
    "TypeDecorator",
    "parse the database URL",
    "relationship lazy loading",
    "reflect table columns",
    "compile a select statement",
    "event listeners",
    "declarative base mapping",
    "quote identifiers for the dialect",
    "cache key",
    "bulk insert rows",
    "metadata create_all",
    "json column type",
]

DRIVER = r"""
import json, resource, sys, time
from strata import Engine
root, idx, provider = sys.argv[1], sys.argv[2], sys.argv[3]
t0 = time.monotonic()
eng = Engine.open(root, index_dir=idx, config={"embed.provider": provider})
_ = eng.store  # open the store (imports LanceDB) before timing the index call itself
t1 = time.monotonic()
s = eng.index(full=len(sys.argv) > 4)
out = s.to_json()
out["index_call"] = time.monotonic() - t1
out["wall"] = time.monotonic() - t0
out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run_driver(root: Path, idx: Path, provider: str, full: bool = False) -> dict[str, object]:
    """Index in a fresh process (cold) and return its summary, wall time and peak RSS."""
    cmd = [sys.executable, "-c", DRIVER, str(root), str(idx), provider] + (["full"] if full else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def raw_throughput(idx: Path, provider: str, n: int = 1024) -> float:
    """Texts/s of the embedder alone on the texts the indexer embedded (a sample of n,
    every embedded layer), sorted by length and fed in batches: the model's best case."""
    import random

    from strata import Engine
    from strata.layers import EMBEDDED_LAYERS

    eng = Engine.open(index_dir=idx, config={"embed.provider": provider})
    texts = [r.text_to_embed for r in eng.records(EMBEDDED_LAYERS)]
    texts = sorted(random.Random(7).sample(texts, min(n, len(texts))), key=len)
    emb = eng.embedder()
    emb.embed_documents(texts[:16])  # warm up
    size = eng.config.embed.batch_size
    t = time.perf_counter()
    for i in range(0, len(texts), size):
        emb.embed_documents(texts[i : i + size])
    return len(texts) / (time.perf_counter() - t)


def warm_latency(idx: Path, provider: str, mode: str) -> tuple[float, float]:
    """p50 and p95 in ms of in-process searches after one warm-up round."""
    from strata import Engine

    eng = Engine.open(index_dir=idx, config={"embed.provider": provider})
    for q in QUERIES:
        eng.search(q, k=10, mode=mode)
    times = []
    for _ in range(4):
        for q in QUERIES:
            t = time.perf_counter()
            eng.search(q, k=10, mode=mode)
            times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def cold_cli(idx: Path, mode: str) -> float:
    """Seconds of one `strata search` process, best of 3."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "strata",
                "search",
                "connection pool",
                "--mode",
                mode,
                "--index-dir",
                str(idx),
                "--json",
                "-q",
            ],
            check=True,
            capture_output=True,
        )
        best = min(best, time.perf_counter() - t)
    return best


def du_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="sqlalchemy==2.0.36")
    ap.add_argument("--embedder", default="local")
    args = ap.parse_args()
    name, version = args.corpus.split("==")
    src = fetch_sdist(name, version)
    work = Path(tempfile.mkdtemp(prefix="strata-bench-"))
    root, idx = work / "repo", work / "idx"
    shutil.copytree(src, root)
    files = sum(1 for p in root.rglob("*") if p.is_file())
    res: dict[str, object] = {
        "corpus": args.corpus,
        "files_on_disk": files,
        "embedder": args.embedder,
    }
    cold = run_driver(root, idx, args.embedder, full=True)
    res["cold"] = {
        k: cold[k]
        for k in (
            "files_seen",
            "indexed",
            "rows_by_layer",
            "searchable_seconds",
            "seconds",
            "vectors_embedded",
            "wall",
            "maxrss_mb",
        )
    }
    embed_s = float(cold["seconds"]) - float(cold["searchable_seconds"])  # type: ignore[arg-type]
    if args.embedder != "none" and embed_s > 0:
        res["indexer_chunks_per_s"] = float(cold["vectors_embedded"]) / embed_s  # type: ignore[arg-type]
        res["raw_chunks_per_s"] = raw_throughput(idx, args.embedder)
    noop = run_driver(root, idx, args.embedder)
    res["noop"] = {k: noop[k] for k in ("seconds", "index_call", "wall", "indexed")}
    victim = sorted(root.rglob("*.py"))[len(list(root.rglob("*.py"))) // 2]
    victim.write_text(victim.read_text() + "\n\ndef strata_bench_added():\n    return 42\n")
    time.sleep(0.01)
    one = run_driver(root, idx, args.embedder)
    res["one_file"] = {k: one[k] for k in ("seconds", "index_call", "wall", "indexed")}
    modes = ["lexical"] + (["hybrid"] if args.embedder != "none" else [])
    res["warm_ms"] = {
        m: dict(zip(("p50", "p95"), warm_latency(idx, args.embedder, m), strict=True))
        for m in modes
    }
    res["cold_cli_s"] = {m: cold_cli(idx, m) for m in modes}
    res["index_mb"] = du_mb(idx)
    res["self_maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(res, indent=2))
    out = Path(__file__).parent / "results" / f"index_speed_{name}_{args.embedder}.json"
    out.write_text(json.dumps(res, indent=2))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    main()
