"""`strata serve`: keep an index warm behind HTTP, and run forwarded commands inside it."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import secrets
import shutil
import signal
import threading
import time
import traceback
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import click
from rich.console import Console

from strata.errors import UserError
from strata.surfaces.agents import CLIENTS, client_config
from strata.surfaces.cli import Common, _common, _guard, app, render, use_engines
from strata.surfaces.http.pool import Engines, ForeignIndexError
from strata.surfaces.http.state import CliHandler, RequestError, refusal
from strata.surfaces.launch import (
    NO_SERVER,
    READ_ONLY,
    RUN_VARS,
    SERVE_FILE,
    TOKEN_FILE,
    TOKEN_VAR,
    call,
    option,
    read_serve_file,
    read_token,
    request_for,
)

__all__ = ["CliRequest", "attach", "remove_serve_file", "run_command", "write_serve_file"]

WARM_QUERY = "where is the configuration read"


def attach(group: click.Group) -> None:
    """Add `serve` and `mcp` to the `strata` command group."""
    group.add_command(serve)
    group.add_command(mcp)


@click.command()
@click.argument("path", required=False, type=click.Path(exists=True))
@click.option(
    "--print-config",
    "client",
    type=click.Choice(CLIENTS),
    help="Print the snippet that registers this server with an agent, and exit.",
)
@_common
@_guard
def mcp(path: str | None, client: str | None, opts: Common) -> None:
    """Serve the index of PATH to a coding agent over MCP (stdio); a missing or stale
    index is built or refreshed in the background."""
    if client is not None:
        root = Path(path or ".").resolve()
        command = shutil.which("strata") or "strata"
        render.out.print(
            client_config(client, command, root),
            markup=False,
            highlight=False,
            soft_wrap=True,
            end="",
        )
        return
    from strata.surfaces.mcp import serve_stdio

    serve_stdio(path, str(opts.index_dir) if opts.index_dir else None, opts.store_uri)


@click.command()
@click.argument("path", required=False, type=click.Path(exists=True))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on (0 = any free port).",
)
@click.option(
    "--token",
    envvar=TOKEN_VAR,
    default=None,
    help="Bearer token every request must carry (needed, or generated, off loopback).",
)
@_common
@_guard
def serve(path: str | None, host: str, port: int, token: str | None, opts: Common) -> None:
    """Keep the index of PATH warm and answer searches over HTTP (and MCP at /mcp);
    Ctrl-C stops it.

    While it runs, `strata search` and the other read-only commands for this index are
    answered by it (`STRATA_NO_SERVER=1` runs them locally). Bound to any address but
    loopback it needs a token: `--token`, $STRATA_SERVE_TOKEN, or one it generates.
    """
    from strata.surfaces.http.server import Server

    engines = Engines.open(path, opts.index_dir, opts.store_uri)
    home = engines.home
    _refuse_second_server(home.index_dir)
    token = _token(home.index_dir, host, token)
    try:
        server = Server(engines, host, port, cli=run_command(engines), token=token)
    except OSError as exc:
        raise UserError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            hint="choose another --port, or --port 0 for any free one",
        ) from exc
    stop = threading.Event()

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        _warm(engines, opts.store_uri)
        server.start()
        write_serve_file(home.index_dir, server.host, server.port, token=token is not None)
        render.err.print(
            f"serving {home.root} (index {home.index_dir}) on {server.url}; Ctrl-C stops",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        stop.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.stop()
        remove_serve_file(home.index_dir)
    render.err.print("stopped")


def _token(index_dir: Path, host: str, given: str | None) -> str | None:
    """The token requests must carry: the one given, else (off loopback) the stored one or a
    new one, printed once. Kept 0600 in the index dir so the launcher can forward."""
    from strata.surfaces.http.server import is_loopback

    path = index_dir / TOKEN_FILE
    if given is None and is_loopback(host):
        path.unlink(missing_ok=True)
        return None
    token = given or read_token(index_dir)
    if token is None:
        token = secrets.token_urlsafe(24)
        render.err.print(f"token (stored in {path}): {token}", markup=False, highlight=False)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    os.chmod(path, 0o600)
    return token


def _refuse_second_server(index_dir: Path) -> None:
    info = read_serve_file(index_dir)
    if info is None:
        return
    token = read_token(index_dir) if info.get("token") else None
    health = call(info["host"], info["port"], "GET", "/health", token=token)
    if health is not None and health.get("index_dir") == str(index_dir):
        raise UserError(
            f"a server already runs for {index_dir} on {info['host']}:{info['port']} "
            f"(pid {info['pid']})",
            hint=f"stop it first (kill {info['pid']})",
        )


def _warm(engines: Engines, store: str | None) -> None:
    """Keep the index warm (passages in memory, query model loaded), then run one search
    through the CLI path, so the first forwarded command also finds the renderers imported."""
    home = engines.home
    home.keep_warm()
    argv = ["search", WARM_QUERY, "-k", "1", "--index-dir", str(home.index_dir)]
    argv += ["--store", store] if store else []
    reply = run_command(engines)({**request_for(argv), "cwd": str(home.root)})
    if reply["exit_code"] != 0:
        logging.getLogger(__name__).info("warm-up search: %s", reply["stderr"].strip())


def write_serve_file(index_dir: Path, host: str, port: int, *, token: bool = False) -> None:
    """Announce this server in `<index_dir>/serve.json`, atomically (temp file + rename);
    `token`: requests need the one in `serve.token`."""
    data = {"pid": os.getpid(), "host": host, "port": port, "started": time.time(), "token": token}
    tmp = index_dir / f"{SERVE_FILE}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, index_dir / SERVE_FILE)


def remove_serve_file(index_dir: Path) -> None:
    """Remove `serve.json` if it still announces this process (a newer server may own it)."""
    path = index_dir / SERVE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(data, dict) and data.get("pid") == os.getpid():
        path.unlink(missing_ok=True)


# ---- running a forwarded command ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CliRequest:
    """A `/cli` body: a command line and the caller's context (see `strata.surfaces.http.app`)."""

    argv: tuple[str, ...]
    cwd: str
    env: Mapping[str, str]
    width: int
    columns: int
    color: bool
    stderr_color: bool

    @classmethod
    def from_json(cls, body: Mapping[str, Any], default_cwd: Path) -> CliRequest:
        """Validate a `/cli` body (RequestError 400 on a wrong field)."""
        from pydantic import ValidationError

        from strata.surfaces.http.bodies import CliBody, describe

        try:
            valid = CliBody.model_validate(body)
        except ValidationError as exc:
            raise RequestError(400, describe(exc.errors())) from None
        texts = [*valid.argv, *valid.env.values(), valid.cwd or ""]
        if any(_unencodable(t) for t in texts):
            raise RequestError(400, "the command line is not valid UTF-8 (a lone surrogate)")
        return cls(
            argv=tuple(valid.argv),
            cwd=valid.cwd or str(default_cwd),
            env=dict(valid.env),
            width=valid.width,
            columns=valid.columns,
            color=valid.color,
            stderr_color=valid.color if valid.stderr_color is None else valid.stderr_color,
        )

    def refusal(self) -> str | None:
        """Why the server must not run this (the caller then runs it), or None."""
        command = self.argv[0] if self.argv else ""
        if command not in READ_ONLY:
            return f"`strata {command}` is not run by the server; read-only commands only"
        if any(a == "--batch" or a.startswith("--batch=") for a in self.argv):
            return "--batch reads a file only the caller can see"
        if not Path(self.cwd).is_dir():
            return f"working directory {self.cwd} does not exist here"
        differ = sorted(
            name
            for name in {*_config_vars(self.env), *_config_vars(os.environ)}
            if self.env.get(name) != os.environ.get(name)
        )
        if differ:
            return f"the caller's environment differs from the server's: {', '.join(differ)}"
        return None


def _other_index(request: CliRequest, served: Path) -> str | None:
    """Why a command naming another index dir must not run here (it would read that
    index's `config.yaml` before any engine is asked for), or None."""
    named = option(list(request.argv), "--index-dir") or request.env.get("STRATA_INDEX_DIR")
    if not named:
        return None
    wanted = (Path(request.cwd) / named).expanduser().resolve()
    if wanted != served.resolve():
        return f"this server serves {served}, not {wanted}"
    return None


def _unencodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _config_vars(env: Mapping[str, str]) -> list[str]:
    """The names in `env` that change a command's configuration ($STRATA_INDEX_DIR is passed
    on as `--index-dir` instead; $STRATA_NO_SERVER only concerns the launcher)."""
    return [
        n
        for n in env
        if (n.startswith("STRATA_") and n not in ("STRATA_INDEX_DIR", NO_SERVER, TOKEN_VAR))
        or n in RUN_VARS
    ]


def run_command(engines: Engines) -> CliHandler:
    """A `/cli` handler: `strata ARGV` run here, in the caller's context, on warm engines.

    The server calls it under its lock: a run swaps process-wide state (streams, consoles,
    the working directory, the engine source of `Common.engine`).
    """

    def run(body: Mapping[str, Any]) -> dict[str, Any]:
        request = CliRequest.from_json(body, engines.home.root)
        reason = request.refusal() or _other_index(request, engines.home.index_dir)
        if reason is not None:
            return refusal(reason)
        capture = _Capture(request)
        try:
            with _callers_context(request, capture, engines):
                code = _invoke(_argv(request), request.columns, capture)
        except ForeignIndexError as exc:
            return refusal(str(exc))
        except OSError as exc:  # the working directory vanished, or cannot be entered
            return refusal(f"cannot run in {request.cwd}: {exc.strerror or exc}")
        return capture.reply(code)

    return run


def _argv(request: CliRequest) -> list[str]:
    """The command line, with the caller's $STRATA_INDEX_DIR as `--index-dir` (the server's
    own environment is what click reads)."""
    argv = list(request.argv)
    given = request.env.get("STRATA_INDEX_DIR")
    options = argv[: argv.index("--")] if "--" in argv else argv
    if given and not any(a == "--index-dir" or a.startswith("--index-dir=") for a in options):
        argv[1:1] = ["--index-dir", given]
    return argv


def _invoke(argv: list[str], columns: int, capture: _Capture) -> int:
    """Run the command; its exit code, as the process would have exited."""
    try:
        # click's own help width rule (formatting.HelpFormatter), for the caller's terminal
        app.main(args=argv, prog_name="strata", terminal_width=max(min(columns, 80) - 2, 50))
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        capture.err.write(f"{exc.code}\n")
        return 1
    except ForeignIndexError:
        raise
    except Exception:  # a crash: reported as the interpreter would have reported it
        capture.err.write(traceback.format_exc())
        return 1
    return 0


@contextlib.contextmanager
def _callers_context(request: CliRequest, capture: _Capture, engines: Engines) -> Iterator[None]:
    """The caller's working directory, streams and terminal; the server's warm engines."""
    cwd = os.getcwd()
    logger = logging.getLogger("strata")
    saved_logging = (list(logger.handlers), logger.level, logger.propagate)
    saved_consoles = (render.out, render.err)
    os.chdir(request.cwd)
    try:
        render.out, render.err = _consoles(request, capture)
        use_engines(engines.get)
        with contextlib.redirect_stdout(capture.out), contextlib.redirect_stderr(capture.err):
            yield
    finally:
        use_engines(None)
        render.out, render.err = saved_consoles
        logger.handlers[:] = saved_logging[0]
        logger.setLevel(saved_logging[1])
        logger.propagate = saved_logging[2]
        os.chdir(cwd)


def _consoles(request: CliRequest, capture: _Capture) -> tuple[Console, Console]:
    """`render.out` and `render.err` as the caller's process would have made them: the same
    settings, its terminal's width and variables, its streams' terminal-ness."""
    env = dict(request.env)
    out = Console(
        file=capture.out, width=request.width, highlight=False, soft_wrap=True, _environ=env
    )
    err = Console(file=capture.err, stderr=True, width=request.width, highlight=False, _environ=env)
    return render.unwrapped(out), render.unwrapped(err)


class _Stream(io.TextIOWrapper):
    """A UTF-8 text stream that records what is written to it, and says it is a terminal
    when the caller's was."""

    def __init__(self, fd: int, tty: bool, log: list[tuple[int, str]]) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", write_through=True)
        self._fd = fd
        self._tty = tty
        self._log = log

    def isatty(self) -> bool:
        return self._tty

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click probes for binary streams by writing b""
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._log.append((self._fd, text))
        return len(text)


class _Capture:
    """stdout and stderr of one run, in the order they were written."""

    def __init__(self, request: CliRequest) -> None:
        self._log: list[tuple[int, str]] = []
        self.out = _Stream(1, request.color, self._log)
        self.err = _Stream(2, request.stderr_color, self._log)

    def reply(self, exit_code: int) -> dict[str, Any]:
        """The `/cli` reply: the writes in order (consecutive ones to a stream joined)."""
        merged: list[list[Any]] = []
        for fd, text in self._log:
            if merged and merged[-1][0] == fd:
                merged[-1][1] += text
            elif text:
                merged.append([fd, text])
        return {
            "stdout": "".join(t for fd, t in self._log if fd == 1),
            "stderr": "".join(t for fd, t in self._log if fd == 2),
            "output": merged,
            "exit_code": exit_code,
        }
