"""Flask routes: `route` and method shortcuts, blueprints, `register_blueprint`, `add_url_rule`."""

from __future__ import annotations

import ast

from strata.index.code.entrypoints import base
from strata.index.code.entrypoints.base import FileContext, FileEntrypoints, Mount, Owner
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
    for node, deco, attr, owner in base.method_decorators(ctx):
        if attr not in base.HTTP_DECORATORS | {"route"} or owner is None:
            continue
        if base.http_framework(ctx, owner, attr, by_key) != FRAMEWORK:
            continue
        rule = base.literal(base.arg(deco, 0, "rule"))
        if not isinstance(rule, str) or isinstance(node, ast.ClassDef):
            continue
        methods = _methods(base.kwarg(deco, "methods")) if attr == "route" else [attr.upper()]
        for method in methods:
            entries.append(
                base.make_entry(
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
                        "endpoint": base.literal(base.kwarg(deco, "endpoint")) or node.name,
                    },
                )
            )
    entries += _url_rules(ctx, by_key)
    return FileEntrypoints(ctx.path, tuple(entries), tuple(owners), tuple(_mounts(ctx)))


def _owners(ctx: FileContext) -> list[Owner]:
    return [
        Owner(key, FRAMEWORK, kind, str(base.literal(base.kwarg(call, "url_prefix")) or ""))
        for key, call, kind in base.constructed(ctx, _CTORS)
    ]


def _mounts(ctx: FileContext) -> list[Mount]:
    out = []
    for block, call, _, parent in base.method_calls(ctx, frozenset({"register_blueprint"})):
        child = base.named_child(ctx, block, base.arg(call, 0, "blueprint"))
        if parent and child:
            prefix = base.literal(base.kwarg(call, "url_prefix"))
            segment = prefix if isinstance(prefix, str) else None
            out.append(Mount(parent, child, FRAMEWORK, segment, call.lineno))
    return out


def _url_rules(ctx: FileContext, owners: dict[str, Owner]) -> list[Entrypoint]:
    """`app.add_url_rule("/r", view_func=fn)` and `view_func=View.as_view("name")`."""
    out = []
    for block, call, _, owner in base.method_calls(ctx, frozenset({"add_url_rule"})):
        rule = base.literal(base.arg(call, 0, "rule"))
        view = base.arg(call, 2, "view_func")
        if owner is None or not isinstance(rule, str) or view is None:
            continue
        if base.http_framework(ctx, owner, "route", owners) != FRAMEWORK:
            continue
        is_class, ref = base.view_ref(view)
        if ref is None:
            continue
        handler = ctx.find_def(ctx.name(ref, block))
        methods = _methods(base.kwarg(call, "methods"))
        if base.kwarg(call, "methods") is None and isinstance(handler, ast.ClassDef):
            methods = _class_methods(handler)
        kind = "view_class" if is_class else "route"
        out += base.call_routes(
            ctx, call, (handler, ctx.name(ref, block)), (FRAMEWORK, owner, rule), methods, kind
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
    value = base.literal(node)
    if isinstance(value, list | tuple | set) and value:
        return sorted({str(v).upper() for v in value} - {"HEAD", "OPTIONS"}) or ["GET"]
    return ["GET"]
