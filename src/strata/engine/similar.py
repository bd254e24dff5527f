"""Passages like a given one: the chunk at `path:line`, searched for by its own text.

What an agent asks when it has found one place and wants the others like it (semble's
`find_related`): the passage covering the line is read, its text becomes the query (by
meaning when the index has vectors, else by words), and the passage itself is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from strata.errors import UserError
from strata.layers import PASSAGE_LAYERS
from strata.query.hybrid import SearchResult
from strata.store import Filter
from strata.types import Record

if TYPE_CHECKING:
    from strata.engine import Engine

QUERY_CHARS = 2000  # the head of the passage is what it is about; the rest only costs time


def passage_at(eng: Engine, path: str, line: int, repo: str | None = None) -> Record:
    """The narrowest passage of `path` whose lines cover `line` (UserError when none)."""
    store = eng.repo_store(repo) if repo else eng.store
    rows = store.fetch(Filter(layers=PASSAGE_LAYERS, paths=(path,)), vectors=False)
    covering = [
        r
        for r in rows
        if r.span_start is not None
        and r.span_end is not None
        and r.span_start <= line <= r.span_end
    ]
    if not covering:
        known = "the file is not indexed" if not rows else f"it has {rows[-1].span_end} lines"
        raise UserError(f"no indexed passage covers {path}:{line} ({known})")
    return min(covering, key=lambda r: (r.span_end or 0) - (r.span_start or 0))


def similar(eng: Engine, path: str, line: int, k: int = 5, repo: str | None = None) -> SearchResult:
    """Up to `k` passages most like the one at `path:line`, best first, without it."""
    start = passage_at(eng, path, line, repo)
    mode = "semantic" if eng.store.dim > 0 else "lexical"
    found = eng.search(
        start.content[:QUERY_CHARS],
        k + 1,
        layers=PASSAGE_LAYERS,
        filters={"repo": repo},
        mode=mode,
    )
    hits = tuple(h for h in found.hits if h.record.id != start.id)[:k]
    return SearchResult(hits=hits, mode=found.mode, notes=found.notes)
