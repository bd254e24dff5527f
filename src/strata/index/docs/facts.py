"""D2: subject-predicate-object facts from frontmatter, labels, definitions, tables, sentences."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from strata.index.docs.document import Document, as_list
from strata.index.docs.inline import LABEL_LINE, anchor, short_hash
from strata.index.docs.integrations import is_integrations
from strata.index.docs.labels import ARTICLES, PRONOUNS, RELATION_VERBS
from strata.index.docs.sections import Section, descendants
from strata.index.docs.workflows import is_scenario
from strata.text.names import normalise_name, plain

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_VERBS = re.compile(
    r"\s(?P<verb>" + "|".join(re.escape(v) for v, _ in RELATION_VERBS) + r")\s", re.IGNORECASE
)
_OBJECT_STOP = re.compile(r",|;|\s(?:for|to|when|if|so that|because|для|чтобы|когда|если)\s|\s[—(]")
_OBJECT_SPLIT = re.compile(r"\s+(?:and|or|и|или)\s+")
_MAX_WORDS = 6


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact; `anchor` says where it was found (`frontmatter:<key>` or a section and line)."""

    subject: str
    predicate: str
    object: str
    anchor: str
    line: int | None = None

    def fact_id(self, path: str) -> str:
        """Stable id from the fact's content and the document path."""
        return short_hash(path, self.subject, self.predicate, self.object)


def extract_facts(doc: Document) -> list[Fact]:
    """Every fact of a document, first occurrence kept when a fact repeats."""
    seen: set[tuple[str, str, str]] = set()
    out: list[Fact] = []
    for fact in (*_frontmatter_facts(doc), *_section_facts(doc)):
        key = (fact.subject.casefold(), fact.predicate.casefold(), fact.object.casefold())
        if fact.object and key not in seen:
            seen.add(key)
            out.append(fact)
    return out


def predicate_of(label: str) -> str:
    """A label as a predicate: `Owned by` -> `owned_by`."""
    return re.sub(r"[\s\-]+", "_", plain(label).strip().rstrip(":").casefold())


def _frontmatter_facts(doc: Document) -> Iterator[Fact]:
    for key, value in doc.frontmatter.items():
        if key == "id":
            continue
        if isinstance(value, dict):
            for sub, inner in value.items():
                for item in as_list(inner):
                    yield Fact(doc.document_id, f"{key}.{sub}", item, f"frontmatter:{key}")
        else:
            for item in as_list(value) if not isinstance(value, str) else [value.strip()]:
                yield Fact(doc.document_id, key, item, f"frontmatter:{key}")


def _skipped_lines(doc: Document) -> set[int]:
    """Lines of Scenario and Integrations sections: they belong to D4 and D6."""
    skipped: set[int] = set()
    for index, sec in enumerate(doc.sections):
        if is_scenario(sec) or is_integrations(sec):
            for part in (sec, *descendants(doc.sections, index)):
                skipped.update(range(part.start_line, part.end_line + 1))
    return skipped


def _section_facts(doc: Document) -> Iterator[Fact]:
    skipped = _skipped_lines(doc)
    for sec in doc.sections:
        if sec.start_line in skipped:
            continue
        for block in sec.body:
            lines = doc.lines[block.start - 1 : block.end]
            if block.kind == "table":
                yield from _table_facts(doc, sec, lines, block.start)
            elif block.kind in ("paragraph", "list"):
                yield from _text_facts(doc, sec, lines, block.start)


def _table_facts(doc: Document, sec: Section, lines: tuple[str, ...], first: int) -> Iterator[Fact]:
    """Two-column property tables: each body row is (document, property, value)."""
    rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in lines]
    if len(rows[0]) != 2:
        return
    for offset, row in enumerate(rows[2:], start=2):
        if len(row) == 2 and row[0] and row[1]:
            yield Fact(
                doc.document_id,
                predicate_of(row[0]),
                plain(row[1]),
                anchor(sec.path, first + offset),
                first + offset,
            )


def _text_facts(doc: Document, sec: Section, lines: tuple[str, ...], first: int) -> Iterator[Fact]:
    """Label lines, definition lists (`Term` / `: definition`) and relation sentences."""
    for offset, line in enumerate(lines):
        no = first + offset
        where = anchor(sec.path, no)
        if (m := LABEL_LINE.match(line)) and m.group("value").strip():
            yield Fact(
                doc.document_id, predicate_of(m.group("label")), plain(m.group("value")), where, no
            )
            continue
        if line.startswith(": ") and offset > 0 and lines[offset - 1].strip():
            term = lines[offset - 1]
            yield Fact(doc.document_id, predicate_of(term), plain(line[2:]), where, no)
            continue
        for sentence in _SENTENCE_END.split(plain(line)):
            yield from _relation_facts(doc, sentence, where, no)


def _relation_facts(doc: Document, sentence: str, where: str, line: int) -> Iterator[Fact]:
    """`X depends on Y`, `X uses Y and Z`, `X зависит от Y`, ... as facts."""
    m = _VERBS.search(f" {sentence} ")
    if not m:
        return
    verb = m.group("verb").casefold()
    predicate = next(p for v, p in RELATION_VERBS if v == verb)
    subject = _subject(doc, sentence[: m.start()])
    rest = _OBJECT_STOP.split(sentence[m.end() - 1 :].strip(" ."), maxsplit=1)[0]
    if not subject:
        return
    for obj in _OBJECT_SPLIT.split(rest.strip(" .:")):
        obj = obj.strip(" .:")
        if obj and len(obj.split()) <= _MAX_WORDS:
            yield Fact(subject, predicate, obj, where, line)


def _subject(doc: Document, text: str) -> str:
    words = text.strip(" -*:").lstrip("0123456789.) ").strip()
    lowered = words.casefold()
    if lowered in PRONOUNS:
        return doc.document_id
    for article in ARTICLES:
        if lowered.startswith(article):
            words, lowered = words[len(article) :], lowered[len(article) :]
    if lowered in PRONOUNS or normalise_name(words) in (
        normalise_name(doc.document_id),
        normalise_name(doc.title),
    ):
        return doc.document_id
    return words if 0 < len(words.split()) <= _MAX_WORDS else ""


def fact_metadata(doc: Document, fact: Fact, object_ref: str | None) -> dict[str, Any]:
    """The D2 metadata of one fact (keys of shared/spec/layers.md)."""
    return {
        "fact_id": fact.fact_id(doc.rel),
        "subject_id": fact.subject,
        "predicate": fact.predicate,
        "object": fact.object,
        "object_ref": object_ref,
        "anchor": fact.anchor,
        "tags": doc.tags,
        "source_path": doc.rel,
    }
