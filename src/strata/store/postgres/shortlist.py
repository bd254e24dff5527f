"""BM25's first stage over a large corpus: a shortlist read with a bounded number of rows.

Reading every match of a common word is what makes BM25 slow on a large table: each match
is a heap row fetched (at ~600k rows, "error" matches a third of them). Here the rarest
lexemes are read in full and the common ones by ranges of row length, shortest first: a
B-tree on `lex_len` ANDed with the GIN index's bitmap, so that only the rows of the range
are fetched. Rows holding every common lexeme come first (one GIN scan of `a & b`, which
intersects the posting lists before any row is fetched), then rows holding any of them,
until the shortlist is settled or `BUDGET` rows were read. A row scores the idf of the
lexemes it holds times BM25's length factor (as if each were there once); the exact
stage (`search._exact`) ranks the shortlist from its `tsvector`s.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

from strata.store.postgres.filters import Where

__all__ = ["BUDGET", "RARE", "Key", "shortlist"]

K1, B = 1.2, 0.75  # tantivy's BM25 constants (as `search`)
RARE = 2_000  # the rarest lexemes matching this many rows together are read in full
BUDGET = 6_000  # rows the length walks fetch at most (each ~a heap page: see the docstring)
Key = tuple[str, str, str, str]  # a row: (repo_id, id, file_hash, branches)
_Scan = Callable[[int | None, int | None, int], tuple[sql.Composed, tuple[Any, ...]]]


@dataclass(slots=True)
class _Found:
    """The rows read so far: each one's idf sum and length, and which hold every common
    lexeme's weight already."""

    mean: float
    rows: dict[Key, list[float]] = field(default_factory=dict)
    complete: set[Key] = field(default_factory=set)
    read: int = 0  # rows fetched (an estimate: rows returned / the filter's share)

    def add(self, cursor: Iterable[tuple[Any, ...]], *, whole: bool = False) -> int:
        n = 0
        for repo_id, id_, file_hash, branches, length, weight in cursor:
            key = (repo_id, id_, file_hash, branches)
            n += 1
            if key in self.complete:
                continue
            slot = self.rows.setdefault(key, [0.0, float(length)])
            slot[0] += float(weight)
            if whole:
                self.complete.add(key)
        return n

    def best(self, pre: int) -> list[tuple[float, Key]]:
        scored = ((w * length_factor(n, self.mean), k) for k, (w, n) in self.rows.items())
        return sorted(scored, key=lambda s: (-s[0], s[1][1], s[1]))[:pre]


def length_factor(length: float, mean: float) -> float:
    """BM25's weight of one occurrence in a row of `length` tokens."""
    return (K1 + 1) / (1 + K1 * (1 - B + B * length / mean))


def shortlist(
    conn: psycopg.Connection[Any],
    where: Where,
    share: float,
    rarest: list[tuple[str, int]],
    idf: dict[str, float],
    pre: int,
    lengths: list[int],
    mean: float,
) -> list[Key]:
    """The `pre` best rows of the first stage, from lexemes with their document frequencies
    (rarest first), and `lengths` (the bounds of equally full ranges of `lex_len`);
    `share`: of all rows, those `where` keeps."""
    rare: list[str] = []
    seen = 0
    for w, df in rarest:
        if seen + df > RARE:
            break
        rare.append(w)
        seen += df
    common = [w for w, _ in rarest[len(rare) :]]
    found = _Found(max(mean, 1e-9))
    if rare:
        found.add(conn.execute(*_any_scan(rare, idf, where, None, None, None)))
        found.read = seen
    if not common:
        return [k for _, k in found.best(pre)]
    reach = sum(idf[w] for w in common)
    walk = _Walk(conn, found, lengths, pre, reach, max(share, 1e-3))
    df_common = [df for _, df in rarest[len(rare) :]]
    if len(common) > 1:  # every common lexeme first: websearch's AND before OR
        every = functools.partial(_all_scan, common, reach, where)
        if walk.run(every, min(df_common), whole=True):
            return [k for _, k in found.best(pre)]
    walk.run(functools.partial(_any_scan, common, idf, where), sum(df_common), whole=False)
    return [k for _, k in found.best(pre)]


@dataclass(slots=True)
class _Walk:
    """Reads ranges of row length, shortest first, each sized from the rows per range the
    last one gave, until the shortlist is settled, the lengths end or the budget is spent."""

    conn: psycopg.Connection[Any]
    found: _Found
    lengths: list[int]
    pre: int
    reach: float  # every common lexeme's idf together
    share: float  # of the rows, those `where` keeps (the planner's estimate)

    def run(self, scan: _Scan, df: int, *, whole: bool) -> bool:
        """Walk with `scan(low, high, limit)` (`whole`: its rows hold every common lexeme);
        whether the shortlist is settled (or the budget spent)."""
        ranges = max(len(self.lengths) - 1, 1)
        density = max(df / ranges, 1.0)  # rows fetched per range of the histogram, at first
        i, low, taken = 0, None, 1
        while self.found.read < BUDGET:
            room = BUDGET - self.found.read
            taken = max(1, min(math.floor(room / density), 4 * taken))
            j = i + taken
            high = self.lengths[j] if j < len(self.lengths) - 1 else None
            limit = max(1, math.ceil(room * self.share))  # rows kept, of ~room fetched
            got = self.found.add(self.conn.execute(*scan(low, high, limit)), whole=whole)
            fetched = got / self.share
            self.found.read += round(fetched)
            if high is None:
                return False
            density = max(fetched / taken, 1.0)
            best = self.found.best(self.pre)
            if len(best) >= self.pre and best[-1][0] >= self.reach * length_factor(
                high, self.found.mean
            ):
                return True
            i, low = j, high
        return True


def _span(low: int | None, high: int | None, where: Where, limit: int | None) -> sql.SQL:
    """The rest of one term's scan: the length range, `where`, at most `limit` rows."""
    text = ""
    if low is not None:
        text += " AND lex_len >= %s"
    if high is not None:
        text += " AND lex_len < %s"
    text += " AND (" + where.text + ")" + (" LIMIT %s" if limit is not None else "")
    return sql.SQL(text)


def _span_params(low: int | None, high: int | None, where: Where, limit: int | None) -> list[Any]:
    bounds = [v for v in (low, high) if v is not None]
    return [*bounds, *where.params, *([limit] if limit is not None else [])]


_ONE = "SELECT repo_id, id, file_hash, branches, lex_len, %s::float8 AS w FROM rag_chunks WHERE "


def _any_scan(
    terms: list[str],
    idf: dict[str, float],
    where: Where,
    low: int | None,
    high: int | None,
    limit: int | None,
) -> tuple[sql.Composed, tuple[Any, ...]]:
    """Each row under `where` (of length in [low, high)) holding any of `terms`, with the
    sum of their idf: one GIN scan per term (at most `limit` rows each), each term a
    parameter of its own, so that the planner sees its frequency (and ANDs the GIN bitmap
    with the length B-tree's)."""
    one = sql.SQL("(" + _ONE + "lex_tsv @@ %s::tsquery{rest})").format(
        rest=_span(low, high, where, limit)
    )
    text = sql.SQL(
        "SELECT repo_id, id, file_hash, branches, max(lex_len), sum(w) FROM ({union}) t "
        "GROUP BY repo_id, id, file_hash, branches"
    ).format(union=sql.SQL(" UNION ALL ").join([one] * len(terms)))
    params: list[Any] = []
    for w in terms:
        params += [idf[w], tsquery_word(w), *_span_params(low, high, where, limit)]
    return text, tuple(params)


def _all_scan(
    terms: list[str],
    reach: float,
    where: Where,
    low: int | None,
    high: int | None,
    limit: int | None,
) -> tuple[sql.Composed, tuple[Any, ...]]:
    """Each row under `where` (of length in [low, high)) holding every one of `terms` (at
    most `limit`): GIN intersects their posting lists before a row is fetched."""
    text = sql.SQL(_ONE + "lex_tsv @@ %s::tsquery{rest}").format(
        rest=_span(low, high, where, limit)
    )
    query = " & ".join(tsquery_word(w) for w in terms)
    return text, (reach, query, *_span_params(low, high, where, limit))


def tsquery_word(lexeme: str) -> str:
    """One lexeme as a `tsquery` literal (quoted: the server's parser never splits it)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"
