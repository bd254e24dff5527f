#!/usr/bin/env bash
# Set up everything the tests need, then run lint, types and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy
# Install-and-smoke on the other supported Pythons (their venvs, .venv-3.X, are reused);
# STRATA_SMOKE=0 skips it.
if [ "${STRATA_SMOKE:-1}" != "0" ]; then
  for py in python3.10 python3.12 python3.13; do
    if "$py" -c "" 2>/dev/null || ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/${py#python}"* >/dev/null 2>&1; then
      bash scripts/smoke.sh "$py"
    else
      echo "smoke: no $py here, skipped"
    fi
  done
fi
.venv/bin/lint-imports
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
