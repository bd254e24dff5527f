"""The watcher daemon: filesystem events -> last-intent-wins queue -> `Engine.refresh`.

On start it reconciles disk against the index (new, changed and vanished files go
through the same queue as live events, as the pikuri seed's `reconcile_plan`), so
changes made while no watcher ran are caught. Bursts are coalesced by a short
debounce and applied in batches; each batch's replace is one commit, and a stop
request is honoured between batches. An embedder outage or a busy write lock puts
the batch back and retries with backoff: the daemon never dies on one bad file.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from strata.engine import Engine, adapting, upkeep
from strata.engine.indexing import chunked_otherwise
from strata.errors import EmbedderError, LockError, StrataError
from strata.index.discovery import IgnoreRules, discover
from strata.index.events import Event, Intent, WorkQueue, is_ignore_file
from strata.index.plan import make_plan
from strata.store.capabilities import Maintenance
from strata.workspace.lock import write_lock

__all__ = ["Update", "Watcher"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Update:
    """One path brought up to date: rows it now has and ms from first event to commit."""

    path: str
    chunks: int
    ms: float
    intent: Intent

    def line(self) -> str:
        """The one-line report shown on stderr."""
        return f"{self.path}  {self.chunks} chunks  {self.ms:.0f} ms"


UpdateFn = Callable[[Update], None]


def _log_update(update: Update) -> None:
    log.info(update.line())


class Watcher:
    """Keeps one engine's index current while `run` is active."""

    def __init__(
        self,
        engine: Engine,
        *,
        debounce: float = 0.15,
        max_delay: float = 2.0,
        batch_max: int = 1000,
        backoff: tuple[float, float] = (1.0, 30.0),
        optimize_idle: float = 10.0,
        on_update: UpdateFn | None = None,
    ) -> None:
        """Args:
        engine: the open engine whose root is watched.
        debounce: quiet time that ends a burst before it is applied.
        max_delay: a continuous burst is still applied after this long.
        batch_max: paths per `Engine.refresh` call (one commit per ~4,000 rows).
        backoff: first and largest delay between retries of a failed batch.
        optimize_idle: idle seconds after which new rows are folded into the indexes.
        on_update: called once per updated path (default: an INFO log line).
        """
        self.engine = engine
        self.debounce, self.max_delay, self.batch_max = debounce, max_delay, batch_max
        self.backoff, self.optimize_idle = backoff, optimize_idle
        self.on_update = on_update or _log_update
        self.queue = WorkQueue()
        self.batches = 0
        self.failures = 0
        self._cond = threading.Condition()
        self._since: dict[str, float] = {}
        self._last_event = 0.0
        self._rules = IgnoreRules(engine.root, engine.config.index)
        self._resweep = True
        self._dirty = False
        self._ready = threading.Event()

    # ---- public ----------------------------------------------------------------------------
    def run(self, stop: threading.Event) -> None:
        """Watch until `stop` is set; returns within about a second of it between batches."""
        observer = Observer()
        observer.schedule(_Handler(self), str(self.engine.root), recursive=True)
        observer.start()
        delay = self.backoff[0]
        try:
            while not stop.is_set():
                try:
                    self._step(stop)
                    delay = self.backoff[0]
                except (EmbedderError, LockError, StrataError) as exc:
                    self.failures += 1
                    level = logging.DEBUG if isinstance(exc, LockError) else logging.WARNING
                    log.log(level, "batch not applied, retrying in %.1fs: %s", delay, exc)
                    stop.wait(0.2 if isinstance(exc, LockError) else delay)
                    delay = min(delay * 2, self.backoff[1])
        finally:
            observer.stop()
            observer.join(timeout=5)

    def wait_ready(self, timeout: float) -> bool:
        """Block until the start-up reconcile has been queued and drained (for tests)."""
        return self._ready.wait(timeout)

    def idle(self) -> bool:
        """Whether nothing is pending."""
        with self._cond:
            return len(self.queue) == 0 and not self._resweep

    # ---- events (observer thread) ----------------------------------------------------------
    def push(self, event: Event) -> None:
        """Queue one event (paths relative to the root); ignored paths are dropped."""
        with self._cond:
            src = self._keep(event.src, event.is_dir)
            dest = self._keep(event.dest, event.is_dir)
            if (src and is_ignore_file(src)) or (dest and is_ignore_file(dest)):
                self._resweep = True
            narrowed = _narrow(event, src, dest)
            if narrowed is None:
                return
            event = narrowed
            now = time.monotonic()
            for rel in (p for p in (event.src, event.dest) if p):
                self._since.setdefault(rel, now)
            if self.queue.push_event(event):
                self._last_event = now
                self._cond.notify_all()

    def _keep(self, rel: str | None, is_dir: bool) -> str | None:
        if rel is None or rel in ("", "."):
            return None
        if self._rules.ignored(rel, is_dir) and not is_ignore_file(rel):
            return None
        return rel

    # ---- work (the run thread) -------------------------------------------------------------
    def _step(self, stop: threading.Event) -> None:
        if self._take_resweep():
            try:
                self._reconcile()
            except Exception:
                with self._cond:
                    self._resweep = True  # try the whole reconcile again after the backoff
                raise
        batch = self._next_batch(stop)
        if batch is None:
            if not self._ready.is_set() and self.idle():
                self._ready.set()
            return
        try:
            self._apply(batch)
        except (EmbedderError, LockError, StrataError):
            with self._cond:
                self.queue.put_back(batch)
            raise
        except Exception:  # a bug on one file must not kill the daemon
            log.exception("unexpected failure on a batch of %d paths", len(batch))
            self._isolate(batch)

    def _take_resweep(self) -> bool:
        with self._cond:
            again, self._resweep = self._resweep, False
            if again:
                self._rules = IgnoreRules(self.engine.root, self.engine.config.index)
            return again

    def _reconcile(self) -> None:
        """Queue what differs between disk and index, and rows still without vectors. An
        index chunked another way (an upgraded Strata, a `chunk.*` setting) is indexed
        again first, every file read, as `strata index` would."""
        eng = self.engine
        if eng.parts.exists and chunked_otherwise(eng.parts):
            log.info("the index was chunked another way: reading every file again")
            eng.index()
        disc = discover(eng.root, eng.config.index)
        plan = make_plan(disc.files, eng.repo_store().sources())
        now = time.monotonic()
        with self._cond:
            for f in plan.to_read:
                self._since.setdefault(f.rel, now)
                self.queue.push(f.rel, Intent.INDEX)
            for rel in plan.removed:
                self._since.setdefault(rel, now)
                self.queue.push(rel, Intent.REMOVE)
        log.info("reconcile: %d to index, %d to remove", len(plan.to_read), len(plan.removed))
        if upkeep.lagging(eng.parts):  # left by an interrupted run: folded in once idle
            self._dirty = True
        if eng.store.dim and self._missing_vectors():
            self._apply({})  # fills vectors left out by an earlier outage

    def _missing_vectors(self) -> bool:
        return any(c["rows"] > c["vectors"] for c in self.engine.store.counts().values())

    def _next_batch(self, stop: threading.Event) -> dict[str, Intent] | None:
        """Wait for work, let the burst settle, take one batch (None: stopped or idle)."""
        with self._cond:
            if not self.queue:
                self._cond.wait(0.1)
                if not self.queue:
                    self._maybe_optimize()
                    return None
            first = time.monotonic()
            while not stop.is_set():
                now = time.monotonic()
                quiet = now - self._last_event >= self.debounce
                if quiet or now - first >= self.max_delay or len(self.queue) >= 4 * self.batch_max:
                    break
                self._cond.wait(min(0.05, self.debounce))
            if stop.is_set():
                return None
            return self.queue.take(self.batch_max)

    def _apply(self, batch: dict[str, Intent]) -> None:
        """One `Engine.refresh` over the batch (directories expanded to their files)."""
        rels = sorted(set(batch) | set(self._expand(batch)))
        self._dirty = True  # a failed batch may have written rows too
        self.engine.refresh(rels, rules=self._rules, lock_wait=0.5)
        self.batches += 1
        self._report(batch, rels)

    def _expand(self, batch: dict[str, Intent]) -> Iterator[str]:
        for rel in batch:
            if os.path.isdir(self.engine.root / rel):
                yield from self._files_below(rel)

    def _files_below(self, top: str) -> Iterator[str]:
        root = self.engine.root
        for dirpath, dirs, files in os.walk(root / top):
            base = Path(dirpath).relative_to(root).as_posix()
            dirs[:] = [d for d in dirs if not self._rules.ignored(f"{base}/{d}", True)]
            for name in files:
                if not self._rules.ignored(f"{base}/{name}", False):
                    yield f"{base}/{name}"

    def _report(self, batch: dict[str, Intent], rels: list[str]) -> None:
        rows = self.engine.repo_store().sources()
        now = time.monotonic()
        with self._cond:
            since = {rel: self._since.pop(rel, now) for rel in rels}
        for rel in rels:
            if os.path.isdir(self.engine.root / rel):
                continue
            count = rows[rel].rows if rel in rows else 0
            intent = batch.get(rel, Intent.INDEX)
            self.on_update(Update(rel, count, (now - since[rel]) * 1000, intent))

    def _isolate(self, batch: dict[str, Intent]) -> None:
        """Apply the paths of a failed batch one by one; drop any that fails alone."""
        for rel, intent in batch.items():
            try:
                self._apply({rel: intent})
            except (EmbedderError, LockError, StrataError):
                with self._cond:
                    self.queue.put_back({rel: intent})
            except Exception:
                log.exception("skipping %s: it cannot be indexed", rel)

    def _maybe_optimize(self) -> None:
        """Fold new rows into the lexical/vector indexes and refit the query adapter
        (`engine/adapting`) once the queue has been idle."""
        if not self._dirty or time.monotonic() - self._last_event < self.optimize_idle:
            return
        try:
            store = self.engine.store
            with write_lock(self.engine.index_dir, wait=0.2):
                if isinstance(store, Maintenance):
                    store.optimize()
                fitted = adapting.refit(self.engine.parts)  # the edits' doc comments too
                if fitted is not None:
                    self.engine.parts.write_locator(
                        adapter_pairs=fitted.symbols, adapter_sections=fitted.sections
                    )
            self._dirty = False
        except LockError:
            log.debug("optimize postponed: the index is being written")


def _narrow(event: Event, src: str | None, dest: str | None) -> Event | None:
    """The event with its ignored side dropped: a move half out of view is a create or delete."""
    if event.kind != "moved":
        return event if src else None
    if src and dest:
        return event
    if src:
        return Event("deleted", src, event.is_dir)
    return Event("created", dest, event.is_dir) if dest else None


class _Handler(FileSystemEventHandler):
    """Turns watchdog's events into queue events relative to the root."""

    def __init__(self, watcher: Watcher) -> None:
        self._watcher = watcher
        self._root = str(watcher.engine.root)
        self._index_dir = str(watcher.engine.index_dir)

    def on_any_event(self, event: FileSystemEvent) -> None:
        """Queue created, modified, deleted and moved events; drop the index's own writes."""
        if event.event_type not in ("created", "modified", "deleted", "moved", "closed"):
            return
        src = self._rel(event.src_path)
        dest = self._rel(event.dest_path) if event.event_type == "moved" else None
        kind = "modified" if event.event_type == "closed" else event.event_type
        if event.event_type == "moved" and src is None:
            src, dest, kind = dest, None, "created"
        if src is not None:
            self._watcher.push(Event(kind, src, event.is_directory, dest))
        elif dest is not None:
            self._watcher.push(Event("created", dest, event.is_directory))

    def _rel(self, raw: str | bytes) -> str | None:
        path = os.fsdecode(raw)
        if not path or path == self._index_dir or path.startswith(self._index_dir + os.sep):
            return None
        rel = os.path.relpath(path, self._root)
        if rel == "." or rel.startswith(".." + os.sep) or rel == "..":
            return None
        return Path(rel).as_posix()
