"""Ollama's `/api/chat`: a chunked NDJSON stream, one JSON object per line, `done` last."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from strata.config import LlmConfig
from strata.errors import LlmError
from strata.llm import ANSWER_TOKENS, Message, wire

DEFAULT_URL = "http://127.0.0.1:11434"
DEFAULT_MODEL = "qwen3:1.7b"
# Room beyond the packed context for the instructions, the question and the answer:
# Ollama's own default window (2048-4096 tokens) would silently cut a long prompt.
ANSWER_ROOM = 2048


@dataclass(frozen=True, slots=True)
class OllamaLlm(wire.ChatServer):
    """A model served by Ollama."""

    PROVIDER = "ollama"
    num_ctx: int

    @classmethod
    def from_config(cls, cfg: LlmConfig) -> OllamaLlm:
        """From the `llm` config section (empty model/URL: Ollama's usual ones)."""
        return cls(
            cfg.model or DEFAULT_MODEL,
            (cfg.base_url or DEFAULT_URL).rstrip("/"),
            cfg.timeout,
            cfg.temperature,
            cfg.max_context_tokens + ANSWER_ROOM,
        )

    def _pieces(self, messages: Sequence[Message]) -> Iterator[tuple[str, str]]:
        endpoint = wire.Endpoint(
            self.base_url + "/api/chat",
            f"ollama at {self.base_url}",
            "is `ollama serve` running? (llm.base_url)",
            self.timeout,
            {},
        )
        payload = {
            "model": self.model,
            "messages": wire.chat_json(messages),
            "stream": True,
            "options": {
                "temperature": self.temperature,
                "num_ctx": self.num_ctx,
                "num_predict": ANSWER_TOKENS,
            },
        }
        for line in wire.post_lines(endpoint, payload):
            think, text, done = self._read(wire.parse_json(line, endpoint), endpoint)
            yield think, text
            if done:
                return
        raise wire.cut_short(endpoint)

    def _read(self, chunk: Any, endpoint: wire.Endpoint) -> tuple[str, str, bool]:
        if not isinstance(chunk, dict):
            raise LlmError(f"{endpoint.where} sent {chunk!r} instead of a chat chunk")
        if wire.error_message(chunk):
            raise LlmError(f"{endpoint.where}: {wire.error_message(chunk)}", hint=endpoint.hint)
        message = chunk.get("message")
        if not isinstance(message, dict) and not chunk.get("done"):
            raise LlmError(f"{endpoint.where} sent a chunk without a message", hint=endpoint.hint)
        message = message if isinstance(message, dict) else {}
        think, text = message.get("thinking") or "", message.get("content") or ""
        if not isinstance(think, str) or not isinstance(text, str):
            raise LlmError(f"{endpoint.where} sent a message whose content is not text")
        return think, text, bool(chunk.get("done"))

    def _status_error(self, exc: wire.HttpStatusError) -> LlmError:
        text = wire.error_text(exc.detail)
        if exc.status == 404 and "not found" in text.lower():
            return LlmError(
                f"ollama at {self.base_url} has no model {self.model!r}",
                hint=f"run `ollama pull {self.model}`",
            )
        return exc
