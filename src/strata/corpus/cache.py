"""The artifact cache: one `Artifact` per indexed path, on SQLite in WAL mode.

Lives next to the store (`<index_dir>/artifacts.sqlite`). An entry counts only for the
file hash and the artifact format version it was written with, so an edited file or a
newer extractor makes it a miss, never a wrong answer. It also keeps, per path, a digest
of the corpus rows last written for it and the stamp (hash and stat) of the rows they
were written next to: a path whose stamp moved was rewritten by the per-file pass since.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Final

from strata.corpus.artifacts import Artifact
from strata.errors import StoreError

log = logging.getLogger(__name__)

# Bump when an extractor's output or the payload layout changes: old entries become misses.
FORMAT_VERSION: Final = 1
FILE_NAME: Final = "artifacts.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS artifacts (
    path TEXT PRIMARY KEY,
    file_hash TEXT NOT NULL,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    lang TEXT NOT NULL,
    payload TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS corpus_digests (
    path TEXT PRIMARY KEY,
    stamp TEXT NOT NULL,
    digest TEXT NOT NULL
) WITHOUT ROWID;
"""
_CHUNK = 500  # keeps each IN (...) under SQLite's bound-variable limit
_BUSY_MS = 60_000


class ArtifactCache:
    """Artifacts by path, valid for one (file hash, format version)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        try:
            self._db = sqlite3.connect(path, timeout=_BUSY_MS / 1000, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(
                f"cannot open artifact cache {path}: {exc}",
                hint="delete the file; the next index run rebuilds it",
            ) from exc

    def get_many(self, hashes_by_path: Mapping[str, str]) -> dict[str, Artifact]:
        """The artifacts stored for these paths at exactly these hashes (misses are absent)."""
        found: dict[str, Artifact] = {}
        paths = list(hashes_by_path)
        for start in range(0, len(paths), _CHUNK):
            part = paths[start : start + _CHUNK]
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                "SELECT path, file_hash, kind, lang, payload FROM artifacts"
                f" WHERE version = ? AND path IN ({marks})",
                (FORMAT_VERSION, *part),
            )
            for path, file_hash, kind, lang, payload in rows:
                if hashes_by_path[path] == file_hash:
                    found[path] = Artifact(path, file_hash, kind, lang, payload)
        return found

    def put_many(self, artifacts: Iterable[Artifact]) -> int:
        """Store artifacts in one transaction, replacing each path's previous one."""
        rows = [(a.path, a.file_hash, FORMAT_VERSION, a.kind, a.lang, a.payload) for a in artifacts]
        with self._transaction():
            self._db.executemany(
                "INSERT OR REPLACE INTO artifacts (path, file_hash, version, kind, lang, payload)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
        return len(rows)

    def digests(self, paths: Collection[str]) -> dict[str, tuple[str, str]]:
        """The (stamp, digest) of the corpus rows last written for each of `paths` we know."""
        found: dict[str, tuple[str, str]] = {}
        wanted = list(paths)
        for start in range(0, len(wanted), _CHUNK):
            part = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                f"SELECT path, stamp, digest FROM corpus_digests WHERE path IN ({marks})", part
            )
            found.update((path, (stamp, digest)) for path, stamp, digest in rows)
        return found

    def put_digests(self, digests: Mapping[str, tuple[str, str]]) -> None:
        """Record, in one transaction, the (stamp, digest) of the corpus rows just written."""
        with self._transaction():
            self._db.executemany(
                "INSERT OR REPLACE INTO corpus_digests (path, stamp, digest) VALUES (?, ?, ?)",
                ((p, stamp, digest) for p, (stamp, digest) in digests.items()),
            )

    def prune(self, live_paths: Collection[str]) -> int:
        """Forget every path not in `live_paths` (artifacts and digests); returns how many went."""
        with self._transaction():
            self._db.execute("CREATE TEMP TABLE IF NOT EXISTS live (path TEXT PRIMARY KEY)")
            self._db.execute("DELETE FROM live")
            self._db.executemany(
                "INSERT OR IGNORE INTO live VALUES (?)", ((p,) for p in live_paths)
            )
            cursor = self._db.execute(
                "DELETE FROM artifacts WHERE path NOT IN (SELECT path FROM live)"
            )
            self._db.execute("DELETE FROM corpus_digests WHERE path NOT IN (SELECT path FROM live)")
        gone = int(cursor.rowcount)
        if gone:
            log.debug("pruned %d artifacts of files no longer indexed", gone)
        return gone

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> ArtifactCache:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
