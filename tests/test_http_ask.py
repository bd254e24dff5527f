"""`POST /ask` on `strata serve`: the answer as server-sent events, checked citations last."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from strata import Engine
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.server import Server
from tests import llm_server
from tests.llm_server import ChatServer


@pytest.fixture
def chat() -> Iterator[ChatServer]:
    yield from llm_server.serve()


@pytest.fixture
def server(minirepo: Path, chat: ChatServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    for key, value in {
        "EMBED_PROVIDER": "none",
        "LLM_PROVIDER": "ollama",
        "LLM_BASE_URL": chat.url,
        "LLM_MODEL": chat.model,
    }.items():
        monkeypatch.setenv(f"STRATA_{key}", value)
    Engine.open(minirepo).index()
    with Server(Engines.open(str(minirepo), None, None), "127.0.0.1", 0) as srv:
        yield srv


def ask(srv: Server, body: dict[str, Any]) -> tuple[int, str, list[tuple[str, Any]]]:
    """(status, content type, [(event, data)]) of one POST /ask."""
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
    conn.request("POST", "/ask", json.dumps(body), {"Content-Type": "application/json"})
    response = conn.getresponse()
    raw = response.read().decode()
    conn.close()
    kind = response.getheader("Content-Type", "")
    if not kind.startswith("text/event-stream"):
        return response.status, kind, [("json", json.loads(raw))]
    events = []
    for block in raw.split("\n\n"):
        if block.strip():
            fields = dict(line.split(": ", 1) for line in block.splitlines())
            events.append((fields["event"], json.loads(fields["data"])))
    return response.status, kind, events


def test_tokens_stream_then_the_checked_answer(server: Server, chat: ChatServer) -> None:
    chat.reply = "Retries use RetryPolicy [1]. Invented [77]."
    status, kind, events = ask(server, {"query": "how does the client retry?", "k": 5})
    assert status == 200 and kind.startswith("text/event-stream")
    names = [name for name, _ in events]
    assert names[-1] == "answer" and set(names[:-1]) == {"token"} and len(names) > 3
    answer = events[-1][1]
    assert "".join(d["text"] for n, d in events if n == "token") == answer["answer"]
    assert answer["answer"] == "Retries use RetryPolicy [1]. Invented."
    assert answer["invalid_citations"] == [77] and [c["n"] for c in answer["citations"]] == [1]
    assert answer["model"] == "ollama:tiny" and len(answer["sources"]) <= 5


def test_a_failing_model_is_an_error_event_with_the_sources(
    server: Server, chat: ChatServer
) -> None:
    chat.fault = "unknown_model"
    status, _, events = ask(server, {"query": "how does the client retry?"})
    assert status == 200
    ((name, data),) = events
    assert name == "error" and "no model 'tiny'" in data["error"]
    assert data["hint"] == "run `ollama pull tiny`" and data["sources"]


def test_a_bad_question_is_a_plain_400(server: Server) -> None:
    status, _, events = ask(server, {"query": "   "})
    assert status == 400 and "error" in events[0][1]
