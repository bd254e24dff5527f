"""The classes, functions and methods of a Python tree, with spans, from the AST."""

from __future__ import annotations

import ast
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from benchmarks.quality.blanking import standalone_docstring
from benchmarks.quality.model import read_lines

log = logging.getLogger(__name__)

_DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True, slots=True)
class Definition:
    """One `def` or `class`: `start` is its first decorator's line, `end` its last line.

    `qualname` is `Class.method` for methods and the bare name at module level;
    `doc_span` is the docstring's own lines (see `standalone_docstring`), if any.
    """

    path: str
    name: str
    qualname: str
    kind: str
    start: int
    end: int
    doc: str | None
    doc_span: tuple[int, int] | None


def python_files(root: Path) -> list[str]:
    """Every `.py` file under `root`, as sorted POSIX paths relative to it."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py") if p.is_file())


def definitions(root: Path, rel: str) -> list[Definition]:
    """The module-level functions and classes of one file, and the methods of its classes."""
    path = root / rel
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except SyntaxError as exc:
        log.warning("skip %s: %s", rel, exc)
        return []
    lines = read_lines(path)
    return list(_walk(tree.body, rel, lines, owner=None))


def _walk(
    body: list[ast.stmt], rel: str, lines: list[str], owner: str | None
) -> Iterator[Definition]:
    for node in body:
        if not isinstance(node, _DefNode):
            continue
        kind = "class" if isinstance(node, ast.ClassDef) else "method" if owner else "function"
        qualname = f"{owner}.{node.name}" if owner else node.name
        yield _definition(node, rel, lines, qualname, kind)
        if isinstance(node, ast.ClassDef) and owner is None:
            yield from _walk(node.body, rel, lines, owner=node.name)


def _definition(node: _DefNode, rel: str, lines: list[str], qualname: str, kind: str) -> Definition:
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return Definition(
        path=rel,
        name=node.name,
        qualname=qualname,
        kind=kind,
        start=start,
        end=node.end_lineno or node.lineno,
        doc=ast.get_docstring(node),
        doc_span=standalone_docstring(node, lines),
    )
