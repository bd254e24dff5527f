"""`llm.provider: none`: no model; asking says so, and the retrieved sources still show."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from strata.errors import LlmError
from strata.llm import Message


class NoLlm:
    """The provider that answers nothing."""

    name = "none"

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        """Raise at once: there is no model to ask."""
        raise LlmError(
            "no LLM configured (llm.provider is none)",
            hint="set llm.provider to ollama or openai, e.g. STRATA_LLM_PROVIDER=ollama",
        )
        yield ""  # a generator, like every provider's stream
