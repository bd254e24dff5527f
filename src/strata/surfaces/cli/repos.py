"""`strata repos` and `strata sessions`: which repositories and revisions an index holds."""

from __future__ import annotations

import click

from strata.surfaces.cli import Common, _common, _guard, render

__all__ = ["attach"]


@click.command()
@click.option("--json", "as_json", is_flag=True, help="JSON array of repositories on stdout.")
@_common
@_guard
def repos(as_json: bool, opts: Common) -> None:
    """The repositories in the index: name, root, files, rows, commits."""
    found = opts.engine().repos()
    if as_json:
        render.emit_json(found)
        return
    rows = [
        {
            **r,
            "name": r["name"] + (" (home)" if r["home"] else ""),
            "commits": ", ".join(c[:10] for c in r["commits"]) or "-",
        }
        for r in found
    ]
    render.columns(rows, ["name", "root", "files", "rows", "commits"])


@click.command()
@click.option("--repo", default=None, help="Only this repository's sessions.")
@click.option("--json", "as_json", is_flag=True, help="JSON array of sessions on stdout.")
@_common
@_guard
def sessions(repo: str | None, as_json: bool, opts: Common) -> None:
    """The indexing sessions whose rows the index holds (repository @ commit)."""
    found = opts.engine().sessions(repo)
    if as_json:
        render.emit_json(found)
        return
    if not found:
        render.err.print("no sessions")
        return
    rows = [{**s, "commit_sha": (s["commit_sha"] or "-")[:12]} for s in found]
    render.columns(rows, ["session_id", "repo", "commit_sha", "files", "rows"])


def attach(app: click.Group) -> None:
    """Add `repos` and `sessions` to the `strata` group."""
    app.add_command(repos)
    app.add_command(sessions)
