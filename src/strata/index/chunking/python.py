"""Python chunking with the stdlib AST: functions, methods, class headers and module blocks."""

from __future__ import annotations

import ast
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from strata.config import ChunkConfig
from strata.index.chunking.budget import Budget, Source, fit
from strata.index.chunking.windows import line_windows
from strata.text import pyparse
from strata.types import Chunk

logger = logging.getLogger(__name__)

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# Fields of statements and their helpers (except handlers, match cases) holding statements.
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")
# Statements with statement lists under them (the others need no visit).
_COMPOUND = (
    *_DEFINITIONS,
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.Try,
    ast.With,
    ast.AsyncWith,
    ast.Match,
    *(getattr(ast, name) for name in ("TryStar",) if hasattr(ast, name)),  # `except*`
)
_MAX_SIGNATURE = 300


@dataclass(frozen=True, slots=True)
class _Unit:
    """A definition and its span, decorators and directly preceding comments included."""

    node: Definition
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _File:
    src: Source
    budget: Budget
    breaks: Mapping[int, int]
    signatures: dict[int, str] = field(default_factory=dict)  # by node id: unparse is slow

    def signature(self, node: Definition) -> str:
        if id(node) not in self.signatures:
            self.signatures[id(node)] = signature(node)
        return self.signatures[id(node)]


def chunk_python(text: str, cfg: ChunkConfig) -> list[Chunk]:
    """Chunks of a Python file, one per function, method, class header or module block.

    Falls back to line windows (with `metadata["fallback"]`) when the file does not parse.
    """
    try:
        tree = _parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        return _fallback(text, cfg, exc)
    src = Source.of(text)
    ctx = _File(src, Budget.of(cfg), statement_breaks(tree))
    units = _units(src, tree.body, src.first - 1, src.last)
    return _emit(ctx, units, src.first, src.last, "module", prefix="")


def _parse(text: str) -> ast.Module:
    # The tokenizer also ends lines at a lone CR; the chunk contract counts LF only.
    source = text.replace("\r", " ") if "\r" in text else text
    return pyparse.parse(source)


def _fallback(text: str, cfg: ChunkConfig, exc: Exception) -> list[Chunk]:
    if isinstance(exc, RecursionError):
        reason = "too deeply nested to parse"
    else:
        line = getattr(exc, "lineno", None)
        if line is None and "\0" in text:
            line = text.count("\n", 0, text.index("\0")) + 1
        reason = f"syntax error line {line or 1}"
    logger.debug("python chunker falls back to windows: %s", reason)
    windows = line_windows(text, cfg)
    return [replace(c, metadata={**c.metadata, "fallback": reason}) for c in windows]


def statement_breaks(tree: ast.Module) -> dict[int, int]:
    """Line -> nesting depth of the statements starting there (module level is 0).

    These are the preferred places to cut a unit too large for the budget.
    """
    breaks: dict[int, int] = {}
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        for name in _BODIES:
            for child in getattr(node, name, None) or ():
                if not isinstance(child, ast.AST):
                    continue
                if isinstance(child, ast.stmt):
                    line = _first_line(child)
                    breaks[line] = min(breaks.get(line, depth), depth)
                    if isinstance(child, _COMPOUND):  # a simple statement holds none
                        stack.append((child, depth + 1))
                else:  # an except handler or a match case: its body is the statement's
                    stack.append((child, depth))
    return breaks


def _first_line(node: ast.stmt) -> int:
    if isinstance(node, _DEFINITIONS) and node.decorator_list:
        return min(node.lineno, *(d.lineno for d in node.decorator_list))
    return node.lineno


def _units(src: Source, body: Sequence[ast.stmt], floor: int, ceiling: int) -> list[_Unit]:
    """The definitions of a statement list with their spans.

    Args:
        src: the file.
        body: the statements of a module or class body.
        floor: the last line before the body (leading comments stop above it).
        ceiling: the last line of the body's owner (trailing comments stop below it).
    """
    units: list[_Unit] = []
    prev_end = floor
    for i, node in enumerate(body):
        if isinstance(node, _DEFINITIONS):
            nxt = _first_line(body[i + 1]) - 1 if i + 1 < len(body) else ceiling
            start = _leading(src, node, prev_end)
            units.append(_Unit(node, start, _trailing(src, node, nxt)))
            prev_end = units[-1].end
        else:
            prev_end = node.end_lineno or node.lineno
    return units


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _leading(src: Source, node: Definition, floor: int) -> int:
    """First line of a definition: its decorators and directly preceding comments."""
    start = _first_line(node)
    while start - 1 > floor and _is_comment(src.line(start - 1)):
        if start - 1 == src.first and src.line(start - 1).startswith("#!"):
            break  # a shebang belongs to the module, not to its first function
        start -= 1
    return start


def _trailing(src: Source, node: Definition, ceiling: int) -> int:
    """Last line of a definition: its body, then comments indented deeper than its header."""
    end = node.end_lineno or node.lineno
    line = end + 1
    while line <= ceiling:
        text = src.line(line)
        stripped = text.lstrip()
        deeper = len(text) - len(stripped) > node.col_offset
        if stripped and not (stripped.startswith("#") and deeper):
            break
        if stripped:
            end = line
        line += 1
    return end


def _emit(
    ctx: _File, units: Sequence[_Unit], first: int, last: int, gap_kind: str, prefix: str
) -> list[Chunk]:
    """Chunks of lines `first..last`: each unit's, and the gaps between units as blocks."""
    chunks: list[Chunk] = []
    cursor = first
    for unit in units:
        chunks += _gap(ctx, cursor, unit.start - 1, gap_kind, prefix)
        chunks += _unit_chunks(ctx, unit, prefix)
        cursor = unit.end + 1
    chunks += _gap(ctx, cursor, last, gap_kind, prefix)
    return chunks


def _gap(ctx: _File, first: int, last: int, kind: str, title: str) -> list[Chunk]:
    if first > last:
        return []
    return fit(ctx.src, first, last, ctx.budget, kind=kind, title=title, breaks=ctx.breaks)


def _unit_chunks(ctx: _File, unit: _Unit, prefix: str) -> list[Chunk]:
    node = unit.node
    qualname = f"{prefix}.{node.name}" if prefix else node.name
    meta: dict[str, Any] = {"symbol": qualname, "signature": ctx.signature(node)}
    if isinstance(node, ast.ClassDef):
        return _class_chunks(ctx, unit, qualname, meta)
    kind = "method" if prefix else "function"  # units are only looked for in classes
    if any(_name_of(d) == "overload" for d in node.decorator_list):
        meta["declaration"] = True  # a signature the undecorated definition after it has
    return fit(
        ctx.src,
        unit.start,
        unit.end,
        ctx.budget,
        kind=kind,
        title=qualname,
        metadata=meta,
        breaks=ctx.breaks,
    )


def _class_chunks(ctx: _File, unit: _Unit, qualname: str, meta: dict[str, Any]) -> list[Chunk]:
    """The class header (with the outline of its members), then its members and blocks."""
    node = unit.node
    members = _units(ctx.src, node.body, node.lineno, unit.end)
    meta["outline"] = [ctx.signature(m.node) for m in members]
    header_end = members[0].start - 1 if members else unit.end
    chunks = fit(
        ctx.src,
        unit.start,
        header_end,
        ctx.budget,
        kind="class",
        title=qualname,
        metadata=meta,
        breaks=ctx.breaks,
    )
    if members:
        chunks += _emit(ctx, members, members[0].start, unit.end, "block", qualname)
    return chunks


def _name_of(decorator: ast.expr) -> str:
    """A decorator's last name: `overload` for `@typing.overload`."""
    if isinstance(decorator, ast.Attribute):
        return decorator.attr
    return decorator.id if isinstance(decorator, ast.Name) else ""


def signature(node: Definition) -> str:
    """The one-line signature of a definition, e.g. `def send(self, request) -> Response`."""
    if isinstance(node, ast.ClassDef):
        bases = [ast.unparse(b) for b in node.bases] + [ast.unparse(k) for k in node.keywords]
        text = f"class {node.name}({', '.join(bases)})" if bases else f"class {node.name}"
    else:
        keyword = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
        text = f"{keyword} {node.name}({ast.unparse(node.args)})"
        if node.returns is not None:
            text += f" -> {ast.unparse(node.returns)}"
    return text if len(text) <= _MAX_SIGNATURE else text[: _MAX_SIGNATURE - 3] + "..."
