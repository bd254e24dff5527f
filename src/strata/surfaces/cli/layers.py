"""The layer commands of `strata`: symbols, callers, callees, entrypoints, docs."""

from __future__ import annotations

from collections.abc import Sequence

import click
from rich.console import Console
from rich.syntax import Syntax

from strata.query.lookup import CallWalk
from strata.query.lookup.graph import DISPATCH
from strata.query.lookup.rows import record_json
from strata.surfaces.cli import render
from strata.surfaces.cli.options import Common, command, common
from strata.types import Record

__all__ = ["attach"]

SNIPPET_LINES = 12


_repo = click.option("--repo", default=None, help="Only this repository of the index.")


@command()
@click.argument("name")
@click.option("--kind", default=None, help="Only this kind: class, function, method, ...")
@click.option(
    "-k",
    "limit",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="At most this many.",
)
@_repo
@click.option("--json", "as_json", is_flag=True, help="JSON array of C1 records on stdout.")
@common
def symbols(
    name: str,
    kind: str | None,
    limit: int,
    repo: str | None,
    as_json: bool,
    opts: Common,
) -> None:
    """Find a symbol: exact, qualified (Client.send), prefix, then typo-tolerant."""
    eng = opts.engine()
    found = eng.symbols(name, kind=kind, limit=limit, repo=repo)
    if not found:
        near = eng.closest(name, repo=repo)
        hint = f"; closest: {', '.join(near)}" if near else ""
        opts.err.print(f"no symbol named {name}{hint}", markup=False)
    if as_json:
        render.emit_json(opts.out, [m.to_json() for m in found])
    elif found:
        rows = [
            {
                "match": m.match,
                "score": f"{m.score:.2f}",
                "kind": m.kind,
                "qname": m.qname,
                "where": _where(m.record),
            }
            for m in found
        ]
        render.columns(opts.out, rows, ["match", "score", "kind", "qname", "where"])


def _walk_command(name: str) -> click.Command:
    """`callers` or `callees`: the same flags, a different direction."""
    what = "who calls QNAME" if name == "callers" else "what QNAME calls"

    @command(name=name, help=f"C2 walk: {what}, breadth-first to --depth.")
    @click.argument("qname")
    @click.option("--depth", type=click.IntRange(1, 10), default=1, show_default=True)
    @click.option(
        "--name-matches",
        is_flag=True,
        help="Also calls tied to the symbol by its bare name only (guesses: `x.get()` for "
        "any `get`), marked `name`.",
    )
    @_repo
    @click.option("--json", "as_json", is_flag=True, help="JSON array of C2 records on stdout.")
    @common
    def walk(
        qname: str,
        depth: int,
        name_matches: bool,
        repo: str | None,
        as_json: bool,
        opts: Common,
    ) -> None:
        eng = opts.engine()
        follow = eng.callers if name == "callers" else eng.callees
        result = follow(qname, depth, repo=repo, name_matches=name_matches)
        if result.read_as:
            opts.err.print(result.read_as_note(), markup=False)
        if not result.found:
            near = eng.closest(qname, repo=repo)
            hint = f"; closest: {', '.join(near)}" if near else ""
            opts.err.print(f"no symbol named {qname}{hint}", markup=False)
        if result.name_only_hidden:
            opts.err.print(result.hidden_note(), markup=False)
        if as_json:
            render.emit_json(opts.out, result.to_json())
        else:
            _show_walk(opts, result, name)

    return walk


def _show_walk(opts: Common, result: CallWalk, name: str) -> None:
    targets = ", ".join(
        t.qname + ("" if t.record else " (not in the index)") for t in result.targets
    )
    opts.err.print(f"{name} of {targets}", markup=False)
    if not result.links:
        opts.err.print("none found")
    for link in result.links:
        edge, other = link.edge, link.symbol
        guess = "" if link.match in ("resolved", "qname") else f"  [yellow]({link.match})[/]"
        if link.match == DISPATCH:
            guess = f"  [yellow](through {link.via})[/]"
        more = link.lines[1:] if name == "callers" else ()
        also = f" [dim](also {', '.join(map(str, more))})[/]" if more else ""
        opts.out.print(
            f"[dim]{'  ' * (link.depth - 1)}{link.depth}[/] [bold]{other.qname}[/]"
            f"  [cyan]{edge.path}:{edge.span_start}[/]{also}{guess}"
        )
        if link.chunk is not None:
            _snippet(opts.out, link.chunk)


def _snippet(out: Console, chunk: Record) -> None:
    lines = chunk.content.split("\n")
    syntax = Syntax(
        render.snippet_text(lines, SNIPPET_LINES),
        render.LEXERS.get(chunk.lang, chunk.lang),
        line_numbers=True,
        start_line=chunk.span_start or 1,
        theme="ansi_dark",
        background_color="default",
    )
    out.print(syntax)
    if len(lines) > SNIPPET_LINES:
        out.print(f"   [dim]… {len(lines) - SNIPPET_LINES} more lines[/]")


@command()
@click.option("--type", "entry_type", type=click.Choice(["http", "cli", "other"]), default=None)
@click.option("--framework", default=None, help="Only this framework: fastapi, flask, click, ...")
@_repo
@click.option("--json", "as_json", is_flag=True, help="JSON array of C3 records on stdout.")
@common
def entrypoints(
    entry_type: str | None,
    framework: str | None,
    repo: str | None,
    as_json: bool,
    opts: Common,
) -> None:
    """C3 listing: HTTP routes, CLI commands and other entry points."""
    rows = opts.engine().entrypoints(entry_type, framework, repo=repo)
    _records(
        opts,
        rows,
        as_json,
        ["entry_type", "framework", "http_method", "route_or_command", "handler_symbol", "where"],
        "no entry points",
    )


@command()
@click.option("--kind", default=None, help="Only this doc kind: readme, spec, runbook, adr, ...")
@click.option("--domain", default=None, help="Only documents of this domain.")
@click.option("--type", "doc_type", default=None, help="Only this frontmatter type.")
@_repo
@click.option("--json", "as_json", is_flag=True, help="JSON array of D1 cards on stdout.")
@common
def docs(
    kind: str | None,
    domain: str | None,
    doc_type: str | None,
    repo: str | None,
    as_json: bool,
    opts: Common,
) -> None:
    """D1 catalog listing: one card per document."""
    cards = opts.engine().docs(kind, domain, doc_type, repo=repo)
    columns = ["path", "title", "doc_kind", "type", "domain", "document_id"]
    _records(opts, cards, as_json, columns, "no documents")


def _records(
    opts: Common, rows: Sequence[Record], as_json: bool, columns: list[str], empty: str
) -> None:
    """Records as a JSON array on stdout, or as columns (`empty` on stderr when none)."""
    if as_json:
        render.emit_json(opts.out, [record_json(r) for r in rows])
        return
    if not rows:
        opts.err.print(empty)
        return
    render.columns(opts.out, [{**record_json(r), "where": _where(r)} for r in rows], columns)


def _where(r: Record) -> str:
    return f"{r.path}:{r.span_start}" if r.span_start else r.path


def attach(app: click.Group) -> None:
    """Add the layer commands to the `strata` group."""
    for cmd in (symbols, _walk_command("callers"), _walk_command("callees"), entrypoints, docs):
        app.add_command(cmd)
