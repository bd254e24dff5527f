"""The `strata` console script: hand read-only commands to a running `strata serve`.

Importing the CLI costs about half a second (click, rich, LanceDB, numpy) and opening the
store as much again, so a cold `strata search` takes over a second. `strata serve` keeps
both warm; this launcher, which imports only light standard modules, finds the index the
way `strata.engine.parts.resolve` does, reads the server's `<index dir>/serve.json` and sends
the command line to its `POST /cli`, which runs the same click command in-process and
returns its output byte for byte. Anything else (a command that writes, no server, a
stale `serve.json`, a refused or failed request) runs the CLI here, as if there were no
server; `STRATA_NO_SERVER=1` turns forwarding off.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from strata.surfaces.client import (
    NO_SERVER,
    READ_ONLY,
    option,
    post,
    read_serve_file,
    read_token,
    request_for,
)
from strata.workspace.locate import find_index_upward


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


def _utf8(stream: Any) -> bool:
    encoding = str(getattr(stream, "encoding", None) or "").lower().replace("_", "-")
    return encoding in ("utf-8", "utf8")


def _index_dir(argv: list[str]) -> Path | None:
    """The index a read-only command would use: `--index-dir`, $STRATA_INDEX_DIR, or upward."""
    given = option(argv, "--index-dir") or os.environ.get("STRATA_INDEX_DIR")
    if given:
        return Path(given).expanduser().resolve()
    return find_index_upward(Path.cwd())


if __name__ == "__main__":
    main()
