"""The definitions a query names, as one more ranked list for fusion (read side).

A code name in a query (`Context`, `Context.invoke`, `parse_header`) asks first of all
for where it is defined. BM25 and vectors may leave that chunk out of their candidates:
a class header mentions its name once among chunks that repeat it, so "Context" in click
finds a test named `test_command_context_class` and never the class. The symbol
catalogue (C1) knows every definition by name; this module turns the names of a query
into the C0 chunks that hold their definitions' first lines (the header: signature and
docstring, not the whole class), best match first, under the search's own filters.

Only exact names count (the name as written, or a dotted suffix of the qualified name:
`Context.invoke` is `click.core.Context.invoke`); a loosely written or misspelt name is
the router's and `strata symbols`' business, not the ranking's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from strata.layers import C0_SOURCE_CHUNKS
from strata.query.lookup.matches import without_implementations
from strata.query.lookup.rows import chunks_at, meta_str
from strata.query.lookup.symbols import SymbolMatch, find_symbols
from strata.store import Filter, Store
from strata.types import Record

__all__ = ["EXACT", "MAX_NAMES", "PER_NAME", "definition_chunks", "header_chunks"]

MAX_NAMES = 3  # a query naming more code names than this is a paste, not a lookup
EXACT = 0.95  # find_symbols' score of the name as written, or a dotted suffix of the qname
PER_NAME = 10  # overloads, and the same name in a few modules


def definition_chunks(
    store: Store, names: Sequence[str], where: Filter, limit: int
) -> list[tuple[Record, float]]:
    """The C0 header chunks of the definitions of `names`, best first, at most `limit`.

    The score is the symbol match's (1.0 the name as written, 0.95 a dotted suffix). A
    name the catalogue does not define adds nothing; non-test definitions come first.
    """
    if where.layers is not None and C0_SOURCE_CHUNKS not in where.layers:
        return []
    matches: list[SymbolMatch] = []
    for name in list(dict.fromkeys(names))[:MAX_NAMES]:
        found = find_symbols(store, name, limit=PER_NAME, exact=True)
        matches += without_implementations([m for m in found if m.score >= EXACT])
    matches.sort(
        key=lambda m: (-m.score, m.record.is_test, bool(m.record.metadata.get("declaration")))
    )
    headers = header_chunks(store, matches, where)
    out: dict[str, tuple[Record, float]] = {}
    for m in matches:
        chunk = headers.get(meta_str(m.record, "symbol_id"))
        if chunk is not None and chunk.id not in out:
            out[chunk.id] = (chunk, m.score)
    return list(out.values())[:limit]


def header_chunks(
    store: Store, matches: Sequence[SymbolMatch], where: Filter | None = None
) -> dict[str, Record]:
    """Symbol id -> the C0 chunk that starts its definition (or the narrowest holding its
    first line), for the matches whose file the filter `where` admits. When that chunk
    ends before the declaration line (`decl_line`: a doc comment too long for one chunk
    with it), the chunk holding the declaration."""
    spots = [(m.record.path, m.record.span_start) for m in matches]
    spots += [(m.record.path, line) for m in matches if (line := _decl_line(m))]
    chunks = chunks_at(store, spots, where)
    out: dict[str, Record] = {}
    for m in matches:
        chunk = chunks.get((m.record.path, m.record.span_start))
        line = _decl_line(m)
        if line and (chunk is None or (chunk.span_end or 0) < line):
            chunk = chunks.get((m.record.path, line), chunk)
        if chunk is not None:
            out[meta_str(m.record, "symbol_id")] = chunk
    return out


def _decl_line(m: SymbolMatch) -> int:
    line = m.record.metadata.get("decl_line")
    return line if isinstance(line, int) else 0


def at_header(m: SymbolMatch, chunk: Record | None) -> Record:
    """A definition shown at its header: the C0 chunk its first line starts (signature and
    docstring, not a catalogue row spanning the whole class), carrying the symbol's qname,
    kind and whole span in its metadata; the catalogue row when no chunk holds it. A
    definition inside a chunk (a Go `var` among the imports) is its focus: the surfaces
    show its lines first (query/focus.py)."""
    if chunk is None:
        return m.record
    start, end = m.record.span_start, m.record.span_end
    meta = {
        **chunk.metadata,
        "qname": m.qname,
        "symbol_kind": m.kind,
        "definition_start": start,
        "definition_end": end,
    }
    first, last = chunk.span_start, chunk.span_end
    if start and end and first and last and first < start <= last:
        meta |= {"focus_start": start, "focus_end": min(end, last)}
    return dataclasses.replace(chunk, metadata=meta)


def defined_at(m: SymbolMatch) -> str:
    """Why a definition is a hit: how it matched, its qname, kind and span."""
    span = f"{m.record.path}:{m.record.span_start}-{m.record.span_end}"
    return f"{m.match} name {m.qname} ({m.kind} at {span})"
