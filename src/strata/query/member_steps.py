"""The plan step that lists what a type defines: the type at its header, then each of its
members (methods, fields, nested types) at theirs, in the order its file defines them."""

from __future__ import annotations

from strata import layers as L
from strata.query import lookup
from strata.query.definitions import at_header, defined_at, header_chunks
from strata.query.filters import SearchFilters
from strata.query.focus import at_line
from strata.query.hybrid import QueryContext
from strata.query.kinds import TYPE_KINDS
from strata.query.line_steps import then_plain
from strata.query.lookup.members import members
from strata.query.lookup.rows import (
    chunks_at,
    compiled_paths,
    file_heads,
    files_named,
    indexed_paths,
    meta_str,
)
from strata.query.lookup.symbols import SymbolMatch
from strata.query.member_questions import KINDS_ASKED
from strata.query.module_names import module_file
from strata.query.router import Step
from strata.store import Filter
from strata.text.langs import is_stub
from strata.text.tokens import split_identifier
from strata.types import Hit, Record

__all__ = ["MAX_TYPES", "members_of"]

MAX_TYPES = 2  # types of the asked name listed (`Template` is two classes in jinja2)


def members_of(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The types named as asked, each followed by its members (or a file's definitions),
    then the plain search."""
    if "path" in step.args:
        return _defined_in(ctx, step, filters, mode)
    name = str(step.args["name"])
    found = lookup.find_symbols(ctx.store, name, limit=10, exact=True)
    kids = {t.symbol_id: members(ctx.store, t) for t in found if t.kind in TYPE_KINDS}
    # of two types of one name, the one that defines more first (jinja2's `Template`)
    types = sorted((t for t in found if t.symbol_id in kids), key=lambda t: -len(kids[t.symbol_id]))
    listed = [m for t in types[:MAX_TYPES] for m in (t, *kids[t.symbol_id])]
    notes = [] if types else [f"no type named {name!r}: plain search instead"]
    return then_plain(ctx, step, filters, mode, _at_headers(ctx, listed)), notes


def _at_headers(ctx: QueryContext, listed: list[SymbolMatch]) -> list[Hit]:
    """Each symbol of `listed` at its header, in order; definitions in one chunk (a class's
    fields, a module's constants) show it once."""
    headers = header_chunks(ctx.store, listed)
    hits: dict[str, Hit] = {}
    for m in listed:
        rec = at_header(m, headers.get(m.symbol_id))
        if rec.id not in hits:
            n = len(hits) + 1
            hits[rec.id] = Hit(rec, 1.0 / n, {"members": 1.0 / n}, (defined_at(m),))
    return list(hits.values())


def _defined_in(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The top-level definitions of the file asked about (the file at that very path, else
    the shortest path ending so), those of the kind asked (`functions`, `classes`), each
    at its header in the file's order; then the plain search. A type's own members are
    not listed: "what methods does X have" asks for them."""
    path, noun = str(step.args["path"]), str(step.args["kind"])
    if not path:
        return _of_the_project(ctx, step, filters, mode)
    chosen = files_named(ctx.store, path)[:1]
    if noun == "imports":
        return _imports_of(ctx, step, filters, mode, chosen)
    where = Filter(layers=(L.C1_SYMBOL_CATALOG,), paths=tuple(chosen))
    symbols = ctx.store.fetch(where, vectors=False) if chosen else []
    qnames = {meta_str(r, "qname") for r in symbols}
    kinds = KINDS_ASKED.get(noun)
    listed = [
        SymbolMatch(r, "member", 1.0, meta_str(r, "qname"))
        for r in sorted(symbols, key=lambda r: r.span_start or 0)
        if meta_str(r, "qname").rpartition(".")[0] not in qnames
        and (kinds is None or r.kind in kinds)
    ]
    hits = _at_headers(ctx, listed)
    what = noun or "definitions"
    notes = [] if hits else [f"no {what} found in {path!r}: plain search instead"]
    return then_plain(ctx, step, filters, mode, hits), notes


_CLASSES = frozenset({"class", "struct", "object", "record"})


def _holds(rec: Record, word: str) -> bool:
    """Whether a definition's name or its file's folders and name hold `word` (or its
    singular) as one of their words, or a word starting so (`handler` in `handlers/`)."""
    name = meta_str(rec, "qname").rpartition(".")[2]
    parts = [*split_identifier(name), *rec.path.casefold().replace("-", "_").split("/")]
    words = {w for p in parts for w in split_identifier(p.rpartition(".")[0] or p)}
    return any(w.startswith(stem) for w in words for stem in _stems(word))


def _named_so(rec: Record, word: str) -> int:
    """How a definition's own name says `word`: 0 as its last word, the thing it is
    (`HTTPTransport` of "transport classes"); 1 as another (`TransportError`); 2 not at all
    (only its folder holds the word: `_transports/asgi.py`'s `ASGIResponseStream`)."""
    words = split_identifier(meta_str(rec, "qname").rpartition(".")[2])
    said = [any(w.startswith(stem) for stem in _stems(word)) for w in words]
    return 0 if said and said[-1] else 1 if any(said) else 2


def _stems(word: str) -> set[str]:
    return {word, word.removesuffix("s"), word.removesuffix("es")} - {""}


def _of_the_project(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The project's definitions of the kind asked (its classes, its interfaces) outside
    its tests, declaration stubs and build output, a type's own members left out, each at
    its header: the public ones first (no leading `_`), the files nearest the root first,
    in path and line order, at most the step's limit (a note says how many there are);
    then the plain search. Its "classes" are its classes (and structs, objects, records),
    not its interfaces or type aliases."""
    noun, word = str(step.args["kind"]), str(step.args.get("word") or "")
    kinds = _CLASSES if noun == "classes" else KINDS_ASKED.get(noun) or frozenset()
    where = filters.where([L.C1_SYMBOL_CATALOG], lambda: indexed_paths(ctx.store))
    symbols = [r for r in ctx.store.fetch(where, vectors=False) if filters.keeps(r)]
    if word:  # "which middleware classes": those whose name or folders hold the word
        symbols = [r for r in symbols if _holds(r, word)]
        noun = f"{word} {noun}"
    types = {meta_str(r, "qname") for r in symbols if r.kind in TYPE_KINDS}
    built = compiled_paths(ctx.store)  # a TypeScript source's `.js`, `.cjs`: the source's
    found = sorted(
        (
            r
            for r in symbols
            if r.kind in kinds
            and not r.is_test
            and not is_stub(r.path)  # a stub declares what its module defines
            and r.path not in built
            and meta_str(r, "qname").rpartition(".")[0] not in types
        ),
        key=lambda r: (
            _named_so(r, word) if word else 0,  # "transport classes": the transports first
            meta_str(r, "qname").rpartition(".")[2].startswith("_"),
            r.path.count("/"),
            r.path,
            r.span_start or 0,
        ),
    )
    listed = [SymbolMatch(r, "member", 1.0, meta_str(r, "qname")) for r in found[: step.limit]]
    notes = (
        [f"{len(found)} {noun} in all, the first {len(listed)} shown"]
        if len(found) > len(listed)
        else []
    )
    if not found:
        notes = [f"no {noun} defined outside the tests: plain search instead"]
    return then_plain(ctx, step, filters, mode, _at_headers(ctx, listed)), notes


def _imports_of(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None, chosen: list[str]
) -> tuple[list[Hit], list[str]]:
    """What a file imports: its passages holding the imports (shown from the first), then
    the head of each indexed file it imports from, in the order it imports them; then the
    plain search."""
    where = Filter(layers=(L.C2_DEPENDENCY_GRAPH,), paths=tuple(chosen))
    edges = [
        e
        for e in (ctx.store.fetch(where, vectors=False) if chosen else [])
        if meta_str(e, "edge_type") == "imports"
    ]
    at = chunks_at(ctx.store, [(e.path, e.span_start) for e in edges])
    hits: dict[str, Hit] = {}
    for e in edges:
        rec = at.get((e.path, e.span_start))
        if rec is not None and rec.id not in hits:
            hits[rec.id] = Hit(at_line(rec, e.span_start or 1), 1.0, {"members": 1.0})
    paths = indexed_paths(ctx.store)
    imported = [f for e in edges if (f := _module_of(meta_str(e, "dst_ref"), paths))]
    for rec in file_heads(ctx.store, list(dict.fromkeys(imported)), [L.C0_SOURCE_CHUNKS]):
        why = f"imported by {chosen[0]}"
        hits.setdefault(rec.id, Hit(rec, 0.5, {"members": 0.5}, (why,)))
    notes = [] if hits else [f"no import found in {step.args['path']!r}: plain search instead"]
    return then_plain(ctx, step, filters, mode, list(hits.values())), notes


def _module_of(name: str, paths: tuple[str, ...]) -> str:
    """The indexed file an imported name comes from (`httpx._client.Client` is
    `httpx/_client.py`), its last parts dropped until one names a file; "" for none."""
    parts = name.split(".")
    while parts:
        if found := module_file(".".join(parts), paths):
            return found
        parts.pop()
    return ""
