"""Name resolution across a docs corpus: document ids, document paths and entity names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from strata.index.docs.document import Document
from strata.index.docs.entities import TAG, Mention
from strata.index.docs.relations import Relation
from strata.text.names import normalise_name


@dataclass(frozen=True, slots=True)
class Resolver:
    """Names known in a corpus: document ids and paths, entity names (all normalised)."""

    ids: Mapping[str, str]
    paths: Mapping[str, str]
    entities: Mapping[str, str]

    @classmethod
    def of(cls, docs: Sequence[tuple[Document, Sequence[Mention]]]) -> Resolver:
        """A resolver over these documents (the first document wins a duplicate id)."""
        ids: dict[str, str] = {}
        entities: dict[str, str] = {}
        for doc, mentions in sorted(docs, key=lambda pair: pair[0].rel):
            ids.setdefault(normalise_name(doc.document_id), doc.document_id)
            for m in mentions:
                if m.role != TAG:
                    entities.setdefault(m.key, m.name)
        return cls(ids, {d.rel: d.document_id for d, _ in docs}, entities)

    def object_ref(self, obj: str) -> str | None:
        """The document id or entity name an object names, if any."""
        key = normalise_name(obj)
        return self.ids.get(key) or self.entities.get(key)

    def target(self, rel: Relation) -> tuple[str, bool]:
        """(target_id, resolved): a document's id when the edge points at one."""
        if rel.link_path is not None:
            found = self.paths.get(rel.link_path)
        else:
            found = self.ids.get(normalise_name(rel.target))
        return (found, True) if found is not None else (rel.target, False)
