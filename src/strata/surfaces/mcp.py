"""`strata mcp`: the index as MCP tools for coding agents (the official SDK's `MCPServer`).

The tools call the same warm engines as the HTTP API and return pydantic results (MCP
structured output): where each hit is, what it is, and a snippet of `lines` lines, so an
agent reads a handful of lines instead of whole files. `strata mcp` serves them over stdio;
`strata serve` mounts them at `/mcp` (streamable HTTP) behind its own gate. A missing index
is built, and a stale one refreshed, in the background; until then the tools say so.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from strata.engine import Engine
from strata.engine.similar import similar
from strata.errors import StrataError
from strata.layers import CONTENT_LAYERS
from strata.query.focus import window_lines
from strata.query.lookup import CallLink, CallWalk
from strata.surfaces.http.bodies import (
    MAX_K,
    SNIPPET_LINES,
    CallAnswer,
    CallLinkOut,
    Depth,
    Filters,
    IndexStatus,
    SearchAnswer,
    SearchRequest,
    Snippet,
    Started,
    describe,
    snippet_of,
)
from strata.surfaces.jobs import Job, Jobs
from strata.types import Hit, Record

INSTRUCTIONS = """\
Strata indexes this repository's code and docs. Prefer it to grep or reading whole files.
- `search`: any question or name; routed to symbols, a type's members, callers, tests,
  subclasses, importers, a file's head or definitions, the project's classes (or
  interfaces, enums, ...), an overview (README, core files),
  entry points, where an error is raised or caught or a field is set, where a name is
  documented or an example of its use, a CLI flag's definition, env vars read, TODOs,
  deprecations, dependencies, the version, a release's changelog, a default's value, how
  to run the tests, or text.
- `find_symbol`: where a class/function is defined. `call_graph`: who calls what.
- `entrypoints`: HTTP routes, CLI commands, mains. `related`: code like a given file:line.
Results give path, lines and a snippet of `lines` lines; open the file there for more.
`repo` keeps one repository. `index_status`: is the index current; `reindex` refreshes it."""

T = TypeVar("T")
READ = ToolAnnotations(read_only_hint=True)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)

Lines = Annotated[int, Field(ge=1)]
Name = Annotated[str, Field(min_length=1)]
Repo = str | None


class Tools:
    """The tool functions, over a way to get the served engine and the index jobs."""

    def __init__(self, engine: Callable[[], Engine], jobs: Jobs) -> None:
        self.engine = engine
        self.jobs = jobs

    def search(
        self,
        query: Annotated[str, Field(min_length=1)],
        k: Annotated[int, Field(ge=1)] = 5,
        content: Literal["all", "code", "docs"] = "all",
        path: Annotated[list[str] | None, Field(description="glob(s), e.g. src/**")] = None,
        lang: list[str] | None = None,
        repo: Repo = None,
        branch: Annotated[str | None, Field(description="only this branch's files")] = None,
        lines: Lines = SNIPPET_LINES,
    ) -> SearchAnswer:
        """Search code and docs; names, "who calls X", "which endpoints", pasted
        errors and tracebacks go to the right layer."""
        eng = self.engine()
        notes = self._notes(eng)
        if notes and not eng.exists:
            return SearchAnswer(hits=[], notes=notes)
        request = SearchRequest(
            query=query,
            k=k,
            layers=list(CONTENT_LAYERS[content]) if content in CONTENT_LAYERS else None,
            filters=Filters(path=path, lang=lang, repo=repo, branch=branch),
        )
        result = eng.search(**request.arguments())
        return SearchAnswer(
            hits=[hit_snippet(h, lines) for h in result.hits],
            notes=[*result.notes, *twin_notes(result.hits), *notes],
        )

    def find_symbol(
        self,
        name: Name,
        kind: str | None = None,
        k: int = 10,
        repo: Repo = None,
        lines: Lines = SNIPPET_LINES,
    ) -> SearchAnswer:
        """Where a class, function or method is defined (exact, `Class.method`, prefix,
        then typo-tolerant)."""
        eng = self.engine()
        notes = self._notes(eng)
        if notes and not eng.exists:
            return SearchAnswer(hits=[], notes=notes)
        found = eng.symbols(name, kind=kind, limit=min(k, MAX_K), repo=repo)
        return SearchAnswer(hits=[record_snippet(m.record, lines) for m in found], notes=notes)

    def call_graph(
        self,
        qname: Name,
        direction: Literal["callers", "callees"] = "callers",
        depth: Depth = 1,
        repo: Repo = None,
        lines: Lines = SNIPPET_LINES,
    ) -> CallAnswer:
        """Who calls `qname` (bare or qualified), or what it calls, with that code."""
        eng = self.engine()
        walk = eng.callers if direction == "callers" else eng.callees
        return self._walk(walk, qname, depth, repo, lines)

    def entrypoints(
        self,
        type: Literal["http", "cli", "other"] | None = None,
        framework: str | None = None,
        repo: Repo = None,
        lines: Lines = 2,
    ) -> SearchAnswer:
        """HTTP routes (with full prefixed paths), CLI commands and `__main__` blocks."""
        eng = self.engine()
        found = eng.entrypoints(type=type, framework=framework, repo=repo)
        return SearchAnswer(hits=[record_snippet(r, lines) for r in found], notes=self._notes(eng))

    def related(
        self,
        path: Name,
        line: Annotated[int, Field(ge=1)],
        k: int = 5,
        repo: Repo = None,
        lines: Lines = SNIPPET_LINES,
    ) -> SearchAnswer:
        """Code and docs most like the passage at `path:line` (similar code, its tests,
        its docs)."""
        result = similar(self.engine(), path, line, min(k, MAX_K), repo)
        return SearchAnswer(
            hits=[hit_snippet(h, lines) for h in result.hits],
            notes=[*result.notes, *twin_notes(result.hits)],
        )

    def index_status(self) -> IndexStatus:
        """Is the index built and current: rows, vectors, files pending, latest run."""
        eng = self.engine()
        job = self.jobs.current()
        status = eng.status() if eng.exists else None
        return IndexStatus(
            root=str(eng.root),
            exists=eng.exists,
            rows=status.rows if status else 0,
            vectors=status.vectors.done if status else 0,
            pending_files=status.files_pending if status else None,
            last_index=_text(status.last_index if status else None),
            job=_job_line(job),
        )

    def reindex(self, full: bool = False) -> Started:
        """Update the index in the background (changed files only; `full` rebuilds)."""
        return Started(job=_job_line(self.jobs.start(full=full)) or "")

    # ---- helpers ----------------------------------------------------------------------------
    def _walk(
        self, walk: Callable[..., CallWalk], qname: str, depth: int, repo: str | None, lines: int
    ) -> CallAnswer:
        result = walk(qname, depth=depth, repo=repo)
        links = [_link(link, lines) for link in result.links]
        notes = [result.read_as_note()] if result.read_as else []
        if not links:
            notes.append(f"no call edges of {result.read_as or qname!r} in the call graph")
        return CallAnswer(targets=[t.qname for t in result.targets], links=links, notes=notes)

    def _notes(self, eng: Engine) -> list[str]:
        """What an agent should know about the index right now (a build under way)."""
        job = self.jobs.current()
        if job is not None and job.state == "failed":
            return [f"the last index run failed: {job.error}"]
        if job is None or job.state != "running":
            if not eng.exists:
                return ["no index yet; call `reindex` to build it"]
            return []
        where = f"{job.phase} {job.done}/{job.total}" if job.total else job.phase
        if job.first or not eng.exists:
            return [f"the index is being built ({where}); ask again in a few seconds"]
        return [f"the index is being refreshed ({where}); recent edits may be missing"]


def hit_snippet(hit: Hit, lines: int) -> Snippet:
    """A search hit as an agent reads it: a long code hit from the lines its query's words
    are in (`focus_start`), not from its first line."""
    snippet = record_snippet(hit.record, lines)
    start, text = window_lines(hit.record)
    if start == snippet.start_line:
        return snippet
    end = start + len(text.split("\n")) - 1
    update = {"focus_start": start, "focus_end": end, "snippet": snippet_of(text, lines)}
    return snippet.model_copy(update=update)


def twin_notes(hits: Iterable[Hit]) -> list[str]:
    """Where the same text as a hit is, left out of the hits for it (query/twins.py): in
    the notes, so that the hits' schema, read every turn, stays as small."""
    return [
        f"{h.record.path}:{h.record.span_start}-{h.record.span_end}: the same text is also at "
        + ", ".join(twins)
        for h in hits
        if (twins := h.record.metadata.get("same_text_at"))
    ]


def record_snippet(record: Record, lines: int) -> Snippet:
    """A record as an agent reads it: where, what, and its first `lines` lines."""
    return Snippet(
        path=record.path,
        start_line=record.span_start or 0,
        end_line=record.span_end or 0,
        layer=record.layer,
        title=record.title,
        repo=record.repo_id or None,
        snippet=snippet_of(record.content, lines),
    )


def build(tools: Tools) -> MCPServer:
    """The MCP server with Strata's tools registered, their schemas kept small."""
    read_only = (
        tools.search,
        tools.find_symbol,
        tools.call_graph,
        tools.entrypoints,
        tools.related,
        tools.index_status,
    )
    registered = [_tool(fn, READ) for fn in read_only] + [_tool(tools.reindex, WRITE)]
    return MCPServer(
        name="strata", instructions=INSTRUCTIONS, log_level="WARNING", tools=registered
    )


def _tool(fn: Callable[..., Any], annotations: ToolAnnotations) -> Tool:
    """A tool whose advertised schemas carry no titles and no verbose nullable unions: the
    tool list is read by the agent's model on every turn (see benchmarks/mcp.py)."""
    tool = Tool.from_function(
        _reported(fn),
        description=inspect.cleandoc(fn.__doc__ or ""),
        annotations=annotations,
        structured_output=True,
    )
    tool.parameters = compact(tool.parameters)
    tool.fn_metadata.output_schema = compact(tool.fn_metadata.output_schema, descriptions=False)
    return tool


def compact(schema: Any, *, descriptions: bool = True) -> Any:
    """A JSON schema without titles, `null` defaults and `additionalProperties: true`, and
    with `anyOf: [X, null]` written as X with `type: [x, "null"]`: the same constraints.
    Without `descriptions` (an output schema) it has no descriptions, defaults or `required`
    lists either: the types still check every field a result carries (a hit leaves out
    the ones it has no value for)."""
    if isinstance(schema, list):
        return [compact(s, descriptions=descriptions) for s in schema]
    if not isinstance(schema, dict):
        return schema
    drop = {"title"} | (set() if descriptions else {"description", "default", "required"})
    out = {
        k: (
            {name: compact(p, descriptions=descriptions) for name, p in v.items()}
            if k in ("properties", "$defs")
            else compact(v, descriptions=descriptions)
        )
        for k, v in schema.items()
        if k not in drop
    }
    if out.get("default", 0) is None:
        del out["default"]
    if out.get("additionalProperties") is True:  # JSON Schema's default
        del out["additionalProperties"]
    options = out.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
        other = next(o for o in options if o != {"type": "null"})
        if isinstance(other.get("type"), str):
            del out["anyOf"]
            out.update(other)
            out["type"] = [other["type"], "null"]
    return out


def _reported(fn: Callable[..., T]) -> Callable[..., T]:
    """The tool, with Strata's errors given to the agent as their message and hint."""

    @functools.wraps(fn)
    def tool(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except StrataError as exc:
            hint = f" ({exc.hint})" if exc.hint else ""
            raise ToolError(f"{exc.message}{hint}") from None
        except ValidationError as exc:  # the shared request models' limits
            raise ToolError(describe(exc.errors())) from None

    return tool


def _link(link: CallLink, lines: int) -> CallLinkOut:
    """A call edge as an agent reads it: the fields of `POST /callers`, with the first
    `lines` lines of the calling (or called) code instead of the whole chunk."""
    edge = link.edge
    return CallLinkOut(
        qname=link.symbol.qname,
        depth=link.depth,
        via=link.via,
        match=link.match,
        resolved=link.resolved,
        path=edge.path,
        start_line=edge.span_start or 0,
        end_line=edge.span_end or 0,
        lines=list(link.lines),
        code=None if link.chunk is None else _placed(link.chunk, lines),
    )


def _placed(record: Record, lines: int) -> str:
    """A record's first `lines` lines under the place they are at (`path:start-end`): the
    calling chunk, or a callee's definition in another file."""
    return f"{record.path}:{record.span_start or 0}-{record.span_end or 0}\n" + snippet_of(
        record.content, lines
    )


def _job_line(job: Job | None) -> str | None:
    """The latest index run in one line: `running index 3/7`, `done`, `failed: why`."""
    if job is None:
        return None
    if job.state == "failed":
        return f"failed: {job.error}"
    progress = f" {job.done}/{job.total}" if job.total else ""
    return f"running {job.phase}{progress}" if job.state == "running" else job.state


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def serve_stdio(path: str | None, index_dir: str | None, store: str | None) -> None:
    """`strata mcp`: the tools over stdio, for the index of `path`; a missing or stale index
    is built or refreshed in the background while the tools already answer."""
    import threading

    from strata.surfaces.http.pool import Engines
    from strata.surfaces.http.state import fresh_engine

    engines = Engines(Engine.open(path, index_dir=index_dir, store=store), store)

    def engine() -> Engine:  # until the index is built, the engine that will build it
        return engines.served() if engines.home.exists else engines.home

    jobs = Jobs(lambda: fresh_engine(engines))
    threading.Thread(target=_prepare, args=(engine, jobs), daemon=True).start()
    try:
        build(Tools(engine, jobs)).run()
    finally:
        jobs.wait(timeout=0)
        engines.close()


def _prepare(engine: Callable[[], Engine], jobs: Jobs) -> None:
    """Build a missing index, refresh a stale one, then keep it warm."""
    eng = engine()
    if not eng.exists or eng.status().files_pending:
        jobs.start()
        jobs.wait()
        eng = engine()
    if eng.exists:
        eng.keep_warm()
