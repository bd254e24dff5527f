"""A real chat server on 127.0.0.1 speaking Ollama's `/api/chat` (chunked NDJSON) and
OpenAI's `/v1/chat/completions` (SSE), with a scripted answer and scripted faults.

`fault` spoils every request until it is reset: `unknown_model`, `error_500`, `slow`
(silent for `delay` seconds before the first byte), `stall` (two pieces, then silent
for `delay`), `cut` (a well-formed stream that stops before it says it is done),
`drop` (the connection closed in the middle of a chunk), `garbage` (HTML, not JSON).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

OLLAMA, OPENAI = "/api/chat", "/v1/chat/completions"


@dataclass
class ChatServer:
    """Handle on a running server: what it answers, its fault, and what it was asked."""

    host: str
    port: int
    reply: str = "The answer is in the transport [1]."
    thinking: str = ""
    model: str = "tiny"
    fault: str = ""
    delay: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)

    @property
    def url(self) -> str:
        """Base URL for Ollama."""
        return f"http://{self.host}:{self.port}"

    @property
    def openai_url(self) -> str:
        """Base URL for OpenAI-compatible clients."""
        return f"{self.url}/v1"


def pieces(text: str) -> list[str]:
    """The reply cut the way a tokenizer might: words with their spaces, brackets apart."""
    return re.findall(r"\s*\[|\d+\]|\s*[^\s\[]+|\s+", text)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the access log."""

    def do_POST(self) -> None:
        state = self.server.state
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        seen = {"path": self.path, "body": body, "headers": dict(self.headers)}
        state.requests.append({**seen, "at": time.monotonic()})
        if self.path not in (OLLAMA, OPENAI):
            return self._json(404, {"error": f"no route {self.path}"})
        if state.fault == "slow":
            time.sleep(state.delay)
        if state.fault == "unknown_model" or body.get("model") != state.model:
            return self._unknown_model(body.get("model", ""))
        if state.fault == "error_500":
            return self._json(500, {"error": "injected failure"})
        if state.fault == "garbage":
            return self._raw(200, "text/html", b"<html><body>502 Bad Gateway</body></html>\n")
        lines = _ollama(state) if self.path == OLLAMA else _openai(state)
        kind = "application/x-ndjson" if self.path == OLLAMA else "text/event-stream"
        self._stream(kind, lines, state)

    def _unknown_model(self, model: str) -> None:
        if self.path == OLLAMA:
            return self._json(404, {"error": f'model "{model}" not found, try pulling it first'})
        message = f"The model `{model}` does not exist or you do not have access to it."
        err = {"message": message, "type": "invalid_request_error", "code": "model_not_found"}
        return self._json(404, {"error": err})

    def _stream(self, kind: str, lines: list[bytes], state: ChatServer) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if state.fault == "cut":
            lines = lines[:3]  # ended properly, but before the server said it was done
        for i, line in enumerate(lines):
            if state.fault == "stall" and i == 2:
                time.sleep(state.delay)
            if state.fault == "drop" and i == 3:
                self.wfile.write(b"%x\r\n" % 200 + line[:5])  # promised 200 bytes, sent 5
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def _json(self, code: int, payload: dict[str, Any]) -> None:
        self._raw(code, "application/json", json.dumps(payload).encode())

    def _raw(self, code: int, kind: str, data: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _ollama(state: ChatServer) -> list[bytes]:
    def chunk(content: str, thinking: str = "", done: bool = False) -> bytes:
        message = {"role": "assistant", "content": content}
        if thinking:
            message["thinking"] = thinking
        out: dict[str, Any] = {"model": state.model, "created_at": "2026-01-01T00:00:00Z"}
        out |= {"message": message, "done": done}
        if done:
            out |= {"done_reason": "stop", "prompt_eval_count": 99, "eval_count": 9}
        return json.dumps(out).encode() + b"\n"

    think = [chunk("", thinking=t) for t in pieces(state.thinking)]
    return [*think, *(chunk(p) for p in pieces(state.reply)), chunk("", done=True)]


def _openai(state: ChatServer) -> list[bytes]:
    def event(delta: dict[str, str], finish: str | None = None) -> bytes:
        payload = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": state.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return b"data: " + json.dumps(payload).encode() + b"\n\n"

    think = [event({"reasoning_content": t}) for t in pieces(state.thinking)]
    body = [event({"content": p}) for p in pieces(state.reply)]
    return [
        event({"role": "assistant", "content": ""}),
        *think,
        *body,
        event({}, "stop"),
        b"data: [DONE]\n\n",
    ]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: ChatServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (timeouts, Ctrl-C) is expected; stay quiet."""


def serve() -> Iterator[ChatServer]:
    """Run a server on a free loopback port until the generator is closed."""
    httpd = _Server(("127.0.0.1", 0), _Handler)
    host, port = httpd.server_address[:2]
    httpd.state = ChatServer(str(host), int(port))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield httpd.state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
