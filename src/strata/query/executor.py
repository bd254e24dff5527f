"""Run a router `Plan` against an engine: each step to `Hit`s, merged by weighted RRF.

A free-text plan is exactly one plain search, returned untouched, so routing never
changes the answer to a question it does not recognise. Other plans run their steps
(in threads when there are several), turn lookups into hits of their layer (a caller
is shown as the C0 chunk that makes the call), and fuse the step rankings.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from strata import layers as L
from strata.errors import QueryError
from strata.query import fallback
from strata.query.definitions import header_chunks
from strata.query.fusion import fused_order, rrf
from strata.query.hybrid import SearchResult
from strata.query.lookup import CallWalk, Related, SymbolMatch, closest
from strata.query.lookup.rows import meta_str
from strata.query.router import Plan, Step
from strata.store import Store
from strata.text.globs import matches
from strata.text.names import normalise_name
from strata.text.tokens import is_identifier_like
from strata.types import Hit, Record

__all__ = ["Backend", "execute"]

log = logging.getLogger(__name__)

RRF_K = 60
T = TypeVar("T")
_COMPONENT_TYPES = ("service", "system", "component", "module", "application")


class Backend(Protocol):
    """The part of `strata.Engine` a plan runs against."""

    @property
    def store(self) -> Store: ...

    def search(
        self,
        query: str,
        k: int | None = None,
        *,
        layers: Iterable[str] | None = None,
        filters: Mapping[str, Any] | None = None,
        mode: str | None = None,
    ) -> SearchResult: ...

    def symbols(
        self, name: str, *, kind: str | None = None, limit: int = 20, exact: bool = False
    ) -> list[SymbolMatch]: ...

    def callers(self, qname: str, depth: int = 1, *, name_matches: bool = False) -> CallWalk: ...

    def callees(self, qname: str, depth: int = 1, *, name_matches: bool = False) -> CallWalk: ...

    def entrypoints(
        self, type: str | None = None, framework: str | None = None
    ) -> list[Record]: ...

    def docs(
        self, kind: str | None = None, domain: str | None = None, type: str | None = None
    ) -> list[Record]: ...

    def related(self, document_id: str, depth: int = 1) -> list[Related]: ...

    def records(
        self, layers: Iterable[str] | None = None, limit: int | None = None
    ) -> list[Record]: ...


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One step's ranked hits and what the user should know about them."""

    hits: list[Hit]
    notes: list[str]
    mode: str = ""


def execute(backend: Backend, plan: Plan, k: int = 10, *, mode: str | None = None) -> SearchResult:
    """Run `plan` and return one ranked list (best first) with the plan and notes.

    Never fewer results than the plain search would give (`strata.query.fallback`): a required
    step that finds nothing falls back to where its name occurs, and a short answer is
    topped up by the plain search without the filters read from the question.

    Raises:
        QueryError: the plan has no steps (an empty query), or a search step's query
            cannot be searched (as the plain search would).
    """
    if not plan.steps:
        raise QueryError("empty query", hint="give some words or a name to search for")
    if plan.is_free_text:
        result, searched = _plain(backend, plan.query, plan.filters, k, mode), not plan.guessed
    else:
        result, searched = _routed(backend, plan, k, mode)
    hits, notes = list(result.hits), list(result.notes)
    if len(hits) < k and not searched:  # the plain search without the guessed filters
        plain = _plain(backend, plan.query, fallback.caller_filters(plan), k, mode)
        more = fallback.top_up(hits, plain.hits, k)
        if len(more) > len(hits):
            notes.append(fallback.narrowed_note(plan, len(hits), len(more)))
            hits = more
    done = plan.with_notes(dict.fromkeys(notes))
    route = {**done.to_json(), "routed_hits": len(result.hits)}  # the rest: the plain search's
    return SearchResult(tuple(hits), result.mode, done.notes, {**result.plan, "route": route})


def _routed(backend: Backend, plan: Plan, k: int, mode: str | None) -> tuple[SearchResult, bool]:
    """The plan's steps merged, or (a required step found nothing) where its name occurs;
    True when that fallback already ran the plain search with the plan's filters."""
    outcomes = _run_all(backend, plan, k, mode)
    notes = [n for o in outcomes for n in o.notes]
    used_mode = next((o.mode for o in outcomes if o.mode), mode or "")
    found = [o.hits for o in outcomes]
    failed = fallback.failed_name(plan.steps, found)
    if failed is None:
        return SearchResult(tuple(_merge(plan.steps, found, k)), used_mode, tuple(notes)), False
    name = str(failed.args.get("name", ""))
    uses: list[Hit] = []
    occurs: Sequence[Hit] = ()
    if failed.method == "symbol":
        # where the name occurs: a bare-name match is what is asked for here
        args = {"name": name, "depth": 1, "name_matches": True}
        walk = Step(L.C2_DEPENDENCY_GRAPH, "callers", args, k)
        uses = _run(backend, walk, plan.filters, mode).hits
        if is_identifier_like(name):  # a code-shaped name's own occurrences, in any mode
            occurs = _plain(backend, name, plan.filters, k, "lexical").hits
    text = _plain(backend, plan.query, plan.filters, k, mode)
    tiers = [
        (f"a use of {name!r}", uses),
        (f"the name {name!r} in the text", occurs),
        (f"text matching {plan.query!r}", text.hits),
    ]
    notes.append(f"falling back to where {name!r} occurs: {len(uses)} use(s), then text")
    result = SearchResult(tuple(fallback.tiered(tiers, k)), text.mode, (*notes, *text.notes))
    return result, not plan.guessed


def _plain(
    backend: Backend, query: str, filters: Mapping[str, Any], k: int, mode: str | None
) -> SearchResult:
    result = backend.search(query, k, layers=None, filters=_engine_filters(filters), mode=mode)
    if filters.get("is_test") is True or filters.get("domain"):
        more = backend.search(query, 5 * k, filters=_engine_filters(filters), mode=mode)
        hits = tuple(h for h in more.hits if _keep(h.record, filters))[:k]
        return SearchResult(hits, result.mode, result.notes, result.plan)
    return result


def _run_all(backend: Backend, plan: Plan, k: int, mode: str | None) -> list[_Outcome]:
    """The steps one after another: a warm step is CPU work, and threads sharing the GIL on
    two cores were measured slower than this (routed name queries 13.2 ms vs 11.4 ms)."""
    return [_run(backend, s, plan.filters, mode) for s in plan.steps]


def _run(backend: Backend, step: Step, filters: Mapping[str, Any], mode: str | None) -> _Outcome:
    runner = _RUNNERS.get((step.method, step.layer)) or _RUNNERS.get((step.method, "*"))
    if runner is None:
        raise QueryError(f"unknown plan step {step.method} over {step.layer}")
    out = runner(backend, step, filters, mode)
    kept = [h for h in out.hits if _keep(h.record, filters)]
    return _Outcome(kept[: step.limit], out.notes, out.mode)


def _merge(steps: Sequence[Step], ranked: Sequence[list[Hit]], k: int) -> list[Hit]:
    """Weighted RRF of the steps' rankings; a record found by several steps keeps the first."""
    names = [f"{i}.{s.method}.{s.layer.split('_', 1)[0]}" for i, s in enumerate(steps, 1)]
    if len([r for r in ranked if r]) == 1:
        return next(r for r in ranked if r)[:k]
    first: dict[str, Hit] = {}
    why: dict[str, list[str]] = {}
    for hits in ranked:
        for h in hits:
            first.setdefault(h.record.id, h)
            why.setdefault(h.record.id, []).extend(h.why)
    rankings = {n: [h.record.id for h in hits] for n, hits in zip(names, ranked, strict=True)}
    weights = {n: s.weight for n, s in zip(names, steps, strict=True)}
    parts = rrf(rankings, weights=weights, k=RRF_K)
    order = fused_order(parts)[:k]
    return [
        Hit(first[rid].record, sum(parts[rid].values()), parts[rid], tuple(dict.fromkeys(why[rid])))
        for rid in order
    ]


# ---- step runners -----------------------------------------------------------------------------


def _search(backend: Backend, step: Step, filters: Mapping[str, Any], mode: str | None) -> _Outcome:
    wide = filters.get("is_test") is True or bool(filters.get("domain"))
    result = backend.search(
        step.args["query"],
        step.limit * (5 if wide else 1),
        layers=step.args.get("layers"),
        filters=_engine_filters(filters),
        mode=mode,
    )
    return _Outcome(list(result.hits), list(result.notes), result.mode)


def _symbol(backend: Backend, step: Step, filters: Mapping[str, Any], mode: str | None) -> _Outcome:
    name, limit = str(step.args["name"]), max(step.limit, 20)
    exact = backend.symbols(name, limit=limit, exact=bool(step.args.get("exact")))
    if not exact:
        found = backend.symbols(name, limit=limit)  # prefix and fuzzy matches to suggest
        near = list(dict.fromkeys([m.name for m in found] + closest(backend.store, name)))[:5]
        tail = f"; closest: {', '.join(near)}" if near else ""
        return _Outcome([], [f"no symbol named {name!r}{tail}"])
    headers = header_chunks(backend.store, exact)
    hits = [
        Hit(_at_header(m, headers.get(m.symbol_id)), m.score, {"symbol": m.score}, (_why(m),))
        for m in exact
    ]
    return _Outcome(hits, [])


def _at_header(m: SymbolMatch, chunk: Record | None) -> Record:
    """A definition shown at its header: the C0 chunk its first line starts (signature and
    docstring, not a catalogue row spanning the whole class), carrying the symbol's qname,
    kind and whole span in its metadata; the catalogue row when no chunk holds it."""
    if chunk is None:
        return m.record
    meta = {
        **chunk.metadata,
        "qname": m.qname,
        "symbol_kind": m.kind,
        "definition_start": m.record.span_start,
        "definition_end": m.record.span_end,
    }
    return dataclasses.replace(chunk, metadata=meta)


def _why(m: SymbolMatch) -> str:
    span = f"{m.record.path}:{m.record.span_start}-{m.record.span_end}"
    return f"{m.match} name {m.qname} ({m.kind} at {span})"


def _walk(backend: Backend, step: Step, filters: Mapping[str, Any], mode: str | None) -> _Outcome:
    name, depth = str(step.args["name"]), int(step.args.get("depth", 1))
    walker = backend.callers if step.method == "callers" else backend.callees
    walk = walker(name, depth, name_matches=bool(step.args.get("name_matches")))
    if not any(t.record is not None for t in walk.targets) and not walk.links:
        near = closest(backend.store, name)
        tail = f"; closest: {', '.join(near)}" if near else ""
        return _Outcome([], [f"no symbol named {name!r}{tail}"])
    verb = "calls" if step.method == "callers" else "called by"
    links = sorted(walk.links, key=lambda x: (x.depth, x.match not in ("resolved", "qname")))
    hits: dict[str, Hit] = {}
    for rank, link in enumerate(links, 1):
        rec = link.chunk or link.edge
        line = f"{link.symbol.qname} {verb} {link.via} at {link.edge.path}:{link.edge.span_start}"
        if link.match == "name":
            line += " (matched by bare name)"
        old = hits.get(rec.id)
        why = (old.why if old else ()) + (line,)
        hits[rec.id] = Hit(rec, old.score if old else 1.0 / rank, {step.method: 1.0 / rank}, why)
    notes = [] if hits else [f"no {step.method} of {name!r} in the call graph"]
    if walk.name_only_hidden:
        notes.append(walk.hidden_note())
    return _Outcome(list(hits.values()), notes)


def _entrypoints(
    backend: Backend, step: Step, filters: Mapping[str, Any], mode: str | None
) -> _Outcome:
    a = step.args
    rows = backend.entrypoints(type=a.get("type"), framework=a.get("framework"))
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
    return _Outcome(hits, notes)


def _integrations(
    backend: Backend, step: Step, filters: Mapping[str, Any], mode: str | None
) -> _Outcome:
    field, who = (
        ("source_id", step.args["source"])
        if "source" in step.args
        else ("target", step.args["target"])
    )
    rows = [r for r in backend.records([step.layer]) if _names(meta_str(r, field), str(who))]
    notes = [] if rows else [f"no integration with {field.split('_')[0]} {who!r}"]
    hits = [Hit(r, 1.0 / i, {"integrations": 1.0 / i}, (r.title,)) for i, r in enumerate(rows, 1)]
    return _Outcome(hits, notes)


def _relations(
    backend: Backend, step: Step, filters: Mapping[str, Any], mode: str | None
) -> _Outcome:
    doc = _document_id(backend, str(step.args["document"]))
    if doc is None:
        return _Outcome([], [f"no document named {step.args['document']!r}"])
    found = backend.related(doc)
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
        old = hits.get(rec.id)
        hits[rec.id] = Hit(
            rec,
            old.score if old else 1.0 / i,
            {"related": 1.0 / i},
            (old.why if old else ()) + (line,),
        )
    return _Outcome(list(hits.values()), notes)


_RUNNERS = {
    ("search", "*"): _search,
    ("symbol", "*"): _symbol,
    ("callers", "*"): _walk,
    ("callees", "*"): _walk,
    ("entrypoints", "*"): _entrypoints,
    ("related", "D6_INTEGRATION_INDEX"): _integrations,
    ("related", "D5_RELATION_GRAPH"): _relations,
}


# ---- helpers ----------------------------------------------------------------------------------


def _engine_filters(filters: Mapping[str, Any]) -> dict[str, Any]:
    """The filters `Engine.search` applies itself (the rest are applied to its hits)."""
    out = {key: filters[key] for key in ("path", "lang", "kind", "repo") if filters.get(key)}
    if filters.get("is_test") is False:
        out["no_tests"] = True
    return out


def _as_set(value: Any) -> set[str]:
    return {value} if isinstance(value, str) else {str(v) for v in value}


def _keep(rec: Record, filters: Mapping[str, Any]) -> bool:
    if filters.get("path") and not matches(rec.path, filters["path"]):
        return False
    if filters.get("lang") and rec.lang not in _as_set(filters["lang"]):
        return False
    if filters.get("kind") and rec.kind not in _as_set(filters["kind"]):
        return False
    if filters.get("is_test") is not None and rec.is_test != filters["is_test"]:
        return False
    if filters.get("repo") and rec.repo_id and rec.repo_id != filters["repo"]:
        return False
    domain = rec.metadata.get("domain")
    return not (filters.get("domain") and domain and str(domain).lower() != filters["domain"])


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


def _document_id(backend: Backend, name: str) -> str | None:
    """The document a subject names: its id, an id it starts (`ledger-service`), its path's
    stem, else an id holding it as a part (`runbook-restart-ledger`)."""
    want = normalise_name(name)
    cards = backend.docs()
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
