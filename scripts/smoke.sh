#!/usr/bin/env bash
# Install Strata (with the serve extra, without torch) for one other Python, then, with the
# installed `strata`: --help, index a small corpus lexically, search it, print the Claude
# MCP config, and list the MCP tools over stdio.
#   bash scripts/smoke.sh python3.10        # pip install -e into .venv-3.10 (reused)
#   bash scripts/smoke.sh python3.12 pipx   # `pipx install` of a wheel built from this checkout
#   bash scripts/smoke.sh python3.13 uv     # `uv tool install` of that wheel
# pipx and uv come from PyPI into .venv-tools (reused); what they install goes to a
# temporary directory (their homes and bin dirs are set there), removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
py="$1"
how="${2:-venv}"
if ! "$py" -c "" 2>/dev/null; then  # a pyenv shim of a version that is not the global one
  found="$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/${py#python}"* 2>/dev/null | tail -1)"
  py="$found/bin/$py"
fi
version="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tool_wheel() {  # pipx and uv into .venv-tools; sdist + wheel (built from the sdist) into $work
  [ -x .venv-tools/bin/python ] || "$py" -m venv .venv-tools
  .venv-tools/bin/python -m pip install --quiet "pipx==1.18.4" "uv==0.13.8"
  .venv-tools/bin/uv build --quiet --out-dir "$work/dist" . 2>/dev/null
  ls "$work"/dist/strata_index-*.whl
}

case "$how" in
  venv)
    venv=".venv-$version"
    [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e ".[serve]"
    bin="$venv/bin"
    python="$venv/bin/python"
    ;;
  pipx)
    wheel="$(tool_wheel)"
    export PIPX_HOME="$work/pipx" PIPX_BIN_DIR="$work/bin" PIPX_MAN_DIR="$work/man"
    .venv-tools/bin/pipx install --quiet --python "$py" "$wheel[serve]"
    bin="$work/bin"
    python="$PIPX_HOME/venvs/strata-index/bin/python"
    ;;
  uv)
    wheel="$(tool_wheel)"
    export UV_TOOL_DIR="$work/uv" UV_TOOL_BIN_DIR="$work/bin" UV_PYTHON_DOWNLOADS=never
    .venv-tools/bin/uv tool install --quiet --python "$py" "strata-index[serve] @ $wheel"
    bin="$work/bin"
    python="$UV_TOOL_DIR/strata-index/bin/python"
    ;;
  *)
    echo "smoke.sh: unknown install method $how (venv, pipx or uv)" >&2
    exit 2
    ;;
esac
export PATH="$bin:$PATH"  # as the tool's user has it, so --print-config names this strata
strata="$bin/strata"
[ "$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" = "$version" ]

cp -r tests/corpora/minirepo "$work/repo"
export STRATA_EMBED_PROVIDER=none
"$strata" --help > "$work/help"
grep -q "^  mcp " "$work/help"
"$strata" index "$work/repo" -q
"$strata" search "retry delay" -k 1 --json --index-dir "$work/repo/.strata" \
  | "$python" -c 'import json,sys; hits=json.load(sys.stdin); assert hits and hits[0]["path"].endswith("client.py"), hits'
"$strata" mcp --print-config claude "$work/repo" > "$work/config"
grep -qF "claude mcp add strata -- $strata mcp" "$work/config"
"$python" - "$strata" "$work/repo" <<'PY'
import sys, anyio
from mcp import Client, StdioServerParameters

async def main() -> None:
    params = StdioServerParameters(command=sys.argv[1], args=["mcp", sys.argv[2]])
    async with Client(params, read_timeout_seconds=120) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        found = await client.call_tool("find_symbol", {"name": "RetryPolicy"})
    assert "search" in names and found.structured_content["hits"], (names, found)

anyio.run(main)
PY
echo "smoke on Python $version ($how): ok"
