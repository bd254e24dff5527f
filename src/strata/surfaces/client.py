"""The client side of `strata serve`, standard library only: how a server announces itself
(`serve.json`, `serve.token`), which commands it runs, and the JSON calls that reach it.

Shared by the launcher (`strata.surfaces.launch`, which must stay light) and the `serve`
command, which announces the server and checks for a running one.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

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


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


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
