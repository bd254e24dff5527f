"""What `strata status` and `strata repos` report: counts per layer, vectors done, pending
files, health; each repository's files, rows and commits."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from strata.config import IndexConfig
from strata.engine.parts import Parts
from strata.index.corpus.cache import corpus_unfinished
from strata.index.discovery import discover
from strata.index.plan import make_plan
from strata.layers import embedded_count
from strata.store import Store, capabilities
from strata.store.uri import redact
from strata.workspace.fileread import file_hash
from strata.workspace.locate import moved_from
from strata.workspace.lock import is_locked
from strata.workspace.repos import all_repos


def pending_files(root: Path, cfg: IndexConfig, store: Store, locator: Mapping[str, Any]) -> int:
    """Files whose state on disk differs from the index.

    Files the last run skipped (same stat) are not pending, and neither is a file whose
    stat moved while its bytes stayed the same.
    """
    skipped = locator.get("skipped", {})
    indexed = store.sources()
    if not root.is_dir():  # a repository whose root is gone: all of it is out of date
        return len(indexed)
    plan = make_plan(discover(root, cfg).files, indexed)
    new = [f for f in plan.new if skipped.get(f.rel) != [f.size, f.mtime_ns]]
    changed = [f for f in plan.changed if file_hash(f) != indexed[f.rel].file_hash]
    return len(new) + len(changed) + len(plan.removed)


def report_status(
    root: Path,
    index_dir: Path,
    store_uri: str,
    locator: Mapping[str, Any],
    counts: Mapping[str, Mapping[str, int]],
    pending: int | None,
) -> dict[str, Any]:
    """The status document (the same for `--json`, the terminal and the API)."""
    dim = int(locator.get("dim", 0))
    vecs, embeddable = embedded_count(counts)
    return {
        "root": str(root),
        "index_dir": str(index_dir),
        "store": redact(store_uri),
        "embedder": {
            "name": locator.get("embedder", "none"),
            "dim": dim,
            "lexical_only": dim == 0,
            "vectors_pending": locator.get("vectors_pending"),  # why a first index has none yet
        },
        "layers": {layer: dict(c) for layer, c in counts.items()},
        "rows": sum(c.get("rows", 0) for c in counts.values()),
        "vectors": {"done": vecs, "total": embeddable if dim else 0},
        "last_index": locator.get("last_index"),
        "files_pending": pending,
        "writer_active": is_locked(index_dir),
        "moved_from": str(old) if (old := moved_from(index_dir, dict(locator))) else None,
        "corpus_unfinished": (unfinished := corpus_unfinished(index_dir)),
        "healthy": bool(locator)
        and not unfinished
        and (dim == 0 or vecs == embeddable)
        and not pending
        and not locator.get("vectors_pending"),
    }


def status_of(parts: Parts) -> dict[str, Any]:
    """`Engine.status`: the status document, with every repository's files pending."""
    if not parts.exists:
        return report_status(parts.root, parts.index_dir, parts.store_uri, {}, {}, None)
    meta = parts.locator()
    pending = sum(
        pending_files(r.root, parts.config.index, parts.repo_store(r.name), r.entry(meta))
        for r in all_repos(meta, parts.root)
    )
    data = report_status(
        parts.root, parts.index_dir, parts.store_uri, meta, parts.store.counts(), pending
    )
    data["repos"] = repos_of(parts)
    return data


def repos_of(parts: Parts) -> list[dict[str, Any]]:
    """`Engine.repos`: name, root, home, files, rows, commits, last index of each."""
    parts.require()
    meta = parts.locator()
    sessions = capabilities.sessions(parts.store)
    out = []
    for r in all_repos(meta, parts.root):
        mine = [s for s in sessions if s["repo"] == r.name]
        out.append(
            {
                "name": r.name,
                "root": str(r.root),
                "home": r.home,
                "files": len(parts.repo_store(r.name).sources()),
                "rows": sum(s["rows"] for s in mine),
                "commits": sorted({s["commit_sha"] for s in mine if s["commit_sha"]}),
                "last_index": r.entry(meta).get("last_index"),
            }
        )
    return out
