"""`if __name__ == "__main__":` blocks: the script entry of a module."""

from __future__ import annotations

import ast

from strata.index.code.entrypoints.base import FileContext, FileEntrypoints, make_entry
from strata.index.code.model import Entrypoint
from strata.index.code.python.names import dotted
from strata.text import pyparse

FRAMEWORK = "python"


def detect(ctx: FileContext) -> FileEntrypoints:
    """One `other` entry per module-level `__main__` guard, its handler the first call in it."""
    entries: list[Entrypoint] = []
    for stmt in pyparse.code_body(ctx.tree):
        if not (isinstance(stmt, ast.If) and _is_main_guard(stmt.test)):
            continue
        ref = _first_call(stmt)
        qname = ctx.name(ref) if ref else ""
        handler = ctx.find_def(qname) if qname else None
        entry = make_entry(
            ctx,
            handler=handler,
            framework=FRAMEWORK,
            entry_type="other",
            kind="main_block",
            local=ctx.module,
            method=None,
            decorator="if __name__ == '__main__':",
            payload={"guard_line": stmt.lineno, "guard_end_line": stmt.end_lineno},
            line=stmt.lineno,
            handler_ref=qname,
        )
        entries.append(entry)
    return FileEntrypoints(ctx.path, tuple(entries))


def _is_main_guard(test: ast.expr) -> bool:
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    values = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return bool(names and values)


def _first_call(node: ast.If) -> str | None:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and sub is not node.test:
            ref = dotted(sub.func)
            if ref and ref not in ("print", "exit", "sys.exit"):
                return ref
    return None
