"""What a store may do beyond the core: optional Protocols, tested for with `isinstance`.

A backend written against `strata.store.Store` alone can index and search; each
capability below is something a backend does better or at all, and each caller that
wants one asks `isinstance(store, Capability)`. Where the core can do the same work
more slowly, the function of the same name here does that (`write_prepared`,
`restat`, `fetch_table`, `sessions`, `delete_all`), so callers need no fallback of
their own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from strata.store.core import Filter, Store
from strata.types import Record

if TYPE_CHECKING:
    import pyarrow as pa

    from strata.store.arrow import PreparedRows

__all__ = [
    "ArrowReads",
    "Branching",
    "BulkDelete",
    "IndexHealth",
    "Integrity",
    "Maintenance",
    "Metadata",
    "OneVersion",
    "PinnedReads",
    "PreparedWrites",
    "RepoLocking",
    "SessionListing",
    "SharedUpkeep",
    "StatUpdates",
    "StreamedWrites",
    "Versioned",
    "WarmReads",
    "delete_all",
    "fetch_table",
    "one_version",
    "restat",
    "sessions",
    "unindexed_rows",
    "version_of",
    "write_prepared",
    "write_streamed",
]


@runtime_checkable
class PreparedWrites(Protocol):
    """Takes rows already in the row format (`strata.store.arrow.prepare`, which indexing
    workers run), so the writing process only commits them."""

    def write_prepared(self, rows: PreparedRows, *, repo: str | None = None) -> None:
        """`replace_sources` for prepared rows. Rows prepared as `new` are appended: the
        caller (holding the write lock) knows their paths hold no rows."""
        ...


@runtime_checkable
class StreamedWrites(Protocol):
    """Replaces one file's rows by rows made a part at a time (`strata.index.stream`), in
    one commit, without holding them all."""

    def write_streamed(
        self, path: str, parts: Iterator[PreparedRows], *, repo: str | None = None
    ) -> None:
        """Replace the rows of `path` by those of `parts`; an error raised by `parts`
        leaves the old rows as they were."""
        ...


@runtime_checkable
class StatUpdates(Protocol):
    """Records a new file stat on rows in place (nothing re-extracted, nothing rewritten)."""

    def restat(self, stats: Mapping[str, tuple[int, int]], *, repo: str | None = None) -> int:
        """Set (size, mtime_ns) on every row of each path whose bytes did not change (one
        commit); returns the rows updated."""
        ...


@runtime_checkable
class BulkDelete(Protocol):
    """Removes a whole repository's rows (or all rows) in one statement."""

    def delete_all(self, *, repo: str | None = None) -> None:
        """Remove every row (of `repo`, if given; used by `index --full`)."""
        ...


@runtime_checkable
class ArrowReads(Protocol):
    """Reads rows as one Arrow table: for lookups that keep many rows in memory, where a
    `Record` per row would cost ten times as much."""

    def fetch_table(self, where: Filter, columns: Sequence[str]) -> pa.Table:
        """Rows matching a filter as Arrow (`columns`: record columns), in path and span order."""
        ...


@runtime_checkable
class SessionListing(Protocol):
    """Lists indexing sessions by a group-by in the store."""

    def sessions(self) -> list[dict[str, Any]]:
        """Each session with rows: `session_id`, `repo`, `commit_sha`, `rows`, `files`."""
        ...


@runtime_checkable
class Maintenance(Protocol):
    """Keeps search indexes of its own, which new rows reach only after maintenance."""

    def optimize(self) -> None:
        """Fold new rows into the lexical and vector indexes and compact storage."""
        ...

    def ensure_indexes(self) -> None:
        """Build any search index the store lacks (one an older Strata did not make);
        cheap when none is missing."""
        ...


@runtime_checkable
class WarmReads(Protocol):
    """Searches faster in a process that searches again and again (a server)."""

    def keep_warm(self, *, background: bool = False) -> None:
        """Keep in memory what makes the next searches faster (a hint): build it now, or
        in the background (a process that has just searched a second time)."""
        ...


@runtime_checkable
class Versioned(Protocol):
    """Has a cheap token that changes with every commit (a cache key for readers)."""

    @property
    def version(self) -> object:
        """The current token (None: unknown, derive one from the sources)."""
        ...


@runtime_checkable
class PinnedReads(Protocol):
    """Can read its version once for a whole read (a search asks for it several times)."""

    def one_version(self) -> contextlib.AbstractContextManager[None]:
        """A block in which this thread reads the version once."""
        ...


@runtime_checkable
class Metadata(Protocol):
    """Keeps the index's metadata (schema version, creation time, analysis of its text)."""

    def read_meta(self) -> dict[str, Any]:
        """The metadata ({} if there is none)."""
        ...

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Replace the metadata atomically."""
        ...


@dataclass(frozen=True, slots=True)
class IndexHealth:
    """What a store reports of itself for `strata doctor` (repair: `Maintenance.optimize`)."""

    schema_version: int  # the layout the store is at
    writes_version: int  # the layout this Strata writes (another: `strata index --full`)
    missing: tuple[str, ...] = ()  # search indexes it should have and lacks
    outdated: tuple[str, ...] = ()  # search indexes an older Strata built another way
    # rows not yet in the full-text index (searched by a scan); always 0 for a store that
    # maintains its indexes on every write (PostgreSQL's GIN/HNSW)
    unindexed_rows: int = 0


@runtime_checkable
class Integrity(Protocol):
    """Reports its schema version and the state of its search indexes."""

    def integrity(self) -> IndexHealth:
        """The store's own view of its health (cheap: no row is read)."""
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


@runtime_checkable
class Branching(Protocol):
    """A store seen by one branch (`strata.store.branches.BranchView`): it can take over
    file versions other branches stored, without their being read again."""

    @property
    def branch_aware(self) -> bool:
        """Whether a branch sees this store (a repository view of a plain store: no)."""
        ...

    def retag(self, hashes: Mapping[str, str], *, repo: str | None = None) -> set[str]:
        """Make the branch hold the stored version of each path whose file hash is given,
        where one is stored; returns those paths."""
        ...


class OneVersion:
    """A store's version, read once per read in each thread that asks inside `block()`
    (`PinnedReads`); outside it, read afresh every time."""

    def __init__(self, read: Callable[[], int]) -> None:
        self._read = read
        self._local = threading.local()

    def get(self) -> int:
        """The version this thread's read is at, else the store's now."""
        pinned: int | None = getattr(self._local, "version", None)
        return self._read() if pinned is None else pinned

    @contextlib.contextmanager
    def block(self) -> Iterator[None]:
        """Read the version once for the block (a nested block keeps the outer one's)."""
        if getattr(self._local, "version", None) is not None:
            yield
            return
        self._local.version = self._read()
        try:
            yield
        finally:
            self._local.version = None


class SharedUpkeep:
    """A view's upkeep of the shared store under it (`base`): its own, where it has it."""

    base: Store

    @property
    def version(self) -> object:
        """The shared store's version token (changes with every commit of any repository)."""
        return version_of(self.base)

    def one_version(self) -> contextlib.AbstractContextManager[None]:
        """The shared store's version read once in the block (if it can)."""
        return one_version(self.base)

    def optimize(self) -> None:
        """Fold new rows into the shared indexes (if the shared store keeps any)."""
        if isinstance(self.base, Maintenance):
            self.base.optimize()

    def ensure_indexes(self) -> None:
        """The shared store's indexes."""
        if isinstance(self.base, Maintenance):
            self.base.ensure_indexes()

    def keep_warm(self, *, background: bool = False) -> None:
        """The shared store keeps warm (if it can)."""
        if isinstance(self.base, WarmReads):
            self.base.keep_warm(background=background)


# ---- the same work through the core, where a store lacks the capability ------------------
def write_prepared(store: Store, rows: PreparedRows, *, repo: str | None = None) -> None:
    """Write prepared rows: as they are, or as records through `replace_sources`."""
    if isinstance(store, PreparedWrites):
        store.write_prepared(rows, repo=repo)
        return
    from strata.store.arrow import to_records

    by_path: dict[str, list[Record]] = {path: [] for path in rows.paths}
    for record in to_records(rows.table):
        by_path[record.path].append(record)
    store.replace_sources(by_path, repo=repo)


def write_streamed(
    store: Store, path: str, parts: Iterator[PreparedRows], *, repo: str | None = None
) -> None:
    """Replace the rows of `path` by those of `parts`: streamed, or gathered and replaced."""
    if isinstance(store, StreamedWrites):
        store.write_streamed(path, parts, repo=repo)
        return
    from strata.store.arrow import to_records

    store.replace_sources({path: [r for part in parts for r in to_records(part.table)]}, repo=repo)


def restat(store: Store, stats: Mapping[str, tuple[int, int]], *, repo: str | None = None) -> int:
    """Record new stats: in place, or by rewriting the paths' rows with them."""
    if isinstance(store, StatUpdates):
        return store.restat(stats, repo=repo)
    if not stats:
        return 0
    rows: dict[str, list[Record]] = defaultdict(list)
    for r in store.fetch(Filter(paths=tuple(stats), repo_id=repo)):
        size, mtime = stats[r.path]
        rows[r.path].append(dataclasses.replace(r, file_size=size, file_mtime_ns=mtime))
    if rows:
        store.replace_sources(rows, repo=repo)
    return sum(len(found) for found in rows.values())


def delete_all(store: Store, *, repo: str | None = None) -> None:
    """Remove every row (of `repo`): in one statement, or path by path in one commit."""
    if isinstance(store, BulkDelete):
        store.delete_all(repo=repo)
    else:
        store.replace_sources({path: [] for path in store.sources(repo=repo)}, repo=repo)


def fetch_table(store: Store, where: Filter, columns: Sequence[str]) -> pa.Table:
    """Rows as one Arrow table of `columns`: read so, or made from the records."""
    if isinstance(store, ArrowReads):
        return store.fetch_table(where, columns)
    from strata.store.arrow import to_arrow

    return to_arrow(store.fetch(where, vectors=False), 0).select(list(columns))


def unindexed_rows(store: Store) -> int:
    """Rows the store's own full-text index has not reached yet (searched by a scan until
    `Maintenance.optimize`): 0 for a store that keeps its indexes current on every write
    (PostgreSQL) or reports nothing. A view answers for the shared store under it."""
    while isinstance(store, SharedUpkeep):
        store = store.base
    return store.integrity().unindexed_rows if isinstance(store, Integrity) else 0


def sessions(store: Store) -> list[dict[str, Any]]:
    """Each indexing session with rows: grouped by the store, or from its rows' columns."""
    if isinstance(store, SessionListing):
        return store.sessions()
    from strata.store.rows import SESSION_COLUMNS, sessions_of

    return sessions_of(fetch_table(store, Filter(), SESSION_COLUMNS))


def version_of(store: object) -> object:
    """The store's version token (None: it keeps none), read once: on Python 3.11 an
    `isinstance` check against `Versioned` reads the property, a look at the store."""
    if inspect.getattr_static(store, "version", None) is None:
        return None
    return getattr(store, "version")  # noqa: B009  # typed as object on purpose


def one_version(store: object) -> contextlib.AbstractContextManager[None]:
    """A block in which the store reads its version once, where it can (`PinnedReads`)."""
    return store.one_version() if isinstance(store, PinnedReads) else contextlib.nullcontext()
