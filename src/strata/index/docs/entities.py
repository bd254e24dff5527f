"""D3: entities named by frontmatter, merged across documents by normalised name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from strata.index.docs.document import Document, as_list
from strata.index.docs.labels import ENTITY_KEYS, RELATION_KEYS
from strata.text.names import normalise_name

TAG = "tag"


@dataclass(frozen=True, slots=True)
class Mention:
    """A name a document's frontmatter gives: `role` is the key (`id`, `module`, `tag`, ...)."""

    name: str
    role: str

    @property
    def key(self) -> str:
        """The merge key of the name."""
        return normalise_name(self.name)


@dataclass(frozen=True, slots=True)
class Entity:
    """One merged entity: its owner document (the one it is the id of, else the first)."""

    key: str
    name: str
    owner: Document
    mentions: tuple[tuple[str, str], ...]  # (document_id, role)

    def render(self) -> str:
        """Readable text of the entity (the record's content)."""
        roles = sorted({role for _, role in self.mentions})
        docs = ", ".join(dict.fromkeys(f"{d} ({r})" for d, r in self.mentions))
        return f"{self.name}\nroles: {', '.join(roles)}\nnamed by: {docs}"


def mentions_of(doc: Document) -> list[Mention]:
    """Names in a document's frontmatter: id, module, domain, subdomain, relation targets, tags."""
    out: list[Mention] = []
    for key in (*ENTITY_KEYS, *RELATION_KEYS):
        out.extend(Mention(value, key) for value in as_list(doc.frontmatter.get(key)))
    out.extend(Mention(tag, TAG) for tag in doc.tags)
    return [m for m in out if m.key]


def merge_entities(docs: Sequence[tuple[Document, Sequence[Mention]]]) -> list[Entity]:
    """Entities of a corpus: one per normalised name; tags count only when they name a thing.

    The owner is the document whose `id` is the name, else the first document (by path)
    that names it.
    """
    groups: dict[str, list[tuple[Document, Mention]]] = {}
    for doc, mentions in sorted(docs, key=lambda pair: pair[0].rel):
        for m in mentions:
            groups.setdefault(m.key, []).append((doc, m))
    entities: list[Entity] = []
    for key, group in groups.items():
        if all(m.role == TAG for _, m in group):
            continue
        owner_doc, owner_m = next(((d, m) for d, m in group if m.role == "id"), group[0])
        pairs = tuple(dict.fromkeys((d.document_id, m.role) for d, m in group))
        entities.append(Entity(key, owner_m.name, owner_doc, pairs))
    return entities


def entity_metadata(entity: Entity) -> dict[str, Any]:
    """The D3 metadata of one entity (keys of shared/spec/layers.md)."""
    doc = entity.owner
    return {
        "entity_name": entity.name,
        "document_id": doc.document_id,
        "document_type": doc.doc_type,
        "module": doc.field("module"),
        "domain": doc.field("domain"),
        "subdomain": doc.field("subdomain"),
        "tags": doc.tags,
        "source_path": doc.rel,
    }
