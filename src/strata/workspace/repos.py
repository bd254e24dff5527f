"""The repositories of one index: the home repository at the index's root, and others added
with `strata index PATH --repo NAME`.

The locator file (`index.json`) records them: `root` and `repo` name the home repository
(its rows keep plain ids), `repos` maps every other name to its root and its own
bookkeeping (`last_index`, `skipped`). Names are unique within an index; one root is
indexed under one name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strata.errors import UserError

__all__ = [
    "Repo",
    "all_repos",
    "check_repo_name",
    "choose",
    "first_name",
    "home_repo",
    "id_prefix",
    "recorded",
]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def check_repo_name(name: str) -> str:
    """`name` if it can name a repository (letters, digits, `.`, `_`, `-`; at most 64).

    Raises:
        UserError: the name has other characters (a `/` would make ids ambiguous).
    """
    if not _NAME.fullmatch(name):
        raise UserError(
            f"bad repository name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)",
            hint="pass --repo NAME with such a name",
        )
    return name


def id_prefix(name: str, home: bool) -> str:
    """The prefix of a repository's row ids in the shared table."""
    return "" if home else f"{name}//"


@dataclass(frozen=True, slots=True)
class Repo:
    """One repository of an index: its name, its root, and whether it is the home one."""

    name: str
    root: Path
    home: bool

    @property
    def prefix(self) -> str:
        """The prefix of this repository's row ids in the shared table."""
        return id_prefix(self.name, self.home)

    def entry(self, locator: Mapping[str, Any]) -> dict[str, Any]:
        """This repository's bookkeeping in the locator (`last_index`, `skipped`, `chunking`)."""
        if self.home:
            return {k: locator[k] for k in ("last_index", "skipped", "chunking") if k in locator}
        found = _others(locator).get(self.name, {})
        return dict(found) if isinstance(found, dict) else {}


def home_repo(locator: Mapping[str, Any], root: Path) -> Repo:
    """The index's home repository: named at its first run, else after its root directory."""
    name = locator.get("repo")
    return Repo(name if isinstance(name, str) and name else _default_name(root), root, True)


def all_repos(locator: Mapping[str, Any], root: Path) -> list[Repo]:
    """Every repository of the index, the home one first, the others by name."""
    others = [
        Repo(name, Path(entry["root"]), False)
        for name, entry in sorted(_others(locator).items())
        if isinstance(entry, dict) and isinstance(entry.get("root"), str)
    ]
    return [home_repo(locator, root), *others]


def named(locator: Mapping[str, Any], root: Path, name: str | None) -> Repo:
    """The repository called `name` (the home repository for None).

    Raises:
        UserError: the index has no repository of that name.
    """
    repos = all_repos(locator, root)
    if name is None:
        return repos[0]
    for r in repos:
        if r.name == name:
            return r
    known = ", ".join(r.name for r in repos)
    raise UserError(f"no repository {name!r} in this index (it has: {known})")


def choose(
    locator: Mapping[str, Any], root: Path, target: Path, name: str | None
) -> tuple[Repo, Path]:
    """The repository a run on `target` belongs to, and the path inside it to index.

    A target inside the home root (or inside a registered repository) belongs to it; a
    target elsewhere becomes a new repository, named `name` or after its directory.

    Raises:
        UserError: `name` is already another root's name, or the target's repository is
            indexed under another name.
    """
    repos = all_repos(locator, root)
    owner = next((r for r in repos if target == r.root or r.root in target.parents), None)
    if owner is not None:
        if name is not None and name != owner.name:
            raise UserError(
                f"{owner.root} is indexed as repository {owner.name!r}, not {name!r}",
                hint=f"pass --repo {owner.name} (or none), or index it into another index",
            )
        return owner, target
    repo_root = target if target.is_dir() else target.parent
    wanted = check_repo_name(name or _default_name(repo_root))
    clash = next((r for r in repos if r.name == wanted), None)
    if clash is not None:
        raise UserError(
            f"repository name {wanted!r} is already used for {clash.root}",
            hint=f"add {repo_root} with another name: --repo NAME",
        )
    return Repo(wanted, repo_root, False), target


def first_name(name: str | None, root: Path) -> str:
    """The home repository's name for a new index: `name` if given, else the root's name."""
    return check_repo_name(name) if name is not None else _default_name(root)


def recorded(locator: Mapping[str, Any], repo: Repo, **values: Any) -> dict[str, Any]:
    """The locator keys to write so that `repo`'s bookkeeping holds `values`."""
    if repo.home:
        return {"repo": repo.name, **values}
    others = {k: dict(v) for k, v in _others(locator).items() if isinstance(v, dict)}
    entry = others.setdefault(repo.name, {})
    entry.update(root=str(repo.root), **values)
    return {"repos": others}


def _others(locator: Mapping[str, Any]) -> dict[str, Any]:
    found = locator.get("repos")
    return dict(found) if isinstance(found, dict) else {}


def _default_name(root: Path) -> str:
    """A repository name made from a directory name (bad characters become `-`)."""
    cleaned = "".join(c if c.isalnum() or c in "._-" else "-" for c in root.name)
    cleaned = cleaned.lstrip("._-")[:64]
    return cleaned or "repo"
