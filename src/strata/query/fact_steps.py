"""The plan steps that answer with what the project states of itself: a release's changes
(its changelog's sections, `strata.query.changes`), a default's value (the lines that
state it, `strata.query.defaults`) and how to run its commands (`strata.query.dev_tasks`).
Each keeps the passages that say so, then the plain search."""

from __future__ import annotations

import dataclasses
import re

from strata import layers as L
from strata.query import changes, defaults, dev_tasks, hybrid
from strata.query.definitions import at_header, defined_at, header_chunks
from strata.query.filters import SearchFilters
from strata.query.hybrid import QueryContext
from strata.query.line_steps import POOL, Runner, shown_from, then_plain
from strata.query.lookup.docs import changelog_paths
from strata.query.lookup.given import given_defaults
from strata.query.lookup.rows import indexed_paths
from strata.query.router import Step
from strata.types import Hit, Record

__all__ = ["FACT_STEPS", "change_lines", "default_lines", "task_lines"]


def default_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The passages with a line that states the default asked about, the code's before the
    tests': a name for it holding `default` (`DEFAULT_TIMEOUT = 5.0`), then a parameter or
    field given a literal (`timeout: float = 5.0`), then anything else, then a line saying
    `default` beside it; each long one shown from that line. Then the plain search."""
    thing = str(step.args["thing"])
    name = defaults.name_pattern(thing)
    hits: dict[str, Hit] = {}
    for text in (thing, f"{thing} {defaults.DEFAULT_WORDS}"):  # a signature seldom says it
        found = hybrid.search(ctx, text, POOL, filters=filters.on_store(), mode="lexical")
        hits |= {h.record.id: h for h in found.hits if h.record.id not in hits}
    ranked = []
    for n, hit in enumerate(hits.values()):
        lines = hit.record.content.split("\n")
        seen = [
            (how, i) for i, ln in enumerate(lines) if (how := defaults.stated(ln, name)) is not None
        ]
        seen += defaults.keyed(lines, name)  # `DEFAULT = {'max-spaces-inside': 0, ...}`
        if seen:
            how, line = min(seen)
            ranked.append(((hit.record.is_test, how, n), shown_from(hit, line)))
    ranked += _given(ctx, thing, filters, len(hits))
    out: dict[str, Hit] = {}  # a passage found both ways: where it ranks first
    for _, hit in sorted(ranked, key=lambda pair: pair[0]):
        out.setdefault(hit.record.id, hit)
    notes = [] if out else [f"no line states the default of {thing!r}: plain search instead"]
    return then_plain(ctx, step, filters, mode, list(out.values())), notes


def _given(
    ctx: QueryContext, thing: str, filters: SearchFilters, after: int
) -> list[tuple[tuple[bool, defaults.Stated, int], Hit]]:
    """The definitions whose signature gives the parameter asked about a default (however
    many passages write its name), each at its header, numbered from `after`."""
    given = given_defaults(ctx.store, thing)[:POOL]
    heads = header_chunks(ctx.store, [m for m, _ in given])
    out = []
    for n, (m, how) in enumerate(given, after):
        rec = at_header(m, heads.get(m.symbol_id))
        if filters.keeps(rec):
            out.append(((rec.is_test, how, n), Hit(rec, 1.0, {"default": 1.0}, (defined_at(m),))))
    return out


def change_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The changelog's sections that answer a question about releases, each titled with
    its release: a release's (its number's own sections, else its series'), the latest
    release's (the highest number a heading names), or, for when a thing changed, the
    entries that write its words (one that says the change asked, `added`, first), each
    shown from that line. Then the plain search (tiers, as `flag_lines`)."""
    kind, what = str(step.args["kind"]), str(step.args["what"])
    named = (p for p in indexed_paths(ctx.store) if changes.is_changelog_path(p))
    paths = tuple(sorted({*named, *changelog_paths(ctx.store)}))
    hits: list[Hit] = []
    if paths and kind == "when":
        verb = changes.verb_stem(str(step.args["query"]))
        hits = _change_entries(ctx, what, verb, paths, filters)
    elif paths:
        sections = _releases(ctx, paths, filters)
        asked = changes.versions(what) if kind == "release" else _newest(sections)
        for number in asked:
            for grade in (2, 1):
                same = [r for r, v in sections if v and changes.same_release(number, v) == grade]
                if same:
                    hits += [Hit(r, 1.0) for r in same]
                    break
    notes = [] if hits else ["no changelog section answers it: plain search instead"]
    return then_plain(ctx, step, filters, mode, hits), notes


def _releases(
    ctx: QueryContext, paths: tuple[str, ...], filters: SearchFilters
) -> list[tuple[Record, str | None]]:
    """The document sections of the changelogs at `paths`, in file order, each titled with
    the release its nearest heading naming one names (None for none: `Unreleased`)."""
    out = []
    for rec in _fetched(ctx, paths, filters):
        heads = [str(h) for h in rec.metadata.get("section_path") or [rec.title]]
        version = next((v for h in reversed(heads) if (v := changes.heading_version(h))), None)
        out.append((_titled(rec, heads, version), version))
    return out


def _titled(rec: Record, heads: list[str], version: str | None) -> Record:
    """`rec` titled with the heading that names its release, then its own (`0.26.0 (20th
    December, 2023) › Added`); a link in a heading is its text (`[18.2.0](https://…)`
    is `18.2.0`)."""
    named = next((h for h in heads if version and version in h), None)
    if named is None:
        return rec
    own, named = _unlinked(rec.title), _unlinked(named)
    return dataclasses.replace(rec, title=named if named == own else f"{named} › {own}")


def _unlinked(title: str) -> str:
    """A Markdown heading's text with its links as their text."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)


def _newest(sections: list[tuple[Record, str | None]]) -> list[str]:
    """The highest release number the sections' headings name (none: nothing)."""
    numbers = [v for _, v in sections if v]
    return [max(numbers, key=changes.version_key)] if numbers else []


def _change_entries(
    ctx: QueryContext, what: str, verb: str, paths: tuple[str, ...], filters: SearchFilters
) -> list[Hit]:
    """The changelog sections a lexical search of `what` finds that write all its words on
    one line, those whose line also says the change (`verb`, a stem) first, then those
    writing it as code, then (for when it was added) the earliest release, then the
    search's order; each titled with its release and shown from that line."""
    where = dataclasses.replace(filters.on_store(), path=paths)
    found = hybrid.search(ctx, what, POOL, layers=[L.D0_DOC_CHUNKS], filters=where, mode="lexical")
    sections = _releases(ctx, paths, filters)
    titles = {r.id: r for r, _ in sections}
    # when a thing was added: its first release among the entries that say so equally
    first = verb.startswith(("add", "intr"))
    order = {r.id: (0, changes.version_key(v)) for r, v in sections if v and first}
    words = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)", re.IGNORECASE) for w in what.split()]
    code = re.compile("|".join(rf"`{re.escape(w)}(?:\(\))?`" for w in what.split()))
    ranked = []
    for n, hit in enumerate(found.hits):
        lines = hit.record.content.split("\n")
        saying = [i for i, line in enumerate(lines) if all(w.search(line) for w in words)]
        if not saying:
            continue
        title = hit.record.title.lower()  # `### Added` says the change of its entries
        tier, line = min((_entry_tier(lines[i], title, verb, code), i) for i in saying)
        rec = titles.get(hit.record.id, hit.record)
        release = order.get(hit.record.id, (1, ((), "")))
        hit = shown_from(dataclasses.replace(hit, record=rec), line)
        ranked.append(((*tier, release, n), hit))
    return [hit for _, hit in sorted(ranked, key=lambda pair: pair[0])]


def _entry_tier(line: str, title: str, verb: str, code: re.Pattern[str]) -> tuple[bool, bool]:
    """How well a changelog line that writes the thing asked about says its change: the
    change asked (`verb`) on the line or in its section's `title` first, then the thing
    written as code (`` `proxy` ``)."""
    return not (verb and (verb in line.lower() or verb in title)), not code.search(line)


def task_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """How to run a command of the kind asked (the tests, the docs' build, the linter): the
    sections of the developers' documents (`CONTRIBUTING.md`) headed so, then the lines
    that define such a command (`package.json`'s scripts, a Makefile's targets, tox's
    environments, nox's sessions), then the other documents' sections headed so; the
    root's before a nested one's, a test's last; each shown from its line. A listing of
    the commands puts the definitions first. Then the plain search."""
    kind = str(step.args["kind"])
    paths = indexed_paths(ctx.store)
    ranked: list[tuple[tuple[int, bool, int, int], Hit]] = []
    found = hybrid.search(
        ctx,
        dev_tasks.TASK_WORDS[kind],
        POOL,
        layers=[L.D0_DOC_CHUNKS],
        filters=filters.on_store(),
        mode="lexical",
    )
    guides = tuple(p for p in paths if dev_tasks.is_dev_doc(p))
    docs = [h.record for h in found.hits] + _fetched(ctx, guides, filters)
    for n, rec in enumerate(docs):
        heads = [str(t) for t in rec.metadata.get("section_path") or [rec.title]]
        if heads and dev_tasks.titled_for(heads[-1], kind):
            tier = (0 if dev_tasks.is_dev_doc(rec.path) else 2) + (kind == "list")
            ranked.append(((tier, rec.is_test, rec.path.count("/"), n), Hit(rec, 1.0)))
    defining = tuple(p for p in paths if dev_tasks.is_task_file(p))
    tool = dev_tasks.named_tool(str(step.args["query"])).lower()  # "npm scripts": its file's
    for n, rec in enumerate(_fetched(ctx, defining, filters, code=True)):
        if (line := dev_tasks.defines_task(rec.path, rec.content, kind)) is not None:
            named = not tool or rec.path.lower().rsplit("/", 1)[-1] == tool
            tier = (0 if kind == "list" else 1) + (0 if named else 3)
            if dev_tasks.configures_pytest(rec.content.split("\n")[line]):
                tier = 2  # pytest's own table says how, a task more so
            hit = shown_from(Hit(rec, 1.0), line)
            ranked.append(((tier, rec.is_test, rec.path.count("/"), n), hit))
    out: dict[str, Hit] = {}
    for _, hit in sorted(ranked, key=lambda pair: pair[0]):
        out.setdefault(hit.record.id, hit)
    notes = [] if out else ["no document or manifest says how: plain search instead"]
    return then_plain(ctx, step, filters, mode, list(out.values())), notes


def _fetched(
    ctx: QueryContext, paths: tuple[str, ...], filters: SearchFilters, *, code: bool = False
) -> list[Record]:
    """The passages (documents' sections, or code's chunks too) of `paths` that `filters`
    keep, in path and line order."""
    if not paths:
        return []
    layers = [L.C0_SOURCE_CHUNKS, L.D0_DOC_CHUNKS] if code else [L.D0_DOC_CHUNKS]
    where = filters.where(layers, lambda: paths)
    where = dataclasses.replace(where, paths=where.paths if where.paths is not None else paths)
    return [r for r in ctx.store.fetch(where, vectors=False) if filters.keeps(r)]


FACT_STEPS: dict[str, Runner] = {
    "change_lines": change_lines,
    "default_lines": default_lines,
    "task_lines": task_lines,
}
