"""The LLM providers against a local server speaking Ollama's and OpenAI's wire formats."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from strata.config import LlmConfig, load_config
from strata.errors import LlmError
from strata.llm import ANSWER_TOKENS, Llm, Message, make_llm
from tests import llm_server
from tests.llm_server import ChatServer

ASK = [Message("system", "cite"), Message("user", "how?")]


@pytest.fixture
def chat() -> Iterator[ChatServer]:
    yield from llm_server.serve()


def llm_for(chat: ChatServer, provider: str, **keys: object) -> Llm:
    url = chat.url if provider == "ollama" else chat.openai_url
    flags = {"llm.provider": provider, "llm.base_url": url, "llm.model": chat.model, **keys}
    cfg: LlmConfig = load_config(None, flags, env={}).llm
    return make_llm(cfg)


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_a_streamed_answer_arrives_piece_by_piece(chat: ChatServer, provider: str) -> None:
    pieces = list(llm_for(chat, provider, **{"llm.temperature": 0.3}).stream(ASK))
    assert len(pieces) > 3
    assert "".join(pieces) == chat.reply
    body = chat.requests[-1]["body"]
    assert body["stream"] is True and body["model"] == "tiny"
    assert body["messages"] == [
        {"role": "system", "content": "cite"},
        {"role": "user", "content": "how?"},
    ]
    options = body["options"] if provider == "ollama" else body
    assert options["temperature"] == 0.3
    assert options["num_predict" if provider == "ollama" else "max_tokens"] == ANSWER_TOKENS


def test_ollama_gets_a_window_that_holds_the_context(chat: ChatServer) -> None:
    list(llm_for(chat, "ollama", **{"llm.max_context_tokens": 5000}).stream(ASK))
    assert chat.requests[-1]["body"]["options"]["num_ctx"] >= 5000 + 1024


def test_only_the_openai_provider_sends_the_api_key(
    chat: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_KEY", "sekrit")
    list(llm_for(chat, "openai", **{"llm.api_key_env": "MY_KEY"}).stream(ASK))
    assert chat.requests[-1]["headers"]["Authorization"] == "Bearer sekrit"
    list(llm_for(chat, "ollama", **{"llm.api_key_env": "MY_KEY"}).stream(ASK))
    assert "Authorization" not in chat.requests[-1]["headers"]


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_thinking_sent_apart_comes_back_in_think_tags(chat: ChatServer, provider: str) -> None:
    chat.thinking = "let me see"
    text = "".join(llm_for(chat, provider).stream(ASK))
    assert text == f"<think>let me see</think>{chat.reply}"


def test_an_unknown_ollama_model_names_the_pull_to_run(chat: ChatServer) -> None:
    llm = llm_for(chat, "ollama", **{"llm.model": "qwen3:4b"})
    with pytest.raises(LlmError) as err:
        list(llm.stream(ASK))
    assert "no model 'qwen3:4b'" in err.value.message
    assert err.value.hint == "run `ollama pull qwen3:4b`"


def test_an_unknown_openai_model_says_so(chat: ChatServer) -> None:
    with pytest.raises(LlmError, match=r"no model 'gpt-9'.*does not exist"):
        list(llm_for(chat, "openai", **{"llm.model": "gpt-9"}).stream(ASK))


FAULTS = {
    "error_500": "answered HTTP 500: .*injected failure",
    "cut": "ended the answer mid-stream",
    "drop": "lost the connection",
    "garbage": "sent '<html>.*(not JSON|instead of server-sent events)",
}


@pytest.mark.parametrize("provider", ["ollama", "openai"])
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_broken_server_is_one_clear_error(chat: ChatServer, provider: str, fault: str) -> None:
    chat.fault = fault
    with pytest.raises(LlmError, match=FAULTS[fault]):
        list(llm_for(chat, provider).stream(ASK))


@pytest.mark.parametrize("provider", ["ollama", "openai"])
@pytest.mark.parametrize("fault", ["slow", "stall"])
def test_a_silent_server_is_given_up_after_the_timeout(
    chat: ChatServer, provider: str, fault: str
) -> None:
    chat.fault, chat.delay = fault, 5.0
    started = time.monotonic()
    with pytest.raises(LlmError, match=r"sent nothing for 0.5s \(llm.timeout\)"):
        list(llm_for(chat, provider, **{"llm.timeout": 0.5}).stream(ASK))
    assert time.monotonic() - started < 3.0


@pytest.mark.parametrize("provider", ["ollama", "openai"])
def test_an_unreachable_server_says_where_it_looked(provider: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free once closed: nothing listens there
    url = f"http://127.0.0.1:{port}" + ("/v1" if provider == "openai" else "")
    cfg = load_config(None, {"llm.provider": provider, "llm.base_url": url}, env={}).llm
    with pytest.raises(LlmError, match=f"cannot reach .*127.0.0.1:{port}.*refused"):
        list(make_llm(cfg).stream(ASK))


def test_no_provider_says_how_to_configure_one() -> None:
    cfg = load_config(None, {"llm.provider": "none"}, env={}).llm
    llm = make_llm(cfg)
    assert llm.name == "none"
    with pytest.raises(LlmError, match="no LLM configured") as err:
        list(llm.stream(ASK))
    assert "STRATA_LLM_PROVIDER" in (err.value.hint or "")


def test_llm_keys_come_from_the_environment() -> None:
    env = {
        "STRATA_LLM_PROVIDER": "openai",
        "STRATA_LLM_MAX_CONTEXT_TOKENS": "1234",
        "STRATA_LLM_TIMEOUT": "7.5",
    }
    cfg = load_config(None, env=env)
    assert (cfg.llm.provider, cfg.llm.max_context_tokens, cfg.llm.timeout) == ("openai", 1234, 7.5)
    assert cfg.sources["llm.provider"] == "env"
