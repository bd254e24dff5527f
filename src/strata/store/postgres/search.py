"""Searches on PostgreSQL: BM25 over the stemmed token vectors, cosine over pgvector.

BM25 is computed in SQL with LanceDB's (tantivy's) formula and constants: candidates
come from the GIN index (`lex_tsv @@ 'a' | 'b'`), each term's frequency is the number
of its positions in the row's `tsvector`, its document frequency a count over the same
index, and the corpus size and mean length come from `Corpus` (read at most every few
seconds). The exact score is computed for the best `PRESELECT` x k matches of a fast
idf-weighted `ts_rank`, not for every match. Vector search is one
`ORDER BY embedding <=> q` on the HNSW index, with pgvector 0.8's iterative scan so that a
filtered query still finds its k rows.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from strata.store.postgres.filters import Where
from strata.store.postgres.rows import record_of, stem
from strata.types import Record

__all__ = ["Corpus", "bm25", "nearest"]

K1, B = 1.2, 0.75  # tantivy's BM25 constants, as LanceDB's index uses them
EF_SEARCH = 100  # HNSW candidate list: recall@10 vs exact search in docs/benchmarks.md
# Rows kept by the first, approximate stage of BM25 per row asked for (and at least this
# many): the exact second stage reorders them (see `bm25`).
PRESELECT, PRESELECT_MIN = 10, 200
CORPUS_TTL = 5.0  # seconds a corpus size is reused before it is read again
_TERM = re.compile(r"\w+")


@dataclass(slots=True)
class Corpus:
    """BM25's corpus statistics (rows, mean token count), refreshed every `CORPUS_TTL`."""

    rows: int = 0
    mean_len: float = 0.0
    read_at: float = -CORPUS_TTL

    def current(self, conn: psycopg.Connection[Any]) -> tuple[int, float]:
        if time.monotonic() - self.read_at >= CORPUS_TTL:
            row = conn.execute(
                "SELECT count(*), coalesce(avg(lex_len), 0) FROM rag_chunks"
            ).fetchone()
            self.rows, self.mean_len = (int(row[0]), float(row[1])) if row else (0, 0.0)
            self.read_at = time.monotonic()
        return self.rows, self.mean_len

    def forget(self) -> None:
        """This handle just wrote: read the statistics again next time."""
        self.read_at = -CORPUS_TTL


def query_lexemes(terms: Sequence[str]) -> list[str]:
    """The distinct stemmed lexemes of the query words (anything else is dropped)."""
    words = (t.lower() for t in terms if _TERM.fullmatch(t))
    return list(dict.fromkeys(stem(w) for w in words))


def bm25(
    conn: psycopg.Connection[Any],
    lexemes: list[str],
    limit: int,
    where: Where,
    corpus: Corpus,
    columns: Sequence[str],
) -> list[tuple[Record, float]]:
    """The `limit` best rows under `where` for any of `lexemes`, by BM25, best first."""
    rows, mean_len = corpus.current(conn)
    if not lexemes or rows == 0:
        return []
    query = " | ".join(_tsquery_word(w) for w in lexemes)
    found = conn.execute(
        "SELECT (SELECT count(*) FROM rag_chunks WHERE lex_tsv @@ q::tsquery) "
        "FROM unnest(%s::text[]) AS q",
        ([_tsquery_word(w) for w in lexemes],),
    ).fetchall()
    idf = [math.log(1 + (rows - df + 0.5) / (df + 0.5)) for (df,) in found]
    # Stage 1, in C: each match scored idf-weighted by ts_rank (a saturating tf over the
    # positions, over 1 + log(length)), the best `PRESELECT x limit` kept. Stage 2: exact
    # BM25 over those only: unnesting every match's tsvector costs ~0.1 ms a row.
    approx = sql.SQL(" + ").join(
        sql.SQL("{} * ts_rank(c.lex_tsv, {}::tsquery, 1)").format(
            sql.Literal(w), sql.Literal(_tsquery_word(t))
        )
        for t, w in zip(lexemes, idf, strict=True)
    )
    cols = sql.SQL(", ").join(sql.SQL("c.") + sql.Identifier(c) for c in columns)
    text = sql.SQL(
        "WITH q(term, idf) AS (SELECT * FROM unnest(%s::text[], %s::float8[])), "
        "pre AS (SELECT c.repo_id, c.id, c.lex_tsv, c.lex_len FROM rag_chunks c "
        " WHERE c.lex_tsv @@ %s::tsquery AND ({where}) ORDER BY {approx} DESC LIMIT %s) "
        "SELECT {cols}, s.score FROM pre JOIN rag_chunks c USING (repo_id, id), LATERAL ("
        " SELECT sum(q.idf * cardinality(u.positions) * %s"
        "  / (cardinality(u.positions) + %s * (1 - %s + %s * pre.lex_len / %s))) AS score"
        " FROM unnest(pre.lex_tsv) AS u JOIN q ON u.lexeme = q.term) s "
        "ORDER BY s.score DESC, c.id LIMIT %s"
    ).format(cols=cols, where=sql.SQL(where.text), approx=approx)
    pre = max(PRESELECT * limit, PRESELECT_MIN)
    params = (lexemes, idf, query, *where.params, pre, K1 + 1, K1, B, B, max(mean_len, 1e-9), limit)
    out = conn.execute(text, params).fetchall()
    return [(record_of(r[:-1], columns), float(r[-1])) for r in out]


def nearest(
    conn: psycopg.Connection[Any],
    vector: np.ndarray[Any, Any],
    limit: int,
    where: Where,
    columns: Sequence[str],
) -> list[tuple[Record, float]]:
    """The `limit` rows under `where` nearest `vector` by cosine, best first."""
    conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(EF_SEARCH)))
    conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
    cols = sql.SQL(", ").join(sql.Identifier(c) for c in columns)
    text = sql.SQL(
        "SELECT {cols}, embedding <=> %s AS distance FROM rag_chunks "
        "WHERE embedding IS NOT NULL AND ({where}) ORDER BY distance LIMIT %s"
    ).format(cols=cols, where=sql.SQL(where.text))
    out = conn.execute(text, (vector, *where.params, limit)).fetchall()
    # relaxed order: an iterative scan may return a few rows slightly out of order
    out.sort(key=lambda r: float(r[-1]))
    return [(record_of(r[:-1], columns), 1.0 - float(r[-1])) for r in out]


def _tsquery_word(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"
