"""`strata ask` with a real model: SmolLM2-135M behind llama-cpp-python's OpenAI server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from strata import Engine
from strata.answer.cite import MARKERS
from tests.llama_server import LlamaServer


def real(llama: LlamaServer) -> dict[str, object]:
    return {
        "llm.provider": "openai",
        "llm.base_url": llama.base_url,
        "llm.model": "default",
        "llm.temperature": 0.0,
        "embed.provider": "none",
    }


def test_a_real_streamed_answer_with_checked_citations(minirepo: Path, llama: LlamaServer) -> None:
    eng = Engine.open(minirepo, config=real(llama))
    eng.index()
    pieces: list[str] = []
    result = eng.ask(
        "How does the client retry failed requests?", k=5, on_piece=lambda p: pieces.append(p.text)
    )
    assert len(pieces) > 3  # it streamed
    assert "".join(pieces).strip() == result.text and result.text
    assert result.model == "openai:default"
    packed = {s.n: s for s in result.context.sources}
    assert packed and result.context.tokens <= eng.config.llm.max_context_tokens
    for c in result.citations:  # every kept citation names a packed source, lines and all
        s = packed[c.n]
        assert (c.path, c.start_line, c.end_line) == (s.hit.record.path, s.start_line, s.end_line)
    shown = {int(n) for m in MARKERS.finditer(result.text) for n in re.findall(r"\d+", m["run"])}
    assert shown <= set(packed)
    assert not set(result.invalid_citations) & {c.n for c in result.citations}
    t = result.timings
    assert t.first_token_ms is not None and t.retrieve_ms <= t.first_token_ms <= t.total_ms


def test_the_cli_answers_over_the_openai_protocol(minirepo: Path, llama: LlamaServer) -> None:
    Engine.open(minirepo, config={"embed.provider": "none"}).index()
    env = {
        **os.environ,
        "STRATA_LLM_PROVIDER": "openai",
        "STRATA_LLM_BASE_URL": llama.base_url,
        "STRATA_LLM_TEMPERATURE": "0",
    }
    done = subprocess.run(
        [sys.executable, "-m", "strata", "ask", "what does parse_header return?", "--json"],
        cwd=minirepo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["answer"] and data["model"] == "openai:default"
    numbers = {s["n"] for s in data["sources"] if s["n"] is not None}
    assert {c["n"] for c in data["citations"]} <= numbers
    assert data["timings"]["total_ms"] >= data["timings"]["first_token_ms"] > 0
