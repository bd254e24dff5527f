"""The plan's steps, each run to hits of its layer: a search, a symbol lookup, a call-graph
walk (a caller is shown as the C0 chunk that makes the call), entry points, integrations
and relations. `strata.query.executor` runs a plan's steps through `run` and fuses them."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from strata.errors import QueryError
from strata.query import hybrid, lookup
from strata.query.definitions import at_header, defined_at, header_chunks
from strata.query.fact_steps import FACT_STEPS
from strata.query.filters import SearchFilters
from strata.query.hybrid import QueryContext
from strata.query.line_steps import LINE_STEPS
from strata.query.lookup import SymbolMatch, closest
from strata.query.lookup.matches import as_spelt, behind_stubs, without_implementations
from strata.query.lookup.qualifiers import dotted
from strata.query.lookup.rows import file_heads, files_named, indexed_paths, meta_str
from strata.query.member_steps import members_of
from strata.query.router import Step
from strata.query.said_kinds import of_kinds
from strata.store import Filter
from strata.text.names import normalise_name
from strata.text.tokens import is_identifier_like, query_terms
from strata.types import Hit, Record

__all__ = ["Outcome", "run"]

T = TypeVar("T")
_COMPONENT_TYPES = ("service", "system", "component", "module", "application")


@dataclass(frozen=True, slots=True)
class Outcome:
    """One step's ranked hits and what the user should know about them."""

    hits: list[Hit]
    notes: list[str]
    mode: str = ""


def run(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    """One step's hits that the filters keep, at most its limit."""
    runner = _RUNNERS.get((step.method, step.layer)) or _RUNNERS.get((step.method, "*"))
    if runner is None:
        raise QueryError(f"unknown plan step {step.method} over {step.layer}")
    out = runner(ctx, step, filters, mode)
    kept = [h for h in out.hits if filters.keeps(h.record)]
    return Outcome(kept[: step.limit], out.notes, out.mode)


def _search(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    args = step.args
    if not query_terms(str(args["query"])):  # an operator's name (`(<?>)`): found by name only
        return Outcome([], [])
    result = hybrid.search(
        ctx, args["query"], step.limit, layers=args.get("layers"), filters=filters, mode=mode
    )
    return Outcome(list(result.hits), list(result.notes), result.mode)


def _file_head(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    """The first passage of the file the path names: the file at that very path when the
    index has one (`README.md` at the root), else every file whose path ends with it,
    the shortest first (`db.py`: `app/db.py` before `app/legacy/db.py`)."""
    path = str(step.args["path"])
    heads = file_heads(ctx.store, files_named(ctx.store, path)[: step.limit], step.layer.split("+"))
    why = f"the head of {path}"
    return Outcome([Hit(r, 1.0 / i, {"file": 1.0 / i}, (why,)) for i, r in enumerate(heads, 1)], [])


_README = re.compile(r"readme(?:\.\w+)?", re.IGNORECASE)
_DOCS_INDEX = re.compile(r"docs?/(?:index|readme)\.(?:md|rst|txt)", re.IGNORECASE)
_PACKAGE_HEAD = re.compile(r"(?:^|/)(?:__init__\.py|lib\.rs|main\.rs|main\.go|index\.[jt]s)$")
CENTRAL_FILES = 3  # the overview's files that the most other files call into


def _overview(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    """The repository's front door: the README nearest the root (its first three
    sections), the docs' index, the heads of the top packages (`pkg/__init__.py`,
    `src/pkg/__init__.py`, `src/lib.rs`, `main.go`, `index.js`), then of the files the
    most other files call into (the core the rest leans on)."""
    paths = indexed_paths(ctx.store)
    shallow = sorted(paths, key=lambda p: (p.count("/"), len(p), p))
    readme = [p for p in shallow if _README.fullmatch(p.rsplit("/", 1)[-1])][:1]
    index = [p for p in shallow if _DOCS_INDEX.fullmatch(p)][:1]
    heads = [p for p in shallow if _PACKAGE_HEAD.search(p) and p.count("/") <= 2][:3]
    hubs = [p for p in lookup.central_files(ctx.store, CENTRAL_FILES + 3) if p not in heads]
    front = index + heads + hubs[:CENTRAL_FILES]
    layers = step.layer.split("+")
    found = file_heads(ctx.store, readme, layers, 3) + file_heads(ctx.store, front, layers)
    hits = [
        Hit(r, 1.0 / i, {"overview": 1.0 / i}, (f"the front of {r.path}",))
        for i, r in enumerate(found, 1)
    ]
    return Outcome(hits, [] if hits else ["no README or package head in the index"])


def _lineage(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    """The types deriving from the name (`subclasses`) or those it derives from (`bases`),
    each shown at its definition's header."""
    name = str(step.args["name"])
    walk = lookup.subclasses if step.method == "subclasses" else lookup.bases
    found = walk(ctx.store, name)
    headers = header_chunks(ctx.store, found.found)
    verb = "derives from" if step.method == "subclasses" else "is a base of"
    hits = [
        Hit(
            at_header(m, headers.get(m.symbol_id)),
            1.0 / i,
            {step.method: 1.0 / i},
            (f"{m.qname} {verb} {name}",),
        )
        for i, m in enumerate(found.found, 1)
    ]
    notes = (
        [f"{name} derives from {', '.join(found.unknown)}, not defined here"]
        if found.unknown
        else []
    )
    if not hits and not found.unknown:
        notes.append(f"no {step.method} of {name!r} in the index")
    return Outcome(hits, notes)


def _importers(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    """The places that import the name, each shown as the chunk holding the import."""
    name = str(step.args["name"])
    hits: dict[str, Hit] = {}
    for i, site in enumerate(lookup.importers(ctx.store, name), 1):
        rec = site.chunk or site.edge
        why = f"{site.edge.path}:{site.edge.span_start} imports {meta_str(site.edge, 'dst_ref')}"
        _gather(hits, rec, i, "importers", why)
    notes = [] if hits else [f"nothing in the index imports {name!r}"]
    return Outcome(list(hits.values()), notes)


def _symbol(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    name, limit = str(step.args["name"]), max(step.limit, 20)
    exact = lookup.find_symbols(ctx.store, name, limit=limit, exact=bool(step.args.get("exact")))
    exact = behind_stubs(ctx.store, name, exact)
    if not exact and (fixed := lookup.meant(ctx.store, name)):
        return _as_meant(_symbol, ctx, step, fixed, filters, mode)
    if not exact:
        found = lookup.find_symbols(ctx.store, name, limit=limit)  # prefixes, fuzzy: suggested
        near = list(dict.fromkeys([m.name for m in found] + closest(ctx.store, name)))[:5]
        tail = f"; closest: {', '.join(near)}" if near else ""
        return Outcome([], [f"no symbol named {name!r}{tail}"])
    if _spelt_otherwise(ctx, name, exact, filters):
        others = ", ".join(dict.fromkeys(m.name for m in exact))
        return Outcome([], [f"no symbol spelt {name!r} (defined: {others}); where it occurs"])
    exact = of_kinds(without_implementations(as_spelt(exact)), step.args.get("kinds") or ())
    headers = header_chunks(ctx.store, exact)
    hits = [
        Hit(at_header(m, headers.get(m.symbol_id)), m.score, {"symbol": m.score}, (defined_at(m),))
        for m in exact
    ]
    return Outcome(hits, [])


def _spelt_otherwise(
    ctx: QueryContext, name: str, found: Sequence[SymbolMatch], filters: SearchFilters
) -> bool:
    """A code-shaped name (`line_comment_prefix`) that only a loosely matching definition
    has (`LINE_COMMENT_PREFIX`) while the code uses it as written: the uses are asked for,
    not another name's definition."""
    qualified = "." in dotted(name)  # `Class.method`, `ast::Ast`, PHP's `League\\Util\\Xml`
    if not is_identifier_like(name) or qualified or any(m.name == name for m in found):
        return False
    spelt = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    text = hybrid.search(ctx, name, 10, filters=filters.on_store(), mode="lexical")
    return any(spelt.search(h.record.content) for h in text.hits)


def _as_meant(
    fn: Callable[[QueryContext, Step, SearchFilters, str | None], Outcome],
    ctx: QueryContext,
    step: Step,
    fixed: str,
    filters: SearchFilters,
    mode: str | None,
) -> Outcome:
    """The step run again for the name it meant (`_meant`), with a note that says so."""
    shown = fn(ctx, dataclasses.replace(step, args={**step.args, "name": fixed}), filters, mode)
    name = str(step.args["name"])
    note = lookup.meant_note(name, fixed)
    return Outcome(shown.hits, [note, *shown.notes])


def _walk(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    name, depth = str(step.args["name"]), int(step.args.get("depth", 1))
    walker = lookup.callers if step.method == "callers" else lookup.callees
    matches = bool(step.args.get("name_matches"))
    walk = lookup.as_meant(
        ctx.store, name, lambda n: walker(ctx.store, n, depth, name_matches=matches)
    )
    if not walk.found:
        near = closest(ctx.store, name)
        tail = f"; closest: {', '.join(near)}" if near else ""
        return Outcome([], [f"no symbol named {name!r}{tail}"])
    verb = "calls" if step.method == "callers" else "called by"
    # a type's own methods building it (`new HashTrieMap`), a function calling itself: after
    # the uses from outside its definition
    own = [t.record for t in walk.targets if t.record is not None and t.record.span_start]
    links = sorted(
        walk.links,
        key=lambda x: (x.depth, x.match not in ("resolved", "qname"), _within(x.edge, own)),
    )
    hits: dict[str, Hit] = {}
    for rank, link in enumerate(links, 1):
        rec = link.chunk or link.edge
        line = f"{link.symbol.qname} {verb} {link.via} at {link.edge.path}:{link.edge.span_start}"
        if link.match == "name":
            line += " (matched by bare name)"
        _gather(hits, rec, rank, step.method, line)
    notes = [walk.read_as_note()] if walk.read_as else []
    notes += [] if hits else [f"no {step.method} of {walk.read_as or name!r} in the call graph"]
    if walk.name_only_hidden:
        notes.append(walk.hidden_note())
    return Outcome(list(hits.values()), notes)


def _within(site: Record, definitions: Sequence[Record]) -> bool:
    """Whether a call site lies inside one of the definitions' spans."""
    line = site.span_start or 0
    return any(
        d.path == site.path and (d.span_start or 0) <= line <= (d.span_end or d.span_start or 0)
        for d in definitions
    )


def _entrypoints(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> Outcome:
    a = step.args
    rows = lookup.list_entrypoints(ctx.store, type=a.get("type"), framework=a.get("framework"))
    notes: list[str] = []
    if a.get("route"):
        rows = _narrow(
            rows,
            lambda r: _route_matches(r, str(a["route"])),
            notes,
            f"no entry point at {a['route']}",
            fallback=False,
        )
    if a.get("subject"):
        rows = _narrow(
            rows,
            lambda r: str(a["subject"]).lower() in _entry_text(r),
            notes,
            f"no entry point mentions {a['subject']!r}; showing all",
            fallback=True,
        )
    hits = [
        Hit(r, 1.0 / i, {"entrypoints": 1.0 / i}, (_entry_why(r),)) for i, r in enumerate(rows, 1)
    ]
    return Outcome(hits, notes)


def _integrations(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> Outcome:
    field, who = (
        ("source_id", step.args["source"])
        if "source" in step.args
        else ("target", step.args["target"])
    )
    rows = ctx.store.fetch(Filter(layers=(step.layer,)))
    rows = [r for r in rows if _names(meta_str(r, field), str(who))]
    notes = [] if rows else [f"no integration with {field.split('_')[0]} {who!r}"]
    hits = [Hit(r, 1.0 / i, {"integrations": 1.0 / i}, (r.title,)) for i, r in enumerate(rows, 1)]
    return Outcome(hits, notes)


def _relations(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    doc = _document_id(ctx, str(step.args["document"]))
    if doc is None:
        return Outcome([], [f"no document named {step.args['document']!r}"])
    found = lookup.related(ctx.store, doc)
    if step.args.get("direction"):
        found = [r for r in found if r.direction == step.args["direction"]]
    types = step.args.get("relation_types")
    notes: list[str] = []
    if types:
        found = _narrow(
            found,
            lambda r: r.relation_type in types,
            notes,
            f"no {'/'.join(types)} relation of {doc}; showing every relation",
            fallback=True,
        )
    hits: dict[str, Hit] = {}
    for i, rel in enumerate(found, 1):
        rec = rel.card or rel.edge
        arrow = "->" if rel.direction == "out" else "<-"
        line = f"{rel.via} {arrow}{rel.relation_type}{arrow} {rel.document_id}"
        _gather(hits, rec, i, "related", line)
    return Outcome(list(hits.values()), notes)


def _members(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    return Outcome(*members_of(ctx, step, filters, mode))


def _lines(ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None) -> Outcome:
    """The passages whose lines do what was asked (`line_steps`, `fact_steps`)."""
    return Outcome(*_LINE_RUNNERS[step.method](ctx, step, filters, mode))


_LINE_RUNNERS = LINE_STEPS | FACT_STEPS
_RUNNERS = {
    ("search", "*"): _search,
    **{(method, "*"): _lines for method in _LINE_RUNNERS},
    ("members", "*"): _members,
    ("symbol", "*"): _symbol,
    ("file_head", "*"): _file_head,
    ("overview", "*"): _overview,
    ("subclasses", "*"): _lineage,
    ("importers", "*"): _importers,
    ("bases", "*"): _lineage,
    ("callers", "*"): _walk,
    ("callees", "*"): _walk,
    ("entrypoints", "*"): _entrypoints,
    ("related", "D6_INTEGRATION_INDEX"): _integrations,
    ("related", "D5_RELATION_GRAPH"): _relations,
}


# ---- helpers ----------------------------------------------------------------------------------


def _gather(hits: dict[str, Hit], rec: Record, rank: int, part: str, why: str) -> None:
    """One more link found at `rank` for `rec`: a record found again keeps its first rank's
    score and adds the reason (one chunk holds several calls, imports or relations)."""
    old = hits.get(rec.id)
    said = (*old.why, why) if old else (why,)
    hits[rec.id] = Hit(rec, old.score if old else 1.0 / rank, {part: 1.0 / rank}, said)


def _narrow(
    rows: list[T], keep: Callable[[T], bool], notes: list[str], note: str, *, fallback: bool
) -> list[T]:
    """The rows `keep` accepts; when it accepts none, a note and all rows (`fallback`) or none."""
    kept = [r for r in rows if keep(r)]
    if kept or not rows:
        return kept
    notes.append(note)
    return rows if fallback else []


def _route_matches(rec: Record, route: str) -> bool:
    have = _route_shape(meta_str(rec, "route_path") or meta_str(rec, "route_or_command"))
    want = _route_shape(route)
    return bool(have) and (have == want or have.startswith(want.rstrip("/") + "/"))


def _route_shape(route: str) -> str:
    """`/items/{item_id}` and `/items/<int:id>` both become `/items/*`."""
    route = route.split()[-1] if route.strip() else ""
    return re.sub(r"\{[^}]*\}|<[^>]*>|:\w+", "*", route).rstrip("/").lower()


def _entry_text(rec: Record) -> str:
    keys = ("route_or_command", "handler_symbol", "declaring_symbol")
    return " ".join([rec.path, rec.title, *(meta_str(rec, k) for k in keys)]).lower()


def _entry_why(rec: Record) -> str:
    kind = meta_str(rec, "entry_type") or rec.kind
    return f"{kind} entry point {meta_str(rec, 'route_or_command') or rec.title}"


def _names(value: str, wanted: str) -> bool:
    """`payments` names `payments-service` and `Payments`; `ledger` names `ledger-service`."""
    v, w = normalise_name(value), normalise_name(wanted)
    return bool(v and w) and (v == w or w in re.split(r"[-_.\s/]+", v))


def _document_id(ctx: QueryContext, name: str) -> str | None:
    """The document a subject names: its id, an id it starts (`ledger-service`), its path's
    stem, else an id holding it as a part (`runbook-restart-ledger`)."""
    want = normalise_name(name)
    cards = lookup.list_docs(ctx.store)
    # A service's card before an API's or a runbook's of the same name.
    cards = sorted(cards, key=lambda c: meta_str(c, "type") not in _COMPONENT_TYPES)
    ids = [meta_str(c, "document_id") for c in cards if meta_str(c, "document_id")]
    stems = {c.path.rsplit("/", 1)[-1].split(".")[0].lower(): c for c in cards}
    tiers = (
        [d for d in ids if normalise_name(d) == want],
        [d for d in ids if normalise_name(d).startswith(want + "-")],
        [meta_str(stems[want], "document_id") or stems[want].path] if want in stems else [],
        [d for d in ids if _names(d, name)],
    )
    return next((tier[0] for tier in tiers if tier), None)
