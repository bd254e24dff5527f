"""`strata serve`'s `/cli` runner: a forwarded command line, run here on warm engines.

Each run gets a `CliContext` of its own (the caller's working directory, consoles shaped
like the caller's terminal writing into a capture, the server's warm engines) and invokes
the click app with it. Nothing process-wide is swapped (no `chdir`, no `sys.stdout`, no
logging handlers), so runs may overlap on the server's threads, each with its own output.
"""

from __future__ import annotations

import io
import os
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from strata.surfaces.cli import render
from strata.surfaces.cli.options import CliContext, route_logs
from strata.surfaces.client import NO_SERVER, READ_ONLY, RUN_VARS, TOKEN_VAR, option
from strata.surfaces.http.pool import Engines, ForeignIndexError
from strata.surfaces.http.state import CliHandler, RequestError, refusal
from strata.text.utf8 import is_utf8

__all__ = ["CliRequest", "run_command"]


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
        if not all(is_utf8(t) for t in texts):
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


def _config_vars(env: Mapping[str, str]) -> list[str]:
    """The names in `env` that change a command's configuration ($STRATA_INDEX_DIR is passed
    on as `--index-dir` instead; $STRATA_NO_SERVER only concerns the launcher)."""
    return [
        n
        for n in env
        if (n.startswith("STRATA_") and n not in ("STRATA_INDEX_DIR", NO_SERVER, TOKEN_VAR))
        or n in RUN_VARS
    ]


def run_command(engines: Engines, app: click.Group) -> CliHandler:
    """A `/cli` handler: `strata ARGV` run by `app` here, in the caller's context, on warm
    engines. Runs may overlap: each writes only to its own capture."""
    route_logs()

    def run(body: Mapping[str, Any]) -> dict[str, Any]:
        request = CliRequest.from_json(body, engines.home.root)
        reason = request.refusal() or _other_index(request, engines.home.index_dir)
        if reason is not None:
            return refusal(reason)
        capture = _Capture(request)
        cli = CliContext(
            *_consoles(request, capture),
            engines=engines.get,
            cwd=Path(request.cwd),
            owns_logging=False,
        )
        try:
            code = _invoke(app, _argv(request), request.columns, cli)
        except ForeignIndexError as exc:
            return refusal(str(exc))
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


def _invoke(app: click.Group, argv: list[str], columns: int, cli: CliContext) -> int:
    """Run the command; its exit code, as the process would have exited (click's messages
    on the run's own streams, as its standalone mode writes them to the process's)."""
    err = cli.err.file
    try:
        # click's own help width rule (formatting.HelpFormatter), for the caller's terminal
        width = max(min(columns, 80) - 2, 50)
        code = app.main(
            args=argv, prog_name="strata", obj=cli, terminal_width=width, standalone_mode=False
        )
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        err.write(f"{exc.code}\n")
        return 1
    except click.ClickException as exc:
        exc.show(file=err)
        return exc.exit_code
    except click.Abort:
        click.echo("Aborted!", file=err)
        return 1
    except ForeignIndexError:
        raise
    except Exception:  # a crash: reported as the interpreter would have reported it
        err.write(traceback.format_exc())
        return 1
    return code if isinstance(code, int) else 0


def _consoles(request: CliRequest, capture: _Capture) -> tuple[Console, Console]:
    """The run's stdout and stderr consoles as the caller's process would have made them:
    the same settings, its terminal's width and variables, its streams' terminal-ness."""
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
