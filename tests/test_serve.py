"""`strata serve` and the `strata` launcher: a real server over a real index, real processes."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from strata import Engine
from strata.surfaces.cli import app
from strata.surfaces.cli.forward import run_command
from strata.surfaces.client import SERVE_FILE, remove_serve_file, request_for, write_serve_file
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.server import Server

pytestmark = pytest.mark.usefixtures("both_stores")

LEXICAL = {"embed.provider": "none"}


@pytest.fixture
def indexed(minirepo: Path) -> Path:
    """The sample repository, indexed lexically."""
    Engine.open(minirepo, config=LEXICAL).index()
    return minirepo


@pytest.fixture
def server(indexed: Path) -> Iterator[Server]:
    """A server for that index on a free port, serving on a thread of this process."""
    engines = Engines.open(str(indexed), None, None)
    with Server(engines, "127.0.0.1", 0, cli=run_command(engines, app)) as srv:
        yield srv


def call(srv: Server, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One request; (status, decoded JSON). `body` may be raw bytes."""
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    conn.request(method, path, data, {"Content-Type": "application/json"})
    response = conn.getresponse()
    payload = json.loads(response.read())
    conn.close()
    return response.status, payload


def exchange(srv: Server, raw: bytes) -> str:
    """Send raw bytes; everything the server answers before it closes the connection."""
    with socket.create_connection((srv.host, srv.port), timeout=30) as sock:
        sock.sendall(raw)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode()


def cli_body(argv: list[str], **overrides: Any) -> dict[str, Any]:
    """A `/cli` body from this process (the working directory must be the repository),
    for a plain 80-column pipe, like CliRunner's."""
    return {**request_for(argv), "width": 80, "columns": 80, "color": False, **overrides}


def strata(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The `strata` launcher as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "strata.surfaces.launch", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )


def wait_for(check: Callable[[], Any], timeout: float = 60.0) -> Any:
    """Poll until `check()` is truthy; its value (fails after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"still waiting after {timeout}s")


def count_cli_calls(srv: Server) -> list[list[str]]:
    """Record the command line of every `/cli` request the server answers."""
    seen: list[list[str]] = []
    inner = srv.cli
    assert inner is not None

    def spy(body: Mapping[str, Any]) -> dict[str, Any]:
        seen.append(list(body["argv"]))
        return inner(body)

    srv.cli = spy
    return seen


def test_health_names_the_served_index(server: Server, indexed: Path) -> None:
    status, body = call(server, "GET", "/health")
    assert status == 200
    assert body == {
        "ok": True,
        "root": str(indexed),
        "index_dir": str(indexed / ".strata"),
        "pid": os.getpid(),
    }


def test_search_answers_what_the_engine_answers(server: Server, indexed: Path) -> None:
    eng = Engine.open(indexed)
    for query, args in [
        ("RetryPolicy", {"k": 3}),
        ("how do I expire a cookie", {"k": 4, "filters": {"path": ["docs/**"]}}),
        ("retry delay", {"layers": ["C0"], "mode": "lexical", "filters": {"no_tests": True}}),
    ]:
        status, body = call(server, "POST", "/search", {"query": query, **args})
        assert status == 200, body
        expected = eng.search(
            query,
            args.get("k"),
            layers=args.get("layers"),
            filters=args.get("filters"),
            mode=args.get("mode"),
        )
        assert expected.hits, query
        assert body["hits"] == json.loads(json.dumps([h.to_json() for h in expected.hits]))
        assert body["notes"] == list(expected.notes)
    status, body = call(server, "GET", "/status")
    assert status == 200 and body["root"] == str(indexed) and body["rows"] > 0


def test_cli_output_equals_a_direct_run(
    server: Server, indexed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(indexed / "src")
    calls = count_cli_calls(server)
    runner = CliRunner()
    for argv in [
        ["search", "RetryPolicy", "-k", "2", "--explain"],
        ["search", "expire a cookie", "--json", "-k", "3", "--path", "docs/**"],
        ["search", ""],  # a usage error
        ["search", "x", "--mode", "bogus"],
        ["symbols", "Retry"],
        ["docs"],
        ["status", "--json"],
        ["config", "--json"],
    ]:
        direct = runner.invoke(app, argv, prog_name="strata", env={"COLUMNS": "80"})
        status, body = call(server, "POST", "/cli", cli_body(argv))
        assert status == 200, body
        assert not body.get("refused"), body["stderr"]
        assert (body["stdout"], body["stderr"], body["exit_code"]) == (
            direct.stdout,
            direct.stderr,
            direct.exit_code,
        ), argv
    assert len(calls) == 8
    # every command ran on the one warm engine the server opened
    assert server.engines.served() is server.engines.home
    assert server.engines.home.parts.store_open


def test_commands_that_are_not_read_only_are_refused(server: Server, indexed: Path) -> None:
    other = indexed.parent / "other"
    (other / "pkg").mkdir(parents=True)
    (other / "pkg" / "m.py").write_text("def other_function():\n    return 1\n")
    Engine.open(other, config=LEXICAL).index()
    before = Engine.open(indexed).status().to_json()["rows"]
    for argv, env, reason in [
        (["index", str(indexed), "--full"], {}, "read-only commands only"),
        (["watch"], {}, "read-only commands only"),
        ([], {}, "read-only commands only"),
        (["search", "--batch", "queries.txt"], {}, "--batch"),
        (["status", "--index-dir", str(other / ".strata")], {}, "this server serves"),
        (["search", "x", "--index-dir", str(indexed / "nowhere")], {}, "this server serves"),
        (["config", "--index-dir", str(other)], {}, "this server serves"),
        (["config"], {"STRATA_INDEX_DIR": str(other)}, "this server serves"),
        (["search", "x"], {"STRATA_SEARCH_K": "1"}, "STRATA_SEARCH_K"),
    ]:
        body = cli_body(argv, cwd=str(indexed))
        body["env"] = {**body["env"], **env}
        status, reply = call(server, "POST", "/cli", body)
        assert status == 200
        assert reply["refused"] is True and reply["exit_code"] == 2, argv
        assert reason in reply["stderr"] and reply["stderr"].count("\n") == 1
    assert Engine.open(indexed).status().to_json()["rows"] == before


def test_bad_requests_get_a_reason_and_the_server_keeps_serving(server: Server) -> None:
    for method, path, body, code, words in [
        ("POST", "/search", b"{not json", 400, "not JSON"),
        ("POST", "/search", [1, 2], 400, "JSON object"),
        ("POST", "/search", {"query": "x", "colour": 1}, 400, "unknown field 'colour'"),
        ("POST", "/search", {"query": "x", "k": 0}, 400, '"k"'),
        ("POST", "/search", {"query": "x", "mode": "fast"}, 400, '"mode"'),
        ("POST", "/search", {"query": "x", "filters": {"path": 3}}, 400, '"filters.path"'),
        ("POST", "/search", {"query": "   "}, 400, "empty query"),
        ("POST", "/cli", {"argv": "search x"}, 400, '"argv"'),
        ("POST", "/cli", {"argv": ["status"], "width": -1}, 400, '"width"'),
        ("GET", "/search", None, 405, "POST"),
        ("DELETE", "/health", None, 405, "GET"),
        ("GET", "/nope", None, 404, "no such endpoint"),
        ("PATCH", "/cli", None, 501, "PATCH"),
    ]:
        status, reply = call(server, method, path, body)
        assert status == code, (path, body, reply)
        assert words in reply["error"], reply
    head = b"Host: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
    reply = exchange(server, b"POST /search HTTP/1.1\r\n" + head)  # no length
    assert reply.startswith("HTTP/1.1 411") and '"error": "a POST needs a Content-Length' in reply
    reply = exchange(server, b"garbage\r\n\r\n")  # not HTTP at all: a 400, then closed
    assert reply.startswith("HTTP/1.1 400")
    assert call(server, "GET", "/health")[0] == 200


def test_a_running_server_sees_what_another_process_indexes(server: Server, indexed: Path) -> None:
    status, body = call(server, "POST", "/search", {"query": "zebra_crossing_signal"})
    assert status == 200 and not any("zebra" in h["path"] for h in body["hits"])
    (indexed / "src" / "minihttp" / "zebra.py").write_text(
        'def zebra_crossing_signal(x: int) -> int:\n    """The crossing signal."""\n'
        "    return x * 2\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "strata", "index", "--embedder", "none"],
        cwd=indexed,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr  # the server holds no write lock
    status, body = call(server, "POST", "/search", {"query": "zebra_crossing_signal", "k": 3})
    assert body["hits"][0]["path"] == "src/minihttp/zebra.py"
    status, reply = call(
        server, "POST", "/cli", cli_body(["symbols", "zebra_crossing_signal"], cwd=str(indexed))
    )
    assert "minihttp.zebra.zebra_crossing_signal" in reply["stdout"]
    assert server.engines.served() is server.engines.home  # still the warm engine


def test_the_launcher_forwards_to_a_server_and_falls_back_without_one(
    server: Server, indexed: Path
) -> None:
    calls = count_cli_calls(server)
    index_dir = indexed / ".strata"
    commands = [
        ["search", "RetryPolicy", "-k", "2", "--explain"],
        ["search", "cookie", "--json", "-k", "2"],
        ["search", "--help"],
        ["status"],
    ]
    local = [strata(*argv, cwd=indexed / "src") for argv in commands]
    assert calls == [] and all(p.returncode == 0 for p in local), local[0].stderr
    write_serve_file(index_dir, server.host, server.port)
    forwarded = [strata(*argv, cwd=indexed / "src") for argv in commands]
    assert calls == commands
    for here, there in zip(local, forwarded, strict=True):
        assert (there.stdout, there.stderr, there.returncode) == (
            here.stdout,
            here.stderr,
            here.returncode,
        )
    # opted out, and a command that writes: both run locally
    strata("status", cwd=indexed, env={"STRATA_NO_SERVER": "1"})
    assert strata("index", "--embedder", "none", cwd=indexed).returncode == 0
    assert len(calls) == len(commands)
    # a server that is gone leaves a stale serve.json: the launcher runs the command itself
    server.stop()
    stale = strata(*commands[0], cwd=indexed / "src")
    assert (stale.stdout, stale.stderr, stale.returncode) == (
        local[0].stdout,
        local[0].stderr,
        0,
    )
    remove_serve_file(index_dir)
    assert not (index_dir / SERVE_FILE).exists()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_announces_itself_and_stops_cleanly(indexed: Path, sig: signal.Signals) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "strata", "serve", "--port", "0"],
        cwd=indexed,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        served = indexed / ".strata" / SERVE_FILE
        info = json.loads(wait_for(lambda: served.exists() and served.read_text()))
        assert info["pid"] == proc.pid and info["host"] == "127.0.0.1" and info["port"] > 0
        conn = http.client.HTTPConnection(info["host"], info["port"], timeout=30)
        conn.request("GET", "/health")
        assert json.loads(conn.getresponse().read())["pid"] == proc.pid
        conn.close()
        second = subprocess.run(
            [sys.executable, "-m", "strata", "serve", "--port", "0"],
            cwd=indexed,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert second.returncode == 1 and "already runs" in second.stderr
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert f":{info['port']}" in err and "stopped" in err
    assert not served.exists()
