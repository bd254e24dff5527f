"""Save -> searchable latency of `strata watch` (p50/p95 over many edits) and a 5,000-file burst.

.venv/bin/python -m benchmarks.watch_latency --edits 50 --burst 5000 [--embedder local]
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import tempfile
import threading
import time
from pathlib import Path

from strata.engine import Engine
from strata.engine.watch import Update, Watcher

log = logging.getLogger("benchmarks.watch_latency")
WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
]


def token(i: int) -> str:
    """A unique lexical token without digits (the tokenizer splits digits off)."""
    return "probe" + "".join(WORDS[int(d)][:3] for d in str(i))


def small_file(i: int) -> str:
    return f'def handler_{i}():\n    """The {token(i)} handler."""\n    return {i}\n'


def large_file(i: int, lines: int = 3000) -> str:
    body = "\n".join(f"def f{j}(x):\n    return x + {j}\n" for j in range(lines // 3))
    return f'"""Large module, edit {token(i)}."""\n' + body + "\n"


class Bench:
    """A watcher on a temporary repository, with update events per path."""

    def __init__(self, root: Path, config: dict[str, str]) -> None:
        self.root = root
        self.engine = Engine.open(root, config=config)
        self.engine.index()
        self.done: dict[str, threading.Event] = {}
        self.count = 0
        self.watcher = Watcher(self.engine, on_update=self._on_update)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.watcher.run, args=(self.stop,), daemon=True)
        self.thread.start()
        self.watcher.wait_ready(600)
        self.reader = Engine.open(index_dir=self.engine.index_dir, config=config)

    def _on_update(self, u: Update) -> None:
        self.count += 1
        ev = self.done.get(u.path)
        if ev is not None and u.chunks > 0:
            ev.set()

    def edit(self, rel: str, text: str, tok: str) -> float:
        """Seconds from the write to a lexical search finding the new token in `rel`."""
        ev = self.done[rel] = threading.Event()
        t0 = time.perf_counter()
        (self.root / rel).write_text(text)
        ev.wait(60)
        while rel not in {h.record.path for h in self.reader.search(tok, k=5, mode="lexical")}:
            ev.clear()
            ev.wait(1.0)
        return time.perf_counter() - t0

    def close(self) -> None:
        self.stop.set()
        t0 = time.perf_counter()
        self.thread.join(timeout=30)
        log.info("stopped in %.3fs", time.perf_counter() - t0)


def percentiles(xs: list[float]) -> dict[str, float]:
    qs = statistics.quantiles(xs, n=20)
    return {
        "p50_ms": round(statistics.median(xs) * 1000, 1),
        "p95_ms": round(qs[18] * 1000, 1),
        "n": len(xs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--burst", type=int, default=5000)
    parser.add_argument("--embedder", default="none")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("strata").setLevel(logging.WARNING)
    out: dict[str, object] = {"embedder": args.embedder}
    with tempfile.TemporaryDirectory(prefix="strata-watch-") as tmp:
        root = Path(tmp) / "repo"
        (root / "pkg").mkdir(parents=True)
        for i in range(200):
            (root / "pkg" / f"m{i}.py").write_text(small_file(i))
        (root / "pkg" / "large.py").write_text(large_file(0))
        bench = Bench(root, {"embed.provider": args.embedder})
        try:
            out["small"] = percentiles(
                [
                    bench.edit("pkg/m7.py", small_file(10_000 + i), token(10_000 + i))
                    for i in range(args.edits)
                ]
            )
            out["large"] = percentiles(
                [
                    bench.edit("pkg/large.py", large_file(20_000 + i), token(20_000 + i))
                    for i in range(args.edits)
                ]
            )
            out["burst"] = burst(bench, args.burst)
        finally:
            bench.close()
    print(json.dumps(out))


def burst(bench: Bench, n: int) -> dict[str, float]:
    """Write n new files at once (a branch switch); seconds until all are indexed, and batches."""
    start_batches, start_count = bench.watcher.batches, bench.count
    t0 = time.perf_counter()
    (bench.root / "branch").mkdir()
    for i in range(n):
        (bench.root / "branch" / f"b{i}.py").write_text(small_file(i))
    written = time.perf_counter() - t0
    while sum(p.startswith("branch/") for p in bench.reader.store.sources()) < n:
        time.sleep(0.2)
    return {
        "files": n,
        "write_s": round(written, 2),
        "absorbed_s": round(time.perf_counter() - t0, 2),
        "batches": bench.watcher.batches - start_batches,
        "updates": bench.count - start_count,
    }


if __name__ == "__main__":
    main()
