"""What derives from a type, and what a type derives from (pure over a `Store`): the
`inherits` edges of C2 (a Python base class, a Java `extends` or `implements`, a Rust
`impl Trait for`, ...), read through the call graph's index of them."""

from __future__ import annotations

from dataclasses import dataclass

from strata.query.lookup.graph import CallGraph, call_graph
from strata.query.lookup.rows import meta_str
from strata.query.lookup.symbols import SymbolMatch
from strata.store import Store
from strata.types import Record

__all__ = ["DEPTH", "Lineage", "bases", "subclasses"]

DEPTH = 3  # generations of subclasses listed


@dataclass(frozen=True, slots=True)
class Lineage:
    """The types found (their catalogue rows, as exact matches), and the names of those
    the index does not define (a base from another library: `Exception`, `Protocol`)."""

    found: tuple[SymbolMatch, ...]
    unknown: tuple[str, ...] = ()


def subclasses(store: Store, name: str, depth: int = DEPTH) -> Lineage:
    """The types whose bases name `name` (bare or qualified): a base the index resolves to
    one of `name`'s definitions, or one it cannot resolve written with `name`'s bare name;
    then theirs, up to `depth` generations. Each generation in file order, the nearest
    first ("subclasses of Exception": the library's base error, then the errors under it).
    A definition of the name that derives from another (plugins/xml's `Formatter` struct
    implementing the `Formatter` interface) is one of them."""
    graph = call_graph(store)
    wanted = {n.qname for n in graph.targets(name)}
    bare = {_bare(name)}
    found: list[SymbolMatch] = []
    seen: set[str] = set()  # a type of the name asked may derive from another so named
    for _ in range(max(depth, 1)):
        derived = [
            cls
            for cls, refs in graph.bases.items()
            if cls not in seen
            and any(_names(graph, cls, ref, wanted - {cls}, bare) and ref != cls for ref in refs)
        ]
        if not derived:
            break
        found += _defined(graph, derived)
        seen |= set(derived)
        wanted, bare = set(derived), {_bare(d) for d in derived}
    return Lineage(tuple(found))


def bases(store: Store, name: str) -> Lineage:
    """The types `name`'s definitions name as their bases, in the order written."""
    graph = call_graph(store)
    known: list[str] = []
    unknown: list[str] = []
    for node in graph.targets(name):
        near = node.record.path if node.record is not None else ""
        for ref in graph.bases.get(node.qname, []):
            found = graph.base_types(ref, near)
            known += found
            unknown += [] if found else [graph.canonical(ref)]
    return Lineage(_defined(graph, known), tuple(dict.fromkeys(unknown)))


def _names(graph: CallGraph, cls: str, ref: str, wanted: set[str], bare: set[str]) -> bool:
    """Whether `cls`'s base `ref` is one of `wanted`: resolved to it, or written with its
    bare name, unless a type so named in `cls`'s own namespaces is the one meant (Ruby's
    `class Readline < Basic` in `Thor::LineEditor` means `Thor::LineEditor::Basic`, not
    `Thor::Shell::Basic`)."""
    canon = graph.canonical(ref)
    if canon in wanted:
        return True
    if canon in graph.symbols.by_qname or _bare(canon) not in bare:
        return False
    meant = _in_scope(graph, cls, canon)
    return not meant or bool(meant & wanted)


def _in_scope(graph: CallGraph, cls: str, written: str) -> set[str]:
    """The types a bare base name means in the namespaces `cls` is nested in, innermost
    first (none: no such type there)."""
    name = _bare(written)
    types = [(m.qname, _nested(m.record)) for m in graph.types_named(name)]
    for entry in graph.symbols.by_qname.get(cls, []):
        scope = _nested(entry.record)
        while "." in scope:
            scope = scope.rsplit(".", 1)[0]
            if found := {q for q, nested in types if nested == f"{scope}.{name}"}:
                return found
    return set()


def _nested(rec: Record) -> str:
    """A symbol's name within its module: `Thor.LineEditor.Basic` of
    `lib.thor.line_editor.basic.Thor.LineEditor.Basic`."""
    qname, module = meta_str(rec, "qname"), meta_str(rec, "package_or_module")
    return qname[len(module) + 1 :] if module and qname.startswith(module + ".") else qname


def _defined(graph: CallGraph, qnames: list[str]) -> tuple[SymbolMatch, ...]:
    matches = [
        SymbolMatch(e.record, "exact", 1.0, q)
        for q in dict.fromkeys(qnames)
        for e in graph.symbols.by_qname.get(q, [])
    ]
    matches.sort(key=lambda m: (m.record.is_test, m.record.path, m.record.span_start or 0))
    return tuple(matches)


def _bare(name: str) -> str:
    return name.replace("::", ".").rstrip(".").rsplit(".", 1)[-1]
