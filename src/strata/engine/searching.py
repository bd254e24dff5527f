"""The Engine's searching: routed or direct hybrid search, the router's plan, a warm process."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from strata.answer import Answer, AnswerStream, Piece, answer
from strata.engine.host import EngineParts
from strata.engine.layered import Direct
from strata.errors import QueryError
from strata.layers import C1_SYMBOL_CATALOG
from strata.llm import make_llm
from strata.query import lookup
from strata.query.executor import execute
from strata.query.hybrid import Searcher, SearchResult, where_of
from strata.query.lookup.symbols import symbol_index
from strata.query.router import IndexFacts, Plan, route
from strata.workspace import memory
from strata.workspace.repos import all_repos, named


class Searching(EngineParts):
    """Mixed into `strata.Engine`, which provides the root, config, store and embedders."""

    def search(
        self,
        query: str,
        k: int | None = None,
        *,
        layers: Iterable[str] | None = None,
        filters: Mapping[str, Any] | None = None,
        mode: str | None = None,
        route: bool = True,
    ) -> SearchResult:
        """Ranked hits for a query; `filters` keys: path (globs), lang, kind, no_tests, repo.

        By default the router plans which layers to ask (`Engine.plan`); naming `layers`
        (or `route=False`) searches those passages directly with hybrid ranking.
        """
        self._require()
        _check_k(k)
        if (filters or {}).get("repo"):  # a name the index does not have is a typo, not "none"
            named(self._locator(), self.root, str((filters or {})["repo"]))
        try:
            if route and not layers:
                plan = _with_flags(self.plan(query, k), filters or {})
                return execute(Direct(self), plan, k or self.config.search.k, mode=mode)
            store = self.store
            where = where_of(layers, filters or {}, lambda: lookup.indexed_paths(store))
            searcher = Searcher(
                self.store, self.config, self.query_embedder if self._embeds() else None
            )
            no_tests = bool((filters or {}).get("no_tests"))
            return searcher.search(
                query, k=k, mode=mode, where=where, include_tests=False if no_tests else None
            )
        finally:
            memory.release_now_and_then()

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
        filters: Mapping[str, Any] | None = None,
        mode: str | None = None,
        model: str | None = None,
        provider: str | None = None,
        show_thinking: bool = False,
    ) -> AnswerStream:
        """Retrieve as `search` does, pack the hits for the LLM, and return the answer's
        stream (iterate it for pieces, then `.answer()`); `model`/`provider` override
        `llm.model`/`llm.provider`."""
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
        handed back to the system."""
        self._require()
        memory.return_large_buffers()
        # Smallest first: each build's passing peak then sits on less of what is kept.
        lookup.indexed_paths(self.store)  # what a question with a path-shaped word asks
        if self.store.counts().get(C1_SYMBOL_CATALOG, {}).get("rows"):
            symbol_index(self.store)  # what a routed query for a name asks first
        self.store.keep_warm()
        if self._embeds() and self.store.dim > 0:  # a lexical index never embeds a query
            self.query_embedder()
        memory.release()

    def plan(self, query: str, k: int | None = None) -> Plan:
        """The router's retrieval plan for `query` over the layers this index holds."""
        self._require()
        repos = [r.name for r in all_repos(self._locator(), self.root)]
        store = self.store
        facts = IndexFacts.from_counts(
            store.counts(),
            repos=repos,
            domains=lookup.known_domains(store),
            paths=lambda: lookup.indexed_paths(store),
        )
        return route(query, facts, k=k or self.config.search.k)


def _check_k(k: int | None) -> None:
    if k is not None and k < 1:  # 0 once meant "the default" and -1 "all but one"
        raise QueryError(f"k must be at least 1, not {k}", hint="ask for 1 or more results")


def _with_flags(plan: Plan, flags: Mapping[str, Any]) -> Plan:
    """Flags given by the caller narrow the router's own filters."""
    extra = {key: flags[key] for key in ("path", "lang", "kind", "repo") if flags.get(key)}
    if flags.get("no_tests"):
        extra["is_test"] = False
    if not extra:
        return plan
    guessed = tuple(key for key in plan.guessed if key not in extra)  # the caller's flag wins
    return dataclasses.replace(plan, filters={**plan.filters, **extra}, guessed=guessed)
