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
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from strata.store import Filter, Hits, PerSource, Store, capabilities
from strata.store.capabilities import Branching, SharedUpkeep
from strata.types import FileState, Record, Vector

if TYPE_CHECKING:
    import pyarrow as pa

    from strata.store.arrow import PreparedRows

__all__ = ["RepoView"]


class RepoView(SharedUpkeep, PerSource):
    """A `Store` restricted to one repository's rows, with ids local to it. It has the
    capabilities a writer and a reader ask for, in terms of the shared store's own or,
    where that lacks one, of its core (`strata.store.capabilities`)."""

    def __init__(self, base: Store, repo: str, prefix: str = "") -> None:
        self.base = base
        self.repo = repo
        self.prefix = prefix
        self.dim = base.dim

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
        from strata.store.arrow import with_repo  # Arrow: only where rows are written

        self._same(repo)
        prepared = with_repo(rows, self.repo, self.prefix)
        capabilities.write_prepared(self.base, prepared, repo=self.repo)

    def write_streamed(
        self, path: str, parts: Iterator[PreparedRows], *, repo: str | None = None
    ) -> None:
        """Replace this repository's rows of `path` by those of `parts`, in one commit."""
        from strata.store.arrow import with_repo

        self._same(repo)
        mine = (with_repo(part, self.repo, self.prefix) for part in parts)
        capabilities.write_streamed(self.base, path, mine, repo=self.repo)

    @property
    def branch_aware(self) -> bool:
        """Whether the shared store is seen by a branch."""
        return isinstance(self.base, Branching) and self.base.branch_aware

    def retag(self, hashes: Mapping[str, str], *, repo: str | None = None) -> set[str]:
        """This repository's paths whose stored version the branch took over (none when
        the shared store is not seen by a branch)."""
        self._same(repo)
        return (
            self.base.retag(hashes, repo=self.repo) if isinstance(self.base, Branching) else set()
        )

    def restat(self, stats: Mapping[str, tuple[int, int]], *, repo: str | None = None) -> int:
        """Record new stats for this repository's rows of the given paths."""
        self._same(repo)
        return capabilities.restat(self.base, stats, repo=self.repo)

    def set_vectors(self, vectors: Mapping[str, tuple[str, Vector]]) -> int:
        """Fill in vectors by (local) row id where the content hash still matches."""
        return self.base.set_vectors({self.prefix + i: v for i, v in vectors.items()})

    def delete_all(self, *, repo: str | None = None) -> None:
        """Remove every row of this repository."""
        self._same(repo)
        capabilities.delete_all(self.base, repo=self.repo)

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
        return [s for s in capabilities.sessions(self.base) if s["repo"] == self.repo]

    def lexical_search(self, terms: Sequence[str], limit: int, where: Filter) -> Hits:
        """BM25 over this repository's rows."""
        return self._search(where, lambda scoped: self.base.lexical_search(terms, limit, scoped))

    def vector_search(self, vector: Vector, limit: int, where: Filter) -> Hits:
        """Cosine similarity over this repository's rows."""
        return self._search(where, lambda scoped: self.base.vector_search(vector, limit, scoped))

    def missing_vectors(
        self, limit: int, layers: Sequence[str] | None = None, *, repo: str | None = None
    ) -> list[tuple[str, str, str]]:
        """This repository's rows without a vector, with local ids."""
        self._same(repo)
        missing = self.base.missing_vectors(limit, layers, repo=self.repo)
        return [(self._local(i), h, t) for i, h, t in missing]

    def fetch(
        self, where: Filter, limit: int | None = None, *, vectors: bool = True
    ) -> list[Record]:
        """This repository's rows matching `where` (its `ids` local ones)."""
        scoped = self._where(where)
        if scoped is None:
            return []
        if scoped.ids is not None:
            scoped = dataclasses.replace(scoped, ids=tuple(self.prefix + i for i in scoped.ids))
        return [self._in(r) for r in self.base.fetch(scoped, limit, vectors=vectors)]

    def fetch_table(self, where: Filter, columns: Sequence[str]) -> pa.Table:
        """This repository's rows matching `where` as Arrow, with local ids."""
        scoped = self._where(where)
        table = capabilities.fetch_table(self.base, scoped or Filter(layers=()), columns)
        if not self.prefix or "id" not in table.column_names:
            return table
        import pyarrow.compute as pc  # only a view of another repository rewrites ids

        local = pc.replace_substring_regex(table.column("id"), f"^{re.escape(self.prefix)}", "")
        return table.set_column(table.column_names.index("id"), "id", local)

    def close(self) -> None:
        """Nothing to release: the view does not own the shared store."""

    # -- internals ------------------------------------------------------------
    def _same(self, repo: str | None) -> None:
        if repo is not None and repo != self.repo:
            raise ValueError(f"a view of {self.repo!r} cannot act on {repo!r}")

    def _search(self, where: Filter, search: Callable[[Filter], Hits]) -> Hits:
        """`search` of this repository's rows, with local ids."""
        scoped = self._where(where)
        return [] if scoped is None else [(self._in(r), s) for r, s in search(scoped)]

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
