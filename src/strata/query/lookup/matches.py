"""Filters over symbol matches: the name as spelt, declarations over implementations, and
what a stub's name stands for at run time."""

from __future__ import annotations

from collections.abc import Sequence

from strata.query.lookup.graph import call_graph
from strata.query.lookup.qualifiers import dotted
from strata.query.lookup.symbols import SymbolMatch, find_symbols
from strata.store import Store
from strata.text.langs import is_stub

__all__ = ["as_spelt", "behind_stubs", "without_implementations"]


def behind_stubs(store: Store, name: str, found: Sequence[SymbolMatch]) -> list[SymbolMatch]:
    """The definitions a name that no module defines, or only stubs do, stands for at run
    time when the package's modules say so (`attrs.field` in `attrs/__init__.pyi` is
    `attr._next_gen.field`, which `attrs` re-exports; `attrs.evolve` is `attr._funcs.evolve`);
    else `found`. The stubs follow the body they declare in the other steps' hits, as a
    stub's signature does."""
    written = dotted(name)
    if "." not in written or (found and not all(is_stub(m.record.path) for m in found)):
        return list(found)  # a bare name is no module's re-export
    meant = call_graph(store).canonical(written)
    if meant == written:
        return list(found)
    behind = find_symbols(store, meant, exact=True)
    return [m for m in behind if not is_stub(m.record.path)] or behind or list(found)


def as_spelt(matches: Sequence[SymbolMatch]) -> list[SymbolMatch]:
    """`matches` without the bare names spelt otherwise (`deserialize` functions for
    `Deserialize`) when a name is spelt exactly as asked; all of them when none is (a name
    written loosely: `retrypolicy` for `RetryPolicy`)."""
    if not any(m.match == "exact" and m.score == 1.0 for m in matches):
        return list(matches)
    return [m for m in matches if m.match != "exact" or m.score == 1.0]


def without_implementations(matches: Sequence[SymbolMatch]) -> list[SymbolMatch]:
    """`matches` without the implementations (members of an impl block: a Haskell
    instance's equations) of a member that a class or trait among them declares, in any
    module: "where is lookAhead defined" asks for `MonadParsec.lookAhead` in the class, not
    each instance's. A member that only impl blocks define (a Rust type's methods) keeps
    them all."""
    declared = {_owned(m) for m in matches if not m.record.metadata.get("implementation")}
    return [
        m
        for m in matches
        if not (m.record.metadata.get("implementation") and _owned(m) in declared)
    ]


def _owned(m: SymbolMatch) -> str:
    """A member's owner and name (`MonadParsec.lookAhead`), without the module."""
    return ".".join(m.qname.rsplit(".", 2)[-2:])
