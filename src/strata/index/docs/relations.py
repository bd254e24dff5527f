"""D5: relation edges from frontmatter relation keys and from links between documents."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any

from strata.index.docs.document import Document, as_list
from strata.index.docs.inline import anchor, links_in, short_hash
from strata.index.docs.labels import RELATION_KEYS

LINKS_TO = "links_to"
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:")
_DOC_SUFFIXES = (".md", ".markdown", ".mdx", ".rst", ".rest", ".txt")


@dataclass(frozen=True, slots=True)
class Relation:
    """One edge as written; `link_path` is the root-relative path a link points at."""

    source_id: str
    relation_type: str
    target: str
    anchor: str
    link_path: str | None = None

    def relation_id(self) -> str:
        """Stable id from source, target as written, type and anchor."""
        return short_hash(self.source_id, self.relation_type, self.target, self.anchor)


def extract_relations(doc: Document) -> list[Relation]:
    """Frontmatter relation edges, then links to other documents, in document order."""
    out: list[Relation] = []
    for key in RELATION_KEYS:
        for target in as_list(doc.frontmatter.get(key)):
            out.append(Relation(doc.document_id, key, target, f"frontmatter:{key}"))
    seen: set[tuple[str, str]] = set()
    for sec in doc.sections:
        for block in sec.body:
            if block.kind == "fence":
                continue
            lines = doc.lines[block.start - 1 : block.end]
            for link in links_in(lines, block.start):
                path = link_path(doc.rel, link.target)
                where = anchor(sec.path, link.line)
                if path is not None and (link.target, where) not in seen:
                    seen.add((link.target, where))
                    out.append(Relation(doc.document_id, LINKS_TO, link.target, where, path))
    return out


def link_path(rel: str, target: str) -> str | None:
    """The root-relative path of a relative link to a document, None for other links."""
    if not target or target.startswith("#") or _SCHEME.match(target):
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    if not path.lower().endswith(_DOC_SUFFIXES):
        return None
    if path.startswith("/"):
        return posixpath.normpath(path.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))


def relation_metadata(
    doc: Document, rel: Relation, target_id: str, resolved: bool
) -> dict[str, Any]:
    """The D5 metadata of one edge (keys of shared/spec/layers.md, plus `resolved`)."""
    return {
        "relation_id": rel.relation_id(),
        "source_id": rel.source_id,
        "relation_type": rel.relation_type,
        "target_id": target_id,
        "anchor": rel.anchor,
        "source_path": doc.rel,
        "resolved": resolved,
    }
