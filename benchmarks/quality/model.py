"""The benchmark's plain values: a target span, a query, a corpus, and corpus helpers."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.sdists import CACHE

CORPORA = CACHE / "quality" / "corpora"


@dataclass(frozen=True, slots=True)
class Target:
    """An acceptable answer: a file (POSIX, relative to the corpus root) and a 1-based span."""

    path: str
    start: int
    end: int

    @property
    def length(self) -> int:
        """Number of lines in the span (inclusive)."""
        return self.end - self.start + 1


@dataclass(frozen=True, slots=True)
class Query:
    """One benchmark question; any one of `targets` answers it."""

    id: str
    set: str
    repo: str
    text: str
    targets: tuple[Target, ...]


@dataclass(frozen=True, slots=True)
class Corpus:
    """A directory that is indexed as one repository, and the queries asked of it."""

    name: str
    root: Path
    queries: tuple[Query, ...]


def corpus_dir(name: str) -> Path:
    """A fresh, empty directory for a built corpus (removed first if it exists)."""
    dest = CORPORA / name
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    return dest


def copy_files(src_root: Path, rels: Iterable[str], dest_root: Path) -> None:
    """Copy the named files (relative to `src_root`) into `dest_root`, keeping their paths."""
    for rel in rels:
        out = dest_root / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src_root / rel, out)


def tree_hash(root: Path) -> str:
    """Hash of every file's relative path and bytes under `root` (the index cache key)."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def read_lines(path: Path) -> list[str]:
    """A file's lines as the indexer numbers them: split on `\\n` only, `\\r` dropped."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return [line.removesuffix("\r") for line in text.split("\n")]
