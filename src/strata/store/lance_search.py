"""The reading half of `LanceStore`: BM25 and vector search, and the warm in-memory copy.

A cold search asks LanceDB for whole rows. A warm process (see `strata.store.hot`) asks
it for BM25 row ids only and cuts the hits from its copy of the passage layers, and
answers vector searches from that copy with one matrix product.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from strata.layers import PASSAGE_LAYERS
from strata.store import Filter, Hits, sql
from strata.store.arrow import SEARCH_COLUMNS, query_vector, to_records
from strata.store.hot import MAX_ROWS as HOT_MAX_ROWS
from strata.store.hot import HotPassages, WarmPassages
from strata.store.lancedb_loaded import FullTextOperator, MatchQuery
from strata.types import Vector

__all__ = ["LanceSearch", "match_query"]

_TERM = re.compile(r"\w+")


class LanceSearch:
    """Mixed into `LanceStore`, which provides the table, the width and the version."""

    dim: int
    _table: Any
    _has_ann: bool
    _warm: WarmPassages

    if TYPE_CHECKING:

        @property
        def version(self) -> int: ...

    def lexical_search(self, terms: Sequence[str], limit: int, where: Filter) -> Hits:
        """BM25 over `lex` (OR of the terms), best first."""
        words = list(dict.fromkeys(t.lower() for t in terms if _TERM.fullmatch(t)))
        if not words or limit <= 0:
            return []
        predicate = sql.where(where, vectors=self.dim > 0)
        if predicate == sql.FALSE:
            return []
        hot = self._warm.get() if _passages_only(where) else None
        if hot is not None:  # row ids only: the hits are cut from the copy in memory
            found = self._bm25(words, predicate, limit).select(["_score"]).with_row_id(True)
            table = found.to_arrow()
            at = hot.positions(table.column("_rowid").to_pylist())
            if at is not None:
                return list(zip(hot.records(at), table.column("_score").to_pylist(), strict=True))
            # a commit came between the copy and the query: whole rows from LanceDB
        found = self._bm25(words, predicate, limit).select([*SEARCH_COLUMNS, "_score"])
        table = found.to_arrow()
        return list(zip(to_records(table), table.column("_score").to_pylist(), strict=True))

    def _bm25(self, words: list[str], predicate: str, limit: int) -> Any:
        """The FTS query builder for `words` under `predicate`, top `limit`."""
        builder = self._table.search(match_query(words), query_type="fts").limit(limit)
        return builder if predicate == sql.TRUE else builder.where(predicate, prefilter=True)

    def vector_search(self, vector: Vector, limit: int, where: Filter) -> Hits:
        """Cosine similarity over rows with a vector, best first."""
        query = query_vector(vector, self.dim, limit)
        if query is None:
            return []
        hot = self._warm.get() if _passages_only(where) else None
        if hot is not None:
            best = hot.top(query, limit, where)
            return list(zip(hot.records([i for i, _ in best]), [s for _, s in best], strict=True))
        predicate = sql.conjunction(["has_vector = TRUE", sql.where(where, vectors=True)])
        if predicate == sql.FALSE:
            return []
        builder = (
            self._table.search(query, vector_column_name="vector", query_type="vector")
            .distance_type("cosine")
            .select([*SEARCH_COLUMNS, "_distance"])
            .where(predicate, prefilter=True)
            .limit(limit)
        )
        if self._has_ann:
            # recall@10 0.97 vs 0.89 for (20, 5) at about the same cost (benchmarks/large_run.py)
            builder = builder.nprobes(50).refine_factor(10)
        table = builder.to_arrow()
        scores = [1.0 - d for d in table.column("_distance").to_pylist()]
        return list(zip(to_records(table), scores, strict=True))

    def keep_warm(self) -> None:
        """This process will search again and again: copy the passage layers into memory
        now, and again after each commit (see `strata.store.hot`)."""
        self._warm.keep()

    def _load_hot(self, version: int) -> HotPassages | None:
        """The passage rows of `version` in memory (None: too many, or a commit came between)."""
        predicate = sql.in_list("layer", PASSAGE_LAYERS)
        count = self._table.count_rows(predicate)
        if count > HOT_MAX_ROWS:
            return None

        def take(row_ids: list[int]) -> pa.Table:
            return self._table.take_row_ids(row_ids).select(["id", "vector"]).to_arrow()

        query = self._table.search().where(predicate).select(list(SEARCH_COLUMNS))
        try:
            rows = query.with_row_id(True).to_batches()
            hot = HotPassages.load(rows, take if self.dim else None, version, self.dim)
        except ValueError:
            return None
        return hot if self.version == version else None


def match_query(words: Sequence[str]) -> MatchQuery:
    """The BM25 query over `lex`, spelled out: exact terms (no fuzziness), any may match."""
    return MatchQuery(
        " ".join(words),
        "lex",
        boost=1.0,
        fuzziness=0,
        max_expansions=50,
        operator=FullTextOperator.OR,
        prefix_length=0,
        document_granularity=None,
    )


def _passages_only(where: Filter) -> bool:
    """Whether a search keeps to the passage layers, the rows kept in memory."""
    passages = where.layers is not None and set(where.layers) <= set(PASSAGE_LAYERS)
    return passages and where.ids is None  # the copy is searched by filter, never by id
