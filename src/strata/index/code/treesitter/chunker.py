"""Syntax-aware chunks of source code in any language with a tree-sitter query.

Definitions become chunks; a class-like unit is its header (members listed in
`metadata["outline"]`) followed by one chunk per member; the code between units groups
into `module` (top level) or `block` (inside a class) chunks. Spans are exact, chunks
never overlap, every non-blank line is covered, and no chunk exceeds the budget: an
oversized unit is cut into line windows keeping its title, and an overlong line (a
minified file) into column windows. Everything iterates, so deep nesting is safe.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from strata.config import ChunkConfig
from strata.index.code.treesitter.outlines import Definition
from strata.index.code.treesitter.tags import outline
from strata.types import Chunk

# A member kind (function, method, a C# property) is a chunk of its own; the others are
# containers whose header and outline are one chunk and whose units are theirs.
MEMBER_KINDS: Final = frozenset(["function", "method", "property"])
CONTAINER_KINDS: Final = frozenset(
    ["class", "interface", "struct", "trait", "enum", "impl", "module"]
)
UNIT_KINDS: Final = MEMBER_KINDS | CONTAINER_KINDS
CHUNK_KINDS: Final = {
    "function": "function",
    "method": "method",
    "property": "method",
    "module": "module",
}
# A line that only closes something (`}`, `end`, `});`), possibly with a trailing comment.
_CLOSER = re.compile(r"^\s*(?:[)\]}>;,]+|end|esac|fi|done)?\s*(?:(?://|#|/\*).*)?$")
_CUT_AFTER = ";},) "
# Languages whose functions may be declared by bodiless signatures right above the body.
_OVERLOADING: Final = frozenset({"typescript", "tsx"})
# A blank line or a comment's line (`//`, `#`, `--`, `/* ... */`, ` * `, `;`).
_COMMENT = re.compile(r"^\s*(?:$|//|#(?![A-Za-z])|--|/\*|\*|;)")


@dataclass(frozen=True, slots=True)
class _Piece:
    """A span to emit, before the budget is applied."""

    start: int
    end: int
    kind: str
    title: str
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Gap:
    """Lines between units: `kind` is `module` at top level, `block` inside a class."""

    start: int
    end: int
    kind: str
    title: str
    meta: Mapping[str, Any] = field(default_factory=dict)


def chunk(text: str, lang: str, cfg: ChunkConfig) -> list[Chunk]:
    """Split one source file into syntax-aware chunks (pure).

    Args:
        text: the file's text; chunk spans are 1-based lines of `text.split("\\n")`.
        lang: a language with a grammar and a query (`strata.index.code.treesitter.grammars`).
        cfg: the budget (`max_lines`, `max_chars`).

    Returns:
        Chunks in file order; `text` of each equals the file's lines at its span.
    """
    lines = text.split("\n")
    found = outline(text, lang)
    defs = found.definitions
    pieces = _plan(_with_overloads(defs, lines) if lang in _OVERLOADING else defs, lines)
    extra = {"parse_errors": True} if found.has_errors else {}
    chunks: list[Chunk] = []
    for piece in pieces:
        chunks.extend(_fit(piece, lines, cfg, extra))
    return chunks


def _plan(defs: Sequence[Definition], lines: Sequence[str]) -> list[_Piece]:
    n_lines = len(lines)
    kids, members = _children(defs)
    starts = sorted((d.start_line, i) for i, d in enumerate(defs))  # a gap's definitions
    pieces: list[_Piece] = []
    stack: list[int | _Gap] = []
    top = _separable(defs, kids, kids.get(None, []), 0, n_lines)
    stack.extend(reversed(_interleave(defs, top, 1, n_lines, "module", "")))
    while stack:
        task = stack.pop()
        if isinstance(task, _Gap):
            _add_gap(_titled(task, defs, starts, lines), lines, pieces)
            continue
        unit = defs[task]
        title = ".".join(unit.path)
        meta: dict[str, Any] = {"symbol_kind": unit.kind, "signature": unit.signature}
        inner: list[int] = []
        if unit.kind in CONTAINER_KINDS:
            inner = _separable(defs, kids, kids.get(task, []), unit.decl_line, unit.end_line)
        kind = CHUNK_KINDS.get(unit.kind, "class")
        if not inner:
            pieces.append(_Piece(unit.start_line, unit.end_line, kind, title, meta))
            continue
        meta["outline"] = [defs[m].signature for m in members.get(task, [])]
        pieces.append(_Piece(unit.start_line, defs[inner[0]].start_line - 1, kind, title, meta))
        stack.extend(reversed(_interleave(defs, inner, None, unit.end_line, "block", title)))
    return pieces


def _with_overloads(defs: Sequence[Definition], lines: Sequence[str]) -> list[Definition]:
    """Each function with a body starting at the bodiless signatures of its name right
    above it (TypeScript's overloads, only comments between): one chunk, not the body and
    a glue chunk of its signatures. (A C prototype above its body stays apart.)"""
    out = list(defs)
    for i, d in enumerate(out):
        if not d.has_body or d.kind not in MEMBER_KINDS:
            continue
        start, j = d.start_line, i - 1
        while j >= 0 and (o := out[j]).name == d.name and o.parent == d.parent and not o.has_body:
            between = range(o.end_line + 1, start)
            if not o.starts_line or not all(_COMMENT.match(lines[k - 1]) for k in between):
                break
            start, j = o.start_line, j - 1
        if start < d.start_line:
            out[i] = replace(d, start_line=start)
    return out


def _children(
    defs: Sequence[Definition],
) -> tuple[dict[int | None, list[int]], dict[int, list[int]]]:
    """Units under their nearest enclosing unit, and every definition under its parent."""
    unit_parent: list[int | None] = []
    kids: dict[int | None, list[int]] = {}
    members: dict[int, list[int]] = {}
    for i, d in enumerate(defs):
        up = d.parent
        owner = up if up is None or defs[up].kind in UNIT_KINDS else unit_parent[up]
        unit_parent.append(owner)
        if up is not None:
            members.setdefault(up, []).append(i)
        if d.kind in UNIT_KINDS:
            kids.setdefault(owner, []).append(i)
    return kids, members


def _separable(
    defs: Sequence[Definition],
    kids: Mapping[int | None, list[int]],
    candidates: list[int],
    floor: int,
    ceiling: int,
) -> list[int]:
    """Units that own their lines, in order; a unit that does not yields its own units."""
    out: list[int] = []
    todo = list(reversed(candidates))
    while todo:
        i = todo.pop()
        d = defs[i]
        last = defs[out[-1]].end_line if out else floor
        whole = d.has_body or d.kind in CONTAINER_KINDS  # a bare signature stays with its owner
        if whole and d.starts_line and d.ends_line and last < d.start_line <= d.end_line <= ceiling:
            out.append(i)
        else:
            todo.extend(reversed(kids.get(i, [])))
    return out


def _interleave(
    defs: Sequence[Definition],
    units: list[int],
    first: int | None,
    last: int,
    kind: str,
    title: str,
) -> list[int | _Gap]:
    """Units with the gaps around them; `first=None` means no gap before the first unit."""
    tasks: list[int | _Gap] = []
    cursor = first
    for i in units:
        if cursor is not None:
            tasks.append(_Gap(cursor, defs[i].start_line - 1, kind, title))
        tasks.append(i)
        cursor = defs[i].end_line + 1
    tasks.append(_Gap(cursor if cursor is not None else 1, last, kind, title))
    return tasks


def _titled(
    gap: _Gap, defs: Sequence[Definition], starts: Sequence[tuple[int, int]], lines: Sequence[str]
) -> _Gap:
    """A top-level gap that holds one type declaration and only comments besides (Go's
    `type HandlerFunc func(...)`, `type Kind int`, TypeScript's and Rust's `type X = ...`):
    the type's chunk, titled and described as a struct's would be, not untitled glue.
    `starts`: each definition's first line and index, sorted."""
    if gap.kind != "module" or gap.title:
        return gap
    lo, hi = bisect_left(starts, (gap.start, -1)), bisect_right(starts, (gap.end, len(defs)))
    inside = [d for _, i in starts[lo:hi] if (d := defs[i]).end_line <= gap.end]
    if len(inside) != 1 or inside[0].kind != "type" or inside[0].parent is not None:
        return gap
    d = inside[0]
    rest = [*range(gap.start, d.start_line), *range(d.end_line + 1, gap.end + 1)]
    if not all(_COMMENT.match(lines[k - 1]) for k in rest):
        return gap
    meta = {"symbol_kind": d.kind, "signature": d.signature}
    return replace(gap, kind=CHUNK_KINDS.get(d.kind, "class"), title=".".join(d.path), meta=meta)


def _add_gap(gap: _Gap, lines: Sequence[str], pieces: list[_Piece]) -> None:
    start, end = _trim(lines, gap.start, gap.end)
    if start > end:
        return
    if pieces and all(_CLOSER.match(lines[k - 1]) for k in range(start, end + 1)):
        pieces[-1] = replace(pieces[-1], end=end)  # a lone `}` joins the unit it closes
        return
    pieces.append(_Piece(start, end, gap.kind, gap.title, gap.meta))


def _trim(lines: Sequence[str], start: int, end: int) -> tuple[int, int]:
    while start <= end and not lines[start - 1].strip():
        start += 1
    while end >= start and not lines[end - 1].strip():
        end -= 1
    return start, end


def _fit(
    piece: _Piece, lines: Sequence[str], cfg: ChunkConfig, extra: Mapping[str, Any]
) -> list[Chunk]:
    """The piece as one chunk, or as line/column windows when it exceeds the budget."""
    start, end = _trim(lines, piece.start, piece.end)
    if start > end:
        return []
    meta = {**piece.meta, **extra}
    windows = _windows(lines, start, end, max(1, cfg.max_lines), max(1, cfg.max_chars))
    if len(windows) == 1 and windows[0][2] is None:
        text = "\n".join(lines[start - 1 : end])
        return [Chunk(text, start, end, piece.kind, piece.title, meta)]
    out = []
    for n, (a, b, cols) in enumerate(windows, 1):
        part = {**meta, "part": n, "parts": len(windows)}
        if cols is None:
            text = "\n".join(lines[a - 1 : b])
        else:
            part.update(col_start=cols[0], col_end=cols[1])
            text = lines[a - 1][cols[0] : cols[1]]
        out.append(Chunk(text, a, b, piece.kind, piece.title, part))
    return out


Window = tuple[int, int, tuple[int, int] | None]


def _windows(
    lines: Sequence[str], start: int, end: int, max_lines: int, max_chars: int
) -> list[Window]:
    """Consecutive line windows within budget, cut at a blank line where one is near."""
    out: list[Window] = []
    k = start
    while k <= end:
        if len(lines[k - 1]) > max_chars:
            out.extend((k, k, cols) for cols in _columns(lines[k - 1], max_chars))
            k += 1
            continue
        stop, size = k, len(lines[k - 1])
        while stop < end and stop - k + 2 <= max_lines and size + 1 + len(lines[stop]) <= max_chars:
            size += 1 + len(lines[stop])
            stop += 1
        if stop < end:
            blank = next(
                (j for j in range(stop, k + (stop - k) // 2, -1) if not lines[j - 1].strip()), 0
            )
            stop = blank - 1 if blank else stop
        a, b = _trim(lines, k, stop)
        if a <= b:
            out.append((a, b, None))
        k = stop + 1
    return out


def _columns(line: str, max_chars: int) -> list[tuple[int, int]]:
    """Column windows over one overlong line, cut after `;`, `}` or `,` where one is near."""
    out = []
    col = 0
    while col < len(line):
        stop = min(len(line), col + max_chars)
        if stop < len(line):
            floor = col + max_chars * 3 // 4
            cut = max(line.rfind(ch, floor, stop) for ch in _CUT_AFTER)
            stop = cut + 1 if cut >= floor else stop
        if line[col:stop].strip():
            out.append((col, stop))
        col = stop
    return out
