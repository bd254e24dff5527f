"""One repository's slice of a shared store.

Several repositories can live in one index. Paths are relative to each repository's
root, so two repositories may both hold `README.md`: a row belongs to the pair
(`repo_id`, `path`). Writers (the indexer, the corpus pass, the watcher, `doctor`) see
one repository through a `RepoView`: its `sources()` are that repository's paths, its
replacements touch only that repository's rows, and its row ids are the ones the
extractors made (`"<path>:<ordinal>"`, ...). In the shared table a row id carries the
repository's id prefix (none for the index's home repository, `"<name>//"` for the
others), which keeps ids unique across repositories: no relative path contains `//`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from strata.store import Filter, PerSource, Store
from strata.types import FileState, Record, Vector

if TYPE_CHECKING:
    import pyarrow as pa

    from strata.store.schema import PreparedRows

__all__ = ["RepoView"]


class RepoView(PerSource):
    """A `Store` restricted to one repository's rows, with ids local to it."""

    def __init__(self, base: Store, repo: str, prefix: str = "") -> None:
        self.base = base
        self.repo = repo
        self.prefix = prefix
        self.dim = base.dim

    @property
    def version(self) -> object:
        """The shared store's version token (changes with every commit of any repository)."""
        return getattr(self.base, "version", None)

    # -- writing --------------------------------------------------------------
    def replace_sources(
        self, rows_by_path: Mapping[str, Sequence[Record]], *, repo: str | None = None
    ) -> None:
        """Replace this repository's rows of each given path, in one atomic commit."""
        self._same(repo)
        rows = {path: [self._out(r) for r in recs] for path, recs in rows_by_path.items()}
        self.base.replace_sources(rows, repo=self.repo)

    def write_prepared(self, rows: PreparedRows, *, repo: str | None = None) -> None:
        """Replace this repository's rows of the prepared paths, in one atomic commit."""
        from strata.store.schema import with_repo  # Arrow: only where rows are written

        self._same(repo)
        self.base.write_prepared(with_repo(rows, self.repo, self.prefix), repo=self.repo)

    def restat(self, stats: Mapping[str, tuple[int, int]], *, repo: str | None = None) -> int:
        """Record new stats for this repository's rows of the given paths."""
        self._same(repo)
        return self.base.restat(stats, repo=self.repo)

    def set_vectors(self, vectors: Mapping[str, tuple[str, Vector]]) -> int:
        """Fill in vectors by (local) row id where the content hash still matches."""
        return self.base.set_vectors({self.prefix + i: v for i, v in vectors.items()})

    def delete_all(self, *, repo: str | None = None) -> None:
        """Remove every row of this repository."""
        self._same(repo)
        self.base.delete_all(repo=self.repo)

    def optimize(self) -> None:
        """Fold new rows into the shared indexes."""
        self.base.optimize()

    def ensure_indexes(self) -> None:
        """The shared store's indexes."""
        self.base.ensure_indexes()

    def keep_warm(self) -> None:
        """The shared store keeps warm."""
        self.base.keep_warm()

    # -- reading --------------------------------------------------------------
    def sources(self, *, repo: str | None = None) -> dict[str, FileState]:
        """This repository's indexed paths."""
        self._same(repo)
        return self.base.sources(repo=self.repo)

    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]:
        """This repository's rows and vectors per layer."""
        self._same(repo)
        return self.base.counts(repo=self.repo)

    def sessions(self) -> list[dict[str, Any]]:
        """This repository's indexing sessions."""
        return [s for s in self.base.sessions() if s["repo"] == self.repo]

    def lexical_search(
        self, terms: Sequence[str], limit: int, where: Filter
    ) -> list[tuple[Record, float]]:
        """BM25 over this repository's rows."""
        scoped = self._where(where)
        if scoped is None:
            return []
        return [(self._in(r), s) for r, s in self.base.lexical_search(terms, limit, scoped)]

    def vector_search(
        self, vector: Vector, limit: int, where: Filter
    ) -> list[tuple[Record, float]]:
        """Cosine similarity over this repository's rows."""
        scoped = self._where(where)
        if scoped is None:
            return []
        return [(self._in(r), s) for r, s in self.base.vector_search(vector, limit, scoped)]

    def missing_vectors(
        self, limit: int, layers: Sequence[str] | None = None, *, repo: str | None = None
    ) -> list[tuple[str, str, str]]:
        """This repository's rows without a vector, with local ids."""
        self._same(repo)
        missing = self.base.missing_vectors(limit, layers, repo=self.repo)
        return [(self._local(i), h, t) for i, h, t in missing]

    def fetch(
        self,
        where: Filter,
        limit: int | None = None,
        ids: Iterable[str] | None = None,
        *,
        vectors: bool = True,
    ) -> list[Record]:
        """This repository's rows matching `where` (and local `ids`)."""
        scoped = self._where(where)
        if scoped is None:
            return []
        wanted = None if ids is None else [self.prefix + i for i in ids]
        found = self.base.fetch(scoped, limit, ids=wanted, vectors=vectors)
        return [self._in(r) for r in found]

    def fetch_table(self, where: Filter, columns: Sequence[str]) -> pa.Table:
        """This repository's rows matching `where` as Arrow, with local ids."""
        scoped = self._where(where)
        table = self.base.fetch_table(scoped or Filter(layers=()), columns)
        if not self.prefix or "id" not in table.column_names:
            return table
        import pyarrow.compute as pc  # only a view of another repository rewrites ids

        local = pc.replace_substring_regex(table.column("id"), f"^{re.escape(self.prefix)}", "")
        return table.set_column(table.column_names.index("id"), "id", local)

    def read_meta(self) -> dict[str, Any]:
        """The shared store's metadata."""
        return self.base.read_meta()

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Replace the shared store's metadata."""
        self.base.write_meta(meta)

    def close(self) -> None:
        """Nothing to release: the view does not own the shared store."""

    # -- internals ------------------------------------------------------------
    def _same(self, repo: str | None) -> None:
        if repo is not None and repo != self.repo:
            raise ValueError(f"a view of {self.repo!r} cannot act on {repo!r}")

    def _where(self, where: Filter) -> Filter | None:
        if where.repo_id is not None and where.repo_id != self.repo:
            return None
        return dataclasses.replace(where, repo_id=self.repo)

    def _out(self, r: Record) -> Record:
        if not self.prefix and r.repo_id == self.repo:
            return r
        return dataclasses.replace(r, id=self.prefix + r.id, repo_id=self.repo)

    def _in(self, r: Record) -> Record:
        return dataclasses.replace(r, id=self._local(r.id)) if self.prefix else r

    def _local(self, row_id: str) -> str:
        return row_id.removeprefix(self.prefix)
