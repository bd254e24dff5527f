"""The MCP server driven by the official client: in process, over stdio, over streamable HTTP."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from strata import Engine
from strata.surfaces.client import SERVE_FILE
from strata.surfaces.http.bodies import CallLinkOut
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.state import fresh_engine
from strata.surfaces.jobs import Jobs
from strata.surfaces.mcp import Tools, build

pytestmark = pytest.mark.usefixtures("both_stores")

TOOLS = {
    "search", "find_symbol", "call_graph", "entrypoints", "related", "index_status",
    "reindex",
}  # fmt: skip
TOOL_TOKENS = 1500
MAIN = 'import sys\n\nif __name__ == "__main__":\n    sys.exit(0)\n'


@pytest.fixture
def lexical(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A lexical configuration, for this process and for servers it starts."""
    monkeypatch.setenv("STRATA_EMBED_PROVIDER", "none")
    return {**os.environ, "STRATA_EMBED_PROVIDER": "none"}


@pytest.fixture
def indexed(minirepo: Path, lexical: dict[str, str]) -> Path:
    (minirepo / "src" / "minihttp" / "__main__.py").write_text(MAIN)
    Engine.open(minirepo).index()
    return minirepo


def run(session: Callable[[Client], Awaitable[Any]], target: Any) -> Any:
    """Connect the official client to `target`, run `session` on it, return its value."""

    async def main() -> Any:
        async with Client(target, read_timeout_seconds=120) as client:
            return await session(client)

    return anyio.run(main)


async def call(client: Client, tool: str, **arguments: Any) -> Any:
    """A tool's structured result (fails on a tool error)."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


def test_every_tool_in_process(indexed: Path) -> None:
    engines = Engines.open(str(indexed), None, None)
    server = build(Tools(engines.served, Jobs(lambda: fresh_engine(engines))))

    async def session(client: Client) -> None:
        result = await client.list_tools()
        listed = result.tools
        assert {t.name for t in listed} == TOOLS
        # issue 16's budget: the tool list an agent's model reads every turn, chars/4
        assert len(result.model_dump_json(by_alias=True, exclude_none=True)) / 4 <= TOOL_TOKENS
        for tool in listed:
            assert tool.description and tool.output_schema
            assert tool.annotations is not None
            assert tool.annotations.read_only_hint is (tool.name != "reindex")
        found = await call(client, "search", query="retry delay", k=3, lines=2)
        top = found["hits"][0]
        assert top["path"] == "src/minihttp/client.py" and top["layer"].startswith("C")
        assert top["snippet"].count("\n") <= 2 and top["start_line"] >= 1
        # a hit carries the fields it has: no nulls for the model to read (no focus here)
        assert "focus_start" not in top and None not in top.values()
        docs = await call(client, "search", query="cookie", content="docs")
        assert docs["hits"] and all(h["layer"] == "D0_DOC_CHUNKS" for h in docs["hits"])
        scoped = await call(client, "search", query="retry", path=["tests/**"])
        assert scoped["hits"] and all(h["path"].startswith("tests/") for h in scoped["hits"])
        symbol = (await call(client, "find_symbol", name="RetryPolicy"))["hits"][0]
        assert symbol["title"].endswith("RetryPolicy") and "class RetryPolicy" in symbol["snippet"]
        callers = await call(client, "call_graph", qname="Client._transmit")
        assert callers["targets"] and callers["links"][0]["qname"].endswith("Client.send")
        assert "def send" in callers["links"][0]["code"]
        callees = await call(client, "call_graph", qname="Client.send", direction="callees")
        assert any(link["qname"].endswith("_transmit") for link in callees["links"])
        missing = await call(client, "call_graph", qname="no_such_function_here")
        assert missing["links"] == [] and missing["notes"]
        misspelt = await call(client, "call_graph", qname="Client._transmti")
        assert misspelt["links"] == callers["links"]
        assert misspelt["notes"][0].startswith("no symbol named 'Client._transmti'; showing")
        mains = await call(client, "entrypoints")
        assert [h["path"] for h in mains["hits"]] == ["src/minihttp/__main__.py"]
        like = await call(client, "related", path="src/minihttp/client.py", line=19, k=3)
        assert like["hits"] and len(like["hits"]) <= 3
        status = await call(client, "index_status")
        assert status["exists"] and status["rows"] > 0 and status["pending_files"] == 0
        bad = await client.call_tool("related", {"path": "nope.py", "line": 1})
        assert bad.is_error and "not indexed" in str(bad.content)
        too_many = await client.call_tool("search", {"query": "x", "k": 5000})
        assert too_many.is_error and '"k"' in str(too_many.content)
        job = await call(client, "reindex")
        assert job["job"].startswith(("running", "done"))

    run(session, server)


def test_stdio_builds_a_missing_index_in_the_background(
    minirepo: Path, lexical: dict[str, str]
) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "strata", "mcp", str(minirepo)], env=lexical
    )

    async def session(client: Client) -> list[Any]:
        first = await call(client, "search", query="RetryPolicy")
        deadline = time.monotonic() + 120
        while not (await call(client, "index_status"))["exists"]:
            assert time.monotonic() < deadline
            await anyio.sleep(0.2)
        while (await call(client, "index_status"))["job"].startswith("running"):
            await anyio.sleep(0.2)
        return [first, await call(client, "search", query="RetryPolicy")]

    first, later = run(session, params)
    # asked at once, the answer says the index is on its way (or already has the hit)
    assert first["hits"] or any("being built" in n for n in first["notes"]), first
    assert later["hits"][0]["title"].endswith("RetryPolicy")


def test_streamable_http_on_a_real_server(indexed: Path, lexical: dict[str, str]) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "strata", "serve", "--port", "0"],
        cwd=indexed, env=lexical, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        served = indexed / ".strata" / SERVE_FILE
        deadline = time.monotonic() + 120
        while not served.exists():
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.1)
        port = json.loads(served.read_text())["port"]

        async def session(client: Client) -> tuple[set[str], Any, Any]:
            names = {t.name for t in (await client.list_tools()).tools}
            found = await call(client, "find_symbol", name="parse_header", lines=1)
            return names, found, await call(client, "call_graph", qname="Client._transmit")

        names, found, walk = run(session, f"http://127.0.0.1:{port}/mcp")
        over_http = _post(port, "/callers", {"qname": "Client._transmit"})
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
    assert names == TOOLS
    assert found["hits"][0]["title"].endswith("parse_header")
    assert found["hits"][0]["snippet"].startswith("def parse_header")
    # a call edge carries the same fields over MCP as over HTTP (one model), code aside
    shared = set(CallLinkOut.model_fields) - {"code"}
    links = walk["links"]
    assert links and links[0]["lines"] and links[0]["match"] == "resolved"
    assert [{k: link[k] for k in shared} for link in links] == [
        {k: link[k] for k in shared} for link in over_http
    ]
    place, _, first_lines = links[0]["code"].split("\n… (+")[0].partition("\n")
    chunk = over_http[0]["chunk"]
    assert place == f"{chunk['path']}:{chunk['start_line']}-{chunk['end_line']}"
    assert chunk["content"].startswith(first_lines)


def _post(port: int, path: str, body: Any) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    resp = conn.getresponse()
    status, payload = resp.status, resp.read()
    conn.close()
    assert status == 200, payload
    return json.loads(payload)
