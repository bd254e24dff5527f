"""The one engine behind every surface: open an index, index a tree, search, report status."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from strata.config import Config, load_config
from strata.embedding import (
    RETRY_HINT,
    Embedder,
    configured_name,
    first_dim,
    recorded_embedder,
)
from strata.embedding.cache import EmbeddingCache
from strata.engine.layered import LayerQueries
from strata.engine.parts import Parts, check_embedder
from strata.engine.repoqueries import RepoQueries
from strata.engine.searching import Searching
from strata.engine.status import pending_files, report_status
from strata.errors import EmbedderError, NoIndexError
from strata.index.corpus import FILE_NAME as ARTIFACTS_FILE
from strata.index.corpus import ArtifactCache
from strata.index.corpus.cache import pending_marker
from strata.index.discovery import Discovery, IgnoreRules, discover, discover_one, is_under
from strata.index.indexer import CorpusHook, Indexer, IndexSummary, ProgressFn, session_for
from strata.index.plan import make_plan
from strata.index.workers import worker_pool, workers_for
from strata.store import Filter, Store, open_store, recreate_store, repo_lock
from strata.types import Record, Skip, SkipReason, SourceFile
from strata.workspace.git import changed_since
from strata.workspace.locate import META_NAME, read_locator, resolve, write_locator
from strata.workspace.lock import write_lock
from strata.workspace.repos import Repo, all_repos, choose, first_name, recorded

log = logging.getLogger(__name__)


class Engine(Searching, RepoQueries, LayerQueries):
    """An open index: its root, directory, configuration, store and (lazy) embedder."""

    def __init__(self, root: Path, index_dir: Path, cfg: Config, store_uri: str) -> None:
        self.root = root
        self.index_dir = index_dir
        self.config = cfg
        self.store_uri = store_uri
        self.parts = Parts(index_dir, cfg, store_uri)

    # ---- opening -------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        index_dir: str | os.PathLike[str] | None = None,
        store: str | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> Engine:
        """Open (or prepare to create) the index for `path`.

        Args:
            path: a directory or file to index; inside an indexed tree, that tree's index.
                None: the index found upward from the working directory (or `index_dir`).
            index_dir: where the index lives (default `<root>/.strata`).
            store: a store URI (default `lancedb://<index_dir>/lance`).
            config: dotted config keys that override every other source (like flags).
        """
        flags = dict(config or {})
        if store:
            flags["store.uri"] = store
        root, idx = resolve(path, index_dir)
        cfg = recorded_embedder(load_config(idx, flags), read_locator(idx).get("embedder"))
        uri = cfg.store.uri or f"lancedb://{idx / 'lance'}"
        return cls(root, idx, cfg, uri)

    @property
    def exists(self) -> bool:
        """Whether an index has been written here."""
        return (self.index_dir / META_NAME).is_file()

    # ---- parts ---------------------------------------------------------------------------
    @property
    def store(self) -> Store:
        """The store, opened on first use with the index's recorded dimension."""
        return self.parts.store

    def embedder(self) -> Embedder:
        """The configured embedder, loaded on first use and checked against the index."""
        return self.parts.embedder()

    def query_embedder(self) -> Embedder:
        """The embedder for search queries (see `Parts.query_embedder`)."""
        return self.parts.query_embedder()

    def _embeds(self) -> bool:
        return self.parts.embeds

    def _configured_dim(self) -> int:
        return self.parts.configured_dim()

    # ---- indexing ------------------------------------------------------------------------
    def index(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        full: bool = False,
        progress: ProgressFn | None = None,
        repo: str | None = None,
        since: str | None = None,
    ) -> IndexSummary:
        """Create or incrementally update the index of the root (or of `path`).

        A `path` outside the index's root adds (or updates) another repository in the
        same index, named `repo` (default: its directory's name). `since=REV` takes the
        changes instead of the snapshot: only the paths `git diff REV` names (edits,
        additions, deletions, both sides of renames) are redone. `full=True` rebuilds the
        repository (every repository when the embedder changed).
        """
        target = Path(path).expanduser().resolve() if path else self.root
        if not self._locator().get("repo") and (target == self.root or self.root in target.parents):
            self._write_locator(repo=first_name(repo, self.root))  # the first run names home
        r, target = choose(self._locator(), self.root, target, repo)
        if since is not None:
            return self.refresh(changed_since(r.root, since), progress=progress, repo=r.name)
        with write_lock(self.index_dir), repo_lock(self.store_uri, lambda: self.store, r.name):
            rebuilt = self._reset(r) if full or self._pending_now_reachable() else []
            self._check_embedder()
            summary = self._index_repo(r, target, progress)
            for other in rebuilt:
                log.info("re-indexing repository %s for the new embedder", other.name)
                self._index_repo(other, other.root, progress)
        if why := self._locator().get("vectors_pending"):
            raise EmbedderError(f"indexed lexically; no vectors yet: {why}", hint=RETRY_HINT)
        return summary

    def _pending_now_reachable(self) -> bool:
        """Whether a first index made without its (unreachable) embedder can now get vectors."""
        return (
            bool(self._locator().get("vectors_pending"))
            and first_dim(self._configured_dim)[1] is None
        )

    def _index_repo(self, r: Repo, target: Path, progress: ProgressFn | None) -> IndexSummary:
        """Bring one repository (or the part of it under `target`) up to date; lock held."""
        first = "last_index" not in r.entry(self._locator())
        self._write_locator(**recorded(self._locator(), r))
        rel = None if target == r.root else target.relative_to(r.root).as_posix()
        disc = discover(r.root, self.config.index)  # needs no store
        disc = disc if rel is None else disc.under(rel)
        # A first run reads every file: its workers start while the store opens.
        ahead = workers_for(self.config.index, len(disc.files)) if first else 1
        with worker_pool(ahead) as ready:
            return self._apply(r, disc, rel, progress, ready)

    def _apply(
        self,
        r: Repo,
        disc: Discovery,
        rel: str | None,
        progress: ProgressFn | None,
        ready: Executor | None,
    ) -> IndexSummary:
        indexed = self.repo_store(r.name).sources()
        scope = None if rel is None else [p for p in indexed if is_under(p, rel)]
        files, skips = disc.files, disc.skips
        plan = make_plan(files, indexed, scope=scope)
        summary = IndexSummary(root=str(r.root), files_seen=len(files) + len(skips))
        for skip in skips:
            log.warning(skip.line())
            summary.skips.append(skip)
        try:
            self._indexer(r).run(plan, indexed, summary, progress, ready)
        finally:
            done = {"last_index": time.time(), "skipped": summary.skipped_stats(files)}
            self._write_locator(**recorded(self._locator(), r, **done))
        if not plan.is_noop():
            self.store.optimize()
        else:
            self.store.ensure_indexes()  # an index made by an older Strata gains what it lacks
        return summary

    def refresh(
        self,
        rels: Iterable[str],
        *,
        progress: ProgressFn | None = None,
        rules: IgnoreRules | None = None,
        lock_wait: float = 10.0,
        repo: str | None = None,
    ) -> IndexSummary:
        """Bring just these paths (relative to the repository's root) up to date: the
        watcher's unit of work (the home repository unless `repo` names another).

        A path that is gone, ignored or no longer indexable loses its rows; a directory
        stands for everything indexed below it. Same plan-then-apply path as `index`.
        """
        r = self._named_repo(repo)
        rules = rules or IgnoreRules(r.root, self.config.index)
        wanted = sorted(set(rels))
        with (
            write_lock(self.index_dir, wait=lock_wait),
            repo_lock(self.store_uri, lambda: self.store, r.name),
        ):
            self._check_embedder()
            view = self.repo_store(r.name)
            indexed = view.sources()
            files: list[SourceFile] = []
            skips: list[Skip] = []
            scope: set[str] = set()
            for rel in wanted:
                scope.update(p for p in indexed if is_under(p, rel))
                found = discover_one(r.root, r.root / rel, self.config.index, rules)
                if isinstance(found, SourceFile):
                    files.append(found)
                elif isinstance(found, Skip) and found.reason is not SkipReason.VANISHED:
                    skips.append(found)
            plan = make_plan(files, indexed, scope=scope)
            summary = IndexSummary(
                root=str(r.root), files_seen=len(files) + len(skips), skips=skips
            )
            for skip in skips:
                log.warning(skip.line())
            try:
                self._indexer(r).run(plan, indexed, summary, progress)
            finally:
                self._write_locator(**recorded(self._locator(), r, last_index=time.time()))
            return summary

    def index_if_empty(self, *, progress: ProgressFn | None = None) -> IndexSummary | None:
        """Index only when the index holds no rows (the boot-time path)."""
        if self.exists and sum(c.get("rows", 0) for c in self.store.counts().values()) > 0:
            return None
        return self.index(progress=progress)

    def _indexer(self, r: Repo) -> Indexer:
        return Indexer(
            self.config,
            self.repo_store(r.name),
            self.embedder if self._embeds() else None,
            self._cache(),
            session_for(r.name, r.root),
            self._corpus_hook(r),
            self._cache_key(),
        )

    def _reset(self, r: Repo) -> list[Repo]:
        """Empty `r` for a rebuild; with another embedder (or width), empty the whole index.

        Returns the other repositories that lost their rows and must be indexed again.
        """
        dim = self._configured_dim()
        name = self.parts.unchecked_embedder().name if self._embeds() else "none"
        meta = self._locator()
        old_dim = int(meta.get("dim", dim))
        if meta.get("embedder", name) == name and old_dim == dim:
            self.repo_store(r.name).delete_all()
            return []
        self.parts.use_store(None)
        if old_dim == dim:
            store = open_store(self.store_uri, dim)
            store.delete_all()
        else:
            store = recreate_store(self.store_uri, dim)
        self.parts.use_store(store)
        # The locator is rewritten, never removed: a killed rebuild stays openable.
        self._write_locator(embedder=name, dim=dim, created=time.time(), vectors_pending=None)
        return [o for o in all_repos(meta, self.root) if o.name != r.name]

    def _check_embedder(self) -> None:
        meta = self._locator()
        if not meta.get("embedder"):
            # Named and sized from the configuration where that is known: the model loads
            # when there is something to embed, after BM25 already answers.
            dim, why = first_dim(self._configured_dim)  # unreachable: lexical until it answers
            name = configured_name(self.config.embed) if self._embeds() else "none"
            self._write_locator(embedder=name, dim=dim, created=time.time(), vectors_pending=why)
        else:
            # By name only: loading the model (or asking a server) waits until there is
            # something to embed, so a no-op run stays instant. `embedder()` checks the dim.
            check_embedder(meta, configured_name(self.config.embed) if self._embeds() else None)

    def _cache_key(self) -> str:
        meta = self._locator()
        return f"{meta.get('embedder', '')}@{meta.get('dim', 0)}"

    def _corpus_hook(self, r: Repo) -> CorpusHook:
        name = ARTIFACTS_FILE if r.home else f"{r.name}.{ARTIFACTS_FILE}"
        path = self.index_dir / name
        pending = pending_marker(path)
        unfinished = pending.exists()  # a run stopped before its corpus pass was done
        return CorpusHook(
            ArtifactCache(path), r.root, not path.exists() or unfinished, pending, unfinished
        )

    def _cache(self) -> EmbeddingCache | None:
        return EmbeddingCache(self.index_dir / "embed_cache.sqlite") if self._embeds() else None

    # ---- reading (search, plan, keep_warm: strata.engine.searching) ----------------------
    def records(
        self, layers: Iterable[str] | None = None, limit: int | None = None
    ) -> list[Record]:
        """Every record of the given layers (all layers by default), in path and span order."""
        self._require()
        return self.store.fetch(Filter(layers=tuple(layers) if layers else None), limit=limit)

    def status(self) -> dict[str, Any]:
        """Root, store, embedder, counts per layer, last index time, pending files, health."""
        if not self.exists:
            return report_status(self.root, self.index_dir, self.store_uri, {}, {}, None)
        meta = self._locator()
        pending = sum(
            pending_files(r.root, self.config.index, self.repo_store(r.name), r.entry(meta))
            for r in all_repos(meta, self.root)
        )
        data = report_status(
            self.root, self.index_dir, self.store_uri, meta, self.store.counts(), pending
        )
        data["repos"] = self.repos()
        return data

    def _require(self) -> None:
        if not self.exists:
            raise NoIndexError(
                f"no index at {self.index_dir}", hint=f"run `strata index {self.root}`"
            )

    # ---- the locator file ----------------------------------------------------------------
    def _locator(self) -> dict[str, Any]:
        return read_locator(self.index_dir)

    def _write_locator(self, **values: Any) -> None:
        write_locator(self.index_dir, root=str(self.root), store=self.store_uri, **values)

    def close(self) -> None:
        """Release the store."""
        self.parts.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
