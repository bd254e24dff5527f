"""Stores: the Protocol every backend meets, the filter it understands, and `open_store`.

One logical table holds every layer's records (shared/spec/layers.md). Writes are
per source file and atomic: `replace_sources` swaps all rows of the given paths in one
commit, so a reader (or a crash) sees each file either fully old or fully new.
Backends are chosen by URI scheme: `lancedb://DIR` (embedded, the default) and
`postgresql://...` (server).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from strata.errors import StoreError
from strata.store.lancedb_import import defer_rest_client
from strata.types import FileState, Record, Vector

defer_rest_client()  # before any store module imports LanceDB

if TYPE_CHECKING:
    import pyarrow as pa

    from strata.store.schema import PreparedRows

__all__ = ["Filter", "Store", "open_store"]


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


class Store(Protocol):
    """Persistence of records: atomic per-file replacement, lexical and vector search."""

    dim: int

    def replace_sources(
        self, rows_by_path: Mapping[str, Sequence[Record]], *, repo: str | None = None
    ) -> None:
        """Replace every row of each given path with the given rows, in one atomic commit.

        An empty sequence deletes the path's rows. Records with `vector=None` are
        stored without a vector (lexically searchable, filled in later). With `repo`,
        only that repository's rows of those paths are replaced (paths are per repository).
        """
        ...

    def write_prepared(self, rows: PreparedRows, *, repo: str | None = None) -> None:
        """`replace_sources` for rows already in the store's row format (`schema.prepare`,
        which indexing workers run so that the writer only commits). Rows prepared as
        `new` are appended: the caller (holding the write lock) knows their paths hold
        no rows."""
        ...

    def replace_source(self, path: str, rows: Sequence[Record]) -> None:
        """Replace one path's rows in one atomic commit (empty `rows` deletes them)."""
        ...

    def delete_by_source(self, path: str) -> None:
        """Remove every row of one path."""
        ...

    def sources_with_hashes(self) -> dict[str, str]:
        """Each indexed path with its file hash (the reconcile sweep's view)."""
        ...

    def count(self, layer: str | None = None) -> int:
        """Rows in the store, or in one layer."""
        ...

    def sources(self, *, repo: str | None = None) -> dict[str, FileState]:
        """Each indexed path (of `repo`, if given) with its file hash, stat and row count."""
        ...

    def lexical_search(
        self, terms: Sequence[str], limit: int, where: Filter
    ) -> list[tuple[Record, float]]:
        """BM25 over code-aware tokens (see `strata.text.tokens`), best first."""
        ...

    def vector_search(
        self, vector: Vector, limit: int, where: Filter
    ) -> list[tuple[Record, float]]:
        """Cosine similarity over rows that have a vector, best first."""
        ...

    def restat(self, stats: Mapping[str, tuple[int, int]], *, repo: str | None = None) -> int:
        """Record a new (size, mtime_ns) for every row of each path whose bytes did not
        change (one commit, nothing re-extracted); returns the rows updated."""
        ...

    def set_vectors(self, vectors: Mapping[str, tuple[str, Vector]]) -> int:
        """Fill in vectors by row id where the row's content hash matches; returns rows updated."""
        ...

    def missing_vectors(
        self, limit: int, layers: Sequence[str] | None = None, *, repo: str | None = None
    ) -> list[tuple[str, str, str]]:
        """Up to `limit` rows (of `layers`, of `repo`) without a vector: (id, hash, text)."""
        ...

    def fetch(
        self,
        where: Filter,
        limit: int | None = None,
        ids: Iterable[str] | None = None,
        *,
        vectors: bool = True,
    ) -> list[Record]:
        """Rows matching a filter (and, if given, these ids), in path and span order;
        `vectors=False` reads for a lookup: no vectors and no `embed_text` (never shown)."""
        ...

    def fetch_table(self, where: Filter, columns: Sequence[str]) -> pa.Table:
        """Rows matching a filter as one Arrow table of `columns` (record columns), in path
        and span order: for lookups that keep many rows in memory, where a `Record` per
        row would cost ten times as much."""
        ...

    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]:
        """Per layer (of `repo`, if given): `rows` and `vectors` (rows that have one)."""
        ...

    def sessions(self) -> list[dict[str, Any]]:
        """Each indexing session with rows: `session_id`, `repo`, `commit_sha`, `rows`, `files`."""
        ...

    def delete_all(self, *, repo: str | None = None) -> None:
        """Remove every row (of `repo`, if given; used by `index --full`)."""
        ...

    def optimize(self) -> None:
        """Fold new rows into the lexical and vector indexes and compact storage."""
        ...

    def ensure_indexes(self) -> None:
        """Build any search index the store lacks (one an older Strata did not make);
        cheap when none is missing."""
        ...

    def keep_warm(self) -> None:
        """This process will search again and again (a server): keep in memory what makes
        that faster. A hint; a store may do nothing."""
        ...

    def read_meta(self) -> dict[str, Any]:
        """The index's metadata (schema version, root, embedder name and dim, times)."""
        ...

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Replace the index's metadata atomically."""
        ...

    def close(self) -> None:
        """Release handles."""
        ...


@runtime_checkable
class RepoLocking(Protocol):
    """A store shared by processes that share no index directory (a database server):
    it serialises the writers of one repository itself."""

    def writer_lock(
        self, repo: str, *, wait: float = 10.0
    ) -> contextlib.AbstractContextManager[None]:
        """Hold the write lock of `repo` in the store for the block (LockError after `wait`)."""
        ...


def repo_lock(
    uri: str, store: Callable[[], Store], repo: str, *, wait: float = 10.0
) -> contextlib.AbstractContextManager[None]:
    """The write lock of `repo` in a shared store (`uri` names a database server; `store`
    opens it), or nothing for an embedded one: the index directory's lock serialises
    its writers, and its store stays unopened until needed."""
    if uri.partition("://")[0].lower() in POSTGRES_SCHEMES:
        opened = store()
        if isinstance(opened, RepoLocking):
            return opened.writer_lock(repo, wait=wait)
    return contextlib.nullcontext()


class _Core(Protocol):
    def replace_sources(
        self, rows_by_path: Mapping[str, Sequence[Record]], *, repo: str | None = None
    ) -> None: ...
    def sources(self, *, repo: str | None = None) -> dict[str, FileState]: ...
    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]: ...


class PerSource:
    """The per-source conveniences of the Store Protocol, in terms of its core methods."""

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


def open_store(uri: str, dim: int, *, create: bool = True) -> Store:
    """Open the store a URI names: `lancedb://DIR` or a plain path (embedded LanceDB).

    Args:
        uri: `lancedb://DIR`, a directory path, or `postgresql://...` (a libpq URI).
        dim: vector width of the configured embedder (0 = lexical-only index).
        create: create an empty store if there is none (else raise `NoIndexError`).

    Raises:
        StoreError: an unknown or unavailable scheme, or a store that cannot be opened.
    """
    scheme, sep, rest = uri.partition("://")
    if not sep:
        scheme, rest = "lancedb", uri
    scheme = scheme.lower()
    if scheme == "lancedb":
        if not rest:
            raise StoreError(f"store URI {uri!r} names no directory", hint="use lancedb://DIR")
        from strata.store.lance import LanceStore  # heavy import, only when used

        return LanceStore(rest, dim, create=create)
    if scheme in POSTGRES_SCHEMES:
        store: Store = _postgres().PgStore(uri, dim, create=create)
        return store
    raise StoreError(f"unknown store scheme {scheme!r} in {uri!r}", hint="use lancedb://DIR")


POSTGRES_SCHEMES = ("postgresql", "postgres")


def _postgres() -> Any:
    """The PostgreSQL backend's module, imported on first use (with a hint if not installed)."""
    try:
        from strata.store.postgres import store
    except ImportError as exc:
        raise StoreError(
            f"the PostgreSQL store needs {exc.name or 'psycopg'}",
            hint="pip install 'strata-index[postgres]'",
        ) from None
    return store


def recreate_store(uri: str, dim: int) -> Store:
    """Drop whatever the URI holds and open it empty for vectors of width `dim` (`index --full`)."""
    scheme, sep, rest = uri.partition("://")
    if not sep:
        scheme, rest = "lancedb", uri
    if scheme.lower() == "lancedb" and rest:
        import shutil
        from pathlib import Path

        shutil.rmtree(Path(rest), ignore_errors=True)
    elif scheme.lower() in POSTGRES_SCHEMES:
        _postgres().drop_store(uri)
    else:
        open_store(uri, dim).delete_all()
    return open_store(uri, dim)
