"""The examples of docs/api.md run, in order, against a copy of the sample repository."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

DOC = Path(__file__).parents[1] / "docs" / "api.md"
CORPUS = Path(__file__).parent / "corpora" / "minirepo"


def test_every_python_example_of_the_api_guide_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(CORPUS, tmp_path / "minirepo")
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for i, block in enumerate(blocks, 1):
        exec(compile(block, f"{DOC.name} example {i}", "exec"), namespace)
