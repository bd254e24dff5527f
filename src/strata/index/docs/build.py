"""Records of the docs layers: per file (`document_records`), per corpus (`link_corpus`).

Per file, a document gives D0 chunks, its D1 card, D2 facts, D4 workflows, D5 edges and
D6 integrations, resolved as far as the file alone allows. The corpus pass resolves
names against every document: D2 `object_ref`, D5 targets (links to a document become
its `document_id`), extra D5 edges from any frontmatter key naming a known document,
and the merged D3 entity catalog. Its D2/D5 records carry the ids of the per-file
ones, so `rows_by_path` (or any upsert by id) replaces them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from strata.config import ChunkConfig
from strata.index.docs.catalog import card_metadata, summary_of
from strata.index.docs.chunker import chunk_sections
from strata.index.docs.document import Document, as_list, parse_document
from strata.index.docs.entities import Mention, entity_metadata, mentions_of, merge_entities
from strata.index.docs.facts import Fact, extract_facts, fact_metadata
from strata.index.docs.integrations import extract_integrations, integration_metadata
from strata.index.docs.labels import RELATION_KEYS
from strata.index.docs.relations import Relation, extract_relations, relation_metadata
from strata.index.docs.resolve import Resolver
from strata.index.docs.workflows import extract_workflows, workflow_metadata
from strata.index.records import chunk_id, layer_id, make_record
from strata.layers import (
    D0_DOC_CHUNKS,
    D1_DOCUMENT_CATALOG,
    D2_FACT_INDEX,
    D3_ENTITY_CATALOG,
    D4_WORKFLOW_INDEX,
    D5_RELATION_GRAPH,
    D6_INTEGRATION_INDEX,
)
from strata.text.names import normalise_name
from strata.types import Chunk, Record

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DocResult:
    """One document's records, warnings, and what the corpus pass needs to link it."""

    document: Document
    file_hash: str
    records: tuple[Record, ...]
    facts: tuple[Fact, ...]
    relations: tuple[Relation, ...]
    mentions: tuple[Mention, ...]

    @property
    def rel(self) -> str:
        """The document's path."""
        return self.document.rel

    @property
    def document_id(self) -> str:
        """Frontmatter `id`, else the path."""
        return self.document.document_id

    @property
    def warnings(self) -> tuple[str, ...]:
        """Non-fatal problems (bad frontmatter), one line each."""
        return self.document.warnings


def document_records(rel: str, text: str, lang: str, file_hash: str, cfg: ChunkConfig) -> DocResult:
    """Parse one document and build its per-file records of D0, D1, D2, D4, D5 and D6.

    Args:
        rel: POSIX path relative to the indexed root.
        text: the file's whole text.
        lang: `markdown`, `rst` or `text`.
        file_hash: content hash of the file (set on every record).
        cfg: chunk budgets for D0.
    """
    doc = parse_document(rel, text, lang)
    for warning in doc.warnings:
        log.warning("%s", warning)
    facts = tuple(extract_facts(doc))
    relations = tuple(extract_relations(doc))
    mentions = tuple(mentions_of(doc))
    resolver = Resolver.of([(doc, mentions)])
    records = [
        *_chunk_records(doc, file_hash, cfg),
        card_record(doc, file_hash),
        *(_fact_record(doc, file_hash, f, resolver) for f in facts),
        *_workflow_records(doc, file_hash),
        *(_relation_record(doc, file_hash, r, resolver) for r in relations),
        *_integration_records(doc, file_hash),
    ]
    return DocResult(doc, file_hash, tuple(records), facts, relations, mentions)


def link_corpus(results: Sequence[DocResult]) -> list[Record]:
    """The corpus pass: merged D3 entities, and D2/D5 records resolved against every document."""
    pairs = [(r.document, r.mentions) for r in results]
    _warn_duplicate_ids(results)
    resolver = Resolver.of(pairs)
    out: list[Record] = []
    for res in results:
        doc, fh = res.document, res.file_hash
        out.extend(_fact_record(doc, fh, f, resolver) for f in res.facts)
        out.extend(_relation_record(doc, fh, r, resolver) for r in res.relations)
        out.extend(_relation_record(doc, fh, r, resolver) for r in _named_edges(doc, resolver))
    by_rel = {r.rel: r.file_hash for r in results}
    for entity in merge_entities(pairs):
        out.append(
            _record(
                entity.owner,
                by_rel[entity.owner.rel],
                D3_ENTITY_CATALOG,
                entity.key,
                entity.name,
                entity.render(),
                None,
                "entity",
                entity_metadata(entity),
            )
        )
    return out


def rows_by_path(
    results: Iterable[DocResult], corpus: Iterable[Record] = ()
) -> dict[str, list[Record]]:
    """Every row per path, the corpus pass's records replacing per-file ones with the same id."""
    rows: dict[str, dict[str, Record]] = {}
    for res in results:
        rows.setdefault(res.rel, {}).update((r.id, r) for r in res.records)
    for record in corpus:
        rows.setdefault(record.path, {})[record.id] = record
    return {path: list(by_id.values()) for path, by_id in rows.items()}


def _warn_duplicate_ids(results: Sequence[DocResult]) -> None:
    seen: dict[str, str] = {}
    for res in sorted(results, key=lambda r: r.rel):
        if not res.document.has_id:
            continue
        first = seen.setdefault(normalise_name(res.document_id), res.rel)
        if first != res.rel:
            log.warning(
                "duplicate document id %r in %s and %s; links resolve to %s",
                res.document_id,
                first,
                res.rel,
                first,
            )


def _named_edges(doc: Document, resolver: Resolver) -> list[Relation]:
    """Edges from frontmatter keys other than the relation keys whose values name a document."""
    out: list[Relation] = []
    for key, value in doc.frontmatter.items():
        if key == "id" or key in RELATION_KEYS:
            continue
        for item in as_list(value) if not isinstance(value, dict) else []:
            target = resolver.ids.get(normalise_name(item))
            if target is not None and target != doc.document_id:
                out.append(Relation(doc.document_id, key, item, f"frontmatter:{key}"))
    return out


def _record(
    doc: Document,
    file_hash: str,
    layer: str,
    key: str,
    title: str,
    content: str,
    span: tuple[int, int] | None,
    kind: str,
    meta: Mapping[str, Any],
    embed: str = "",
) -> Record:
    return make_record(
        id=layer_id(doc.rel, layer, key),
        path=doc.rel,
        layer=layer,
        title=title,
        content=content,
        lang=doc.lang,
        file_hash=file_hash,
        span=span,
        kind=kind,
        metadata=meta,
        embed_text=embed,
    )


def _chunk_records(doc: Document, file_hash: str, cfg: ChunkConfig) -> list[Record]:
    return section_records(doc, chunk_sections(doc.lines, doc.sections, cfg), file_hash)


def section_records(
    doc: Document, chunks: Sequence[Chunk], file_hash: str, first: int = 0, offset: int = 0
) -> list[Record]:
    """D0 records of `chunks` of `doc` (ids from ordinal `first`, lines moved down by
    `offset`: a streamed file's part, chunked alone, with its document's metadata)."""
    base = {
        "document_id": doc.document_id,
        "type": doc.doc_type,
        "module": doc.field("module"),
        "domain": doc.field("domain"),
        "subdomain": doc.field("subdomain"),
        "tags": doc.tags,
    }
    records = []
    for i, chunk in enumerate(chunks, first):
        meta = {
            **base,
            "section_path": list(chunk.metadata["section_path"]),
            "section_title": chunk.title,
            "order": chunk.metadata["order"],
            "doc_kind": doc.doc_kind,
            "source_path": doc.rel,
            "artifact_type": "DOCS",
        }
        where = " > ".join(chunk.metadata["section_path"]) or doc.title
        records.append(
            make_record(
                id=chunk_id(doc.rel, i),
                path=doc.rel,
                layer=D0_DOC_CHUNKS,
                title=chunk.title or doc.title,
                content=chunk.text,
                lang=doc.lang,
                file_hash=file_hash,
                span=(chunk.start_line + offset, chunk.end_line + offset),
                kind=chunk.kind,
                metadata=meta,
                embed_text=f"{doc.rel}\n{where}\n{chunk.text}",
            )
        )
    return records


def card_record(doc: Document, file_hash: str) -> Record:
    """The document's D1 card."""
    summary = summary_of(doc)
    return _record(
        doc,
        file_hash,
        D1_DOCUMENT_CATALOG,
        "card",
        doc.title,
        summary.text,
        summary.span,
        "document",
        card_metadata(doc, summary),
        embed=f"{doc.title}\n{summary.text}",
    )


def _fact_record(doc: Document, file_hash: str, fact: Fact, resolver: Resolver) -> Record:
    meta = fact_metadata(doc, fact, resolver.object_ref(fact.object))
    text = f"{fact.subject} {fact.predicate} {fact.object}"
    span = (fact.line, fact.line) if fact.line else None
    return _record(doc, file_hash, D2_FACT_INDEX, meta["fact_id"], text, text, span, "fact", meta)


def _workflow_records(doc: Document, file_hash: str) -> list[Record]:
    return [
        _record(
            doc,
            file_hash,
            D4_WORKFLOW_INDEX,
            wf.workflow_id,
            wf.name or "Scenario",
            wf.render(),
            (wf.start_line, wf.end_line),
            "workflow",
            workflow_metadata(doc, wf),
        )
        for wf in extract_workflows(doc)
    ]


def _relation_record(doc: Document, file_hash: str, rel: Relation, resolver: Resolver) -> Record:
    target_id, resolved = resolver.target(rel)
    meta = relation_metadata(doc, rel, target_id, resolved)
    text = f"{rel.source_id} {rel.relation_type} {target_id}"
    return _record(
        doc, file_hash, D5_RELATION_GRAPH, meta["relation_id"], text, text, None, "relation", meta
    )


def _integration_records(doc: Document, file_hash: str) -> list[Record]:
    records = []
    for item in extract_integrations(doc):
        meta = integration_metadata(doc, item)
        title = f"{doc.document_id} -> {meta['target'] or '?'}"
        records.append(
            _record(
                doc,
                file_hash,
                D6_INTEGRATION_INDEX,
                item.integration_id,
                title,
                item.text,
                (item.start_line, item.end_line),
                "integration",
                meta,
            )
        )
    return records
