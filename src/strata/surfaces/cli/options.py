"""What every `strata` command shares: its context, its common options, its error mapping.

A command's context (`CliContext`) travels in click's `Context.obj`: how to get an engine,
the consoles to write to, the working directory. A process running `strata` makes one of
its own (`CliContext.local`); `strata serve` makes one per forwarded command line, so that
commands running at once on its threads each write to their own streams. Nothing here is a
module global that a run swaps.
"""

from __future__ import annotations

import errno
import functools
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import click
from rich.console import Console

from strata.engine import Engine
from strata.errors import StrataError
from strata.surfaces.cli import render

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger(__name__)

LOG_LEVEL = "strata.log_level"  # the running command's logging threshold, in `Context.meta`


class EngineSource(Protocol):
    """Gives the engine `Engine.open` would give for these arguments (a server: a warm one)."""

    def __call__(
        self,
        path: str | None,
        index_dir: Path | None,
        store_uri: str | None,
        config: dict[str, Any] | None,
        cwd: Path | None,
    ) -> Engine: ...


def open_engine(
    path: str | None,
    index_dir: Path | None,
    store_uri: str | None,
    config: dict[str, Any] | None,
    cwd: Path | None,
) -> Engine:
    """A fresh engine: what a command run in its own process uses."""
    return Engine.open(path, index_dir=index_dir, store=store_uri, config=config, cwd=cwd)


@dataclass(frozen=True, slots=True)
class CliContext:
    """Where a command gets its engine and writes its output (click's `Context.obj`).

    `cwd` None: the process's working directory. `owns_logging`: the command sets up the
    `strata` logger (a process of its own); a server's run leaves it to the server.
    """

    out: Console
    err: Console
    engines: EngineSource = open_engine
    cwd: Path | None = None
    owns_logging: bool = True

    @classmethod
    def local(cls) -> CliContext:
        """The context of a command run in its own process: its stdout and stderr."""
        return cls(*render.consoles())

    def path(self, given: Path) -> Path:
        """`given` as the command's working directory reads it."""
        given = given.expanduser()
        return given if given.is_absolute() else (self.cwd or Path.cwd()) / given


def current(ctx: click.Context | None = None) -> CliContext:
    """The running command's context (a local one, stored on click's, when none was given)."""
    ctx = ctx or click.get_current_context()
    found = ctx.find_object(CliContext)
    if found is None:
        found = ctx.find_root().obj = CliContext.local()
    return found


@dataclass(frozen=True, slots=True)
class Common:
    """The options every command takes, handed to it by `common` as `opts`."""

    index_dir: Path | None
    store_uri: str | None
    verbose: int
    quiet: bool
    cli: CliContext
    branch: str | None = None

    @property
    def out(self) -> Console:
        """The command's stdout."""
        return self.cli.out

    @property
    def err(self) -> Console:
        """The command's stderr."""
        return self.cli.err

    def engine(self, path: str | None = None, config: dict[str, Any] | None = None) -> Engine:
        """The engine of the index these options point at, found from `path`."""
        if self.branch:
            config = {**(config or {}), "store.branch": self.branch}
        return self.cli.engines(path, self.index_dir, self.store_uri, config, self.cli.cwd)


def common(f: Callable[..., Any]) -> Callable[..., Any]:
    """Options every command takes (where the index is, which store, verbosity).

    The command receives them as one `opts: Common`; logging is set up from them first,
    and its errors become exit codes (`guard`).
    """
    guarded = guard(f)

    @functools.wraps(f)
    def wrapper(
        *args: Any,
        index_dir: Path | None,
        store_uri: str | None,
        verbose: int,
        quiet: bool,
        branch: str | None,
        **kwargs: Any,
    ) -> Any:
        ctx = click.get_current_context()
        cli = current(ctx)
        ctx.meta[LOG_LEVEL] = level = _level(verbose, quiet)
        if cli.owns_logging:
            setup_logging(cli.err, level)
        opts = Common(index_dir, store_uri, verbose, quiet, cli, branch)
        return guarded(*args, opts=opts, **kwargs)

    command: Callable[..., Any] = click.option(
        "--index-dir",
        type=click.Path(path_type=Path),
        envvar="STRATA_INDEX_DIR",
        help="Where the index lives (default <root>/.strata).",
    )(wrapper)
    command = click.option(
        "--store", "store_uri", default=None, help="Store URI (lancedb://DIR, postgresql://...)."
    )(command)
    command = click.option(
        "--branch", default=None, help="The branch to index or read (default: the checkout's)."
    )(command)
    command = click.option("-v", "--verbose", count=True, help="More logging.")(command)
    return click.option("-q", "--quiet", is_flag=True, help="Only errors on stderr.")(command)


def guard(f: F) -> F:
    """Map Strata errors to exit codes in one place: 1 user, 2 engine, 130 Ctrl-C."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        err = current().err
        try:
            return f(*args, **kwargs)
        except StrataError as exc:
            err.print(f"[red]error:[/] {exc.message}", highlight=False)
            if exc.hint:
                err.print(f"[dim]hint:[/] {exc.hint}", highlight=False)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            err.print("interrupted")
            sys.exit(130)
        except OSError as exc:  # a full disk, a read-only or vanished index directory
            log.debug("file system error", exc_info=True)
            err.print(f"[red]error:[/] {_os_error(exc)}", highlight=False)
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                hint = "free some space; what was written is intact and the next run finishes"
                err.print(f"[dim]hint:[/] {hint}", highlight=False)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def _os_error(exc: OSError) -> str:
    """One line for a file system error: what went wrong, and on which file."""
    where = f": {exc.filename}" if exc.filename else ""
    return f"{exc.strerror or exc}{where}"


# ---- logging -----------------------------------------------------------------------------
def _level(verbose: int, quiet: bool) -> int:
    return logging.ERROR if quiet else logging.DEBUG if verbose else logging.WARNING


class _WarnHandler(logging.Handler):
    """Strata's log records on the stderr of the command that logged them: the command
    running on the logging thread (click's context is per thread), else `err`."""

    def __init__(self, err: Console, level: int) -> None:
        super().__init__()
        self._err = err
        self._level = level

    def emit(self, record: logging.LogRecord) -> None:
        ctx = click.get_current_context(silent=True)
        err, level = self._err, self._level
        if ctx is not None and LOG_LEVEL in ctx.meta:
            err, level = current(ctx).err, ctx.meta[LOG_LEVEL]
        if record.levelno < level:
            return
        name = record.levelname if record.levelno >= logging.WARNING else record.levelname.lower()
        color = {"WARNING": "yellow", "ERROR": "red"}.get(record.levelname, "dim")
        err.print(
            f"[{color}]{name.replace('WARNING', 'WARN')}[/] {record.getMessage()}",
            markup=True,
            highlight=False,
        )


def setup_logging(err: Console, level: int) -> None:
    """Strata's records at `level` and above on `err` (a command in its own process)."""
    root = logging.getLogger("strata")
    root.handlers[:] = [_WarnHandler(err, level)]
    root.setLevel(level)
    root.propagate = False


def route_logs() -> None:
    """Every record to the handler, which keeps what the command that logged it asked for
    (a server running forwarded commands, each with its own `-v`/`-q`); once, at start."""
    root = logging.getLogger("strata")
    if not any(isinstance(h, _WarnHandler) for h in root.handlers):
        setup_logging(render.consoles()[1], logging.WARNING)
    root.setLevel(logging.DEBUG)


# ---- help on the command's own stdout ----------------------------------------------------
def _show_help(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """click's `--help`, written to the running command's stdout."""
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), file=current(ctx).out.file, color=ctx.color)
        ctx.exit()


def _own_help(option: click.Option | None) -> click.Option | None:
    if option is not None:
        option.callback = _show_help
    return option


class Command(click.Command):
    """A `strata` command: its `--help` goes to its context's stdout."""

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _own_help(super().get_help_option(ctx))


class _UsageError(click.UsageError):
    """A usage error that exits 1, as shared/spec/interface.md says (click's default is 2,
    which Strata keeps for data and engine errors)."""

    exit_code = 1


class Group(click.Group):
    """The `strata` group: its usage errors (and its commands') exit 1, its `--help` goes
    to its context's stdout, and it holds only `Command`s."""

    command_class = Command

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            raise _UsageError(exc.format_message(), exc.ctx) from exc

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _UsageError(exc.format_message(), exc.ctx) from exc

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _own_help(super().get_help_option(ctx))

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        if not isinstance(cmd, Command | Group):
            raise TypeError(f"{cmd.name}: make it with options.command (its help would go astray)")
        super().add_command(cmd, name)


def command(name: str | None = None, **attrs: Any) -> Callable[[Callable[..., Any]], Command]:
    """`click.command`, making a `Command`."""
    return click.command(name, cls=Command, **attrs)
