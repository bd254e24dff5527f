"""Where a long hit answers the query (pure): the window of its lines that holds the most
of the query's words, so a hit on a long function points at the lines asked about.

The hit keeps its rank and its whole span (`lines[span] == text` holds for the chunk);
the window goes into its metadata as `focus_start` / `focus_end` (1-based, inclusive),
and the surfaces show those lines first.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Mapping, Sequence

from strata.text.tokens import iter_tokens
from strata.types import Record

FOCUS_LINES = 12  # the window: a screenful of a function
LONG_LINES = 30  # a chunk shorter than this is shown whole
CONTEXT = 2  # lines shown above the first line holding a query word
MIN_TERM = 3  # shorter query tokens (`io`, `x`) match too much to place a window
STEM = 5  # a line's word and a query word match when their first 5 letters do


def focus(rec: Record, terms: Sequence[str]) -> tuple[int, int] | None:
    """The first and last line of the `FOCUS_LINES` window of a code chunk `rec` that holds
    the query `terms` best, or None (a short chunk, a document, no span, none of the words).

    Each distinct term a window holds counts once, weighed by how few of the chunk's lines
    hold it (a word on every line places nothing); the earliest of equal windows wins.
    """
    lines = rec.content.split("\n")
    if not rec.layer.startswith("C") or rec.span_start is None or len(lines) < LONG_LINES:
        return None  # a document section is read from its heading
    wanted = {_key(t) for t in terms if len(t) >= MIN_TERM}
    per_line = [_held(line, wanted) for line in lines]
    df = Counter(t for held in per_line for t in held)
    if not df:
        return None
    weight = {t: math.log(1 + len(lines) / n) for t, n in df.items()}
    at = _best_window(per_line, weight)
    at = _lead_in(per_line, at, len(lines))
    first = rec.span_start + at
    return first, first + FOCUS_LINES - 1


def _lead_in(per_line: Sequence[frozenset[str]], at: int, n: int) -> int:
    """The window moved to start `CONTEXT` lines above its first matching line, keeping
    its last one (the earliest best window ends at the words, a reader wants them on top)."""
    held = [i for i in range(at, at + FOCUS_LINES) if per_line[i]]
    start = max(held[-1] - FOCUS_LINES + 1, held[0] - CONTEXT)
    return min(max(0, start), n - FOCUS_LINES)


def focused(rec: Record, terms: Sequence[str]) -> Record:
    """`rec` with its focus window in the metadata (itself when it has none)."""
    window = focus(rec, terms)
    if window is None:
        return rec
    meta = {**rec.metadata, "focus_start": window[0], "focus_end": window[1]}
    return dataclasses.replace(rec, metadata=meta)


def at_frame(rec: Record) -> Record:
    """A long hit that a stack trace's frame points into, focused on the frame's line
    (`CONTEXT` lines above it); itself otherwise."""
    line = rec.metadata.get("frame_line")
    return at_line(rec, line) if isinstance(line, int) else rec


def at_line(rec: Record, line: int) -> Record:
    """A long hit focused on its line `line` (1-based in the file, `CONTEXT` lines above
    it); itself when it is short or does not hold that line."""
    first, n = rec.span_start or 1, rec.content.count("\n") + 1
    if n < LONG_LINES or not first <= line < first + n:
        return rec
    start = min(max(first, line - CONTEXT), first + n - FOCUS_LINES)
    meta = {**rec.metadata, "focus_start": start, "focus_end": start + FOCUS_LINES - 1}
    return dataclasses.replace(rec, metadata=meta)


def window_lines(rec: Record) -> tuple[int, str]:
    """The first line number and the text a surface shows first: the focus window of a
    focused hit, else the whole content from its first line."""
    start, end = rec.metadata.get("focus_start"), rec.metadata.get("focus_end")
    first = rec.span_start or 1
    if not isinstance(start, int) or not isinstance(end, int) or start < first:
        return first, rec.content
    lines = rec.content.split("\n")
    return start, "\n".join(lines[start - first : end - first + 1])


def _best_window(per_line: Sequence[frozenset[str]], weight: Mapping[str, float]) -> int:
    """The first line of the earliest window with the highest weight of distinct terms
    (one pass: the window's term counts are updated as it slides)."""
    inside: Counter[str] = Counter()
    score = best = 0.0
    at = 0
    for i, held in enumerate(per_line):
        for t in held:
            inside[t] += 1
            score += weight[t] if inside[t] == 1 else 0.0
        if i >= FOCUS_LINES:
            for t in per_line[i - FOCUS_LINES]:
                inside[t] -= 1
                score -= weight[t] if inside[t] == 0 else 0.0
        start = max(0, i - FOCUS_LINES + 1)
        if i >= FOCUS_LINES - 1 and score > best + 1e-9:
            best, at = score, start
    return at


def _held(line: str, wanted: set[str]) -> frozenset[str]:
    """The match keys of `wanted` that a line's tokens have (lines without any of them as
    text are not tokenised: most lines of a chunk hold none)."""
    low = line.lower()
    if not any(key in low for key in wanted):
        return frozenset()
    return frozenset(_key(t) for t in iter_tokens(line)) & wanted


def _key(token: str) -> str:
    """A token's match key: its first `STEM` letters (`limited` ~ `limit`, `formats` ~
    `format`), the whole of a shorter one."""
    return token[:STEM]
