"""FastAPI routes: app and APIRouter decorators, `add_api_route`, `include_router`, `mount`."""

from __future__ import annotations

import ast

from strata.index.code.entrypoints.base import (
    HTTP_DECORATORS,
    FileContext,
    FileEntrypoints,
    FuncNode,
    Mount,
    Owner,
    arg,
    assignments,
    calls,
    decorated,
    http_framework,
    kwarg,
    literal,
    make_entry,
)
from strata.index.code.model import Entrypoint
from strata.index.code.python.names import dotted

FRAMEWORK = "fastapi"
_CTORS = {
    "fastapi.FastAPI": "app",
    "fastapi.APIRouter": "router",
    "fastapi.routing.APIRouter": "router",
    "fastapi.applications.FastAPI": "app",
}
_DECORATORS = HTTP_DECORATORS | {"api_route", "websocket", "websocket_route"}


def detect(ctx: FileContext) -> FileEntrypoints:
    """FastAPI entries, owners (apps, routers with `prefix=`) and mounts of one file."""
    owners = _owners(ctx)
    by_key = {o.key: o for o in owners}
    entries: list[Entrypoint] = []
    for node, deco, block in decorated(ctx):
        if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)):
            continue
        attr = deco.func.attr
        owner = ctx.expr_name(deco.func.value, block)
        if attr not in _DECORATORS or owner is None or not isinstance(node, FuncNode):
            continue
        path = literal(arg(deco, 0, "path"))
        framework = http_framework(ctx, owner, attr, by_key)
        if framework is None and isinstance(path, str) and path.startswith("/"):
            framework = "http"  # an imported app: composition names the framework
        if framework not in (FRAMEWORK, "http") or not isinstance(path, str):
            continue
        for method in _methods(attr, deco):
            entries.append(
                make_entry(
                    ctx,
                    handler=node,
                    framework=framework,
                    entry_type="http",
                    kind="websocket" if method == "WEBSOCKET" else "route",
                    local=path,
                    method=method,
                    decorator=f"@{ast.unparse(deco)}",
                    payload={"owner": owner},
                    summary=_text(kwarg(deco, "summary")) or _text(kwarg(deco, "description")),
                )
            )
    entries += _added_routes(ctx, by_key)
    return FileEntrypoints(ctx.path, tuple(entries), tuple(owners), tuple(_mounts(ctx, by_key)))


def _owners(ctx: FileContext) -> list[Owner]:
    out = []
    for block in ctx.blocks():
        for name, call in assignments(block):
            kind = _CTORS.get(ctx.expr_name(call.func, block) or "")
            if kind:
                prefix = literal(kwarg(call, "prefix")) or ""
                out.append(Owner(ctx.name(name, block), FRAMEWORK, kind, str(prefix)))
    return out


def _mounts(ctx: FileContext, owners: dict[str, Owner]) -> list[Mount]:
    out = []
    for block in ctx.blocks():
        for call in calls(block):
            func = call.func
            if not isinstance(func, ast.Attribute) or func.attr not in ("include_router", "mount"):
                continue
            parent = ctx.expr_name(func.value, block)
            child_expr = (
                arg(call, 0, "router") if func.attr == "include_router" else arg(call, 1, "app")
            )
            child = ctx.expr_name(child_expr, block) if child_expr is not None else None
            if parent is None or child is None:
                continue
            if func.attr == "include_router" or parent in owners or ctx.imports_root("fastapi"):
                prefix = (
                    literal(kwarg(call, "prefix"))
                    if func.attr == "include_router"
                    else literal(arg(call, 0, "path"))
                )
                out.append(Mount(parent, child, FRAMEWORK, str(prefix or ""), call.lineno))
    return out


def _added_routes(ctx: FileContext, owners: dict[str, Owner]) -> list[Entrypoint]:
    """`app.add_api_route("/p", handler, methods=[...])` and `add_api_websocket_route`."""
    out = []
    for block in ctx.blocks():
        for call in calls(block):
            func = call.func
            if not isinstance(func, ast.Attribute) or func.attr not in (
                "add_api_route",
                "add_api_websocket_route",
            ):
                continue
            owner = ctx.expr_name(func.value, block)
            path = literal(arg(call, 0, "path"))
            target = arg(call, 1, "endpoint")
            ref = dotted(target) if target is not None else None
            if owner is None or not isinstance(path, str) or ref is None:
                continue
            handler = ctx.find_def(ctx.name(ref, block))
            websocket = func.attr == "add_api_websocket_route"
            methods = ["WEBSOCKET"] if websocket else _method_list(kwarg(call, "methods"))
            for method in methods:
                out.append(
                    make_entry(
                        ctx,
                        handler=handler,
                        framework=FRAMEWORK,
                        entry_type="http",
                        kind="websocket" if websocket else "route",
                        local=path,
                        method=method,
                        decorator=ast.unparse(call),
                        payload={"owner": owner},
                        line=call.lineno,
                        handler_ref=ctx.name(ref, block),
                    )
                )
    return out


def _methods(attr: str, deco: ast.Call) -> list[str]:
    if attr in ("websocket", "websocket_route"):
        return ["WEBSOCKET"]
    if attr == "api_route":
        return _method_list(kwarg(deco, "methods"))
    return [attr.upper()]


def _method_list(node: ast.expr | None) -> list[str]:
    value = literal(node)
    if isinstance(value, list | tuple | set) and value:
        return sorted({str(v).upper() for v in value})
    return ["GET"]


def _text(node: ast.expr | None) -> str:
    value = literal(node)
    return value if isinstance(value, str) else ""
