"""Documentation layers D0-D6: sections, cards, facts, entities, workflows, links, integrations."""

from strata.index.docs.build import DocResult, document_records, link_corpus, rows_by_path
from strata.index.docs.chunker import chunk_markdown, chunk_rst, chunk_text
from strata.index.docs.classify import DOC_KINDS, classify

__all__ = [
    "DOC_KINDS",
    "DocResult",
    "chunk_markdown",
    "chunk_rst",
    "chunk_text",
    "classify",
    "document_records",
    "link_corpus",
    "rows_by_path",
]
