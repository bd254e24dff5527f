"""A streamed JSON POST: the body's lines as they arrive, every failure one `LlmError`.

`timeout` bounds every wait on the server (connecting, the first byte, each next line),
so a silent or stalled server is given up after `timeout` seconds, never later. Nothing
is retried: a retried answer would stream its first tokens twice.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from strata.errors import LlmError
from strata.llm import Message


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where a provider posts, and what it tells the user when the server is not there."""

    url: str
    where: str
    hint: str
    timeout: float
    headers: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class ChatServer(ABC):
    """A chat model behind an HTTP server, what every HTTP provider has: its `name` and
    `stream`; a provider adds its fields, `_pieces` (its wire format) and `_status_error`."""

    PROVIDER: ClassVar[str]
    model: str
    base_url: str
    timeout: float
    temperature: float

    @property
    def name(self) -> str:
        """`<provider>:<model>`."""
        return f"{self.PROVIDER}:{self.model}"

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        """The answer's pieces; thinking sent apart comes wrapped in `<think>` tags."""
        return inline_thinking(self._checked(messages))

    def _checked(self, messages: Sequence[Message]) -> Iterator[tuple[str, str]]:
        try:
            yield from self._pieces(messages)
        except HttpStatusError as exc:
            raise self._status_error(exc) from exc

    @abstractmethod
    def _pieces(self, messages: Sequence[Message]) -> Iterator[tuple[str, str]]:
        """(thinking, text) pieces of the answer as the server sends them."""

    def _status_error(self, exc: HttpStatusError) -> LlmError:
        """What an error status means for this provider (by default, the status itself)."""
        return exc


def post_lines(endpoint: Endpoint, payload: Mapping[str, Any]) -> Iterator[bytes]:
    """POST `payload` as JSON and yield each non-blank line of the answer, stripped.

    Raises:
        LlmError: unreachable, timed out, an HTTP error status (its body is kept in
            `detail` for the provider to read), or a connection cut mid-answer.
    """
    body = json.dumps(payload).encode("utf-8")
    headers = {"Content-Type": "application/json", **endpoint.headers}
    request = urllib.request.Request(endpoint.url, data=body, headers=headers, method="POST")
    try:
        response = urllib.request.urlopen(request, timeout=endpoint.timeout)
    except urllib.error.HTTPError as exc:
        raise HttpStatusError(endpoint, exc.code, _body(exc)) from exc
    except (urllib.error.URLError, TimeoutError, http.client.HTTPException, OSError) as exc:
        raise _failure(endpoint, exc, "cannot reach") from exc
    with response:
        while True:
            try:
                line = response.readline()
            except (TimeoutError, http.client.HTTPException, OSError) as exc:
                raise _failure(endpoint, exc, "lost") from exc
            if not line:
                return
            if line.strip():
                yield line.strip()


class HttpStatusError(LlmError):
    """The server answered an error status; `status` and `detail` (its body) say which."""

    def __init__(self, endpoint: Endpoint, status: int, detail: str) -> None:
        shown = f": {detail[:200]}" if detail else ""
        super().__init__(f"{endpoint.where} answered HTTP {status}{shown}", hint=endpoint.hint)
        self.status = status
        self.detail = detail


def error_text(detail: str) -> str:
    """The message inside an error body (`{"error": "..."}` or `{"error": {"message"}}`)."""
    try:
        payload = json.loads(detail)
    except ValueError:
        return detail
    return error_message(payload) or detail


def error_message(payload: Any) -> str:
    """The message of a parsed `{"error": ...}` value; empty when it holds none."""
    err = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(err, dict):
        err = err.get("message")
    return str(err) if err else ""


def parse_json(line: bytes, endpoint: Endpoint) -> Any:
    """One JSON value from one line of the stream, or an `LlmError` naming the garbage."""
    try:
        return json.loads(line)
    except (UnicodeDecodeError, ValueError) as exc:
        shown = line[:80].decode("utf-8", "replace")
        raise LlmError(
            f"{endpoint.where} sent {shown!r}, which is not JSON", hint=endpoint.hint
        ) from exc


def cut_short(endpoint: Endpoint) -> LlmError:
    """The error for a stream that ended before the server said the answer was complete."""
    return LlmError(f"{endpoint.where} ended the answer mid-stream", hint=endpoint.hint)


def _failure(endpoint: Endpoint, exc: BaseException, doing: str) -> LlmError:
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, TimeoutError):
        return LlmError(
            f"{endpoint.where} sent nothing for {endpoint.timeout:g}s (llm.timeout)",
            hint="a larger llm.timeout gives a slow model more time",
        )
    what = str(reason) or type(reason).__name__
    if doing == "lost":
        return LlmError(f"lost the connection to {endpoint.where}: {what}", hint=endpoint.hint)
    return LlmError(f"cannot reach {endpoint.where}: {what}", hint=endpoint.hint)


def _body(exc: urllib.error.HTTPError) -> str:
    try:
        return " ".join(exc.read().decode("utf-8", "replace").split())
    except (OSError, http.client.HTTPException):
        return ""


def inline_thinking(pieces: Iterator[tuple[str, str]]) -> Iterator[str]:
    """(thinking, text) pieces as one text stream, thinking wrapped in `<think>` tags."""
    thinking = False
    for think, text in pieces:
        if think:
            yield think if thinking else "<think>" + think
            thinking = True
        if text:
            yield "</think>" + text if thinking else text
            thinking = False
    if thinking:
        yield "</think>"


def chat_json(messages: Sequence[Message]) -> list[dict[str, str]]:
    """Messages as both chat APIs take them."""
    return [{"role": m.role, "content": m.content} for m in messages]
