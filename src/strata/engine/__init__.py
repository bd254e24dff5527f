"""The one engine behind every surface: open an index, index a tree, search, report status.

`Engine` owns its parts (`engine.parts.Parts`: the index directory, store, embedders) and
each public method calls functions: `engine.indexing` for writes, `query` for reads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from strata.config import Config, load_config
from strata.embedding import Embedder, recorded_embedder
from strata.engine import upkeep
from strata.engine.parts import Parts, resolve
from strata.engine.results import RepoInfo, Session, Status
from strata.engine.status import repos_of, sessions_of, status_of
from strata.errors import QueryError
from strata.query import hybrid, lookup
from strata.query.executor import execute
from strata.query.filters import SearchFilters
from strata.query.hybrid import SearchResult
from strata.query.lookup import CallWalk, Related, SymbolMatch
from strata.query.router import IndexFacts, RetrievalPlan, route
from strata.store import Filter, Store
from strata.types import Record
from strata.workspace import memory
from strata.workspace.locate import read_locator
from strata.workspace.repos import all_repos

if TYPE_CHECKING:  # the write side and the answers are imported when used: a search needs neither
    from strata.answer import Answer, AnswerStream, Piece
    from strata.index.discovery import IgnoreRules
    from strata.index.indexer import IndexSummary, ProgressFn


class Engine:
    """An open index: its root, directory, configuration, store and (lazy) embedder."""

    def __init__(self, root: Path, index_dir: Path, cfg: Config, store_uri: str) -> None:
        self.root, self.index_dir, self.config, self.store_uri = root, index_dir, cfg, store_uri
        self.parts = Parts(root, index_dir, cfg, store_uri)

    # ---- opening -------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        index_dir: str | os.PathLike[str] | None = None,
        store: str | None = None,
        config: Mapping[str, Any] | None = None,
        cwd: Path | None = None,
    ) -> Engine:
        """Open (or prepare to create) the index for `path`.

        Args:
            path: a directory or file to index; inside an indexed tree, that tree's index.
                None: the index found upward from the working directory (or `index_dir`).
            index_dir: where the index lives (default `<root>/.strata`).
            store: a store URI (default `lancedb://<index_dir>/lance`).
            config: dotted config keys that override every other source (like flags).
            cwd: where relative paths (and the upward search) start; default the process's.
        """
        flags = dict(config or {})
        if store:
            flags["store.uri"] = store
        root, idx = resolve(path, index_dir, cwd)
        cfg = recorded_embedder(load_config(idx, flags), read_locator(idx).get("embedder"))
        uri = cfg.store.uri or f"lancedb://{idx / 'lance'}"
        return cls(root, idx, cfg, uri)

    # ---- parts ---------------------------------------------------------------------------
    @property
    def store(self) -> Store:
        """The store, opened on first use with the index's recorded dimension; as the
        active branch sees it when there is one (`strata.store.branches`)."""
        return self.parts.store

    @property
    def branch(self) -> str | None:
        """The branch this engine indexes and reads (see `Parts.branch`)."""
        return self.parts.branch

    def embedder(self) -> Embedder:
        """The configured embedder, loaded on first use and checked against the index."""
        return self.parts.embedder()

    def query_embedder(self) -> Embedder:
        """The embedder for search queries (see `Parts.query_embedder`)."""
        return self.parts.query_embedder()

    def repo_store(self, name: str | None = None) -> Store:
        """One repository's view of the store (the home repository's by default)."""
        return self.parts.repo_store(name)

    # ---- indexing (strata.engine.indexing) -----------------------------------------------
    def index(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        full: bool = False,
        progress: ProgressFn | None = None,
        repo: str | None = None,
        since: str | None = None,
    ) -> IndexSummary:
        """Create or incrementally update the index of the root (or of `path`).

        A `path` outside the index's root adds (or updates) another repository in the
        same index, named `repo` (default: its directory's name). `since=REV` takes the
        changes instead of the snapshot: only the paths `git diff REV` names (edits,
        additions, deletions, both sides of renames) are redone. `full=True` rebuilds the
        repository (every repository when the embedder changed).
        """
        target = Path(path).expanduser().resolve() if path else self.root
        from strata.engine import indexing

        return indexing.index(self.parts, target, repo, since, full=full, progress=progress)

    def refresh(
        self,
        rels: Iterable[str],
        *,
        progress: ProgressFn | None = None,
        rules: IgnoreRules | None = None,
        lock_wait: float = 10.0,
        repo: str | None = None,
    ) -> IndexSummary:
        """Bring just these paths (relative to the repository's root) up to date: the
        watcher's unit of work (the home repository unless `repo` names another).

        A path that is gone, ignored or no longer indexable loses its rows; a directory
        stands for everything indexed below it. Same plan-then-apply path as `index`.
        """
        from strata.engine import indexing

        return indexing.refresh(self.parts, rels, repo, rules, lock_wait, progress)

    def index_if_empty(self, *, progress: ProgressFn | None = None) -> IndexSummary | None:
        """Index only when the index holds no rows (the boot-time path)."""
        if self.exists and sum(c.get("rows", 0) for c in self.store.counts().values()) > 0:
            return None
        return self.index(progress=progress)

    # ---- searching (strata.query) --------------------------------------------------------
    def search(
        self,
        query: str,
        k: int | None = None,
        *,
        layers: Iterable[str] | None = None,
        filters: Mapping[str, Any] | SearchFilters | None = None,
        mode: str | None = None,
        route: bool = True,
    ) -> SearchResult:
        """Ranked hits for a query; `filters`: a `SearchFilters`, or a mapping of its flags
        (path globs, lang, kind, no_tests, repo).

        By default the router plans which layers to ask (`Engine.plan`); naming `layers`
        (or `route=False`) searches those passages directly with hybrid ranking.
        """
        flags = _checked(self.parts, k, filters)
        try:
            with self.parts.one_search():
                if route and not layers:
                    plan = self.plan(query, k).narrowed(flags)
                    k = k or self.config.search.k
                    return execute(self.parts.context(), plan, k, mode=mode)
                return hybrid.search(
                    self.parts.context(), query, k, layers=layers, filters=flags, mode=mode
                )
        finally:
            memory.release_now_and_then()

    def plan(self, query: str, k: int | None = None) -> RetrievalPlan:
        """The router's retrieval plan for `query` over the layers this index holds."""
        self.parts.require()
        store, repos = self.store, all_repos(self.parts.locator(), self.root)
        facts = IndexFacts.from_counts(
            store.counts(),
            repos=[r.name for r in repos],
            domains=lookup.known_domains(store),
            paths=lambda: lookup.indexed_paths(store),
            defines=lambda name: lookup.defined_kinds(store, name),
            meant=lambda word: lookup.misspelt_word(store, word),
        )
        return route(query, facts, k=k or self.config.search.k)

    def ask(
        self,
        question: str,
        k: int | None = None,
        *,
        on_piece: Callable[[Piece], None] | None = None,
        **options: Any,
    ) -> Answer:
        """A cited answer from the configured LLM; `on_piece` sees it as it streams.

        Takes `ask_stream`'s options. Raises `LlmError` when the model fails.
        """
        stream = self.ask_stream(question, k, **options)
        for piece in stream:
            if on_piece is not None:
                on_piece(piece)
        return stream.answer()

    def ask_stream(
        self,
        question: str,
        k: int | None = None,
        *,
        layers: Iterable[str] | None = None,
        filters: Mapping[str, Any] | SearchFilters | None = None,
        mode: str | None = None,
        model: str | None = None,
        provider: str | None = None,
        show_thinking: bool = False,
    ) -> AnswerStream:
        """Retrieve as `search` does, pack the hits for the LLM, and return the answer's
        stream (iterate it for pieces, then `.answer()`); `model`/`provider` override
        `llm.model`/`llm.provider`."""
        from strata.answer import answer
        from strata.llm import make_llm

        given = {"llm.model": model, "llm.provider": provider}
        cfg = self.config.with_values({key: v for key, v in given.items() if v}).llm
        return answer(
            lambda q: self.search(q, k, layers=layers, filters=filters, mode=mode),
            make_llm(cfg),
            question,
            budget=cfg.max_context_tokens,
            show_thinking=show_thinking,
        )

    def keep_warm(self) -> None:
        """Ready this process to search again and again (`strata serve` calls it): the
        indexed paths are read and the symbol catalogue built, the passage layers are
        copied into memory, then the query model is loaded, then what the loading freed is
        handed back to the system. An index whose full-text index lags far behind its
        rows (an interrupted embedding pass) is brought up to date in the background."""
        self.parts.warm()
        upkeep.catch_up_in_background(self.parts)

    # ---- the structural layers (strata.query.lookup); `repo=` looks inside one -----------
    def symbols(
        self,
        name: str,
        *,
        kind: str | None = None,
        limit: int = 20,
        repo: str | None = None,
        exact: bool = False,
    ) -> list[SymbolMatch]:
        """C1: exact, qualified, prefix, then fuzzy name matches, best first (`exact`: the
        first two tiers only)."""
        scope = self.parts.scope(repo)
        return lookup.find_symbols(scope, name, kind=kind, limit=limit, exact=exact)

    def callers(
        self, qname: str, depth: int = 1, *, repo: str | None = None, name_matches: bool = False
    ) -> CallWalk:
        """C2: who calls `qname` (bare or qualified), breadth-first to `depth`; calls tied
        by the bare name only are left out unless `name_matches`. A name that names nothing
        is read as the one defined name it misspells (`CallWalk.read_as`)."""
        scope = self.parts.scope(repo)
        return lookup.as_meant(
            scope, qname, lambda n: lookup.callers(scope, n, depth, name_matches=name_matches)
        )

    def callees(
        self, qname: str, depth: int = 1, *, repo: str | None = None, name_matches: bool = False
    ) -> CallWalk:
        """C2: what `qname` calls, breadth-first to `depth`; a callee found by its bare name
        only is an unresolved call unless `name_matches`. A misspelt name is read as in
        `callers`."""
        scope = self.parts.scope(repo)
        return lookup.as_meant(
            scope, qname, lambda n: lookup.callees(scope, n, depth, name_matches=name_matches)
        )

    def entrypoints(
        self, type: str | None = None, framework: str | None = None, *, repo: str | None = None
    ) -> list[Record]:
        """C3: HTTP routes, CLI commands and other entry points."""
        return lookup.list_entrypoints(self.parts.scope(repo), type=type, framework=framework)

    def docs(
        self,
        kind: str | None = None,
        domain: str | None = None,
        type: str | None = None,
        *,
        repo: str | None = None,
    ) -> list[Record]:
        """D1: the document catalog, filtered by doc kind, domain or frontmatter type."""
        return lookup.list_docs(self.parts.scope(repo), kind=kind, domain=domain, type=type)

    def related(
        self, document_id: str, depth: int = 1, *, repo: str | None = None
    ) -> list[Related]:
        """D5: documents related to `document_id` (either direction), to `depth`."""
        return lookup.related(self.parts.scope(repo), document_id, depth=depth)

    # ---- records, status, repositories ---------------------------------------------------
    def records(
        self, layers: Iterable[str] | None = None, limit: int | None = None
    ) -> list[Record]:
        """Every record of the given layers (all layers by default), in path and span order."""
        self.parts.require()
        return self.store.fetch(Filter(layers=tuple(layers) if layers else None), limit=limit)

    def build_id(self) -> tuple[Any, ...]:
        """Which build of the index this is: its embedder, width and creation time, as its
        locator records them now (a rebuild for another embedder records new ones)."""
        meta = self.parts.locator()
        return (meta.get("embedder"), meta.get("dim"), meta.get("created"))

    @property
    def exists(self) -> bool:
        """Whether an index has been written here."""
        return self.parts.exists

    def status(self) -> Status:
        """Root, store, embedder, counts per layer, last index time, pending files, health."""
        return status_of(self.parts)

    def repos(self) -> list[RepoInfo]:
        """Every repository in the index: name, root, home, files, rows, commits, last index."""
        return repos_of(self.parts)

    def sessions(self, repo: str | None = None) -> list[Session]:
        """The indexing sessions whose rows are in the index (of one repository, if named)."""
        return sessions_of(self.parts, repo)

    def closest(self, name: str, *, repo: str | None = None) -> list[str]:
        """Bare symbol names that look like `name` (for "no symbol named X; closest: ...")."""
        return lookup.closest(self.parts.scope(repo), name)

    def close(self) -> None:
        """Release the store."""
        self.parts.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _checked(
    parts: Parts, k: int | None, filters: Mapping[str, Any] | SearchFilters | None
) -> SearchFilters:
    """A search's arguments, refused before any work: no index, `k` below 1, a repository
    the index does not have (a typo, not "none")."""
    parts.require()
    if k is not None and k < 1:  # 0 once meant "the default" and -1 "all but one"
        raise QueryError(f"k must be at least 1, not {k}", hint="ask for 1 or more results")
    flags = SearchFilters.of(filters)
    if flags.repo:
        parts.repo(flags.repo)
    return flags
