"""The definitions whose signature gives a parameter a default (`def get(url, timeout=5.0)`),
by the parameter's name: what "what does timeout default to" reads however many passages
write `timeout`. Built from the symbol catalogue's signatures the first time it is asked,
once per store version."""

from __future__ import annotations

from typing import TYPE_CHECKING

from strata.query.defaults import Stated, signature_defaults
from strata.query.lookup.names import fold
from strata.query.lookup.rows import derived
from strata.query.lookup.symbols import SymbolMatch, symbol_index
from strata.store import Store

if TYPE_CHECKING:
    from strata.query.lookup.symbols import _Entry

__all__ = ["given_defaults"]


def given_defaults(store: Store, name: str) -> list[tuple[SymbolMatch, Stated]]:
    """The definitions whose signature gives the parameter `name` (any case or joining:
    `max redirects` is `max_redirects`) a default, each with how: a literal first, then
    the code's before the tests', then the catalogue's order."""
    found = derived(store, "given", _build).get(fold(name.replace(" ", "")), [])
    return [(SymbolMatch(e.record, "default", 1.0, e.qname), how) for how, _, _, e in found]


def _build(store: Store) -> dict[str, list[tuple[Stated, bool, int, _Entry]]]:
    """Entries (records are made only for those asked) by folded parameter name."""
    out: dict[str, list[tuple[Stated, bool, int, _Entry]]] = {}
    for n, (e, signature) in enumerate(symbol_index(store).signed):
        for param, how in signature_defaults(signature):
            out.setdefault(fold(param), []).append((how, e.is_test, n, e))
    return {k: sorted(v, key=lambda t: t[:3]) for k, v in out.items()}
