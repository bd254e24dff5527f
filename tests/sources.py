"""A small source tree written from a dict of dedented texts, and indexed (no vectors)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path

from strata import Engine


def indexed_tree(root: Path, files: Mapping[str, str]) -> Engine:
    """Write each `files` path under `root` (its text dedented) and index it, lexical only."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    return eng
