"""Go's interfaces, satisfied without being named (pure).

A Go type implements an interface by having its methods: no `implements` is written, so
"what implements Formatter" and "what does JSONFormatter implement" have no `inherits`
edge to read. Here a type (a struct or any named type) whose methods, its own and those
of the types it embeds, include every method an interface lists (its own and those of the
interfaces it embeds), with as many parameters and results, gets an `inherits` edge to
that interface, resolved, at its declaration's line.

What is left out, as a type checker would not:
- an interface with no method (`interface{}`, a constraint of types only): every type
  would satisfy it;
- an interface embedding one the repository does not define (`io.Reader`): its methods
  are unknown, so no set found here is known to be complete.
Parameter and result types are not compared (a type written `*Entry` in its package is
`*logrus.Entry` in another); the count of each is.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from strata.index.code.model import Edge, Symbol

__all__ = ["implementations"]

_TYPE_KINDS = frozenset({"struct", "type"})
_MAX_EMBEDDED = 4  # levels of embedding followed, in a type or an interface
Arity = tuple[int, int] | None  # parameters and results, None when the signature is cut


@dataclass
class _Package:
    """Go's types, interfaces and methods, each keyed by (directory, name)."""

    types: dict[tuple[str, str], Symbol] = field(default_factory=dict)
    interfaces: dict[tuple[str, str], Symbol] = field(default_factory=dict)
    methods: dict[tuple[str, str], dict[str, Arity]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    # an interface's own method specs, by the interface's symbol id
    specs: dict[str, dict[str, Arity]] = field(default_factory=lambda: defaultdict(dict))
    by_id: dict[str, Symbol] = field(default_factory=dict)


def implementations(symbols: Iterable[Symbol], edges: Sequence[Edge]) -> list[Edge]:
    """An `inherits` edge from each Go type to each interface of the repository it
    satisfies (see the module's doc), in the types' order."""
    pkg = _Package()
    for s in symbols:
        if s.lang == "go":  # an interface's method specs are its declarations
            _add(pkg, s)
    if not pkg.interfaces:
        return []
    embedded: dict[str, list[str]] = defaultdict(list)  # what a type or interface embeds
    for e in edges:
        if e.edge_type == "inherits" and e.src_symbol_id in pkg.by_id:
            embedded[e.src_symbol_id].append(e.dst_ref)
    wanted = {
        key: needs
        for key, iface in pkg.interfaces.items()
        if (needs := _needs(pkg, iface, embedded, _MAX_EMBEDDED))
    }
    has: dict[str, set[tuple[str, str]]] = defaultdict(set)  # method name -> types with it
    sets = {key: _method_set(pkg, key, embedded, _MAX_EMBEDDED) for key in pkg.types}
    for key, methods in sets.items():
        for name in methods:
            has[name].add(key)
    out: list[Edge] = []
    for ikey, needs in wanted.items():
        iface = pkg.interfaces[ikey]
        rarest = min(needs, key=lambda name: len(has.get(name, ())))
        for tkey in sorted(has.get(rarest, ())):
            if all(_fits(sets[tkey].get(name, False), arity) for name, arity in needs.items()):
                out.append(_edge(pkg.types[tkey], iface))
    out.sort(key=lambda e: (e.path, e.line, e.dst_qname or ""))
    return out


def _add(pkg: _Package, s: Symbol) -> None:
    pkg.by_id[s.symbol_id] = s
    where = posixpath.dirname(s.path)
    if s.kind == "interface":
        pkg.interfaces[(where, s.name)] = s
    elif s.kind in _TYPE_KINDS and s.parent_symbol_id is None:
        pkg.types[(where, s.name)] = s
    elif s.kind == "method":
        parent = pkg.by_id.get(s.parent_symbol_id or "")
        if parent is not None and parent.kind == "interface":
            pkg.specs[parent.symbol_id][s.name] = arity(s.signature, s.name)
        elif owner := s.qname.rsplit(".", 2)[-2:-1]:  # a method may be apart from its type
            pkg.methods[(where, owner[0])][s.name] = arity(s.signature, s.name)


def _needs(
    pkg: _Package, iface: Symbol, embedded: dict[str, list[str]], depth: int
) -> dict[str, Arity] | None:
    """The methods an interface asks for, or None when some are unknown (it embeds an
    interface the repository does not define, or embedding goes deeper than followed)."""
    needs = dict(pkg.specs.get(iface.symbol_id, {}))
    for ref in embedded.get(iface.symbol_id, []):
        inner = _named(pkg.interfaces, posixpath.dirname(iface.path), ref)
        more = _needs(pkg, inner, embedded, depth - 1) if inner and depth > 0 else None
        if more is None:
            return None
        needs.update(more)
    return needs


def _method_set(
    pkg: _Package, key: tuple[str, str], embedded: dict[str, list[str]], depth: int
) -> dict[str, Arity]:
    """A type's methods, with those its embedded types promote (its own win)."""
    own = pkg.methods.get(key, {})
    sym = pkg.types[key]
    out: dict[str, Arity] = {}
    for ref in embedded.get(sym.symbol_id, []) if depth > 0 else []:
        inner = _named(pkg.types, key[0], ref)
        if inner is not None:
            where = posixpath.dirname(inner.path)
            out.update(_method_set(pkg, (where, inner.name), embedded, depth - 1))
    out.update(own)
    return out


def _named(table: dict[tuple[str, str], Symbol], where: str, ref: str) -> Symbol | None:
    """The definition an embedded name means: `Writer` in the embedding package, or
    `pkg.Writer` in the one directory named `pkg` that defines it."""
    qualifier, _, name = ref.rpartition(".")
    if not qualifier:
        return table.get((where, name))
    found = [s for (d, n), s in table.items() if n == name and posixpath.basename(d) == qualifier]
    return found[0] if len(found) == 1 else None


def _fits(have: Arity | bool, need: Arity) -> bool:
    """Whether a method (False: the type has none so named) can be the one asked for."""
    if have is False:
        return False
    return have is None or need is None or have == need


def arity(signature: str, name: str) -> Arity:
    """How many parameters and results a Go signature has: `func (f *T) Format(entry *Entry)
    ([]byte, error)` and `Format(*Entry) ([]byte, error)` are (1, 2); None when the
    signature is cut before its parameter list closes."""
    start = signature.find(name + "(")
    if start < 0:
        return None
    params, rest = _group(signature, start + len(name))
    if params is None:
        return None
    rest = rest.strip().removesuffix("{").strip()
    if rest.startswith("("):
        results, _ = _group(rest, 0)
        return None if results is None else (_count(params), _count(results))
    return _count(params), 1 if rest else 0


def _group(text: str, open_at: int) -> tuple[str | None, str]:
    """The text inside the brackets opening at `open_at`, and what follows them."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return text[open_at + 1 : i], text[i + 1 :]
    return None, ""


def _count(inside: str) -> int:
    """The comma-separated items at the top level of a parameter or result list."""
    if not inside.strip():
        return 0
    depth, n = 0, 1
    for ch in inside:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            n += 1
    return n - inside.rstrip().endswith(",")


def _edge(t: Symbol, iface: Symbol) -> Edge:
    line = t.decl_line or t.start_line
    return Edge(
        edge_id=f"{t.symbol_id}->inherits:{iface.qname}@implied",
        edge_type="inherits",
        src_symbol_id=t.symbol_id,
        src_qname=t.qname,
        dst_ref=iface.name,
        path=t.path,
        line=line,
        resolution="resolved",
        dst_symbol_id=iface.symbol_id,
        dst_qname=iface.qname,
        is_test=t.is_test,
    )
