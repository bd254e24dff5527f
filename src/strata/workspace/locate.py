"""Where an index lives: `<root>/.strata/`, found upward from a path like git finds `.git`, and its
locator file (`index.json`). Which index a path belongs to is `strata.engine.parts.resolve`."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

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


def locator_path(index_dir: Path) -> Path:
    """The locator file of an index directory."""
    return index_dir / META_NAME


def read_locator(index_dir: Path) -> dict[str, Any]:
    """The locator file (`index.json`: root, store URI, embedder, dim, times); {} if none."""
    try:
        data = json.loads((index_dir / META_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_locator(index_dir: Path, *, private: bool = False, **values: Any) -> None:
    """Update the locator file atomically (temp file + rename); `private` (a store URI with
    a password in it) makes it readable by its owner only, as `~/.pgpass` must be."""
    data = read_locator(index_dir)
    data.update(values)
    index_dir.mkdir(parents=True, exist_ok=True)
    ignore = index_dir / ".gitignore"
    if not ignore.exists():  # keep the index out of the user's commits, as .pytest_cache does
        ignore.write_text("# created by strata\n*\n", encoding="utf-8")
    tmp = index_dir / (META_NAME + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        if stat.S_ISREG(os.fstat(fd).st_mode):  # the mode before the first byte is written
            os.fchmod(fd, 0o600 if private else 0o644)
        out.write(json.dumps(data, indent=2))
    os.replace(tmp, index_dir / META_NAME)
