"""argparse sub-commands: `add_subparsers().add_parser("name")` with `set_defaults(func=...)`."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from strata.index.code.entrypoints.base import (
    Block,
    FileContext,
    FileEntrypoints,
    arg,
    kwarg,
    literal,
    make_entry,
)
from strata.index.code.model import Entrypoint
from strata.index.code.python.names import dotted, flat_statements

FRAMEWORK = "argparse"
_PARSERS = frozenset({"argparse.ArgumentParser"})


@dataclass(slots=True)
class _Command:
    path: list[str]
    line: int
    help: str = ""
    handler: str | None = None
    decorator: str = ""


@dataclass(slots=True)
class _Tracker:
    """Which variable holds which parser or sub-parsers object, in one block."""

    parsers: dict[str, list[str]] = field(default_factory=dict)  # var -> command path
    subparsers: dict[str, list[str]] = field(default_factory=dict)
    commands: list[_Command] = field(default_factory=list)
    by_var: dict[str, _Command] = field(default_factory=dict)


def detect(ctx: FileContext) -> FileEntrypoints:
    """One entry per sub-command, named by its path of parser names (`remote add`)."""
    entries: list[Entrypoint] = []
    for block in ctx.blocks():
        tracker = _Tracker()
        for stmt in flat_statements(block.stmts):
            _statement(ctx, block, stmt, tracker)
        for cmd in tracker.commands:
            handler = ctx.find_def(cmd.handler) if cmd.handler else None
            entries.append(
                make_entry(
                    ctx,
                    handler=handler,
                    framework=FRAMEWORK,
                    entry_type="cli",
                    kind="subcommand",
                    local=" ".join(cmd.path),
                    method=None,
                    decorator=cmd.decorator,
                    payload={"parser_block": block.qname},
                    summary=cmd.help,
                    line=cmd.line,
                    handler_ref=cmd.handler or "",
                )
            )
    return FileEntrypoints(ctx.path, tuple(entries))


def _statement(ctx: FileContext, block: Block, stmt: ast.stmt, t: _Tracker) -> None:
    target = (
        stmt.targets[0].id
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        )
        else None
    )
    value = getattr(stmt, "value", None)
    if not isinstance(value, ast.Call):
        return
    call = value
    if (
        call.func is not None
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "set_defaults"
    ):
        inner = call.func.value
        cmd = (
            _add_parser(ctx, block, inner, t)
            if isinstance(inner, ast.Call)
            else t.by_var.get(dotted(inner) or "")
        )
        func = kwarg(call, "func")
        ref = dotted(func) if func is not None else None
        if cmd is not None and ref:
            cmd.handler = ctx.name(ref, block)
        return
    if ctx.expr_name(call.func, block) in _PARSERS and target:
        t.parsers[target] = []
    elif isinstance(call.func, ast.Attribute) and call.func.attr == "add_subparsers" and target:
        t.subparsers[target] = t.parsers.get(dotted(call.func.value) or "", [])
    elif (cmd := _add_parser(ctx, block, call, t)) is not None and target:
        t.parsers[target] = cmd.path
        t.by_var[target] = cmd


def _add_parser(ctx: FileContext, block: Block, call: ast.Call, t: _Tracker) -> _Command | None:
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "add_parser"):
        return None
    parent = t.subparsers.get(dotted(func.value) or "")
    name = literal(arg(call, 0, "name"))
    if parent is None or not isinstance(name, str):
        return None
    help_text = literal(kwarg(call, "help")) or literal(kwarg(call, "description"))
    cmd = _Command(
        [*parent, name],
        call.lineno,
        help_text if isinstance(help_text, str) else "",
        decorator=ast.unparse(call),
    )
    t.commands.append(cmd)
    return cmd
