"""Whole-process latency of `strata search`, without and with a running `strata serve`.

The target: a cold `strata search` in at most 0.5 s (lexical) and 1.5 s (hybrid with the
default local embedder), where a running server may keep things warm. On the click 8.1.8
sources (the quick-start corpus) it builds a lexical index (embedder none) and a
default-embedder index (embedder local, a minute or two the first time), then times N
runs of the `strata` console script as a subprocess (wall clock, p50/p95) in four cases:
lexical or hybrid, without or with a `strata serve` for that index. It checks that a
forwarded run prints exactly what a local one prints.

.venv/bin/python -m benchmarks.cli_latency [--runs 20]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.sdists import CACHE, fetch_sdist

RESULTS = Path(__file__).resolve().parent / "results" / "cli_latency.json"
WORK = CACHE / "cli_latency"
STRATA = Path(sys.executable).parent / "strata"
QUERIES = [
    "where are environment variables read for options",
    "shell completion",
    "how does a command group invoke its subcommands",
    "prompt for a password with confirmation",
    "format the help page",
]
INDEXES = {"lexical": "none", "hybrid": "local"}


def prepare(kind: str, embedder: str) -> Path:
    """A copy of the click sources indexed with `embedder` (kept between runs)."""
    root = WORK / kind / "click-8.1.8"
    if not root.exists():
        shutil.copytree(fetch_sdist("click", "8.1.8"), root)
    started = time.perf_counter()
    subprocess.run(
        [str(STRATA), "index", str(root), "--embedder", embedder, "-q"], check=True, env=_env()
    )
    print(f"{kind}: index ready in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return root


def time_searches(root: Path, runs: int) -> tuple[list[float], list[str]]:
    """Wall-clock seconds of `runs` whole `strata search` processes, and the first outputs."""
    _search(root, QUERIES[0])  # one untimed run: the files are in the page cache after it
    seconds: list[float] = []
    outputs: list[str] = []
    for i in range(runs):
        query = QUERIES[i % len(QUERIES)]
        started = time.perf_counter()
        out = _search(root, query)
        seconds.append(time.perf_counter() - started)
        if i < len(QUERIES):
            outputs.append(out)
    return seconds, outputs


def _search(root: Path, query: str) -> str:
    done = subprocess.run(
        [str(STRATA), "search", query, "-k", "5"],
        cwd=root,
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout + done.stderr


def start_server(root: Path) -> tuple[subprocess.Popen[bytes], float]:
    """`strata serve --port 0` for the index of `root`; the process and its start-up time."""
    served = root / ".strata" / "serve.json"
    started = time.perf_counter()
    proc = subprocess.Popen(
        [str(STRATA), "serve", "--port", "0", "-q"],
        cwd=root,
        env=_env(),
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while not served.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"strata serve did not start for {root}")
        time.sleep(0.02)
    return proc, time.perf_counter() - started


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    if proc.wait(timeout=60) != 0:
        raise RuntimeError(f"strata serve exited {proc.returncode}")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summary(kind: str, server: bool, seconds: list[float]) -> dict[str, Any]:
    return {
        "search": kind,
        "server": server,
        "runs": len(seconds),
        "p50_s": round(percentile(seconds, 50), 3),
        "p95_s": round(percentile(seconds, 95), 3),
        "min_s": round(min(seconds), 3),
        "max_s": round(max(seconds), 3),
    }


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| search | server | runs | p50 (s) | p95 (s) | min (s) | max (s) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['search']} | {'`strata serve`' if r['server'] else 'none'} | {r['runs']} "
            f"| {r['p50_s']:.3f} | {r['p95_s']:.3f} | {r['min_s']:.3f} | {r['max_s']:.3f} |"
        )
    return "\n".join(lines)


def python_floor(runs: int = 10) -> float:
    """p50 of a bare `python -c pass`: the part of every run Strata cannot remove."""
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        seconds.append(time.perf_counter() - started)
    return round(percentile(seconds, 50), 3)


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("STRATA_")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed runs per case")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    rows: list[dict[str, Any]] = []
    starts: dict[str, float] = {}
    for kind, embedder in INDEXES.items():
        root = prepare(kind, embedder)
        cold, local_out = time_searches(root, args.runs)
        proc, starts[kind] = start_server(root)
        try:
            warm, served_out = time_searches(root, args.runs)
        finally:
            stop_server(proc)
        if served_out != local_out:
            raise RuntimeError(f"{kind}: a forwarded search printed something else")
        rows += [summary(kind, False, cold), summary(kind, True, warm)]
    result = {
        "corpus": "click 8.1.8 (PyPI sdist)",
        "command": "strata search QUERY -k 5 (console script, cwd = the repository)",
        "cpus": os.cpu_count(),
        # other work on the machine slows the runs without a server most (they use the CPU)
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "python_startup_p50_s": python_floor(),
        "server_start_s": {k: round(v, 2) for k, v in starts.items()},
        "rows": rows,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(markdown(rows))
    print(
        f"\npython startup p50 {result['python_startup_p50_s']}s; server start "
        + ", ".join(f"{k} {v}s" for k, v in result["server_start_s"].items())
        + f"; load average {result['load_average_1min']} on {result['cpus']} CPUs"
    )


if __name__ == "__main__":
    main()
