"""Run a router `RetrievalPlan` against a `QueryContext`: steps to `Hit`s, merged by weighted RRF.

A free-text plan is exactly one plain search, returned untouched, so routing never
changes the answer to a question it does not recognise. Other plans run their steps one
after another (`strata.query.steps` turns each into hits of its layer) and fuse the step
rankings.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from strata import layers as L
from strata.errors import QueryError
from strata.query import fallback, hybrid, lookup
from strata.query.filters import SearchFilters
from strata.query.hybrid import QueryContext, SearchResult
from strata.query.ranking import fused_order, rrf
from strata.query.router import RetrievalPlan, Step
from strata.query.steps import Outcome, run
from strata.text.tokens import is_identifier_like, query_terms
from strata.types import Hit

__all__ = ["execute"]

log = logging.getLogger(__name__)

RRF_K = 60
# A name the router read off a callers question (`Result`, `LOG`, `io.Writer`, `ast::Ast`).
_A_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")


def execute(
    ctx: QueryContext, plan: RetrievalPlan, k: int = 10, *, mode: str | None = None
) -> SearchResult:
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
        result, searched = (
            hybrid.search(ctx, plan.query, k, filters=plan.filters, mode=mode),
            not plan.guessed,
        )
    else:
        result, searched = _routed(ctx, plan, k, mode)
    hits, notes = list(result.hits), list(result.notes)
    if len(hits) < k and not searched:  # the plain search without the guessed filters
        plain = _text(ctx, plan.query, k, fallback.caller_filters(plan), mode)
        more = fallback.top_up(hits, plain.hits, k)
        if len(more) > len(hits):
            notes.append(fallback.narrowed_note(plan, len(hits), len(more)))
            hits = more
    done = plan.with_notes(dict.fromkeys(notes))
    route = {**done.to_json(), "routed_hits": len(result.hits)}  # the rest: the plain search's
    return SearchResult(tuple(hits), result.mode, done.notes, {**result.plan, "route": route})


def _routed(
    ctx: QueryContext, plan: RetrievalPlan, k: int, mode: str | None
) -> tuple[SearchResult, bool]:
    """The plan's steps merged, or (a required step found nothing) where its name occurs;
    True when that fallback already ran the plain search with the plan's filters."""
    outcomes = _run_all(ctx, plan, k, mode)
    notes = [n for o in outcomes for n in o.notes]
    used_mode = next((o.mode for o in outcomes if o.mode), mode or "")
    found = [o.hits for o in outcomes]
    failed = fallback.failed_name(plan.steps, found)
    if failed is None:
        return SearchResult(tuple(_merge(plan.steps, found, k)), used_mode, tuple(notes)), False
    name = str(failed.args.get("name", ""))
    uses: list[Hit] = []
    occurs: Sequence[Hit] = ()
    raised: list[Hit] = []
    if failed.method == "symbol":
        # where the name occurs: a bare-name match is what is asked for here
        args = {"name": name, "depth": 1, "name_matches": True}
        walk = Step(L.C2_DEPENDENCY_GRAPH, "callers", args, k)
        uses = run(ctx, walk, plan.filters, mode).hits
        if is_identifier_like(name):  # a code-shaped name's own occurrences, in any mode
            occurs = hybrid.search(ctx, name, k, filters=plan.filters, mode="lexical").hits
    elif failed.args.get("raised"):  # no call raises it (`raise X, msg`, `throw X.Create()`)
        words = f"{name} raise throw"
        near = hybrid.search(ctx, words, 3 * k, filters=plan.filters, mode="lexical").hits
        raised = fallback.raising(name, near)
    elif failed.method == "callers" and _A_NAME.fullmatch(name):  # a type: used, not called
        near = hybrid.search(ctx, name, 3 * k, filters=plan.filters, mode="lexical").hits
        defined = [m.record for m in lookup.find_symbols(ctx.store, name, limit=20, exact=True)]
        occurs = fallback.referring(name, near, defined)
    text = _text(ctx, plan.query, k, plan.filters, mode)
    tiers = [
        (f"a line that raises or throws {name!r}", raised),
        (f"a use of {name!r}", uses),
        (f"the name {name!r} in the text", occurs),
        (f"text matching {plan.query!r}", text.hits),
    ]
    if raised:
        notes.append(f"falling back to the lines that raise or throw {name!r}, then text")
    elif failed.method == "callers" and occurs:
        notes.append(f"falling back to the passages that name {name!r} (not called), then text")
    else:
        notes.append(f"falling back to where {name!r} occurs: {len(uses)} use(s), then text")
    result = SearchResult(
        tuple(fallback.tiered(tiers, k)), text.mode or used_mode, (*notes, *text.notes)
    )
    return result, not plan.guessed


def _text(
    ctx: QueryContext, query: str, k: int, filters: SearchFilters, mode: str | None
) -> SearchResult:
    """The plain search of a routed question's text: nothing when it has no words to search
    (an operator's name, `(<|>)`, is found by name only)."""
    if not query_terms(query):
        return SearchResult((), "")
    return hybrid.search(ctx, query, k, filters=filters, mode=mode)


def _run_all(ctx: QueryContext, plan: RetrievalPlan, k: int, mode: str | None) -> list[Outcome]:
    """The steps one after another: a warm step is CPU work, and threads sharing the GIL on
    two cores were measured slower than this (routed name queries 13.2 ms vs 11.4 ms)."""
    return [run(ctx, s, plan.filters, mode) for s in plan.steps]


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
