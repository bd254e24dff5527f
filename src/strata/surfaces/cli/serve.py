"""`strata serve`: keep an index warm behind HTTP, and run forwarded commands inside it."""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import signal
import threading
from pathlib import Path
from types import FrameType

import click

from strata.errors import UserError
from strata.surfaces.agents import CLIENTS, client_config
from strata.surfaces.cli.forward import run_command
from strata.surfaces.cli.options import Common, command, common
from strata.surfaces.client import (
    TOKEN_FILE,
    TOKEN_VAR,
    call,
    read_serve_file,
    read_token,
    remove_serve_file,
    request_for,
    write_serve_file,
)
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.state import CliHandler

__all__ = ["attach"]

WARM_QUERY = "where is the configuration read"


def attach(group: click.Group) -> None:
    """Add `serve` and `mcp` to the `strata` command group."""
    group.add_command(serve)
    group.add_command(mcp)


@command()
@click.argument("path", required=False, type=click.Path(exists=True))
@click.option(
    "--print-config",
    "client",
    type=click.Choice(CLIENTS),
    help="Print the snippet that registers this server with an agent, and exit.",
)
@common
def mcp(path: str | None, client: str | None, opts: Common) -> None:
    """Serve the index of PATH to a coding agent over MCP (stdio); a missing or stale
    index is built or refreshed in the background."""
    if client is not None:
        root = Path(path or ".").resolve()
        exe = shutil.which("strata") or "strata"
        opts.out.print(
            client_config(client, exe, root),
            markup=False,
            highlight=False,
            soft_wrap=True,
            end="",
        )
        return
    from strata.surfaces.mcp import serve_stdio

    serve_stdio(path, str(opts.index_dir) if opts.index_dir else None, opts.store_uri)


@command()
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
@common
def serve(path: str | None, host: str, port: int, token: str | None, opts: Common) -> None:
    """Keep the index of PATH warm and answer searches over HTTP (and MCP at /mcp);
    Ctrl-C stops it.

    While it runs, `strata search` and the other read-only commands for this index are
    answered by it (`STRATA_NO_SERVER=1` runs them locally). Bound to any address but
    loopback it needs a token: `--token`, $STRATA_SERVE_TOKEN, or one it generates.
    """
    from strata.surfaces.http.server import Server

    app = click.get_current_context().find_root().command
    assert isinstance(app, click.Group)
    engines = Engines.open(path, opts.index_dir, opts.store_uri)
    home = engines.home
    _refuse_second_server(home.index_dir)
    token = _token(opts, home.index_dir, host, token)
    cli = run_command(engines, app)
    try:
        server = Server(engines, host, port, cli=cli, token=token)
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
        _warm(engines, cli, opts.store_uri)
        server.start()
        write_serve_file(home.index_dir, server.host, server.port, token=token is not None)
        opts.err.print(
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
    opts.err.print("stopped")


def _token(opts: Common, index_dir: Path, host: str, given: str | None) -> str | None:
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
        opts.err.print(f"token (stored in {path}): {token}", markup=False, highlight=False)
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


def _warm(engines: Engines, cli: CliHandler, store: str | None) -> None:
    """Keep the index warm (passages in memory, query model loaded), then run one search
    through the CLI path, so the first forwarded command also finds the renderers imported."""
    home = engines.home
    home.keep_warm()
    argv = ["search", WARM_QUERY, "-k", "1", "--index-dir", str(home.index_dir)]
    argv += ["--store", store] if store else []
    reply = cli({**request_for(argv), "cwd": str(home.root)})
    if reply["exit_code"] != 0:
        logging.getLogger(__name__).info("warm-up search: %s", reply["stderr"].strip())
