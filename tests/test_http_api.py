"""`strata serve`'s HTTP API over a real index: typed endpoints, jobs, the gate, the limits."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from strata import Engine
from strata.surfaces.cli import app
from strata.surfaces.cli.forward import run_command
from strata.surfaces.client import SERVE_FILE, TOKEN_FILE
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.server import Server

pytestmark = pytest.mark.usefixtures("both_stores")

LEXICAL = {"embed.provider": "none"}
MAIN = """import sys


def main() -> int:
    return 0


if __name__ == "__main__":
    sys.exit(main())
"""


@pytest.fixture
def indexed(minirepo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample repository with a `__main__` entry point, indexed lexically (and so
    configured: the server's index jobs use its configuration)."""
    monkeypatch.setenv("STRATA_EMBED_PROVIDER", "none")
    (minirepo / "src" / "minihttp" / "__main__.py").write_text(MAIN)
    Engine.open(minirepo, config=LEXICAL).index()
    return minirepo


@pytest.fixture
def server(indexed: Path) -> Iterator[Server]:
    engines = Engines.open(str(indexed), None, None)
    with Server(engines, "127.0.0.1", 0, cli=run_command(engines, app), idle_timeout=2) as srv:
        yield srv


def request(
    srv: Server,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One request (JSON unless `body` is bytes); (status, decoded JSON reply)."""
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    conn.request(method, path, data, {"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    payload = json.loads(response.read() or b"null")
    conn.close()
    return response.status, payload


def test_typed_endpoints_answer_what_the_engine_answers(server: Server, indexed: Path) -> None:
    eng = Engine.open(indexed)
    status, found = request(server, "POST", "/symbols", {"name": "RetryPolicy"})
    assert status == 200 and found == [
        json.loads(json.dumps(m.to_json())) for m in eng.symbols("RetryPolicy")
    ]
    assert found[0]["title"].endswith("RetryPolicy")
    status, calls = request(server, "POST", "/callers", {"qname": "Client._transmit"})
    assert status == 200 and calls and calls[0]["symbol"]["qname"].endswith("Client.send")
    # through the shared call-link model (CallLinkOut), nothing left out or added
    assert calls == json.loads(json.dumps(eng.callers("Client._transmit").to_json()))
    status, called = request(server, "POST", "/callees", {"qname": "Client.send"})
    assert status == 200 and any(c["symbol"]["qname"].endswith("_transmit") for c in called)
    # a misspelt name: the one defined name it misspells, said in a header
    conn = http.client.HTTPConnection(server.host, server.port, timeout=60)
    body = json.dumps({"qname": "Client._transmti"}).encode()
    conn.request("POST", "/callers", body, {"Content-Type": "application/json"})
    reply = conn.getresponse()
    got, note = json.loads(reply.read()), reply.getheader("X-Strata-Note")
    conn.close()
    assert got == calls
    assert note == (
        "no symbol named 'Client._transmti'; showing 'Client._transmit', "
        "the one defined name this close"
    )
    assert request(server, "POST", "/callers", {"qname": "no_such_function_here"}) == (200, [])
    status, mains = request(server, "POST", "/entrypoints", {})
    assert status == 200 and [m["path"] for m in mains] == ["src/minihttp/__main__.py"]
    assert request(server, "POST", "/entrypoints", {"type": "http"}) == (200, [])
    status, docs = request(server, "POST", "/docs", {})
    assert status == 200 and {d["path"] for d in docs} >= {"docs/guide.md"}
    status, like = request(
        server, "POST", "/similar", {"path": "src/minihttp/client.py", "line": 19}
    )
    assert status == 200 and like["hits"] and like["mode"] == "lexical"
    assert all(
        h["path"] != "src/minihttp/client.py" or h["start_line"] > 22 or h["end_line"] < 18
        for h in like["hits"]
    )  # the passage itself is left out
    status, reply = request(server, "POST", "/similar", {"path": "nope.py", "line": 1})
    assert status == 400 and "not indexed" in reply["error"]
    status, schema = request(server, "GET", "/openapi.json")
    assert status == 200
    assert {"/search", "/symbols", "/callers", "/index", "/jobs/{job_id}", "/cli"} <= set(
        schema["paths"]
    )


def test_an_index_job_runs_in_the_background_with_progress(server: Server, indexed: Path) -> None:
    (indexed / "src" / "minihttp" / "zebra.py").write_text("def zebra_signal():\n    return 2\n")
    status, job = request(server, "POST", "/index", {})
    assert status == 202 and job["state"] == "running"
    deadline = time.monotonic() + 120
    while job["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
        status, job = request(server, "GET", f"/jobs/{job['id']}")
    assert job["state"] == "done", job["error"]
    assert job["summary"]["indexed"] == 1 and job["summary"]["unchanged"] > 0
    status, body = request(server, "POST", "/search", {"query": "zebra_signal", "k": 1})
    assert body["hits"][0]["path"] == "src/minihttp/zebra.py"
    assert request(server, "GET", "/jobs/999")[0] == 404


def test_requests_from_elsewhere_are_refused(server: Server) -> None:
    own = f"http://127.0.0.1:{server.port}"
    for headers, code in [
        ({"Host": "evil.example"}, 403),  # DNS rebinding: the page's own name
        ({"Host": f"127.0.0.1:{server.port + 1}"}, 403),
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Origin": own}, 200),
        ({"Host": f"localhost:{server.port}"}, 200),
    ]:
        status, reply = request(server, "GET", "/health", headers=headers)
        assert status == code, (headers, reply)
    status, reply = request(
        server, "POST", "/search", b'{"query": "x"}', {"Content-Type": "text/plain"}
    )
    assert status == 415 and "application/json" in reply["error"]
    status, reply = request(server, "POST", "/mcp", b"{}", {"Origin": "http://evil.example"})
    assert status == 403  # MCP's transport too
    status, reply = request(server, "GET", "/health", headers={"Origin": own})
    assert status == 200  # no CORS unless configured: no header grants other origins
    conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
    conn.request("GET", "/health", headers={"Origin": "http://evil.example"})
    headers = conn.getresponse().getheaders()
    conn.close()
    assert "access-control-allow-origin" not in {k.lower() for k, _ in headers}


def test_a_token_is_needed_when_set(indexed: Path) -> None:
    engines = Engines.open(str(indexed), None, None)
    with Server(engines, "127.0.0.1", 0, token="s3cret") as srv:
        assert request(srv, "GET", "/health")[0] == 401
        assert request(srv, "GET", "/health", headers={"Authorization": "Bearer nope"})[0] == 401
        good = {"Authorization": "Bearer s3cret"}
        assert request(srv, "GET", "/health", headers=good)[0] == 200
        assert request(srv, "POST", "/mcp", b"{}", {"Accept": "application/json"})[0] == 401


def test_serve_beyond_loopback_generates_and_stores_a_token(indexed: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "STRATA_SERVE_TOKEN"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "strata", "serve", "--host", "0.0.0.0", "--port", "0"],
        cwd=indexed,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        served = indexed / ".strata" / SERVE_FILE
        deadline = time.monotonic() + 120
        while not served.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        info = json.loads(served.read_text())
        token_file = indexed / ".strata" / TOKEN_FILE
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600 and info["token"] is True
        token = token_file.read_text().strip()
        conn = http.client.HTTPConnection("127.0.0.1", info["port"], timeout=30)
        conn.request("GET", "/health")
        refused = conn.getresponse()
        assert refused.status == 401 and b"Bearer" in refused.read()
        conn.request("GET", "/health", headers={"Authorization": f"Bearer {token}"})
        assert conn.getresponse().status == 200
        conn.close()
        forwarded = subprocess.run(  # the launcher reads the token and forwards
            [sys.executable, "-m", "strata.surfaces.launch", "status", "--json"],
            cwd=indexed,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert forwarded.returncode == 0 and json.loads(forwarded.stdout)["rows"] > 0
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    assert token in err and err.count(token) == 1  # printed once


def test_limits_give_4xx_never_500(server: Server) -> None:
    deep = b'{"query": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    for body, code, words in [
        (deep, 400, ""),
        ({"query": "x", "layers": ["Q9"]}, 400, "unknown layer 'Q9'"),
        ({"query": "x", "k": 1001}, 400, '"k"'),
        ({"query": "x" * 5000}, 400, '"query"'),
        ({"query": "   "}, 400, "empty query"),
        ({"query": "x", "filters": {"repo": "a\x00b"}}, 400, "NUL"),
        (b"{" + b'"a": 1,' * 200_000 + b"}", 413, "at most"),
    ]:
        status, reply = request(server, "POST", "/search", body)
        assert status == code, (reply, body if len(body) < 100 else len(body))
        assert words in reply["error"]
    argv = ["search", "\ud800"]  # a lone surrogate: JSON can carry it, UTF-8 cannot
    raw = json.dumps({"argv": argv}).encode()
    status, reply = request(server, "POST", "/cli", raw)
    assert status == 400 and "surrogate" in reply["error"]
    assert request(server, "GET", "/health")[0] == 200


def test_idle_connections_are_closed_and_the_backlog_is_real(server: Server) -> None:
    with socket.create_connection((server.host, server.port), timeout=30) as idle:
        started = time.monotonic()
        assert idle.recv(1) == b""  # closed by the server, having sent nothing
        assert time.monotonic() - started < 20
    listening = subprocess.run(
        ["ss", "-ltnH", f"sport = :{server.port}"], capture_output=True, text=True
    )
    backlog = int(listening.stdout.split()[2])  # Send-Q of a listening socket: its backlog
    assert backlog >= 128


def test_the_servers_end_of_a_connection_sends_at_once(server: Server) -> None:
    """Nagle is off (TCP_NODELAY) on the server's end: a response's body is not held back
    behind its headers until the client's delayed ACK (~40 ms per kept-alive request)."""
    with socket.create_connection((server.host, server.port), timeout=30) as client:
        client.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert client.recv(65536).startswith(b"HTTP/1.1 200")
        nodelay = _nodelay_of_ends_facing(client.getsockname())
    assert nodelay and all(nodelay), nodelay


def _nodelay_of_ends_facing(peer: Any) -> list[int]:
    """TCP_NODELAY of this process's sockets connected to `peer` (the server runs here)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            sock = socket.socket(fileno=os.dup(int(fd)))
        except OSError:
            continue  # not a socket (or closed since the listing)
        with sock, contextlib.suppress(OSError):
            if sock.type == socket.SOCK_STREAM and sock.getpeername() == peer:
                found.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    return found


def test_requests_past_the_concurrency_limit_get_429_at_once(indexed: Path) -> None:
    engines = Engines.open(str(indexed), None, None)
    with Server(engines, "127.0.0.1", 0, max_active=1) as srv:
        with socket.create_connection((srv.host, srv.port), timeout=30) as slow:
            slow.sendall(  # a request whose body is still on its way holds the one slot
                b"POST /search HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"
            )
            time.sleep(0.5)
            status, reply = request(srv, "GET", "/health")
            assert status == 429 and "busy" in reply["error"]
        time.sleep(0.5)
        assert request(srv, "GET", "/health")[0] == 200


def test_fifty_concurrent_clients_get_no_errors(server: Server) -> None:
    failures: list[Any] = []
    queries = ["RetryPolicy", "retry delay", "cookie", "parse_header", "who calls _transmit"]

    def client(i: int) -> None:
        for j in range(4):
            status, body = request(
                server, "POST", "/search", {"query": queries[(i + j) % 5], "k": 3}
            )
            if status != 200 or not body["hits"]:
                failures.append((status, body))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert failures == []
