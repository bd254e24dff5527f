"""What one Python file contributes to cross-file resolution: its `ModuleScope`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from strata.index.code.python.names import (
    assigned_names,
    dotted,
    flat_statements,
    import_bindings,
    import_statements,
    imported_modules,
)
from strata.index.code.python.receivers import (
    INSTANCE,
    attribute_classes,
    positional_names,
    returned,
)
from strata.index.code.python.symbols import parse_python
from strata.index.code.resolve import ModuleScope
from strata.text import pyparse
from strata.text.langs import module_from_path


def module_scope(text: str, path: str) -> ModuleScope:
    """What the file contributes to the symbol table: bindings, star imports, class bases."""
    tree = parse_python(text, path)
    if tree is None:
        return ModuleScope(path=path, module=module_from_path(path))
    return scope_of_tree(tree, path)


def scope_of_tree(tree: ast.Module, path: str) -> ModuleScope:
    """`module_scope` of an already parsed module."""
    module = module_from_path(path)
    body = pyparse.code_body(tree)  # a data table's constants bind nothing but themselves
    bindings: dict[str, str] = {}
    stars: list[str] = []
    for name, target, _ in import_bindings(body, path):
        if name == "*":
            stars.append(target)
        else:
            bindings[name] = target
    defined = module_names(tree, module)
    for name, stmt in assigned_names(body):
        value = getattr(stmt, "value", None)
        ref = dotted(value) if isinstance(stmt, ast.Assign) and value is not None else None
        if ref and name not in bindings:
            local = normalise_head(ref, bindings, defined)
            if local and local != f"{module}.{name}":
                bindings[name] = local
    imports = list(import_statements(body))
    imported = {t for _, t, _ in import_bindings(imports, path)}
    imported |= {m for m, _ in imported_modules(imports, path)}
    bases = {
        q: tuple(b for b in (normalise_head(x, bindings, defined) for x in refs) if b)
        for q, refs in _class_bases(body, module).items()
    }
    attributes = {
        q: {
            a: f"{t}{INSTANCE}"
            for a, r in held.items()
            if (t := normalise_head(r, bindings, defined))
        }
        for q, held in _class_attributes(body, module).items()
    }
    functions = list(_functions(body, module, None))
    return ModuleScope(
        path=path,
        module=module,
        bindings=bindings,
        stars=tuple(stars),
        imported=frozenset(imported),
        bases=bases,
        attributes={q: held for q, held in attributes.items() if held},
        parameters={q: names for q, names, _ in functions},
        returns={q: r for q, _, gives in functions if (r := _gives(gives, bindings, defined))},
    )


def module_names(tree: ast.Module, module: str) -> dict[str, str]:
    """Names defined at module level (defs, classes, assignments) -> their qnames."""
    body = pyparse.code_body(tree)
    names = {n: f"{module}.{n}" for n in pyparse.literal_names(tree)}
    names |= {n: f"{module}.{n}" for n, _ in assigned_names(body)}
    for stmt in flat_statements(body):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[stmt.name] = f"{module}.{stmt.name}"
    return names


def _class_bases(stmts: list[ast.stmt], prefix: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for stmt in flat_statements(stmts):
        if isinstance(stmt, ast.ClassDef):
            qname = f"{prefix}.{stmt.name}"
            out[qname] = [r for b in stmt.bases if (r := dotted(b))]
            out.update(_class_bases(stmt.body, qname))
    return out


def _gives(
    gives: tuple[str, bool] | None, bindings: Mapping[str, str], defined: Mapping[str, str]
) -> str | None:
    """`returned`'s instance with its class named absolutely (None: not from here)."""
    if gives is None or gives[1]:
        return gives[0] if gives else None
    cls = normalise_head(gives[0][: -len(INSTANCE)], bindings, defined)
    return f"{cls}{INSTANCE}" if cls else None


def _functions(
    stmts: list[ast.stmt], prefix: str, owner: str | None
) -> Iterator[tuple[str, tuple[str, ...], tuple[str, bool] | None]]:
    """(qname, positional names, what a call gives) of every def, nested ones too; a
    method's `self` is left out of its names (`owner`: the class of a method)."""
    for stmt in flat_statements(stmts):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            qname = f"{prefix}.{stmt.name}"
            static = any(dotted(d) == "staticmethod" for d in stmt.decorator_list)
            names = positional_names(stmt, bound=owner is not None and not static)
            yield qname, names, returned(stmt, owner, qname)
            yield from _functions(stmt.body, qname, None)
        elif isinstance(stmt, ast.ClassDef):
            qname = f"{prefix}.{stmt.name}"
            yield from _functions(stmt.body, qname, qname)


def _class_attributes(stmts: list[ast.stmt], prefix: str) -> dict[str, dict[str, str]]:
    """Class qname -> (attribute -> the class it holds, as written), nested classes too."""
    out: dict[str, dict[str, str]] = {}
    for stmt in flat_statements(stmts):
        if isinstance(stmt, ast.ClassDef):
            qname = f"{prefix}.{stmt.name}"
            out[qname] = attribute_classes(stmt)
            out.update(_class_attributes(stmt.body, qname))
    return out


def normalise_head(ref: str, bindings: Mapping[str, str], defined: Mapping[str, str]) -> str | None:
    head, _, rest = ref.partition(".")
    base = defined.get(head) or bindings.get(head)
    if base is None:
        return None
    return f"{base}.{rest}" if rest else base
