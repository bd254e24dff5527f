"""A parsed document (frontmatter, lines, sections, id, kind): the input of every D extractor."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from strata.index.docs.blocks import underlined_titles
from strata.index.docs.chunker import file_lines
from strata.index.docs.classify import classify
from strata.index.docs.sections import Section, parse_sections
from strata.text.frontmatter import split_frontmatter

_FORMATS = {"markdown": "markdown", "rst": "rst", "text": "text"}
_EXT_FORMATS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".rst": "rst",
    ".rest": "rst",
    ".adoc": "asciidoc",
    ".asciidoc": "asciidoc",
    ".org": "org",
}


@dataclass(frozen=True, slots=True)
class Document:
    """One document ready for extraction.

    `frontmatter` holds the keys as written, values made JSON-safe (dates become ISO
    strings). `document_id` is frontmatter `id`, else the path. `lines` are the file's
    lines; spans everywhere are 1-based file lines.
    """

    rel: str
    lang: str
    fmt: str
    lines: tuple[str, ...]
    frontmatter: Mapping[str, Any]
    body_start_line: int
    sections: tuple[Section, ...]
    document_id: str
    doc_kind: str
    title: str
    warnings: tuple[str, ...] = ()

    @property
    def has_id(self) -> bool:
        """Whether the frontmatter names the document (`id`)."""
        return _present(self.frontmatter.get("id"))

    @property
    def doc_type(self) -> str | None:
        """Frontmatter `type` (also read as `doc_type`)."""
        value = self.frontmatter.get("type", self.frontmatter.get("doc_type"))
        return None if value is None else str(value)

    @property
    def tags(self) -> list[str]:
        """Frontmatter `tags` as a list of strings (a comma-separated string is split)."""
        return as_list(self.frontmatter.get("tags"))

    def field(self, key: str) -> str | None:
        """A scalar frontmatter field as a string, None when absent."""
        value = self.frontmatter.get(key)
        return None if value is None or isinstance(value, (list, dict)) else str(value)

    def text_of(self, start: int, end: int) -> str:
        """The file's lines `start..end` joined with newlines."""
        return "\n".join(self.lines[start - 1 : end])


def parse_document(rel: str, text: str, lang: str) -> Document:
    """Parse one document; bad frontmatter becomes a warning, never an error.

    Args:
        rel: POSIX path relative to the indexed root.
        text: the whole file's text.
        lang: `markdown`, `rst` or `text` (others fall back by file extension, then text;
            a `text` file read as AsciiDoc or Org by its extension, and as
            reStructuredText when two titles or more are underlined so).
    """
    ext = _EXT_FORMATS.get(PurePosixPath(rel).suffix.lower())
    fmt = ext if lang == "text" and ext else _FORMATS.get(lang) or ext or "text"
    lines = file_lines(text)
    if fmt == "text" and underlined_titles(lines) >= 2:
        fmt = "rst"  # plain text sectioned as reStructuredText is (`CHANGES`, `NEWS`)
    data: dict[str, Any] = {}
    start = 1
    warnings: tuple[str, ...] = ()
    if fmt != "rst":
        fm = split_frontmatter(text)
        data = {k: jsonable(v) for k, v in fm.data.items()}
        start = fm.body_start_line
        warnings = (f"{rel}: {fm.warning}",) if fm.warning else ()
    sections = tuple(parse_sections(lines[start - 1 :], start, fmt))
    raw_id = data.get("id")
    document_id = str(raw_id).strip() if _present(raw_id) else rel
    body = "\n".join(lines[start - 1 :])
    return Document(
        rel=rel,
        lang=lang,
        fmt=fmt,
        lines=tuple(lines),
        frontmatter=data,
        body_start_line=start,
        sections=sections,
        document_id=document_id,
        doc_kind=classify(rel, body, data),
        title=_title(rel, data, sections),
        warnings=warnings,
    )


def _title(rel: str, data: Mapping[str, Any], sections: Sequence[Section]) -> str:
    for key in ("title", "name"):
        if isinstance(data.get(key), str) and data[key].strip():
            return str(data[key]).strip()
    for sec in sections:
        if sec.level and sec.title:
            return sec.title
    return PurePosixPath(rel).name


def _present(value: Any) -> bool:
    return value is not None and not isinstance(value, (list, dict)) and bool(str(value).strip())


def as_list(value: Any) -> list[str]:
    """A frontmatter value as a list of non-empty strings."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    if isinstance(value, dict):
        return [str(k) for k in value]
    return [str(value)]


def jsonable(value: Any) -> Any:
    """A YAML value made JSON-safe: dates as ISO strings, unknown scalars as strings."""
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
