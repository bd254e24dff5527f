"""The artifact cache: one `Artifact` per indexed path, on SQLite in WAL mode.

Lives next to the store (`<index_dir>/artifacts.sqlite`). An entry counts only for the
file hash and the artifact format version it was written with, so an edited file or a
newer extractor makes it a miss, never a wrong answer. It also keeps, per path, a digest
of the corpus rows last written for it and the stamp (hash and stat) of the rows they
were written next to: a path whose stamp moved was rewritten by the per-file pass since.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Final

from strata.index.corpus.artifacts import Artifact
from strata.workspace.sqlite import SqliteFile

log = logging.getLogger(__name__)

# Bump when an extractor's output or the payload layout changes: old entries become misses.
FORMAT_VERSION: Final = 3  # 2: tree-sitter scans; 3: every call line, class attributes
FILE_NAME: Final = "artifacts.sqlite"
PENDING_SUFFIX: Final = ".pending"  # `<artifacts file>.pending`: a corpus pass left unfinished
_SCOPE_END: Final = "\x1f"  # ends a branch's name in its digests' keys (no git name holds it)


def pending_marker(artifacts: Path) -> Path:
    """The marker beside an artifacts file saying its repository's corpus pass is unfinished."""
    return artifacts.with_name(artifacts.name + PENDING_SUFFIX)


def corpus_unfinished(index_dir: Path) -> list[str]:
    """The artifacts files of `index_dir` whose corpus pass a run left unfinished."""
    suffix = FILE_NAME + PENDING_SUFFIX
    return sorted(p.name[: -len(PENDING_SUFFIX)] for p in index_dir.glob(f"*{suffix}"))


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


class ArtifactCache(SqliteFile):
    """Artifacts by path, valid for one (file hash, format version).

    `scope` (a branch) keeps the corpus digests of each branch apart: two branches may
    hold different corpus rows for one file version (a caller only one of them has), so
    what one branch last wrote says nothing of what the other holds."""

    WHAT = "artifact cache"
    SCHEMA = _SCHEMA
    HINT = "delete the file; the next index run rebuilds it"

    def __init__(self, path: Path, scope: str = "") -> None:
        super().__init__(path)
        self._scope = f"{scope}{_SCOPE_END}" if scope else ""

    def get_many(self, hashes_by_path: Mapping[str, str]) -> dict[str, Artifact]:
        """The artifacts stored for these paths at exactly these hashes (misses are absent)."""
        rows = self._select_in(
            "SELECT path, file_hash, kind, lang, payload FROM artifacts"
            " WHERE version = ? AND path IN ({marks})",
            list(hashes_by_path),
            FORMAT_VERSION,
        )
        return {
            path: Artifact(path, file_hash, kind, lang, payload)
            for path, file_hash, kind, lang, payload in rows
            if hashes_by_path[path] == file_hash
        }

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
        rows = self._select_in(
            "SELECT path, stamp, digest FROM corpus_digests WHERE path IN ({marks})",
            [self._scope + p for p in paths],
        )
        cut = len(self._scope)
        return {path[cut:]: (stamp, digest) for path, stamp, digest in rows}

    def put_digests(self, digests: Mapping[str, tuple[str, str]]) -> None:
        """Record, in one transaction, the (stamp, digest) of the corpus rows just written."""
        with self._transaction():
            self._db.executemany(
                "INSERT OR REPLACE INTO corpus_digests (path, stamp, digest) VALUES (?, ?, ?)",
                ((self._scope + p, stamp, digest) for p, (stamp, digest) in digests.items()),
            )

    def prune(self, live_paths: Collection[str]) -> int:
        """Forget every path not in `live_paths` (artifacts, and the scope's own digests);
        returns how many artifacts went."""
        with self._transaction():
            self._fill_temp("live", "path", live_paths)
            cursor = self._db.execute(
                "DELETE FROM artifacts WHERE path NOT IN (SELECT path FROM live)"
            )
            if self._scope:
                self._db.execute(
                    "DELETE FROM corpus_digests WHERE substr(path, 1, ?) = ?"
                    " AND substr(path, ?) NOT IN (SELECT path FROM live)",
                    (len(self._scope), self._scope, len(self._scope) + 1),
                )
            else:
                self._db.execute(
                    "DELETE FROM corpus_digests WHERE instr(path, ?) = 0"
                    " AND path NOT IN (SELECT path FROM live)",
                    (_SCOPE_END,),
                )
        gone = int(cursor.rowcount)
        if gone:
            log.debug("pruned %d artifacts of files no longer indexed", gone)
        return gone
