"""The Engine's reading of the structural layers: symbols, call graph, entry points, docs."""

from __future__ import annotations

from typing import Any, Protocol

from strata import lookup
from strata.lookup import CallWalk, Related, SymbolMatch
from strata.search import SearchResult
from strata.store import Store
from strata.types import Record


class _Index(Protocol):
    @property
    def store(self) -> Store: ...

    def _require(self) -> None: ...

    def search(self, query: str, k: int | None = None, **kwargs: Any) -> SearchResult: ...


class LayerQueries:
    """Lookups over C1-C3, D1 and D5; mixed into `strata.Engine`, which provides the store."""

    def symbols(
        self: _Index, name: str, *, kind: str | None = None, limit: int = 20
    ) -> list[SymbolMatch]:
        """C1: exact, qualified, prefix, then fuzzy name matches, best first."""
        self._require()
        return lookup.find_symbols(self.store, name, kind=kind, limit=limit)

    def callers(self: _Index, qname: str, depth: int = 1) -> CallWalk:
        """C2: who calls `qname` (bare or qualified), breadth-first to `depth`."""
        self._require()
        return lookup.callers(self.store, qname, depth=depth)

    def callees(self: _Index, qname: str, depth: int = 1) -> CallWalk:
        """C2: what `qname` calls, breadth-first to `depth`."""
        self._require()
        return lookup.callees(self.store, qname, depth=depth)

    def entrypoints(
        self: _Index, type: str | None = None, framework: str | None = None
    ) -> list[Record]:
        """C3: HTTP routes, CLI commands and other entry points."""
        self._require()
        return lookup.list_entrypoints(self.store, type=type, framework=framework)

    def docs(
        self: _Index, kind: str | None = None, domain: str | None = None, type: str | None = None
    ) -> list[Record]:
        """D1: the document catalog, filtered by doc kind, domain or frontmatter type."""
        self._require()
        return lookup.list_docs(self.store, kind=kind, domain=domain, type=type)

    def related(self: _Index, document_id: str, depth: int = 1) -> list[Related]:
        """D5: documents related to `document_id` (either direction), to `depth`."""
        self._require()
        return lookup.related(self.store, document_id, depth=depth)


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
