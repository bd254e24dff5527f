"""`strata mcp`: the index as MCP tools for coding agents (the official SDK's `MCPServer`).

The tools call the same warm engines as the HTTP API and return pydantic results (MCP
structured output): where each hit is, what it is, and a snippet of `lines` lines, so an
agent reads a handful of lines instead of whole files. `strata mcp` serves them over stdio;
`strata serve` mounts them at `/mcp` (streamable HTTP) behind its own gate. A missing index
is built, and a stale one refreshed, in the background; until then the tools say so.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from strata.engine import Engine
from strata.engine.similar import similar
from strata.errors import StrataError
from strata.query.lookup import CallWalk
from strata.surfaces.http.bodies import (
    CONTENT_LAYERS,
    MAX_K,
    MAX_NAME,
    MAX_QUERY,
    SNIPPET_LINES,
    CallAnswer,
    CallLinkOut,
    Filters,
    IndexStatus,
    JobOut,
    SearchAnswer,
    SearchRequest,
    Snippet,
    snippet_of,
)
from strata.surfaces.jobs import Jobs
from strata.types import Hit, Record

INSTRUCTIONS = """\
Strata indexes this repository's code and docs. Prefer it to grep or reading whole files.
- `search`: any question or name; routed to symbols, call graph, entry points or text.
- `find_symbol`: where a class/function is defined. `callers`/`callees`: who calls what.
- `entrypoints`: HTTP routes, CLI commands, mains. `related`: code like a given file:line.
Results give path, lines and a short snippet; open the file at those lines for more.
`index_status` tells whether the index is current; `reindex` refreshes it."""

T = TypeVar("T")
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)

Lines = Annotated[int, Field(ge=1, le=400, description="snippet lines per hit")]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
Repo = Annotated[str | None, Field(max_length=MAX_NAME, description="one repository only")]


class Tools:
    """The tool functions, over a way to get the served engine and the index jobs."""

    def __init__(self, engine: Callable[[], Engine], jobs: Jobs) -> None:
        self.engine = engine
        self.jobs = jobs

    def search(
        self,
        query: Annotated[str, Field(min_length=1, max_length=MAX_QUERY)],
        k: Annotated[int, Field(ge=1, le=MAX_K)] = 5,
        content: Literal["all", "code", "docs"] = "all",
        path: Annotated[list[str] | None, Field(description="glob(s), e.g. src/**")] = None,
        lang: list[str] | None = None,
        repo: Repo = None,
        lines: Lines = SNIPPET_LINES,
    ) -> SearchAnswer:
        """Search code and docs by meaning and words; names, "who calls X" and "which
        endpoints" are routed to the symbol, call-graph and entry-point layers."""
        notes = self._notes()
        if notes and not self._ready():
            return SearchAnswer(hits=[], notes=notes)
        request = SearchRequest(
            query=query,
            k=k,
            layers=list(CONTENT_LAYERS[content]) if content in CONTENT_LAYERS else None,
            filters=Filters(path=path, lang=lang, repo=repo),
        )
        result = self.engine().search(**request.arguments())
        return SearchAnswer(
            hits=[hit_snippet(h, lines) for h in result.hits], notes=[*result.notes, *notes]
        )

    def find_symbol(
        self,
        name: Name,
        kind: str | None = None,
        k: int = 10,
        repo: Repo = None,
        lines: Lines = SNIPPET_LINES,
    ) -> SearchAnswer:
        """Definitions of a class, function or method: exact, qualified (`Client.send`),
        prefix, then typo-tolerant matches."""
        notes = self._notes()
        if notes and not self._ready():
            return SearchAnswer(hits=[], notes=notes)
        found = self.engine().symbols(name, kind=kind, limit=min(k, MAX_K), repo=repo)
        return SearchAnswer(
            hits=[record_snippet(m.record, lines, m.score) for m in found], notes=notes
        )

    def callers(
        self, qname: Name, depth: int = 1, repo: Repo = None, lines: Lines = SNIPPET_LINES
    ) -> CallAnswer:
        """Who calls `qname` (bare or qualified), with the calling code, to `depth` hops."""
        return self._walk(self.engine().callers, qname, depth, repo, lines)

    def callees(
        self, qname: Name, depth: int = 1, repo: Repo = None, lines: Lines = SNIPPET_LINES
    ) -> CallAnswer:
        """What `qname` calls, with the called code, to `depth` hops."""
        return self._walk(self.engine().callees, qname, depth, repo, lines)

    def entrypoints(
        self,
        type: Literal["http", "cli", "other"] | None = None,
        framework: str | None = None,
        repo: Repo = None,
        lines: Lines = 2,
    ) -> SearchAnswer:
        """HTTP routes (with full prefixed paths), CLI commands and `__main__` blocks."""
        found = self.engine().entrypoints(type=type, framework=framework, repo=repo)
        return SearchAnswer(hits=[record_snippet(r, lines) for r in found], notes=self._notes())

    def related(
        self,
        path: Name,
        line: Annotated[int, Field(ge=1)],
        k: int = 5,
        repo: Repo = None,
        lines: Lines = SNIPPET_LINES,
    ) -> SearchAnswer:
        """Code and docs most like the passage at `path:line` (other places to change
        alike, tests of it, docs about it)."""
        result = similar(self.engine(), path, line, min(k, MAX_K), repo)
        return SearchAnswer(
            hits=[hit_snippet(h, lines) for h in result.hits], notes=[*result.notes]
        )

    def index_status(self) -> IndexStatus:
        """Whether the index exists and is current: rows, vectors, files pending, the
        last run, and any refresh under way."""
        eng = self.engine()
        job = self.jobs.current()
        status: dict[str, Any] = eng.status() if eng.exists else {}
        return IndexStatus(
            root=str(eng.root),
            index_dir=str(eng.index_dir),
            exists=eng.exists,
            rows=int(status.get("rows") or 0),
            vectors=int((status.get("vectors") or {}).get("done") or 0),
            pending_files=status.get("files_pending"),
            last_index=_text(status.get("last_index")),
            job=JobOut(**job.to_json()) if job else None,
        )

    def reindex(self, full: bool = False) -> JobOut:
        """Bring the index up to date in the background (only changed files are redone;
        `full` rebuilds). Returns the job; poll `index_status` for progress."""
        return JobOut(**self.jobs.start(full=full).to_json())

    # ---- helpers ----------------------------------------------------------------------------
    def _walk(
        self, walk: Callable[..., CallWalk], qname: str, depth: int, repo: str | None, lines: int
    ) -> CallAnswer:
        result = walk(qname, depth=max(1, min(depth, 5)), repo=repo)
        links = [
            CallLinkOut(
                depth=link.depth,
                qname=link.symbol.qname,
                via=link.via,
                at=record_snippet(link.chunk, lines) if link.chunk else None,
            )
            for link in result.links
        ]
        notes = [] if links else [f"no call edges of {qname!r} in the call graph"]
        return CallAnswer(targets=[t.qname for t in result.targets], links=links, notes=notes)

    def _ready(self) -> bool:
        return self.engine().exists

    def _notes(self) -> list[str]:
        """What an agent should know about the index right now (a build under way)."""
        job = self.jobs.current()
        if job is not None and job.state == "failed":
            return [f"the last index run failed: {job.error}"]
        if job is None or job.state != "running":
            if not self.engine().exists:
                return ["no index yet; call `reindex` to build it"]
            return []
        where = f"{job.phase} {job.done}/{job.total}" if job.total else job.phase
        if job.first or not self.engine().exists:
            return [f"the index is being built ({where}); ask again in a few seconds"]
        return [f"the index is being refreshed ({where}); recent edits may be missing"]


def hit_snippet(hit: Hit, lines: int) -> Snippet:
    """A search hit as an agent reads it."""
    return record_snippet(hit.record, lines, hit.score)


def record_snippet(record: Record, lines: int, score: float | None = None) -> Snippet:
    """A record as an agent reads it: where, what, and its first `lines` lines."""
    return Snippet(
        path=record.path,
        start_line=record.span_start,
        end_line=record.span_end,
        layer=record.layer,
        title=record.title,
        repo=record.repo_id or None,
        score=round(score, 4) if score is not None else None,
        snippet=snippet_of(record.content, lines),
    )


def build(tools: Tools) -> MCPServer:
    """The MCP server with Strata's tools registered."""
    server: MCPServer = MCPServer(name="strata", instructions=INSTRUCTIONS, log_level="WARNING")
    for fn in (
        tools.search,
        tools.find_symbol,
        tools.callers,
        tools.callees,
        tools.entrypoints,
        tools.related,
        tools.index_status,
    ):
        server.add_tool(_reported(fn), annotations=READ, structured_output=True)
    server.add_tool(_reported(tools.reindex), annotations=WRITE, structured_output=True)
    return server


def _reported(fn: Callable[..., T]) -> Callable[..., T]:
    """The tool, with Strata's errors given to the agent as their message and hint."""

    @functools.wraps(fn)
    def tool(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except StrataError as exc:
            hint = f" ({exc.hint})" if exc.hint else ""
            raise ToolError(f"{exc.message}{hint}") from None

    return tool


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
    if not eng.exists or eng.status().get("files_pending"):
        jobs.start()
        jobs.wait()
        eng = engine()
    if eng.exists:
        eng.keep_warm()
