"""D0 chunking of documents: one or more chunks per section, fences and tables never split.

A chunk's `text` is exactly the file's lines `start_line..end_line` joined with "\\n"
(frontmatter lines are in no chunk). Chunks stay within `max_lines` and `max_chars`
except an atomic block (code fence, table) larger than that, which stays whole and is
marked `oversized`. A line longer than `max_chars` is cut into column windows
(`col_start`/`col_end` in metadata). Documents without headings are cut into windows
of `window_lines` at block boundaries, each sharing up to `overlap_lines` with the one before.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from strata.config import ChunkConfig
from strata.index.docs.blocks import Block
from strata.index.docs.sections import Section, has_headings, parse_sections
from strata.text.frontmatter import split_frontmatter
from strata.types import Chunk


@dataclass(frozen=True, slots=True)
class _Budget:
    lines: int
    chars: int


@dataclass(frozen=True, slots=True)
class _Unit:
    """A piece that goes into a chunk whole: a block, part of a block, or part of a line."""

    start: int
    end: int
    oversized: bool = False
    cols: tuple[int, int] | None = None


def file_lines(text: str) -> list[str]:
    """The lines of a file as the chunk contract counts them (split on "\\n")."""
    return text.split("\n")


def chunk_markdown(text: str, cfg: ChunkConfig) -> list[Chunk]:
    """Chunks of a Markdown file (frontmatter excluded, line numbers of the file)."""
    fm = split_frontmatter(text)
    lines = file_lines(text)
    body = lines[fm.body_start_line - 1 :]
    return chunk_sections(lines, parse_sections(body, fm.body_start_line, "markdown"), cfg)


def chunk_rst(text: str, cfg: ChunkConfig) -> list[Chunk]:
    """Chunks of a reStructuredText file, sectioned by its title adornments."""
    lines = file_lines(text)
    return chunk_sections(lines, parse_sections(lines, 1, "rst"), cfg)


def chunk_text(text: str, cfg: ChunkConfig) -> list[Chunk]:
    """Chunks of a plain text file: windows of paragraphs."""
    lines = file_lines(text)
    return chunk_sections(lines, parse_sections(lines, 1, "text"), cfg)


def chunk_sections(
    lines: Sequence[str], sections: Sequence[Section], cfg: ChunkConfig
) -> list[Chunk]:
    """Chunks of already parsed sections of the file whose lines are `lines`."""
    structured = has_headings(sections)
    budget = _Budget(max(1, cfg.max_lines), max(1, cfg.max_chars))
    if not structured and cfg.window_lines > 0:
        budget = _Budget(min(budget.lines, cfg.window_lines), budget.chars)
    chunks: list[Chunk] = []
    for sec in _with_content(sections) if structured else sections:
        meta: dict[str, Any] = {
            "section_path": list(sec.path),
            "section_title": sec.title,
            "order": sec.order,
            "level": sec.level,
        }
        units = [u for b in sec.blocks for u in _units(lines, b, budget)]
        for group in _pack(lines, units, budget):
            chunks.append(
                _chunk(lines, group, "section" if structured else "text", sec.title, meta)
            )
    return chunks if structured else _overlapped(lines, chunks, cfg)


def _with_content(sections: Sequence[Section]) -> list[Section]:
    """Sections with no heading-only chunk where a heading leads somewhere: a heading with
    nothing under it opens the first chunk of the section nested under it (`## Refunds`
    then `### Details`). Followed by a heading of its own level or above (an empty
    `## Semver` then `## Promises`), it leads nowhere: its heading is all it says, and it
    stays a chunk of its own (with the empty headings nested under it) rather than hide
    under a sibling's title. Last in the file, it closes the section before it."""
    out: list[Section] = []
    carried: list[Section] = []
    for i, sec in enumerate(sections):
        if carried and sec.level <= carried[0].level:
            out.append(replace(carried[0], blocks=tuple(b for c in carried for b in c.blocks)))
            carried = []
        heading_only = sec.level > 0 and bool(sec.blocks) and not sec.body
        if heading_only and i + 1 < len(sections):
            carried.append(sec)
            continue
        blocks = tuple(b for c in carried for b in c.blocks) + sec.blocks
        carried = []
        if heading_only and out:
            out[-1] = replace(out[-1], blocks=out[-1].blocks + blocks)
            continue
        out.append(replace(sec, blocks=blocks))
    return out


def _overlapped(lines: Sequence[str], chunks: list[Chunk], cfg: ChunkConfig) -> list[Chunk]:
    """Windows that start up to `cfg.overlap_lines` lines back into the window before
    (as code windows do), within the budget; a line is in two windows at most, and column
    windows and oversized blocks share nothing."""
    out = list(chunks)
    for i in range(1, len(chunks)):
        prev, cur = chunks[i - 1], chunks[i]
        if any("col_start" in c.metadata or c.metadata.get("oversized") for c in (prev, cur)):
            continue
        start = max(cur.start_line - max(0, cfg.overlap_lines), prev.start_line + 1)
        while start < cur.start_line and (
            not lines[start - 1].strip()
            or cur.end_line - start + 1 > cfg.max_lines
            or _chars(lines, start, cur.end_line) > cfg.max_chars
        ):
            start += 1
        if start < cur.start_line:
            text = "\n".join(lines[start - 1 : cur.end_line])
            out[i] = replace(cur, text=text, start_line=start)
    return out


def _chars(lines: Sequence[str], start: int, end: int) -> int:
    return sum(len(line) for line in lines[start - 1 : end]) + (end - start)


def _units(lines: Sequence[str], block: Block, budget: _Budget) -> Iterator[_Unit]:
    """A block as units within the budget; an atomic block is one unit, maybe oversized."""
    size_ok = block.end - block.start + 1 <= budget.lines
    if size_ok and _chars(lines, block.start, block.end) <= budget.chars:
        yield _Unit(block.start, block.end)
    elif block.atomic:
        yield _Unit(block.start, block.end, oversized=True)
    else:
        yield from _split_lines(lines, block.start, block.end, budget)


def _split_lines(lines: Sequence[str], start: int, end: int, budget: _Budget) -> Iterator[_Unit]:
    """Runs of whole lines within the budget; an overlong line becomes column windows."""
    run_start, chars = start, -1
    for no in range(start, end + 1):
        width = len(lines[no - 1])
        if width > budget.chars:
            if run_start < no:
                yield _Unit(run_start, no - 1)
            for col in range(0, width, budget.chars):
                yield _Unit(no, no, cols=(col, min(width, col + budget.chars)))
            run_start, chars = no + 1, -1
            continue
        if no > run_start and (
            no - run_start + 1 > budget.lines or chars + 1 + width > budget.chars
        ):
            yield _Unit(run_start, no - 1)
            run_start, chars = no, -1
        chars += 1 + width
    if run_start <= end:
        yield _Unit(run_start, end)


def _pack(lines: Sequence[str], units: Sequence[_Unit], budget: _Budget) -> Iterator[list[_Unit]]:
    """Greedy grouping of consecutive units into chunks that fit the budget."""
    group: list[_Unit] = []
    for unit in units:
        if group and _fits(lines, group[0], unit, budget):
            group.append(unit)
            continue
        if group:
            yield group
        group = [unit]
    if group:
        yield group


def _fits(lines: Sequence[str], first: _Unit, unit: _Unit, budget: _Budget) -> bool:
    if first.oversized or unit.oversized or first.cols or unit.cols:
        return False
    return (
        unit.end - first.start + 1 <= budget.lines
        and _chars(lines, first.start, unit.end) <= budget.chars
    )


def _chunk(
    lines: Sequence[str], group: list[_Unit], kind: str, title: str, meta: dict[str, Any]
) -> Chunk:
    first, last = group[0], group[-1]
    extra: dict[str, Any] = dict(meta)
    if first.cols:
        c0, c1 = first.cols
        text = lines[first.start - 1][c0:c1]
        extra.update(col_start=c0, col_end=c1)
    else:
        text = "\n".join(lines[first.start - 1 : last.end])
    if first.oversized:
        extra["oversized"] = True
    return Chunk(
        text=text, start_line=first.start, end_line=last.end, kind=kind, title=title, metadata=extra
    )
