"""What an agent pays to use Strata over MCP: the tool list, the tokens per answer, latency.

    python -m benchmarks.mcp tools                 # tools/list serialised, chars/4
    python -m benchmarks.mcp answers [--embedder local|none]
                                                   # devqs: snippets (k=5) vs whole files
    python -m benchmarks.mcp latency --index-dir DIR [--queries 200] [--clients 20]
                                                   # `search` over streamable HTTP, warm server
    python -m benchmarks.mcp inprocess --index-dir DIR [--rounds 4]
                                                   # the `search` tool function, warm engine:
                                                   # p50 of it and of its parts

Tokens are counted as characters / 4 (the usual rule of thumb for English and code).
`answers` asks every developer question of `benchmarks/quality/devqs_*.yaml` through the
MCP `search` tool (k=5, default snippet length) and compares the structured answer with
the whole files its hits are in; a question is answered when a hit overlaps a target span.
`latency` starts `strata serve` on the index, warms it (30 searches, then until the server
is idle: its background warm-up, the call graph, done), then times `search` calls from one
client (the official SDK's `Client`), from a bare JSON-RPC client (the server's round trip
alone: `one_bare_client`), and from `--clients` concurrent SDK clients (each with its own
MCP session).
"""

from __future__ import annotations

import argparse
import functools
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

QUERIES = [
    "where is the configuration read", "how are connections pooled", "retry on failure",
    "parse the url", "session cookie", "who calls execute", "json serialisation",
    "event loop", "logging setup", "close the connection", "transaction commit",
    "compile the query", "default timeout", "type conversion", "error handling",
]  # fmt: skip

PROTOCOL = "2025-06-18"  # the bare client's MCP protocol version
CLIENT_INFO = {"name": "strata-bench-bare", "version": "1"}


def tokens(text: str) -> int:
    """The chars/4 estimate."""
    return (len(text) + 3) // 4


def tools_cost() -> dict[str, Any]:
    """tools/list as a client receives it (in process), in characters and tokens."""
    from strata import Engine
    from strata.surfaces.http.pool import Engines
    from strata.surfaces.http.state import fresh_engine
    from strata.surfaces.jobs import Jobs
    from strata.surfaces.mcp import INSTRUCTIONS, Tools, build

    engines = Engines(Engine.open(Path.cwd()), None)
    server = build(Tools(engines.served, Jobs(functools.partial(fresh_engine, engines))))

    async def listed() -> str:
        async with Client(server) as client:
            result = await client.list_tools()
            return result.model_dump_json(by_alias=True, exclude_none=True)

    text = anyio.run(listed)
    per_tool = {
        t["name"]: tokens(json.dumps(t, separators=(",", ":"))) for t in json.loads(text)["tools"]
    }
    return {
        "chars": len(text),
        "tokens": tokens(text),
        "instructions_tokens": tokens(INSTRUCTIONS),
        "per_tool": per_tool,
    }


def answers_cost(embedder: str, seed: Path | None = None) -> dict[str, Any]:
    """Per devqs question: tokens of the k=5 snippets vs the whole files of the hits
    (`seed`: an embedding cache of another index of the same files, to embed less)."""
    from benchmarks.quality import devqs
    from strata import Engine
    from strata.surfaces.http.pool import Engines
    from strata.surfaces.http.state import fresh_engine
    from strata.surfaces.jobs import Jobs
    from strata.surfaces.mcp import Tools

    rows = []
    for path in devqs.question_files():
        corpus = devqs.build(devqs.load(path))
        eng = Engine.open(corpus.root, config={"embed.provider": embedder})
        if seed is not None:
            eng.index_dir.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(seed, eng.index_dir / "embed_cache.sqlite")
        eng.index()
        engines = Engines(eng, None)
        tools = Tools(engines.served, Jobs(functools.partial(fresh_engine, engines)))
        for q in corpus.queries:
            answer = tools.search(q.text, k=5)
            files = {h.path for h in answer.hits}
            whole = sum(tokens((corpus.root / f).read_text(encoding="utf-8")) for f in files)
            found = any(
                h.path == t.path
                and h.start_line is not None
                and h.end_line is not None
                and h.start_line <= t.end
                and t.start <= h.end_line
                for h in answer.hits
                for t in q.targets
            )
            rows.append(
                {
                    "id": q.id,
                    "snippet_tokens": tokens(answer.model_dump_json()),
                    "file_tokens": whole,
                    "target_in_hits": found,
                }
            )
        engines.close()
    snippets = [r["snippet_tokens"] for r in rows]
    files = [r["file_tokens"] for r in rows]
    return {
        "questions": len(rows),
        "embedder": embedder,
        "snippet_tokens_median": statistics.median(snippets),
        "file_tokens_median": statistics.median(files),
        "snippet_tokens_total": sum(snippets),
        "file_tokens_total": sum(files),
        "saving": round(1 - sum(snippets) / max(1, sum(files)), 3),
        "target_in_hits": sum(r["target_in_hits"] for r in rows),
        "rows": rows,
    }


def percentiles(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {
        "n": len(ordered),
        "p50": round(pick(0.5), 1),
        "p95": round(pick(0.95), 1),
        "max": round(ordered[-1], 1),
    }


async def _timed_searches(url: str, queries: list[str], ms: list[float]) -> None:
    async with Client(url, read_timeout_seconds=60) as client:
        for q in queries:
            start = time.perf_counter()
            result = await client.call_tool("search", {"query": q, "k": 5})
            ms.append((time.perf_counter() - start) * 1000)
            assert not result.is_error, result.content


def _bare_searches(url: str, queries: list[str]) -> list[float]:
    """The same `search` calls from a bare JSON-RPC client (`http.client`, one kept-alive
    connection, no validation): the server's own round trip, without the SDK client's
    CPU per call (its session, transport and output-schema check; ~3-4 ms here)."""
    where = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=60)
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

    def post(body: dict[str, Any]) -> tuple[http.client.HTTPResponse, bytes]:
        conn.request("POST", where.path, body=json.dumps(body), headers=headers)
        response = conn.getresponse()
        return response, response.read()

    hello = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": CLIENT_INFO}
    response, _ = post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello})
    if session := response.getheader("mcp-session-id"):
        headers["mcp-session-id"] = session
    headers["mcp-protocol-version"] = PROTOCOL
    post({"jsonrpc": "2.0", "method": "notifications/initialized"})
    ms = []
    try:
        for i, q in enumerate(queries, 1):
            call = {"name": "search", "arguments": {"query": q, "k": 5}}
            start = time.perf_counter()
            response, body = post(
                {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": call}
            )
            answer = json.loads(body)
            ms.append((time.perf_counter() - start) * 1000)
            assert response.status == 200 and not answer["result"].get("isError"), body[:200]
    finally:
        conn.close()
    return ms


def cpu_ticks() -> tuple[int, int] | None:
    """(all, stolen) CPU ticks of the machine so far (Linux `/proc/stat`; None elsewhere):
    time the hypervisor gave to other guests shows as steal."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return sum(fields[:8]), fields[7] if len(fields) > 7 else 0


def steal_share(start: tuple[int, int] | None, end: tuple[int, int] | None) -> float | None:
    """The share of CPU time stolen between two `cpu_ticks` readings."""
    if start is None or end is None or end[0] <= start[0]:
        return None
    return round((end[1] - start[1]) / (end[0] - start[0]), 3)


def settled(pid: int, every: float = 2.0, timeout: float = 300.0) -> None:
    """Wait until process `pid` uses no CPU for `every` seconds (Linux: /proc)."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return
    cpu = lambda: sum(int(x) for x in stat.read_text().rsplit(")", 1)[1].split()[11:13])  # noqa: E731
    last, deadline = -1, time.monotonic() + timeout
    while time.monotonic() < deadline and (now := cpu()) != last:
        last = now
        time.sleep(every)


def latency(index_dir: Path, n: int, clients: int) -> dict[str, Any]:
    """p50/p95 of MCP `search` over streamable HTTP, alone and with concurrent clients."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "strata", "serve", "--port", "0", "--index-dir", str(index_dir)],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "STRATA_NO_SERVER": "1"},
    )
    try:
        served = index_dir / "serve.json"
        while not served.exists():
            if proc.poll() is not None:
                raise SystemExit(proc.stderr.read() if proc.stderr else "serve failed")
            time.sleep(0.2)
        url = f"http://127.0.0.1:{json.loads(served.read_text())['port']}/mcp"
        queries = [QUERIES[i % len(QUERIES)] for i in range(n)]
        warm: list[float] = []
        anyio.run(_timed_searches, url, queries[:30], warm)
        settled(proc.pid)  # the server's own warm-up (the call graph) done before timing
        ticks = cpu_ticks()
        alone: list[float] = []
        anyio.run(_timed_searches, url, queries, alone)
        bare = _bare_searches(url, queries)
        loaded: list[float] = []

        async def crowd() -> None:
            async with anyio.create_task_group() as tg:
                for c in range(clients):
                    mine = queries[c::clients] or queries[:1]
                    tg.start_soon(_timed_searches, url, mine, loaded)

        anyio.run(crowd)
        load = os.getloadavg()[0]
        stolen = steal_share(ticks, cpu_ticks())
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
    return {
        "one_client": percentiles(alone),
        "one_bare_client": percentiles(bare),
        f"{clients}_clients": percentiles(loaded),
        "load_1min": round(load, 1),
        "cpu_steal_share": stolen,  # of the machine's CPU time while timing
    }


def in_process(index_dir: Path, rounds: int) -> dict[str, Any]:
    """p50 wall time of the MCP `search` tool function on a warm engine (no transport), and
    of the parts it calls (each wrapped with a timer; `who calls` is left out)."""
    import collections

    from strata import Engine
    from strata.query import hybrid
    from strata.store.lance import LanceStore
    from strata.surfaces import mcp
    from strata.surfaces.jobs import Jobs

    parts: dict[str, list[float]] = collections.defaultdict(list)

    def timed(owner: Any, name: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                parts[name].append((time.perf_counter() - start) * 1000)

        setattr(owner, name, wrapper)

    eng = Engine.open(index_dir=index_dir)
    eng.store.keep_warm()  # type: ignore[attr-defined]
    embedder = eng.parts.context().embedder
    if embedder is not None:
        timed(type(embedder()), "embed_query")
    for owner, name in ((LanceStore, "vector_search"), (LanceStore, "lexical_search")):
        timed(owner, name)
    timed(hybrid.Searcher, "_rank")
    timed(Engine, "plan")
    tools = mcp.Tools(lambda: eng, Jobs(lambda: eng))
    queries = [q for q in QUERIES if "calls" not in q]
    for q in queries:  # warm-up
        tools.search(q, k=5)
    parts.clear()
    wall = []
    for q in queries * rounds:
        start = time.perf_counter()
        tools.search(q, k=5).model_dump_json()
        wall.append((time.perf_counter() - start) * 1000)
    eng.close()
    return {
        "tool_p50_ms": round(statistics.median(wall), 2),
        "parts_p50_ms": {k: round(statistics.median(v), 2) for k, v in parts.items()},
        "n": len(wall),
        "load_1min": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("tools")
    answers = sub.add_parser("answers")
    answers.add_argument("--embedder", default="local")
    answers.add_argument("--seed-cache", type=Path, help="an embed_cache.sqlite to start from")
    lat = sub.add_parser("latency")
    lat.add_argument("--index-dir", type=Path, required=True)
    lat.add_argument("--queries", type=int, default=200)
    lat.add_argument("--clients", type=int, default=20)
    near = sub.add_parser("inprocess")
    near.add_argument("--index-dir", type=Path, required=True)
    near.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    if args.what == "tools":
        out = tools_cost()
    elif args.what == "answers":
        out = answers_cost(args.embedder, args.seed_cache)
        out.pop("rows") if not os.environ.get("BENCH_ROWS") else None
    elif args.what == "inprocess":
        out = in_process(args.index_dir.resolve(), args.rounds)
    else:
        out = latency(args.index_dir.resolve(), args.queries, args.clients)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
