"""`strata serve`'s HTTP server: a warm engine for one index behind a small JSON API.

A cold `strata search` spends most of its second importing the CLI and opening the store;
the server pays that once. The API (JSON in and out, UTF-8):

    GET  /health  -> {"ok": true, "root": str, "index_dir": str, "pid": int}
    GET  /status  -> Engine.status() of the served index
    POST /search  {"query": str, "k"?: int, "layers"?: [str], "mode"?: "hybrid" | "lexical" |
                  "semantic", "filters"?: {"path"?, "lang"?, "kind"?: str | [str],
                  "no_tests"?: bool, "repo"?: str}}
                  -> {"hits": [Hit.to_json(), ...], "notes": [str, ...], "mode": str}
    POST /cli     {"argv": [str], "width"?: int, "color"?: bool, "stderr_color"?: bool,
                  "columns"?: int, "cwd"?: str, "env"?: {str: str}}
                  -> {"stdout": str, "stderr": str, "output": [[1 | 2, str], ...],
                      "exit_code": int, "refused"?: true}

`/cli` (the runner is `strata.cli.serve.run_command`) runs the click command `strata ARGV`
in-process, as the caller would have run it:
in its working directory, for its terminal (`width` as rich measures it, `columns` as
`shutil.get_terminal_size` does, whether stdout and stderr are terminals, the terminal
variables in `env`; streams are UTF-8), and returns what it wrote, in order, byte for byte
(`strata.launch.request_for` builds such a request). It runs only the read-only commands
(`strata.launch.READ_ONLY`), only against the served index, and only when the caller's
configuration variables (`STRATA_*`, `XDG_CONFIG_HOME`, `HOME`) equal the server's;
anything else is refused (`"refused": true`, exit code 2, the reason on stderr) and the
caller runs it itself. Failures are `{"error": str, "hint"?: str}` with status 400 (bad
request or user error), 404, 405, 411, 413, 501 (unknown method) or 500 (engine error),
never an HTML page.

The server never takes the index's write lock. LanceDB readers see every commit of any
process at once; a rebuilt index or a changed configuration opens a fresh engine. Engine
work and `/cli` runs share one lock, because a run swaps process-wide streams and the
working directory.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import socketserver
import threading
from collections.abc import Callable, Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar
from urllib.parse import urlsplit

from strata.engines import Engines
from strata.errors import StrataError, UserError

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BODY = 1 << 20
MAX_K = 1000
MODES = ("hybrid", "lexical", "semantic")
FILTER_KEYS = ("path", "lang", "kind", "no_tests", "repo")


class RequestError(Exception):
    """A request the server cannot serve: its HTTP status and a one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# Answers a `/cli` body (RequestError for a malformed one); see `strata.cli.serve`.
CliHandler = Callable[[Mapping[str, Any]], dict[str, Any]]


def refusal(reason: str) -> dict[str, Any]:
    """The `/cli` reply for a command the server does not run: the caller runs it itself."""
    line = f"strata serve: {reason}\n"
    return {"stdout": "", "stderr": line, "output": [[2, line]], "exit_code": 2, "refused": True}


class Server:
    """The HTTP server over a set of warm engines; `start` serves on a thread, `stop` ends it."""

    def __init__(
        self,
        engines: Engines,
        host: str = "127.0.0.1",
        port: int = 8765,
        cli: CliHandler | None = None,
    ) -> None:
        """Bind to (host, port) at once (port 0: any free port); OSError when it cannot."""
        self.engines = engines
        self.cli = cli
        self.lock = threading.Lock()
        self._httpd = _HTTPServer((host, port), self)
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        """The address listened on."""
        return str(self._httpd.server_address[0])

    @property
    def port(self) -> int:
        """The port listened on (the chosen one when asked for port 0)."""
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """`http://host:port`."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> None:
        """Serve requests on a background thread."""
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="strata-serve", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop serving, close the socket and release the engines."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()
        with self.lock:  # a request still running finishes on its engine first
            self.engines.close()

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- requests ------------------------------------------------------------------------
    def handle(self, method: str, path: str, body: bytes | None) -> tuple[int, Any]:
        """(status, JSON payload) for one request; never raises."""
        routes: dict[tuple[str, str], Callable[[Any], Any]] = {
            ("GET", "/health"): lambda _: self.health(),
            ("GET", "/status"): lambda _: self._locked(lambda: self.engines.served().status()),
            ("POST", "/search"): self.search,
            ("POST", "/cli"): self.run_cli,
        }
        route = routes.get((method, path))
        try:
            if route is None:
                allowed = [m for m, p in routes if p == path]
                if allowed:
                    raise RequestError(405, f"{path} takes {' or '.join(allowed)}, not {method}")
                raise RequestError(404, f"no such endpoint: {path} (try /health)")
            return 200, route(_json_object(body) if method == "POST" else None)
        except RequestError as exc:
            return exc.status, {"error": exc.message}
        except StrataError as exc:
            status = 400 if isinstance(exc, UserError) else 500
            return status, {"error": exc.message, **({"hint": exc.hint} if exc.hint else {})}
        except Exception as exc:
            log.exception("%s %s failed: %s: %s", method, path, type(exc).__name__, exc)
            return 500, {"error": f"internal error: {type(exc).__name__}: {exc}"}

    def health(self) -> dict[str, Any]:
        """Liveness and what is served."""
        home = self.engines.home
        return {
            "ok": True,
            "root": str(home.root),
            "index_dir": str(home.index_dir),
            "pid": os.getpid(),
        }

    def search(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """`Engine.search` with the body's arguments."""
        args = _search_args(body)
        result = self._locked(lambda: self.engines.served().search(**args))
        return {
            "hits": [h.to_json() for h in result.hits],
            "notes": list(result.notes),
            "mode": result.mode,
        }

    def run_cli(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Hand a `/cli` body to the command runner, one run at a time."""
        handler = self.cli
        if handler is None:
            return refusal("this server runs no commands")
        return self._locked(lambda: handler(body))

    def _locked(self, work: Callable[[], T]) -> T:
        with self.lock:
            return work()


def _search_args(body: Mapping[str, Any]) -> dict[str, Any]:
    expect_fields(body, ("query", "k", "layers", "filters", "mode"))
    query = body.get("query")
    if not isinstance(query, str):
        raise RequestError(400, '"query" must be a string')
    k = expect_int(body, "k", None, MAX_K)
    mode = body.get("mode")
    if mode is not None and mode not in MODES:
        raise RequestError(400, f'"mode" must be one of {", ".join(MODES)}')
    filters = body.get("filters") or {}
    if not isinstance(filters, dict):
        raise RequestError(400, '"filters" must be an object')
    expect_fields(filters, FILTER_KEYS, "filters.")
    repo = filters.get("repo")
    if repo is not None and not isinstance(repo, str):
        raise RequestError(400, '"filters.repo" must be a string')
    flags = {
        "path": expect_strings(filters, "path"),
        "lang": expect_strings(filters, "lang"),
        "kind": expect_strings(filters, "kind"),
        "no_tests": expect_type(filters, "no_tests", bool, False),
        "repo": repo,
    }
    return {
        "query": query,
        "k": k,
        "layers": expect_strings(body, "layers") or None,
        "filters": flags,
        "mode": mode,
    }


def expect_fields(body: Mapping[str, Any], known: tuple[str, ...], prefix: str = "") -> None:
    """RequestError 400 when the body has a field not in `known` (a typo, most likely)."""
    unknown = sorted(set(body) - set(known))
    if unknown:
        raise RequestError(400, f"unknown field {prefix}{unknown[0]!r}; known: {', '.join(known)}")


def expect_strings(body: Mapping[str, Any], name: str) -> tuple[str, ...]:
    """A field holding a string or a list of strings, as a tuple (empty when absent)."""
    value = body.get(name)
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise RequestError(400, f'"{name}" must be a string or a list of strings')


def expect_type(body: Mapping[str, Any], name: str, kind: type, default: Any) -> Any:
    """A field of type `kind`, or `default` when absent."""
    value = body.get(name, default)
    if not isinstance(value, kind):
        raise RequestError(400, f'"{name}" must be a {kind.__name__}')
    return value


def expect_int(
    body: Mapping[str, Any], name: str, default: int | None, high: int = 10_000
) -> int | None:
    """A whole number from 1 to `high`, or `default` when absent."""
    value = body.get(name, default)
    if value is None and default is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= high:
        raise RequestError(400, f'"{name}" must be an integer from 1 to {high}')
    return value


def _json_object(body: bytes | None) -> dict[str, Any]:
    try:
        data = json.loads(body or b"")
    except ValueError as exc:
        raise RequestError(400, f"the body is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise RequestError(400, "the body must be a JSON object")
    return data


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], app: Server) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.app = app
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind asks DNS for the host's full name, which can take seconds.
        socketserver.TCPServer.server_bind(self)
        self.server_name = str(self.server_address[0])
        self.server_port = int(self.server_address[1])


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    server_version = "strata-serve"

    def do_GET(self) -> None:
        self._respond("GET")

    def do_POST(self) -> None:
        self._respond("POST")

    def do_PUT(self) -> None:
        self._respond("PUT")

    def do_DELETE(self) -> None:
        self._respond("DELETE")

    def _respond(self, method: str) -> None:
        try:
            body = self._body() if method == "POST" else None
        except RequestError as exc:
            self._send(exc.status, {"error": exc.message})
            return
        status, payload = self.server.app.handle(method, urlsplit(self.path).path, body)
        self._send(status, payload)

    def _body(self) -> bytes:
        length = self.headers.get("Content-Length")
        if length is None:
            raise RequestError(411, "a POST needs a Content-Length header")
        try:
            size = int(length)
        except ValueError:
            raise RequestError(400, f"bad Content-Length {length!r}") from None
        if not 0 <= size <= MAX_BODY:
            raise RequestError(413, f"the body must be at most {MAX_BODY} bytes")
        return self.rfile.read(size)

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            log.debug("the client left before the reply")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Malformed requests and unknown methods get JSON too, not an HTML page."""
        self.close_connection = True
        self._send(code, {"error": message or HTTPStatus(code).phrase})

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)
