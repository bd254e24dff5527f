"""`strata ask` end to end against a local server speaking the Ollama and OpenAI formats."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from strata.answer import answer
from strata.config import load_config
from strata.errors import LlmError
from strata.llm import Llm, make_llm
from tests import llm_server
from tests.llm_server import ChatServer
from tests.test_answer import hit


@pytest.fixture
def chat() -> Iterator[ChatServer]:
    yield from llm_server.serve()


def llm_for(chat: ChatServer, provider: str = "openai") -> Llm:
    url = chat.url if provider == "ollama" else chat.openai_url
    flags = {"llm.provider": provider, "llm.base_url": url, "llm.model": chat.model}
    return make_llm(load_config(None, flags, env={}).llm)


HITS = (hit("pkg/transport.py", 10, 5, title="Transport"), hit("docs/retries.md", 1, 4))


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_the_stream_is_checked_as_it_arrives(chat: ChatServer, provider: str) -> None:
    chat.reply = "Retries are set on the transport [1]. They back off [9][2]. See items[3]."
    chat.thinking = "the user asks about retries"
    stream = answer(lambda q: HITS, llm_for(chat, provider), "how do retries work?", budget=999)
    assert [s.n for s in stream.context.sources] == [1, 2]
    shown = "".join(p.text for p in stream)
    result = stream.answer()
    assert shown == result.text
    assert result.text == "Retries are set on the transport [1]. They back off [2]. See items[3]."
    assert [c.line() for c in result.citations] == [
        "[1] pkg/transport.py:10-14",
        "[2] docs/retries.md:1-4",
    ]
    assert result.invalid_citations == (9,)
    assert result.thinking == "the user asks about retries"
    assert result.model == f"{provider}:tiny"
    t = result.timings
    assert t.first_token_ms is not None and t.retrieve_ms <= t.first_token_ms <= t.total_ms
    prompt = chat.requests[-1]["body"]["messages"][1]["content"]
    assert "[1] pkg/transport.py:10-14 C0_SOURCE_CHUNKS (Transport)" in prompt
    assert "[2] docs/retries.md:1-4" in prompt


def test_thinking_is_shown_only_when_asked(chat: ChatServer) -> None:
    chat.thinking = "hmm"
    stream = answer(lambda q: HITS, llm_for(chat), "q", budget=999, show_thinking=True)
    pieces = list(stream)
    assert "".join(p.text for p in pieces if p.thinking) == "hmm"
    assert "hmm" not in stream.answer().text


def test_an_answer_without_markers_cites_nothing(chat: ChatServer) -> None:
    chat.reply = "I cannot tell from these sources."
    result = answer(lambda q: HITS, llm_for(chat), "q", budget=999).answer()
    assert result.citations == () and result.invalid_citations == ()
    data = result.to_json()
    assert data["citations"] == [] and len(data["sources"]) == 2
    assert [s["n"] for s in data["sources"]] == [1, 2]


def test_a_failed_stream_keeps_the_sources(chat: ChatServer) -> None:
    chat.fault = "cut"
    stream = answer(lambda q: HITS, llm_for(chat), "q", budget=999)
    with pytest.raises(LlmError, match="mid-stream"):
        list(stream)
    assert [h.record.path for h in stream.hits] == ["pkg/transport.py", "docs/retries.md"]
