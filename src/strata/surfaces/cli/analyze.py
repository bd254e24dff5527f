"""`strata analyze`: what indexing a project would meet, and the settings it suggests."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import click
from rich.console import Console

from strata.surfaces.cli import render
from strata.surfaces.cli.options import Common, command, common

if TYPE_CHECKING:  # the analysis reads files as indexing does: imported when it runs
    from strata.index.analysis import Analysis

__all__ = ["attach"]

_SHOWN = 10  # skipped/ignored paths listed in the text output (all of them in --json)


def attach(app: click.Group) -> None:
    """Add `analyze` to the `strata` command group."""
    app.add_command(analyze)


@command()
@click.argument("path", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The report as JSON on stdout.")
@click.option("--write", is_flag=True, help="Merge the suggestions into .strata/config.yaml.")
@common
def analyze(path: str | None, as_json: bool, write: bool, opts: Common) -> None:
    """Report languages, sizes, skips, expected chunks and time; suggest settings."""
    from strata.engine.analyze import analyze as run_analysis
    from strata.engine.analyze import write_suggestions

    with render.progress(opts.err, opts.quiet) as bar:
        report = run_analysis(path or ".", progress=bar)
    changes: list[dict[str, object]] = []
    if write:
        target, done = write_suggestions(report)
        changes = [{"key": c.key, "old": c.old, "new": c.new} for c in done]
        if not as_json and not opts.quiet:
            for c in done:
                opts.err.print(f"set {c.key}: {c.old!r} -> {c.new!r}", markup=False)
            opts.err.print(f"{'wrote' if done else 'nothing to change in'} {target}", markup=False)
    if as_json:
        data = report.to_json()
        if write:
            data["written"] = changes
        render.emit_json(opts.out, data)
    elif not opts.quiet:
        _print(opts.out, report)


def _print(console: Console, r: Analysis) -> None:
    from strata.index.analysis import EMBED_CHUNKS_PER_S

    out = console.print
    out(f"{r.root}: {r.files} files to index", markup=False)
    render.table(
        console,
        [
            {"language": s.lang, "files": s.files, "lines": s.lines, "bytes": s.bytes}
            for s in r.languages
        ],
        ["language", "files", "lines", "bytes"],
    )
    for reason, n in Counter(s.reason.value for s in r.skipped).most_common():
        out(f"skipped ({reason}): {n}", markup=False)
    for s in r.skipped[:_SHOWN]:
        out(f"  {s.line()}", markup=False)
    out(f"ignored: {len(r.ignored)} paths", markup=False)
    for i in r.ignored[:_SHOWN]:
        out(f"  {i.rel}{'/' if i.is_dir else ''}: {i.why}", markup=False)
    how = f"a sample of {r.chunked_files} files" if r.sampled else "every file"
    out(f"expected chunks: {r.expected_chunks} (chunked {how})", markup=False)
    out(
        f"estimated time: chunking ~{r.chunking_s:.1f} s (at the rate measured in this run), "
        f"embedding ~{r.embed_s:.0f} s (at ~{EMBED_CHUNKS_PER_S:.0f} chunks/s)",
        markup=False,
    )
    if r.function_lines:
        out(
            "function lines: " + ", ".join(f"{k} {v}" for k, v in r.function_lines.items()),
            markup=False,
        )
    for sug in r.suggestions:
        out(f"suggest {sug.key}: {sug.value!r}  ({sug.reason})", markup=False)
    if r.suggestions:
        out("strata analyze --write puts these into .strata/config.yaml", markup=False)
