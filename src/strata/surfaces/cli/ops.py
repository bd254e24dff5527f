"""Operations commands: `strata watch` (the daemon) and `strata doctor` (check and repair)."""

from __future__ import annotations

import functools
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING

import click
from rich.console import Console

from strata.surfaces.cli import render
from strata.surfaces.cli.options import Common, command, common

if TYPE_CHECKING:  # each imported by its command: a search needs none of them
    from strata.engine.doctor import Report
    from strata.engine.watch import Update

__all__ = ["attach"]


def attach(app: click.Group) -> None:
    """Add `watch` and `doctor` to the `strata` command group."""
    app.add_command(watch)
    app.add_command(doctor)


@command()
@click.argument("path", required=False, type=click.Path(exists=True, file_okay=False))
@click.option(
    "--embedder", default=None, help="Embedding provider: local | ollama | openai | none."
)
@click.option(
    "--debounce",
    type=float,
    default=0.15,
    show_default=True,
    help="Seconds of quiet that end a burst of changes.",
)
@common
def watch(
    path: str | None,
    embedder: str | None,
    debounce: float,
    opts: Common,
) -> None:
    """Keep the index of PATH current on every save; Ctrl-C stops it cleanly."""
    from strata.engine.watch import Watcher

    eng = opts.engine(path or ".", {"embed.provider": embedder})
    stop = threading.Event()
    caught: list[int] = []

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)
        stop.set()  # the loop finishes the current commit, then returns

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    opts.err.print(f"watching {eng.root} (index {eng.index_dir}); Ctrl-C stops")
    try:
        on_update = None if opts.quiet else functools.partial(_print_update, opts.err)
        Watcher(eng, debounce=debounce, on_update=on_update).run(stop)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        eng.close()
    opts.err.print("stopped")
    if caught and caught[0] == signal.SIGINT:
        sys.exit(130)


def _print_update(err: Console, update: Update) -> None:
    err.print(update.line(), markup=False, highlight=False)


@command()
@click.option(
    "--repair", "do_repair", is_flag=True, help="Back the index up, then fix what was found."
)
@click.option("--deep", is_flag=True, help="Re-process every indexed file, not a sample.")
@click.option("--embedder", default=None, help="Embedding provider the index should have.")
@click.option("--json", "as_json", is_flag=True, help="The report as JSON on stdout.")
@common
def doctor(
    do_repair: bool,
    deep: bool,
    embedder: str | None,
    as_json: bool,
    opts: Common,
) -> None:
    """Check the index against the files and itself; exit 0 when healthy, 2 when not."""
    from strata.engine.doctor import check
    from strata.engine.repair import repair

    eng = opts.engine(None, {"embed.provider": embedder})
    report = check(eng, deep=deep)
    if do_repair:
        report = repair(eng, report)
    if as_json:
        render.emit_json(opts.out, report.to_json())
    elif not opts.quiet:
        _print_report(opts.err, report)
    sys.exit(0 if report.healthy else 2)


def _print_report(err: Console, report: Report) -> None:
    for action in report.actions:
        err.print(f"[green]did[/] {action}", highlight=False)
    for p in report.problems:
        color = "red" if p.severity == "error" else "dim"
        where = f"{p.path}: " if p.path else ""
        err.print(f"[{color}]{p.kind}[/] {where}{p.detail}", highlight=False)
    verdict = "[green]healthy[/]" if report.healthy else "[red]not healthy[/]"
    err.print(
        f"{verdict} ({report.stats.get('rows', 0)} rows, "
        f"{report.stats.get('files_indexed', 0)} files, {report.seconds:.2f}s)"
    )
