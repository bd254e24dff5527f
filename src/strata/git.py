"""What git knows about a root: whether it is a work tree and its HEAD revision."""

from __future__ import annotations

import subprocess
from pathlib import Path


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def head_commit(root: Path) -> str | None:
    """HEAD's full sha when `root` is inside a git work tree, else None."""
    if _git(root, "rev-parse", "--is-inside-work-tree") != "true":
        return None
    return _git(root, "rev-parse", "HEAD")
