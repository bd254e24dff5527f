"""FastAPI routes: app and APIRouter decorators, `add_api_route`, `include_router`, `mount`."""

from __future__ import annotations

import ast

from strata.index.code.entrypoints import base
from strata.index.code.entrypoints.base import FileContext, FileEntrypoints, FuncNode, Mount, Owner
from strata.index.code.model import Entrypoint
from strata.index.code.python.names import dotted

FRAMEWORK = "fastapi"
_CTORS = {
    "fastapi.FastAPI": "app",
    "fastapi.APIRouter": "router",
    "fastapi.routing.APIRouter": "router",
    "fastapi.applications.FastAPI": "app",
}
_DECORATORS = base.HTTP_DECORATORS | {"api_route", "websocket", "websocket_route"}
_MOUNTS = frozenset({"include_router", "mount"})
_ADDED = frozenset({"add_api_route", "add_api_websocket_route"})


def detect(ctx: FileContext) -> FileEntrypoints:
    """FastAPI entries, owners (apps, routers with `prefix=`) and mounts of one file."""
    owners = _owners(ctx)
    by_key = {o.key: o for o in owners}
    entries: list[Entrypoint] = []
    for node, deco, attr, owner in base.method_decorators(ctx):
        if attr not in _DECORATORS or owner is None or not isinstance(node, FuncNode):
            continue
        path = base.literal(base.arg(deco, 0, "path"))
        framework = base.http_framework(ctx, owner, attr, by_key)
        if framework is None and isinstance(path, str) and path.startswith("/"):
            framework = "http"  # an imported app: composition names the framework
        if framework not in (FRAMEWORK, "http") or not isinstance(path, str):
            continue
        for method in _methods(attr, deco):
            entries.append(
                base.make_entry(
                    ctx,
                    handler=node,
                    framework=framework,
                    entry_type="http",
                    kind="websocket" if method == "WEBSOCKET" else "route",
                    local=path,
                    method=method,
                    decorator=f"@{ast.unparse(deco)}",
                    payload={"owner": owner},
                    summary=_summary(deco),
                )
            )
    entries += _added_routes(ctx)
    return FileEntrypoints(ctx.path, tuple(entries), tuple(owners), tuple(_mounts(ctx, by_key)))


def _owners(ctx: FileContext) -> list[Owner]:
    return [
        Owner(key, FRAMEWORK, kind, str(base.literal(base.kwarg(call, "prefix")) or ""))
        for key, call, kind in base.constructed(ctx, _CTORS)
    ]


def _mounts(ctx: FileContext, owners: dict[str, Owner]) -> list[Mount]:
    out = []
    for block, call, attr, parent in base.method_calls(ctx, _MOUNTS):
        included = attr == "include_router"
        child = base.named_child(
            ctx, block, base.arg(call, 0, "router") if included else base.arg(call, 1, "app")
        )
        if parent is None or child is None:
            continue
        if included or parent in owners or ctx.imports_root("fastapi"):
            prefix = (
                base.literal(base.kwarg(call, "prefix"))
                if included
                else base.literal(base.arg(call, 0, "path"))
            )
            out.append(Mount(parent, child, FRAMEWORK, str(prefix or ""), call.lineno))
    return out


def _added_routes(ctx: FileContext) -> list[Entrypoint]:
    """`app.add_api_route("/p", handler, methods=[...])` and `add_api_websocket_route`."""
    out = []
    for block, call, attr, owner in base.method_calls(ctx, _ADDED):
        path = base.literal(base.arg(call, 0, "path"))
        target = base.arg(call, 1, "endpoint")
        ref = dotted(target) if target is not None else None
        if owner is None or not isinstance(path, str) or ref is None:
            continue
        handler = ctx.name(ref, block)
        websocket = attr == "add_api_websocket_route"
        methods = ["WEBSOCKET"] if websocket else _method_list(base.kwarg(call, "methods"))
        kind = "websocket" if websocket else "route"
        out += base.call_routes(
            ctx, call, (ctx.find_def(handler), handler), (FRAMEWORK, owner, path), methods, kind
        )
    return out


def _methods(attr: str, deco: ast.Call) -> list[str]:
    if attr in ("websocket", "websocket_route"):
        return ["WEBSOCKET"]
    if attr == "api_route":
        return _method_list(base.kwarg(deco, "methods"))
    return [attr.upper()]


def _method_list(node: ast.expr | None) -> list[str]:
    value = base.literal(node)
    if isinstance(value, list | tuple | set) and value:
        return sorted({str(v).upper() for v in value})
    return ["GET"]


def _summary(deco: ast.Call) -> str:
    summary = base.text_of(base.kwarg(deco, "summary"))
    return summary or base.text_of(base.kwarg(deco, "description"))
