"""When a routed plan narrows to nothing (pure): the fallbacks that keep routing honest.

The rule: a routed search never returns fewer results than the plain search would.

- A required step that finds nothing (a name that names no symbol) does not empty the
  answer: the plan falls back to where the name occurs, definitions first, then uses
  (call sites tied by the bare name), then text (the plain search of the whole question);
  an error no call raises ("where is LintError raised") falls back to the lines that raise
  or throw it.
- Filters read from the question (a language, a path, tests) are guesses: when the routed
  answer is short, the plain search without them tops it up, and when they left nothing
  the note says they were dropped.

`strata.query.executor` runs the searches; this module only decides and merges.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from strata.query.filters import SearchFilters
from strata.query.lookup.qualifiers import last_part
from strata.query.router import RetrievalPlan, Step
from strata.types import Hit, Record

__all__ = ["caller_filters", "failed_name", "narrowed_note", "raising", "tiered", "top_up"]


def failed_name(steps: Sequence[Step], found: Sequence[Sequence[Hit]]) -> Step | None:
    """The first required step that found nothing, if any."""
    return next((s for s, hits in zip(steps, found, strict=True) if s.required and not hits), None)


def caller_filters(plan: RetrievalPlan) -> SearchFilters:
    """The plan's filters without those the router read from the question."""
    return plan.filters.without(plan.guessed)


def tiered(tiers: Iterable[tuple[str, Sequence[Hit]]], k: int) -> list[Hit]:
    """Hits tier by tier (each keeps its order), a record only once, at most `k`."""
    out: dict[str, Hit] = {}
    for label, hits in tiers:
        for h in hits:
            if h.record.id not in out:
                out[h.record.id] = Hit(h.record, h.score, h.parts, (*h.why, label))
    return list(out.values())[:k]


def top_up(hits: Sequence[Hit], plain: Sequence[Hit], k: int) -> list[Hit]:
    """`hits` first, then the plain search's hits they lack, up to `k` (never fewer than
    the plain search has)."""
    have = {h.record.id for h in hits}
    n = len(hits)
    more = [
        Hit(h.record, h.score, h.parts, (*h.why, f"from the plain search (routed steps found {n})"))
        for h in plain
        if h.record.id not in have
    ]
    return [*hits, *more][: max(k, n)]


def narrowed_note(plan: RetrievalPlan, found: int, total: int) -> str:
    """What the user should know when the plain search filled a short routed answer."""
    shown = plan.filters.to_json()
    guessed = {key: shown[key] for key in plan.guessed if key in shown}
    named = ", ".join(f"{key}={_show(v)}" for key, v in guessed.items())
    if guessed and not found:
        return f"the filter read from the question ({named}) matched nothing: dropped"
    if guessed:
        return (
            f"the filter read from the question ({named}) left {found} result(s); "
            f"{total - found} more from the search without it"
        )
    if not found:
        return f"the routed steps ({plan.intent}) found nothing: plain search instead"
    return f"the routed steps found {found} result(s); {total - found} more from the plain search"


def _show(value: Any) -> str:
    if isinstance(value, str) or not isinstance(value, Iterable | Mapping):
        return str(value)
    return ",".join(str(v) for v in value)


def raising(name: str, hits: Sequence[Hit]) -> list[Hit]:
    """The hits with a line that raises or throws `name` (`raise X(`, `raise X, msg`,
    `throw new X(`, `throw X.Create(`, `throw pkg.X(`), in their order."""
    tail = re.escape(last_part(name))
    line = re.compile(rf"\b(?:raise|throw)\s+(?:new\s+)?(?:[\w\\:.]*[.\\:])?{tail}\b")
    return [h for h in hits if line.search(h.record.content)]


# A line that only brings a name in (`import { X } from`, `from m import X`, `use a::X;`).
_IMPORT = re.compile(r"^\s*(?:import|from|use|using|require|#\s*include)\b|\brequire\s*\(")


def referring(name: str, hits: Sequence[Hit], defined: Sequence[Record]) -> list[Hit]:
    """The hits with a line that writes `name` (its last part) as a whole word outside the
    lines of its definitions `defined`: a type in a signature, a field, a cast, a generic
    argument. Those that use it come first, those that only import it after."""
    tail = last_part(name)
    word = re.compile(rf"(?<![\w$]){re.escape(tail)}(?![\w$])")
    using: list[Hit] = []
    importing: list[Hit] = []
    for h in hits:
        rec = h.record
        own = [
            (d.span_start, d.span_end or d.span_start)
            for d in defined
            if d.path == rec.path and d.span_start is not None
        ]
        lines = enumerate(rec.content.split("\n"), rec.span_start or 1)
        naming = [
            line for n, line in lines if word.search(line) and not any(a <= n <= b for a, b in own)
        ]
        if any(not _IMPORT.search(line) for line in naming):
            using.append(h)
        elif naming:
            importing.append(h)
    return using + importing
