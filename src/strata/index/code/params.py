"""Parameters with no annotation: of the class that every resolved call passes (pure).

Per file, a call on such a parameter keeps the parameter in its ref: `x.m()` in
`pkg.f(x)` is `pkg.f@x().m` (`PARAMETER`). Across the repository, each resolved call of
`pkg.f` says what it passes for each slot (`Edge.arguments`: `0=pkg.Foo()`, `x=` for a
value of no stated class, `*=` for `*args`/`**kwargs`). When every such call passes an
instance of one class for `x`, and at least one does, `pkg.f@x` is that class (the
table's `parameters`), and the edges through instances that were not resolved are
resolved again. That is how static analysers infer an unannotated parameter from its
callers (jedi's dynamic parameters). A parameter passed on to another function
(`g(x)`), or given back (`return x`), carries the class on in the next round. A method
called unbound (`Cls.m(obj, x)`, marked `~`) is left out: its slots start with `self`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from strata.index.code.model import Edge
from strata.index.code.resolve import INSTANCE, PARAMETER, SymbolTable, lookup, resolve_edge

ROUNDS = 4  # parameters passed on through this many calls are followed


def through_parameters(edges: list[Edge], table: SymbolTable) -> list[Edge]:
    """`edges` with the refs through parameters of a known class resolved (see module doc).

    Fills `table.parameters` (and clears its memo of lookups each round)."""
    out = edges
    for _ in range(ROUNDS):
        found = parameter_classes(out, table)
        if found == table.parameters:
            break
        table.parameters.clear()
        table.parameters.update(found)
        table.resolved.clear()
        out = [_again(e, table) if INSTANCE in e.dst_ref else e for e in edges]
    return out


def parameter_classes(edges: Iterable[Edge], table: SymbolTable) -> dict[str, str]:
    """`pkg.f@x` -> the class qname every resolved call of `pkg.f` passes for `x`
    (a parameter passed on, `g(x)` in `pkg.f`, by the classes the table knows so far)."""
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
                passed[f"{callee}{PARAMETER}{name}"].add(_class_of(cls, table) or "")
    return {p: c.pop() for p, c in passed.items() if len(c) == 1 and "" not in c}


def _class_of(instance: str, table: SymbolTable) -> str | None:
    """The class qname of `pkg.Foo()` (or of a parameter's `pkg.g@y()`), if a class."""
    if not instance.endswith(INSTANCE):
        return None
    found = lookup(instance[: -len(INSTANCE)], table)
    return found if found and table.kind_by_qname.get(found) == "class" else None


def _positional(qname: str, table: SymbolTable) -> tuple[str, ...] | None:
    parts = qname.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        scope = table.scopes.get(".".join(parts[:cut]))
        if scope is not None:
            return scope.parameters.get(qname)
    return None


def _again(edge: Edge, table: SymbolTable) -> Edge:
    """The edge resolved again, if it was not (its ref may go through a parameter)."""
    if edge.resolution == "resolved":
        return edge
    found = resolve_edge(edge, table)
    return found if found.resolution == "resolved" else edge
