"""Sections of a document by its heading hierarchy, with paths, order and file line spans."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from strata.index.docs.blocks import (
    Block,
    asciidoc_blocks,
    markdown_blocks,
    org_blocks,
    rst_blocks,
    text_blocks,
)
from strata.index.docs.labels import (
    DETAILS_TITLES,
    INTEGRATION_TITLES,
    SCENARIO_TITLE,
    SUMMARY_TITLES,
)


@dataclass(frozen=True, slots=True)
class Section:
    """One section: its heading (if any) and the blocks up to the next heading.

    `path` holds the titles from the outermost heading down to this one; a preamble
    before the first heading has level 0, an empty path and an empty title. `start_line`
    and `end_line` are the 1-based inclusive file lines of its first and last block.
    """

    title: str
    level: int
    path: tuple[str, ...]
    order: int
    start_line: int
    end_line: int
    blocks: tuple[Block, ...]

    @property
    def body(self) -> tuple[Block, ...]:
        """The blocks after the heading."""
        return self.blocks[1:] if self.blocks and self.blocks[0].kind == "heading" else self.blocks


@dataclass(frozen=True, slots=True)
class Outline:
    """Where a document's heading structure stands after some of its blocks: the open
    headings (effective level, title), the next section's order, and the section still
    open (its title, level, path; a preamble's are empty; None before any block). A
    document read a part at a time carries it from one part into the next
    (`sections_after`, `outline_of`)."""

    stack: tuple[tuple[int, str], ...] = ()
    order: int = 0
    open: tuple[str, int, tuple[str, ...]] | None = None


def sections_of(blocks: Sequence[Block]) -> list[Section]:
    """Group blocks into sections; headings nested out of order (# then ###) nest once.

    A heading closes every open heading of the same or a deeper level, so `# A`,
    `### B`, `## C` gives the paths `[A]`, `[A, B]`, `[A, C]`. The layered format's
    role headings nest as its spec reads them: `# Summary`, `# Details` or
    `# Integrations` after a `# Title` go under the title, and a `## Scenario` right
    at the level of an open `## Details` goes under Details, so the paths are
    `[Title, Summary]` and `[Title, Details, Scenario]`.
    """
    return sections_after(blocks, Outline())[0]


def sections_after(blocks: Sequence[Block], outline: Outline) -> tuple[list[Section], Outline]:
    """`sections_of` for blocks that follow those `outline` was left by: blocks before
    the first heading continue the open section (same title, path and order), headings
    nest under the open ones. Returns the sections and the outline after them."""
    groups: list[list[Block]] = []
    for block in blocks:
        if block.kind == "heading" or not groups:
            groups.append([block])
        else:
            groups[-1].append(block)
    stack = list(outline.stack)
    order, current = outline.order, outline.open
    sections: list[Section] = []
    for group in groups:
        head = group[0]
        if head.kind == "heading":
            level = _effective_level(head, stack)
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, head.title))
            current = (head.title, level, tuple(t for _, t in stack))
            number, order = order, order + 1
        elif current is not None:  # the section the blocks before went on with
            number = order - 1
        else:  # a preamble: the blocks before the first heading
            number, order, current = order, order + 1, ("", 0, ())
        title, level, path = current
        sections.append(
            Section(title, level, path, number, group[0].start, group[-1].end, tuple(group))
        )
    return sections, Outline(tuple(stack), order, current)


def outline_of(sections: Sequence[Section]) -> Outline:
    """The outline `sections_after` leaves after `sections` (of a whole part)."""
    stack: list[tuple[int, str]] = []
    for sec in sections:
        if sec.blocks and sec.blocks[0].kind == "heading":
            while stack and stack[-1][0] >= sec.level:
                stack.pop()
            stack.append((sec.level, sec.title))
    if not sections:
        return Outline()
    last = sections[-1]
    return Outline(tuple(stack), last.order + 1, (last.title, last.level, last.path))


def _role(title: str) -> str:
    key = title.strip().rstrip(":").casefold()
    if key in SUMMARY_TITLES or key in INTEGRATION_TITLES:
        return "role"
    if key in DETAILS_TITLES:
        return "details"
    return "scenario" if SCENARIO_TITLE.match(title.strip()) else ""


def _effective_level(head: Block, stack: list[tuple[int, str]]) -> int:
    """The heading's level in the hierarchy (see `sections_of` for the role headings)."""
    role = _role(head.title)
    nests = role in ("role", "details") and stack and head.level <= stack[0][0]
    if nests and _role(stack[0][1]) == "":
        return stack[0][0] + 1
    if role == "scenario":
        for level, title in reversed(stack):
            if _role(title) == "details" and level == head.level:
                return level + 1
    return head.level


def has_headings(sections: Sequence[Section]) -> bool:
    """Whether the document has any heading structure at all."""
    return any(s.level > 0 for s in sections)


def descendants(sections: Sequence[Section], index: int) -> list[Section]:
    """The sections nested under `sections[index]` (until a heading of its level or above)."""
    parent = sections[index]
    out: list[Section] = []
    for sec in sections[index + 1 :]:
        if sec.level <= parent.level:
            break
        out.append(sec)
    return out


def parse_sections(lines: Sequence[str], first_line: int, fmt: str) -> list[Section]:
    """Sections of a body in format `markdown`, `rst`, `asciidoc`, `org` or `text`
    (`first_line` = its file line)."""
    if fmt == "markdown":
        blocks = markdown_blocks(lines, first_line)
    elif fmt == "rst":
        blocks = rst_blocks(lines, first_line)
    elif fmt == "asciidoc":
        blocks = asciidoc_blocks(lines, first_line)
    elif fmt == "org":
        blocks = org_blocks(lines, first_line)
    else:
        blocks = text_blocks(lines, first_line)
    return sections_of(blocks)
