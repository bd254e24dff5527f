"""Output in a pipe or a log: progress lines, no 80-column wrap (issue 15, item 13)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_cli import strata

LONG = "ok = '" + "very_long_token_" * 12 + "'"  # 200 columns, one line


def _repo(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    for i in range(6):
        (root / "pkg" / f"m{i}.py").write_text(
            f'def handler_{i}(x):\n    """Handle case {i}."""\n    {LONG}\n    return x\n',
            encoding="utf-8",
        )
    return root


def test_progress_lines_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    root = _repo(tmp_path / "proj")
    done = strata("index", "--embedder", "none", cwd=root)
    assert done.returncode == 0, done.stderr
    lines = re.findall(r"^indexing \[(\d+)/(\d+)\] (\S+)$", done.stderr, re.MULTILINE)
    assert lines, done.stderr
    assert lines[0][0] == "1" and lines[-1][:2] == ("6", "6")  # the first and the last
    assert all(path.startswith("pkg/m") for _, _, path in lines)
    quiet = strata("index", "--full", "--embedder", "none", "-q", cwd=root)
    assert "[1/6]" not in quiet.stderr


def test_no_hard_wrap_at_80_columns_in_a_pipe(tmp_path: Path) -> None:
    root = _repo(tmp_path / "proj")
    strata("index", "--embedder", "none", cwd=root)
    found = strata("search", "handle case 3", "-k", "1", cwd=root, env={"COLUMNS": ""})
    assert found.returncode == 0, found.stderr
    assert LONG in found.stdout  # the snippet's line whole, not cut at column 80
    note = "lexical only: the index has no vectors (embedder 'none')"
    assert any(len(line) > 80 for line in found.stdout.splitlines())
    assert note in found.stderr
