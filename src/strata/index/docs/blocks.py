"""Block scanners for Markdown, reStructuredText, AsciiDoc, Org and plain text: headings,
fences, tables, prose.

Every scanner takes the lines of a document body and the file line number of its first
line, and returns blocks with 1-based inclusive FILE line spans. Blank lines separate
blocks and belong to none. Fences and tables are atomic: a chunker never splits them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_COMMENT_OPEN, _COMMENT_CLOSE = "<!--", "-->"
_FENCE_OPEN = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_ATX = re.compile(r"^ {0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<title>.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(?P<char>=+|-+)[ \t]*$")
_TABLE_DELIM = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,9}[.)])(?:\s+|$)")
_RST_ADORN = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_RST_DIRECTIVE_CODE = re.compile(r"^\.\.\s+(?:code-block|code|sourcecode|literalinclude)::")
_RST_GRID = re.compile(r"^\s*\+[-=+]+\+\s*$")
_RST_SIMPLE_BORDER = re.compile(r"^\s*=+(?:\s+=+)+\s*$")

# AsciiDoc: `== Title` (or Markdown's `##`) headings; `----`, `....`, `++++`, `____` and
# `====` delimit blocks (listings, literals, passthroughs, quotes, examples), `|===` tables.
_ADOC_HEADING = re.compile(r"^(?P<marks>={1,6}|#{1,6})[ \t]+(?P<title>\S.*?)[ \t]*$")
_ADOC_ATTRS = re.compile(r"^\[[^\]]*\][ \t]*$")  # `[source,java]`, `[NOTE]`
_ADOC_DELIM = re.compile(r"^(?P<delim>-{4,}|\.{4,}|\+{4,}|_{4,}|={4,}|\|={3,})[ \t]*$")
# Org: `** Title` headings (a TODO keyword, a priority and tags are not the title's),
# `#+BEGIN_...`/`#+END_...` blocks, `|` tables.
_ORG_HEADING = re.compile(
    r"^(?P<stars>\*+)[ \t]+(?:(?:TODO|DONE)[ \t]+)?(?:\[#[A-Z]\][ \t]+)?(?P<title>.*?)"
    r"(?:[ \t]+:[\w@#%:]+:)?[ \t]*$"
)
_ORG_BEGIN = re.compile(r"^\s*#\+begin_(?P<kind>\w+)", re.IGNORECASE)
_ORG_TABLE = re.compile(r"^\s*\|")

ATOMIC_KINDS = frozenset({"fence", "table"})
# What a scanner reads of the block that starts at a line: kind, last line index, level, title.
_Read = tuple[str, int, int, str]


@dataclass(frozen=True, slots=True)
class Block:
    """A run of lines of one kind: `heading`, `fence`, `table`, `list`, `paragraph` or an
    HTML `comment`.

    `start`/`end` are 1-based inclusive file lines; `level` and `title` are set on headings.
    """

    kind: str
    start: int
    end: int
    level: int = 0
    title: str = ""

    @property
    def atomic(self) -> bool:
        """Whether a chunker must keep this block whole (code fences and tables)."""
        return self.kind in ATOMIC_KINDS


def _blank(line: str) -> bool:
    return not line.strip()


def _fence_end(lines: Sequence[str], i: int, fence: str) -> int:
    """Index of the closing fence line for a fence opened at `i` (last line if unclosed)."""
    closer = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
    for j in range(i + 1, len(lines)):
        if closer.match(lines[j]):
            return j
    return len(lines) - 1


def _comment_end(lines: Sequence[str], i: int) -> int:
    """Index of the line closing an HTML comment opened at `i` (last line if unclosed):
    a licence header's `# Licensed to …` lines inside it are no headings."""
    at = lines[i].find(_COMMENT_OPEN) + len(_COMMENT_OPEN)
    if _COMMENT_CLOSE in lines[i][at:]:
        return i
    for j in range(i + 1, len(lines)):
        if _COMMENT_CLOSE in lines[j]:
            return j
    return len(lines) - 1


def _is_table_start(lines: Sequence[str], i: int) -> bool:
    if "|" not in lines[i] or i + 1 >= len(lines):
        return False
    delim = lines[i + 1]
    return "|" in delim and "-" in delim and bool(_TABLE_DELIM.match(delim))


def _interrupts(lines: Sequence[str], j: int) -> bool:
    """Whether line `j` starts a new block and so ends a paragraph."""
    line = lines[j]
    return bool(
        _blank(line)
        or _FENCE_OPEN.match(line)
        or _ATX.match(line)
        or line.lstrip().startswith(_COMMENT_OPEN)
        or _is_table_start(lines, j)
    )


def _atx_title(m: re.Match[str]) -> str:
    return (m.group("title") or "").strip()


def _scan_list(lines: Sequence[str], i: int) -> int:
    """Last index of a list starting at `i`: items, their indented lines, inner blank lines."""
    j = i
    k = i + 1
    while k < len(lines):
        line = lines[k]
        if _blank(line):
            k += 1
            continue
        if _FENCE_OPEN.match(line) or _ATX.match(line) or _is_table_start(lines, k):
            break
        if k > j + 1 and not (line[:1].isspace() or _LIST_ITEM.match(line)):
            break
        j = k
        k += 1
    return j


def markdown_blocks(lines: Sequence[str], first_line: int = 1) -> list[Block]:
    """Blocks of a Markdown body; headings inside code fences are ignored."""
    return _scan(lines, first_line, _markdown_block)


def _markdown_block(lines: Sequence[str], i: int) -> _Read:
    """The Markdown block that starts at line `i`."""
    line, n = lines[i].rstrip("\r"), len(lines)
    kind, level, title = "paragraph", 0, ""
    if line.lstrip().startswith(_COMMENT_OPEN):
        kind, i = "comment", _comment_end(lines, i)
    elif fence := _FENCE_OPEN.match(line):
        kind, i = "fence", _fence_end(lines, i, fence.group("fence"))
    elif atx := _ATX.match(line):
        kind, level, title = "heading", len(atx.group("hashes")), _atx_title(atx)
    elif _is_table_start(lines, i):
        kind, i = "table", i + 1
        while i + 1 < n and not _blank(lines[i + 1]) and "|" in lines[i + 1]:
            i += 1
    elif (
        i + 1 < n
        and (setext := _SETEXT.match(lines[i + 1]))
        and not _LIST_ITEM.match(line)
        and not line.lstrip().startswith(">")
    ):
        kind, title = "heading", line.strip()
        level = 1 if setext.group("char")[0] == "=" else 2
        i += 1
    elif _LIST_ITEM.match(line):
        kind, i = "list", _scan_list(lines, i)
    else:
        while i + 1 < n and not _interrupts(lines, i + 1) and not _SETEXT.match(lines[i + 1]):
            i += 1
    return kind, i, level, title


def underlined_titles(lines: Sequence[str], enough: int = 2) -> int:
    """How many section titles underlined as reStructuredText writes them (a line, then
    one punctuation character repeated at least as long) `lines` has, counted up to
    `enough`: a plain-text changelog or read-me (`CHANGES`, `NEWS`) sectioned so."""
    found = 0
    for i in range(len(lines) - 1):
        if (got := _rst_heading(lines, i)) and len(lines[got[2]].rstrip()) >= len(got[0]):
            found += 1
            if found >= enough:
                break
    return found


def _rst_heading(lines: Sequence[str], i: int) -> tuple[str, tuple[str, bool], int] | None:
    """(title, style, last index) when a section title starts at `i`, else None."""
    n = len(lines)
    over = _RST_ADORN.match(lines[i])
    if over and i + 2 < n and not _blank(lines[i + 1]) and lines[i + 2].strip() == lines[i].strip():
        return lines[i + 1].strip(), (over.group(1), True), i + 2
    if over or i + 1 >= n or _blank(lines[i]) or lines[i][:1].isspace():
        return None
    under = _RST_ADORN.match(lines[i + 1])
    if (
        under
        and (i == 0 or _blank(lines[i - 1]))
        and len(lines[i + 1].rstrip()) >= min(len(lines[i].rstrip()), 3)
    ):
        return lines[i].strip(), (under.group(1), False), i + 1
    return None


def _rst_indented_end(lines: Sequence[str], i: int) -> int:
    """Last index of the indented block that follows line `i` (blank lines inside allowed)."""
    j, k = i, i + 1
    while k < len(lines) and (_blank(lines[k]) or lines[k][:1].isspace()):
        if not _blank(lines[k]):
            j = k
        k += 1
    return j


def _rst_table_end(lines: Sequence[str], i: int) -> int:
    if _RST_GRID.match(lines[i]):
        j = i
        while j + 1 < len(lines) and lines[j + 1].lstrip()[:1] in ("+", "|"):
            j += 1
        return j
    borders, j = 1, i
    while j + 1 < len(lines) and borders < 3:
        j += 1
        if _RST_SIMPLE_BORDER.match(lines[j]):
            borders += 1
            if j + 1 >= len(lines) or _blank(lines[j + 1]):
                break
    return j


def rst_blocks(lines: Sequence[str], first_line: int = 1) -> list[Block]:
    """Blocks of reStructuredText; heading levels by adornment style, first seen first."""
    styles: list[tuple[str, bool]] = []

    def block(lines: Sequence[str], i: int) -> _Read:
        n = len(lines)
        kind, level, title = "paragraph", 0, ""
        if heading := _rst_heading(lines, i):
            title, style, i = heading
            if style not in styles:
                styles.append(style)
            kind, level = "heading", styles.index(style) + 1
        elif _RST_GRID.match(lines[i]) or _RST_SIMPLE_BORDER.match(lines[i]):
            kind, i = "table", _rst_table_end(lines, i)
        elif _RST_DIRECTIVE_CODE.match(lines[i]):
            kind, i = "fence", _rst_indented_end(lines, i)
        else:
            i = _paragraph_end(lines, i)
            if lines[i].rstrip().endswith("::") and i + 1 < n:
                kind, i = "fence", _rst_indented_end(lines, i)
        return kind, i, level, title

    return _scan(lines, first_line, block)


def asciidoc_blocks(lines: Sequence[str], first_line: int = 1) -> list[Block]:
    """Blocks of AsciiDoc; a heading's level is its count of `=` (the document title, `=`,
    is level 1)."""

    def block(lines: Sequence[str], i: int) -> _Read:
        line = lines[i].rstrip("\r")
        opener = i + 1 if _ADOC_ATTRS.match(line) and i + 1 < len(lines) else i
        if delim := _ADOC_DELIM.match(lines[opener].rstrip("\r")):  # `[source,java]` too
            end = _closing(lines, opener, delim.group("delim"))
            return ("table" if delim.group("delim").startswith("|") else "fence"), end, 0, ""
        if heading := _ADOC_HEADING.match(line):
            return "heading", i, len(heading.group("marks")), heading.group("title")
        return "paragraph", _paragraph_end(lines, i, _ADOC_DELIM, _ADOC_HEADING, _ADOC_ATTRS), 0, ""

    return _scan(lines, first_line, block)


def org_blocks(lines: Sequence[str], first_line: int = 1) -> list[Block]:
    """Blocks of Org: headings by their stars, `#+BEGIN_` blocks, tables, paragraphs."""

    def block(lines: Sequence[str], i: int) -> _Read:
        line = lines[i].rstrip("\r")
        if begin := _ORG_BEGIN.match(line):
            end = re.compile(rf"^\s*#\+end_{begin.group('kind')}\b", re.IGNORECASE)
            j = next((j for j in range(i + 1, len(lines)) if end.match(lines[j])), len(lines) - 1)
            return "fence", j, 0, ""
        if heading := _ORG_HEADING.match(line):
            return "heading", i, len(heading.group("stars")), heading.group("title")
        if line.lstrip().startswith("|"):
            j = i
            while j + 1 < len(lines) and lines[j + 1].lstrip().startswith("|"):
                j += 1
            return "table", j, 0, ""
        return "paragraph", _paragraph_end(lines, i, _ORG_BEGIN, _ORG_HEADING, _ORG_TABLE), 0, ""

    return _scan(lines, first_line, block)


def _closing(lines: Sequence[str], i: int, delim: str) -> int:
    """Index of the line that closes the delimited block opened at `i` (the same line of
    delimiter characters; the last line if unclosed)."""
    for j in range(i + 1, len(lines)):
        if lines[j].rstrip() == delim:
            return j
    return len(lines) - 1


def text_blocks(lines: Sequence[str], first_line: int = 1) -> list[Block]:
    """Paragraphs of plain text (runs of non-blank lines)."""
    return _scan(lines, first_line, lambda lines, i: ("paragraph", _paragraph_end(lines, i), 0, ""))


def _paragraph_end(lines: Sequence[str], i: int, *openers: re.Pattern[str]) -> int:
    """Index of the last line of the run of non-blank lines that starts at `i`, or of the
    line before one that `openers` match (AsciiDoc's and Org's headings and blocks need no
    blank line above them)."""
    while i + 1 < len(lines) and not _blank(lines[i + 1]):
        if any(o.match(lines[i + 1].rstrip("\r")) for o in openers):
            break
        i += 1
    return i


def _scan(
    lines: Sequence[str], first_line: int, read: Callable[[Sequence[str], int], _Read]
) -> list[Block]:
    """The blocks `read` finds, each starting at the next non-blank line after the last."""
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if _blank(lines[i]):
            i += 1
            continue
        kind, end, level, title = read(lines, i)
        blocks.append(Block(kind, first_line + i, first_line + end, level, title))
        i = end + 1
    return blocks
