"""The plan step that lists what a type defines: the type at its header, then each of its
members (methods, fields, nested types) at theirs, in the order its file defines them."""

from __future__ import annotations

from strata.query import lookup
from strata.query.definitions import at_header, defined_at, header_chunks
from strata.query.filters import SearchFilters
from strata.query.hybrid import QueryContext
from strata.query.kinds import TYPE_KINDS
from strata.query.line_steps import then_plain
from strata.query.lookup.members import members
from strata.query.router import Step
from strata.types import Hit

__all__ = ["MAX_TYPES", "members_of"]

MAX_TYPES = 2  # types of the asked name listed (`Template` is two classes in jinja2)


def members_of(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The types named as asked, each followed by its members, then the plain search."""
    name = str(step.args["name"])
    found = lookup.find_symbols(ctx.store, name, limit=10, exact=True)
    kids = {t.symbol_id: members(ctx.store, t) for t in found if t.kind in TYPE_KINDS}
    # of two types of one name, the one that defines more first (jinja2's `Template`)
    types = sorted((t for t in found if t.symbol_id in kids), key=lambda t: -len(kids[t.symbol_id]))
    listed = [m for t in types[:MAX_TYPES] for m in (t, *kids[t.symbol_id])]
    headers = header_chunks(ctx.store, listed)
    hits: dict[str, Hit] = {}  # members in one chunk (a class's fields) show it once
    for m in listed:
        rec = at_header(m, headers.get(m.symbol_id))
        if rec.id not in hits:
            n = len(hits) + 1
            hits[rec.id] = Hit(rec, 1.0 / n, {"members": 1.0 / n}, (defined_at(m),))
    notes = [] if types else [f"no type named {name!r}: plain search instead"]
    return then_plain(ctx, step, filters, mode, list(hits.values())), notes
