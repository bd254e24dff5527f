"""D6: one integration per item of a document's `## Integrations` section, fields pulled out."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from strata.index.docs.blocks import Block
from strata.index.docs.document import Document
from strata.index.docs.inline import LABEL_LINE, anchor, list_items, short_hash
from strata.index.docs.labels import INTEGRATION_FIELDS, INTEGRATION_KEYS, INTEGRATION_TITLES
from strata.index.docs.sections import Section, descendants
from strata.text.names import plain

_PAIR = re.compile(r"^\s*(?P<key>[\w][\w \-]{0,30}?)\s*[:=]\s*(?P<value>.+?)\s*$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZА-ЯЁ`\[*])")
_BACKTICK = re.compile(r"`([^`]+)`")
_LINK_TEXT = re.compile(r"(?<!!)\[([^\]]+)\]\([^)]*\)")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_ID_LIKE = re.compile(r"\b[a-z0-9]+(?:[-_][a-z0-9]+)+\b")
_AFTER_VERB = re.compile(
    r"\b(?:with|to|from|calls|via|into|с|в|из|вызывает)\s+(?P<name>[A-ZА-ЯЁ][\w\-]*(?:\s+[A-ZА-ЯЁ][\w\-]*)*)"
)


@dataclass(frozen=True, slots=True)
class Integration:
    """One integration item: structured fields, the rest in `details`, the free text kept."""

    integration_id: str
    fields: Mapping[str, str]
    details: Mapping[str, str]
    text: str
    section_path: tuple[str, ...]
    start_line: int
    end_line: int


def is_integrations(section: Section) -> bool:
    """Whether a section is an `Integrations` (`Интеграции`) section."""
    return section.level > 0 and section.title.strip().rstrip(":").casefold() in INTEGRATION_TITLES


def extract_integrations(doc: Document) -> list[Integration]:
    """Every integration item of every Integrations section of a document."""
    out: list[Integration] = []
    for index, sec in enumerate(doc.sections):
        if not is_integrations(sec):
            continue
        items = list(_items(doc, sec.body, sec.path, ""))
        for sub in descendants(doc.sections, index):
            items.extend(_items(doc, sub.body, sub.path, sub.title, whole=True))
        for n, (path, start, end, text, default) in enumerate(items):
            out.append(_integration(doc, path, start, end, text, default, n))
    return out


_Item = tuple[tuple[str, ...], int, int, str, str]


def _items(
    doc: Document,
    blocks: tuple[Block, ...],
    path: tuple[str, ...],
    default: str,
    whole: bool = False,
) -> Iterator[_Item]:
    """Items of blocks: list items, table rows, key-value paragraphs, prose sentences."""
    if whole and blocks and all(b.kind in ("paragraph", "list") for b in blocks):
        text = doc.text_of(blocks[0].start, blocks[-1].end)
        if _pairs(text):
            yield path, blocks[0].start, blocks[-1].end, text, default
            return
    for block in blocks:
        lines = doc.lines[block.start - 1 : block.end]
        if block.kind == "list":
            for line_no, item in list_items(lines, block.start):
                yield path, line_no, line_no + len(item) - 1, "\n".join(item), default
        elif block.kind == "table":
            yield from ((path, no, no, row, default) for no, row in _table_rows(lines, block.start))
        elif block.kind == "paragraph" and _pairs("\n".join(lines)):
            yield path, block.start, block.end, "\n".join(lines), default
        elif block.kind == "paragraph":
            prose = plain(" ".join(ln.strip() for ln in lines))
            for sentence in _SENTENCE.split(prose):
                yield path, block.start, block.end, sentence, default


def _table_rows(lines: Sequence[str], first_line: int) -> Iterator[tuple[int, str]]:
    """Rows of a pipe table as `header: cell; ...` text."""
    cells = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in lines]
    header = [c.casefold() for c in cells[0]]
    for offset, row in enumerate(cells[2:], start=2):
        pairs = [f"{h}: {c}" for h, c in zip(header, row, strict=False) if c]
        yield first_line + offset, "; ".join(pairs)


def _pairs(text: str) -> list[tuple[str, str]]:
    """`key: value` pairs of an item (separated by `;` or newlines) if any key is known."""
    pairs: list[tuple[str, str]] = []
    for piece in re.split(r";|\n", text):
        m = LABEL_LINE.match(piece) or _PAIR.match(piece.strip().lstrip("-*+ "))
        if m:
            key = m.group("label") if "label" in m.groupdict() else m.group("key")
            pairs.append((key.strip().casefold(), plain(m.group("value"))))
    known = any(k in INTEGRATION_KEYS for k, _ in pairs)
    return pairs if known else []


def _integration(
    doc: Document, path: tuple[str, ...], start: int, end: int, text: str, default: str, n: int
) -> Integration:
    fields = dict.fromkeys(INTEGRATION_FIELDS, "")
    details: dict[str, str] = {}
    pairs = _pairs(text)
    for key, value in pairs:
        field = INTEGRATION_KEYS.get(key)
        if field and not fields[field]:
            fields[field] = value
        else:
            details[key] = value
    if not fields["target"]:
        fields["target"] = plain(default) or ("" if pairs else guess_target(text))
    iid = short_hash(doc.document_id, fields["target"], " > ".join(path), str(n))
    return Integration(iid, fields, details, plain(text), path, start, end)


def guess_target(text: str) -> str:
    """The likely target named by free text: code, link text, bold, an id-like word, a name."""
    head = text.split(":", 1)
    if len(head) == 2 and 0 < len(plain(head[0]).split()) <= 4:
        return plain(head[0])
    for pattern in (_BACKTICK, _LINK_TEXT, _BOLD):
        if m := pattern.search(text):
            return plain(m.group(1))
    if m := _ID_LIKE.search(text):
        return m.group(0)
    if m := _AFTER_VERB.search(text):
        return m.group("name")
    return ""


def integration_metadata(doc: Document, item: Integration) -> dict[str, Any]:
    """The D6 metadata of one integration (keys of shared/spec/layers.md)."""
    meta: dict[str, Any] = {
        "integration_id": item.integration_id,
        "source_id": doc.document_id,
        "source_type": doc.doc_type,
    }
    meta.update(item.fields)
    meta.update(
        details=dict(item.details),
        domain=doc.field("domain"),
        subdomain=doc.field("subdomain"),
        source_path=doc.rel,
        anchor=anchor(item.section_path, item.start_line),
    )
    return meta
