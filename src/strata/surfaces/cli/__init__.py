"""The `strata` command: a thin surface that parses flags, calls the Engine and renders."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import click

from strata.config import KEYS
from strata.engine import Engine
from strata.errors import StrataError
from strata.surfaces.cli import analyze, ask, layers, ops, render, repos, serve
from strata.surfaces.cli.options import Common, Group, common
from strata.surfaces.cli.retrieval import Retrieval, retrieval_options
from strata.workspace.locate import find_index_upward


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
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
@common
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
    with render.progress(opts.err, opts.quiet) as bar:
        summary = eng.index(path, full=full, progress=bar, repo=repo, since=since)
    if as_json:
        render.emit_json(opts.out, summary.to_json())
    if not opts.quiet:
        render.summary(opts.err, summary)


def _index_engine(
    opts: Common, path: str | None, repo: str | None, flags: dict[str, Any]
) -> Engine:
    """The index a run goes into: `--repo` adds a path outside any index to the index of
    the working directory (when there is one), as another repository."""
    if repo and path and opts.index_dir is None:
        here = find_index_upward(opts.cli.path(Path(".")))
        if here is not None and find_index_upward(opts.cli.path(Path(path)).resolve()) is None:
            if opts.branch:
                flags = {**flags, "store.branch": opts.branch}
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
@common
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
                found = json.dumps([h.to_json() for h in hits], ensure_ascii=False)
                opts.out.file.write(found + "\n")
        return
    if not query:
        raise click.UsageError("give a QUERY or --batch FILE")
    result = run(query)
    if as_json:
        for note in result.notes:
            opts.err.print(f"note: {note}")
        render.emit_json(opts.out, [h.to_json() for h in result.hits])
    else:
        render.hits(opts.out, opts.err, result, explain)


@app.command()
@click.option("--json", "as_json", is_flag=True)
@common
def status(as_json: bool, opts: Common) -> None:
    """Root, store, embedder, counts per layer, last index time, pending files, health."""
    found = opts.engine().status()
    if as_json:
        render.emit_json(opts.out, found.to_json())
    else:
        render.status(opts.out, found)


@app.command("config")
@click.option("--json", "as_json", is_flag=True)
@common
def config_cmd(as_json: bool, opts: Common) -> None:
    """The effective configuration and where each value came from."""
    try:
        cfg = opts.engine().config
    except StrataError:
        from strata.config import load_config

        cfg = load_config(opts.cli.path(opts.index_dir) if opts.index_dir else None)
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
        render.emit_json(opts.out, rows)
    else:
        render.table(opts.out, rows, ["key", "value", "source", "help"])


for _module in (layers, ops, repos, serve, ask, analyze):
    _module.attach(app)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="strata")
