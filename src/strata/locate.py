"""Where an index lives: `<root>/.strata/`, found upward from a path like git finds `.git`."""

from __future__ import annotations

from pathlib import Path

INDEX_DIR_NAME = ".strata"
META_NAME = "index.json"


def find_index_upward(start: Path) -> Path | None:
    """The nearest `.strata/` holding an index, from `start` up to the filesystem root."""
    here = start if start.is_dir() else start.parent
    for d in (here, *here.parents):
        candidate = d / INDEX_DIR_NAME
        if (candidate / META_NAME).is_file():
            return candidate
    return None


def default_index_dir(root: Path) -> Path:
    """The index directory of a root."""
    return root / INDEX_DIR_NAME
