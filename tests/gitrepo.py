"""Running git in a test repository (a fixed identity, output as text)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(root: Path, *args: str) -> str:
    """`git -C root ARGS...` with a throwaway identity; its stdout, stripped."""
    out = subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@e", *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()
