"""Fitting spans of a file into the chunk budget: line pieces, column cuts, enforcement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import Any

from strata.config import ChunkConfig
from strata.types import Chunk

# A cut inside a long line prefers whitespace, then these (minified code), then any place.
_SOFT_BREAKS = ";,)}]>"
# Score of a cut after a blank line when no statement boundary is known there.
_BLANK_SCORE = 1_000
_NO_SCORE = 1_000_000


@dataclass(frozen=True, slots=True)
class Budget:
    """The largest chunk: at most `max_lines` lines and `max_chars` characters."""

    max_lines: int
    max_chars: int

    @classmethod
    def of(cls, cfg: ChunkConfig) -> Budget:
        """The budget of a chunk config (a zero limit is read as 1, the smallest usable)."""
        return cls(max(1, cfg.max_lines), max(1, cfg.max_chars))

    def fits(self, chunk: Chunk) -> bool:
        """Whether a chunk is within the budget."""
        lines = chunk.end_line - chunk.start_line + 1
        return lines <= self.max_lines and len(chunk.text) <= self.max_chars


@dataclass(frozen=True, slots=True)
class Piece:
    """A span of lines, or (when `col_end` is set) a column slice of one line."""

    start: int
    end: int
    col_start: int = 0
    col_end: int | None = None


@dataclass(frozen=True, slots=True)
class Source:
    """A text's lines, numbered from `first`, with blank flags and O(1) span lengths."""

    lines: tuple[str, ...]
    first: int
    blank: tuple[bool, ...]
    offsets: tuple[int, ...]

    @classmethod
    def of(cls, text: str, first: int = 1) -> Source:
        """Index `text` (split on LF only, as the chunk contract counts lines)."""
        lines = tuple(text.split("\n"))
        blank = tuple(not line or line.isspace() for line in lines)
        offsets = (0, *accumulate(len(line) for line in lines))
        return cls(lines, first, blank, offsets)

    @property
    def last(self) -> int:
        """Number of the last line."""
        return self.first + len(self.lines) - 1

    def line(self, n: int) -> str:
        """Line `n`."""
        return self.lines[n - self.first]

    def is_blank(self, n: int) -> bool:
        """Whether line `n` is empty or whitespace."""
        return self.blank[n - self.first]

    def chars(self, start: int, end: int) -> int:
        """Length of lines `start..end` joined with LF."""
        i, j = start - self.first, end - self.first + 1
        return self.offsets[j] - self.offsets[i] + (end - start)

    def text(self, start: int, end: int) -> str:
        """Lines `start..end` joined with LF."""
        return "\n".join(self.lines[start - self.first : end - self.first + 1])

    def next_nonblank(self, n: int, end: int) -> int:
        """The first non-blank line in `n..end`, or `end + 1` when there is none."""
        while n <= end and self.is_blank(n):
            n += 1
        return n

    def trim_end(self, start: int, end: int) -> int:
        """`end` moved up past trailing blank lines, but not above `start`."""
        while end > start and self.is_blank(end):
            end -= 1
        return end


def cut_columns(line: str, max_chars: int) -> list[tuple[int, int]]:
    """Column windows `(start, end)` of an overlong line, cut at word boundaries if possible.

    The windows are contiguous and each at most `max_chars` long; windows holding only
    whitespace are left out.
    """
    out: list[tuple[int, int]] = []
    start, size = 0, len(line)
    while start < size:
        end = size if size - start <= max_chars else _column_cut(line, start, max_chars)
        if not line[start:end].isspace():
            out.append((start, end))
        start = end
    return out


def _column_cut(line: str, start: int, max_chars: int) -> int:
    hi = start + max_chars
    lo = start + max_chars // 2
    for group in (" \t", _SOFT_BREAKS):
        best = max(line.rfind(ch, lo, hi) for ch in group)
        if best >= 0:
            return best + 1
    return hi


def split_span(
    src: Source,
    start: int,
    end: int,
    budget: Budget,
    breaks: Mapping[int, int] | None = None,
) -> list[Piece]:
    """Cut lines `start..end` into pieces within the budget, in order, without overlap.

    Blank lines at the edges of pieces are left out. A cut prefers a line in `breaks`
    (line -> depth of the statement starting there, lower is better), then a line after
    a blank line, and never makes a piece smaller than half of what would fit. A line
    longer than `max_chars` becomes column pieces.
    """
    pieces: list[Piece] = []
    cur = src.next_nonblank(start, end)
    while cur <= end:
        if len(src.line(cur)) > budget.max_chars:
            cols = cut_columns(src.line(cur), budget.max_chars)
            pieces.extend(Piece(cur, cur, a, b) for a, b in cols)
            cur = src.next_nonblank(cur + 1, end)
            continue
        stop = reach(src, cur, end, budget)
        if stop < end and len(src.line(stop + 1)) <= budget.max_chars:
            stop = _best_cut(src, cur, stop, breaks) - 1
        stop = src.trim_end(cur, stop)
        pieces.append(Piece(cur, stop))
        cur = src.next_nonblank(stop + 1, end)
    return pieces


def reach(src: Source, start: int, end: int, budget: Budget) -> int:
    """The last line a piece starting at `start` can hold within the budget."""
    limit = min(end, start + budget.max_lines - 1)
    stop = start
    while stop < limit and src.chars(start, stop + 1) <= budget.max_chars:
        stop += 1
    return stop


def _best_cut(src: Source, start: int, stop: int, breaks: Mapping[int, int] | None) -> int:
    """The line the next piece should start at, in `(start + half, stop + 1]`."""
    best, best_score = stop + 1, _NO_SCORE
    lowest = start + max(1, (stop - start + 1) // 2)
    for line in range(stop + 1, lowest - 1, -1):
        score = _NO_SCORE
        if breaks is not None and line in breaks:
            score = breaks[line] * 2 + (0 if src.is_blank(line - 1) else 1)
        elif src.is_blank(line - 1):
            score = _BLANK_SCORE
        if score < best_score:
            best, best_score = line, score
    return best


def to_chunks(
    src: Source,
    pieces: Sequence[Piece],
    kind: str,
    title: str = "",
    metadata: Mapping[str, Any] | None = None,
) -> list[Chunk]:
    """Chunks of the pieces; when there are several, each has `metadata["part"]` (from 1)."""
    meta = dict(metadata or {})
    split = len(pieces) > 1
    chunks = []
    for i, piece in enumerate(pieces, start=1):
        extra = dict(meta, part=i) if split else dict(meta)
        if piece.col_end is None:
            text = src.text(piece.start, piece.end)
        else:
            text = src.line(piece.start)[piece.col_start : piece.col_end]
            extra.update(col_start=piece.col_start, col_end=piece.col_end)
        chunks.append(Chunk(text, piece.start, piece.end, kind, title, extra))
    return chunks


def fit(
    src: Source,
    start: int,
    end: int,
    budget: Budget,
    *,
    kind: str,
    title: str = "",
    metadata: Mapping[str, Any] | None = None,
    breaks: Mapping[int, int] | None = None,
) -> list[Chunk]:
    """Chunks of lines `start..end`: one when it fits the budget, else numbered parts."""
    return to_chunks(src, split_span(src, start, end, budget, breaks), kind, title, metadata)


def enforce(chunks: Sequence[Chunk], budget: Budget) -> list[Chunk]:
    """Every chunk within the budget: oversized ones split, blank ones dropped.

    Split chunks keep their kind, title and metadata and gain `metadata["part"]`.
    """
    out: list[Chunk] = []
    for chunk in chunks:
        if not chunk.text or chunk.text.isspace():
            continue
        if budget.fits(chunk):
            out.append(chunk)
        elif "col_start" in chunk.metadata:
            out.extend(_split_columns(chunk, budget))
        else:
            src = Source.of(chunk.text, chunk.start_line)
            out.extend(
                fit(
                    src,
                    src.first,
                    src.last,
                    budget,
                    kind=chunk.kind,
                    title=chunk.title,
                    metadata=chunk.metadata,
                )
            )
    return out


def _split_columns(chunk: Chunk, budget: Budget) -> list[Chunk]:
    base = int(chunk.metadata["col_start"])
    cols = cut_columns(chunk.text, budget.max_chars)
    return [
        replace(
            chunk,
            text=chunk.text[a:b],
            metadata=dict(chunk.metadata, col_start=base + a, col_end=base + b, part=i),
        )
        for i, (a, b) in enumerate(cols, start=1)
    ]
