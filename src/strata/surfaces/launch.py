"""The `strata` console script: hand read-only commands to a running `strata serve`.

Importing the CLI costs about half a second (click, rich, LanceDB, numpy) and opening the
store as much again, so a cold `strata search` takes over a second. `strata serve` keeps
both warm; this launcher, which imports only light standard modules, finds the index the
way `strata.workspace.locate.resolve` does, reads the server's `<index dir>/serve.json` and sends
the command line to its `POST /cli`, which runs the same click command in-process and
returns its output byte for byte. Anything else (a command that writes, no server, a
stale `serve.json`, a refused or failed request) runs the CLI here, as if there were no
server; `STRATA_NO_SERVER=1` turns forwarding off.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from strata.workspace.locate import find_index_upward

SERVE_FILE = "serve.json"
TOKEN_FILE = "serve.token"  # the running server's bearer token, mode 0600
TOKEN_VAR = "STRATA_SERVE_TOKEN"
# Commands that only read the index; `strata serve` runs these and nothing else.
READ_ONLY = frozenset(
    {
        "search",
        "symbols",
        "callers",
        "callees",
        "entrypoints",
        "docs",
        "status",
        "config",
        "repos",
        "sessions",
    }
)
CONNECT_TIMEOUT = 0.2
REPLY_TIMEOUT = 120.0
# Variables that change what a command computes: a server whose own differ refuses the run.
RUN_VARS = ("XDG_CONFIG_HOME", "HOME")
# Variables that change how rich renders (colour, width, terminal detection).
TERMINAL_VARS = (
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "FORCE_COLOR",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "COLUMNS",
    "LINES",
)
NO_SERVER = "STRATA_NO_SERVER"


def main() -> None:
    """Console-script entry point: forward to a warm server when one answers, else run here."""
    argv = sys.argv[1:]
    reply = None if os.environ.get(NO_SERVER, "") not in ("", "0") else forward(argv)
    if reply is None:
        os.environ.pop(NO_SERVER, None)  # not a config variable: the CLI would reject it
        from strata.surfaces.cli import main as cli_main

        cli_main()
        return
    sys.exit(replay(reply))


def forward(argv: list[str]) -> dict[str, Any] | None:
    """The server's reply to this command line, or None when it must run here."""
    if not argv or argv[0] not in READ_ONLY or option(argv, "--batch", flag=True) is not None:
        return None  # `--batch` reads a file or stdin, which only this process can see
    if not (_utf8(sys.stdout) and _utf8(sys.stderr)):
        return None  # the server writes UTF-8, as nearly every terminal (and PEP 538) does
    index_dir = _index_dir(argv)
    info = read_serve_file(index_dir) if index_dir else None
    if info is None:
        return None
    token = read_token(index_dir) if index_dir and info.get("token") else None
    reply = post(info["host"], info["port"], "/cli", request_for(argv), token)
    if reply is None or reply.get("refused") or not isinstance(reply.get("exit_code"), int):
        return None
    return reply


def replay(reply: dict[str, Any]) -> int:
    """Write a `/cli` reply's output to stdout and stderr, in order; its exit code."""
    chunks = reply.get("output")
    if not isinstance(chunks, list):
        chunks = [[2, reply.get("stderr", "")], [1, reply.get("stdout", "")]]
    try:
        for fd, text in chunks:
            stream = sys.stdout if fd == 1 else sys.stderr
            stream.write(text)
            stream.flush()
    except BrokenPipeError:  # `strata search x | head -1`: the reader left, as it may
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return int(reply["exit_code"])


def read_serve_file(index_dir: Path) -> dict[str, Any] | None:
    """The `serve.json` of an index ({pid, host, port, started}) if its process is alive."""
    try:
        info = json.loads((index_dir / SERVE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict):
        return None
    pid, host, port = info.get("pid"), info.get("host"), info.get("port")
    if not (isinstance(pid, int) and isinstance(host, str) and isinstance(port, int)):
        return None
    return info if pid_alive(pid) else None


def read_token(index_dir: Path) -> str | None:
    """The token a server bound beyond loopback stored in its index dir (None if unreadable)."""
    try:
        return (index_dir / TOKEN_FILE).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (possibly another user's)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def request_for(argv: list[str]) -> dict[str, Any]:
    """The `/cli` request for this command line, carrying this process's context.

    The working directory and environment resolve the index and the configuration; the
    terminal (whether each stream is one, its width, its variables) shapes the output.
    """
    env = {
        name: value
        for name, value in os.environ.items()
        if (name.startswith("STRATA_") and name != NO_SERVER)
        or name in RUN_VARS
        or name in TERMINAL_VARS
    }
    return {
        "argv": argv,
        "cwd": os.getcwd(),
        "env": env,
        "width": terminal_width(),
        "columns": _columns(),
        "color": _isatty(sys.stdout),
        "stderr_color": _isatty(sys.stderr),
    }


def post(
    host: str, port: int, path: str, payload: dict[str, Any], token: str | None = None
) -> dict[str, Any] | None:
    """POST JSON to a server; its JSON reply when the status is 200, else None."""
    return call(host, port, "POST", path, payload, token)


def call(
    host: str,
    port: int,
    method: str,
    path: str,
    payload: dict[str, Any] | None = None,
    token: str | None = None,
) -> dict[str, Any] | None:
    """One JSON request to a server; its JSON reply when the status is 200, else None.

    Connecting gives up after `CONNECT_TIMEOUT`, a reply after `REPLY_TIMEOUT`.
    """
    import http.client

    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    conn = http.client.HTTPConnection(host, port, timeout=CONNECT_TIMEOUT)
    try:
        conn.connect()
        if conn.sock is not None:
            conn.sock.settimeout(REPLY_TIMEOUT)
        body = None if payload is None else json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body, headers)
        response = conn.getresponse()
        data = json.loads(response.read())
        return data if response.status == 200 and isinstance(data, dict) else None
    except (OSError, ValueError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def terminal_width() -> int:
    """The width rich would use: $COLUMNS, else the first terminal of stdin/out/err, else 80."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit():
        return int(columns)
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        return width or 80
    return 80


def _columns() -> int:
    """The terminal's width as click sees it (`shutil.get_terminal_size`), for help pages."""
    import shutil

    return shutil.get_terminal_size().columns


def _utf8(stream: Any) -> bool:
    encoding = str(getattr(stream, "encoding", None) or "").lower().replace("_", "-")
    return encoding in ("utf-8", "utf8")


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _index_dir(argv: list[str]) -> Path | None:
    """The index a read-only command would use: `--index-dir`, $STRATA_INDEX_DIR, or upward."""
    given = option(argv, "--index-dir") or os.environ.get("STRATA_INDEX_DIR")
    if given:
        return Path(given).expanduser().resolve()
    return find_index_upward(Path.cwd())


def option(argv: list[str], name: str, *, flag: bool = False) -> str | None:
    """The value of `name VALUE` / `name=VALUE` among the options ("" for a bare flag)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == name:
            if flag:
                return ""
            return argv[i + 1] if i + 1 < len(argv) else None
        if arg.startswith(name + "="):
            return arg[len(name) + 1 :]
    return None


if __name__ == "__main__":
    main()
