"""The Engine's reading of the structural layers: symbols, call graph, entry points, docs."""

from __future__ import annotations

from typing import Any, Protocol

from strata.query import lookup
from strata.query.hybrid import SearchResult
from strata.query.lookup import CallWalk, Related, SymbolMatch
from strata.store import Store
from strata.types import Record


class _Index(Protocol):
    @property
    def store(self) -> Store: ...

    def _require(self) -> None: ...

    def repo_store(self, name: str | None = None) -> Store: ...


def _scope(index: _Index, repo: str | None) -> Store:
    """The whole store, or one repository's view of it."""
    index._require()
    return index.repo_store(repo) if repo else index.store


class LayerQueries:
    """Lookups over C1-C3, D1 and D5; mixed into `strata.Engine`, which provides the store.

    Each takes `repo=` to look inside one repository of a multi-repository index.
    """

    def symbols(
        self: _Index,
        name: str,
        *,
        kind: str | None = None,
        limit: int = 20,
        repo: str | None = None,
        exact: bool = False,
    ) -> list[SymbolMatch]:
        """C1: exact, qualified, prefix, then fuzzy name matches, best first (`exact`: the
        first two tiers only)."""
        scope = _scope(self, repo)
        return lookup.find_symbols(scope, name, kind=kind, limit=limit, exact=exact)

    def callers(
        self: _Index,
        qname: str,
        depth: int = 1,
        *,
        repo: str | None = None,
        name_matches: bool = False,
    ) -> CallWalk:
        """C2: who calls `qname` (bare or qualified), breadth-first to `depth`; calls tied
        by the bare name only are left out unless `name_matches`."""
        scope = _scope(self, repo)
        return lookup.callers(scope, qname, depth=depth, name_matches=name_matches)

    def callees(
        self: _Index,
        qname: str,
        depth: int = 1,
        *,
        repo: str | None = None,
        name_matches: bool = False,
    ) -> CallWalk:
        """C2: what `qname` calls, breadth-first to `depth`; a callee found by its bare name
        only is an unresolved call unless `name_matches`."""
        scope = _scope(self, repo)
        return lookup.callees(scope, qname, depth=depth, name_matches=name_matches)

    def entrypoints(
        self: _Index,
        type: str | None = None,
        framework: str | None = None,
        *,
        repo: str | None = None,
    ) -> list[Record]:
        """C3: HTTP routes, CLI commands and other entry points."""
        return lookup.list_entrypoints(_scope(self, repo), type=type, framework=framework)

    def docs(
        self: _Index,
        kind: str | None = None,
        domain: str | None = None,
        type: str | None = None,
        *,
        repo: str | None = None,
    ) -> list[Record]:
        """D1: the document catalog, filtered by doc kind, domain or frontmatter type."""
        return lookup.list_docs(_scope(self, repo), kind=kind, domain=domain, type=type)

    def related(
        self: _Index, document_id: str, depth: int = 1, *, repo: str | None = None
    ) -> list[Related]:
        """D5: documents related to `document_id` (either direction), to `depth`."""
        return lookup.related(_scope(self, repo), document_id, depth=depth)


class Direct:
    """An engine as the executor sees it: its `search` is the direct (unrouted) one."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def search(self, query: str, k: int | None = None, **kwargs: Any) -> SearchResult:
        """Plain hybrid search over the layers given (C0 and D0 by default)."""
        result: SearchResult = self._engine.search(query, k, route=False, **kwargs)
        return result
