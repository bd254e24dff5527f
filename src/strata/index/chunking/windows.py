"""Chunking without structure: overlapping line windows and grouped text paragraphs."""

from __future__ import annotations

from collections.abc import Iterator

from strata.config import ChunkConfig
from strata.index.chunking.budget import Budget, Piece, Source, cut_columns, fit, reach, to_chunks
from strata.types import Chunk


def line_windows(text: str, cfg: ChunkConfig) -> list[Chunk]:
    """Windows of `cfg.window_lines` lines sharing `cfg.overlap_lines` with the next one.

    A window ends before a blank line when one is in its last quarter, stays within the
    budget, and a line longer than `max_chars` becomes column windows of its own. A line
    is in at most two windows, and only in consecutive ones.
    """
    src = Source.of(text)
    budget = Budget.of(cfg)
    size = max(1, min(cfg.window_lines or budget.max_lines, budget.max_lines))
    overlap = max(0, min(cfg.overlap_lines, size - 1))
    chunks: list[Chunk] = []
    start = must_reach = src.next_nonblank(src.first, src.last)
    prev_end = 0
    while start <= src.last:
        if len(src.line(start)) > budget.max_chars:
            cols = cut_columns(src.line(start), budget.max_chars)
            chunks.extend(to_chunks(src, [Piece(start, start, a, b) for a, b in cols], "text"))
            prev_end = start
            start = must_reach = src.next_nonblank(start + 1, src.last)
            continue
        end = _window_end(src, start, must_reach, Budget(size, budget.max_chars))
        chunks.append(Chunk(src.text(start, end), start, end, "text"))
        next_start, must_reach = _next_start(src, start, end, prev_end, overlap, size, budget)
        start, prev_end = next_start, end
    return chunks


def _window_end(src: Source, start: int, must_reach: int, window: Budget) -> int:
    """Where a window from `start` ends: not before `must_reach`, at a blank line if close."""
    end = reach(src, start, src.last, window)
    if end < src.last and not src.is_blank(end + 1):
        for line in range(end, max(must_reach, end - window.max_lines // 4), -1):
            if src.is_blank(line):
                end = line - 1
                break
    return src.trim_end(must_reach, end)


def _next_start(
    src: Source, start: int, end: int, prev_end: int, overlap: int, size: int, budget: Budget
) -> tuple[int, int]:
    """The next window's first line and the first new line it must hold."""
    new = src.next_nonblank(end + 1, src.last)
    if new > src.last or overlap == 0 or len(src.line(new)) > budget.max_chars:
        return new, new
    # Never reach back into the window before this one: a line is in two windows at most.
    back = src.next_nonblank(max(end + 1 - overlap, prev_end + 1, start + 1), end)
    if back > end or new - back + 1 > size or src.chars(back, new) > budget.max_chars:
        return new, new
    return back, new


def paragraphs(text: str, cfg: ChunkConfig) -> list[Chunk]:
    """Runs of non-blank lines, consecutive ones grouped while they fit the budget.

    A paragraph larger than the budget alone is split into numbered parts.
    """
    src = Source.of(text)
    budget = Budget.of(cfg)
    chunks: list[Chunk] = []
    group: tuple[int, int] | None = None
    for start, end in _paragraph_spans(src):
        if group is not None and _fits(src, group[0], end, budget):
            group = (group[0], end)
            continue
        if group is not None:
            chunks.extend(fit(src, *group, budget, kind="text"))
        group = (start, end)
    if group is not None:
        chunks.extend(fit(src, *group, budget, kind="text"))
    return chunks


def _fits(src: Source, start: int, end: int, budget: Budget) -> bool:
    return end - start + 1 <= budget.max_lines and src.chars(start, end) <= budget.max_chars


def _paragraph_spans(src: Source) -> Iterator[tuple[int, int]]:
    start: int | None = None
    for line in range(src.first, src.last + 1):
        if src.is_blank(line):
            if start is not None:
                yield start, line - 1
            start = None
        elif start is None:
            start = line
    if start is not None:
        yield start, src.last
