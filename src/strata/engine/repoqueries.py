"""The Engine's view of its repositories: one repository's store, the list, the sessions."""

from __future__ import annotations

from typing import Any

from strata.engine.host import EngineParts
from strata.store import Store
from strata.store.view import RepoView
from strata.workspace.repos import Repo, all_repos, named


class RepoQueries(EngineParts):
    """Mixed into `strata.Engine`, which provides the root, the store and the locator."""

    def repo_store(self, name: str | None = None) -> Store:
        """One repository's view of the store (the home repository's by default)."""
        r = self._named_repo(name)
        return RepoView(self.store, r.name, r.prefix)

    def repos(self) -> list[dict[str, Any]]:
        """Every repository in the index: name, root, home, files, rows, commits, last index."""
        self._require()
        meta = self._locator()
        sessions = self.store.sessions()
        out = []
        for r in all_repos(meta, self.root):
            mine = [s for s in sessions if s["repo"] == r.name]
            out.append(
                {
                    "name": r.name,
                    "root": str(r.root),
                    "home": r.home,
                    "files": len(self.repo_store(r.name).sources()),
                    "rows": sum(s["rows"] for s in mine),
                    "commits": sorted({s["commit_sha"] for s in mine if s["commit_sha"]}),
                    "last_index": r.entry(meta).get("last_index"),
                }
            )
        return out

    def sessions(self, repo: str | None = None) -> list[dict[str, Any]]:
        """The indexing sessions whose rows are in the index (of one repository, if named)."""
        self._require()
        return [s for s in self.store.sessions() if repo is None or s["repo"] == repo]

    def _named_repo(self, name: str | None) -> Repo:
        return named(self._locator(), self.root, name)
