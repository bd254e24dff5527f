"""D1/D5 lookups: list document cards, and walk the relation graph around a document."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from strata.layers import D1_DOCUMENT_CATALOG, D5_RELATION_GRAPH
from strata.query.lookup.rows import derived, link_json, meta_str
from strata.store import Filter, Store
from strata.text.names import normalise_name
from strata.types import JSON, Record

__all__ = ["DocCatalog", "Related", "changelog_paths", "list_docs", "related"]

OUT, IN = "out", "in"


@dataclass(frozen=True, slots=True)
class Related:
    """A document (or named thing) one or more D5 edges away from the start.

    `direction` is `out` (the nearer node points at it) or `in` (it points at the
    nearer node); `via` is the id of the nearer node; `card` its D1 card when indexed.
    """

    document_id: str
    relation_type: str
    direction: str
    depth: int
    via: str
    edge: Record
    card: Record | None = None

    def to_json(self) -> JSON:
        """The D5 edge's record JSON plus the walk's fields and the card."""
        return link_json(self)


class DocCatalog:
    """D1 cards addressable by document id or path (the first path wins a duplicate id)."""

    def __init__(self, cards: Iterable[Record]) -> None:
        self.cards = sorted((c for c in cards if c.layer == D1_DOCUMENT_CATALOG), key=_by_path)
        self._by_id: dict[str, Record] = {}
        self._by_path: dict[str, Record] = {}
        for card in self.cards:
            self._by_path.setdefault(card.path, card)
            if meta_str(card, "document_id"):
                self._by_id.setdefault(normalise_name(meta_str(card, "document_id")), card)

    def find(self, ref: str) -> Record | None:
        """The card a reference names: a document id, else a path from the indexed root."""
        ref = ref.strip()
        card = self._by_id.get(normalise_name(ref))
        if card is not None or not ref:
            return card
        return self._by_path.get(posixpath.normpath(ref.lstrip("/")))

    def at(self, path: str) -> Record | None:
        """The card of the document at `path`."""
        return self._by_path.get(path)


def list_docs(
    store: Store, kind: str | None = None, domain: str | None = None, type: str | None = None
) -> list[Record]:
    """D1 cards, by path, filtered by `doc_kind`, frontmatter `domain` and `type`/`doc_type`.

    Filters compare case-insensitively; a list-valued field matches when any item does.
    """
    cards = DocCatalog(store.fetch(Filter(layers=(D1_DOCUMENT_CATALOG,)), vectors=False)).cards
    wanted = {"doc_kind": kind, "domain": domain, "type": type}
    return [c for c in cards if all(_has(c, k, v) for k, v in wanted.items() if v)]


def changelog_paths(store: Store) -> frozenset[str]:
    """The documents the docs classifier read as release notes by their content (a
    `docs/versions.rst` whose headings are releases), memoised per store version."""

    def build(st: Store) -> frozenset[str]:
        cards = st.fetch(Filter(layers=(D1_DOCUMENT_CATALOG,)), vectors=False)
        return frozenset(c.path for c in cards if c.metadata.get("doc_kind") == "changelog")

    return derived(store, "changelog_paths", build)


def known_domains(store: Store) -> tuple[str, ...]:
    """Every `domain` the document cards name (memoised per store version)."""

    def build(st: Store) -> tuple[str, ...]:
        found: set[str] = set()
        for card in st.fetch(Filter(layers=(D1_DOCUMENT_CATALOG,)), vectors=False):
            value = card.metadata.get("domain")
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and item.strip():
                    found.add(item.strip().lower())
        return tuple(sorted(found))

    return derived(store, "known_domains", build)


def related(store: Store, document_id: str, depth: int = 1) -> list[Related]:
    """Documents linked to `document_id` (an id or a path) by D5 edges, both directions.

    Breadth-first to `depth`, each document once; each result keeps the edge's
    `relation_type` and direction, and the related document's D1 card when indexed.
    """
    catalog = DocCatalog(store.fetch(Filter(layers=(D1_DOCUMENT_CATALOG,)), vectors=False))
    ends = [
        (e, _ends(catalog, e))
        for e in store.fetch(Filter(layers=(D5_RELATION_GRAPH,)), vectors=False)
    ]
    first = _end(catalog.find(document_id), document_id)
    seen, frontier, out = {first.key}, {first.key: first.name}, []
    for level in range(1, max(depth, 0) + 1):
        # every edge from the frontier to a new node is kept; each node is expanded once
        found = [
            (far.key, _related(edge, far, direction, level, frontier[near.key]))
            for edge, (src, dst) in ends
            for near, far, direction in ((src, dst, OUT), (dst, src, IN))
            if near.key in frontier and far.key not in seen
        ]
        out += [r for _, r in found]
        frontier = {key: r.document_id for key, r in found}
        seen.update(frontier)
    return sorted(out, key=lambda r: (r.depth, r.document_id, r.relation_type, r.direction))


@dataclass(frozen=True, slots=True)
class _End:
    """One end of a D5 edge: its walk identity, the id to show, and its card when indexed."""

    key: str
    name: str
    card: Record | None


def _end(card: Record | None, raw: str) -> _End:
    """A document's end (one node per id, else per path), or a name no document has."""
    if card is None:
        return _End("name:" + normalise_name(raw), raw, None)
    doc_id = meta_str(card, "document_id")
    key = "id:" + normalise_name(doc_id) if doc_id else "path:" + card.path
    return _End(key, doc_id or card.path, card)


def _ends(catalog: DocCatalog, edge: Record) -> tuple[_End, _End]:
    """The edge's (source, target): the file it came from, and what the corpus pass resolved.

    The corpus pass sets `target_id` to a document's id when `resolved`, and leaves the
    target as written otherwise (a missing document or a plain name).
    """
    source = catalog.at(meta_str(edge, "source_path") or edge.path)
    target_id = meta_str(edge, "target_id")
    target = catalog.find(target_id) if edge.metadata.get("resolved") is True else None
    return _end(source, meta_str(edge, "source_id")), _end(target, target_id)


def _related(edge: Record, far: _End, direction: str, depth: int, via: str) -> Related:
    return Related(far.name, meta_str(edge, "relation_type"), direction, depth, via, edge, far.card)


def _has(card: Record, key: str, wanted: str) -> bool:
    value: Any = card.metadata.get(key)
    if value is None and key == "type":
        value = card.metadata.get("doc_type")
    values = value if isinstance(value, list | tuple) else [value]
    return any(v is not None and str(v).casefold() == wanted.casefold() for v in values)


def _by_path(card: Record) -> str:
    return card.path
