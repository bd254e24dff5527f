"""Click and Typer commands: decorators, nested groups, `add_command`, `add_typer`, names."""

from __future__ import annotations

import ast

from strata.index.code.entrypoints.base import (
    Block,
    FileContext,
    FileEntrypoints,
    FuncNode,
    Mount,
    Owner,
    arg,
    assignments,
    calls,
    decorated,
    kwarg,
    literal,
    make_entry,
)
from strata.index.code.model import Entrypoint

_CLICK_ROOTS = {
    "click.command": "command",
    "click.group": "group",
    "click.decorators.command": "command",
    "click.decorators.group": "group",
}
_CLICK_GROUPS = frozenset({"click.Group", "click.core.Group", "click.MultiCommand"})
_TYPER_CTORS = frozenset({"typer.Typer", "typer.main.Typer"})
_SUFFIXES = ("command", "cmd", "group", "grp")


def click_name(function: str) -> str:
    """The command name click derives from a function name (click >= 8.2).

    Underscores become dashes, and a trailing `_command`, `_cmd`, `_group` or `_grp`
    is dropped: `init_db_command` -> `init-db`.
    """
    name = function.lower().replace("_", "-")
    left, sep, suffix = name.rpartition("-")
    return left if sep and suffix in _SUFFIXES else name


def typer_name(function: str) -> str:
    """The command name Typer derives from a function name: `create_user` -> `create-user`."""
    return function.lower().replace("_", "-")


def detect(ctx: FileContext) -> FileEntrypoints:
    """Click/Typer command entries, their nodes (groups, Typer apps) and mounts."""
    typer_apps = _typer_apps(ctx)
    owners = list(typer_apps.values()) + _click_group_objects(ctx)
    known = {o.key: o for o in owners}
    entries: list[Entrypoint] = []
    mounts: list[Mount] = []
    for node, deco, block in decorated(ctx):
        if not isinstance(node, FuncNode):
            continue
        found = _command_decorator(ctx, deco, block, known)
        if found is None:
            continue
        framework, kind, parent = found
        call = deco if isinstance(deco, ast.Call) else None
        given = literal(arg(call, 0, "name")) if call is not None else None
        derive = typer_name if framework == "typer" else click_name
        name = given if isinstance(given, str) else derive(node.name)
        key = f"{block.qname}.{node.name}"
        help_text = literal(kwarg(call, "help")) if call is not None else None
        owners.append(Owner(key, framework, kind, name))
        if parent:
            mounts.append(Mount(parent, key, framework, None, deco.lineno))
        entries.append(
            make_entry(
                ctx,
                handler=node,
                framework=framework,
                entry_type="cli",
                kind=kind,
                local=name,
                method=None,
                decorator=f"@{ast.unparse(deco)}",
                payload={"node": key},
                summary=help_text if isinstance(help_text, str) else "",
            )
        )
    mounts += _added(ctx, known)
    return FileEntrypoints(ctx.path, tuple(entries), tuple(owners), tuple(mounts))


def _command_decorator(
    ctx: FileContext, deco: ast.expr, block: Block, known: dict[str, Owner]
) -> tuple[str, str, str | None] | None:
    """(framework, kind, parent key or None) when `deco` makes a Click/Typer command."""
    target = deco.func if isinstance(deco, ast.Call) else deco
    full = ctx.expr_name(target)
    if full in _CLICK_ROOTS:
        return "click", _CLICK_ROOTS[full], None
    if not isinstance(target, ast.Attribute) or target.attr not in ("command", "group"):
        return None
    parent = ctx.expr_name(target.value, block)
    if parent is None:
        return None
    if parent in known and known[parent].framework == "typer":
        return ("typer", "command", parent) if target.attr == "command" else None
    if parent in known or ctx.imports_root("click") or not ctx.imports_root("typer"):
        return "click", target.attr, parent
    return ("typer", "command", parent) if target.attr == "command" else None


def _typer_apps(ctx: FileContext) -> dict[str, Owner]:
    out = {}
    for block in ctx.blocks():
        for name, call in assignments(block):
            if ctx.expr_name(call.func, block) in _TYPER_CTORS:
                given = literal(kwarg(call, "name"))
                key = ctx.name(name, block)
                out[key] = Owner(key, "typer", "app", given if isinstance(given, str) else "")
    return out


def _click_group_objects(ctx: FileContext) -> list[Owner]:
    out = []
    for block in ctx.blocks():
        for name, call in assignments(block):
            if ctx.expr_name(call.func, block) in _CLICK_GROUPS:
                given = literal(arg(call, 0, "name"))
                out.append(
                    Owner(
                        ctx.name(name, block),
                        "click",
                        "group",
                        given if isinstance(given, str) else "",
                    )
                )
    return out


def _added(ctx: FileContext, known: dict[str, Owner]) -> list[Mount]:
    """`group.add_command(cmd, name=...)` and `app.add_typer(sub, name=...)`."""
    out = []
    for block in ctx.blocks():
        for call in calls(block):
            func = call.func
            if not isinstance(func, ast.Attribute) or func.attr not in ("add_command", "add_typer"):
                continue
            parent = ctx.expr_name(func.value, block)
            child_expr = arg(call, 0, "cmd" if func.attr == "add_command" else "typer_instance")
            child = ctx.expr_name(child_expr, block) if child_expr is not None else None
            if parent is None or child is None:
                continue
            name = literal(arg(call, 1, "name"))
            framework = "typer" if func.attr == "add_typer" else "click"
            out.append(
                Mount(
                    parent, child, framework, name if isinstance(name, str) else None, call.lineno
                )
            )
    return out
