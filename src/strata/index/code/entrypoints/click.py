"""Click and Typer commands: decorators, nested groups, `add_command`, `add_typer`, names."""

from __future__ import annotations

import ast

from strata.index.code.entrypoints import base
from strata.index.code.entrypoints.base import (
    Block,
    FileContext,
    FileEntrypoints,
    FuncNode,
    Mount,
    Owner,
)
from strata.index.code.model import Entrypoint

_CLICK_ROOTS = {
    "click.command": "command",
    "click.group": "group",
    "click.decorators.command": "command",
    "click.decorators.group": "group",
}
_CLICK_GROUPS = {"click.Group": "group", "click.core.Group": "group", "click.MultiCommand": "group"}
_TYPER_CTORS = {"typer.Typer": "app", "typer.main.Typer": "app"}
_ADDERS = frozenset({"add_command", "add_typer"})
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
    for node, deco, block in base.decorated(ctx):
        if not isinstance(node, FuncNode):
            continue
        found = _command_decorator(ctx, deco, block, known)
        if found is None:
            continue
        framework, kind, parent = found
        call = deco if isinstance(deco, ast.Call) else None
        given = base.literal(base.arg(call, 0, "name")) if call is not None else None
        derive = typer_name if framework == "typer" else click_name
        name = given if isinstance(given, str) else derive(node.name)
        key = f"{block.qname}.{node.name}"
        help_text = base.literal(base.kwarg(call, "help")) if call is not None else None
        owners.append(Owner(key, framework, kind, name))
        if parent:
            mounts.append(Mount(parent, key, framework, None, deco.lineno))
        entries.append(
            base.make_entry(
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
    mounts += _added(ctx)
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
    return {
        key: Owner(key, "typer", kind, base.text_of(base.kwarg(call, "name")))
        for key, call, kind in base.constructed(ctx, _TYPER_CTORS)
    }


def _click_group_objects(ctx: FileContext) -> list[Owner]:
    return [
        Owner(key, "click", kind, base.text_of(base.arg(call, 0, "name")))
        for key, call, kind in base.constructed(ctx, _CLICK_GROUPS)
    ]


def _added(ctx: FileContext) -> list[Mount]:
    """`group.add_command(cmd, name=...)` and `app.add_typer(sub, name=...)`."""
    out = []
    for block, call, attr, parent in base.method_calls(
        ctx, frozenset({"add_command", "add_typer"})
    ):
        typer = attr == "add_typer"
        child = base.named_child(
            ctx, block, base.arg(call, 0, "typer_instance" if typer else "cmd")
        )
        if parent is None or child is None:
            continue
        name = base.literal(base.arg(call, 1, "name"))
        segment = name if isinstance(name, str) else None
        out.append(Mount(parent, child, "typer" if typer else "click", segment, call.lineno))
    return out
