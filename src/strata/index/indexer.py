"""Apply a plan: process files (in parallel where it pays), write batches atomically, add vectors.

Order of work, chosen so a user can search as early as possible and nothing is lost:
1. files no longer on disk are dropped;
2. files are read, chunked and written batch by batch, each batch one atomic commit (a
   file already indexed is embedded *before* its rows are replaced: an embedder outage
   leaves its old rows intact; a new file is written at once, its vectors follow);
3. rows still without vectors are embedded (the cache skips anything seen before) and
   their vectors set in place. Killed at any point, the next run resumes here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor

from strata.config import Config
from strata.embedding import Embedder
from strata.embedding.buckets import embed_bucketed
from strata.embedding.cache import EmbeddingCache, embed_with_cache
from strata.errors import EmbedderError
from strata.index.corpus import Artifact
from strata.index.corpus.apply import refresh_corpus
from strata.index.corpus.rows import CORPUS_LAYERS, digest_of
from strata.index.passages import FileOutcome, first_look_rows, stamped, unique_ids
from strata.index.pipeline import process_batch
from strata.index.plan import Changes
from strata.index.stream import index_streamed, streams
from strata.index.summary import CorpusHook, IndexSummary, Session, session_for
from strata.index.upkeep import Upkeep
from strata.index.workers import batches, outcomes, worker_pool, workers_for
from strata.layers import EMBEDDED_LAYERS, missing_count
from strata.store import Store, capabilities
from strata.store.arrow import PreparedRows, joined
from strata.types import FileState, Record, SourceFile, Vector
from strata.workspace.fileread import file_hash

__all__ = ["CorpusHook", "IndexSummary", "Indexer", "ProgressFn", "Session", "session_for"]

log = logging.getLogger(__name__)

ProgressFn = Callable[[str, int, int, str], None]
"""progress(phase, done, total, item): phases `chunk` and `index` (files), `embed` (chunks)."""

RACY_NS = 2_000_000_000  # a file modified this recently may change again within one mtime tick
# A run with this many new files writes their passage rows first (see `_first_look`).
LEXICAL_FIRST_MIN_FILES = 200
FILL_WINDOW = 4096  # rows without a vector read (and bucketed by length) per embedding round


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
        self._down: EmbedderError | None = None  # the embedder failed earlier in this run
        self._cache = cache
        self._session = session
        self._corpus = corpus
        self._cache_key = cache_key  # the embedding cache's model key, e.g. local:model@384
        self._now_ns = time.time_ns()
        self._corpus_rows: dict[str, Counter[str]] = {}  # per file, rows the corpus pass redoes
        self._written: dict[str, str] = {}  # per file written, its corpus-layer rows' digest
        self._upkeep = Upkeep(store)

    @property
    def embeds(self) -> bool:
        """Whether this index has vectors at all (False for the `none` embedder)."""
        return self._embedder_factory is not None and self._store.dim > 0

    def run(
        self,
        plan: Changes,
        known: Mapping[str, FileState],
        summary: IndexSummary,
        progress: ProgressFn | None = None,
        ready: Executor | None = None,
    ) -> IndexSummary:
        """Apply `plan`, filling `summary`; raises EmbedderError after writing what it safely can.

        `known` is the index's view before the run: a changed stat whose content hash
        is unchanged counts as unchanged (its rows are rewritten only to record the stat).
        `ready`: worker processes the caller already started, used if the plan needs any
        and shut down once every file is read. A run that stops early (an error, Ctrl-C)
        first folds the rows it wrote into the store's search indexes (`index.upkeep`).
        """
        try:
            return self._run(plan, known, summary, progress or (lambda *_: None), ready)
        except BaseException as exc:
            self._upkeep.rescue(interrupted=isinstance(exc, KeyboardInterrupt))
            raise
        finally:
            summary.fold_seconds = self._upkeep.seconds

    def _run(
        self,
        plan: Changes,
        known: Mapping[str, FileState],
        summary: IndexSummary,
        report: ProgressFn,
        ready: Executor | None,
    ) -> IndexSummary:
        started, self._now_ns = time.monotonic(), time.time_ns()
        self._corpus_rows, self._written, self._retagged = {}, {}, False
        summary.unchanged, summary.reread = len(plan.unchanged), len(plan.reread)
        changed = self._settle_stats(plan.changed, known, summary)  # a stat alone: no mark
        if self._corpus is not None and (plan.removed or plan.new or changed or plan.reread):
            self._corpus.begin()  # before the first write: a crash from here leaves the mark
        # not re-tagged: another branch's rows of the same bytes were chunked the old way too
        to_read = self._retag(plan.new + changed, summary) + plan.reread
        if plan.removed:
            self._store.replace_sources({p: [] for p in plan.removed})
            summary.removed = len(plan.removed)
        previously_indexed = {f.rel for f in changed + plan.reread}
        fresh: dict[str, Artifact] = {}
        summary.workers = workers_for(self._cfg.index, len(to_read))
        workers: contextlib.AbstractContextManager[Executor | None]
        if ready is None:
            workers = worker_pool(summary.workers)
        else:  # the caller's pool, or none if the plan turned out too small for one
            workers = contextlib.nullcontext(ready if summary.workers > 1 else None)
        with workers as pool:
            if len(new := [f for f in to_read if f.rel not in known]) >= LEXICAL_FIRST_MIN_FILES:
                self._first_look([f for f in new if not streams(f)], pool, report)  # not re-tagged
                summary.searchable_seconds = time.monotonic() - started
            self._build(to_read, known, previously_indexed, fresh, summary, pool, report)
        if ready is not None:
            ready.shutdown()  # idle from here on, and embedding may take minutes
        if not summary.searchable_seconds:
            summary.searchable_seconds = time.monotonic() - started
        corpus = self._corpus
        if corpus is not None and (fresh or plan.removed or self._retagged or corpus.force):
            done = refresh_corpus(
                self._store,
                corpus.cache,
                corpus.root,
                fresh,
                trust_digests=not corpus.recheck,
                written=self._written,
            )
            summary.corpus_rewritten = len(done.rewritten)
            summary.count_corpus_rows(
                [self._corpus_rows.get(p, Counter()) for p in done.rewritten], done.rows_by_layer
            )
            corpus.finish()
        if self._down is not None:  # the changed files went in lexically; no second wait
            summary.vectors_missing = missing_count(self._store.counts())
            summary.seconds = time.monotonic() - started
            raise self._down
        if self.embeds:
            self._fill_vectors(summary, report)
        summary.seconds = time.monotonic() - started
        return summary

    def _first_look(
        self, files: Sequence[SourceFile], pool: Executor | None, report: ProgressFn
    ) -> None:
        """Write the passage rows (C0/D0) of many new files first, so BM25 answers while the
        other layers are built. The rows are marked unfinished (no file hash, mtime 0): a run
        killed before the full pass redoes those files, and the full pass replaces them.
        The workers hand back rows ready to write (`first_look_rows`), committed
        `index.commit_rows` at a time, or a quarter of that when it would only wait for
        the next result: the first files answer early, and a run makes few commits."""
        parts: list[PreparedRows] = []
        rows = done = 0
        args = (self._cfg, self._session, self._store.dim)
        commit = self._cfg.index.commit_rows
        for task, part, waiting in batches(files, first_look_rows, args, pool):
            done += len(task)
            report("chunk", done, len(files), task[-1].rel)
            parts.append(part)
            rows += part.rows
            if rows >= commit or (waiting and rows >= commit // 4):
                capabilities.write_prepared(self._store, joined(parts))
                parts, rows = [], 0
        if parts:
            capabilities.write_prepared(self._store, joined(parts))

    def _build(
        self,
        to_read: Sequence[SourceFile],
        known: Mapping[str, FileState],
        previously_indexed: set[str],
        fresh: dict[str, Artifact],
        summary: IndexSummary,
        pool: Executor | None,
        report: ProgressFn,
    ) -> None:
        """Every layer of each file, written batch by batch (the full pass)."""
        total = len(to_read)
        whole, streamed = [f for f in to_read if not streams(f)], [f for f in to_read if streams(f)]
        pending, pending_rows = dict[str, list[Record]](), 0
        for i, outcome in enumerate(outcomes(whole, process_batch, self._cfg, pool), 1):
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
                    summary.removed += 1
                continue
            pending[outcome.file.rel] = rows
            pending_rows += len(rows)
            if pending_rows >= self._cfg.index.commit_rows:
                self._flush(pending, previously_indexed, summary)
                pending, pending_rows = {}, 0
        if pending:
            self._flush(pending, previously_indexed, summary)
        for i, f in enumerate(streamed, total - len(streamed) + 1):
            report("index", i, total, f.rel)
            ready = functools.partial(self._ready, f, summary)
            if art := index_streamed(self._store, f, self._cfg, known.get(f.rel), ready, summary):
                fresh[f.rel] = art
                self._written[f.rel], self._corpus_rows[f.rel] = digest_of(()), Counter()

    def _ready(self, f: SourceFile, summary: IndexSummary, records: list[Record]) -> list[Record]:
        """A streamed (large plain-text) part's rows, stamped, with the cache's vectors."""
        rows = stamped(records, f, self._session, 0 if self._racy(f) else f.mtime_ns)
        return self._attach_vectors({f.rel: rows}, set(), summary)[f.rel] if self.embeds else rows

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
            # a file that cannot be read safely is not the same: extraction says why
            same = state is not None and file_hash(f) == state.file_hash
            if same:
                stats[f.rel] = (f.size, 0 if self._racy(f) else f.mtime_ns)
            else:
                rest.append(f)
        if stats:
            capabilities.restat(self._store, stats)
            summary.unchanged += len(stats)
        return tuple(rest)

    def _retag(
        self, files: tuple[SourceFile, ...], summary: IndexSummary
    ) -> tuple[SourceFile, ...]:
        """The files to read once the branch took over the versions other branches stored."""
        store = self._store
        if not files or not (isinstance(store, capabilities.Branching) and store.branch_aware):
            return files
        hashes = {f.rel: file_hash(f) for f in files}
        taken = store.retag({p: h for p, h in hashes.items() if h})
        self._retagged = bool(taken)  # the corpus pass then gives the branch its own rows
        summary.unchanged += len(taken)
        return tuple(f for f in files if f.rel not in taken)

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
        f = outcome.file
        mtime = 0 if self._racy(f) else f.mtime_ns  # 0: re-check the content next run
        rows = stamped(unique_ids(outcome.records, f.rel), f, self._session, mtime)
        self._written[f.rel] = digest_of(r for r in rows if r.layer in CORPUS_LAYERS)
        if not count:
            return rows
        summary.indexed += 1
        for r in rows:
            summary.rows_by_layer[r.layer] = summary.rows_by_layer.get(r.layer, 0) + 1
        self._corpus_rows[f.rel] = Counter(r.layer for r in rows if r.layer in CORPUS_LAYERS)
        return rows

    def _flush(
        self, batch: dict[str, list[Record]], previously_indexed: set[str], summary: IndexSummary
    ) -> None:
        if self.embeds:
            batch = self._attach_vectors(batch, previously_indexed, summary)
        self._store.replace_sources(batch)
        self._upkeep.tick()

    def _attach_vectors(
        self, batch: dict[str, list[Record]], previously_indexed: set[str], summary: IndexSummary
    ) -> dict[str, list[Record]]:
        """Vectors from the cache for all rows; from the model for rows replacing old ones.

        With the embedder down, the rows go in without the vectors it owes (lexically
        searchable at once; rows whose text did not change keep theirs, from the cache),
        and the run raises its error once everything is written."""
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
        if urgent and self._down is None:
            try:
                known.update(self._embed(urgent, None))
                summary.vectors_embedded += len(urgent)
            except EmbedderError as exc:
                log.warning("embedder failed (%s): changed files indexed lexically", exc)
                self._down = exc
                summary.embed_error = str(exc)
        return {
            path: [dataclasses.replace(r, vector=known.get(r.content_hash)) for r in rows]
            for path, rows in batch.items()
        }

    def _fill_vectors(self, summary: IndexSummary, report: ProgressFn) -> None:
        # Wide windows: the wider the window, the closer in length the texts that share a
        # batch (less padding; docs/benchmarks.md, "Time to full quality").
        step = max(self._cfg.embed.batch_size * 64, FILL_WINDOW)
        missing = self._store.missing_vectors(step, EMBEDDED_LAYERS)
        if not missing:  # the common re-index: nothing to embed, no per-layer counting
            summary.vectors_missing = 0
            return
        total = missing_count(self._store.counts())
        done = 0
        try:
            while missing:
                self._upkeep.tick()  # rows rewritten with their vectors left the full-text index
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
                missing = self._store.missing_vectors(step, EMBEDDED_LAYERS)
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
            size = self._cfg.embed.batch_size
            vecs = embed_bucketed(embedder, list(texts_by_hash.values()), size)
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
