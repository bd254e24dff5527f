"""Chunks of source in a language with a grammar but no tag query: syntax nodes merged.

The way semble chunks any language: the file's top-level nodes, each too large for a chunk
opened into its children (and so on down), are merged in order while they fit a window
(`window_lines`, `max_chars`). Unlike line windows, a cut falls between statements and
definitions, never inside a short one, and a comment stays with the node right below it.
Spans are whole lines: nodes that share a line go into one chunk, and each chunk runs to
the line before the next, so every line is covered once; the budget is kept as elsewhere.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import tree_sitter

from strata.config import ChunkConfig
from strata.index.chunking.budget import Budget, Source, fit
from strata.index.code.treesitter.nodes import is_comment
from strata.index.code.treesitter.tagquery import parse
from strata.types import Chunk


@dataclass(frozen=True, slots=True)
class _Unit:
    """A node's lines (1-based, inclusive) and whether it is a comment."""

    start: int
    end: int
    comment: bool


def chunk(text: str, lang: str, cfg: ChunkConfig) -> list[Chunk]:
    """Split one file into chunks of whole syntax nodes (pure).

    Args:
        text: the file's text; spans are 1-based lines of `text.split("\\n")`.
        lang: a language with a grammar (`strata.index.code.treesitter.grammars`).
        cfg: the window (`window_lines`) and the budget (`max_lines`, `max_chars`).

    Returns:
        `block` chunks in file order, without overlap, covering every non-blank line.
    """
    src = Source.of(text)
    budget = Budget.of(cfg)
    window = Budget(
        min(budget.max_lines, max(1, cfg.window_lines or budget.max_lines)), budget.max_chars
    )
    tree = parse(text, lang)
    units = _units(tree.root_node, src, window)
    starts = [g[0].start for g in _groups(units, src, window)]
    extra = {"parse_errors": True} if tree.root_node.has_error else {}
    chunks: list[Chunk] = []
    bounds = [src.first, *starts[1:], src.last + 1] if starts else [src.first, src.last + 1]
    breaks = {u.start: 0 for u in units}
    for a, b in itertools.pairwise(bounds):
        chunks.extend(fit(src, a, b - 1, budget, kind="block", metadata=extra, breaks=breaks))
    return chunks


def _units(root: tree_sitter.Node, src: Source, window: Budget) -> list[_Unit]:
    """The nodes chunks are made of, in order: a node that fits the window is a unit, a
    larger one is opened (a leaf too large stays whole, for the budget to cut)."""
    out: list[_Unit] = []
    stack = list(reversed(root.children))
    while stack:
        node = stack.pop()
        start, end = _lines(node)
        if end < start:
            continue
        too_big = end - start + 1 > window.max_lines or src.chars(start, end) > window.max_chars
        if too_big and node.child_count:
            stack.extend(reversed(node.children))
        else:
            out.append(_Unit(start, end, is_comment(node)))
    return out


def _lines(node: tree_sitter.Node) -> tuple[int, int]:
    """A node's first and last line with text (a node ending at column 0 ends above)."""
    start, end = node.start_point, node.end_point
    last = end.row - 1 if end.column == 0 and end.row > start.row else end.row
    return start.row + 1, last + 1


def _groups(units: list[_Unit], src: Source, window: Budget) -> list[list[_Unit]]:
    """Consecutive units merged while they fit the window; a unit sharing a line with the
    group always joins it, and comments just above a unit that starts a new group move
    with it."""
    groups: list[list[_Unit]] = []
    group: list[_Unit] = []
    last = 0  # the group's last line
    for unit in units:
        if not group:
            group, last = [unit], unit.end
            continue
        first = group[0].start
        fits = (
            unit.end - first + 1 <= window.max_lines
            and src.chars(first, unit.end) <= window.max_chars
        )
        if unit.start <= last or fits:
            group.append(unit)
            last = max(last, unit.end)
            continue
        moved: list[_Unit] = []
        below = unit.start
        while len(group) > 1 and group[-1].comment and group[-1].end == below - 1:
            below = group[-1].start
            moved.insert(0, group.pop())
        if moved and group[-1].end >= moved[0].start:  # a trailing comment on the line above
            group.extend(moved)
            moved = []
        groups.append(group)
        group = [*moved, unit]
        last = max(u.end for u in group)
    if group:
        groups.append(group)
    return groups
