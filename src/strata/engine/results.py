"""The Engine's typed answers about the index itself: `status`, `repos`, `sessions`.

Frozen values; `to_json()` gives the documents `strata status|repos|sessions --json` and
`GET /status` print (their keys and order are part of the interface).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class LayerCount:
    """One layer's rows, and how many of them have a vector."""

    rows: int
    vectors: int

    def to_json(self) -> dict[str, int]:
        """`{"rows", "vectors"}`."""
        return {"rows": self.rows, "vectors": self.vectors}


@dataclass(frozen=True, slots=True)
class EmbedderState:
    """The index's embedder: its name and width (0: lexical only), and why a first index
    has no vectors yet (None when it has, or needs none)."""

    name: str
    dim: int
    vectors_pending: str | None = None

    @property
    def lexical_only(self) -> bool:
        """Whether the index has no vectors at all (embedder `none`, width 0)."""
        return self.dim == 0

    def to_json(self) -> dict[str, Any]:
        """`{"name", "dim", "lexical_only", "vectors_pending"}`."""
        return {
            "name": self.name,
            "dim": self.dim,
            "lexical_only": self.lexical_only,
            "vectors_pending": self.vectors_pending,
        }


@dataclass(frozen=True, slots=True)
class RepoInfo:
    """One repository of an index: where it is, what of it is indexed, at which commits."""

    name: str
    root: Path
    home: bool
    files: int
    rows: int
    commits: tuple[str, ...]
    last_index: float | None

    def to_json(self) -> dict[str, Any]:
        """One element of `strata repos --json`."""
        return {
            "name": self.name,
            "root": str(self.root),
            "home": self.home,
            "files": self.files,
            "rows": self.rows,
            "commits": list(self.commits),
            "last_index": self.last_index,
        }


@dataclass(frozen=True, slots=True)
class Session:
    """One indexing session whose rows the index holds: repository @ commit."""

    session_id: str
    repo: str
    commit_sha: str | None
    rows: int
    files: int

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Session:
        """From a store's session row (`Store.sessions`)."""
        return cls(
            session_id=str(row["session_id"]),
            repo=str(row["repo"]),
            commit_sha=row["commit_sha"],
            rows=int(row["rows"]),
            files=int(row["files"]),
        )

    def to_json(self) -> dict[str, Any]:
        """One element of `strata sessions --json`."""
        return {
            "session_id": self.session_id,
            "repo": self.repo,
            "commit_sha": self.commit_sha,
            "rows": self.rows,
            "files": self.files,
        }


@dataclass(frozen=True, slots=True)
class VectorCount:
    """Rows of the embedded layers that have their vector, of those that should."""

    done: int
    total: int

    def to_json(self) -> dict[str, int]:
        """`{"done", "total"}`."""
        return {"done": self.done, "total": self.total}


@dataclass(frozen=True, slots=True)
class Status:
    """What `strata status` reports: where the index is, its embedder, rows and vectors per
    layer, the last run, files changed since, whether a writer runs, health.

    `files_pending` is None when not counted (no index yet); `repos` None for an index
    not written yet.
    """

    root: Path
    index_dir: Path
    store: str  # the store URI, password redacted
    embedder: EmbedderState
    layers: Mapping[str, LayerCount]
    rows: int
    vectors: VectorCount
    last_index: float | None
    files_pending: int | None
    writer_active: bool
    moved_from: Path | None
    corpus_unfinished: tuple[str, ...]  # artifacts files whose cross-file pass a run left undone
    healthy: bool
    repos: tuple[RepoInfo, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The document of `strata status --json` and `GET /status`."""
        data: dict[str, Any] = {
            "root": str(self.root),
            "index_dir": str(self.index_dir),
            "store": self.store,
            "embedder": self.embedder.to_json(),
            "layers": {layer: c.to_json() for layer, c in self.layers.items()},
            "rows": self.rows,
            "vectors": self.vectors.to_json(),
            "last_index": self.last_index,
            "files_pending": self.files_pending,
            "writer_active": self.writer_active,
            "moved_from": str(self.moved_from) if self.moved_from else None,
            "corpus_unfinished": list(self.corpus_unfinished),
            "healthy": self.healthy,
        }
        if self.repos is not None:
            data["repos"] = [r.to_json() for r in self.repos]
        return data
