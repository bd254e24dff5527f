"""A real, misbehaving embedding server on 127.0.0.1 speaking Ollama's and OpenAI's protocol.

Vectors are a hashed bag of words (plus a constant bias, so no text maps to zero), so
texts that share words are similar and the same text always gets the same vector.
Faults are counters: each one spoils that many of the next requests, then the
server behaves again.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

DIM = 32


@dataclass
class Faults:
    """How many of the next requests each fault spoils (`slow` sleeps `delay` seconds).

    `hang` accepts the request and never answers (until the server stops); `trickle`
    sends a valid answer one byte every `delay` seconds.
    """

    slow: int = 0
    delay: float = 0.0
    error_500: int = 0
    error_429: int = 0
    error_400: int = 0
    wrong_dim: int = 0
    partial: int = 0
    malformed: int = 0
    drop: int = 0
    hang: int = 0
    trickle: int = 0

    def take(self, name: str) -> bool:
        """True (and one fewer left) if fault `name` spoils this request."""
        left: int = getattr(self, name)
        if left > 0:
            setattr(self, name, left - 1)
            return True
        return False


@dataclass
class Request:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class EmbedServer:
    """Handle on a running server: its URLs, its faults and what it was asked."""

    host: str
    port: int
    dim: int = DIM
    faults: Faults = field(default_factory=Faults)
    requests: list[Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        """Base URL for Ollama (`/api/embed` is under it)."""
        return f"http://{self.host}:{self.port}"

    @property
    def openai_url(self) -> str:
        """Base URL for OpenAI-compatible clients (`/v1/embeddings`)."""
        return f"{self.url}/v1"


def vector(text: str, dim: int = DIM) -> list[float]:
    """The server's deterministic, unnormalised vector of `text`."""
    out = np.zeros(dim, dtype=np.float64)
    out[0] = 0.25
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
        out[int.from_bytes(digest[:4], "little") % dim] += 1.0 if digest[4] & 1 else -1.0
    return [float(x) for x in out]


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def do_POST(self) -> None:
        state = self.server.state
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.loads(raw or b"{}")
        with state.lock:
            state.requests.append(Request(self.path, dict(self.headers), body))
            spoil = {name: state.faults.take(name) for name in _FAULT_ORDER}
        if self.path not in ("/api/embed", "/v1/embeddings"):
            return self._send(404, {"error": f"no route {self.path}"})
        if spoil["slow"]:
            time.sleep(state.faults.delay)
        if spoil["hang"]:
            self.server.stopped.wait()
            self.close_connection = True
            return None
        if spoil["trickle"]:
            return self._trickle(state)
        if spoil["drop"]:
            self.close_connection = True
            return None
        for name, code in (("error_500", 500), ("error_429", 429), ("error_400", 400)):
            if spoil[name]:
                return self._send(code, {"error": f"injected {code}"})
        if spoil["malformed"]:
            return self._send(200, b'{"embeddings": [[0.1, 0.2')
        texts = body.get("input", [])
        texts = [texts] if isinstance(texts, str) else texts
        dim = state.dim + 1 if spoil["wrong_dim"] else state.dim
        vectors = [vector(t, dim) for t in texts]
        if spoil["partial"]:
            vectors = vectors[:-1]
        return self._send(200, _answer(self.path, body.get("model", ""), vectors))

    def _trickle(self, state: EmbedServer) -> None:
        texts = [str(t) for t in self._last_input(state)]
        data = json.dumps(_answer(self.path, "", [vector(t, state.dim) for t in texts])).encode()
        head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(data)}\r\n\r\n".encode()
        self.close_connection = True
        for i in range(len(head + data)):
            if self.server.stopped.wait(state.faults.delay):
                return
            try:
                self.wfile.write((head + data)[i : i + 1])
                self.wfile.flush()
            except OSError:
                return  # the client gave up, as it should

    @staticmethod
    def _last_input(state: EmbedServer) -> list[Any]:
        with state.lock:
            texts = state.requests[-1].body.get("input", [])
        return [texts] if isinstance(texts, str) else list(texts)

    def _send(self, code: int, payload: dict[str, Any] | bytes) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if code == 429:
            self.send_header("Retry-After", "0")
        self.end_headers()
        self.wfile.write(data)


_FAULT_ORDER = (
    *("slow", "hang", "trickle", "drop", "error_500", "error_429", "error_400"),
    *("malformed", "wrong_dim", "partial"),
)


def _answer(path: str, model: str, vectors: list[list[float]]) -> dict[str, Any]:
    if path == "/api/embed":
        return {"model": model, "embeddings": vectors}
    # Reversed on purpose: clients must order by "index", not by position.
    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
    return {"object": "list", "model": model, "data": data[::-1]}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: EmbedServer
    stopped: threading.Event

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (timeout tests) is expected; stay quiet about it."""


def serve(dim: int = DIM) -> Iterator[EmbedServer]:
    """Run a server on a free loopback port until the generator is closed."""
    httpd = _Server(("127.0.0.1", 0), _Handler)
    host, port = httpd.server_address[:2]
    httpd.state = EmbedServer(str(host), int(port), dim=dim)
    httpd.stopped = threading.Event()
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield httpd.state
    finally:
        httpd.stopped.set()  # hanging and trickling handlers end
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
