#!/usr/bin/env bash
# Set up everything the tests need, then run lint, types and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy
# Install-and-smoke on the other supported Pythons: pip -e into .venv-3.10 (reused), and a
# wheel built from this checkout installed as agent tools are, by pipx on 3.12 and by
# `uv tool install` on 3.13 (scripts/smoke.sh); STRATA_SMOKE=0 skips it.
if [ "${STRATA_SMOKE:-1}" != "0" ]; then
  for py_how in python3.10:venv python3.12:pipx python3.13:uv; do
    py="${py_how%:*}"
    if "$py" -c "" 2>/dev/null || ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/${py#python}"* >/dev/null 2>&1; then
      bash scripts/smoke.sh "$py" "${py_how#*:}"
    else
      echo "smoke: no $py here, skipped"
    fi
  done
fi
.venv/bin/lint-imports
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
