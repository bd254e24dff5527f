"""Flask routes: `route` and method shortcuts, blueprints, `register_blueprint`, `add_url_rule`."""

from __future__ import annotations

import ast

from strata.index.code.entrypoints.base import (
    HTTP_DECORATORS,
    FileContext,
    FileEntrypoints,
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
    view_ref,
)
from strata.index.code.model import Entrypoint

FRAMEWORK = "flask"
_CTORS = {
    "flask.Flask": "app",
    "flask.Blueprint": "blueprint",
    "flask.app.Flask": "app",
    "flask.blueprints.Blueprint": "blueprint",
}
_VIEW_METHODS = ("get", "post", "put", "delete", "patch")


def detect(ctx: FileContext) -> FileEntrypoints:
    """Flask entries, owners (apps, blueprints with `url_prefix=`) and blueprint mounts."""
    owners = _owners(ctx)
    by_key = {o.key: o for o in owners}
    entries: list[Entrypoint] = []
    for node, deco, block in decorated(ctx):
        if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)):
            continue
        attr, owner = deco.func.attr, ctx.expr_name(deco.func.value, block)
        if attr not in HTTP_DECORATORS | {"route"} or owner is None:
            continue
        if http_framework(ctx, owner, attr, by_key) != FRAMEWORK:
            continue
        rule = literal(arg(deco, 0, "rule"))
        if not isinstance(rule, str) or isinstance(node, ast.ClassDef):
            continue
        methods = _methods(kwarg(deco, "methods")) if attr == "route" else [attr.upper()]
        for method in methods:
            entries.append(
                make_entry(
                    ctx,
                    handler=node,
                    framework=FRAMEWORK,
                    entry_type="http",
                    kind="route",
                    local=rule,
                    method=method,
                    decorator=f"@{ast.unparse(deco)}",
                    payload={
                        "owner": owner,
                        "endpoint": literal(kwarg(deco, "endpoint")) or node.name,
                    },
                )
            )
    entries += _url_rules(ctx, by_key)
    return FileEntrypoints(ctx.path, tuple(entries), tuple(owners), tuple(_mounts(ctx)))


def _owners(ctx: FileContext) -> list[Owner]:
    out = []
    for block in ctx.blocks():
        for name, call in assignments(block):
            kind = _CTORS.get(ctx.expr_name(call.func, block) or "")
            if kind:
                prefix = literal(kwarg(call, "url_prefix")) or ""
                out.append(Owner(ctx.name(name, block), FRAMEWORK, kind, str(prefix)))
    return out


def _mounts(ctx: FileContext) -> list[Mount]:
    out = []
    for block in ctx.blocks():
        for call in calls(block):
            func = call.func
            if not isinstance(func, ast.Attribute) or func.attr != "register_blueprint":
                continue
            parent = ctx.expr_name(func.value, block)
            child_expr = arg(call, 0, "blueprint")
            child = ctx.expr_name(child_expr, block) if child_expr is not None else None
            if parent and child:
                prefix = literal(kwarg(call, "url_prefix"))
                out.append(
                    Mount(
                        parent,
                        child,
                        FRAMEWORK,
                        prefix if isinstance(prefix, str) else None,
                        call.lineno,
                    )
                )
    return out


def _url_rules(ctx: FileContext, owners: dict[str, Owner]) -> list[Entrypoint]:
    """`app.add_url_rule("/r", view_func=fn)` and `view_func=View.as_view("name")`."""
    out = []
    for block in ctx.blocks():
        for call in calls(block):
            func = call.func
            if not isinstance(func, ast.Attribute) or func.attr != "add_url_rule":
                continue
            owner = ctx.expr_name(func.value, block)
            rule = literal(arg(call, 0, "rule"))
            view = arg(call, 2, "view_func")
            if owner is None or not isinstance(rule, str) or view is None:
                continue
            if http_framework(ctx, owner, "route", owners) != FRAMEWORK:
                continue
            is_class, ref = view_ref(view)
            if ref is None:
                continue
            handler = ctx.find_def(ctx.name(ref, block))
            methods = _methods(kwarg(call, "methods"))
            if kwarg(call, "methods") is None and isinstance(handler, ast.ClassDef):
                methods = _class_methods(handler)
            for method in methods:
                out.append(
                    make_entry(
                        ctx,
                        handler=handler,
                        framework=FRAMEWORK,
                        entry_type="http",
                        kind="view_class" if is_class else "route",
                        local=rule,
                        method=method,
                        decorator=ast.unparse(call),
                        payload={"owner": owner},
                        line=call.lineno,
                        handler_ref=ctx.name(ref, block),
                    )
                )
    return out


def _class_methods(node: ast.ClassDef) -> list[str]:
    """A view class's methods: its `methods = [...]`, else the HTTP verbs it defines."""
    for stmt in node.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "methods" for t in stmt.targets
        ):
            return _methods(stmt.value)
    defined = {s.name for s in node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
    verbs = [m.upper() for m in _VIEW_METHODS if m in defined]
    return verbs or ["GET"]


def _methods(node: ast.expr | None) -> list[str]:
    value = literal(node)
    if isinstance(value, list | tuple | set) and value:
        return sorted({str(v).upper() for v in value} - {"HEAD", "OPTIONS"}) or ["GET"]
    return ["GET"]
