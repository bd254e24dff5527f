"""D1/D5 lookups: list document cards, and walk the relation graph around a document."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from strata.docs.inline import normalise_name
from strata.layers import D1_DOCUMENT_CATALOG, D5_RELATION_GRAPH
from strata.lookup.rows import meta_str, record_json
from strata.store import Filter, Store
from strata.types import JSON, Record

__all__ = ["DocCatalog", "Related", "list_docs", "related"]

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
        extra = {
            "document_id": self.document_id,
            "relation_type": self.relation_type,
            "direction": self.direction,
            "depth": self.depth,
            "via": self.via,
            "card": record_json(self.card) if self.card else None,
        }
        return record_json(self.edge, extra)


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

    def find(self, ref: str, from_path: str = "") -> Record | None:
        """The card a reference names: an id, a root path, or a link relative to `from_path`."""
        ref = ref.strip()
        card = self._by_id.get(normalise_name(ref))
        if card is not None or not ref:
            return card
        path = ref.split("#", 1)[0].lstrip("/")
        candidates = [posixpath.normpath(path)]
        if from_path:
            candidates.insert(
                0, posixpath.normpath(posixpath.join(posixpath.dirname(from_path), path))
            )
        return next((self._by_path[p] for p in candidates if p in self._by_path), None)

    def at(self, path: str) -> Record | None:
        """The card of the document at `path`."""
        return self._by_path.get(path)

    def key(self, ref: str, from_path: str = "") -> str:
        """The walk's identity of a reference: its card's key, else the normalised name."""
        card = self.find(ref, from_path)
        return card_key(card) if card is not None else "name:" + normalise_name(ref)


def card_key(card: Record) -> str:
    """A document's identity in a walk: its id (two files sharing an id are one node), else path."""
    doc_id = meta_str(card, "document_id")
    return "id:" + normalise_name(doc_id) if doc_id else "path:" + card.path


def document_id(card: Record) -> str:
    """A card's document id: frontmatter `id`, else its path."""
    return meta_str(card, "document_id") or card.path


def list_docs(
    store: Store, kind: str | None = None, domain: str | None = None, type: str | None = None
) -> list[Record]:
    """D1 cards, by path, filtered by `doc_kind`, frontmatter `domain` and `type`/`doc_type`.

    Filters compare case-insensitively; a list-valued field matches when any item does.
    """
    cards = DocCatalog(store.fetch(Filter(layers=(D1_DOCUMENT_CATALOG,)))).cards
    wanted = {"doc_kind": kind, "domain": domain, "type": type}
    return [c for c in cards if all(_has(c, k, v) for k, v in wanted.items() if v)]


def related(store: Store, document_id: str, depth: int = 1) -> list[Related]:
    """Documents linked to `document_id` (an id or a path) by D5 edges, both directions.

    Breadth-first to `depth`, each document once; each result keeps the edge's
    `relation_type` and direction, and the related document's D1 card when indexed.
    """
    catalog = DocCatalog(store.fetch(Filter(layers=(D1_DOCUMENT_CATALOG,))))
    ends = [(e, _ends(catalog, e)) for e in store.fetch(Filter(layers=(D5_RELATION_GRAPH,)))]
    start = catalog.key(document_id)
    seen, frontier, out = {start}, {start: _name(catalog, document_id)}, []
    for level in range(1, max(depth, 0) + 1):
        # every edge from the frontier to a new node is kept; each node is expanded once
        found = [
            (key, _hop(catalog, edge, direction, level, frontier[node]))
            for edge, (src, dst) in ends
            for node, key, direction in ((src, dst, OUT), (dst, src, IN))
            if node in frontier and key not in seen
        ]
        out += [r for _, r in found]
        frontier = {key: r.document_id for key, r in found}
        seen.update(frontier)
    return sorted(out, key=lambda r: (r.depth, r.document_id, r.relation_type, r.direction))


def _hop(catalog: DocCatalog, edge: Record, direction: str, depth: int, via: str) -> Related:
    """The far end of an edge seen from the walk: its id, card, and how it relates."""
    here = meta_str(edge, "source_path") or edge.path
    if direction == OUT:
        raw = meta_str(edge, "target_id")
        card = catalog.find(raw, here)
    else:
        raw = meta_str(edge, "source_id")
        card = catalog.at(here)
    rtype = meta_str(edge, "relation_type")
    return Related(document_id_of(card, raw), rtype, direction, depth, via, edge, card)


def document_id_of(card: Record | None, raw: str) -> str:
    """The id to show for an edge end: its card's document id, else the name as written."""
    return document_id(card) if card is not None else raw


def _ends(catalog: DocCatalog, edge: Record) -> tuple[str, str]:
    """The edge's (source, target) walk keys; the source is the file the edge came from."""
    origin = catalog.at(meta_str(edge, "source_path") or edge.path)
    src = card_key(origin) if origin is not None else catalog.key(meta_str(edge, "source_id"))
    return src, catalog.key(meta_str(edge, "target_id"), meta_str(edge, "source_path"))


def _name(catalog: DocCatalog, ref: str) -> str:
    return document_id_of(catalog.find(ref), ref)


def _has(card: Record, key: str, wanted: str) -> bool:
    value: Any = card.metadata.get(key)
    if value is None and key == "type":
        value = card.metadata.get("doc_type")
    values = value if isinstance(value, list | tuple) else [value]
    return any(v is not None and str(v).casefold() == wanted.casefold() for v in values)


def _by_path(card: Record) -> str:
    return card.path
