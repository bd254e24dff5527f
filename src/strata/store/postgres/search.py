"""Searches on PostgreSQL: BM25 over the stemmed token vectors, cosine over pgvector.

BM25 is computed in SQL with LanceDB's (tantivy's) formula and constants: candidates
come from the GIN index (`lex_tsv @@ 'a'`, one scan per term), each term's frequency
is the number of its positions in the row's `tsvector`, its document frequency comes
from `pg_stats` or a count over the same index, and the corpus size and mean length
from `Corpus` (read at most every few seconds). The exact score is computed for the
best `PRESELECT` x k rows of a first stage that reads no `tsvector` (see `bm25`), not
for every match; past `FULL_SCAN` matches, that stage reads a bounded shortlist
(`shortlist`). Vector search is one
`ORDER BY embedding <=> q` on the HNSW index, with pgvector 0.8's iterative scan so that a
filtered query still finds its k rows.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from strata.store.postgres import shortlist
from strata.store.postgres.filters import Where
from strata.store.postgres.rows import record_of, stem
from strata.store.postgres.shortlist import Key, tsquery_word
from strata.types import Record

__all__ = ["Corpus", "bm25", "nearest"]

K1, B = 1.2, 0.75  # tantivy's BM25 constants, as LanceDB's index uses them
EF_SEARCH = 100  # HNSW candidate list: recall@10 vs exact search in docs/benchmarks.md
# Rows kept by the first, approximate stage of BM25 per row asked for (and at least this
# many): the exact second stage reorders them (see `bm25`).
PRESELECT, PRESELECT_MIN = 10, 500
# Past this many matches of a query's lexemes together, the first stage reads a bounded
# shortlist (`shortlist`) instead of every match of the rarest ones.
FULL_SCAN = 20_000
CORPUS_TTL = 5.0  # seconds a corpus size is reused before it is read again (at least)
CORPUS_SHARE = 0.02  # ... and at most this share of the time is spent reading it
_TERM = re.compile(r"\w+")


@dataclass(slots=True)
class Corpus:
    """BM25's corpus statistics, refreshed every `CORPUS_TTL`: rows, mean token count, and
    the document frequency of each lexeme asked for (from `pg_stats` for the common ones,
    counted on the GIN index for the rest: a common lexeme's count reads every match)."""

    rows: int = 0
    mean_len: float = 0.0
    read_at: float = -CORPUS_TTL
    common: dict[str, float] = field(default_factory=dict)  # lexeme -> share of rows
    df: dict[str, int] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)  # `lex_len` quantiles (pg_stats)
    ttl: float = CORPUS_TTL

    def current(self, conn: psycopg.Connection[Any]) -> tuple[int, float]:
        if time.monotonic() - self.read_at >= self.ttl:
            t0 = time.monotonic()
            row = conn.execute(
                "SELECT count(*), coalesce(avg(lex_len), 0) FROM rag_chunks"
            ).fetchone()
            self.rows, self.mean_len = (int(row[0]), float(row[1])) if row else (0, 0.0)
            self.common, self.lengths = _common_lexemes(conn), _length_bounds(conn)
            self.df = {}
            self.read_at = time.monotonic()
            # a large table's count takes a while: read it less often than every 5 s
            self.ttl = max(CORPUS_TTL, (self.read_at - t0) / CORPUS_SHARE)
        return self.rows, self.mean_len

    def frequencies(self, conn: psycopg.Connection[Any], lexemes: Sequence[str]) -> list[int]:
        """Each lexeme's document frequency (call `current` first)."""
        # this refresh's table: a reader thread sharing the store may start the next one
        # (`current` puts a new dict in place) while this one fills its own
        df, common, rows = self.df, self.common, self.rows
        for w in lexemes:
            if w not in df and w in common:
                df[w] = round(common[w] * rows)
        todo = [w for w in lexemes if w not in df]
        if todo:
            found = conn.execute(
                "SELECT (SELECT count(*) FROM rag_chunks WHERE lex_tsv @@ q) "
                "FROM unnest(%s::tsquery[]) AS q",
                ([tsquery_word(w) for w in todo],),
            ).fetchall()
            df.update((w, int(n)) for w, (n,) in zip(todo, found, strict=True))
        return [df[w] for w in lexemes]

    def forget(self) -> None:
        """This handle just wrote: read the statistics again next time."""
        self.read_at = -CORPUS_TTL


def _common_lexemes(conn: psycopg.Connection[Any]) -> dict[str, float]:
    """The share of rows holding each of the most common lexemes, as `ANALYZE` last saw
    them (none before a first `ANALYZE`: then every frequency is counted)."""
    row = conn.execute(
        "SELECT most_common_elems::text::text[], most_common_elem_freqs FROM pg_stats "
        "WHERE schemaname = current_schema() AND tablename = 'rag_chunks' "
        "AND attname = 'lex_tsv'"
    ).fetchone()
    if not row or row[0] is None:
        return {}
    return dict(zip(row[0], (float(f) for f in row[1]), strict=False))


def _length_bounds(conn: psycopg.Connection[Any]) -> list[int]:
    """About 100 bounds of equally full ranges of `lex_len`, from what `ANALYZE` last saw
    (its most common values and the histogram of the others); none before a first one."""
    row = conn.execute(
        "SELECT most_common_vals::text::int[], most_common_freqs, "
        "histogram_bounds::text::int[] FROM pg_stats WHERE schemaname = current_schema() "
        "AND tablename = 'rag_chunks' AND attname = 'lex_len'"
    ).fetchone()
    if not row:
        return []
    common = list(zip(row[0] or [], row[1] or [], strict=True))
    hist = row[2] or []
    rest = (1.0 - sum(f for _, f in common)) / max(len(hist) - 1, 1)
    mass = sorted([*common, *((b, rest) for b in hist[1:])])
    bounds, seen = [v for v in hist[:1]], 0.0
    for value, share in mass:
        seen += share
        if not bounds or seen >= len(bounds) / 100:
            bounds.append(value)
    return sorted(set(bounds))


def _share(conn: psycopg.Connection[Any], where: Where, rows: int) -> float:
    """The share of the rows `where` keeps, as the planner estimates it."""
    if where.text == "TRUE" or rows <= 0:
        return 1.0
    text = sql.SQL("EXPLAIN (FORMAT JSON) SELECT 1 FROM rag_chunks WHERE {}").format(
        sql.SQL(where.text)
    )
    row = conn.execute(text, where.params).fetchone()
    planned = float(row[0][0]["Plan"]["Plan Rows"]) if row else rows
    return min(1.0, planned / rows)


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
    """The `limit` best rows under `where` for any of `lexemes`, by BM25, best first.

    Two stages. The first reads no `tsvector` (a TOASTed value read per match is what
    makes ranking every match slow): each lexeme's matches come from the GIN index, and
    a row scores BM25 as if each lexeme it holds were there once. Its best
    `PRESELECT x limit` rows are then scored exactly from their `tsvector`s. The first
    stage starts from the rarest lexemes (MaxScore): a common one is left out while the
    rows it alone could add cannot reach the first stage's cut (its BM25 is at most
    idf x (k1 + 1)), so its many matches are not read at all.
    """
    rows, mean_len = corpus.current(conn)
    if not lexemes or rows == 0:
        return []
    dfs = dict(zip(lexemes, corpus.frequencies(conn, lexemes), strict=True))
    idf = {w: math.log(1 + (rows - df + 0.5) / (df + 0.5)) for w, df in dfs.items()}
    pre = max(PRESELECT * limit, PRESELECT_MIN)
    rarest = sorted(dfs.items(), key=lambda item: item[1])
    if sum(dfs.values()) <= FULL_SCAN or not corpus.lengths:
        keys = _candidates(conn, rarest, idf, pre, where, mean_len)
    else:
        share = _share(conn, where, rows)
        keys = shortlist.shortlist(conn, where, share, rarest, idf, pre, corpus.lengths, mean_len)
    if not keys:
        return []
    return _exact(conn, keys, idf, mean_len, columns, limit)


def _candidates(
    conn: psycopg.Connection[Any],
    rarest: list[tuple[str, int]],
    idf: dict[str, float],
    pre: int,
    where: Where,
    mean_len: float,
) -> list[Key]:
    """The first stage's `pre` best row keys, from the rarest lexemes (with their document
    frequencies) that match `pre` rows or more; from all of them when a row holding only
    the others might beat the cut, or too few rows were found."""
    used, seen = 0, 0
    while used < len(rarest) and seen < pre:
        seen += rarest[used][1]
        used += 1
    scan = [w for w, _ in rarest]
    scored = conn.execute(
        _stage_one(where), _stage_one_params(scan[:used], idf, pre, where, mean_len)
    ).fetchall()
    left = sum(idf[w] * (K1 + 1) for w in scan[used:])
    if used < len(scan) and (len(scored) < pre or float(scored[-1][3]) <= left):
        scored = conn.execute(
            _stage_one(where), _stage_one_params(scan, idf, pre, where, mean_len)
        ).fetchall()
    return [(r[0], r[1], r[2], r[3]) for r in scored]


def _stage_one(where: Where) -> sql.Composed:
    return sql.SQL(
        "SELECT c.repo_id, c.id, c.file_hash, c.branches,"
        " sum(q.idf) * %s / (1 + %s * (1 - %s + %s * c.lex_len / %s)) AS s "
        "FROM unnest(%s::tsquery[], %s::float8[]) AS q(term, idf) CROSS JOIN LATERAL ("
        " SELECT repo_id, id, file_hash, branches, lex_len FROM rag_chunks"
        " WHERE lex_tsv @@ q.term AND ({where})) c "
        "GROUP BY c.repo_id, c.id, c.file_hash, c.branches, c.lex_len"
        " ORDER BY s DESC, c.id LIMIT %s"
    ).format(where=sql.SQL(where.text))


def _stage_one_params(
    scan: list[str], idf: dict[str, float], pre: int, where: Where, mean_len: float
) -> tuple[Any, ...]:
    norm = (K1 + 1, K1, B, B, max(mean_len, 1e-9))
    terms = [tsquery_word(w) for w in scan]
    return (*norm, terms, [idf[w] for w in scan], *where.params, pre)


def _exact(
    conn: psycopg.Connection[Any],
    keys: list[Key],
    idf: dict[str, float],
    mean_len: float,
    columns: Sequence[str],
    limit: int,
) -> list[tuple[Record, float]]:
    """The exact BM25 of the candidate rows, from their `tsvector`s; the `limit` best."""
    cols = sql.SQL(", ").join(sql.SQL("c.") + sql.Identifier(c) for c in columns)
    text = sql.SQL(
        "WITH q(term, idf) AS (SELECT * FROM unnest(%s::text[], %s::float8[])) "
        "SELECT {cols}, s.score FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[])"
        " AS k(repo_id, id, file_hash, branches)"
        " JOIN rag_chunks c USING (repo_id, id, file_hash, branches), LATERAL ("
        " SELECT sum(q.idf * cardinality(u.positions) * %s"
        "  / (cardinality(u.positions) + %s * (1 - %s + %s * c.lex_len / %s))) AS score"
        " FROM unnest(c.lex_tsv) AS u JOIN q ON u.lexeme = q.term) s "
        "ORDER BY s.score DESC, c.id LIMIT %s"
    ).format(cols=cols)
    terms = list(idf)
    params = (
        terms, [idf[w] for w in terms], *([k[i] for k in keys] for i in range(4)),
        K1 + 1, K1, B, B, max(mean_len, 1e-9), limit,
    )  # fmt: skip
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
