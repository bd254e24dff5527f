"""When a store keeps the passage layers in memory (`strata.store.hot`), and building them.

A warm process (`strata serve`, an API user, a benchmark) keeps one snapshot per table
version: the passages' search columns and vectors, and their BM25 postings
(`strata.store.bm25`) once they answer as the full-text index does.
"""

from __future__ import annotations

import atexit
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa

from strata.layers import PASSAGE_LAYERS
from strata.store import Filter, sql
from strata.store.arrow import SEARCH_COLUMNS
from strata.store.bm25 import PassageBM25, agrees, stemmer
from strata.store.hot import MAX_ROWS, HotPassages
from strata.store.schema import match_query, searchable
from strata.types import Record
from strata.workspace import memory

__all__ = ["WarmPassages", "covers", "load_passages"]

log = logging.getLogger(__name__)
T = TypeVar("T")

# Rows of `lex` read per batch while the BM25 statistics are gathered.
LEX_BATCH = 16_384
# Probes compared with the full-text index before the in-memory BM25 answers, and their rows.
PROBES, PROBE_ROWS = 6, 50


class WarmPassages:
    """When a store keeps the passage layers in memory.

    Searches go to LanceDB until the process says it will search again and again:
    `keep()` builds the copy at once (in this thread), `keep(background=True)` in a
    background thread (a second search in one process, `strata.engine.parts`); later
    searches use it, and after each commit by anyone it is rebuilt in the background. A
    one-shot command never builds one. A build still running when the interpreter exits
    stops at its next batch (`_stop_builds`): a LanceDB call left running while Python
    finalizes aborts the process.
    """

    def __init__(
        self, load: Callable[[int], HotPassages | None], version: Callable[[], int]
    ) -> None:
        self._load = load
        self._version = version
        self._hot: HotPassages | None = None
        self._kept = False
        self._building = False
        self._failed = -1  # a version whose copy could not be built: LanceDB answers it
        self._lock = threading.Lock()

    def keep(self, *, background: bool = False) -> None:
        """This process will search again and again: build the copy (now, in this thread,
        or in the background), and again in the background after each commit."""
        with self._lock:
            self._kept = True
        if background:
            self.get()
            return
        version = self._version()
        with self._lock:
            if self._building or (self._hot is not None and self._hot.version == version):
                return
            self._building = True
        self._build(version)

    def get(self) -> HotPassages | None:
        """The copy for the current version, if there is one (else, in a process that
        keeps one, starting a build of it)."""
        version = self._version()
        with self._lock:
            hot = self._hot
            if hot is not None and hot.version == version:
                return hot
            if not self._kept or self._building or self._failed == version:
                return None
            self._building = True
        _start_build(self._build, version)
        return None

    def fetch(self, where: Filter) -> list[Record] | None:
        """`Store.fetch` (no vectors) from the copy, when there is one holding every row
        `where` allows (a read by filter or by id)."""
        hot = self.get() if _holds(where) else None
        return None if hot is None else hot.select(where)

    def fetch_table(self, where: Filter, columns: Sequence[str]) -> pa.Table | None:
        """`fetch_table`'s rows (in no set order) from the copy, when it holds them."""
        hot = self.get() if _holds(where) else None
        return None if hot is None else hot.columns_of(where, columns)

    def wait(self, timeout: float) -> bool:
        """Block until no build is running (tests and benchmarks); True if none is."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._building:
                    return True
            time.sleep(0.01)
        return False

    def _build(self, version: int) -> None:
        memory.return_large_buffers()  # a process that keeps a copy stays up: stay lean
        try:
            hot = self._load(version)
            with self._lock:
                if hot is not None:
                    self._hot = hot
                else:
                    self._failed = version
            if hot is not None:
                log.debug("%d passages in memory (%d MB)", len(hot), hot.nbytes >> 20)
        except BuildStopped:  # the interpreter is exiting
            return
        except Exception:  # a background nicety: LanceDB goes on answering
            log.debug("building the in-memory passages failed", exc_info=True)
            with self._lock:
                self._failed = version
        finally:
            memory.release()
            with self._lock:
                self._building = False


# Builds running in background threads, and the flag that stops them at interpreter exit.
_builders: set[threading.Thread] = set()
_builders_lock = threading.Lock()
_stopping = threading.Event()
# How long the interpreter's exit waits for a build to reach its next batch and stop.
STOP_WAIT_S = 10.0


class BuildStopped(Exception):
    """The interpreter is exiting: a build stops between two LanceDB calls."""


def _start_build(build: Callable[[int], None], version: int) -> None:
    def run() -> None:
        try:
            build(version)
        finally:
            with _builders_lock:
                _builders.discard(threading.current_thread())

    thread = threading.Thread(target=run, name="strata-warm", daemon=True)
    with _builders_lock:
        if _stopping.is_set():  # the interpreter is exiting: no new LanceDB work
            return
        _builders.add(thread)
    thread.start()


def checked(items: Iterable[T]) -> Iterator[T]:
    """`items`, stopping (`BuildStopped`) once the interpreter exits."""
    for item in items:
        unless_stopping()
        yield item


def unless_stopping() -> None:
    """Raise `BuildStopped` once the interpreter exits (before each LanceDB call)."""
    if _stopping.is_set():
        raise BuildStopped


def stoppable(reader: pa.RecordBatchReader) -> pa.RecordBatchReader:
    """A LanceDB scan that stops between batches once the interpreter exits."""
    return pa.RecordBatchReader.from_batches(reader.schema, checked(reader))


@atexit.register
def _stop_builds() -> None:
    """At exit, before Python finalizes: stop every build at its next batch, and wait."""
    _stopping.set()
    with _builders_lock:
        running = list(_builders)
    deadline = time.monotonic() + STOP_WAIT_S
    for thread in running:
        thread.join(max(0.0, deadline - time.monotonic()))


def covers(where: Filter) -> bool:
    """Whether the copy can answer a search under `where`: it keeps to the passage layers."""
    return _holds(where) and where.ids is None  # the copy is searched by filter, never by id


def _holds(where: Filter) -> bool:
    """Whether the copy holds every row `where` allows (a read by filter or by id)."""
    return where.layers is not None and set(where.layers) <= set(PASSAGE_LAYERS)


def load_passages(
    table: Any, dim: int, version: int, current: Callable[[], int]
) -> HotPassages | None:
    """The passage rows of a LanceDB `table` at `version` in memory (None: too many rows,
    or a commit came between: `current()`, the table's version now, moved on)."""
    predicate = sql.in_list("layer", PASSAGE_LAYERS)
    if table.count_rows(predicate) > MAX_ROWS:
        return None

    def take(row_ids: list[int]) -> pa.Table:
        unless_stopping()
        return table.take_row_ids(row_ids).select(["id", "vector"]).to_arrow()

    query = table.search().where(predicate).select(list(SEARCH_COLUMNS))
    try:
        scan = stoppable(query.with_row_id(True).to_batches())
        hot = HotPassages.load(scan, take if dim else None, version, dim)
    except ValueError:
        return None
    hot = dataclasses.replace(hot, bm25=passage_bm25(table, hot))
    return hot if current() == version else None


def passage_bm25(table: Any, hot: HotPassages) -> PassageBM25 | None:
    """BM25 over `hot`'s passages with the statistics of every row of `table`, if it gives
    what the full-text index gives on a few probes (else None: LanceDB answers)."""
    if stemmer() is None or len(hot) == 0:
        return None
    try:  # rows the index has not folded in are scanned by LanceDB with other statistics
        if getattr(table.index_stats("lex_idx"), "num_unindexed_rows", 1) != 0:
            return None
    except (OSError, RuntimeError, ValueError):
        return None
    probes: list[list[str]] = []

    def batches() -> Iterator[tuple[pa.Array, np.ndarray]]:
        scan = table.search().select(["lex"]).with_row_id(True).to_batches(LEX_BATCH)
        for batch in checked(scan):
            at = hot.at(batch.column("_rowid").to_numpy())
            if len(probes) < PROBES and (mine := np.flatnonzero(at >= 0)).size:
                probes.append(searchable(str(batch.column("lex")[int(mine[0])]).split()[:3]))
            yield batch.column("lex"), at

    try:
        built = PassageBM25.build(batches(), hot.row_ids)
        kept = sql.in_list("layer", PASSAGE_LAYERS)

        def theirs(words: list[str]) -> list[tuple[int, float]]:
            unless_stopping()
            query = table.search(match_query(words), query_type="fts").limit(PROBE_ROWS)
            found = query.where(kept, prefilter=True).select(["_score"]).with_row_id(True)
            got = found.to_arrow()
            return list(zip(got["_rowid"].to_pylist(), got["_score"].to_pylist(), strict=True))

        def mine(words: list[str]) -> list[tuple[int, float]]:
            top = built.top(words, PROBE_ROWS, None)
            return [(int(hot.row_ids[i]), s) for i, s in top]

        return built if agrees(mine, theirs, [p for p in probes if p]) else None
    except (OSError, RuntimeError, ValueError):  # no full-text index to compare with
        log.debug("no in-memory BM25", exc_info=True)
        return None
