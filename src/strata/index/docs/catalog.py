"""D1: the document card — frontmatter as written, the summary, the kind."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strata.index.docs.document import Document
from strata.index.docs.labels import SUMMARY_TITLES
from strata.text.names import plain


@dataclass(frozen=True, slots=True)
class Summary:
    """A document's summary text and the file lines it came from (None when there is none)."""

    text: str
    span: tuple[int, int] | None


def summary_of(doc: Document) -> Summary:
    """The `Summary` section's text, else the first paragraph, else the title."""
    for sec in doc.sections:
        if sec.level and sec.title.strip().rstrip(":").casefold() in SUMMARY_TITLES and sec.body:
            body = [b for b in sec.body if b.kind != "heading"]
            if body:
                text = doc.text_of(body[0].start, body[-1].end).strip()
                return Summary(text, (body[0].start, body[-1].end))
    for sec in doc.sections:
        for block in sec.body:
            if block.kind != "paragraph":
                continue
            text = doc.text_of(block.start, block.end).strip()
            if _is_prose(text):
                return Summary(text, (block.start, block.end))
    return Summary(doc.title, None)


def _is_prose(text: str) -> bool:
    """A paragraph worth showing as a summary: words, not only badges, HTML or directives."""
    if text.startswith(("<", "..", "(", ":", "{", "[!", "![")):
        return False
    return len(plain(text).split()) >= 3


def card_metadata(doc: Document, summary: Summary) -> dict[str, Any]:
    """The D1 metadata: every frontmatter key as written, then the card's own keys."""
    meta: dict[str, Any] = dict(doc.frontmatter)
    if doc.has_id:
        meta["document_id"] = doc.document_id
    meta.update(source_path=doc.rel, summary_text=summary.text, doc_kind=doc.doc_kind)
    return meta
