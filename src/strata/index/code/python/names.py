"""Name binding in one Python file: imports to absolute dotted names, and dotted expressions."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from pathlib import PurePosixPath

from strata.text.langs import module_from_path

# Expressions that hold no call, so need no walk (a data table is mostly these).
NO_CALLS = (ast.Name, ast.Constant)


def dotted(expr: ast.expr) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None (calls, subscripts, literals)."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))


def package_of(path: str) -> str:
    """The package a file's relative imports start from (`pkg/__init__.py` -> `pkg`)."""
    module = module_from_path(path)
    if PurePosixPath(path).stem == "__init__":
        return "" if module == "__init__" else module  # the root's own __init__.py
    return module.rpartition(".")[0]


def absolute_module(module: str | None, level: int, path: str) -> str:
    """The absolute name of `from <level dots><module> import ...` written in `path`."""
    if level == 0:
        return module or ""
    base = package_of(path).split(".") if package_of(path) else []
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, module] if module else base)


def import_bindings(stmts: Iterable[ast.stmt], path: str) -> Iterator[tuple[str, str, int]]:
    """(local name, absolute target, line) for each import among `stmts`.

    `import a.b` binds `a` -> `a`; `import a.b as c` binds `c` -> `a.b`;
    `from .x import y as z` binds `z` -> `<package>.x.y`; `from m import *` yields
    (`*`, `m`). Imports nested in `if`/`try`/`with` blocks count; nested defs do not.
    """
    for stmt in flat_statements(stmts):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    yield alias.asname, alias.name, stmt.lineno
                else:
                    head = alias.name.split(".")[0]
                    yield head, head, stmt.lineno
        elif isinstance(stmt, ast.ImportFrom):
            base = absolute_module(stmt.module, stmt.level, path)
            for alias in stmt.names:
                target = f"{base}.{alias.name}" if base else alias.name
                yield (
                    alias.asname or alias.name,
                    base if alias.name == "*" else target,
                    stmt.lineno,
                )


def imported_modules(stmts: Iterable[ast.stmt], path: str) -> Iterator[tuple[str, int]]:
    """(absolute module or name, line) each import statement names, for `imports` edges."""
    for stmt in flat_statements(stmts):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                yield alias.name, stmt.lineno
        elif isinstance(stmt, ast.ImportFrom):
            base = absolute_module(stmt.module, stmt.level, path)
            for alias in stmt.names:
                yield (
                    (base if alias.name == "*" else f"{base}.{alias.name}".strip(".")),
                    stmt.lineno,
                )


# Statements holding blocks that `flat_statements` descends into (defs and classes are not).
_BLOCK_TYPES: set[type[ast.stmt]] = {
    ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try
}  # fmt: skip
if sys.version_info >= (3, 11):  # `try/except*`
    _BLOCK_TYPES.add(ast.TryStar)
_BLOCKS = frozenset(_BLOCK_TYPES)


def flat_statements(stmts: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a block, descending into `if`/`try`/`with`/loops but not into defs."""
    for stmt in stmts:
        yield stmt
        if type(stmt) not in _BLOCKS:  # most statements hold no block: skip the lookups
            continue
        for block in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, block, None)
            if isinstance(inner, list):
                yield from flat_statements(inner)
        for handler in getattr(stmt, "handlers", ()):
            yield from flat_statements(handler.body)


# Statements that hold no statements.
_SIMPLE = frozenset(
    {ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return, ast.Pass, ast.Delete}
    | {ast.Raise, ast.Assert, ast.Global, ast.Nonlocal, ast.Break, ast.Continue}
)


def import_statements(stmts: Iterable[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import among `stmts` and the blocks nested in them, defs and classes included.

    Imports are statements, so only statement lists are walked: `ast.walk` over the whole
    tree visits every expression too, and a generated module is mostly expressions.
    """
    stack = list(stmts)
    while stack:
        stmt = stack.pop()
        kind = type(stmt)
        if kind in _SIMPLE:  # no block inside (a data table is thousands of these)
            continue
        if kind is ast.Import or kind is ast.ImportFrom:
            yield stmt  # type: ignore[misc]
            continue
        for block in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, block, None)
            if isinstance(inner, list):
                stack.extend(inner)
        for handler in getattr(stmt, "handlers", ()):
            stack.extend(handler.body)
        for case in getattr(stmt, "cases", ()):
            stack.extend(case.body)


def assigned_names(stmts: Iterable[ast.stmt]) -> Iterator[tuple[str, ast.stmt]]:
    """(name, statement) for every plain name a block binds by assignment, loop or `with`."""
    for stmt in flat_statements(stmts):
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
            targets = [stmt.target]
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
        for target in targets:
            if type(target) is ast.Name:  # the common case: no walk over its context node
                yield target.id, stmt
                continue
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    yield node.id, stmt
