"""A C or C++ function declared in one file and defined in another (pure over a `Store`).

`bool empty() const;` in class `Value` of `value.h` and `bool Value::empty() const {...}`
in `json_value.cpp` are one function, and either place answers a question about it. A
description of it matches the declaration where its doc comment is, and the definition's
body where there is none to match; the other place then ranks far below, or not at all (a
one-line declaration among a class's members says little). So, in a project that documents
its functions where it declares them (more of its declarations have a doc than of its
bodies: jsoncpp's headers; not Lua's bare prototypes, whose bodies carry the docs, nor
libyaml, which documents both), a definition among the first `TOP` candidates lifts the
chunk holding its declaration elsewhere to `SHARE` of its own fused score, unless that
chunk already has more: the documented interface comes next to the body.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from strata.layers import C1_SYMBOL_CATALOG
from strata.query.definitions import EXACT, PER_NAME, header_chunks
from strata.query.lookup.rows import derived
from strata.query.lookup.symbols import find_symbols
from strata.store import Filter, Store
from strata.store.capabilities import fetch_table
from strata.types import Record

__all__ = ["LANGS", "SHARE", "TOP", "declaration_parts"]

LANGS = frozenset({"c", "cpp"})
TOP = 5  # the first candidates whose declarations are looked up
SHARE = 0.9  # of a definition's fused score, for the chunk holding its declaration
_FUNCTIONS = frozenset({"function", "method"})
_CONVENTION_COLUMNS = ("lang", "kind", "content", "metadata")


def declaration_parts(
    store: Store,
    records: Mapping[str, Record],
    fused: Mapping[str, Mapping[str, float]],
    where: Filter | None = None,
) -> dict[str, tuple[Record, float]]:
    """Chunk id -> (the chunk, its `declared` part) for the declarations, in other files, of
    the C and C++ definitions among the first `TOP` candidates by fused score."""
    first = sorted(fused, key=lambda rid: -sum(fused[rid].values()))[:TOP]
    out: dict[str, tuple[Record, float]] = {}
    for rid in first:
        rec = records[rid]
        kind = rec.metadata.get("symbol_kind")
        if rec.lang not in LANGS or kind not in _FUNCTIONS or not rec.title:
            continue
        if not _documented_where_declared(store):
            return out
        found = [
            m
            for m in find_symbols(store, rec.title, limit=PER_NAME, exact=True)
            if m.score >= EXACT and m.record.metadata.get("declaration")
            if m.record.path != rec.path
        ]
        share = SHARE * sum(fused[rid].values())
        for chunk in header_chunks(store, found, where).values() if found else ():
            part = share - sum(fused.get(chunk.id, {}).values())
            if chunk.id != rid and part > out.get(chunk.id, (chunk, 0.0))[1]:
                out[chunk.id] = (chunk, part)
    return out


def _documented_where_declared(store: Store) -> bool:
    """Whether more of the index's C and C++ function declarations have a doc than of their
    bodies (memoised per store version)."""
    return derived(store, "documented where declared", _read_convention)


def _read_convention(store: Store) -> bool:
    where = Filter(layers=(C1_SYMBOL_CATALOG,), langs=tuple(LANGS), kinds=tuple(_FUNCTIONS))
    table = fetch_table(store, where, _CONVENTION_COLUMNS)
    count = {True: [0, 0], False: [0, 0]}  # declaration -> [functions, with a doc]
    rows = zip(*(table.column(c).to_pylist() for c in _CONVENTION_COLUMNS), strict=True)
    for lang, kind, content, meta_json in rows:
        if lang not in LANGS or kind not in _FUNCTIONS:
            continue
        meta = json.loads(meta_json or "{}")
        if str(meta.get("signature", "")).startswith("#"):  # a macro: a definition of its own
            continue
        tally = count[bool(meta.get("declaration"))]
        tally[0] += 1
        tally[1] += "\n" in (content or "").strip()  # a summary under the signature
    (decls, decl_docs), (bodies, body_docs) = count[True], count[False]
    return decls > 0 and decl_docs * max(bodies, 1) > body_docs * decls
