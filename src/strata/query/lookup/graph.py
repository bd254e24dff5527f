"""The C2 call graph: the `calls` edges indexed both ways, re-exports and base classes
followed (`strata.query.lookup.walks` walks it: callers, callees)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from strata.layers import C2_DEPENDENCY_GRAPH
from strata.query.lookup.rows import KeptRows, derived, meta_str
from strata.query.lookup.symbols import SymbolIndex, SymbolMatch, symbol_index
from strata.store import Filter, Store, capabilities
from strata.text.langs import is_stub
from strata.types import JSON, Record

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["NAME", "QNAME", "RESOLVED", "UNRESOLVED", "CallGraph", "Edge", "Node", "call_graph"]

# How an edge was tied to a symbol: by the stored resolution, by the qualified name as
# written (re-exports followed), by the bare name only (a guess), or not at all.
RESOLVED, QNAME, NAME, UNRESOLVED = "resolved", "qname", "name", "unresolved"
# A call of the interface's (protocol's, trait's) method a method implements: Go's
# `entry.Logger.Formatter.Format(entry)` may run `TextFormatter.Format`
DISPATCH = "interface"
_DECLARING = frozenset({"interface", "protocol", "trait"})
TYPE_KINDS = frozenset({"class", "interface", "struct", "trait", "enum", "type", "protocol"})
_ALIAS_HOPS = 5


@dataclass(frozen=True, slots=True)
class Node:
    """A symbol in a walk: its C1 record when the index knows it, else just the name."""

    qname: str
    symbol_id: str | None = None
    record: Record | None = None

    @property
    def key(self) -> str:
        """What makes two nodes the same symbol."""
        return self.symbol_id or self.qname

    def to_json(self) -> JSON:
        """qname, symbol id and, when known, where it is defined."""
        r = self.record
        where = {"path": r.path, "start_line": r.span_start, "end_line": r.span_end} if r else {}
        kind = meta_str(r, "kind") if r else ""
        return {"qname": self.qname, "symbol_id": self.symbol_id, "kind": kind or None, **where}


class Edge(NamedTuple):
    """What a walk reads of one C2 row (equal strings are one shared object)."""

    pos: int  # the row in the graph's kept rows
    path: str
    edge_type: str
    src_qname: str
    src_symbol_id: str
    dst_ref: str
    dst_qname: str
    dst_symbol_id: str
    resolution: str

    @property
    def ref(self) -> str:
        """The callee as the edge names it: its qualified name when known, else as written."""
        return self.dst_qname or self.dst_ref


_BATCH = 4096  # rows whose JSON is parsed at a time while the graph is built


class CallGraph:
    """The `calls` edges of C2, indexed both ways, with module re-exports as aliases (and
    the `imports` edges, in order).

    Built from one Arrow table of the C2 rows: a walk compares small tuples of shared
    strings, and records are made only for the edges it returns (a `Record` per edge
    held ~1.2 GB at 125k edges).
    """

    def __init__(self, table: pa.Table, symbols: SymbolIndex) -> None:
        self.symbols = symbols
        self.rows = KeptRows(table)
        self.aliases: dict[str, str] = {}
        self.bases: dict[str, list[str]] = {}
        self.by_dst_id: dict[str, list[Edge]] = {}
        self.by_dst: dict[str, list[Edge]] = {}
        self.by_dst_name: dict[str, list[Edge]] = {}
        self.by_src_id: dict[str, list[Edge]] = {}
        self.by_src: dict[str, list[Edge]] = {}
        self._guessed: dict[str, list[Edge]] = {}  # see `_guesses`
        self._sources: dict[int, Node] = {}  # see `_source`
        calls = []
        self.imports: list[Edge] = []
        for e in _edges(table):
            if e.edge_type == "imports":
                self._add_alias(e)
                self.imports.append(e)
            elif e.edge_type == "inherits":
                self.bases.setdefault(e.src_qname, []).append(e.ref)
            elif e.edge_type == "calls":
                calls.append(e)
        for e in calls:
            self.by_dst.setdefault(self.canonical(e.ref), []).append(e)
            self.by_dst_name.setdefault(_bare(e.ref), []).append(e)
            self.by_src.setdefault(e.src_qname, []).append(e)
            if e.dst_symbol_id:
                self.by_dst_id.setdefault(e.dst_symbol_id, []).append(e)
            if e.src_symbol_id:
                self.by_src_id.setdefault(e.src_symbol_id, []).append(e)

    def record(self, edge: Edge) -> Record:
        """The C2 record of an edge."""
        return self.rows.record(edge.pos)

    def _add_alias(self, edge: Edge) -> None:
        """`from .client import Client` at a module's top makes `pkg.Client` mean the class."""
        module, ref = edge.src_qname, edge.dst_ref
        if edge.src_symbol_id != f"{edge.path}::{module}" or "." not in ref:
            return
        alias = f"{module}.{_bare(ref)}"
        stubs_only = all(is_stub(e.record.path) for e in self.symbols.by_qname.get(alias, ()))
        if alias != ref and stubs_only:  # a stub's `attrs.field` is `attr.field` at run time
            self.aliases.setdefault(alias, ref)

    def canonical(self, ref: str) -> str:
        """What `ref` names: re-exports followed, an inherited method found in its base class.

        `pkg.Client.send` (re-exported) -> `pkg.client.Client.send`;
        `pkg.Sandbox.sign` (inherited) -> `pkg.Gateway.sign`.
        """
        ref = self._unalias(ref)
        return ref if ref in self.symbols.by_qname else self._inherited(ref, _ALIAS_HOPS) or ref

    def _inherited(self, ref: str, hops: int) -> str | None:
        owner, _, name = ref.rpartition(".")
        for base in self.bases.get(owner, []) if hops > 0 else []:
            found = f"{self._unalias(base)}.{name}"
            if found in self.symbols.by_qname:
                return found
            deeper = self._inherited(found, hops - 1)
            if deeper:
                return deeper
        return None

    def _unalias(self, ref: str) -> str:
        for _ in range(_ALIAS_HOPS):
            parts = ref.split(".")
            for i in range(len(parts), 1, -1):
                head = ".".join(parts[:i])
                if head in self.aliases:
                    ref = ".".join([self.aliases[head], *parts[i:]])
                    break
            else:
                return ref
        return ref

    def node(self, record: Record) -> Node:
        """The walk node of a C1 record."""
        return Node(
            meta_str(record, "qname") or record.title, meta_str(record, "symbol_id"), record
        )

    def targets(self, name: str) -> tuple[Node, ...]:
        """What a name means: its best exact/qualified symbols, else the name as written.

        A name no symbol has is followed through re-exports and base classes first
        (`pkg.charge` -> `pkg.payments.charge`).
        """
        found = [m for m in self.symbols.find(name, limit=50) if m.match in ("exact", "qualified")]
        if found:
            top = found[0].score
            return tuple(self.node(m.record) for m in found if m.score == top)
        # A node needs the symbol's id: edges the corpus pass resolved match no bare qname.
        ref = self.canonical(name.strip())
        defined = self.symbols.by_qname.get(ref, [])
        return tuple(self.node(e.record) for e in defined) or (Node(ref),)

    def incoming(self, node: Node, met: set[object]) -> Iterator[tuple[Edge, Node, str]]:
        """Each call of `node` a walk has not met yet: (edge, caller, how the edge was tied
        to `node`). `met` holds the walk's edge positions and the bare names whose guesses
        it has had, and gains these: a walk from the 50 `execute`s of a large repository
        goes through the thousands of calls of a bare `execute` once, not 50 times."""
        for edges, how, name in self._incoming_edges(node):
            if name is not None:
                if ("guesses", name) in met:
                    continue
                met.add(("guesses", name))
            for e in edges:
                if e.pos not in met:
                    met.add(e.pos)
                    yield e, self._source(e), how

    def _incoming_edges(self, node: Node) -> Iterator[tuple[list[Edge], str, str | None]]:
        """Lists of edges into `node`, how they are tied to it, and the bare name of those
        tied by their name alone (the same list for every node of that name)."""
        if node.symbol_id:
            yield self.by_dst_id.get(node.symbol_id, []), RESOLVED, None
        yield [e for e in self.by_dst.get(node.qname, []) if self._open(e, node)], QNAME, None
        for spec in self._implemented(node):
            by_id = self.by_dst_id.get(spec.symbol_id or "", [])
            by_name = [e for e in self.by_dst.get(spec.qname, []) if self._open(e, spec)]
            yield by_id + [e for e in by_name if e not in by_id], DISPATCH, None
        if node.record is not None or "." not in node.qname:
            name = _bare(node.qname)
            yield self._guesses(name), NAME, name

    def _implemented(self, node: Node) -> list[Node]:
        """The interface methods a method implements: its name's in each interface,
        protocol or trait its type derives from (Go's implicitly)."""
        if node.record is None or node.record.kind != "method":
            return []
        owner, _, name = node.qname.rpartition(".")
        found = []
        for ref in self.bases.get(owner, []):
            for base in self.base_types(ref):
                if any(e.kind in _DECLARING for e in self.symbols.by_qname.get(base, [])):
                    specs = self.symbols.by_qname.get(f"{base}.{name}", [])
                    found += [self.node(e.record) for e in specs]
        return found

    def types_named(self, name: str) -> list[SymbolMatch]:
        """The types whose bare name is `name`'s last part."""
        found = self.symbols.find(_bare(name), limit=20, exact=True)
        return [m for m in found if m.match == "exact" and m.kind in TYPE_KINDS]

    def base_types(self, ref: str, near: str = "") -> list[str]:
        """The qnames a base names: itself when the index defines it, else the types of its
        bare name (Java's `extends MemoryStore` written without the package; an `inherits`
        row keeps the name as written), those of the file `near` first."""
        canon = self.canonical(ref)
        if canon in self.symbols.by_qname:
            return [canon]
        found = self.types_named(canon)
        same = [m.qname for m in found if m.record.path == near]
        return same or [m.qname for m in found]

    def _guesses(self, name: str) -> list[Edge]:
        """The edges a bare-name guess may tie to any symbol called `name` (unresolved, so
        open to every node): the same for every `execute` a walk starts from, worked out
        once per graph (a few thousand such calls in a large repository)."""
        found = self._guessed.get(name)
        if found is None:
            found = [e for e in self.by_dst_name.get(name, []) if self._guessable(e)]
            self._guessed[name] = found
        return found

    def outgoing(self, node: Node, met: set[object]) -> Iterator[tuple[Edge, Node, str]]:
        """Each call `node` makes that a walk has not met yet (`met`, as `incoming`):
        (edge, callee, how the callee was found)."""
        if node.symbol_id:
            edges = self.by_src_id.get(node.symbol_id, [])
        else:
            edges = self.by_src.get(node.qname, [])
        for e in edges:
            if e.pos not in met:
                met.add(e.pos)
                callee, how = self._target(e)
                yield e, callee, how

    def _target(self, edge: Edge) -> tuple[Node, str]:
        by_id = self.symbols.record_of(edge.dst_symbol_id)
        if by_id is not None:
            return self.node(by_id), RESOLVED
        ref = self.canonical(edge.ref)
        same = self.symbols.by_qname.get(ref, [])
        if same:
            return self.node(same[0].record), QNAME
        named = self.symbols.by_name.get(_bare(ref), [])
        if len(named) == 1 and self._guessable(edge):
            return self.node(named[0].record), NAME
        return Node(ref), UNRESOLVED

    def _source(self, edge: Edge) -> Node:
        """The caller of an edge (worked out once per edge: a walk from many targets of one
        name meets the same calls again and again)."""
        node = self._sources.get(edge.pos)
        if node is None:
            sid = edge.src_symbol_id
            rec = self.symbols.record_of(sid)
            node = self.node(rec) if rec is not None else Node(edge.src_qname, sid or None)
            self._sources[edge.pos] = node
        return node

    def _open(self, edge: Edge, node: Node) -> bool:
        """False when the edge is resolved to some other symbol than `node`."""
        return not edge.dst_symbol_id or edge.dst_symbol_id == node.symbol_id

    def _guessable(self, edge: Edge) -> bool:
        """Whether a bare-name guess may tie this edge: unresolved and not a known other name."""
        if edge.dst_symbol_id or edge.resolution == "external":
            return False
        return self.canonical(edge.dst_ref) not in self.symbols.by_qname


def call_graph(store: Store) -> CallGraph:
    """The store's `CallGraph`, built once per store version."""
    return derived(store, "calls", _build)


def _build(store: Store) -> CallGraph:
    from strata.store.arrow import SEARCH_COLUMNS

    table = capabilities.fetch_table(store, Filter(layers=(C2_DEPENDENCY_GRAPH,)), SEARCH_COLUMNS)
    return CallGraph(table, symbol_index(store))


def _edges(table: pa.Table) -> Iterator[Edge]:
    """The rows' walk fields, their JSON parsed a batch at a time."""
    shared: dict[str, str] = {}

    def text(value: Any) -> str:
        s = "" if value is None else str(value)
        return shared.setdefault(s, s)

    for start in range(0, table.num_rows, _BATCH):
        part = table.slice(start, _BATCH)
        paths = part.column("path").to_pylist()
        metas = part.column("metadata").to_pylist()
        for i, (path, raw) in enumerate(zip(paths, metas, strict=True)):
            meta = json.loads(raw or "{}")
            yield Edge(
                start + i,
                text(path),
                text(meta.get("edge_type")),
                text(meta.get("src_qname")),
                text(meta.get("src_symbol_id")),
                text(meta.get("dst_ref")),
                text(meta.get("dst_qname")),
                text(meta.get("dst_symbol_id")),
                text(meta.get("resolution")),
            )


def _bare(ref: str) -> str:
    return ref.rsplit(".", 1)[-1]
