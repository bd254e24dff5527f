"""What git knows about a root: work tree or not, its HEAD, what changed since a revision."""

from __future__ import annotations

import subprocess
from pathlib import Path

from strata.errors import UserError


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def is_work_tree(root: Path) -> bool:
    """Whether `root` is inside a git work tree."""
    return (_git(root, "rev-parse", "--is-inside-work-tree") or "").strip() == "true"


def head_commit(root: Path) -> str | None:
    """HEAD's full sha when `root` is inside a git work tree, else None."""
    if not is_work_tree(root):
        return None
    sha = _git(root, "rev-parse", "HEAD")
    return sha.strip() if sha else None


def current_branch(root: Path) -> str | None:
    """The branch checked out at `root` (None outside git, or with a detached HEAD)."""
    name = _git(root, "symbolic-ref", "--short", "-q", "HEAD")
    return name.strip() or None if name else None


def tracked_but_ignored(root: Path) -> frozenset[str]:
    """Files under `root` (relative to it) that git tracks although its ignore rules match
    them (a Python template's `lib/` over a project's real `lib/`): git's ignore rules leave
    out untracked files only. Empty outside git."""
    if not is_work_tree(root):
        return frozenset()
    out = _git(root, "ls-files", "-z", "--cached", "--ignored", "--exclude-standard") or ""
    return frozenset(p for p in out.split("\0") if p)


DIRTY = "+dirty"  # appended to HEAD's sha for a file whose bytes are not HEAD's


def dirty_paths(root: Path) -> frozenset[str]:
    """Paths under `root` (relative to it) whose content is not HEAD's: edited or staged
    since HEAD, or untracked (and not ignored). Empty outside git."""
    if not is_work_tree(root):
        return frozenset()
    edited = _git(root, "diff", "--name-only", "-z", "--relative", "HEAD", "--") or ""
    untracked = _git(root, "ls-files", "--others", "--exclude-standard", "-z") or ""
    return frozenset(p for p in (edited + "\0" + untracked).split("\0") if p)


def changed_since(root: Path, rev: str) -> list[str]:
    """Paths (relative to `root`) that `git diff REV` names: changed, added, deleted, and
    both sides of a rename. The working tree is compared, so uncommitted edits count.

    Raises:
        UserError: `root` is not in a git work tree, or `rev` names no commit.
    """
    if not is_work_tree(root):
        raise UserError(f"{root} is not a git work tree", hint="--since needs a git repository")
    if _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}") is None:
        raise UserError(f"unknown revision {rev!r} in {root}", hint="give a commit, branch or tag")
    out = _git(root, "diff", "--name-status", "-z", "-M", "--relative", rev, "--")
    if out is None:
        raise UserError(f"git diff {rev} failed in {root}")
    fields = out.split("\0")
    paths: list[str] = []
    i = 0
    while i < len(fields) and fields[i]:
        status = fields[i]
        take = 2 if status[:1] in ("R", "C") else 1
        paths += fields[i + 1 : i + 1 + take]
        i += 1 + take
    return sorted(dict.fromkeys(paths))
