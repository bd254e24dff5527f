"""What the default install (`scripts/setup.sh local`, the quick start) brings: the query
model's fast path (int8 ONNX, no torch per search) comes with the `local` extra itself."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def extras() -> dict[str, set[str]]:
    """Each extra of pyproject.toml's `[project.optional-dependencies]` -> the names it lists
    (read as text: `tomllib` is not on every Python this project supports)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    out: dict[str, set[str]] = {}
    for name, body in re.findall(r"^([\w-]+) = \[(.*?)^\]", table, re.MULTILINE | re.DOTALL):
        reqs = re.findall(r'^\s*"([^"]+)"', body, re.MULTILINE)
        out[name] = {re.split(r"[<>=\[ ;]", r, maxsplit=1)[0] for r in reqs}
    return out


def test_the_local_extra_brings_the_onnx_query_path() -> None:
    found = extras()
    runtime = found["onnx"] - {"onnx"}  # `onnx` itself only folds the graph once
    assert runtime <= found["local"], runtime - found["local"]
    assert {"torch", "sentence-transformers"} <= found["local"]  # documents still embed with torch


def test_the_quick_start_installs_the_local_extra() -> None:
    quick = (ROOT / "scripts" / "quickstart.sh").read_text(encoding="utf-8")
    line = next(x for x in quick.splitlines() if "scripts/setup.sh" in x)
    assert "local" in line.split("setup.sh", 1)[1]
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert 'extras="${1:-local}"' in setup
