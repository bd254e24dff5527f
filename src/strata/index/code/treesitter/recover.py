"""Definitions a parse error hid, found by parsing their lines again on their own (pure).

A grammar that fails on one construct (a Perl substitution such as `s/ at \\S+ line \\d+//`,
a here-doc) may turn what follows it into an `ERROR` node of loose tokens (`sub`, a name,
`{`), where the tag query finds nothing: in Perl 5.36's own modules a quarter of the subs
were lost so. The lines of an outermost `ERROR` node that no definition found inside it
covers form runs; each run is parsed again on its own, and its definitions, numbered as
the file's lines, join the file's.
A run that fails again is searched the same way, `MAX_DEPTH` levels at most, so a file is
parsed at most that many more times. A language opts in with its query's `; opens` lines
(strata.index.code.treesitter.tagquery), which also say where a run is cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

import tree_sitter

from strata.index.code.treesitter.outlines import METHOD_OWNERS, Definition, Outline, Reference

__all__ = ["MAX_DEPTH", "cut", "error_runs", "held", "merged", "opened", "openers", "shifted"]

MAX_DEPTH: Final = 4
# An opener that is no word: a name followed by `()` opens a definition (Bash's `name() {`)
PARENS: Final = b"()"
_CALLED = re.compile(rb"^\s*([A-Za-z_][\w:.-]*)\s*\(\)\s*(?:\{\s*)?$")
_NAME = re.compile(rb"[A-Za-z_]\w*(?:(?:::|\.)[A-Za-z_]\w*)*")
_SIGNATURE_CHARS = 300
# A line that is a comment in most languages (`#`, `//`, `/* */`, `--`), not a directive
# (`#include`, `#define`).
_COMMENT = re.compile(rb"^\s*(?:#(?![A-Za-z_])|//|/\*|\*(?![\w*])|\*/|--)")
_MARKS = re.compile(rb"^\s*(?:#+|//+|/\*+|\*+/?|--+)\s?")


def openers(
    found: Sequence[tuple[str, tree_sitter.Node]], declared: Mapping[bytes, str]
) -> dict[bytes, str]:
    """The words a definition opens with and its kind: the keyword each of the `found`
    definitions (kind, node) opens with (`def`, `function`), and the `declared` ones (the
    query's `; opens function: sub`)."""
    out = {
        node.children[0].type.encode(): kind
        for kind, node in found
        if node.children and not node.children[0].is_named and node.children[0].type.isalpha()
    }
    return {**out, **declared}


def error_runs(
    root: tree_sitter.Node,
    found: Sequence[tree_sitter.Node],
    lines: Sequence[bytes],
    span: tuple[int, int],
    opens: Mapping[bytes, str],
    ends: Mapping[int, int],
) -> list[tuple[int, int]]:
    """The runs of lines (1-based, inclusive) of the outermost `ERROR` nodes under `root`
    (itself included), and of the lines a definition holding an error ran on over (below
    what it `held`), that no definition node of `found` inside them covers (a definition
    around the error, a class whose body failed, covers none of it). A run is cut above
    each line that opens with a word of `opens`, and above the comment right over it: one
    definition that fails again does not take the next ones with it. `span`: the lines
    parsed; a run that is all of them would only fail the same way again. `lines`: the
    source's, split at newlines; `ends`: what each node of `found` `held`, by its id."""
    regions = [(e.start_point.row + 1, _last_row(e) + 1) for e in _errors(root)]
    regions += [
        (ends[node.id] + 1, _last_row(node) + 1)
        for node in found
        if node.has_error and ends[node.id] <= _last_row(node)
    ]
    runs: list[tuple[int, int]] = []
    for first, last in _union(regions):
        covered: set[int] = set()
        for node in found:
            top, end = node.start_point.row + 1, ends[node.id]
            if first <= top and end <= last:
                covered.update(range(top, end + 1))
        runs += _free_runs(lines, first, last, covered, opens)
    return [run for run in runs if run != span]


def _union(regions: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The regions (line ranges) merged where they overlap or touch, in order."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(regions):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _free_runs(
    lines: Sequence[bytes], first: int, last: int, covered: set[int], opens: Mapping[bytes, str]
) -> list[tuple[int, int]]:
    """The runs of the lines `first..last` not `covered`, each cut above a line that opens
    a definition (and the comment over it)."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for line in range(first, last + 2):
        free = line <= last and line not in covered
        if start is not None and free and _opener(lines[line - 1], opens) is not None:
            top = _doc_top(lines, line, start)  # the comment above goes with it
            if top > start:
                runs.append((start, top - 1))
                start = top
        elif start is not None and not free:
            runs.append((start, line - 1))
            start = None
        if free and start is None:
            start = line
    return runs


def held(node: tree_sitter.Node, lines: Sequence[bytes], opens: Mapping[bytes, str]) -> int:
    """The last line (1-based) definition `node` really holds: for a node that holds a parse
    error, the line above the first later line that opens a definition (a word of `opens`)
    no deeper than `node`'s own, and above the comment right over it; a grammar that failed
    in one body may run it on over the next definitions. Otherwise `node`'s last line."""
    first, last = node.start_point.row + 1, _last_row(node) + 1
    if not node.has_error:
        return last
    depth = _indent(lines[first - 1])
    for line in range(first + 1, last + 1):
        text = lines[line - 1]
        if _indent(text) <= depth and _opener(text, opens) is not None:
            end = _doc_top(lines, line, first + 1) - 1
            while end > first and not lines[end - 1].strip():
                end -= 1
            return end
    return last


def cut(definitions: Sequence[Definition], ends: Mapping[int, int]) -> list[Definition]:
    """`definitions` with each one's end moved up to `ends[i]` (what it `held`; never above
    its declaration), and those below a parent's new end given the parent that still holds
    them (or none), their paths and kinds as under it."""
    old = [d.path for d in definitions]
    out = list(definitions)
    for i, d in enumerate(definitions):
        end = min(max(ends.get(i, d.end_line), d.decl_line), d.end_line)
        parent = d.parent
        while parent is not None and out[parent].end_line < d.decl_line:
            parent = out[parent].parent
        tail = d.path[len(old[d.parent]) :] if d.parent is not None else d.path
        path = (out[parent].path if parent is not None else ()) + tail
        kind = d.kind
        if kind == "method" and (parent is None or out[parent].kind not in METHOD_OWNERS):
            kind = "function"
        out[i] = replace(d, end_line=end, parent=parent, path=path, kind=kind)
    return out


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip())


def _doc_top(lines: Sequence[bytes], line: int, floor: int) -> int:
    """The first of the comment lines directly above `line` (not above `floor`)."""
    top = line
    while top > floor and _COMMENT.match(lines[top - 2]):
        top -= 1
    return top


def opened(
    lines: Sequence[bytes], run: tuple[int, int], part: Outline, opens: Mapping[bytes, str]
) -> Outline:
    """`part`, the outline of `run`, with a definition at the run's first line of code when
    that line opens one (a word of `opens`, a name, no `;` at its end) and the parse found
    none there: a definition whose own body the grammar cannot read. The comment right
    above it is its doc; it runs to the line above the next definition found, or to the
    run's last line of code, and owns the uses on its lines that nothing else does."""
    first, last = run
    decl = first
    while decl < last and (_COMMENT.match(lines[decl - 1]) or not lines[decl - 1].strip()):
        decl += 1
    head = lines[decl - 1].strip()
    kind = _opener(head, opens)
    name = _opened_name(head, opens) if kind is not None else None
    if kind is None or name is None or head.endswith(b";"):
        return part
    if any(d.decl_line == decl for d in part.definitions):
        return part
    below = [d.start_line for d in part.definitions if d.start_line > decl]
    end = min(below, default=last + 1) - 1
    while end > decl and (not lines[end - 1].strip() or _COMMENT.match(lines[end - 1])):
        end -= 1
    top = _doc_top(lines, decl, first)
    doc = b"\n".join(_MARKS.sub(b"", lines[i - 1]).strip() for i in range(top, decl))
    bare = re.split(r"::|\.", name.group().decode())[-1]
    made = Definition(
        kind=kind,
        name=bare,
        path=(bare,),
        start_line=top,
        end_line=end,
        decl_line=decl,
        signature=head.decode("utf-8", "replace")[:_SIGNATURE_CHARS],
        doc=doc.decode("utf-8", "replace").strip(),
        parent=None,
        has_body=True,
        starts_line=True,
        ends_line=True,
    )
    shift = [
        replace(d, parent=d.parent + 1 if d.parent is not None else None) for d in part.definitions
    ]
    refs = [
        replace(r, owner=r.owner + 1 if r.owner is not None else _within(r.line, decl, end))
        for r in part.references
    ]
    return Outline((made, *shift), tuple(refs), part.has_errors)


def _within(line: int, first: int, end: int) -> int | None:
    """0 (the definition made at `first`) for a line of its own, else None."""
    return 0 if first <= line <= end else None


def _opener(line: bytes, opens: Mapping[bytes, str]) -> str | None:
    """The kind of definition `line` opens, by its first word (`sub` in `sub name {`), or
    by a name and `()` when the query's openers hold `()` (a shell's `name() {`)."""
    words = line.split(None, 1)
    if not words:
        return None
    if PARENS in opens and _CALLED.match(line):
        return opens[PARENS]
    return opens.get(words[0])


def _opened_name(line: bytes, opens: Mapping[bytes, str]) -> re.Match[bytes] | None:
    """The name a line `_opener` reads opens: after its first word, or before its `()`."""
    if PARENS in opens and (m := _CALLED.match(line)):
        return _NAME.match(m.group(1))
    words = line.split(None, 1)
    return _NAME.match(words[1]) if len(words) > 1 else None


def shifted(part: Outline, by: int) -> Outline:
    """`part`, the outline of a run parsed on its own, with its lines numbered in the file
    (the run starts `by` lines down)."""
    return Outline(
        tuple(
            replace(
                d,
                start_line=d.start_line + by,
                end_line=d.end_line + by,
                decl_line=d.decl_line + by,
            )
            for d in part.definitions
        ),
        tuple(replace(r, line=r.line + by) for r in part.references),
        part.has_errors,
    )


@dataclass(slots=True)
class _Entry:
    definition: Definition
    parent: _Entry | None


def merged(base: Outline, parts: Sequence[tuple[tuple[int, int], Outline]]) -> Outline:
    """`base` with what each run's outline found: a definition `base` has at the same line
    is kept once; a new one inside a definition of `base` (a method of a class whose body
    failed) is its child; the run's references replace those `base` has on its lines."""
    mains = [_Entry(d, None) for d in base.definitions]
    for entry in mains:
        parent = entry.definition.parent
        entry.parent = mains[parent] if parent is not None else None
    entries = list(mains)
    at = {(e.definition.name, e.definition.decl_line): e for e in entries}
    added = False
    refs: list[tuple[Reference, _Entry | None]] = []
    for _, part in parts:
        mine: list[_Entry | None] = []
        for d in part.definitions:
            same = at.get((d.name, d.decl_line))
            if same is not None:
                mine.append(same)
                continue
            up = mine[d.parent] if d.parent is not None else _enclosing(mains, d)
            theirs = part.definitions[d.parent].path if d.parent is not None else ()
            entry = _Entry(_under(d, up.definition if up else None, theirs), up)
            entries.append(entry)
            mine.append(entry)
            at[(d.name, d.decl_line)] = entry
            added = True
        refs += [(r, mine[r.owner] if r.owner is not None else None) for r in part.references]
    if not added:
        return base
    entries.sort(key=lambda e: (e.definition.decl_line, -e.definition.end_line))
    index = {id(e): i for i, e in enumerate(entries)}
    definitions = tuple(
        replace(e.definition, parent=index[id(e.parent)] if e.parent else None) for e in entries
    )
    runs = [run for run, _ in parts]
    kept = [
        (r, mains[r.owner] if r.owner is not None else None)
        for r in base.references
        if not any(a <= r.line <= b for a, b in runs)
    ]
    references = sorted(
        (replace(r, owner=index[id(e)] if e else None) for r, e in [*kept, *refs]),
        key=lambda r: r.line,
    )
    return Outline(definitions, tuple(references), base.has_errors)


def _enclosing(entries: Sequence[_Entry], d: Definition) -> _Entry | None:
    """The innermost of `entries` whose lines hold all of `d`'s."""
    around = [
        e
        for e in entries
        if e.definition.start_line <= d.start_line and d.end_line <= e.definition.end_line
    ]
    return max(around, key=_depth, default=None)


def _depth(e: _Entry) -> tuple[int, int]:
    return e.definition.start_line, -e.definition.end_line


def _under(d: Definition, owner: Definition | None, theirs: tuple[str, ...]) -> Definition:
    """`d`, found in a run under a definition whose path there was `theirs`, named and kinded
    under `owner`, the definition it lies in now."""
    path = (owner.path if owner else ()) + d.path[len(theirs) :]
    kind = d.kind
    if kind == "function" and owner is not None and owner.kind in METHOD_OWNERS:
        kind = "method"
    return replace(d, kind=kind, path=path)


def _errors(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """The outermost `ERROR` nodes at or under `node` (no recursion: deep trees are safe)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.is_error:
            yield n
        elif n.has_error:
            stack.extend(reversed(n.children))


def _last_row(node: tree_sitter.Node) -> int:
    """The 0-based last row `node` has text on (a node ending at column 0 ends above)."""
    end = node.end_point
    return end.row - 1 if end.column == 0 and end.row > node.start_point.row else end.row
