"""The engine's endpoints: each parses a typed body, calls the Engine, returns its JSON."""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse

from strata.engine.similar import similar
from strata.query.lookup import CallWalk
from strata.query.lookup.rows import record_json
from strata.surfaces.http.bodies import (
    ERRORS,
    CallLinkOut,
    CallsRequest,
    CliBody,
    DocsRequest,
    EntrypointsRequest,
    IndexRequest,
    JobOut,
    RelatedRequest,
    SearchRequest,
    SimilarRequest,
    SymbolsRequest,
)
from strata.surfaces.http.state import ServeState

JSON = dict[str, Any]


def _walked(walk: CallWalk, response: Response) -> list[JSON]:
    """A walk's links; the name it was read as, if any, in a header (the body stays a list)."""
    if walk.read_as:
        response.headers["X-Strata-Note"] = walk.read_as_note()
    return walk.to_json()


def router(state: ServeState) -> APIRouter:  # noqa: C901 - one short nested handler per route
    """`/health`, `/status`, `/search`, the layer lookups, `/cli`, `/index` and `/jobs`."""
    api = APIRouter(responses=ERRORS)
    served = state.engines.served

    @api.get("/health")
    def health() -> JSON:
        """Liveness, and which index is served."""
        home = state.engines.home
        return {
            "ok": True,
            "root": str(home.root),
            "index_dir": str(home.index_dir),
            "pid": os.getpid(),
        }

    @api.get("/status")
    def status() -> JSON:
        """What `strata status --json` prints."""
        return served().status().to_json()

    @api.post("/search")
    def search(body: SearchRequest) -> JSON:
        """Routed (or, with `layers`, direct) hybrid search; hits as `strata search --json`."""
        result = served().search(**body.arguments())
        return {
            "hits": [h.to_json() for h in result.hits],
            "notes": list(result.notes),
            "mode": result.mode,
        }

    @api.post("/symbols")
    def symbols(body: SymbolsRequest) -> list[JSON]:
        """C1: definitions by exact, qualified, prefix, then fuzzy name."""
        found = served().symbols(body.name, kind=body.kind, limit=body.k, repo=body.repo)
        return [m.to_json() for m in found]

    @api.post("/callers", response_model=list[CallLinkOut], response_model_exclude_unset=True)
    def callers(body: CallsRequest, response: Response) -> list[JSON]:
        """C2: who calls `qname`, with the calling code (a misspelt name read as the one
        defined name it misspells, said in the `X-Strata-Note` header)."""
        return _walked(served().callers(body.qname, body.depth, repo=body.repo), response)

    @api.post("/callees", response_model=list[CallLinkOut], response_model_exclude_unset=True)
    def callees(body: CallsRequest, response: Response) -> list[JSON]:
        """C2: what `qname` calls, with the called code (a misspelt name as in `/callers`)."""
        return _walked(served().callees(body.qname, body.depth, repo=body.repo), response)

    @api.post("/entrypoints")
    def entrypoints(body: EntrypointsRequest) -> list[JSON]:
        """C3: HTTP routes, CLI commands, `__main__` blocks."""
        found = served().entrypoints(type=body.type, framework=body.framework, repo=body.repo)
        return [record_json(r) for r in found]

    @api.post("/docs")
    def docs(body: DocsRequest) -> list[JSON]:
        """D1: the document catalog."""
        eng = served()
        return [record_json(r) for r in eng.docs(body.kind, body.domain, body.type, repo=body.repo)]

    @api.post("/related")
    def related(body: RelatedRequest) -> list[JSON]:
        """D5: documents related to a document id."""
        return [r.to_json() for r in served().related(body.document_id, body.depth, repo=body.repo)]

    @api.post("/similar")
    def similar_to(body: SimilarRequest) -> JSON:
        """Passages most like the one at `path:line`."""
        result = similar(served(), body.path, body.line, body.k, body.repo)
        return {
            "hits": [h.to_json() for h in result.hits],
            "notes": list(result.notes),
            "mode": result.mode,
        }

    @api.post("/cli")
    def cli(body: CliBody) -> JSON:
        """Run a read-only `strata` command line as the caller would have (the launcher)."""
        return state.run_cli(body.model_dump(exclude_unset=True))

    @api.post("/index", status_code=202)
    def index(body: IndexRequest) -> JobOut:
        """Start bringing the index up to date in the background (or return the running job)."""
        return JobOut(**state.jobs.start(full=body.full).to_json())

    @api.get("/jobs/{job_id}")
    def job(job_id: str) -> Any:
        """An index job's state and progress."""
        found = state.jobs.get(job_id)
        if found is None:
            return JSONResponse({"error": f"no job {job_id}"}, 404)
        return JobOut(**found.to_json())

    return api
