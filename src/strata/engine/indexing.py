"""The Engine's writes, as functions of its `Parts`: index a repository (or part of it),
refresh named paths (the watcher's unit of work), rebuild for another embedder."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from concurrent.futures import Executor
from pathlib import Path

from strata.embedding import RETRY_HINT, configured_name, first_dim
from strata.embedding.cache import EmbeddingCache
from strata.engine import adapting
from strata.engine.parts import Parts, check_embedder
from strata.errors import EmbedderError, UserError
from strata.index.corpus import FILE_NAME as ARTIFACTS_FILE
from strata.index.corpus import ArtifactCache
from strata.index.corpus.cache import pending_marker
from strata.index.discovery import Discovery, IgnoreRules, discover, discover_one, is_under
from strata.index.fingerprint import fingerprint
from strata.index.indexer import CorpusHook, Indexer, IndexSummary, ProgressFn, session_for
from strata.index.plan import make_plan
from strata.index.workers import worker_pool, workers_for
from strata.store import capabilities, open_store, recreate_store, repo_lock
from strata.store.capabilities import Maintenance
from strata.types import Skip, SkipReason, SourceFile
from strata.workspace.git import changed_since
from strata.workspace.lock import write_lock
from strata.workspace.repos import Repo, all_repos, choose, first_name, recorded

__all__ = ["chunked_otherwise", "index", "refresh"]

log = logging.getLogger(__name__)

Progress = ProgressFn | None


def index(
    parts: Parts,
    target: Path,
    repo: str | None,
    since: str | None,
    *,
    full: bool,
    progress: Progress,
) -> IndexSummary:
    """`Engine.index`: create or incrementally update the repository holding `target` (or
    the one named `repo`); `since`: only the paths `git diff` names."""
    root = parts.root
    if not parts.locator().get("repo") and (target == root or root in target.parents):
        parts.write_locator(repo=first_name(repo, root))  # the first run names home
    r, target = choose(parts.locator(), root, target, repo)
    if since is not None:
        return refresh(parts, changed_since(r.root, since), r.name, None, 10.0, progress)
    with write_lock(parts.index_dir), repo_lock(parts.store_uri, lambda: parts.base_store, r.name):
        if parts.config.store.branch and not parts.locator().get("branches"):
            parts.write_locator(branches=True)  # from now on, runs follow the checkout
        _check_branch(parts)
        rebuilt = _reset(parts, r) if full or _pending_now_reachable(parts) else []
        _check_embedder(parts)
        summary = _index_repo(parts, r, target, progress)
        for other in rebuilt:
            log.info("re-indexing repository %s for the new embedder", other.name)
            _index_repo(parts, other, other.root, progress)
    if why := parts.locator().get("vectors_pending"):
        raise EmbedderError(f"indexed lexically; no vectors yet: {why}", hint=RETRY_HINT)
    return summary


def refresh(
    parts: Parts,
    rels: Iterable[str],
    repo: str | None,
    rules: IgnoreRules | None,
    lock_wait: float,
    progress: Progress,
) -> IndexSummary:
    """`Engine.refresh`: bring just these paths of one repository up to date, waiting up
    to `lock_wait` seconds for another writer."""
    r = parts.repo(repo)
    rules = rules or IgnoreRules(r.root, parts.config.index)
    with (
        write_lock(parts.index_dir, wait=lock_wait),
        repo_lock(parts.store_uri, lambda: parts.base_store, r.name),
    ):
        _check_branch(parts)
        _check_embedder(parts)
        indexed = parts.repo_store(r.name).sources()
        files: list[SourceFile] = []
        skips: list[Skip] = []
        scope: set[str] = set()
        for rel in sorted(set(rels)):
            scope.update(p for p in indexed if is_under(p, rel))
            found = discover_one(r.root, r.root / rel, parts.config.index, rules)
            if isinstance(found, SourceFile):
                files.append(found)
            elif isinstance(found, Skip) and found.reason is not SkipReason.VANISHED:
                skips.append(found)
        plan = make_plan(files, indexed, scope=scope)
        summary = IndexSummary(root=str(r.root), files_seen=len(files) + len(skips), skips=skips)
        for skip in skips:
            log.warning(skip.line())
        try:
            _indexer(parts, r).run(plan, indexed, summary, progress)
        finally:
            parts.write_locator(**recorded(parts.locator(), r, last_index=time.time()))
        return summary


def chunked_otherwise(parts: Parts, r: Repo | None = None) -> bool:
    """Whether the repository (the home one by default) was indexed with other chunk
    settings or by another Strata (`index.fingerprint`): its next run reads every file."""
    r = r or parts.repo(None)
    return r.entry(parts.locator()).get("chunking") != fingerprint(parts.config.chunk)


def _check_branch(parts: Parts) -> None:
    """An index that tracks branches writes only for a named one: a detached HEAD names
    none, and rows written for no branch would count as every branch's."""
    if parts.locator().get("branches") and parts.branch is None:
        raise UserError(
            "HEAD is detached and this index keeps branches side by side: no branch to index for",
            hint="name it: `strata index --branch NAME` (or check a branch out)",
        )


def _pending_now_reachable(parts: Parts) -> bool:
    """Whether a first index made without its (unreachable) embedder can now get vectors."""
    return (
        bool(parts.locator().get("vectors_pending")) and first_dim(parts.configured_dim)[1] is None
    )


def _index_repo(parts: Parts, r: Repo, target: Path, progress: Progress) -> IndexSummary:
    """Bring one repository (or the part of it under `target`) up to date; lock held."""
    first = "last_index" not in r.entry(parts.locator())
    parts.write_locator(**recorded(parts.locator(), r))
    rel = None if target == r.root else target.relative_to(r.root).as_posix()
    disc = discover(r.root, parts.config.index)  # needs no store
    disc = disc if rel is None else disc.under(rel)
    # A first run reads every file: its workers start while the store opens.
    ahead = workers_for(parts.config.index, len(disc.files)) if first else 1
    with worker_pool(ahead) as ready:
        return _apply(parts, r, disc, rel, progress, ready)


def _apply(
    parts: Parts,
    r: Repo,
    disc: Discovery,
    rel: str | None,
    progress: Progress,
    ready: Executor | None,
) -> IndexSummary:
    indexed = parts.repo_store(r.name).sources()
    scope = None if rel is None else [p for p in indexed if is_under(p, rel)]
    files, skips = disc.files, disc.skips
    chunking = fingerprint(parts.config.chunk)
    if not indexed:  # whatever this run writes is chunked this way, even if it is stopped
        parts.write_locator(**recorded(parts.locator(), r, chunking=chunking))
    stale = bool(indexed) and chunked_otherwise(parts, r)
    if stale:
        log.info("the index was chunked another way (settings or Strata): reading every file")
    plan = make_plan(files, indexed, scope=scope, reread=stale)
    summary = IndexSummary(root=str(r.root), files_seen=len(files) + len(skips))
    for skip in skips:
        log.warning(skip.line())
        summary.skips.append(skip)
    done: dict[str, object] = {}
    try:
        _indexer(parts, r).run(plan, indexed, summary, progress, ready)
        if rel is None:  # every file of the repository is now chunked this way
            done["chunking"] = chunking
    finally:
        done.update(last_index=time.time(), skipped=summary.skipped_stats(files))
        parts.write_locator(**recorded(parts.locator(), r, **done))
    # a run that only resumed embedding changed no file, yet rewrote rows (their vectors)
    wrote = not plan.is_noop() or summary.vectors_embedded > 0
    if wrote or "adapter_sections" not in parts.locator():  # older than the adapter's docs map
        fitted = adapting.refit(parts, progress)
        if fitted is not None:
            parts.write_locator(adapter_pairs=fitted.symbols, adapter_sections=fitted.sections)
    if not isinstance(parts.store, Maintenance):
        return summary
    if wrote or capabilities.unindexed_rows(parts.store) > 0:
        parts.store.optimize()
    else:
        parts.store.ensure_indexes()  # an index made by an older Strata gains what it lacks
    return summary


def _indexer(parts: Parts, r: Repo) -> Indexer:
    meta = parts.locator()
    return Indexer(
        parts.config,
        parts.repo_store(r.name),
        parts.embedder if parts.embeds else None,
        EmbeddingCache(parts.index_dir / "embed_cache.sqlite") if parts.embeds else None,
        session_for(r.name, r.root),
        _corpus_hook(parts, r),
        f"{meta.get('embedder', '')}@{meta.get('dim', 0)}",  # the embedding cache's key
    )


def _reset(parts: Parts, r: Repo) -> list[Repo]:
    """Empty `r` for a rebuild; with another embedder (or width), empty the whole index.

    Returns the other repositories that lost their rows and must be indexed again.
    """
    dim = parts.configured_dim()
    name = parts.unchecked_embedder().name if parts.embeds else "none"
    meta = parts.locator()
    old_dim = int(meta.get("dim", dim))
    if meta.get("embedder", name) == name and old_dim == dim:
        capabilities.delete_all(parts.repo_store(r.name))
        return []
    parts.use_store(None)
    if old_dim == dim:
        store = open_store(parts.store_uri, dim)
        capabilities.delete_all(store)
    else:
        store = recreate_store(parts.store_uri, dim)
    parts.use_store(store)
    # The locator is rewritten, never removed: a killed rebuild stays openable.
    parts.write_locator(embedder=name, dim=dim, created=time.time(), vectors_pending=None)
    return [o for o in all_repos(meta, parts.root) if o.name != r.name]


def _check_embedder(parts: Parts) -> None:
    meta = parts.locator()
    if not meta.get("embedder"):
        # Named and sized from the configuration where that is known: the model loads
        # when there is something to embed, after BM25 already answers.
        dim, why = first_dim(parts.configured_dim)  # unreachable: lexical until it answers
        name = configured_name(parts.config.embed) if parts.embeds else "none"
        parts.write_locator(embedder=name, dim=dim, created=time.time(), vectors_pending=why)
    else:
        # By name only: loading the model (or asking a server) waits until there is
        # something to embed, so a no-op run stays instant. `embedder()` checks the dim.
        check_embedder(meta, configured_name(parts.config.embed) if parts.embeds else None)


def _corpus_hook(parts: Parts, r: Repo) -> CorpusHook:
    name = ARTIFACTS_FILE if r.home else f"{r.name}.{ARTIFACTS_FILE}"
    path = parts.index_dir / name
    pending = pending_marker(path)
    unfinished = pending.exists()  # a run stopped before its corpus pass was done
    cache = ArtifactCache(path, scope=parts.branch or "")  # each branch's corpus digests
    return CorpusHook(cache, r.root, not path.exists() or unfinished, pending, unfinished)
