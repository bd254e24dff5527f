"""C2 walks: who calls a symbol and what it calls, breadth-first over the `CallGraph`,
with the code of each call."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from strata.query.lookup.graph import (
    DISPATCH,
    NAME,
    QNAME,
    RESOLVED,
    UNRESOLVED,
    CallGraph,
    Edge,
    Node,
    call_graph,
)
from strata.query.lookup.rows import chunks_at, link_json
from strata.query.lookup.spelling import meant, meant_note
from strata.query.path_priors import path_kinds
from strata.store import Store
from strata.types import JSON, Record

__all__ = ["CallLink", "CallWalk", "as_meant", "callees", "callers"]

Step = Callable[[Node, set[object]], Iterator[tuple[Edge, Node, str]]]


@dataclass(frozen=True, slots=True)
class CallLink:
    """One call edge reached by a walk.

    `symbol` is the caller (for `callers`) or the callee (for `callees`); `via` the
    qname of the node one step nearer the start (for a call of an interface's method the
    node implements, `match="interface"`, that method's); `chunk` the caller's C0 chunk
    holding the call line, or the callee's C0 chunk holding its definition.
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
        return self.match in (RESOLVED, QNAME, DISPATCH)

    def to_json(self) -> JSON:
        """The edge's record JSON plus depth, lines, match, the other symbol (and its
        `qname`) and its chunk."""
        return link_json(
            self, qname=self.symbol.qname, lines=list(self.lines), resolved=self.resolved
        )


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
    read_as: str = ""  # the defined name `query` misspells, walked instead (`meant`)

    @property
    def found(self) -> bool:
        """Whether the name named a symbol or a call (not nothing at all)."""
        return bool(self.links) or any(t.record is not None for t in self.targets)

    def read_as_note(self) -> str:
        """What the user should know of a misspelt name read as another ("" if none)."""
        return meant_note(self.query, self.read_as) if self.read_as else ""

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


def as_meant(store: Store, name: str, walk: Callable[[str], CallWalk]) -> CallWalk:
    """The walk of `name`, or, when it names nothing, of the one defined name it misspells
    (`spelling.meant`), marked `read_as`."""
    found = walk(name)
    if found.found or not (fixed := meant(store, name)):
        return found
    return dataclasses.replace(walk(fixed), query=name, read_as=fixed)


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
    walked: list[tuple[Edge, int, Node, str, str]] = []
    frontier, met = list(targets), set[object]()  # the step skips and adds what it met
    hidden = 0
    for level in range(1, max(depth, 0) + 1):
        nxt = []
        for node in frontier:
            for edge, other, how in step(node, met):
                if how == NAME and not name_matches:
                    hidden += 1
                    if callers:
                        continue
                    other, how = Node(graph.canonical(edge.ref)), UNRESOLVED
                via = _dispatched(graph, edge) if how == DISPATCH else node.qname
                walked.append((edge, level, other, via, how))
                if other.record is not None and other.key not in seen:
                    seen.add(other.key)
                    nxt.append(other)
        frontier = nxt
    records = graph.rows.records([w[0].pos for w in walked])
    found = [(r, *w[1:]) for r, w in zip(records, walked, strict=True)]
    links = _with_chunks(store, found, callers)
    links.sort(
        key=lambda x: (x.depth, _place(x.edge), x.edge.path, x.edge.span_start or 0, x.edge.id)
    )
    return CallWalk(name, targets, tuple(links), hidden, "callers" if callers else "callees")


def _dispatched(graph: CallGraph, edge: Edge) -> str:
    """The interface method a call is tied to (a walk's `via` for a `DISPATCH` link)."""
    spec = graph.symbols.record_of(edge.dst_symbol_id)
    return graph.node(spec).qname if spec is not None else edge.ref


def _place(edge: Record) -> int:
    """Where a call sits, in the order a reader wants them: the project's own code, then
    its examples and vendored code, then its tests."""
    if edge.is_test:
        return 2
    kinds = path_kinds(edge.path)
    return 1 if kinds.example or kinds.vendored else 0


def _with_chunks(
    store: Store, found: list[tuple[Record, int, Node, str, str]], callers: bool
) -> list[CallLink]:
    """Attach each link's chunk: where the call is (callers) or where the callee is defined."""

    def place(edge: Record, other: Node) -> tuple[str, int | None] | None:
        if callers:
            return edge.path, edge.span_start
        return (other.record.path, other.record.span_start) if other.record else None

    spots = {id(f): place(f[0], f[2]) for f in found}
    chunks = chunks_at(store, (s for s in spots.values() if s))
    out = []
    for f in found:
        spot = spots[id(f)]
        chunk = chunks.get(spot) if spot else None
        out.append(CallLink(f[0], f[1], f[2], f[3], f[4], chunk))
    return out
