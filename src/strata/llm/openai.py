"""Any OpenAI-compatible `/chat/completions` (llama.cpp, vLLM, LM Studio...): an SSE stream.

Each event is a `data: {json}` line whose `choices[0].delta` holds the next piece;
`data: [DONE]` (or a `finish_reason`) ends the answer.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from strata.config import LlmConfig
from strata.errors import LlmError
from strata.llm import ANSWER_TOKENS, Message, wire

DEFAULT_URL = "http://127.0.0.1:8080/v1"
# A server that hosts one model (llama.cpp's) answers with it whatever the name.
DEFAULT_MODEL = "default"


@dataclass(frozen=True, slots=True)
class OpenAiLlm(wire.ChatServer):
    """A model behind an OpenAI-compatible server; `reasoning_content` is its thinking."""

    PROVIDER = "openai"
    api_key: str | None

    @classmethod
    def from_config(cls, cfg: LlmConfig) -> OpenAiLlm:
        """From the `llm` config section; the key is read from `llm.api_key_env`."""
        key = os.environ.get(cfg.api_key_env) if cfg.api_key_env else None
        return cls(
            cfg.model or DEFAULT_MODEL,
            (cfg.base_url or DEFAULT_URL).rstrip("/"),
            cfg.timeout,
            cfg.temperature,
            key or None,
        )

    def _pieces(self, messages: Sequence[Message]) -> Iterator[tuple[str, str]]:
        endpoint = wire.Endpoint(
            self.base_url + "/chat/completions",
            f"the OpenAI-compatible server at {self.base_url}",
            "is the server running? (llm.base_url, llm.model)",
            self.timeout,
            {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {},
        )
        payload = {
            "model": self.model,
            "messages": wire.chat_json(messages),
            "stream": True,
            "temperature": self.temperature,
            "max_tokens": ANSWER_TOKENS,
        }
        finished = False
        for line in wire.post_lines(endpoint, payload):
            data = _data(line, endpoint)
            if data == b"[DONE]":
                return
            if data is not None:
                think, text, finish = _read(wire.parse_json(data, endpoint), endpoint)
                yield think, text
                finished = finished or finish
        if not finished:
            raise wire.cut_short(endpoint)

    def _status_error(self, exc: wire.HttpStatusError) -> LlmError:
        text = wire.error_text(exc.detail)
        if exc.status == 404 and "model" in text.lower():
            return LlmError(
                f"the server at {self.base_url} has no model {self.model!r}: {text[:200]}",
                hint=f"set llm.model to one that {self.base_url}/models lists",
            )
        if exc.status in (401, 403):
            return LlmError(
                f"the server at {self.base_url} refused the request (HTTP {exc.status})",
                hint="put the API key in the variable that llm.api_key_env names",
            )
        return exc


def _data(line: bytes, endpoint: wire.Endpoint) -> bytes | None:
    """The payload of an SSE `data:` line; None for comments and the other SSE fields."""
    if line.startswith(b"data:"):
        return line[5:].strip()
    if line.startswith((b":", b"event:", b"id:", b"retry:")):
        return None
    shown = line[:80].decode("utf-8", "replace")
    raise LlmError(f"{endpoint.where} sent {shown!r} instead of server-sent events")


def _read(chunk: Any, endpoint: wire.Endpoint) -> tuple[str, str, bool]:
    if wire.error_message(chunk):
        raise LlmError(f"{endpoint.where}: {wire.error_message(chunk)}", hint=endpoint.hint)
    try:
        choice = chunk["choices"][0] if chunk["choices"] else {}
        delta = choice.get("delta") or {}
        think = delta.get("reasoning_content") or ""
        text = delta.get("content") or ""
        finish = choice.get("finish_reason") is not None
    except (KeyError, TypeError, AttributeError) as exc:
        what = f"{endpoint.where} sent a chunk without choices"
        raise LlmError(what, hint=endpoint.hint) from exc
    if not isinstance(think, str) or not isinstance(text, str):
        raise LlmError(f"{endpoint.where} sent a delta whose content is not text")
    return think, text, finish
