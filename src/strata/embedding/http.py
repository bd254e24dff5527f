"""Embedding servers over HTTP: Ollama (`/api/embed`) and any OpenAI-compatible `/embeddings`.

Transient trouble (timeouts, dropped connections, 429, 5xx, answers that do not parse
or do not fit the batch) is retried with capped, jittered exponential backoff; other
4xx answers fail at once. `timeout` is a deadline, not a per-read limit: one attempt ends
`timeout` seconds after it began (a server that trickles a byte at a time is cut off),
and a whole call, every retry and backoff included, ends within `RETRY_BUDGET` times
`timeout` (`2 x embed.timeout`). Every answer is checked: one vector per input, all of the
same dimension, equal to the dimension learned from the first answer.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import random
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from strata.config import EmbedConfig
from strata.embedding import normalise
from strata.errors import EmbedderError
from strata.types import Vector

log = logging.getLogger(__name__)

BACKOFF_CAP = 20.0
PROBE = "dimension probe"
RETRY_BUDGET = 2.0  # a call with its retries ends within this many times `timeout`
MIN_ATTEMPT = 0.05  # seconds: less left than this before the deadline and no retry starts


class _Retryable(Exception):
    """A failure worth another try; its text names what went wrong."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one server family is asked for vectors and how its answer is read."""

    path: str
    parse: Callable[[Any], list[Any]]
    hint: str


def _parse_ollama(payload: Any) -> list[Any]:
    vectors = payload.get("embeddings") if isinstance(payload, dict) else None
    if not isinstance(vectors, list):
        raise _Retryable("answered JSON without an 'embeddings' list")
    return vectors


def _parse_openai(payload: Any) -> list[Any]:
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list):
        raise _Retryable("answered JSON without a 'data' list")
    try:
        ordered = sorted(data, key=lambda item: int(item["index"]))
        return [item["embedding"] for item in ordered]
    except (KeyError, TypeError, ValueError) as exc:
        raise _Retryable(f"answered a 'data' item without index/embedding ({exc})") from exc


DIALECTS: dict[str, Dialect] = {
    "ollama": Dialect("/api/embed", _parse_ollama, "is `ollama serve` running, model pulled?"),
    "openai": Dialect("/embeddings", _parse_openai, "check embed.base_url and the API key"),
}


class HttpEmbedder:
    """Vectors from a remote or local embedding server, in batches, with retries."""

    def __init__(
        self,
        kind: str,
        model: str,
        base_url: str,
        *,
        batch_size: int = 64,
        timeout: float = 60.0,
        retries: int = 3,
        api_key: str | None = None,
        backoff: float = 0.5,
    ) -> None:
        self.kind = kind
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.batch_size = max(1, batch_size)
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self._dialect = DIALECTS[kind]
        self._api_key = api_key
        self._dim: int | None = None

    @property
    def name(self) -> str:
        """`<kind>:<model>`, e.g. `ollama:nomic-embed-text`."""
        return f"{self.kind}:{self.model}"

    @property
    def dim(self) -> int:
        """The server's dimension, learned by one probe call if no batch has told it yet."""
        if self._dim is None:
            self._embed_batch([PROBE])
        assert self._dim is not None
        return self._dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit float32 vectors, shape (len(texts), dim), one request per batch.

        Raises:
            EmbedderError: the server failed or answered nonsense, after all retries.
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [
            self._embed_batch(list(texts[i : i + self.batch_size]))
            for i in range(0, len(texts), self.batch_size)
        ]
        return np.concatenate(parts)

    def embed_query(self, text: str) -> Vector:
        """The vector of one query."""
        vector: Vector = self.embed_documents([text])[0]
        return vector

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        attempts = self.retries + 1
        deadline = time.monotonic() + self.timeout * RETRY_BUDGET
        for attempt in range(attempts):
            try:
                answer = self._post(texts, min(deadline, time.monotonic() + self.timeout))
                return self._validate(self._dialect.parse(answer), len(texts))
            except _Retryable as exc:
                delay = self._delay(attempt, exc)
                left = deadline - time.monotonic()
                if attempt + 1 == attempts or left - delay < MIN_ATTEMPT:
                    within = f", {self.timeout * RETRY_BUDGET:g}s budget" if attempts > 1 else ""
                    raise self._error(f"{exc} (after {attempt + 1} attempts{within})") from exc
                log.warning("%s %s; retrying in %.2fs", self._where(), exc, delay)
                time.sleep(delay)
        raise AssertionError("unreachable")

    def _post(self, texts: list[str], deadline: float) -> Any:
        body = json.dumps({"model": self.model, "input": texts}).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        url = urllib.parse.urlsplit(self.base_url + self._dialect.path)
        status, raw, retry_after = _exchange(url, body, headers, deadline)
        if status >= 400:
            detail = " ".join(raw.decode("utf-8", "replace").split())[:200]
            message = f"answered HTTP {status}{': ' + detail if detail else ''}"
            if status == 429 or status >= 500:
                raise _Retryable(message, retry_after)
            raise self._error(message)
        try:
            return json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise _Retryable(f"answered malformed JSON ({exc.__class__.__name__})") from exc

    def _validate(self, vectors: list[Any], expected: int) -> np.ndarray:
        if len(vectors) != expected:
            raise _Retryable(f"answered {len(vectors)} vectors for {expected} inputs")
        try:
            array = np.asarray(vectors, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise _Retryable("answered vectors of differing dimensions") from exc
        if array.ndim != 2 or array.shape[1] == 0:
            raise _Retryable(f"answered vectors of shape {array.shape}")
        if self._dim is not None and array.shape[1] != self._dim:
            raise _Retryable(f"answered {array.shape[1]}-d vectors, expected {self._dim}-d")
        norms = np.linalg.norm(array, axis=1)
        if not np.all(np.isfinite(norms)) or np.any(norms == 0):
            raise _Retryable("answered a zero or non-finite vector")
        self._dim = int(array.shape[1])
        return normalise(array)

    def _delay(self, attempt: int, exc: _Retryable) -> float:
        hinted = exc.retry_after
        base = self.backoff * (2**attempt) if hinted is None else hinted
        return min(BACKOFF_CAP, base) * random.uniform(0.5, 1.0)

    def _where(self) -> str:
        return f"{self.kind} server {self.base_url} (model {self.model})"

    def _error(self, what: str) -> EmbedderError:
        return EmbedderError(f"{self._where()} {what}", hint=self._dialect.hint)


def make_http_embedder(kind: str, model: str, base_url: str, cfg: EmbedConfig) -> HttpEmbedder:
    """An Ollama or OpenAI-compatible embedder built from the `embed` config section."""
    # Only OpenAI-style servers get the key: it must not leak to an Ollama host.
    api_key = os.environ.get(cfg.api_key_env) if kind == "openai" and cfg.api_key_env else None
    return HttpEmbedder(
        kind,
        model,
        base_url,
        batch_size=cfg.batch_size,
        timeout=cfg.timeout,
        retries=cfg.retries,
        api_key=api_key or None,
    )


def _exchange(
    url: urllib.parse.SplitResult, body: bytes, headers: dict[str, str], deadline: float
) -> tuple[int, bytes, float | None]:
    """One POST that ends by `deadline` whatever the server does: (status, body, Retry-After).

    A watchdog shuts the socket down at the deadline, which wakes a read that a server
    keeps alive with a byte now and then (a socket timeout alone never fires then)."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise _Retryable("timed out: no time left")
    cls = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    conn = cls(url.hostname or "127.0.0.1", url.port, timeout=left)
    watchdog = threading.Timer(left, _shut, (conn,))
    watchdog.daemon = True
    watchdog.start()
    try:
        path = url.path + (f"?{url.query}" if url.query else "")
        conn.request("POST", path or "/", body=body, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        return response.status, raw, _retry_after(response.getheader("Retry-After"))
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if time.monotonic() >= deadline - 0.01 or isinstance(exc, TimeoutError):
            raise _Retryable(f"timed out: no whole answer within {left:.3g}s") from exc
        raise _Retryable(f"connection failed: {exc or type(exc).__name__}") from exc
    finally:
        watchdog.cancel()
        conn.close()


def _shut(conn: http.client.HTTPConnection) -> None:
    sock = conn.sock
    if sock is not None:
        with contextlib.suppress(OSError):  # already closed: nothing to wake
            sock.shutdown(socket.SHUT_RDWR)


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
