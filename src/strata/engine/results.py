"""The Engine's typed answers about the index itself: `status`, `repos`, `sessions`.

Frozen values; `to_json()` gives the documents `strata status|repos|sessions --json` and
`GET /status` print (their keys and order are part of the interface).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strata.types import JsonFields, fields_json


@dataclass(frozen=True, slots=True)
class LayerCount(JsonFields):
    """One layer's rows, and how many of them have a vector."""

    rows: int
    vectors: int


@dataclass(frozen=True, slots=True)
class EmbedderState:
    """The index's embedder: its name and width (0: lexical only), why a first index has
    no vectors yet (None when it has, or needs none), and the documented symbols and the
    documentation sections its query adapter was fitted on (0: too few for one map; None:
    not fitted)."""

    name: str
    dim: int
    vectors_pending: str | None = None
    adapter_pairs: int | None = None
    adapter_sections: int | None = None

    @property
    def lexical_only(self) -> bool:
        """Whether the index has no vectors at all (embedder `none`, width 0)."""
        return self.dim == 0

    def to_json(self) -> dict[str, Any]:
        """`{"name", "dim", "lexical_only", "vectors_pending", "adapter_pairs",
        "adapter_sections"}`."""
        return fields_json(
            self,
            "name",
            "dim",
            "lexical_only",
            "vectors_pending",
            "adapter_pairs",
            "adapter_sections",
        )


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
        return {**fields_json(self), "root": str(self.root), "commits": list(self.commits)}


@dataclass(frozen=True, slots=True)
class Session(JsonFields):
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


@dataclass(frozen=True, slots=True)
class VectorCount(JsonFields):
    """Rows of the embedded layers that have their vector, of those that should."""

    done: int
    total: int


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
    unindexed_rows: int = 0  # rows outside the full-text index, past `upkeep.LAG_ROWS`

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
            "unindexed_rows": self.unindexed_rows,
            "healthy": self.healthy,
        }
        if self.repos is not None:
            data["repos"] = [r.to_json() for r in self.repos]
        return data
