"""Inline Markdown helpers: `**Label**: value` lines, links, list items, plain text, ids."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from strata.text.names import MD_LINK, plain
from strata.types import content_hash

LABEL_LINE = re.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__)(?P<label>[^*_:\n]{1,60}?)\s*(?P<c>:)?\s*(?:\*\*|__)"
    r"\s*(?(c)|:)\s*(?P<value>.*)$"
)
LIST_ITEM = re.compile(r"^(?P<indent>\s*)(?:[-*+]|\d{1,9}[.)])\s+(?P<text>.*)$")
_REF_DEF = re.compile(r"^\s{0,3}\[(?P<ref>[^\]]+)\]:\s*(?P<target>\S+)")
_INLINE_NUMBERED = re.compile(r"(?:^|\s)(\d{1,3})[.)]\s+")


@dataclass(frozen=True, slots=True)
class Link:
    """A link in a document: its text, its target as written and its 1-based file line."""

    text: str
    target: str
    line: int


def short_hash(*parts: str) -> str:
    """A stable 16-hex-digit id from the given parts."""
    return content_hash("\x1f".join(parts))[:16]


def anchor(path: Sequence[str], line: int | None) -> str:
    """Where in a document something was found: `Title > Section#L12`."""
    where = " > ".join(path) or "(top)"
    return f"{where}#L{line}" if line else where


def links_in(lines: Sequence[str], first_line: int) -> Iterator[Link]:
    """Inline links and reference definitions in `lines` (numbered from `first_line`)."""
    for offset, line in enumerate(lines):
        for m in MD_LINK.finditer(line):
            yield Link(m.group("text"), m.group("target").strip("<>"), first_line + offset)
        if ref := _REF_DEF.match(line):
            yield Link(ref.group("ref"), ref.group("target").strip("<>"), first_line + offset)


def list_items(lines: Sequence[str], first_line: int) -> list[tuple[int, list[str]]]:
    """Top-level list items with their continuation lines: (file line, lines of the item)."""
    items: list[tuple[int, list[str]]] = []
    base: int | None = None
    for offset, line in enumerate(lines):
        m = LIST_ITEM.match(line)
        if m and (base is None or len(m.group("indent")) <= base):
            base = len(m.group("indent"))
            items.append((first_line + offset, [m.group("text")]))
        elif items and line.strip():
            items[-1][1].append(line.strip())
    return items


def value_of(lines: Sequence[str]) -> str | list[str]:
    """A label's value: a list when written as a list (or `1. a 2. b` inline), else a string."""
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return ""
    if len(body) == 1 and (numbered := _split_inline_numbered(body[0].strip())):
        return numbered
    if LIST_ITEM.match(body[0]):
        return [plain(" ".join(item)) for _, item in list_items(body, 1)]
    return "\n".join(plain(ln) for ln in body)


def _split_inline_numbered(text: str) -> list[str]:
    marks = list(_INLINE_NUMBERED.finditer(text))
    numbers = [int(m.group(1)) for m in marks]
    if len(marks) < 2 or numbers != list(range(1, len(marks) + 1)) or marks[0].start() > 0:
        return []
    ends = [m.start() for m in marks[1:]] + [len(text)]
    return [plain(text[m.end() : end]) for m, end in zip(marks, ends, strict=True)]
