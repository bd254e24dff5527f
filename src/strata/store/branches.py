"""Branches side by side: one copy of each file version, tagged with the branches holding it.

A team indexes `main` and a release branch of one repository into one index. A file with
the same bytes on both is stored once, content-addressed by its file hash (as Continue's
tag catalogue keys items by content and tags them with branches): its rows name both
branches in `branches`. `BranchView` is the store as one branch sees it:

- its reads (searches, lookups, `sources`) see only that branch's rows;
- replacing a file replaces the branch's version of it: the version other branches hold
  stays (without this branch), a version no branch holds any longer goes, and the rows of
  a version another branch already stored with the same bytes are shared row by row: a
  row that says the same is one row for both, a row that differs is the branch's own,
  beside the other's one with the same id (the cross-file layers, C2-C4 and D2-D5, of a
  file both branches hold differ where a caller or a link only one of them has counts);
- `retag` lets the branch take over file versions other branches stored, by hash, without
  reading, extracting or embedding them again (what a `git checkout` then `strata index`
  costs: only the files whose bytes no branch had yet; the indexer's cross-file pass then
  gives the branch its own rows where its resolution differs).

Rows written before branches were tracked name none; a branch that replaces such a file
takes it over (they are its rows).
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from strata.store import capabilities
from strata.store.capabilities import Metadata, SharedUpkeep
from strata.store.core import Filter, Hits, PerSource, Store
from strata.types import FileState, Record, Vector

if TYPE_CHECKING:
    import pyarrow as pa

    from strata.store.arrow import PreparedRows

__all__ = ["BranchView", "counts_of", "merged", "retagged", "same_row"]


def merged(existing: Sequence[Record], new: Sequence[Record], branch: str) -> list[Record]:
    """Every row of one file after `branch`'s version of it becomes `new` (empty: the
    branch holds no such file any more). Pure: the rows to write in one replacement.

    Rows are shared one by one: a new row equal to a row of the same file version that
    other branches hold (`same_row`) is one row for all of them; one that differs (the
    cross-file pass resolved a call otherwise on this branch) is this branch's own, beside
    the other branches' row with the same id. A row no branch holds any longer goes."""
    new_hash = new[0].file_hash if new else None
    peers: dict[str, list[Record]] = defaultdict(list)  # the new version's rows, by id
    out: list[Record] = []
    for r in existing:
        if new_hash is not None and r.file_hash == new_hash:
            peers[r.id].append(r)
        elif others := _others(r, branch):
            out.append(_tagged(r, others))
    taken: set[int] = set()
    for n in new:
        twin = next((r for r in peers.get(n.id, ()) if same_row(r, n)), None)
        holders = {branch}
        if twin is not None:
            taken.add(id(twin))
            holders |= set(twin.branches)
            if n.vector is None and twin.vector is not None:
                n = dataclasses.replace(n, vector=twin.vector)
        out.append(_tagged(n, holders))
    for rows in peers.values():
        out += [_tagged(r, o) for r in rows if id(r) not in taken and (o := _others(r, branch))]
    return out


def retagged(existing: Sequence[Record], file_hash: str, branch: str) -> list[Record] | None:
    """Every row of one file once `branch` holds the stored version `file_hash` (None if
    no branch stored that version: the file must be read). Where branches hold rows of
    their own for one id (`merged`), `branch` takes the one most of them hold, until its
    cross-file pass says which is its own."""
    versions = _versions(existing)
    if not file_hash or file_hash not in versions:
        return None
    chosen = {id(r) for r in _one_per_id(versions[file_hash])}
    out: list[Record] = []
    for r in existing:
        holders = _others(r, branch) | ({branch} if id(r) in chosen else set())
        if holders:
            out.append(_tagged(r, holders))
    return out


def same_row(a: Record, b: Record) -> bool:
    """Whether two rows of one file version say the same (what a search or lookup reads),
    whoever wrote them: the stat, session, commit, branches and vector are left out."""
    if a.id != b.id or a.content_hash != b.content_hash or a.content != b.content:
        return False
    return _plain(a) == _plain(b) and _json(a.metadata) == _json(b.metadata)


def counts_of(store: Store, *, repo: str | None = None) -> dict[str, dict[str, int]]:
    """Rows and vectors per layer as `store` sees them (a branch: its own file versions)."""
    if isinstance(store, BranchView):
        return store.branch_counts(repo=repo)
    return store.counts(repo=repo)


def _versions(rows: Iterable[Record]) -> dict[str, list[Record]]:
    by_hash: dict[str, list[Record]] = defaultdict(list)
    for r in rows:
        by_hash[r.file_hash].append(r)
    return by_hash


def _others(r: Record, branch: str) -> set[str]:
    return set(r.branches) - {branch}


def _one_per_id(rows: Iterable[Record]) -> list[Record]:
    """Of the rows sharing an id, the one held by the most branches (then by name)."""
    best: dict[str, Record] = {}
    for r in rows:
        seen = best.get(r.id)
        if seen is None or (-len(r.branches), r.branches) < (-len(seen.branches), seen.branches):
            best[r.id] = r
    return list(best.values())


def _plain(r: Record) -> Record:
    """`r` without what says who wrote it, nor its metadata (compared as JSON)."""
    return dataclasses.replace(
        r, branches=(), metadata={}, file_size=0, file_mtime_ns=0, session_id="", commit_sha=None
    )


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _tagged(r: Record, branches: set[str]) -> Record:
    names = tuple(sorted(branches))
    return r if r.branches == names else dataclasses.replace(r, branches=names)


class BranchView(SharedUpkeep, PerSource):
    """The store as one branch sees it (see the module's docstring), with the capabilities
    a writer and a reader ask for, in terms of the shared store's own or of its core."""

    def __init__(self, base: Store, branch: str) -> None:
        self.base = base
        self.branch = branch
        self.dim = base.dim

    @property
    def branch_aware(self) -> bool:
        """A branch sees this store."""
        return True

    # -- writing --------------------------------------------------------------
    def replace_sources(
        self, rows_by_path: Mapping[str, Sequence[Record]], *, repo: str | None = None
    ) -> None:
        """Replace this branch's version of each path, keeping the other branches' ones."""
        if not rows_by_path:
            return
        stored = self._stored(list(rows_by_path), repo)
        rows = {p: merged(stored.get(p, []), new, self.branch) for p, new in rows_by_path.items()}
        self.base.replace_sources(rows, repo=repo)

    def write_prepared(self, rows: PreparedRows, *, repo: str | None = None) -> None:
        """`replace_sources` for prepared rows (made into records again: they are merged)."""
        from strata.store.arrow import to_records  # Arrow: only where rows are written

        by_path: dict[str, list[Record]] = {p: [] for p in rows.paths}
        for r in to_records(rows.table):
            by_path[r.path].append(r)
        self.replace_sources(by_path, repo=repo)

    def retag(self, hashes: Mapping[str, str], *, repo: str | None = None) -> set[str]:
        """Make this branch hold the stored version of each path whose file hash is given,
        where some branch stored it; returns those paths (the rest must be read)."""
        stored = self._stored(list(hashes), repo)
        rows: dict[str, list[Record]] = {}
        for path, digest in hashes.items():
            current = stored.get(path, [])
            if any(self.branch in r.branches and r.file_hash == digest for r in current):
                rows[path] = []  # already this branch's version: nothing to write
                continue
            again = retagged(current, digest, self.branch)
            if again is not None:
                rows[path] = again
        writes = {p: r for p, r in rows.items() if r}
        if writes:
            self.base.replace_sources(writes, repo=repo)
        return set(rows)

    def restat(self, stats: Mapping[str, tuple[int, int]], *, repo: str | None = None) -> int:
        """Record new stats (on every version of the paths: a checkout rewrites a file
        whose bytes differ between branches, so no stale stat can look current)."""
        return capabilities.restat(self.base, stats, repo=repo)

    def set_vectors(self, vectors: Mapping[str, tuple[str, Vector]]) -> int:
        """Fill in vectors by row id and content hash (shared by every branch)."""
        return self.base.set_vectors(vectors)

    def delete_all(self, *, repo: str | None = None) -> None:
        """This branch holds nothing any more (other branches keep their versions)."""
        self.replace_sources({p: [] for p in self.sources(repo=repo)}, repo=repo)

    # -- reading --------------------------------------------------------------
    def sources(self, *, repo: str | None = None) -> dict[str, FileState]:
        """This branch's indexed paths (of `repo`) with their hash, stat and row count."""
        from strata.store.rows import SOURCE_COLUMNS, sources_of

        where = self._where(Filter(repo_id=repo))
        return sources_of(capabilities.fetch_table(self.base, where, SOURCE_COLUMNS))

    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]:
        """Rows and vectors per layer, of every branch (a file version is counted once):
        cheap, for the searches' "which layers have rows" (`branch_counts`: this branch's)."""
        return self.base.counts(repo=repo)

    def branch_counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]:
        """Rows and vectors per layer of this branch's file versions (reads each row's
        layer: for `status`, not for every search)."""
        out: dict[str, dict[str, int]] = {}
        where = self._where(Filter(repo_id=repo))
        for has, key in ((None, "rows"), (True, "vectors")):
            scope = dataclasses.replace(where, has_vector=has)
            layers = capabilities.fetch_table(self.base, scope, ["layer"]).column("layer")
            for layer in layers.to_pylist():
                out.setdefault(layer, {"rows": 0, "vectors": 0})[key] += 1
        return out

    def sessions(self) -> list[dict[str, Any]]:
        """The shared store's indexing sessions."""
        return capabilities.sessions(self.base)

    def lexical_search(self, terms: Sequence[str], limit: int, where: Filter) -> Hits:
        """BM25 over this branch's rows."""
        return self.base.lexical_search(terms, limit, self._where(where))

    def vector_search(self, vector: Vector, limit: int, where: Filter) -> Hits:
        """Cosine similarity over this branch's rows."""
        return self.base.vector_search(vector, limit, self._where(where))

    def missing_vectors(
        self, limit: int, layers: Sequence[str] | None = None, *, repo: str | None = None
    ) -> list[tuple[str, str, str]]:
        """Rows without a vector, of any branch (a vector serves every branch)."""
        return self.base.missing_vectors(limit, layers, repo=repo)

    def fetch(
        self, where: Filter, limit: int | None = None, *, vectors: bool = True
    ) -> list[Record]:
        """This branch's rows matching `where`."""
        return self.base.fetch(self._where(where), limit, vectors=vectors)

    def fetch_table(self, where: Filter, columns: Sequence[str]) -> pa.Table:
        """This branch's rows matching `where` as Arrow."""
        return capabilities.fetch_table(self.base, self._where(where), columns)

    def read_meta(self) -> dict[str, Any]:
        """The shared store's metadata ({} if it keeps none)."""
        return self.base.read_meta() if isinstance(self.base, Metadata) else {}

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Replace the shared store's metadata (if it keeps any)."""
        if isinstance(self.base, Metadata):
            self.base.write_meta(meta)

    def close(self) -> None:
        """Nothing to release: the view does not own the shared store."""

    # -- internals ------------------------------------------------------------
    def _where(self, where: Filter) -> Filter:
        """`where` on this branch (a filter naming a branch itself keeps it)."""
        return where if where.branch is not None else dataclasses.replace(where, branch=self.branch)

    def _stored(self, paths: list[str], repo: str | None) -> dict[str, list[Record]]:
        """Every stored row of these paths (of `repo`), on any branch, with vectors."""
        by_path: dict[str, list[Record]] = defaultdict(list)
        for r in self.base.fetch(Filter(paths=tuple(paths), repo_id=repo)):
            by_path[r.path].append(r)
        return by_path
