"""`strata serve`'s server: the app under uvicorn on a thread, on a socket bound at once.

The socket is bound (and listening, with a real backlog) when `Server` is made, so the port
is known (`--port 0`) and a bind error is reported before anything else starts. uvicorn
then serves it on a thread; `stop` ends it and closes the engines.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from strata.surfaces import web
from strata.surfaces.http.app import create_app
from strata.surfaces.http.guard import LOOPBACK_NAMES, MAX_ACTIVE, Policy
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.state import CliHandler, ServeState

log = logging.getLogger(__name__)

BACKLOG = 1024
IDLE_SECONDS = 15.0  # a connection that sends nothing for this long is closed
WILDCARDS = ("0.0.0.0", "::", "")


class Server:
    """The HTTP API (and MCP at `/mcp`) of one index; `start` serves, `stop` ends it."""

    def __init__(
        self,
        engines: Engines,
        host: str = "127.0.0.1",
        port: int = 8765,
        cli: CliHandler | None = None,
        token: str | None = None,
        allowed_hosts: tuple[str, ...] = (),
        idle_timeout: float = IDLE_SECONDS,
        max_active: int = MAX_ACTIVE,
    ) -> None:
        """Bind to (host, port) at once (port 0: any free port); OSError when it cannot."""
        self.state = ServeState(engines, cli)
        self._sock = _listen(host, port)
        self._policy = Policy(
            frozenset(_names(host) | {h.lower() for h in allowed_hosts}),
            self.port,
            token,
            max_active=max_active,
            public=web.PUBLIC_PATHS,  # the page's static files carry no data
        )
        config = uvicorn.Config(
            create_app(self.state, lambda: self._policy),
            http=_Protocol,
            lifespan="on",
            log_level="warning",
            access_log=False,
            timeout_keep_alive=idle_timeout,  # type: ignore[arg-type]  # a float works
            backlog=BACKLOG,
        )
        self._uvicorn = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def engines(self) -> Engines:
        """The warm engines served."""
        return self.state.engines

    @property
    def cli(self) -> CliHandler | None:
        """The `/cli` runner (None: every command is refused)."""
        return self.state.cli

    @cli.setter
    def cli(self, handler: CliHandler | None) -> None:
        self.state.cli = handler

    @property
    def host(self) -> str:
        """The address listened on."""
        return str(self._sock.getsockname()[0])

    @property
    def port(self) -> int:
        """The port listened on (the chosen one when asked for port 0)."""
        return int(self._sock.getsockname()[1])

    @property
    def url(self) -> str:
        """`http://host:port`."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> None:
        """Serve requests on a background thread; return once the server is up."""
        self._thread = threading.Thread(target=self._serve, name="strata-serve", daemon=True)
        self._thread.start()
        while not self._uvicorn.started and self._thread.is_alive():
            self._thread.join(0.01)

    def stop(self) -> None:
        """Stop serving, close the socket and release the engines."""
        if self._thread is not None:
            self._uvicorn.should_exit = True
            self._thread.join()
            self._thread = None
        self._sock.close()  # uvicorn's shutdown let the requests in flight (`/cli` too) finish
        self.state.jobs.wait()
        self.engines.close()

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _serve(self) -> None:
        asyncio.run(self._uvicorn.serve(sockets=[self._sock]))


class _Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with the idle timeout also before the first request
    (uvicorn starts it only after a response), so a silent connection does not stay open."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, so asyncio turns Nagle off on each accepted connection (it only
    # does for a socket whose proto says TCP): else a response's body waits out the
    # client's delayed ACK (~40 ms) behind its headers on a kept-alive connection.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _names(host: str) -> set[str]:
    """The names a client may call this server by (its `Host` header)."""
    names = {n.lower() for n in LOOPBACK_NAMES} | {host.lower()}
    if host in WILDCARDS:
        names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        try:
            names |= {str(a[4][0]) for a in socket.getaddrinfo(socket.gethostname(), None)}
        except OSError:
            log.debug("no addresses for %s", socket.gethostname())
    return names


def is_loopback(host: str) -> bool:
    """Whether `host` is an address only this machine can reach."""
    return host in LOOPBACK_NAMES or host.startswith("127.")
