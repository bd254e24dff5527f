"""The web page of `strata serve`: static files shipped in the wheel, served at `/`.

The page is plain HTML, CSS and one ES module with no inline script, so a strict Content
Security Policy holds: scripts and styles from this server only, requests to this server
only, no frames. Everything it shows comes from the typed HTTP API, rendered as text.
"""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter
from fastapi.responses import Response

from strata.surfaces.http.state import ServeState

ASSETS = {  # name -> media type: the only files served (no path is taken from a request)
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
}
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
PUBLIC_PATHS = frozenset({"/", *(f"/web/{name}" for name in ASSETS)})


def asset(name: str) -> Response:
    """One of the page's files, with the page's security headers."""
    body = files(__package__).joinpath(name).read_bytes()
    return Response(body, media_type=ASSETS[name], headers=HEADERS)


def router(_state: ServeState) -> APIRouter:
    """`GET /` and `GET /web/{name}`."""
    web = APIRouter(include_in_schema=False)

    @web.get("/")
    def page() -> Response:
        return asset("index.html")

    @web.get("/web/{name}")
    def static(name: str) -> Response:
        if name not in ASSETS:
            return Response('{"error": "no such file"}', 404, media_type="application/json")
        return asset(name)

    return web
