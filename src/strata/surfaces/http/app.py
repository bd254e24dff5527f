"""The ASGI app of `strata serve`: every route in one place, over one set of warm engines.

    GET  /health /status /openapi.json      GET /jobs/{id}
    POST /ask (a cited answer, streamed as server-sent events)
    POST /search /symbols /callers /callees /entrypoints /docs /related /similar
    POST /cli (a forwarded read-only command)  POST /index (a background job)
    POST /file /document (what the page opens)  GET / and /web/* (the page)
    /mcp (MCP over streamable HTTP)

Request bodies are the typed models of `bodies` (shared with the MCP tools); answers are the
JSON of `strata <command> --json`. Errors are `{"error": str, "hint"?: str}`: 400 for a bad
request or a user error, 404/405, 500 for an engine error. Reads run concurrently on
threads, `/cli` runs too (each with its own click context: streams, working directory);
writes are index jobs, which take the index's write lock as any writer does.
To add an endpoint, add a router to `ROUTERS` (see `api.router` for the pattern).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from strata.errors import StrataError, UserError
from strata.surfaces import web
from strata.surfaces.http import api, ask, files
from strata.surfaces.http.bodies import describe
from strata.surfaces.http.guard import Guard, Policy
from strata.surfaces.http.state import RequestError, ServeState
from strata.surfaces.mcp import Tools, build

log = logging.getLogger(__name__)

# Every router of the app; each is a function of the server's state.
ROUTERS: list[Callable[[ServeState], Any]] = [api.router, ask.router, files.router, web.router]


def create_app(state: ServeState, policy: Callable[[], Policy]) -> Guard:
    """The whole app: routes, MCP at `/mcp`, error mapping, all behind the gate."""
    mcp = build(Tools(state.engines.served, state.jobs))
    mcp_app = mcp.streamable_http_app(
        streamable_http_path="/mcp",
        # A tool call is answered as one JSON body, not an SSE stream: the tools send no
        # progress or log messages mid-call, and the stream cost both sides ~0.6 ms a call.
        json_response=True,
        # Host and Origin are checked for every route by the gate, MCP's included.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async with mcp.session_manager.run():
            yield

    app = FastAPI(title="Strata", version="1", lifespan=lifespan, docs_url=None, redoc_url=None)
    for make in ROUTERS:
        app.include_router(make(state))
    app.router.routes.extend(mcp_app.routes)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(ValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestError, _request_error)
    app.add_exception_handler(StrataError, _strata_error)
    app.add_exception_handler(Exception, _crash)
    app.openapi()  # built once, now: the web page asks for it first (its filter fields)
    return Guard(app, policy)


def _invalid(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError | ValidationError)
    return _error(400, describe(exc.errors()))


def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    path = request.url.path
    if exc.status_code == 404:
        return _error(404, f"no such endpoint: {path} (try /health)")
    if exc.status_code == 405:
        allow = (exc.headers or {}).get("Allow", "")
        allowed = sorted(m.strip() for m in allow.split(",") if m.strip() not in ("", "HEAD"))
        return _error(405, f"{path} takes {' or '.join(allowed)}, not {request.method}")
    return _error(exc.status_code, str(exc.detail))


def _request_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestError)
    return _error(exc.status, exc.message)


def _strata_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StrataError)
    status = 400 if isinstance(exc, UserError) else 500
    return _error(status, exc.message, exc.hint)


def _crash(request: Request, exc: Exception) -> JSONResponse:
    log.exception("%s %s failed: %s: %s", request.method, request.url.path, type(exc).__name__, exc)
    return _error(500, f"internal error: {type(exc).__name__}: {exc}")


def _error(status: int, message: str, hint: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, **({"hint": hint} if hint else {})}, status)
