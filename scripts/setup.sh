#!/usr/bin/env bash
# Create .venv (Python 3.11) and install Strata with the extras named in $1 (default "local").
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
.venv/bin/python -m pip install --quiet -e ".[${extras}]"
