"""Parameters with no annotation: of the class that every resolved call passes (pure).

Per file, a call on such a parameter keeps the parameter in its ref: `x.m()` in
`pkg.f(x)` is `pkg.f@x().m` (`PARAMETER`). Across the repository, each resolved call of
`pkg.f` says what it passes for each slot (`Edge.arguments`: `0=pkg.Foo()`, `x=` for a
value of no stated class, `*=` for `*args`/`**kwargs`). When every such call passes an
instance of one class for `x`, and at least one does, `pkg.f@x` is that class, and the
refs through it are resolved again as `pkg.Foo().m`. That is how static analysers infer
an unannotated parameter from its callers (jedi's dynamic parameters). A parameter
passed on to another function (`g(x)`) gives `g`'s parameter the same class in the next
round. A method called unbound (`Cls.m(obj, x)`, marked `~`) is left out: its slots
start with `self`.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping

from strata.index.code.model import Edge
from strata.index.code.resolve import INSTANCE, PARAMETER, SymbolTable, lookup, resolve_edge

ROUNDS = 4  # parameters passed on through this many calls are followed


def through_parameters(edges: list[Edge], table: SymbolTable) -> list[Edge]:
    """`edges` with the refs through parameters of a known class resolved (see module doc)."""
    classes: dict[str, str] = {}
    out = edges
    for _ in range(ROUNDS):
        found = parameter_classes(out, table, classes)
        if found == classes:
            break
        classes = found
        out = [_again(e, classes, table) if PARAMETER in e.dst_ref else e for e in edges]
    return out


def parameter_classes(
    edges: Iterable[Edge], table: SymbolTable, known: Mapping[str, str]
) -> dict[str, str]:
    """`pkg.f@x` -> the class qname every resolved call of `pkg.f` passes for `x`.

    `known` are the parameter classes of the round before (for `g(x)` inside `pkg.f`).
    """
    passed: dict[str, set[str]] = defaultdict(set)
    for e in edges:
        callee = e.dst_qname
        if e.edge_type != "calls" or e.resolution != "resolved" or not callee:
            continue
        kind = table.kind_by_qname.get(callee)
        names = _positional(callee, table)
        if kind not in ("function", "method") or names is None:
            continue
        for entry in e.arguments:
            if entry.startswith("~") and kind == "method":
                continue
            slot, _, cls = entry.lstrip("~").partition("=")
            if slot == "*":
                targets = names
            elif slot.isdigit():
                targets = names[int(slot) : int(slot) + 1]
            else:
                targets = (slot,)
            for name in targets:
                passed[f"{callee}{PARAMETER}{name}"].add(_class_of(cls, table, known) or "")
    return {p: c.pop() for p, c in passed.items() if len(c) == 1 and "" not in c}


def _class_of(instance: str, table: SymbolTable, known: Mapping[str, str]) -> str | None:
    """The class qname of `pkg.Foo()` (or of a parameter's `pkg.g@y()`), if a class."""
    if not instance.endswith(INSTANCE):
        return None
    ref = instance[: -len(INSTANCE)]
    if PARAMETER in ref:
        return known.get(ref)
    found = lookup(ref, table)
    return found if found and table.kind_by_qname.get(found) == "class" else None


def _positional(qname: str, table: SymbolTable) -> tuple[str, ...] | None:
    parts = qname.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        scope = table.scopes.get(".".join(parts[:cut]))
        if scope is not None:
            return scope.parameters.get(qname)
    return None


def _again(edge: Edge, classes: Mapping[str, str], table: SymbolTable) -> Edge:
    """The edge resolved with its parameter's class in the ref, if that class is known."""
    head, sep, rest = edge.dst_ref.partition(INSTANCE + ".")
    cls = classes.get(head) if sep else None
    if cls is None:
        return edge
    found = resolve_edge(dataclasses.replace(edge, dst_ref=f"{cls}{INSTANCE}.{rest}"), table)
    if found.resolution != "resolved":
        return edge
    return dataclasses.replace(found, dst_ref=edge.dst_ref)
