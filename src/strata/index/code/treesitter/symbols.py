"""Symbols (C1) and same-file edges (C2) of one source file, through tree-sitter queries."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from strata.index.code import sketch
from strata.index.code.bindings import Bound, go_bindings, held_type, receiver_of
from strata.index.code.model import (
    MAX_BASES,
    TYPE_KINDS,
    Edge,
    Symbol,
    base_name,
    callables,
)
from strata.index.code.treesitter import grammars, tagquery
from strata.index.code.treesitter.outlines import Definition, Reference
from strata.index.code.treesitter.tagquery import directive
from strata.index.code.treesitter.tags import outline
from strata.index.code.typed import Typed, typed_bindings
from strata.text.doctags import PROSE_TAG
from strata.text.langs import module_from_path
from strata.text.testcode import is_test_path, is_test_unit

# Definition kinds that only group members (Rust `impl`, Swift `extension`): not symbols.
GROUP_KINDS: Final = frozenset({"impl", "singleton"})  # no symbol: its members are its owner's
# Comment and docstring openers, Haskell's `-- |`, OCaml's `(**`, Erlang's `%%`, Lisp's `;;`,
# Fortran's `!` and PowerShell's `<#`.
_COMMENT_MARKS = re.compile(
    r"^\s*(?:/\*\*?|\*/|\*|///?!?|<?#+|--+(?:\s*[|^])?|\(\*\*?|%+|;+|!+"
    r"|\"\"\"|'''|[rbuRBU]?\"\"\")\s?"
)
_TAGS = re.compile(r"<[^>]+>")
# C#'s XML doc references keep the name they point at: `<see cref="T:Ns.JToken"/>` is JToken
_REFS = re.compile(
    r"<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name)=\"(?:\w:)?([^\"]+)\"\s*/>"
)
# Section markers above a definition are no doc: Swift's `// MARK: -`, Objective-C's pragma
_MARKERS = re.compile(r"^(?:MARK|TODO|FIXME|XXX)\b|^(?:#\s*)?pragma\s+mark\b")
_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)")


def reads(lang: str) -> bool:
    """Whether `extract` reads `lang`: a grammar with a tag query that loads here, or a
    language read by its definitions' lines (strata.index.code.sketch)."""
    return sketch.knows(lang) or (tagquery.has_query(lang) and grammars.loads(lang))


def extract(text: str, lang: str, path: str) -> tuple[list[Symbol], list[Edge]]:
    """Every definition of a file as a Symbol, and its imports, calls and bases as Edges (pure).

    Args:
        text: the file's text.
        lang: a language with a grammar and a query (`strata.index.code.treesitter.grammars`).
        path: the file's POSIX path relative to the root (ids and qnames derive from it).

    Returns:
        Symbols in file order, then edges in line order. Calls and bases are resolved
        against this file's symbols only; imports are `external`, or `unresolved` when
        they name a file of the project (left to the caller to resolve).
    """
    found = outline(text, lang)
    module = module_from_path(path)
    bases: dict[int, list[str]] = {}
    for ref in found.references:
        if ref.kind == "inherits" and ref.owner is not None:
            bases.setdefault(ref.owner, []).append(ref.name)
    symbols, by_def = _symbols(found.definitions, bases, lang, path, module)
    bound = go_bindings(text) if lang == "go" else typed_bindings(symbols, lang, text)
    edges = _edges(found.references, symbols, by_def, path, module, bound)
    return symbols, edges


def _top_function(d: Definition) -> bool:
    """A function outside any class or block. In a language whose query says so (C's), a
    bodiless one beside a bodied one of the same name in the file (a prototype) declares
    it rather than defining it: "where is X defined" should find the body. A member's bare
    signature stays (an Objective-C `@interface`'s), and so do TypeScript's overloads."""
    return d.kind == "function" and d.parent is None


def _symbols(
    defs: Sequence[Definition],
    bases: dict[int, list[str]],
    lang: str,
    path: str,
    module: str,
) -> tuple[list[Symbol], list[Symbol | None]]:
    """The symbols, and for each definition the symbol that stands for it (or encloses it)."""
    test = is_test_path(path)
    seen: dict[str, int] = {}
    by_qname: dict[str, Symbol] = {}
    symbols: list[Symbol] = []
    by_def: list[Symbol | None] = []
    # C and C++: a function without a body is a declaration of one defined elsewhere (an
    # interface's or a Haskell class's signature is the definition itself)
    prototypes = directive(lang, "prototypes: declarations")
    interfaces = directive(lang, "interfaces: declarations")  # Objective-C's `@interface`
    # Go: an interface's method (no body) declares what the types that have it define
    contracts = directive(lang, "signatures: declarations")
    bodied = {d.path for d in defs if d.has_body and _top_function(d)} if prototypes else set()
    declared: dict[tuple[str, ...], str] = {}
    for i, d in enumerate(defs):
        parent = by_def[d.parent] if d.parent is not None else None
        if d.kind in GROUP_KINDS:
            by_def.append(by_qname.get(_qname(module, d.path)) or parent)
            continue
        if not d.has_body and _top_function(d) and d.path in bodied:
            by_def.append(parent)  # a prototype or an overload of a function defined here
            declared.setdefault(d.path, d.doc)  # its doc, for a body written without one
            continue
        qname = _qname(module, d.path)
        seen[qname] = seen.get(qname, 0) + 1
        owner = by_qname.get(_qname(module, d.path[:-1])) if len(d.path) > 1 else None
        sym = Symbol(
            symbol_id=f"{path}::{qname}" + (f"#{seen[qname]}" if seen[qname] > 1 else ""),
            qname=qname,
            name=d.name,
            kind=d.kind,
            path=path,
            lang=lang,
            start_line=d.start_line,
            end_line=d.end_line,
            decl_line=d.decl_line if d.decl_line != d.start_line else 0,
            declaration=(prototypes and not d.has_body and d.kind in ("function", "method"))
            or (interfaces and d.kind == "interface")
            or (contracts and not d.has_body and parent is not None and parent.kind == "interface"),
            implementation=d.parent is not None and defs[d.parent].kind in GROUP_KINDS,
            signature=d.signature,
            summary=summary(d.doc or declared.get(d.path, "")),
            parent_symbol_id=owner.symbol_id if owner else None,
            package_or_module=module,
            is_test=test or is_test_unit(lang, "\n".join((*d.decorators, d.signature))),
            decorators=d.decorators,
            bases=tuple(bases.get(i, ())),
        )
        by_qname.setdefault(qname, sym)
        symbols.append(sym)
        by_def.append(sym)
    return symbols, by_def


def _edges(
    refs: Sequence[Reference],
    symbols: Sequence[Symbol],
    by_def: Sequence[Symbol | None],
    path: str,
    module: str,
    bound: Bound | None,
) -> list[Edge]:
    by_name: dict[str, list[Symbol]] = {}
    for sym in symbols:
        by_name.setdefault(sym.name, []).append(sym)
    test = is_test_path(path)
    edges: list[Edge] = []
    seen: set[str] = set()
    for ref in refs:
        src = by_def[ref.owner] if ref.owner is not None else None
        src_id, src_qname = (src.symbol_id, src.qname) if src else (f"{path}::{module}", module)
        edge_type = {"call": "calls", "import": "imports", "inherits": "inherits"}.get(ref.kind)
        if edge_type is None:
            continue
        edge_id = f"{src_id}->{edge_type}:{ref.written}@{ref.line}"
        if edge_id in seen:
            continue
        seen.add(edge_id)
        from_test = test or (src is not None and src.is_test)
        base = Edge(
            edge_id, edge_type, src_id, src_qname, ref.written, path, ref.line, is_test=from_test
        )
        targets = by_name.get(ref.name.rsplit(".", 1)[-1], [])
        held = receiver_of(ref.written, ref.line, bound) if ref.kind == "call" else ""
        # a typed language's `()F` is read here (unread: as if unbound), Go's across its
        # package too (crossfile)
        if (
            held
            and bound
            and ((kind := _held_here(held, by_name, bound)) or not isinstance(bound, Typed))
        ):
            base = replace(base, receiver=kind if isinstance(bound, Typed) else held)
            targets = _of_type(kind, targets, by_name)
        if ref.kind == "call":
            targets = callables(targets)
        edges.append(_resolve(base, ref, _owned_by_receiver(ref, targets)))
    return edges


# What a call's receiver says of its target (`JSON.parse`, `Math.max`, `ZodType.parse`,
# `Foo::new`): a capitalised receiver names a type or a module (a global, a class, an
# import), so a same-file method of another type is not what it calls.
_RECEIVER = re.compile(r"(?:^|[.:>])([A-Za-z_$][\w$]*)(?:\.|::|->)[A-Za-z_$][\w$]*[!?]?$")


def _owned_by_receiver(ref: Reference, targets: list[Symbol]) -> list[Symbol]:
    """`targets` a call can mean by its receiver: for `Type.method(...)`, the `method`s of a
    `Type`; for any other call (`this.m()`, `obj.m()`, `m()`), all of them."""
    if ref.kind != "call" or not targets or not (m := _RECEIVER.search(ref.written)):
        return targets
    receiver = m.group(1)
    if not receiver[:1].isupper() or receiver == "Self":  # Rust's and Swift's own type
        return targets
    return [t for t in targets if t.qname.rsplit(".", 2)[-2:-1] == [receiver]]


def _held_here(held: str, by_name: Mapping[str, list[Symbol]], bound: Bound) -> str:
    """The type a bound value holds (`held`: the type, or `()F` for what the file's function
    `F` returns, a typed language's method too); "" when this file does not say which type
    (the resolution across files reads a Go `F` where it is defined)."""
    typed = isinstance(bound, Typed)

    def functions(name: str) -> list[Symbol]:
        found = by_name.get(name, [])
        return [f for f in found if f.parent_symbol_id is None or (typed and f.kind in _CALLS)]

    return held_type(held, functions, bound.returned)


def _of_type(held: str, targets: list[Symbol], by_name: Mapping[str, list[Symbol]]) -> list[Symbol]:
    """The `targets` that are members of the type `held` or of its nearest base the file
    defines, else the extension functions among them (none for no type)."""
    level, seen = [held] if held else [], set()
    members: list[Symbol] = []
    for _ in range(MAX_BASES):  # the type's own members, else its nearest base's here
        members = [t for t in targets if t.qname.rsplit(".", 2)[-2:-1] in ([n] for n in level)]
        seen.update(level)
        if members or not (level := [b for n in level for b in _bases_of(n, by_name)]):
            break
        level = [b for b in level if b not in seen]
    return members or [t for t in targets if held and _EXTENSION.search(t.signature)]


def _bases_of(name: str, by_name: Mapping[str, list[Symbol]]) -> list[str]:
    """The bare names of the bases the file's types named `name` derive from."""
    return [base_name(b) for s in by_name.get(name, []) if s.kind in TYPE_KINDS for b in s.bases]


_CALLS = frozenset({"function", "method"})
# A function called as a method of the value it extends: C#'s `static T F(this T x)`,
# Kotlin's `fun T.f()`; a call on a value of a type with no such member may mean one.
_EXTENSION = re.compile(r"\(\s*this\s|\bfun\s+(?:<[^>]*>\s*)?[\w.<>?, ]+\.\w+\s*\(")


def _resolve(edge: Edge, ref: Reference, targets: list[Symbol]) -> Edge:
    """Imports: external unless local; calls and bases: by the same-file symbols of that name."""
    if edge.edge_type == "imports":
        local = ref.local or ref.name.startswith(".")
        return replace(edge, resolution="unresolved" if local else "external")
    if len(targets) == 1:
        return replace(
            edge,
            resolution="resolved",
            dst_symbol_id=targets[0].symbol_id,
            dst_qname=targets[0].qname,
        )
    if targets:
        return replace(edge, resolution="ambiguous", candidates=tuple(t.symbol_id for t in targets))
    return edge


def summary(doc: str) -> str:
    """The first sentence of a doc comment or docstring, markers and markup removed; a tag
    line (`@param x`, roxygen's `@export`) ends it."""
    words: list[str] = []
    for raw in doc.splitlines():
        line = _REFS.sub(lambda m: m.group(1).rsplit(".", 1)[-1], raw.strip())
        line = _TAGS.sub("", _COMMENT_MARKS.sub("", line)).strip().removesuffix("*)")
        line = PROSE_TAG.sub("", line.strip().strip("\"'*/").strip())
        if _MARKERS.match(line):
            continue
        if not line or line.startswith("@"):
            if words:
                break
            continue
        words.append(line)
    text = " ".join(words)
    match = _SENTENCE.match(text)
    return (match.group(1) if match else text)[:300]


def _qname(module: str, path: tuple[str, ...]) -> str:
    return ".".join([module, *path] if module else path)
