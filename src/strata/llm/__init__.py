"""Local LLMs that answer from retrieved code: one streaming Protocol, providers by name.

    make_llm(cfg.llm)       -> the provider named by `llm.provider` (PROVIDERS)
    llm.stream(messages)    -> the answer's text, piece by piece, as the server sends it

Thinking that a server sends apart from the answer (Ollama's `message.thinking`, an
OpenAI-style `reasoning_content`) comes back wrapped in `<think>...</think>`, the way
qwen3 writes it inline, so one filter (`strata.answer.think`) hides both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from strata.config import LlmConfig

# The longest answer asked for (thinking included): a small model that loses its way
# would otherwise write until its window is full.
ANSWER_TOKENS = 1024


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message: `role` is `system`, `user` or `assistant`."""

    role: str
    content: str


class Llm(Protocol):
    """A chat model that streams its answer."""

    @property
    def name(self) -> str:
        """`<provider>:<model>`, e.g. `ollama:qwen3:1.7b`."""
        ...

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        """The answer to `messages`, piece by piece as it is generated.

        Raises:
            LlmError: unreachable, unknown model, silent past the timeout, HTTP error,
                a stream cut short or an answer that does not parse.
        """
        ...


def _ollama(cfg: LlmConfig) -> Llm:
    from strata.llm.ollama import OllamaLlm

    return OllamaLlm.from_config(cfg)


def _openai(cfg: LlmConfig) -> Llm:
    from strata.llm.openai import OpenAiLlm

    return OpenAiLlm.from_config(cfg)


def _none(cfg: LlmConfig) -> Llm:
    from strata.llm.none import NoLlm

    return NoLlm()


PROVIDERS: dict[str, Callable[[LlmConfig], Llm]] = {
    "ollama": _ollama,
    "openai": _openai,
    "none": _none,
}


def make_llm(cfg: LlmConfig) -> Llm:
    """The LLM that `cfg.provider` names (no connection is made until `stream`)."""
    return PROVIDERS[cfg.provider](cfg)


__all__ = ["ANSWER_TOKENS", "PROVIDERS", "Llm", "Message", "make_llm"]
