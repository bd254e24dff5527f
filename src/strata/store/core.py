"""The core every store backend has: the `Store` Protocol and the `Filter` it understands.

A backend that implements this core is enough to index and search; everything else a
store may do better (write prepared Arrow rows, keep a warm copy, report its own
integrity, ...) is an optional capability (`strata.store.capabilities`) that callers
test for with `isinstance`, falling back to the core where a capability is missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from strata.types import FileState, Record, Vector

__all__ = ["Filter", "Hits", "PerSource", "Store"]

Hits = list[tuple[Record, float]]
"""Search results: each record with its score, best first."""


@dataclass(frozen=True, slots=True)
class Filter:
    """Restrictions a search or listing applies before ranking (None = no restriction)."""

    layers: tuple[str, ...] | None = None
    langs: tuple[str, ...] | None = None
    kinds: tuple[str, ...] | None = None
    paths: tuple[str, ...] | None = None
    is_test: bool | None = None
    repo_id: str | None = None
    has_vector: bool | None = None
    ids: tuple[str, ...] | None = None  # row ids (a listing's; searches never ask by id)
    branch: str | None = None  # rows of this branch only (see `strata.store.branches`)


class Store(Protocol):
    """Persistence of records: atomic per-file replacement, lexical and vector search.

    One logical table holds every layer's records (shared/spec/layers.md). Writes are
    per source file and atomic: a reader (or a crash) sees each file fully old or new.
    """

    dim: int  # vector width (0: a lexical-only index)

    def replace_sources(
        self, rows_by_path: Mapping[str, Sequence[Record]], *, repo: str | None = None
    ) -> None:
        """Replace every row of each given path with the given rows, in one atomic commit.

        An empty sequence deletes the path's rows. Records with `vector=None` are
        stored without a vector (lexically searchable, filled in later). With `repo`,
        only that repository's rows of those paths are replaced (paths are per repository).
        """
        ...

    def sources(self, *, repo: str | None = None) -> dict[str, FileState]:
        """Each indexed path (of `repo`, if given) with its file hash, stat and row count."""
        ...

    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]:
        """Per layer (of `repo`, if given): `rows` and `vectors` (rows that have one)."""
        ...

    def fetch(
        self, where: Filter, limit: int | None = None, *, vectors: bool = True
    ) -> list[Record]:
        """Rows matching a filter, in path and span order; `vectors=False` reads for a
        lookup: no vectors and no `embed_text` (never shown)."""
        ...

    def lexical_search(self, terms: Sequence[str], limit: int, where: Filter) -> Hits:
        """BM25 over code-aware tokens (see `strata.text.tokens`), best first."""
        ...

    def vector_search(self, vector: Vector, limit: int, where: Filter) -> Hits:
        """Cosine similarity over rows that have a vector, best first."""
        ...

    def missing_vectors(
        self, limit: int, layers: Sequence[str] | None = None, *, repo: str | None = None
    ) -> list[tuple[str, str, str]]:
        """Up to `limit` rows (of `layers`, of `repo`) without a vector: (id, hash, text)."""
        ...

    def set_vectors(self, vectors: Mapping[str, tuple[str, Vector]]) -> int:
        """Fill in vectors by row id where the row's content hash matches; returns rows updated."""
        ...

    def close(self) -> None:
        """Release handles."""
        ...


class _Core(Protocol):
    def replace_sources(
        self, rows_by_path: Mapping[str, Sequence[Record]], *, repo: str | None = None
    ) -> None: ...
    def sources(self, *, repo: str | None = None) -> dict[str, FileState]: ...
    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]: ...


class PerSource:
    """Per-source conveniences in terms of the core, for a backend to inherit."""

    def replace_source(self: _Core, path: str, rows: Sequence[Record]) -> None:
        """Replace one path's rows in one atomic commit (empty `rows` deletes them)."""
        self.replace_sources({path: rows})

    def delete_by_source(self: _Core, path: str) -> None:
        """Remove every row of one path."""
        self.replace_sources({path: []})

    def sources_with_hashes(self: _Core) -> dict[str, str]:
        """Each indexed path with its file hash (the reconcile sweep's view)."""
        return {path: state.file_hash for path, state in self.sources().items()}

    def count(self: _Core, layer: str | None = None) -> int:
        """Rows in the store, or in one layer."""
        counts = self.counts()
        if layer is not None:
            return counts.get(layer, {}).get("rows", 0)
        return sum(c.get("rows", 0) for c in counts.values())
