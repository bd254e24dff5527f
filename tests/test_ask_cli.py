"""`strata ask` as a user runs it: a real process, a local chat server, exit codes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from strata import Engine
from tests import llm_server
from tests.conftest import CORPORA
from tests.llm_server import ChatServer

QUESTION = "how does the client retry a request?"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ask") / "minirepo"
    shutil.copytree(CORPORA / "minirepo", root)
    Engine.open(root, config={"embed.provider": "none"}).index()
    return root


@pytest.fixture
def chat() -> Iterator[ChatServer]:
    yield from llm_server.serve()


def ask(
    repo: Path, chat: ChatServer, *args: str, provider: str = "openai", **env: str
) -> subprocess.CompletedProcess[str]:
    url = chat.url if provider == "ollama" else chat.openai_url
    llm_env = {"STRATA_LLM_PROVIDER": provider, "STRATA_LLM_BASE_URL": url}
    llm_env |= {"STRATA_LLM_MODEL": chat.model, "COLUMNS": "300"}
    return subprocess.run(
        [sys.executable, "-m", "strata", "ask", QUESTION, *args],
        cwd=repo,
        env={**os.environ, **llm_env, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_answer_streams_and_ends_with_the_cited_sources(repo: Path, chat: ChatServer) -> None:
    chat.reply = "The client retries with a RetryPolicy [1]. See also [2]."
    done = ask(repo, chat, "-k", "4")
    assert done.returncode == 0, done.stderr
    answer, _, cited = done.stdout.partition("\n\n")
    assert answer.strip() == chat.reply
    lines = cited.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("[1] ") and lines[1].startswith("[2] ")
    path, _, span = lines[0].split()[1].partition(":")
    assert (repo / path).is_file() and span.replace("-", "").isdigit()
    prompt = chat.requests[-1]["body"]["messages"][1]["content"]
    assert f"[1] {lines[0].split()[1]}" in prompt  # the cited lines are the ones it was given


def test_json_has_the_documented_shape(repo: Path, chat: ChatServer) -> None:
    chat.reply = "Retries come from RetryPolicy [1][42]."
    done = ask(repo, chat, "--json", provider="ollama")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    keys = {"answer", "citations", "sources", "model", "invalid_citations", "timings"}
    assert set(data) == keys
    assert data["answer"] == "Retries come from RetryPolicy [1]."
    assert data["invalid_citations"] == [42]
    assert data["model"] == "ollama:tiny"
    (c,) = data["citations"]
    assert set(c) == {"n", "path", "start_line", "end_line", "layer", "title"} and c["n"] == 1
    first = data["sources"][0]
    assert (first["path"], first["start_line"], first["n"]) == (c["path"], c["start_line"], 1)
    assert {"id", "path", "start_line", "end_line", "layer", "content", "score"} <= set(first)
    assert set(data["timings"]) == {"retrieve_ms", "first_token_ms", "total_ms"}


def test_an_answer_citing_nothing_says_so(repo: Path, chat: ChatServer) -> None:
    chat.reply = "No idea."
    done = ask(repo, chat)
    assert done.returncode == 0
    assert "cites none of the sources" in done.stderr
    assert "sources retrieved:" in done.stdout and "[1] " in done.stdout


def test_thinking_is_hidden_unless_asked(repo: Path, chat: ChatServer) -> None:
    chat.thinking = "Let me look at the retry code."
    assert "Let me look" not in ask(repo, chat).stdout
    assert "Let me look at the retry code." in ask(repo, chat, "--show-thinking").stdout


FAULTS = [
    ("unknown_model", "ollama", "has no model 'tiny'", "run `ollama pull tiny`"),
    ("unknown_model", "openai", "has no model 'tiny'", "set llm.model"),
    ("slow", "ollama", "sent nothing for 1s (llm.timeout)", "larger llm.timeout"),
    ("error_500", "openai", "answered HTTP 500", "is the server running"),
    ("cut", "ollama", "ended the answer mid-stream", "ollama serve"),
    ("drop", "openai", "lost the connection", "is the server running"),
    ("garbage", "ollama", "which is not JSON", "ollama serve"),
]


@pytest.mark.parametrize(("fault", "provider", "error", "hint"), FAULTS)
def test_a_broken_llm_is_one_line_the_sources_and_exit_2(
    repo: Path, chat: ChatServer, fault: str, provider: str, error: str, hint: str
) -> None:
    chat.fault, chat.delay = fault, 10.0
    done = ask(repo, chat, provider=provider, STRATA_LLM_TIMEOUT="1")
    assert done.returncode == 2, done.stderr
    assert time.monotonic() - chat.requests[-1]["at"] < 9.0  # never waits out the 10 s
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and error in errors[0], done.stderr
    assert hint in done.stderr
    assert "Traceback" not in done.stderr
    assert "sources retrieved:" in done.stdout and "src/minihttp/client.py" in done.stdout


def test_an_unreachable_server_and_no_provider(repo: Path, chat: ChatServer) -> None:
    gone = ask(repo, chat, STRATA_LLM_BASE_URL="http://127.0.0.1:9/v1")
    assert gone.returncode == 2 and "cannot reach" in gone.stderr
    assert "sources retrieved:" in gone.stdout
    none = ask(repo, chat, "--provider", "none", "--json")
    assert none.returncode == 2 and "no LLM configured" in none.stderr
    data = json.loads(none.stdout)
    assert data["answer"] == "" and data["sources"] and "no LLM configured" in data["error"]


def test_ctrl_c_stops_the_stream_at_once(repo: Path, chat: ChatServer) -> None:
    chat.fault, chat.delay = "stall", 60.0
    env = {**os.environ, "STRATA_LLM_PROVIDER": "openai", "STRATA_LLM_MODEL": chat.model}
    env |= {"STRATA_LLM_BASE_URL": chat.openai_url, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "strata", "ask", QUESTION],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As from a terminal: a suite run in the background inherits SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while len(chat.requests) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the first pieces are out; the server now stalls
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert time.monotonic() - sent < 20  # the server would stay silent for 60 s
    assert "interrupted" in err and "Traceback" not in err
    assert out.startswith("The")  # the piece before the stall was shown as it came


def test_ask_takes_the_retrieval_flags_search_takes(repo: Path, chat: ChatServer) -> None:
    chat.reply = "See [1]."
    flags = ["--content", "code", "--no-tests", "--path", "src/**", "--lang", "python"]
    done = ask(repo, chat, *flags, "--mode", "lexical", "--json")
    assert done.returncode == 0, done.stderr
    sources = json.loads(done.stdout)["sources"]
    assert sources and {s["layer"] for s in sources} == {"C0_SOURCE_CHUNKS"}
    assert all(s["path"].startswith("src/") for s in sources)
    docs = json.loads(ask(repo, chat, "--content", "docs", "--json").stdout)["sources"]
    assert docs and {s["layer"] for s in docs} == {"D0_DOC_CHUNKS"}
    both = ask(repo, chat, "--layer", "C0", "--content", "docs")
    assert both.returncode == 1 and "--layer or --content" in both.stderr
