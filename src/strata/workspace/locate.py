"""Where an index lives: `<root>/.strata/`, found upward from a path like git finds `.git`."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from strata.errors import NoIndexError, UserError

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


def resolve(
    path: str | os.PathLike[str] | None,
    index_dir: str | os.PathLike[str] | None,
    cwd: Path | None = None,
) -> tuple[Path, Path]:
    """(root, index directory) for a path to index and/or an explicit index directory.

    A path inside an indexed tree belongs to that tree's index; a file roots at its
    parent; with neither, the index is found upward from the working directory. An
    existing index keeps its recorded root even when `path` lies elsewhere: such a path
    is another repository of that index (see `strata.workspace.repos`). Relative paths,
    and the upward search, start at `cwd` (default: the process's working directory).
    """
    here = cwd or Path.cwd()
    if index_dir is not None:
        idx = (here / Path(index_dir).expanduser()).resolve()
        root = root_of(idx)
        if path is not None and root is None:
            return root_for((here / Path(path).expanduser()).resolve()), idx
        if root is None:
            raise NoIndexError(
                f"no index in {idx}", hint="run `strata index PATH --index-dir DIR` first"
            )
        return root, idx
    if path is not None:
        target = (here / Path(path).expanduser()).resolve()
        if not target.exists():
            raise UserError(f"{target} does not exist")
        found = find_index_upward(target)
        root = root_of(found) if found else None
        if found and root and (target == root or root in target.parents):
            return root, found
        root = root_for(target)
        return root, default_index_dir(root)
    found = find_index_upward(here)
    root = root_of(found) if found else None
    if found is None or root is None:
        raise NoIndexError(
            f"no index found in {here} or above", hint="run `strata index PATH` to create one"
        )
    return root, found


def root_for(target: Path) -> Path:
    """The root a target indexes under: itself, or a file's parent directory."""
    return target if target.is_dir() else target.parent


def root_of(index_dir: Path) -> Path | None:
    """The root recorded in an index directory's locator file; for an index that sat at
    its root's `.strata/` and was moved or copied along with its tree, the tree it is in
    now (see `moved_from`)."""
    locator = read_locator(index_dir)
    root = locator.get("root")
    if not isinstance(root, str):
        return None
    return index_dir.parent if moved_from(index_dir, locator) else Path(root)


def moved_from(index_dir: Path, locator: dict[str, Any]) -> Path | None:
    """The recorded root when this index was made at `<that root>/.strata` (its default
    place, as its recorded store URI says) and now sits at another tree's `.strata`."""
    root, store = locator.get("root"), locator.get("store")
    if not isinstance(root, str) or index_dir.name != INDEX_DIR_NAME:
        return None
    old = Path(root)
    made_inside = store == f"lancedb://{default_index_dir(old) / 'lance'}"
    return old if made_inside and default_index_dir(old) != index_dir else None


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
