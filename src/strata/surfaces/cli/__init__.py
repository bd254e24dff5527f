"""The `strata` command: a thin surface that parses flags, calls the Engine and renders."""

from __future__ import annotations

import errno
import functools
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from strata.config import KEYS
from strata.engine import Engine
from strata.errors import StrataError
from strata.surfaces.cli import render
from strata.surfaces.cli.retrieval import Retrieval, retrieval_options
from strata.workspace.locate import find_index_upward

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger(__name__)


class _WarnHandler(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        level = record.levelname if record.levelno >= logging.WARNING else record.levelname.lower()
        color = {"WARNING": "yellow", "ERROR": "red"}.get(record.levelname, "dim")
        render.err.print(
            f"[{color}]{level.replace('WARNING', 'WARN')}[/] {record.getMessage()}",
            markup=True,
            highlight=False,
        )


def _setup_logging(verbose: int, quiet: bool) -> None:
    root = logging.getLogger("strata")
    root.handlers[:] = [_WarnHandler()]
    root.setLevel(logging.ERROR if quiet else logging.DEBUG if verbose else logging.WARNING)
    root.propagate = False


@dataclass(frozen=True, slots=True)
class Common:
    """The options every command takes, handed to it by `_common` as `opts`."""

    index_dir: Path | None
    store_uri: str | None
    verbose: int
    quiet: bool

    def engine(self, path: str | None = None, config: dict[str, Any] | None = None) -> Engine:
        """The engine of the index these options point at, found from `path`."""
        return (_engine_source or _engine)(path, self.index_dir, self.store_uri, config)


def _common(f: Callable[..., Any]) -> Callable[..., Any]:
    """Options every command takes (where the index is, which store, verbosity).

    The command receives them as one `opts: Common`; logging is set up from them first.
    """

    @functools.wraps(f)
    def wrapper(
        *args: Any,
        index_dir: Path | None,
        store_uri: str | None,
        verbose: int,
        quiet: bool,
        **kwargs: Any,
    ) -> Any:
        _setup_logging(verbose, quiet)
        return f(*args, opts=Common(index_dir, store_uri, verbose, quiet), **kwargs)

    command: Callable[..., Any] = click.option(
        "--index-dir",
        type=click.Path(path_type=Path),
        envvar="STRATA_INDEX_DIR",
        help="Where the index lives (default <root>/.strata).",
    )(wrapper)
    command = click.option(
        "--store", "store_uri", default=None, help="Store URI (lancedb://DIR, postgresql://...)."
    )(command)
    command = click.option("-v", "--verbose", count=True, help="More logging.")(command)
    return click.option("-q", "--quiet", is_flag=True, help="Only errors on stderr.")(command)


def _guard(f: F) -> F:
    """Map Strata errors to exit codes in one place: 1 user, 2 engine, 130 Ctrl-C."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except StrataError as exc:
            render.err.print(f"[red]error:[/] {exc.message}", highlight=False)
            if exc.hint:
                render.err.print(f"[dim]hint:[/] {exc.hint}", highlight=False)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            render.err.print("interrupted")
            sys.exit(130)
        except OSError as exc:  # a full disk, a read-only or vanished index directory
            log.debug("file system error", exc_info=True)
            render.err.print(f"[red]error:[/] {_os_error(exc)}", highlight=False)
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                hint = "free some space; what was written is intact and the next run finishes"
                render.err.print(f"[dim]hint:[/] {hint}", highlight=False)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def _os_error(exc: OSError) -> str:
    """One line for a file system error: what went wrong, and on which file."""
    where = f": {exc.filename}" if exc.filename else ""
    return f"{exc.strerror or exc}{where}"


def _engine(
    path: str | None,
    index_dir: Path | None,
    store_uri: str | None,
    config: dict[str, Any] | None = None,
) -> Engine:
    return Engine.open(path, index_dir=index_dir, store=store_uri, config=config)


EngineSource = Callable[[str | None, Path | None, str | None, dict[str, Any] | None], Engine]
# Set only inside `strata serve`, whose warm engines the commands it runs must reuse.
_engine_source: EngineSource | None = None


def use_engines(source: EngineSource | None) -> None:
    """Make `Common.engine` ask `source` (path, index_dir, store, config); None: open afresh."""
    global _engine_source
    _engine_source = source


class _UsageError(click.UsageError):
    """A usage error that exits 1, as shared/spec/interface.md says (click's default is 2,
    which Strata keeps for data and engine errors)."""

    exit_code = 1


class _App(click.Group):
    """The command group; its usage errors (and its commands') exit 1."""

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


@click.group(cls=_App, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="strata-index")
def app() -> None:
    """Strata: a layered, always-current index of a repository and its docs."""


@app.command()
@click.argument("path", required=False, type=click.Path(exists=True))
@click.option("--full", is_flag=True, help="Drop the index and rebuild it from scratch.")
@click.option(
    "--repo",
    default=None,
    help="Repository name (default: the directory's). A PATH outside the index's root "
    "is added to it as another repository.",
)
@click.option("--since", default=None, metavar="REV", help="Only what `git diff REV` names.")
@click.option(
    "--embedder", default=None, help="Embedding provider: local | ollama | openai | none."
)
@click.option("--model", default=None, help="Embedding model name.")
@click.option("--max-file-bytes", type=int, default=None, help="Skip files larger than this.")
@click.option("--workers", type=int, default=None, help="Processes for extraction (0 = cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON on stdout.")
@_common
@_guard
def index(
    path: str | None,
    full: bool,
    repo: str | None,
    since: str | None,
    embedder: str | None,
    model: str | None,
    max_file_bytes: int | None,
    workers: int | None,
    as_json: bool,
    opts: Common,
) -> None:
    """Create or incrementally update the index of PATH (a directory or one file)."""
    flags = {
        "embed.provider": embedder,
        "embed.model": model,
        "index.max_file_bytes": max_file_bytes,
        "index.workers": workers,
    }
    eng = _index_engine(opts, path, repo, flags)
    with render.progress(opts.quiet) as bar:
        summary = eng.index(path, full=full, progress=bar, repo=repo, since=since)
    if as_json:
        render.emit_json(summary.to_json())
    if not opts.quiet:
        render.summary(summary)


def _index_engine(
    opts: Common, path: str | None, repo: str | None, flags: dict[str, Any]
) -> Engine:
    """The index a run goes into: `--repo` adds a path outside any index to the index of
    the working directory (when there is one), as another repository."""
    if repo and path and opts.index_dir is None:
        here = find_index_upward(Path.cwd())
        if here is not None and find_index_upward(Path(path).resolve()) is None:
            return Engine.open(index_dir=here, store=opts.store_uri, config=flags)
    return opts.engine(path or ".", flags)


@app.command()
@click.argument("query", required=False)
@click.option("-k", "k", type=click.IntRange(min=1), default=None, help="Number of results.")
@click.option(
    "--batch", type=click.File("r"), default=None, help="One query per line; prints JSON Lines."
)
@retrieval_options
@click.option("--explain", is_flag=True, help="Show the plan and every score part.")
@click.option("--json", "as_json", is_flag=True, help="JSON array of results on stdout.")
@_common
@_guard
def search(
    query: str | None,
    k: int | None,
    batch: Any,
    retrieval: Retrieval,
    explain: bool,
    as_json: bool,
    opts: Common,
) -> None:
    """Search the index: hybrid lexical + semantic, ranked for code."""
    eng = opts.engine()
    r = retrieval
    run = functools.partial(eng.search, k=k, layers=r.layers, filters=r.filters, mode=r.mode)
    if batch is not None:
        for line in batch:
            if line.strip():
                hits = run(line.strip())
                sys.stdout.write(json.dumps([h.to_json() for h in hits], ensure_ascii=False) + "\n")
        return
    if not query:
        raise click.UsageError("give a QUERY or --batch FILE")
    result = run(query)
    if as_json:
        for note in result.notes:
            render.err.print(f"note: {note}")
        render.emit_json([h.to_json() for h in result.hits])
    else:
        render.hits(result, explain)


@app.command()
@click.option("--json", "as_json", is_flag=True)
@_common
@_guard
def status(as_json: bool, opts: Common) -> None:
    """Root, store, embedder, counts per layer, last index time, pending files, health."""
    data = opts.engine().status()
    if as_json:
        render.emit_json(data)
    else:
        render.status(data)


@app.command("config")
@click.option("--json", "as_json", is_flag=True)
@_common
@_guard
def config_cmd(as_json: bool, opts: Common) -> None:
    """The effective configuration and where each value came from."""
    try:
        cfg = opts.engine().config
    except StrataError:
        from strata.config import load_config

        cfg = load_config(opts.index_dir)
    rows = [
        {
            "key": k,
            "value": cfg.value(k),
            "source": cfg.sources.get(k, "default"),
            "help": KEYS[k].help,
        }
        for k in KEYS
    ]
    if as_json:
        render.emit_json(rows)
    else:
        render.table(rows, ["key", "value", "source", "help"])


from strata.surfaces.cli.layers import attach as _attach_layers  # noqa: E402  (needs the helpers above)

_attach_layers(app)

from strata.surfaces.cli.ops import attach as _attach_ops  # noqa: E402

_attach_ops(app)

from strata.surfaces.cli.repos import attach as _attach_repos  # noqa: E402

_attach_repos(app)

from strata.surfaces.cli.serve import attach as _attach_serve  # noqa: E402

_attach_serve(app)

from strata.surfaces.cli.ask import attach as _attach_ask  # noqa: E402

_attach_ask(app)

from strata.surfaces.cli.analyze import attach as _attach_analyze  # noqa: E402

_attach_analyze(app)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="strata")
