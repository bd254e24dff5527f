"""What `strata status`, `repos` and `sessions` report, built as the frozen values of
`strata.engine.results`: counts per layer, vectors done, pending files, health; each
repository's files, rows and commits; the indexing sessions."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from strata.config import IndexConfig
from strata.engine.parts import Parts, moved_from
from strata.engine.results import (
    EmbedderState,
    LayerCount,
    RepoInfo,
    Session,
    Status,
    VectorCount,
)
from strata.engine.upkeep import lagging
from strata.index.discovery import discover
from strata.index.fingerprint import fingerprint
from strata.index.plan import make_plan
from strata.layers import embedded_count
from strata.store import Store, capabilities
from strata.store.branches import counts_of
from strata.store.uri import redact
from strata.workspace.fileread import file_hash
from strata.workspace.lock import is_locked
from strata.workspace.repos import all_repos


def pending_files(
    root: Path, cfg: IndexConfig, store: Store, locator: Mapping[str, Any], chunking: str = ""
) -> int:
    """Files whose state on disk differs from the index.

    Files the last run skipped (same stat) are not pending, and neither is a file whose
    stat moved while its bytes stayed the same. With `chunking` (`index.fingerprint`)
    other than the one the repository was indexed with, every indexed file is pending.
    """
    skipped = locator.get("skipped", {})
    indexed = store.sources()
    if not root.is_dir():  # a repository whose root is gone: all of it is out of date
        return len(indexed)
    plan = make_plan(discover(root, cfg).files, indexed)
    new = [f for f in plan.new if skipped.get(f.rel) != [f.size, f.mtime_ns]]
    if chunking and indexed and locator.get("chunking") != chunking:
        return len(new) + len(indexed)  # the next run reads them all again
    changed = [f for f in plan.changed if file_hash(f) != indexed[f.rel].file_hash]
    return len(new) + len(changed) + len(plan.removed)


def report_status(
    root: Path,
    index_dir: Path,
    store_uri: str,
    locator: Mapping[str, Any],
    counts: Mapping[str, Mapping[str, int]],
    pending: int | None,
    repos: tuple[RepoInfo, ...] | None = None,
    unindexed: int = 0,
) -> Status:
    """The status (the same for `--json`, the terminal and the API); layers in name order."""
    dim = int(locator.get("dim", 0))
    vecs, embeddable = embedded_count(counts)
    from strata.index.corpus.cache import corpus_unfinished  # the write side's, when asked

    unfinished = tuple(corpus_unfinished(index_dir))
    return Status(
        root=root,
        index_dir=index_dir,
        store=redact(store_uri),
        # `vectors_pending`: why a first index has no vectors yet
        embedder=EmbedderState(
            str(locator.get("embedder", "none")),
            dim,
            locator.get("vectors_pending"),
            locator.get("adapter_pairs"),
            locator.get("adapter_sections"),
        ),
        layers=MappingProxyType(
            {
                layer: LayerCount(c.get("rows", 0), c.get("vectors", 0))
                for layer, c in sorted(counts.items())
            }
        ),
        rows=sum(c.get("rows", 0) for c in counts.values()),
        vectors=VectorCount(vecs, embeddable if dim else 0),
        last_index=locator.get("last_index"),
        files_pending=pending,
        writer_active=is_locked(index_dir),
        moved_from=moved_from(index_dir, dict(locator)),
        corpus_unfinished=unfinished,
        healthy=bool(locator)
        and not unfinished
        and (dim == 0 or vecs == embeddable)
        and not pending
        and not locator.get("vectors_pending")
        and not unindexed,
        repos=repos,
        unindexed_rows=unindexed,
    )


def status_of(parts: Parts) -> Status:
    """`Engine.status`: the status, with every repository's files pending."""
    if not parts.exists:
        return report_status(parts.root, parts.index_dir, parts.store_uri, {}, {}, None)
    meta = parts.locator()
    chunking = fingerprint(parts.config.chunk)
    pending = sum(
        pending_files(r.root, parts.config.index, parts.repo_store(r.name), r.entry(meta), chunking)
        for r in all_repos(meta, parts.root)
    )
    counts = counts_of(parts.store)  # a branch's status counts its own rows
    repos = tuple(repos_of(parts))
    return report_status(
        parts.root, parts.index_dir, parts.store_uri, meta, counts, pending, repos, lagging(parts)
    )


def repos_of(parts: Parts) -> list[RepoInfo]:
    """`Engine.repos`: name, root, home, files, rows, commits, last index of each."""
    parts.require()
    meta = parts.locator()
    sessions = sessions_of(parts)
    return [
        RepoInfo(
            name=r.name,
            root=r.root,
            home=r.home,
            files=len(parts.repo_store(r.name).sources()),
            rows=sum(s.rows for s in sessions if s.repo == r.name),
            commits=tuple(
                sorted({s.commit_sha for s in sessions if s.repo == r.name and s.commit_sha})
            ),
            last_index=r.entry(meta).get("last_index"),
        )
        for r in all_repos(meta, parts.root)
    ]


def sessions_of(parts: Parts, repo: str | None = None) -> list[Session]:
    """`Engine.sessions`: the indexing sessions whose rows are in the index (of one
    repository, if named)."""
    parts.require()
    found = [Session.of(s) for s in capabilities.sessions(parts.store)]
    return [s for s in found if repo is None or s.repo == repo]
