#!/usr/bin/env bash
# Install Strata (with the serve extra, without torch) into .venv-<version> for one other
# Python, then index a small corpus lexically, search it and list the MCP tools over stdio.
# Usage: bash scripts/smoke.sh python3.12   (the venv is reused by later runs)
set -euo pipefail
cd "$(dirname "$0")/.."
py="$1"
if ! "$py" -c "" 2>/dev/null; then  # a pyenv shim of a version that is not the global one
  found="$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/${py#python}"* 2>/dev/null | tail -1)"
  py="$found/bin/$py"
fi
version="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
venv=".venv-$version"
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -e ".[serve]"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r tests/corpora/minirepo "$work/repo"
export STRATA_EMBED_PROVIDER=none
"$venv/bin/strata" index "$work/repo" -q
"$venv/bin/strata" search "retry delay" -k 1 --json --index-dir "$work/repo/.strata" \
  | "$venv/bin/python" -c 'import json,sys; hits=json.load(sys.stdin); assert hits and hits[0]["path"].endswith("client.py"), hits'
"$venv/bin/strata" mcp --print-config claude "$work/repo" | grep -q "claude mcp add strata"
"$venv/bin/python" - "$work/repo" <<'PY'
import sys, anyio
from mcp import Client, StdioServerParameters

async def main() -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "strata", "mcp", sys.argv[1]])
    async with Client(params, read_timeout_seconds=120) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        found = await client.call_tool("find_symbol", {"name": "RetryPolicy"})
    assert "search" in names and found.structured_content["hits"], (names, found)

anyio.run(main)
PY
echo "smoke on Python $version: ok"
