"""C2 walks: who calls a symbol and what it calls, breadth-first, with the code of each call."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from strata.layers import C2_DEPENDENCY_GRAPH
from strata.query.lookup.rows import KeptRows, chunk_at, chunks_of, derived, meta_str, record_json
from strata.query.lookup.symbols import SymbolIndex, symbol_index
from strata.store import Filter, Store, capabilities
from strata.types import JSON, Record

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["CallGraph", "CallLink", "CallWalk", "Node", "call_graph", "callees", "callers"]

# How an edge was tied to a symbol: by the stored resolution, by the qualified name as
# written (re-exports followed), by the bare name only (a guess), or not at all.
RESOLVED, QNAME, NAME, UNRESOLVED = "resolved", "qname", "name", "unresolved"
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


@dataclass(frozen=True, slots=True)
class CallLink:
    """One call edge reached by a walk.

    `symbol` is the caller (for `callers`) or the callee (for `callees`); `via` the
    qname of the node one step nearer the start; `chunk` the caller's C0 chunk holding
    the call line, or the callee's C0 chunk holding its definition.
    """

    edge: Record
    depth: int
    symbol: Node
    via: str
    match: str
    chunk: Record | None = None

    @property
    def lines(self) -> tuple[int, ...]:
        """Every line the caller makes this call on (an edge stands for all of them)."""
        many = self.edge.metadata.get("lines")
        if isinstance(many, list) and many:
            return tuple(int(n) for n in many)
        return (self.edge.span_start,) if self.edge.span_start else ()

    @property
    def resolved(self) -> bool:
        """Whether the edge is tied to the symbol by resolution or qualified name (not a
        bare-name guess, nor unresolved)."""
        return self.match in (RESOLVED, QNAME)

    def to_json(self) -> JSON:
        """The edge's record JSON plus depth, match, the other symbol and its chunk."""
        extra = {
            "depth": self.depth,
            "lines": list(self.lines),
            "match": self.match,
            "resolved": self.resolved,
            "via": self.via,
            "symbol": self.symbol.to_json(),
            "chunk": record_json(self.chunk) if self.chunk else None,
        }
        return record_json(self.edge, extra)


@dataclass(frozen=True, slots=True)
class CallWalk:
    """A walk's answer: the symbols the name resolved to, and the links found, by depth."""

    query: str
    targets: tuple[Node, ...]
    links: tuple[CallLink, ...]
    # Edges tied to a symbol by its bare name only, left out (callers) or shown as
    # unresolved calls (callees) because name matches were not asked for.
    name_only_hidden: int = 0
    direction: str = "callers"  # or "callees"

    def to_json(self) -> list[JSON]:
        """The links as an array of records (the `--json` shape)."""
        return [link.to_json() for link in self.links]

    def hidden_note(self) -> str:
        """What the user should know of the bare-name matches left out ("" if none)."""
        if not self.name_only_hidden:
            return ""
        what = "calls left out" if self.direction == "callers" else "callees shown as unresolved"
        return (
            f"{self.name_only_hidden} {what}: tied by the bare name only "
            f"(`strata {self.direction} --name-matches` shows them)"
        )


class _Edge(NamedTuple):
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


Step = Callable[[Node], Iterator[tuple[_Edge, Node, str]]]
_BATCH = 4096  # rows whose JSON is parsed at a time while the graph is built


class CallGraph:
    """The `calls` edges of C2, indexed both ways, with module re-exports as aliases.

    Built from one Arrow table of the C2 rows: a walk compares small tuples of shared
    strings, and records are made only for the edges it returns (a `Record` per edge
    held ~1.2 GB at 125k edges).
    """

    def __init__(self, table: pa.Table, symbols: SymbolIndex) -> None:
        self.symbols = symbols
        self.rows = KeptRows(table)
        self.aliases: dict[str, str] = {}
        self.bases: dict[str, list[str]] = {}
        self.by_dst_id: dict[str, list[_Edge]] = {}
        self.by_dst: dict[str, list[_Edge]] = {}
        self.by_dst_name: dict[str, list[_Edge]] = {}
        self.by_src_id: dict[str, list[_Edge]] = {}
        self.by_src: dict[str, list[_Edge]] = {}
        calls = []
        for e in _edges(table):
            if e.edge_type == "imports":
                self._add_alias(e)
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

    def record(self, edge: _Edge) -> Record:
        """The C2 record of an edge."""
        return self.rows.record(edge.pos)

    def _add_alias(self, edge: _Edge) -> None:
        """`from .client import Client` at a module's top makes `pkg.Client` mean the class."""
        module, ref = edge.src_qname, edge.dst_ref
        if edge.src_symbol_id != f"{edge.path}::{module}" or "." not in ref:
            return
        alias = f"{module}.{_bare(ref)}"
        if alias != ref and alias not in self.symbols.by_qname:
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

    def incoming(self, node: Node) -> Iterator[tuple[_Edge, Node, str]]:
        """Each call of `node`: (edge, caller, how the edge was tied to `node`)."""
        seen: set[int] = set()
        for edges, how in self._incoming_edges(node):
            for e in edges:
                if e.pos not in seen:
                    seen.add(e.pos)
                    yield e, self._source(e), how

    def _incoming_edges(self, node: Node) -> Iterator[tuple[list[_Edge], str]]:
        if node.symbol_id:
            yield self.by_dst_id.get(node.symbol_id, []), RESOLVED
        yield [e for e in self.by_dst.get(node.qname, []) if self._open(e, node)], QNAME
        if node.record is not None or "." not in node.qname:
            guesses = self.by_dst_name.get(_bare(node.qname), [])
            yield [e for e in guesses if self._guessable(e) and self._open(e, node)], NAME

    def outgoing(self, node: Node) -> Iterator[tuple[_Edge, Node, str]]:
        """Each call `node` makes: (edge, callee, how the callee was found)."""
        if node.symbol_id:
            edges = self.by_src_id.get(node.symbol_id, [])
        else:
            edges = self.by_src.get(node.qname, [])
        for e in edges:
            callee, how = self._target(e)
            yield e, callee, how

    def _target(self, edge: _Edge) -> tuple[Node, str]:
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

    def _source(self, edge: _Edge) -> Node:
        sid = edge.src_symbol_id
        rec = self.symbols.record_of(sid)
        return self.node(rec) if rec is not None else Node(edge.src_qname, sid or None)

    def _open(self, edge: _Edge, node: Node) -> bool:
        """False when the edge is resolved to some other symbol than `node`."""
        return not edge.dst_symbol_id or edge.dst_symbol_id == node.symbol_id

    def _guessable(self, edge: _Edge) -> bool:
        """Whether a bare-name guess may tie this edge: unresolved and not a known other name."""
        if edge.dst_symbol_id or edge.resolution == "external":
            return False
        return self.canonical(edge.dst_ref) not in self.symbols.by_qname


def call_graph(store: Store) -> CallGraph:
    """The store's `CallGraph`, built once per store version."""
    return derived(store, "calls", _build)


def callers(store: Store, qname: str, depth: int = 1, *, name_matches: bool = False) -> CallWalk:
    """Who calls `qname` (bare or qualified), and who calls them, up to `depth` steps.

    Each link carries the edge, its depth, the caller and the caller's C0 chunk holding
    the call line. Calls tied to the symbol only by its bare name (`x.get()` for any
    `get`) are left out, and counted in `name_only_hidden`, unless `name_matches`; then
    they are marked `match="name"`.
    """
    graph = call_graph(store)
    return _walk(store, graph, qname, depth, graph.incoming, True, name_matches)


def callees(store: Store, qname: str, depth: int = 1, *, name_matches: bool = False) -> CallWalk:
    """What `qname` calls, and what those call, up to `depth` steps.

    Each link carries the edge, its depth, the callee (a name only when unresolved)
    and the callee's C0 chunk holding its definition. A callee found by its bare name
    only is shown as an unresolved call (counted in `name_only_hidden`) unless
    `name_matches`.
    """
    graph = call_graph(store)
    return _walk(store, graph, qname, depth, graph.outgoing, False, name_matches)


def _walk(
    store: Store,
    graph: CallGraph,
    name: str,
    depth: int,
    step: Step,
    callers: bool,
    name_matches: bool,
) -> CallWalk:
    targets = graph.targets(name)
    seen = {n.key for n in targets}
    walked: list[tuple[_Edge, int, Node, str, str]] = []
    frontier, edges_seen = list(targets), set()
    hidden = 0
    for level in range(1, max(depth, 0) + 1):
        nxt = []
        for node in frontier:
            for edge, other, how in step(node):
                if edge.pos in edges_seen:
                    continue
                edges_seen.add(edge.pos)
                if how == NAME and not name_matches:
                    hidden += 1
                    if callers:
                        continue
                    other, how = Node(graph.canonical(edge.ref)), UNRESOLVED
                walked.append((edge, level, other, node.qname, how))
                if other.record is not None and other.key not in seen:
                    seen.add(other.key)
                    nxt.append(other)
        frontier = nxt
    records = graph.rows.records([w[0].pos for w in walked])
    found = [(r, *w[1:]) for r, w in zip(records, walked, strict=True)]
    links = _with_chunks(store, found, callers)
    links.sort(key=lambda x: (x.depth, x.edge.path, x.edge.span_start or 0, x.edge.id))
    return CallWalk(name, targets, tuple(links), hidden, "callers" if callers else "callees")


def _with_chunks(
    store: Store, found: list[tuple[Record, int, Node, str, str]], callers: bool
) -> list[CallLink]:
    """Attach each link's chunk: where the call is (callers) or where the callee is defined."""

    def place(edge: Record, other: Node) -> tuple[str, int | None] | None:
        if callers:
            return edge.path, edge.span_start
        return (other.record.path, other.record.span_start) if other.record else None

    spots = {id(f): place(f[0], f[2]) for f in found}
    chunks = chunks_of(store, (s[0] for s in spots.values() if s))
    out = []
    for f in found:
        spot = spots[id(f)]
        chunk = chunk_at(chunks.get(spot[0], []), spot[1]) if spot else None
        out.append(CallLink(f[0], f[1], f[2], f[3], f[4], chunk))
    return out


def _build(store: Store) -> CallGraph:
    from strata.store.arrow import SEARCH_COLUMNS

    table = capabilities.fetch_table(store, Filter(layers=(C2_DEPENDENCY_GRAPH,)), SEARCH_COLUMNS)
    return CallGraph(table, symbol_index(store))


def _edges(table: pa.Table) -> Iterator[_Edge]:
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
            yield _Edge(
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
