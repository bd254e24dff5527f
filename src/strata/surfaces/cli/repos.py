"""`strata repos` and `strata sessions`: which repositories and revisions an index holds."""

from __future__ import annotations

import click

from strata.surfaces.cli import render
from strata.surfaces.cli.options import Common, command, common

__all__ = ["attach"]


@command()
@click.option("--json", "as_json", is_flag=True, help="JSON array of repositories on stdout.")
@common
def repos(as_json: bool, opts: Common) -> None:
    """The repositories in the index: name, root, files, rows, commits."""
    found = [r.to_json() for r in opts.engine().repos()]
    if as_json:
        render.emit_json(opts.out, found)
        return
    rows = [
        {
            **r,
            "name": r["name"] + (" (home)" if r["home"] else ""),
            "commits": ", ".join(c[:10] for c in r["commits"]) or "-",
        }
        for r in found
    ]
    render.columns(opts.out, rows, ["name", "root", "files", "rows", "commits"])


@command()
@click.option("--repo", default=None, help="Only this repository's sessions.")
@click.option("--json", "as_json", is_flag=True, help="JSON array of sessions on stdout.")
@common
def sessions(repo: str | None, as_json: bool, opts: Common) -> None:
    """The indexing sessions whose rows the index holds (repository @ commit)."""
    found = [s.to_json() for s in opts.engine().sessions(repo)]
    if as_json:
        render.emit_json(opts.out, found)
        return
    if not found:
        opts.err.print("no sessions")
        return
    rows = [{**s, "commit_sha": (s["commit_sha"] or "-")[:12]} for s in found]
    render.columns(opts.out, rows, ["session_id", "repo", "commit_sha", "files", "rows"])


def attach(app: click.Group) -> None:
    """Add `repos` and `sessions` to the `strata` group."""
    app.add_command(repos)
    app.add_command(sessions)
