"""The symbols a type defines directly: a class's methods and fields, a struct's methods
(Go's, in any file of its package), a module's functions; from the symbol catalogue."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from strata.query.lookup.rows import derived
from strata.query.lookup.symbols import SymbolMatch, symbol_index
from strata.store import Store

if TYPE_CHECKING:
    from strata.query.lookup.symbols import _Entry

__all__ = ["members"]


def members(store: Store, parent: SymbolMatch) -> list[SymbolMatch]:
    """The symbols whose qname's parent is `parent`'s, those of its own file first, each in
    the order its file defines it."""
    by_parent = derived(store, "members", _by_parent)
    found = [SymbolMatch(e.record, "member", 1.0, e.qname) for e in by_parent.get(parent.qname, ())]
    here = parent.record.path
    return sorted(
        found, key=lambda m: (m.record.path != here, m.record.path, m.record.span_start or 0)
    )


def _by_parent(store: Store) -> dict[str, list[_Entry]]:
    out: dict[str, list[_Entry]] = defaultdict(list)
    for e in symbol_index(store).entries:
        parent, dot, _ = e.qname.rpartition(".")
        if dot:
            out[parent].append(e)
    return dict(out)
