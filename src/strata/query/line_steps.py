"""The plan steps that find passages by what their lines write: reading an environment
variable (`strata.query.environment`), or defining, documenting or reading a command-line
flag (`strata.query.cli_flags`). Each is a lexical search kept where a line does."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from strata import layers as L
from strata.query import (
    assigned,
    caught,
    cli_flags,
    documented,
    environment,
    hybrid,
    marked,
    project_facts,
)
from strata.query.definitions import at_header, header_chunks
from strata.query.filters import SearchFilters
from strata.query.focus import at_line
from strata.query.hybrid import QueryContext
from strata.query.lookup.rows import indexed_paths
from strata.query.lookup.symbols import find_symbols
from strata.query.router import Step
from strata.types import Hit

__all__ = ["LINE_STEPS", "POOL", "caught_lines", "env_reads", "flag_lines", "marked_lines"]
__all__ += ["assigned_lines", "project_lines", "shown_from", "then_plain", "usage_lines"]

POOL = 100  # the lexical hits read for a line that does what is asked
DEEP_POOL = 500  # read when none of those has such a line


def env_reads(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The passages that read an environment variable, those the question's own words (a
    variable's name) find first: a lexical search kept where a line reads one."""
    words = environment.reading_words(str(step.args["query"]))
    found = hybrid.search(ctx, words, POOL, filters=filters.on_store(), mode="lexical")
    hits = [h for h in found.hits if environment.READS.search(h.record.content)]
    return hits, [] if hits else ["no passage reads an environment variable"]


def marked_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The code passages with a line of the kind asked for (`todo`: a comment leaving work,
    `deprecated`: a deprecation), those the question's own words find first; each long one
    shown from that line."""
    kind = str(step.args["kind"])
    words = marked.mark_words(kind, str(step.args["query"]))
    hits = _code_lines(ctx, words, marked.MARKS[kind], filters)
    return hits, [] if hits else [f"no passage holds {_MARKED[kind]}"]


def _code_lines(
    ctx: QueryContext, words: str, pattern: re.Pattern[str], filters: SearchFilters
) -> list[Hit]:
    """The code passages of a lexical search of `words` (`POOL` deep, then `DEEP_POOL` when
    none has such a line: NUnit's `this.constraints = ...` among hundreds of passages that
    say "constraints") with a line that `pattern` finds, in the search's order; each long
    one shown from that line."""
    for depth in (POOL, DEEP_POOL):
        found = hybrid.search(ctx, words, depth, filters=filters.on_store(), mode="lexical")
        hits = []
        for hit in found.hits:
            rec = hit.record
            if rec.layer.startswith("C") and (m := pattern.search(rec.content)):
                hits.append(shown_from(hit, rec.content.count("\n", 0, m.start())))
        if hits:
            return hits
    return []


def caught_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The passages with a line that catches the error asked about (`except X`, `catch (X
    e)`, `rescue X`, ...), each long one shown from that line; then the plain search."""
    name = str(step.args["name"])
    hits = _code_lines(ctx, f"{name} {caught.CATCH_WORDS}", caught.catching(name), filters)
    notes = [] if hits else [f"no line catches {name!r}: plain search instead"]
    return then_plain(ctx, step, filters, mode, hits), notes


def assigned_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The passages with a line that writes the variable, field or attribute asked about
    (`self.x = ...`, `x += 1`, `@x =`, `x := ...`), each long one shown from that line;
    then the plain search."""
    name = str(step.args["name"])
    words = f"{name} {assigned.ASSIGN_WORDS}"
    hits = _code_lines(ctx, words, assigned.assigning(name), filters)
    notes = [] if hits else [f"no line assigns {name!r}: plain search instead"]
    return then_plain(ctx, step, filters, mode, hits), notes


def usage_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """Where a name is documented (`documented`: the document passages that write it, then
    its definition at its header, the docstring), or an example of its use (`example`:
    the passages that call it, documents first, then tests, then code); then the plain
    search."""
    kind, name = str(step.args["kind"]), str(step.args["name"])
    if kind == "documented":
        docs = hybrid.search(
            ctx, name, POOL, layers=[L.D0_DOC_CHUNKS], filters=filters.on_store(), mode="lexical"
        )
        word = documented.writes(name)
        hits = [h for h in docs.hits if word.search(h.record.content)]
        defined = find_symbols(ctx.store, name, limit=3, exact=True)
        heads = header_chunks(ctx.store, defined)
        hits += [Hit(at_header(m, heads.get(m.symbol_id)), m.score) for m in defined]
        notes = [] if len(hits) > len(defined) else [f"no document writes {name!r}"]
    else:
        found = hybrid.search(ctx, name, POOL, filters=filters.on_store(), mode="lexical")
        ranked = []
        for n, hit in enumerate(found.hits):
            rec = hit.record
            if (at := documented.first_call(rec.content, name)) is None:
                continue
            hit = shown_from(hit, rec.content.count("\n", 0, at))
            ranked.append(((not _doc(hit), not rec.is_test, n), hit))
        hits = [hit for _, hit in sorted(ranked, key=lambda pair: pair[0])]
        notes = [] if hits else [f"no passage calls {name!r}"]
    return then_plain(ctx, step, filters, mode, hits), notes


def project_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The lines of the project's manifests (and, for its version, of its version modules:
    `__init__.py`'s `__version__`) that state what was asked: those writing a number
    first (`"8.57.1"`, `(7, 6, 1)`: a `version = attr: ...` only points), then the
    shallowest file (the root's manifest before a fixture's or a vendored copy's), a
    manifest before code, a test's last; each long passage shown from its line. Then the
    plain search of the question (tiers, not a fusion, as `flag_lines`)."""
    kind = str(step.args["kind"])
    hits = _stated(ctx, kind, filters)
    notes = [] if hits else [f"no manifest line states the {kind}: plain search instead"]
    return then_plain(ctx, step, filters, mode, hits), notes


def _stated(ctx: QueryContext, kind: str, filters: SearchFilters) -> list[Hit]:
    sources = tuple(p for p in indexed_paths(ctx.store) if project_facts.is_source(kind, p))
    if not sources:
        return []
    where = filters.on_store() if filters.path else dataclasses.replace(filters, path=sources)
    found = hybrid.search(ctx, project_facts.WORDS[kind], POOL, filters=where, mode="lexical")
    ranked: list[tuple[tuple[bool, int, bool, bool, int], Hit]] = []
    for n, hit in enumerate(found.hits):
        rec = hit.record
        m = project_facts.LINES[kind].search(rec.content)
        if m is None or not project_facts.is_source(kind, rec.path):
            continue
        hit = shown_from(hit, rec.content.count("\n", 0, m.start()))
        numbered = bool(project_facts.NUMBER.search(_line_at(rec.content, m.start())))
        manifest = project_facts.is_manifest(rec.path)
        ranked.append(((not numbered, rec.path.count("/"), not manifest, rec.is_test, n), hit))
    return [hit for _, hit in sorted(ranked, key=lambda pair: pair[0])]


def then_plain(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None, hits: list[Hit]
) -> list[Hit]:
    """`hits`, then those of the plain search of the step's question they lack."""
    plain = hybrid.search(ctx, str(step.args["query"]), step.limit, filters=filters, mode=mode)
    have = {h.record.id for h in hits}
    return hits + [h for h in plain.hits if h.record.id not in have]


def flag_lines(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The passages that write a flag the question asks about, in tiers: those defining it
    (its dashes in a string, then its name as a string), the documents that write it, the
    code reading its parsed value; each long one shown from the line that writes it. A
    short flag's long name, read off its definition (`'-o', '--outfile'`), finds the code
    reading `args.outfile`. Then the plain search of the question. (Tiers, not a fusion: a
    passage the plain search ranks first would otherwise come before the definition.)"""
    query = str(step.args["query"])
    flags = cli_flags.asked_flags(query)
    ranked = _written(ctx, flags, filters)
    defining = [h.record.content for (_, _, how, _), h in ranked if how == cli_flags.Written.DASHED]
    if longer := cli_flags.long_names(flags, defining):
        have = {h.record.id for _, h in ranked}
        more = [
            ((d, t, how, n + 2 * POOL), h) for (d, t, how, n), h in _written(ctx, longer, filters)
        ]
        ranked += [pair for pair in more if pair[1].record.id not in have]
    hits = [hit for _, hit in sorted(ranked, key=lambda pair: pair[0])]
    asked = " or ".join(flags) or "a command-line flag"
    notes = [] if hits else [f"no passage writes {asked}: plain search instead"]
    return then_plain(ctx, step, filters, mode, hits), notes


def _written(
    ctx: QueryContext, flags: tuple[str, ...], filters: SearchFilters
) -> list[tuple[tuple[int, bool, int, int], Hit]]:
    """The lexical hits of the flags' words that write one (any flag, none being named),
    each with whether it defines one (`_defining`), whether it is a test's, how, and its
    place in the search; shown from the line that writes it."""
    # Two pools: the flags' words, and those with the words definitions are written with:
    # a flag named like a common word (`--config`, `-a`) is written in more passages than
    # a pool holds, and only the second holds its definition.
    words = cli_flags.flag_words(flags)
    pools = [words] if any(f.startswith("--") for f in flags) else []  # `o` finds nothing
    pools.append(f"{words} {cli_flags.DEFINING_WORDS}")
    hits: dict[str, Hit] = {}
    for text in pools:
        found = hybrid.search(ctx, text, POOL, filters=filters.on_store(), mode="lexical")
        hits |= {h.record.id: h for h in found.hits if h.record.id not in hits}
    ranked: list[tuple[tuple[int, bool, int, int], Hit]] = []
    for n, hit in enumerate(hits.values()):
        rec = hit.record
        seen = [w for f in flags if (w := cli_flags.how_written(f, rec.content, _doc(hit)))]
        if not flags and not _doc(hit) and (m := cli_flags.DEFINES_ANY.search(rec.content)):
            seen = [(cli_flags.Written.DASHED, rec.content.count("\n", 0, m.start()))]
        if seen:
            how, line = min(seen)
            hit = shown_from(hit, line)
            defining = _defining(how, rec.content, line)
            ranked.append(((defining, rec.is_test, how, n), hit))
    return ranked


def _defining(how: cli_flags.Written, text: str, line: int) -> int:
    """0 for a flag written as parsers are told one and described there (`help=`,
    `description:`): a definition, before every other way of writing it; else 1."""
    return int(how > cli_flags.Written.NAMED or not cli_flags.described(text, line))


_MARKED = {
    "todo": "a TODO or FIXME comment",
    "deprecated": "a deprecation",
    "skipped": "a skipped test",
}


def shown_from(hit: Hit, line: int) -> Hit:
    """`hit`, a long one shown from its `line` (0-based in its text: the line a step found)."""
    rec = hit.record
    if rec.span_start is None:
        return hit
    return dataclasses.replace(hit, record=at_line(rec, rec.span_start + line))


def _line_at(text: str, at: int) -> str:
    """The line of `text` that holds its character `at`."""
    end = text.find("\n", at)
    return text[text.rfind("\n", 0, at) + 1 : end if end >= 0 else len(text)]


def _doc(hit: Hit) -> bool:
    return hit.record.layer.startswith("D")


Runner = Callable[[QueryContext, Step, SearchFilters, "str | None"], tuple[list[Hit], list[str]]]
LINE_STEPS: dict[str, Runner] = {
    "env_reads": env_reads,
    "flag_lines": flag_lines,
    "marked_lines": marked_lines,
    "project_lines": project_lines,
    "caught_lines": caught_lines,
    "assigned_lines": assigned_lines,
    "usage_lines": usage_lines,
}
