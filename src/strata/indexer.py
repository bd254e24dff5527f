"""Apply a plan: process files (in parallel where it pays), write batches atomically, add vectors.

Order of work, chosen so a user can search as early as possible and nothing is lost:
1. files no longer on disk are dropped;
2. files are read, chunked and written batch by batch, each batch one atomic commit.
   A file already in the index is embedded *before* its rows are replaced, so an
   embedder outage leaves its old rows intact; a new file is written at once
   (lexically searchable) and its vectors follow;
3. rows still without vectors are embedded (the cache skips anything seen before)
   and their vectors set in place. Killed at any point, the next run resumes here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import multiprocessing
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from strata.config import Config
from strata.corpus import Artifact, ArtifactCache
from strata.corpus.apply import refresh_corpus
from strata.embedding import Embedder
from strata.embedding.cache import EmbeddingCache, embed_with_cache
from strata.errors import EmbedderError
from strata.layers import EMBEDDED_LAYERS, missing_count
from strata.pipeline import FileOutcome, process_batch
from strata.plan import Plan
from strata.store import Store
from strata.types import FileState, Record, Skip, SourceFile, Vector, bytes_hash

log = logging.getLogger(__name__)

ProgressFn = Callable[[str, int, int, str], None]
"""progress(phase, done, total, item): phases are `index` (files) and `embed` (chunks)."""

PARALLEL_MIN_FILES = 200
RACY_NS = 2_000_000_000  # a file modified this recently may change again within one mtime tick
FILES_PER_TASK = 32


@dataclass(frozen=True, slots=True)
class Session:
    """Who the written rows belong to: repository, revision and indexing session."""

    repo_id: str = ""
    commit_sha: str | None = None
    session_id: str = ""


@dataclass(frozen=True, slots=True)
class CorpusHook:
    """Where the corpus pass keeps per-file artifacts; `force` reruns it with no change."""

    cache: ArtifactCache
    root: Path
    force: bool = False


@dataclass(slots=True)
class IndexSummary:
    """What an index run did, for the final summary line and `--json`."""

    root: str
    files_seen: int = 0
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    skips: list[Skip] = field(default_factory=list)
    rows_by_layer: dict[str, int] = field(default_factory=dict)
    vectors_embedded: int = 0
    vectors_missing: int = 0
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    searchable_seconds: float = 0.0
    embed_error: str | None = None
    corpus_rewritten: int = 0
    workers: int = 1

    @property
    def skipped(self) -> dict[str, int]:
        """Skipped files counted by reason."""
        return dict(Counter(s.reason.value for s in self.skips))

    def to_json(self) -> dict[str, object]:
        """The summary as printed by `strata index --json`."""
        return {
            "root": self.root,
            "files_seen": self.files_seen,
            "indexed": self.indexed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "skipped": self.skipped,
            "skips": [
                {"path": s.rel, "reason": s.reason.value, "detail": s.detail} for s in self.skips
            ],
            "rows_by_layer": self.rows_by_layer,
            "vectors_embedded": self.vectors_embedded,
            "vectors_missing": self.vectors_missing,
            "warnings": self.warnings,
            "seconds": round(self.seconds, 3),
            "searchable_seconds": round(self.searchable_seconds, 3),
            "embed_error": self.embed_error,
            "corpus_rewritten": self.corpus_rewritten,
            "workers": self.workers,
        }


@contextlib.contextmanager
def _main_hidden() -> Iterator[None]:
    """Keep spawned workers from re-running the caller's `__main__` script.

    A spawned process imports the parent's main module unless it cannot find it; an API
    user's unguarded script would index again in every worker. The workers only need
    `strata.pipeline`, so the main module's file and spec are hidden while they start.
    """
    main = sys.modules.get("__main__")
    file, spec = getattr(main, "__file__", None), getattr(main, "__spec__", None)
    try:
        if file is not None:
            del main.__file__  # type: ignore[union-attr]
        if main is not None:
            main.__spec__ = None
        yield
    finally:
        if file is not None:
            main.__file__ = file  # type: ignore[union-attr]
        if main is not None:
            main.__spec__ = spec


def _unique_ids(records: Sequence[Record], rel: str) -> list[Record]:
    """The records with repeated ids dropped (first kept): one bad extractor result must
    not make the whole batch's commit fail."""
    seen: set[str] = set()
    out = []
    for r in records:
        if r.id in seen:
            log.debug("%s: dropped a second record with id %s", rel, r.id)
            continue
        seen.add(r.id)
        out.append(r)
    return out


class Indexer:
    """Carries out plans against one store, one embedder (loaded lazily) and its cache."""

    def __init__(
        self,
        cfg: Config,
        store: Store,
        embedder: Callable[[], Embedder] | None,
        cache: EmbeddingCache | None,
        session: Session,
        corpus: CorpusHook | None = None,
        cache_key: str = "",
    ) -> None:
        self._cfg = cfg
        self._store = store
        self._embedder_factory = embedder
        self._embedder: Embedder | None = None
        self._cache = cache
        self._session = session
        self._corpus = corpus
        self._cache_key = cache_key  # the embedding cache's model key, e.g. local:model@384
        self._now_ns = time.time_ns()

    @property
    def embeds(self) -> bool:
        """Whether this index has vectors at all (False for the `none` embedder)."""
        return self._embedder_factory is not None and self._store.dim > 0

    def run(
        self,
        plan: Plan,
        known: Mapping[str, FileState],
        summary: IndexSummary,
        progress: ProgressFn | None = None,
    ) -> IndexSummary:
        """Apply `plan`, filling `summary`; raises EmbedderError after writing what it safely can.

        `known` is the index's view before the run: a changed stat whose content hash
        is unchanged counts as unchanged (its rows are rewritten only to record the stat).
        """
        started = time.monotonic()
        self._now_ns = time.time_ns()
        report = progress or (lambda *_: None)
        if plan.removed:
            self._store.replace_sources({p: [] for p in plan.removed})
            summary.removed = len(plan.removed)
        summary.unchanged = len(plan.unchanged)
        changed = self._settle_stats(plan.changed, known, summary)
        to_read = plan.new + changed
        previously_indexed = {f.rel for f in changed}
        fresh: dict[str, Artifact] = {}
        total = len(to_read)
        pending: dict[str, list[Record]] = {}
        pending_rows = 0
        summary.workers = self._workers(len(to_read))
        for i, outcome in enumerate(self._outcomes(to_read, summary.workers), 1):
            report("index", i, total, outcome.file.rel)
            if outcome.artifact is not None:
                fresh[outcome.file.rel] = outcome.artifact
            previous = known.get(outcome.file.rel)
            if previous and outcome.file_hash == previous.file_hash:
                summary.unchanged += 1
                if self._racy(outcome.file):
                    continue  # same content, stat not yet stable: nothing worth writing
            rows = self._absorb(
                outcome, summary, count=not (previous and outcome.file_hash == previous.file_hash)
            )
            if rows is None:
                if outcome.file.rel in previously_indexed:
                    pending[outcome.file.rel] = []  # now unindexable: drop its old rows
                continue
            pending[outcome.file.rel] = rows
            pending_rows += len(rows)
            if pending_rows >= self._cfg.index.commit_rows:
                self._flush(pending, previously_indexed, summary)
                pending, pending_rows = {}, 0
        if pending:
            self._flush(pending, previously_indexed, summary)
        if self._corpus is not None and (fresh or plan.removed or self._corpus.force):
            done = refresh_corpus(self._store, self._corpus.cache, self._corpus.root, fresh)
            summary.corpus_rewritten = len(done.rewritten)
        summary.searchable_seconds = time.monotonic() - started
        if self.embeds:
            self._fill_vectors(summary, report)
        summary.seconds = time.monotonic() - started
        return summary

    def _settle_stats(
        self, changed: Sequence[SourceFile], known: Mapping[str, FileState], summary: IndexSummary
    ) -> tuple[SourceFile, ...]:
        """The changed files whose bytes really changed. The others (a touch, a `git
        checkout` there and back, a copy) only get their new stat recorded, in one commit:
        hashing a file costs a read, extracting it costs every layer."""
        stats: dict[str, tuple[int, int]] = {}
        rest: list[SourceFile] = []
        for f in changed:
            state = known.get(f.rel)
            try:
                same = state is not None and bytes_hash(f.abspath.read_bytes()) == state.file_hash
            except OSError:
                same = False  # extraction says why, in one line
            if same:
                stats[f.rel] = (f.size, 0 if self._racy(f) else f.mtime_ns)
            else:
                rest.append(f)
        if stats:
            self._store.restat(stats)
            summary.unchanged += len(stats)
        return tuple(rest)

    def _workers(self, files: int) -> int:
        """Processes for extraction: one per core by default, and 1 when too few files to pay."""
        if files < PARALLEL_MIN_FILES:
            return 1
        return max(1, self._cfg.index.workers or (os.cpu_count() or 1))

    def _outcomes(self, files: Sequence[SourceFile], workers: int) -> Iterator[FileOutcome]:
        tasks = [list(files[i : i + FILES_PER_TASK]) for i in range(0, len(files), FILES_PER_TASK)]
        if workers <= 1:
            for task in tasks:
                yield from process_batch(task, self._cfg)
            return
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            with _main_hidden():  # workers start here; they need strata, not the caller's script
                batches = pool.map(process_batch, tasks, [self._cfg] * len(tasks))
            for batch in batches:
                yield from batch

    def _racy(self, f: SourceFile) -> bool:
        return self._now_ns - f.mtime_ns < RACY_NS

    def _absorb(
        self, outcome: FileOutcome, summary: IndexSummary, count: bool = True
    ) -> list[Record] | None:
        for warning in outcome.warnings:
            line = f"{outcome.file.rel}: {warning}"
            log.warning(line)
            summary.warnings.append(line)
        if outcome.skip is not None:
            log.warning(outcome.skip.line())
            summary.skips.append(outcome.skip)
            return None
        f, s = outcome.file, self._session
        records = _unique_ids(outcome.records, f.rel)
        mtime = 0 if self._racy(f) else f.mtime_ns  # 0: re-check the content next run
        rows = [
            dataclasses.replace(
                r,
                file_size=f.size,
                file_mtime_ns=mtime,
                session_id=s.session_id,
                repo_id=s.repo_id,
                commit_sha=s.commit_sha,
            )
            for r in records
        ]
        if not count:
            return rows
        summary.indexed += 1
        for r in rows:
            summary.rows_by_layer[r.layer] = summary.rows_by_layer.get(r.layer, 0) + 1
        return rows

    def _flush(
        self, batch: dict[str, list[Record]], previously_indexed: set[str], summary: IndexSummary
    ) -> None:
        if self.embeds:
            batch = self._attach_vectors(batch, previously_indexed, summary)
        self._store.replace_sources(batch)

    def _attach_vectors(
        self, batch: dict[str, list[Record]], previously_indexed: set[str], summary: IndexSummary
    ) -> dict[str, list[Record]]:
        """Vectors from the cache for all rows; from the model for rows replacing old ones."""
        hashes = {
            r.content_hash for rows in batch.values() for r in rows if r.layer in EMBEDDED_LAYERS
        }
        known = self._cache.get_many(self._cache_key, sorted(hashes)) if self._cache else {}
        urgent = {
            r.content_hash: r.text_to_embed
            for path, rows in batch.items()
            if path in previously_indexed
            for r in rows
            if r.content_hash not in known and r.layer in EMBEDDED_LAYERS
        }
        if urgent:
            known.update(self._embed(urgent, None))
            summary.vectors_embedded += len(urgent)
        return {
            path: [dataclasses.replace(r, vector=known.get(r.content_hash)) for r in rows]
            for path, rows in batch.items()
        }

    def _fill_vectors(self, summary: IndexSummary, report: ProgressFn) -> None:
        total = missing_count(self._store.counts())
        done = 0
        step = max(self._cfg.embed.batch_size * 8, 256)
        try:
            while True:
                missing = self._store.missing_vectors(step, EMBEDDED_LAYERS)
                if not missing:
                    break
                texts = {h: t for _, h, t in missing}
                base = done

                def tick(d: int, _t: int, base: int = base) -> None:
                    report("embed", base + d, total, "")

                vectors = self._embed(texts, tick)
                updated = self._store.set_vectors(
                    {rid: (h, vectors[h]) for rid, h, _ in missing if h in vectors}
                )
                done += len(missing)
                summary.vectors_embedded += len(texts)
                report("embed", min(done, total), total, "")
                if updated == 0:
                    break  # rows changed under us; the next run picks them up
        except EmbedderError as exc:
            summary.embed_error = str(exc)
            raise
        finally:
            summary.vectors_missing = missing_count(self._store.counts())

    def _embed(
        self, texts_by_hash: Mapping[str, str], on_batch: Callable[[int, int], None] | None
    ) -> dict[str, Vector]:
        embedder = self._get_embedder()
        if self._cache is None:
            vecs = embedder.embed_documents(list(texts_by_hash.values()))
            return dict(zip(texts_by_hash, vecs, strict=True))
        return dict(
            embed_with_cache(
                embedder, self._cache, texts_by_hash, self._cfg.embed.batch_size, on_batch=on_batch
            )
        )

    def _get_embedder(self) -> Embedder:
        if self._embedder is None:
            assert self._embedder_factory is not None
            self._embedder = self._embedder_factory()
        return self._embedder
