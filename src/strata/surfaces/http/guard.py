"""The server's gate, before any route: methods, Host and Origin, token, body type and size,
and how many requests run at once.

A web page the user visits can make the browser send requests to a loopback server, and DNS
rebinding can make them look same-origin; so a request whose `Host` is not one of the
server's own names, or whose `Origin` is another site, is refused (403), and a POST must be
`application/json` (415): a cross-site "simple" request cannot be. Bound to any address but
loopback the server needs a token, sent as `Authorization: Bearer`. Every refusal is a JSON
`{"error": ...}` with a 4xx status, never a hang.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import anyio

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"})
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
MAX_BODY = 1 << 20
MAX_ACTIVE = 64  # requests served at once; the next one gets 429 at once, not a queue


@dataclass(frozen=True, slots=True)
class Policy:
    """Who may ask: the server's names (for Host and Origin), its port, the token."""

    hosts: frozenset[str]
    port: int
    token: str | None = None
    max_body: int = MAX_BODY
    max_active: int = MAX_ACTIVE
    public: frozenset[str] = frozenset()  # paths any GET may have without the token (the page)

    def with_port(self, port: int) -> Policy:
        """The same policy once the port is known (`--port 0`)."""
        return Policy(self.hosts, port, self.token, self.max_body, self.max_active, self.public)

    def host_allowed(self, host: str) -> bool:
        """A `Host` header naming this server: one of its names, with its port or none."""
        name, port = split_host(host)
        return name in self.hosts and port in (None, self.port)

    def origin_allowed(self, origin: str) -> bool:
        """An `Origin` of this server itself (http://name:port)."""
        scheme, _, rest = origin.partition("://")
        return scheme == "http" and rest.strip("/") != "" and self.host_allowed(rest.rstrip("/"))

    def token_ok(self, authorization: str) -> bool:
        """The bearer token matches (always, when no token is set)."""
        if self.token is None:
            return True
        kind, _, given = authorization.partition(" ")
        return kind.lower() == "bearer" and hmac.compare_digest(given.strip(), self.token)


def split_host(host: str) -> tuple[str, int | None]:
    """`name:port` (or `[v6]:port`) into its name, lowercased, and port."""
    host = host.strip().lower()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest.removeprefix(":")
    else:
        name, _, port = host.partition(":") if host.count(":") == 1 else (host, "", "")
    try:
        return name, int(port) if port else None
    except ValueError:
        return name, -1


class Guard:
    """ASGI middleware applying a `Policy` (read through `policy()`, as the port may change)."""

    def __init__(self, app: ASGIApp, policy: Callable[[], Policy]) -> None:
        self.app = app
        self.policy = policy
        self._active = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self.policy()
        refusal = refuse(scope, policy)
        if refusal is not None:
            await reply(send, *refusal)
            return
        if self._active >= policy.max_active:
            await reply(send, 429, f"busy: {policy.max_active} requests already running")
            return
        self._active += 1
        try:
            await self.app(scope, _limited(receive, policy.max_body), send)
        except BodyTooLarge:
            await reply(send, 413, f"the body must be at most {policy.max_body} bytes")
        finally:
            self._active -= 1


def refuse(scope: Scope, policy: Policy) -> tuple[int, str] | None:
    """(status, reason) for a request the server must not serve, or None."""
    method = scope["method"]
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    if method not in METHODS:
        return 501, f"method {method} is not supported"
    if not policy.host_allowed(headers.get("host", "")):
        return 403, f"Host {headers.get('host', '')!r} is not this server"
    origin = headers.get("origin")
    if origin is not None and not policy.origin_allowed(origin):
        return 403, f"Origin {origin!r} may not use this server"
    public = method == "GET" and scope.get("path") in policy.public
    if not public and not policy.token_ok(headers.get("authorization", "")):
        return 401, "this server needs `Authorization: Bearer <token>`"
    if method in ("POST", "PUT"):
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, f"a {method} body must be application/json, not {kind or 'untyped'}"
        length = headers.get("content-length")
        if length is None and "transfer-encoding" not in headers:
            return 411, "a POST needs a Content-Length header"
        if length is not None and (not length.isdigit() or int(length) > policy.max_body):
            return 413, f"the body must be at most {policy.max_body} bytes"
    return None


class BodyTooLarge(Exception):
    """A chunked body went past the limit while it was read."""


def _limited(receive: Receive, limit: int) -> Receive:
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLarge
        return message

    return wrapped


async def reply(send: Send, status: int, error: str) -> None:
    """A JSON `{"error": ...}` response."""
    body = json.dumps({"error": error}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    with anyio.CancelScope(shield=True):
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
