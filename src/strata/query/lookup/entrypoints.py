"""C3 listing: the program's entry points (HTTP routes, CLI commands, others), filtered."""

from __future__ import annotations

from strata.layers import C3_ENTRYPOINTS
from strata.query.lookup.rows import meta_str
from strata.store import Filter, Store
from strata.types import Record

__all__ = ["ENTRY_TYPES", "list_entrypoints"]

ENTRY_TYPES = ("http", "cli", "other")


def list_entrypoints(
    store: Store, type: str | None = None, framework: str | None = None
) -> list[Record]:
    """C3 records, sorted by route or command (then method, path, line).

    Args:
        store: the index's store.
        type: only `http`, `cli` or `other` entry points.
        framework: only this framework (`fastapi`, `flask`, `click`, ...; any case).
    """
    rows = store.fetch(Filter(layers=(C3_ENTRYPOINTS,)), vectors=False)
    if type:
        rows = [r for r in rows if (meta_str(r, "entry_type") or r.kind) == type]
    if framework:
        rows = [r for r in rows if meta_str(r, "framework").casefold() == framework.casefold()]
    return sorted(rows, key=_order)


def _order(r: Record) -> tuple[str, str, str, int]:
    route = meta_str(r, "route_or_command") or r.title
    return (route, meta_str(r, "http_method"), r.path, r.span_start or 0)
