"""Django URL confs: `urlpatterns` of `path`/`re_path`/`url`, `include`, class views."""

from __future__ import annotations

import ast

from strata.index.code.entrypoints.base import (
    Block,
    FileContext,
    FileEntrypoints,
    Mount,
    Owner,
    arg,
    literal,
    make_entry,
    view_ref,
)
from strata.index.code.model import Entrypoint
from strata.index.code.python.names import dotted, flat_statements

FRAMEWORK = "django"
_ROUTES = frozenset({"django.urls.path", "django.urls.re_path", "django.conf.urls.url"})
_INCLUDE = frozenset({"django.urls.include", "django.conf.urls.include"})


def detect(ctx: FileContext) -> FileEntrypoints:
    """Routes of a module-level `urlpatterns`, and the modules it `include`s."""
    block = next(ctx.blocks())
    key = f"{ctx.module}.urlpatterns"
    entries: list[Entrypoint] = []
    mounts: list[Mount] = []
    for stmt in flat_statements(block.stmts):
        target = (
            stmt.targets[0]
            if isinstance(stmt, ast.Assign) and stmt.targets
            else getattr(stmt, "target", None)
        )
        if isinstance(target, ast.Name) and target.id == "urlpatterns":
            value = getattr(stmt, "value", None)
            if isinstance(value, ast.List | ast.Tuple):
                _patterns(ctx, block, value.elts, "", key, entries, mounts)
    if not entries and not mounts:
        return FileEntrypoints(ctx.path)
    return FileEntrypoints(
        ctx.path, tuple(entries), (Owner(key, FRAMEWORK, "urlconf"),), tuple(mounts)
    )


def _patterns(
    ctx: FileContext,
    block: Block,
    items: list[ast.expr],
    prefix: str,
    key: str,
    entries: list[Entrypoint],
    mounts: list[Mount],
) -> None:
    for item in items:
        if not (isinstance(item, ast.Call) and ctx.expr_name(item.func) in _ROUTES):
            continue
        route, view = literal(arg(item, 0, "route")), arg(item, 1, "view")
        if not isinstance(route, str) or view is None:
            continue
        if isinstance(view, ast.Call) and ctx.expr_name(view.func) in _INCLUDE:
            _include(ctx, block, view, prefix + route, key, item.lineno, entries, mounts)
            continue
        is_class, ref = view_ref(view)
        if ref is None:
            continue
        qname = ctx.name(ref, block)
        entries.append(
            make_entry(
                ctx,
                handler=ctx.find_def(qname),
                framework=FRAMEWORK,
                entry_type="http",
                kind="view_class" if is_class else "view",
                local=prefix + route,
                method=None,
                decorator=ast.unparse(item),
                payload={
                    "owner": key,
                    "url_name": literal(
                        next((k.value for k in item.keywords if k.arg == "name"), None)
                    ),
                },
                line=item.lineno,
                handler_ref=qname,
            )
        )


def _include(
    ctx: FileContext,
    block: Block,
    call: ast.Call,
    route: str,
    key: str,
    line: int,
    entries: list[Entrypoint],
    mounts: list[Mount],
) -> None:
    target = arg(call, 0, "arg")
    if isinstance(target, ast.Tuple) and target.elts:
        target = target.elts[0]
    value = literal(target)
    if isinstance(value, str):
        mounts.append(Mount(key, f"{value}.urlpatterns", FRAMEWORK, route, line))
    elif isinstance(target, ast.List | ast.Tuple):
        _patterns(ctx, block, target.elts, route, key, entries, mounts)
    elif target is not None and (ref := dotted(target)):
        mounts.append(Mount(key, f"{ctx.name(ref, block)}.urlpatterns", FRAMEWORK, route, line))
