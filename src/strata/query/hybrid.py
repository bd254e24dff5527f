"""Hybrid search: lexical and vector retrieval, fused, re-ranked with code-aware signals."""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from strata.config import Config
from strata.embedding import Embedder
from strata.errors import EmbedderError, EmbedderMismatchError, QueryError
from strata.layers import EMBEDDED_LAYERS, PASSAGE_LAYERS, embedded_count
from strata.query import (
    adapted,
    feedback,
    frames,
    framing,
    fusion,
    lookup,
    quoted,
    ranking,
    titles,
    verbatim,
)
from strata.query.compiled import may_be_output
from strata.query.declared import declaration_parts
from strata.query.definitions import definition_chunks
from strata.query.exported import export_lines
from strata.query.filters import NO_FILTERS, WIDEN, SearchFilters
from strata.query.focus import at_frame, focused
from strata.query.project_name import name_words, unnamed
from strata.query.respelt import respelt, respelt_query
from strata.query.twins import distinct
from strata.store import Filter, Store
from strata.text.tokens import query_terms
from strata.types import Hit, Record

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 2000
# With `search.kind_floor` and code and docs in the lists, each retriever is read this many
# times deeper than the pool, for a kind the other crowds out of its first candidates.
KIND_DEPTH = 3


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits best first, plus notes the user should see (fallbacks, truncation) and the plan."""

    hits: tuple[Hit, ...]
    mode: str
    notes: tuple[str, ...] = ()
    plan: dict[str, Any] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Hit]:
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, i: int) -> Hit:
        return self.hits[i]


@dataclass(frozen=True, slots=True)
class QueryContext:
    """What a query runs against: the store, the configuration (its `search` section) and
    the query embedder's factory (None: the index has no vectors), called only when a
    query needs a vector; `project`: the names of the repositories indexed (a question
    that names the project is embedded without the name: query/project_name). The Engine
    builds one; so can anything holding a store."""

    store: Store
    config: Config
    embedder: Callable[[], Embedder] | None = None
    project: tuple[str, ...] = ()
    adapter: Callable[[], np.ndarray | None] | None = None


def search(
    ctx: QueryContext,
    query: str,
    k: int | None = None,
    *,
    layers: Iterable[str] | None = None,
    filters: SearchFilters = NO_FILTERS,
    mode: str | None = None,
) -> SearchResult:
    """The plain hybrid search: `layers` (default C0 and D0) under `filters`. A filter
    the store cannot apply (tests only, a domain) is applied to `WIDEN` times more hits."""
    where = filters.where(layers, lambda: lookup.indexed_paths(ctx.store))
    tests = False if filters.is_test is False else None
    searcher = Searcher(ctx)
    if not filters.on_hits:
        return searcher.search(query, k=k, mode=mode, where=where, include_tests=tests)
    k = k or ctx.config.search.k
    more = searcher.search(query, k=WIDEN * k, mode=mode, where=where, include_tests=tests)
    hits = tuple(h for h in more.hits if filters.keeps(h.record))[:k]
    return dataclasses.replace(more, hits=hits)


class Searcher:
    """Runs one query against a store; the query embedder is loaded only when needed."""

    def __init__(self, ctx: QueryContext) -> None:
        self._store = ctx.store
        self._cfg = ctx.config
        self._embedder_factory = ctx.embedder
        self._project = name_words(ctx.project)
        self._adapter = ctx.adapter

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        mode: str | None = None,
        where: Filter | None = None,
        include_tests: bool | None = None,
    ) -> SearchResult:
        """Search; `where.layers` defaults to the passage layers (C0 source, D0 docs)."""
        k = k or self._cfg.search.k
        mode = mode or self._cfg.search.mode
        notes: list[str] = []
        trace = frames.parse(query)  # the whole query: a traceback's last frame is innermost
        asked, (query, terms) = query, self._validate(framing.core(query), notes)
        where = where or Filter()
        if where.layers is None:
            where = dataclasses.replace(where, layers=PASSAGE_LAYERS)
        mode = self._effective_mode(mode, where, notes)
        n = max(self._cfg.search.candidates, 3 * k)
        q = ranking.shape(query, terms, topic=framing.is_topic(asked))
        if not (q.lookup or q.identifier_like) and (fixed := respelt(self._store, query)):
            query, terms = respelt_query(query, fixed, notes)
            q = ranking.shape(query, terms, topic=framing.is_topic(asked))
        mixed = self._both_kinds(q, mode, where)
        depth = KIND_DEPTH * n if mixed else n
        embedded = self._unnamed(query) if q.question else query
        lists, mode = self._retrieve(embedded, terms, q, (depth, k), mode, where, notes)
        if mixed:
            lists = {name: fusion.kind_floor(pairs, n) for name, pairs in lists.items()}
        if trace and (found := frames.frame_chunks(self._store, trace, where)):
            lists["frames"] = found
        extra = self._feedback(q, terms, lists, n, where)
        hits = self._rank(q, lists, k, include_tests, self._compiled(lists), where)
        if not q.lookup:  # a name's definition is shown at its header
            hits = [dataclasses.replace(h, record=focused(h.record, terms)) for h in hits]
        hits = [dataclasses.replace(h, record=at_frame(h.record)) for h in hits]
        plan = {"mode": mode, "layers": list(where.layers or ()), "candidates": n, "terms": terms}
        if extra:
            plan["feedback_terms"] = extra
        if embedded != query and mode != "lexical":  # the project's name left out
            plan["embedded"] = embedded
        moved = ranking.adapter_weight(q, self._cfg.search.adapter)
        if mode != "lexical" and moved > 0 and self._matrix() is not None:
            plan["adapter"] = moved  # rows found by the moved vector
        if query != asked.strip():  # the request around the topic, left out (query/framing)
            plan["core"] = query
        return SearchResult(tuple(hits), mode, tuple(notes), plan)

    def _retrieve(
        self,
        query: str,
        terms: list[str],
        q: ranking.QueryShape,
        sizes: tuple[int, int],
        mode: str,
        where: Filter,
        notes: list[str],
    ) -> tuple[dict[str, list[tuple[Record, float]]], str]:
        """Each retriever's candidates, best first, and the mode that ran (a hybrid search
        whose query embedder did not answer runs lexical, with a note). `query`: the text
        embedded; `sizes`: the candidates per retriever, and the hits asked for (the named
        definitions' limit)."""
        n, k = sizes
        lists: dict[str, list[tuple[Record, float]]] = {}
        semantic = None
        if mode in ("semantic", "hybrid"):  # embedding and the vector scan overlap the BM25 query
            moved = ranking.adapter_weight(q, self._cfg.search.adapter)
            semantic = _pool().submit(self._semantic, query, n, where, moved)
        if mode in ("lexical", "hybrid"):
            lists["lexical"] = self._store.lexical_search(terms, n, where)
            if q.lookup and q.asked:  # exact names: lexical, kept out of a semantic search
                lists["symbols"] = definition_chunks(self._store, q.asked, where, k)
        if semantic is not None:
            try:
                lists["semantic"] = semantic.result()
            except EmbedderError as exc:
                if mode != "hybrid" or isinstance(exc, EmbedderMismatchError):
                    raise
                notes.append(f"lexical only: the query embedder did not answer ({exc.message})")
                mode = "lexical"
        return lists, mode

    def _unnamed(self, question: str) -> str:
        """A question as the query embedder reads it: without the project's name."""
        kinds = functools.partial(lookup.defined_kinds, self._store)
        return unnamed(question, self._project, kinds) if self._project else question

    def _both_kinds(self, q: ranking.QueryShape, mode: str, where: Filter) -> bool:
        """Whether a sentence's hybrid lists hold code and docs that the fair fusion ranks
        apart (so each kind's share of the pool matters); not for a name lookup."""
        search = self._cfg.search
        if mode != "hybrid" or q.lookup or not (search.fair_kinds and search.kind_floor):
            return False
        layers = where.layers or PASSAGE_LAYERS
        have = {layer[:1] for layer, c in self._store.counts().items() if c.get("rows", 0) > 0}
        return {"C", "D"} <= {layer[:1] for layer in layers if layer[:1] in have}

    def _feedback(
        self,
        q: ranking.QueryShape,
        terms: list[str],
        lists: dict[str, list[tuple[Record, float]]],
        n: int,
        where: Filter,
    ) -> list[str]:
        """With `search.feedback` on, a sentence's hybrid lists get a `feedback` BM25 list:
        the query's words plus the code names its first candidates share (query/feedback)."""
        if self._cfg.search.feedback <= 0 or q.lookup or not {"lexical", "semantic"} <= set(lists):
            return []
        extra = feedback.expansion(feedback.head(lists), terms)
        if extra:
            lists["feedback"] = self._store.lexical_search([*terms, *extra], n, where)
        return extra

    def _compiled(self, lists: Mapping[str, Sequence[tuple[Record, float]]]) -> frozenset[str]:
        """The index's build output paths (query/compiled), read only when a candidate's
        name says it may be one: no store version to check for a tree without JavaScript."""
        paths = (rec.path for pairs in lists.values() for rec, _ in pairs)
        if any(may_be_output(p) for p in paths):
            return lookup.compiled_paths(self._store)
        return frozenset()

    def _semantic(
        self, query: str, n: int, where: Filter, moved: float
    ) -> list[tuple[Record, float]]:
        """The vector list, found with the query's vector moved `moved` of the way through
        the index's query adapter (`ranking.adapter_weight`)."""
        vec = self._get_embedder().embed_query(query)
        matrix = self._matrix() if moved > 0 else None
        return adapted.vector_search(self._store, vec, matrix, moved, n, where)

    def _matrix(self) -> np.ndarray | None:
        """The index's query adapter, when there is one and `search.adapter` uses it."""
        if self._adapter is None or self._cfg.search.adapter <= 0:
            return None
        return self._adapter()

    def _validate(self, query: str, notes: list[str]) -> tuple[str, list[str]]:
        query = query.strip()
        if not query:
            raise QueryError("empty query", hint="give some words or a name to search for")
        if len(query) > MAX_QUERY_CHARS:
            notes.append(f"query truncated to its first {MAX_QUERY_CHARS} characters")
            query = query[:MAX_QUERY_CHARS]
        terms = query_terms(query)
        if not terms:
            raise QueryError(
                f"query {query[:40]!r} has no searchable words",
                hint="use letters or digits: a name, a phrase, a question",
            )
        return query, terms[:64]

    def _effective_mode(self, mode: str, where: Filter, notes: list[str]) -> str:
        if mode == "lexical":
            return mode
        if where.layers is not None and not set(where.layers) & set(EMBEDDED_LAYERS):
            if mode == "semantic":  # a routed hybrid step over such a layer needs no note
                names = ", ".join(where.layers)
                notes.append(f"lexical only: {names} is found by name and words, not by vectors")
            return "lexical"
        if self._embedder_factory is None:
            notes.append("lexical only: the index has no vectors (embedder 'none')")
            return "lexical"
        if self._store.dim == 0:
            notes.append(
                "lexical only: no vectors yet (the embedder did not answer at the first index)"
            )
            return "lexical"
        vecs, rows = embedded_count(self._store.counts())
        if vecs == 0:
            notes.append("lexical only: vectors are not computed yet (run `strata index`)")
            return "lexical"
        if vecs < rows:
            notes.append(
                f"partial vectors: {vecs}/{rows} rows embedded; semantic part covers those"
            )
        return mode

    def _rank(
        self,
        q: ranking.QueryShape,
        lists: dict[str, list[tuple[Record, float]]],
        k: int,
        include_tests: bool | None,
        compiled: frozenset[str] = frozenset(),
        where: Filter | None = None,
    ) -> list[Hit]:
        """The fused, adjusted top `k` (`compiled`: the build output paths, ranked as
        generated code; `where`: the search's filter, for chunks found by name)."""
        rrf_k = ranking.rrf_constant(q, self._cfg.search.rrf_k)
        records: dict[str, Record] = {}
        raw: dict[str, dict[str, float]] = {}
        for name, pairs in lists.items():
            for rec, score in pairs:
                records.setdefault(rec.id, rec)
                raw.setdefault(rec.id, {})[name + "_raw"] = score
        rankings = {name: [r.id for r, _ in pairs] for name, pairs in lists.items()}
        weights = {**ranking.weights(q), "feedback": self._cfg.search.feedback}
        # Measured: fair in hybrid (docs +.05 MRR, developer questions +.03); in lexical
        # alone it costs docs questions (-.15), the definition boost then decides the tie.
        fair = self._cfg.search.fair_kinds and len(lists.keys() & {"lexical", "semantic"}) == 2
        if fair:
            fused = fusion.fair_rrf(rankings, records, weights, rrf_k)
        else:
            fused = ranking.rrf(rankings, weights=weights, k=rrf_k)
        for heads in fusion.heads(lists, by_kind=fair):
            for rid, part in fusion.standouts(heads, k=rrf_k).items():
                fused[rid]["standout"] = part
        unit = 1.0 / (rrf_k + 1)
        for n, (rec, _) in enumerate(lists.get("frames", ())):
            records[rec.id] = rec  # with its frame's line
            fused[rec.id]["frames"] = ranking.frame_part(n, unit)
        if {"lexical", "semantic"} <= lists.keys():  # measured: it costs each list alone
            for rid, part in titles.title_parts(
                records, q.words, unit=unit, elsewhere=q.elsewhere
            ).items():
                fused[rid]["title"] = part
        for rid, part in verbatim.verbatim_parts(records, q.message, unit=unit).items():
            fused[rid]["verbatim"] = part
        for rid, part in quoted.quoted_parts(records, q.quoted, unit=unit).items():
            fused[rid]["quoted"] = part
        fused = fused if q.lookup else self._stand_ins(records, fused, where)
        tests = self._cfg.search.include_tests if include_tests is None else include_tests
        parts = ranking.adjust(
            records,
            fused,
            q,
            rrf_k=rrf_k,
            include_tests=tests,
            path_boost=self._cfg.search.path_boost,
            compiled=compiled,
        )
        scored = {rid: ranking.final_score(p) for rid, p in parts.items()}
        order = sorted(ranking.fused_order(parts), key=lambda rid: -scored[rid])
        # a name's definitions are each a place asked for, copies too; else one of a text
        kept = [records[rid] for rid in order[:k]] if q.lookup else distinct(order, records, k)
        return [Hit(r, scored[r.id], {**parts[r.id], **raw.get(r.id, {})}) for r in kept]

    def _stand_ins(
        self,
        records: dict[str, Record],
        fused: dict[str, dict[str, float]],
        where: Filter | None,
    ) -> dict[str, dict[str, float]]:
        """For a sentence: a C or C++ function's declaration next to its definition
        (query/declared), and no line that only exports what its file defines
        (query/exported)."""
        gone = export_lines(self._store, (records[rid] for rid in fused))
        for rid, (rec, part) in declaration_parts(self._store, records, fused, where).items():
            records.setdefault(rid, rec)
            fused.setdefault(rid, {})["declared"] = part
        return {rid: p for rid, p in fused.items() if rid not in gone}

    def _get_embedder(self) -> Embedder:
        assert self._embedder_factory is not None
        return self._embedder_factory()


@functools.cache
def _pool() -> ThreadPoolExecutor:
    """One worker for the semantic half of hybrid queries (ONNX and LanceDB free the GIL)."""
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="strata-semantic")
