"""Cross-file resolution of C2 edges over the repository's symbol table (pure).

A lookup follows re-exports, aliases, bases and `from .x import *` chains. Every ref is
resolved once per table (memoised): star imports that import each other otherwise make
the walk exponential (pydantic's package took more than 20 minutes). A ref met again
while it is still being resolved is a cycle and answers None there; results that
depended on such an open ref are kept only until that ref is done (then it is final).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from strata.index.code.model import Edge, Symbol

INSTANCE = "()"  # a ref's `pkg.Foo()`: an instance of `pkg.Foo` (python/receivers.py)
PARAMETER = "@"  # `pkg.f@x`: the class of parameter `x` of `pkg.f` (what its calls pass)

MAX_HOPS = 64  # a chain of lookups deeper than this answers None (keeps recursion bounded)
MAX_GUESSES = 8  # a method name shared by more classes than this is not worth listing


@dataclass(frozen=True, slots=True)
class ModuleScope:
    """What one file contributes to name resolution besides its symbols.

    `bindings` maps a module-level name to the absolute dotted name it stands for
    (imports, `X = other.Y` aliases); `stars` are modules star-imported at module
    level; `imported` is every absolute name any import in the file names (for
    telling external targets apart); `bases` maps each class qname to its bases,
    normalised like edge refs; `attributes` maps a class qname to what its attributes
    hold where the class states it (`{"stack": "pkg.engine.FilterStack()"}`);
    `parameters` maps each function and method to the names its positional arguments
    fill (a method's `self` left out); `returns` what a call of a function gives, where it
    says or shows one class (`pkg.Foo()`). Store it per file (`to_json`) and rebuild the table.
    """

    path: str
    module: str
    bindings: Mapping[str, str] = field(default_factory=dict)
    stars: tuple[str, ...] = ()
    imported: frozenset[str] = frozenset()
    bases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    attributes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    parameters: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    returns: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the inverse of `ModuleScope.from_json`)."""
        return {
            "path": self.path,
            "module": self.module,
            "bindings": dict(self.bindings),
            "stars": list(self.stars),
            "imported": sorted(self.imported),
            "bases": {k: list(v) for k, v in self.bases.items()},
            "attributes": {k: dict(v) for k, v in self.attributes.items()},
            "parameters": {k: list(v) for k, v in self.parameters.items()},
            "returns": dict(self.returns),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ModuleScope:
        """Rebuild a scope stored with `to_json`."""
        return cls(
            path=data["path"],
            module=data["module"],
            bindings=dict(data["bindings"]),
            stars=tuple(data["stars"]),
            imported=frozenset(data["imported"]),
            bases={k: tuple(v) for k, v in data["bases"].items()},
            attributes={k: dict(v) for k, v in data.get("attributes", {}).items()},
            parameters={k: tuple(v) for k, v in data.get("parameters", {}).items()},
            returns=dict(data.get("returns", {})),
        )


@dataclass(frozen=True, slots=True)
class SymbolTable:
    """Every symbol and module of a repository, indexed for resolution."""

    ids_by_qname: Mapping[str, tuple[str, ...]]
    kind_by_qname: Mapping[str, str]
    scopes: Mapping[str, ModuleScope]  # by module name
    module_by_path: Mapping[str, str]
    methods_by_name: Mapping[str, tuple[str, ...]]
    roots: frozenset[str]  # top-level package names present in the repository
    # ref -> qname or None, filled by `lookup` (the table itself never changes)
    resolved: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)
    # `pkg.f@x` -> the class of parameter `x` (filled by `strata.index.code.params`, which
    # clears `resolved` when it adds to it)
    parameters: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def module_id(self, module: str) -> str:
        """The pseudo symbol id of a module (`"<path>::<module>"`), the source of its imports."""
        return f"{self.scopes[module].path}::{module}"


def build_table(symbols: Iterable[Symbol], scopes: Iterable[ModuleScope]) -> SymbolTable:
    """The symbol table of a repository from all files' symbols and scopes.

    Args:
        symbols: Every symbol of every file (C1).
        scopes: Every file's `ModuleScope` (from `strata.index.code.python.edges.module_scope`).
    """
    ids: dict[str, list[str]] = defaultdict(list)
    kinds: dict[str, str] = {}
    methods: dict[str, list[str]] = defaultdict(list)
    for sym in sorted(symbols, key=_preference):
        for qname in sym.member_qnames():  # a data table's block: its constants
            ids[qname].append(f"{sym.path}::{qname}")
            kinds.setdefault(qname, "constant")
        if sym.members:
            continue
        ids[sym.qname].append(sym.symbol_id)
        kinds.setdefault(sym.qname, sym.kind)
        if sym.kind == "method" and sym.qname not in methods[sym.name]:
            methods[sym.name].append(sym.qname)
    by_module = {s.module: s for s in scopes}
    return SymbolTable(
        ids_by_qname={q: tuple(v) for q, v in ids.items()},
        kind_by_qname=kinds,
        scopes=by_module,
        module_by_path={s.path: s.module for s in by_module.values()},
        methods_by_name={n: tuple(v) for n, v in methods.items()},
        roots=frozenset(m.split(".")[0] for m in by_module if m),
    )


def lookup(ref: str, table: SymbolTable) -> str | None:
    """The qname of the symbol or module `ref` names, following re-exports, aliases and bases."""
    return _Lookup(table).find(ref)


class _Lookup:
    """One top-level lookup: the open refs (a stack) and the results that depend on them."""

    def __init__(self, table: SymbolTable) -> None:
        self.table = table
        self.open: dict[str, int] = {}  # ref -> its depth on the stack
        self.pending: dict[str, str | None] = {}  # results that depend on an open ref
        self.pending_at: dict[int, list[str]] = defaultdict(list)  # by the depth they wait on

    def find(self, ref: str) -> str | None:
        return self._find(ref)[0]

    def _find(self, ref: str) -> tuple[str | None, int]:
        """The result and the shallowest open depth it depended on (`_FINAL` if none)."""
        done = self.table.resolved
        if ref in done:
            return done[ref], _FINAL
        if ref in self.pending:
            return self.pending[ref], 0  # conservative: keep it pending to the end
        depth = len(self.open)
        if ref in self.open:
            return None, self.open[ref]
        if depth > MAX_HOPS:
            return None, 0
        self.open[ref] = depth
        try:
            found, waits_on = self._resolve(ref)
        finally:
            del self.open[ref]
        for dependent in self.pending_at.pop(depth, ()):
            self.pending.pop(dependent, None)  # this ref is now known: they may be redone
        if waits_on >= depth:
            done[ref] = found
            return found, _FINAL
        self.pending[ref] = found
        self.pending_at[waits_on].append(ref)
        return found, waits_on

    def _resolve(self, ref: str) -> tuple[str | None, int]:
        table = self.table
        if ref in table.ids_by_qname or ref in table.scopes:
            return ref, _FINAL
        if ref in table.parameters:
            return table.parameters[ref], _FINAL
        parts = ref.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            head, rest = ".".join(parts[:cut]), parts[cut:]
            if head.endswith(INSTANCE):
                return self._member(head[: -len(INSTANCE)], rest)
            if head in table.ids_by_qname:
                if table.kind_by_qname[head] != "class" or len(rest) != 1:
                    return None, _FINAL
                return self._inherited(head, rest[0])
            if head in table.scopes:
                return self._through_module(table.scopes[head], rest)
        return None, _FINAL

    def _member(self, cls_ref: str, rest: list[str]) -> tuple[str | None, int]:
        """`rest` of an instance of `cls_ref`: `pkg.Foo().run` is a method of the class or
        of its bases when `cls_ref` names a class of the repository; `pkg.Foo().x.run`
        the method of what the class says its attribute `x` holds."""
        cls, waits_on = self._find(cls_ref)
        kind = self.table.kind_by_qname.get(cls or "")
        if cls is not None and kind in ("function", "method"):  # what a call of it gives
            scope = self.table.scopes.get(_module_of(cls, self.table))
            gives = scope.returns.get(cls) if scope else None
            if gives is None or not gives.endswith(INSTANCE):
                return None, waits_on
            found, waited = self._find(".".join([gives, *rest]))
            return found, min(waits_on, waited)
        if cls is None or kind != "class":
            return None, waits_on
        if len(rest) == 1:
            found, waited = self._find(f"{cls}.{rest[0]}")
            return found, min(waits_on, waited)
        held, waited = self._attribute(cls, rest[0], MAX_HOPS // 8)
        if held is None:
            return None, min(waits_on, waited)
        found, deeper = self._find(".".join([held, *rest[1:]]))
        return found, min(waits_on, waited, deeper)

    def _attribute(self, cls: str, attr: str, hops: int) -> tuple[str | None, int]:
        """What attribute `attr` of `cls` holds (`pkg.Foo()`), the class's bases asked next."""
        scope = self.table.scopes.get(_module_of(cls, self.table))
        if scope is None or hops <= 0:
            return None, _FINAL
        held = scope.attributes.get(cls, {}).get(attr)
        if held is not None:
            return held, _FINAL
        waits_on = _FINAL
        for base in scope.bases.get(cls, ()):
            found, waited = self._find(base)
            waits_on = min(waits_on, waited)
            if found is not None and self.table.kind_by_qname.get(found) == "class":
                held, waited = self._attribute(found, attr, hops - 1)
                waits_on = min(waits_on, waited)
                if held is not None:
                    return held, waits_on
        return None, waits_on

    def _through_module(self, scope: ModuleScope, rest: list[str]) -> tuple[str | None, int]:
        bound = scope.bindings.get(rest[0])
        if bound is not None:
            return self._find(".".join([bound, *rest[1:]]))
        # only stars of the repository's own modules: another one cannot resolve here, and
        # following it through its parent package grows the ref without end
        stars = [s for s in scope.stars if s in self.table.scopes]
        return self._first([".".join([star, *rest]) for star in stars])

    def _inherited(self, cls: str, member: str) -> tuple[str | None, int]:
        """`member` looked up along the bases of `cls` (depth first, as a simple MRO)."""
        scope = self.table.scopes.get(_module_of(cls, self.table))
        bases = scope.bases.get(cls, ()) if scope else ()
        return self._first([f"{base}.{member}" for base in bases])

    def _first(self, refs: list[str]) -> tuple[str | None, int]:
        waits_on = _FINAL
        for ref in refs:
            found, waited = self._find(ref)
            waits_on = min(waits_on, waited)
            if found:
                return found, waits_on
        return None, waits_on


_FINAL = 1 << 30  # depends on no open ref


def _module_of(qname: str, table: SymbolTable) -> str:
    parts = qname.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        if ".".join(parts[:cut]) in table.scopes:
            return ".".join(parts[:cut])
    return ""


def resolve_edge(edge: Edge, table: SymbolTable) -> Edge:
    """One edge with `resolution`, `dst_qname`, `dst_symbol_id` and `candidates` set."""
    found = lookup(edge.dst_ref, table)
    if found is not None:
        return _resolved(edge, found, table)
    scope = table.scopes.get(table.module_by_path.get(edge.path, ""))
    if _is_external(edge.dst_ref, scope, table):
        return dataclasses.replace(edge, resolution="external", dst_qname=edge.dst_ref)
    guesses = _guesses(edge.dst_ref, scope, table)
    if len(guesses) == 1 and "." not in edge.dst_ref:  # a bare name from one star import
        return _resolved(edge, guesses[0], table)
    if guesses:
        return dataclasses.replace(
            edge,
            resolution="ambiguous",
            candidates=tuple(guesses),
            dst_symbol_id=None,
            dst_qname=None,
        )
    return dataclasses.replace(
        edge, resolution="unresolved", dst_symbol_id=None, dst_qname=None, candidates=()
    )


def resolve_edges(edges: Iterable[Edge], table: SymbolTable) -> list[Edge]:
    """Resolve every edge against the repository (see `resolve_edge`); pure."""
    return [resolve_edge(e, table) for e in edges]


def stale_edges(edges: Iterable[Edge], changed_modules: Iterable[str]) -> list[Edge]:
    """Edges to re-resolve after files of `changed_modules` changed or vanished.

    Those whose target or resolved qname lies in a changed module, and every edge
    that is not resolved yet (a new file may resolve it).
    """
    prefixes = tuple(f"{m}." for m in changed_modules) + tuple(changed_modules)
    return [
        e
        for e in edges
        if e.resolution in ("unresolved", "ambiguous")
        or e.dst_ref.startswith(prefixes)
        or (e.dst_qname or "").startswith(prefixes)
    ]


def _resolved(edge: Edge, qname: str, table: SymbolTable) -> Edge:
    ids = table.ids_by_qname.get(qname)
    sid = ids[0] if ids else table.module_id(qname)
    return dataclasses.replace(
        edge, resolution="resolved", dst_qname=qname, dst_symbol_id=sid, candidates=()
    )


def _is_external(ref: str, scope: ModuleScope | None, table: SymbolTable) -> bool:
    """The ref goes through an import of a module that is not part of the repository."""
    if scope is None or ref.split(".")[0] in table.roots:
        return False
    return any(ref == t or ref.startswith(f"{t}.") for t in scope.imported)


def _guesses(ref: str, scope: ModuleScope | None, table: SymbolTable) -> list[str]:
    """Candidates for a ref the file alone could not pin down: star imports, then method names."""
    if "." not in ref:
        stars = scope.stars if scope else ()
        return sorted({q for s in stars if (q := lookup(f"{s}.{ref}", table))})
    head, _, name = ref.rpartition(".")
    if head.endswith(INSTANCE):  # an instance of what a call returns: a class's is known
        cls = lookup(head[: -len(INSTANCE)], table)
        if cls is not None and table.kind_by_qname.get(cls) == "class":
            return []
    elif head.split(".")[0] in table.roots or head in ("self", "cls"):
        return []
    methods = table.methods_by_name.get(name, ())
    return list(methods) if len(methods) <= MAX_GUESSES else []


def _preference(sym: Symbol) -> tuple[str, bool, int]:
    """Order of a qname's definitions: `@overload` stubs after the implementation."""
    return sym.path, any(d.endswith("overload") for d in sym.decorators), sym.start_line
