"""An index's query adapter (`embedding/adapter`): fitted at the end of an index run from
the documented symbols in the store, kept beside it as `query_adapter.npy`, and read by
each search (again when the file changes: a warm server follows the watcher's runs)."""

from __future__ import annotations

import logging
import os
import threading
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from strata.embedding import adapter
from strata.embedding.cache import EmbeddingCache, embed_with_cache
from strata.errors import EmbedderError
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG
from strata.store import Filter
from strata.types import Record, content_hash

if TYPE_CHECKING:
    from strata.engine.parts import Parts

__all__ = ["FILE_NAME", "loader", "refit"]

log = logging.getLogger(__name__)

FILE_NAME = "query_adapter.npy"

Report = Callable[[str, int, int, str], None] | None


def refit(parts: Parts, progress: Report = None) -> int | None:
    """Fit the adapter on the index's documented symbols and write it, or remove an old one
    when there are fewer than `adapter.MIN_PAIRS` of them; returns the symbols it was
    fitted on (0: none), or None when it was not refitted (turned off, no embedder, or the
    embedder did not answer: a search keeps the adapter it had)."""
    path = parts.index_dir / FILE_NAME
    if not parts.embeds or parts.config.search.adapter <= 0:
        return None
    store = parts.store
    symbols = store.fetch(Filter(layers=(C1_SYMBOL_CATALOG,)), vectors=False)
    documented = adapter.candidates(symbols)
    chunks: dict[str, list[Record]] = defaultdict(list)
    if len(documented) >= adapter.MIN_PAIRS:
        paths = tuple(sorted({s.path for s in documented}))
        for rec in store.fetch(Filter(layers=(C0_SOURCE_CHUNKS,), paths=paths)):
            chunks[rec.path].append(rec)
    matched = adapter.matches(documented, chunks)
    if len(matched) < adapter.MIN_PAIRS:
        path.unlink(missing_ok=True)
        return 0
    found = adapter.pairs(matched)
    texts = {content_hash(t): t for pair in found for t in pair}

    def report(done: int, total: int) -> None:
        if progress is not None:
            progress("adapt", done, total, "")

    try:
        with EmbeddingCache(parts.index_dir / "embed_cache.sqlite") as cache:
            vecs = embed_with_cache(
                parts.embedder(), cache, texts, parts.config.embed.batch_size, on_batch=report
            )
    except EmbedderError as exc:
        log.warning("query adapter not refitted: %s", exc.message)
        return None
    x = np.stack([vecs[content_hash(s)] for s, _ in found])
    y = np.stack([vecs[content_hash(t)] for _, t in found])
    tmp = path.with_suffix(".tmp.npy")
    try:
        np.save(tmp, adapter.fit(x, y))
        os.replace(tmp, path)
    except OSError as exc:  # a full disk: the rows are written, the old adapter stays
        log.warning("query adapter not written to %s: %s", path, exc)
        return None
    log.info("query adapter fitted on %d documented symbols (%d pairs)", len(matched), len(found))
    return len(matched)


class _Loaded:
    """One index's adapter, read again when its file changes (stat per search: ~2 us)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._matrix: np.ndarray | None = None

    def __call__(self) -> np.ndarray | None:
        try:
            st = self._path.stat()
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        with self._lock:
            if stamp != self._stamp:
                try:
                    self._matrix = np.load(self._path)
                except (OSError, ValueError) as exc:
                    log.warning("query adapter %s unreadable (%s): not used", self._path, exc)
                    self._matrix = None
                self._stamp = stamp
            return self._matrix


_LOADERS: dict[Path, _Loaded] = {}


def loader(index_dir: Path) -> Callable[[], np.ndarray | None]:
    """The adapter of the index at `index_dir` as a search reads it (None: none fitted)."""
    path = index_dir / FILE_NAME
    return _LOADERS.setdefault(path, _Loaded(path))
