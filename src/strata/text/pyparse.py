"""Parse Python source once per file: every Python layer (chunks, symbols, edges, entry
points) asks for the same tree, so the last few parses are kept until `forget`."""

from __future__ import annotations

import ast
import functools
import re
import warnings


@functools.lru_cache(maxsize=4)
def parse(text: str) -> ast.Module:
    """The module's AST (shared: callers must not mutate it).

    Raises:
        SyntaxError, ValueError, RecursionError: the text is not parseable Python.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes and the like are not our business
        return ast.parse(text)


# A data table: at least this many adjacent module statements `NAME = literal`. Its
# constants are kept in blocks (C1 and C4 rows of `DATA_BLOCK` names each), and the other
# walks over the module (scope, edges, entry points) pass over it: it holds no call, import
# or reference. Fewer adjacent constants are an ordinary module's, one row each.
DATA_RUN = 256
DATA_BLOCK = 64
_LITERAL_ITEMS = 32  # a tuple or list of at most this many plain literals is a literal


@functools.lru_cache(maxsize=4)
def literal_runs(tree: ast.Module) -> tuple[tuple[int, int], ...]:
    """The (start, end) statement indices in `tree.body` of each data table's run of
    `NAME = literal` assignments (`DATA_RUN` or more in a row; end exclusive)."""
    runs: list[tuple[int, int]] = []
    start = -1
    body = tree.body
    for i, stmt in enumerate(body):
        if is_literal_assign(stmt):
            if start < 0:
                start = i
            continue
        if start >= 0 and i - start >= DATA_RUN:
            runs.append((start, i))
        start = -1
    if start >= 0 and len(body) - start >= DATA_RUN:
        runs.append((start, len(body)))
    return tuple(runs)


def is_literal_assign(stmt: ast.stmt) -> bool:
    """`NAME = 1`, `NAME = -2.5`, `NAME = "x"`, `NAME = (1, 2)`: one upper-case name bound
    to a plain literal (no name, call or operator other than a sign)."""
    if type(stmt) is not ast.Assign or len(stmt.targets) != 1:
        return False
    target = stmt.targets[0]
    if type(target) is not ast.Name or not _UPPER.match(target.id):
        return False
    value = stmt.value
    if type(value) in (ast.Tuple, ast.List):
        items = value.elts  # type: ignore[attr-defined]
        return len(items) <= _LITERAL_ITEMS and all(_plain_literal(v) for v in items)
    return _plain_literal(value)


def _plain_literal(value: ast.expr) -> bool:
    if type(value) is ast.Constant:
        return True
    return (
        type(value) is ast.UnaryOp
        and type(value.op) in (ast.USub, ast.UAdd)
        and type(value.operand) is ast.Constant
    )


_UPPER = re.compile(r"^_?[A-Z][A-Z0-9_]*$")  # a constant's name, as `symbols._CONSTANT`


@functools.lru_cache(maxsize=4)
def code_body(tree: ast.Module) -> list[ast.stmt]:
    """The module's statements less its data tables' runs (`literal_runs`): what a walk for
    imports, calls, bindings or entry points reads. The tree's own list when it has none."""
    runs = literal_runs(tree)
    if not runs:
        return tree.body
    out: list[ast.stmt] = []
    done = 0
    for start, end in runs:
        out += tree.body[done:start]
        done = end
    return out + tree.body[done:]


@functools.lru_cache(maxsize=4)
def literal_names(tree: ast.Module) -> tuple[str, ...]:
    """The names the data tables' runs bind (what `code_body` leaves out)."""
    body = tree.body
    return tuple(
        body[i].targets[0].id  # type: ignore[attr-defined]
        for start, end in literal_runs(tree)
        for i in range(start, end)
    )


def forget() -> None:
    """Drop the kept trees and what was read off them, once a file's layers are built: a
    tree is ~60 times its source (270 MB for a 4 MB generated module), and kept it would
    still be held while the file's rows are written and the next files are read."""
    for cached in (parse, literal_runs, code_body, literal_names):
        cached.cache_clear()
