"""CPU per query: the query embedding alone, and the whole search path in `strata serve`
(issue 15 item 22: "0.6-0.8 s of CPU per query in the search path").

    python -m benchmarks.query_cpu embed [--model all-MiniLM-L6-v2 --model minilm-int8
                                          --model query-twin] [--agreement]
    python -m benchmarks.query_cpu serve --index-dir DIR [--clients 20 --queries 200]

`embed`, for each local model in a child process of its own: CPU ms and wall ms per
`embed_query`, one query after another and then 20 threads at once (as a server's
request threads call it). `query-twin` is what a search embeds its query with for the
default model (`make_query_embedder`: the int8 twin, its products in 8-bit blocks where
the CPU has them); `minilm-int8` is the same twin with float32 products, as documents are
embedded. `--agreement`: each one's cosine to torch's float32 vectors of the same queries.

`serve` starts `strata serve` on an index built beforehand
(`strata index SDIST --index-dir DIR --model M`), warms it, then sends hybrid `POST
/search` requests, one client after another and then `--clients` at once: the server's
CPU per query (from `/proc/PID/stat`) and the latency percentiles. Every query is
distinct (a numbered variant), so no cache answers twice.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

MODELS = ("all-MiniLM-L6-v2", "minilm-int8", "query-twin")
WORDS = (
    "where is the request timeout set", "how are connections pooled", "retry on failure",
    "parse the url query string", "cookie jar for a session", "stream the response body",
    "proxy configuration from the environment", "close the transport", "redirect handling",
    "basic authentication header", "decode the content encoding", "default limits",
)  # fmt: skip
TICKS = os.sysconf("SC_CLK_TCK")

_EMBED_CHILD = """
import json, sys, threading, time
import numpy as np
from strata.config import load_config
from strata.embedding import make_embedder, make_query_embedder
model, twin = sys.argv[1], sys.argv[1] == "query-twin"
values = {"embed.provider": "local", "embed.model": "all-MiniLM-L6-v2" if twin else model}
cfg = load_config(None, values)
embedder = make_query_embedder(cfg.embed)[0] if twin else make_embedder(cfg.embed)
queries = json.loads(sys.argv[2])
embedder.embed_query("warm up")
out = {}
cpu, wall = time.process_time(), time.perf_counter()
for q in queries[: len(queries) // 2]:
    embedder.embed_query(q)
n = len(queries) // 2
out["sequential"] = {"cpu_ms": (time.process_time() - cpu) / n * 1e3,
                     "wall_ms": (time.perf_counter() - wall) / n * 1e3}
rest = queries[n:]
threads = [threading.Thread(target=lambda part=rest[i::20]: [embedder.embed_query(q) for q in part])
           for i in range(20)]
cpu, wall = time.process_time(), time.perf_counter()
for t in threads:
    t.start()
for t in threads:
    t.join()
out["20_threads"] = {"cpu_ms": (time.process_time() - cpu) / len(rest) * 1e3,
                     "wall_s_total": time.perf_counter() - wall}
result = {k: {m: round(v, 1) for m, v in d.items()} for k, d in out.items()}
if sys.argv[3] == "agreement":
    fp32 = {**values, "embed.model": "all-MiniLM-L6-v2", "embed.precision": "fp32"}
    exact = make_embedder(load_config(None, fp32).embed).embed_documents(queries)
    cos = np.sum(exact * np.stack([embedder.embed_query(q) for q in queries]), axis=1)
    result["cosine_to_fp32"] = {"min": round(float(cos.min()), 5),
                                "mean": round(float(cos.mean()), 5)}
print(json.dumps(result))
"""


def queries(n: int, salt: str = "") -> list[str]:
    """`n` distinct queries (a numbered variant of each phrase)."""
    return [f"{WORDS[i % len(WORDS)]} {salt}{i}" for i in range(n)]


def embed_costs(model: str, n: int = 80, agreement: bool = False) -> dict[str, Any]:
    """CPU and wall per query embedding of `model`, in a fresh process (and its cosine to
    torch's float32 vectors, with `agreement`)."""
    how = "agreement" if agreement else "speed"
    out = subprocess.run(
        [sys.executable, "-c", _EMBED_CHILD, model, json.dumps(queries(n)), how],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def _post(url: str, body: dict[str, Any]) -> float:
    start = time.perf_counter()
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=120) as resp:
        json.loads(resp.read())
    return (time.perf_counter() - start) * 1000


def percentiles(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"n": len(ordered), "p50_ms": round(pick(0.5)), "p95_ms": round(pick(0.95))}


def serve_costs(index_dir: Path, n: int, clients: int, mode: str) -> dict[str, Any]:
    """Server CPU per query and latency, one client and `clients` at once."""
    (index_dir / "serve.json").unlink(missing_ok=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "strata", "serve", "--port", "0", "--index-dir", str(index_dir)],
        env={**os.environ, "STRATA_NO_SERVER": "1"},
    )
    try:
        served = index_dir / "serve.json"
        while not served.exists():
            if proc.poll() is not None:
                raise SystemExit("strata serve failed")
            time.sleep(0.2)
        url = f"http://127.0.0.1:{json.loads(served.read_text())['port']}/search"
        for q in queries(5, "warm "):
            _post(url, {"query": q, "mode": mode, "k": 10})
        out: dict[str, Any] = {"mode": mode}
        cpu = _cpu_seconds(proc.pid)
        alone = [_post(url, {"query": q, "mode": mode, "k": 10}) for q in queries(n // 4, "a")]
        out["one_client"] = {
            "cpu_ms_per_query": round((_cpu_seconds(proc.pid) - cpu) / len(alone) * 1e3, 1),
            **percentiles(alone),
        }
        crowd: list[float] = []
        todo = queries(n, "c")

        def client(part: list[str]) -> None:
            crowd.extend(_post(url, {"query": q, "mode": mode, "k": 10}) for q in part)

        threads = [
            threading.Thread(target=client, args=(todo[i::clients],)) for i in range(clients)
        ]
        cpu = _cpu_seconds(proc.pid)
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        out[f"{clients}_clients"] = {
            "cpu_ms_per_query": round((_cpu_seconds(proc.pid) - cpu) / len(crowd) * 1e3, 1),
            **percentiles(crowd),
        }
        out["load_1min"] = round(os.getloadavg()[0], 1)
        return out
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="what", required=True)
    emb = sub.add_parser("embed")
    emb.add_argument("--model", action="append", choices=MODELS)
    emb.add_argument("--agreement", action="store_true", help="cosine to torch's float32")
    srv = sub.add_parser("serve")
    srv.add_argument("--index-dir", type=Path, required=True)
    srv.add_argument("--queries", type=int, default=200)
    srv.add_argument("--clients", type=int, default=20)
    srv.add_argument("--mode", default="hybrid", choices=("hybrid", "semantic", "lexical"))
    args = parser.parse_args()
    if args.what == "embed":
        result = {m: embed_costs(m, agreement=args.agreement) for m in args.model or MODELS}
    else:
        result = serve_costs(args.index_dir, args.queries, args.clients, args.mode)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
