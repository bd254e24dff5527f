"""HTTP embedders against a real local server that misbehaves on purpose."""

from __future__ import annotations

import dataclasses
import socket
import time
from collections.abc import Iterator

import numpy as np
import pytest

from strata.config import load_config
from strata.embedding import make_embedder
from strata.embedding.http import RETRY_BUDGET, HttpEmbedder
from strata.errors import EmbedderError
from tests.embed_server import DIM, EmbedServer, serve, vector

TEXTS = ["alpha beta", "beta gamma", "delta"]


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    yield from serve()


@pytest.fixture(params=["ollama", "openai"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def client(server: EmbedServer, kind: str, **kw: object) -> HttpEmbedder:
    url = server.url if kind == "ollama" else server.openai_url
    options: dict[str, object] = {"retries": 3, "timeout": 5.0, "backoff": 0.001, **kw}
    return HttpEmbedder(kind, "test-model", url, **options)  # type: ignore[arg-type]


def expected(texts: list[str]) -> np.ndarray:
    raw = np.array([vector(t) for t in texts], dtype=np.float32)
    unit: np.ndarray = raw / np.linalg.norm(raw, axis=1, keepdims=True)
    return unit


def test_vectors_are_the_servers_in_input_order(server: EmbedServer, kind: str) -> None:
    got = client(server, kind).embed_documents(TEXTS)
    np.testing.assert_allclose(got, expected(TEXTS), atol=1e-6)
    assert server.requests[-1].body == {"model": "test-model", "input": TEXTS}


def test_batches_follow_batch_size(server: EmbedServer, kind: str) -> None:
    texts = [f"text {i}" for i in range(5)]
    got = client(server, kind, batch_size=2).embed_documents(texts)
    assert [len(r.body["input"]) for r in server.requests] == [2, 2, 1]
    np.testing.assert_allclose(got, expected(texts), atol=1e-6)


def test_dim_is_learned_by_one_probe(server: EmbedServer, kind: str) -> None:
    emb = client(server, kind)
    assert emb.dim == DIM and emb.dim == DIM
    assert len(server.requests) == 1
    emb.embed_documents(TEXTS)
    assert len(server.requests) == 2  # no second probe


@pytest.mark.parametrize("fault", ["error_500", "error_429", "drop", "malformed", "partial"])
def test_transient_faults_are_retried(server: EmbedServer, kind: str, fault: str) -> None:
    setattr(server.faults, fault, 2)
    got = client(server, kind, retries=2).embed_documents(TEXTS)
    np.testing.assert_allclose(got, expected(TEXTS), atol=1e-6)
    assert len(server.requests) == 3


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        ("error_500", 'HTTP 500: {"error": "injected 500"}'),
        ("error_429", "HTTP 429"),
        ("drop", "connection failed"),
        ("malformed", "malformed JSON"),
        ("partial", "answered 2 vectors for 3 inputs"),
    ],
)
def test_retries_exhausted_name_the_fault(
    server: EmbedServer, kind: str, fault: str, says: str
) -> None:
    setattr(server.faults, fault, 100)
    with pytest.raises(EmbedderError) as info:
        client(server, kind, retries=2).embed_documents(TEXTS)
    message = str(info.value)
    assert says in message
    assert f"{kind} server http://127.0.0.1:{server.port}" in message
    assert "after 3 attempts" in message
    assert len(server.requests) == 3


def test_client_errors_are_not_retried(server: EmbedServer, kind: str) -> None:
    server.faults.error_400 = 100
    with pytest.raises(EmbedderError, match="HTTP 400"):
        client(server, kind).embed_documents(TEXTS)
    assert len(server.requests) == 1


def test_wrong_dimension_is_detected(server: EmbedServer, kind: str) -> None:
    emb = client(server, kind, retries=1)
    emb.embed_documents(TEXTS)
    server.faults.wrong_dim = 100
    with pytest.raises(EmbedderError, match=f"answered {DIM + 1}-d vectors, expected {DIM}-d"):
        emb.embed_documents(TEXTS)


def test_slow_server_times_out_then_recovers(server: EmbedServer, kind: str) -> None:
    server.faults.slow, server.faults.delay = 1, 2.0
    got = client(server, kind, timeout=0.3, retries=1).embed_documents(TEXTS)
    np.testing.assert_allclose(got, expected(TEXTS), atol=1e-6)


def test_timeout_and_retries_come_from_config(server: EmbedServer) -> None:
    server.faults.slow, server.faults.delay = 100, 2.0
    cfg = dataclasses.replace(
        load_config(env={}).embed, provider="ollama", base_url=server.url, timeout=0.3, retries=0
    )
    with pytest.raises(EmbedderError, match="timed out"):
        make_embedder(cfg).embed_documents(TEXTS)
    assert len(server.requests) == 1


def test_nobody_listening_is_a_connection_error(kind: str) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    emb = HttpEmbedder(kind, "m", f"http://127.0.0.1:{port}", retries=1, backoff=0.001)
    with pytest.raises(EmbedderError, match="connection failed"):
        emb.embed_documents(TEXTS)


def test_api_key_goes_to_openai_only(server: EmbedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_EMBED_KEY", "sk-test-123")
    base = dataclasses.replace(load_config(env={}).embed, api_key_env="MY_EMBED_KEY")
    openai = dataclasses.replace(base, provider="openai", base_url=server.openai_url)
    make_embedder(openai).embed_documents(TEXTS)
    assert server.requests[-1].headers.get("Authorization") == "Bearer sk-test-123"
    ollama = dataclasses.replace(base, provider="ollama", base_url=server.url)
    make_embedder(ollama).embed_documents(TEXTS)
    assert "Authorization" not in server.requests[-1].headers


def test_model_name_from_config_is_sent(server: EmbedServer) -> None:
    cfg = dataclasses.replace(
        load_config(env={}).embed, provider="ollama", base_url=server.url, model="mxbai"
    )
    emb = make_embedder(cfg)
    emb.embed_documents(TEXTS)
    assert emb.name == "ollama:mxbai"
    assert server.requests[-1].body["model"] == "mxbai"


@pytest.mark.parametrize("fault", ["hang", "trickle"])
def test_timeout_is_a_deadline_for_the_whole_call(
    server: EmbedServer, kind: str, fault: str
) -> None:
    """A server that accepts and never answers, or answers a byte every 0.2 s (each read
    well inside the timeout), costs at most 2 x timeout, every retry included."""
    setattr(server.faults, fault, 100)
    server.faults.delay = 0.2
    emb = client(server, kind, timeout=1.0, retries=3)
    started = time.monotonic()
    with pytest.raises(EmbedderError, match="timed out"):
        emb.embed_documents(TEXTS)
    took = time.monotonic() - started
    assert took < 1.0 * RETRY_BUDGET + 0.5, took
    setattr(server.faults, fault, 0)
    np.testing.assert_allclose(emb.embed_documents(TEXTS), expected(TEXTS), atol=1e-6)


def test_a_trickled_answer_inside_the_deadline_is_read(server: EmbedServer, kind: str) -> None:
    server.faults.trickle, server.faults.delay = 1, 0.0005
    got = client(server, kind, timeout=5.0, retries=0).embed_documents(TEXTS)
    np.testing.assert_allclose(got, expected(TEXTS), atol=1e-6)
