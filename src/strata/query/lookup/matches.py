"""Filters over symbol matches (pure): the name as spelt, declarations over implementations."""

from __future__ import annotations

from collections.abc import Sequence

from strata.query.lookup.symbols import SymbolMatch

__all__ = ["as_spelt", "without_implementations"]


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
