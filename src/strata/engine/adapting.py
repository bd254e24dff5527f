"""An index's query adapter (`embedding/adapter`): fitted at the end of an index run from
the documented symbols and the documentation sections in the store, kept beside it as
`query_adapter.npy` (the code map and the docs map, stacked), and read by each search
(again when the file changes: a warm server follows the watcher's runs)."""

from __future__ import annotations

import logging
import os
import threading
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from strata.embedding import adapter
from strata.embedding.cache import EmbeddingCache, embed_with_cache
from strata.errors import EmbedderError
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG, D0_DOC_CHUNKS
from strata.store import Filter, Store
from strata.types import Record, Vector, content_hash

if TYPE_CHECKING:
    from strata.engine.parts import Parts

__all__ = ["FILE_NAME", "Fitted", "loader", "refit"]

log = logging.getLogger(__name__)

FILE_NAME = "query_adapter.npy"

Report = Callable[[str, int, int, str], None] | None


class Fitted(NamedTuple):
    """What an adapter was fitted on: documented symbols (its code map) and documentation
    sections (its docs map); 0 for a kind with too few to fit one."""

    symbols: int
    sections: int


def refit(parts: Parts, progress: Report = None) -> Fitted | None:
    """Fit the adapter's two maps, code and docs (`embedding/adapter`), on the index's
    documented symbols and documentation sections and write them, or remove an old adapter
    when neither kind has `adapter.MIN_PAIRS`; returns what it was fitted on, or None when it
    was not refitted (turned off, no embedder, or the embedder did not answer: a search
    keeps the adapter it had)."""
    path = parts.index_dir / FILE_NAME
    if not parts.embeds or parts.config.search.adapter <= 0:
        return None
    matched = _documented(parts.store)
    code = adapter.pairs(matched) if len(matched) >= adapter.MIN_PAIRS else []
    each = [adapter.section_pairs([s]) for s in _sections(parts.store)]  # a section's pairs
    docs = [pair for pairs in each for pair in pairs]
    docs = docs if len(docs) >= adapter.MIN_PAIRS else []
    if not code and not docs:
        path.unlink(missing_ok=True)
        return Fitted(0, 0)
    texts = {content_hash(t): t for pair in code + docs for t in pair}

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
    dim = len(next(iter(vecs.values())))
    maps = np.stack([_fit(found, vecs, dim) for found in (code, docs)])
    tmp = path.with_suffix(".tmp.npy")
    try:
        np.save(tmp, maps)
        os.replace(tmp, path)
    except OSError as exc:  # a full disk: the rows are written, the old adapter stays
        log.warning("query adapter not written to %s: %s", path, exc)
        return None
    fitted = Fitted(len(matched) if code else 0, sum(1 for pairs in each if pairs) if docs else 0)
    log.info(
        "query adapter fitted on %d documented symbols (%d pairs) and %d doc sections (%d pairs)",
        fitted.symbols, len(code), fitted.sections, len(docs),
    )  # fmt: skip
    return fitted


def _documented(store: Store) -> list[tuple[str, Record]]:
    """(summary, its chunk) of the index's documented symbols (`adapter.matches`)."""
    symbols = store.fetch(Filter(layers=(C1_SYMBOL_CATALOG,)), vectors=False)
    documented = adapter.candidates(symbols)
    chunks: dict[str, list[Record]] = defaultdict(list)
    if len(documented) >= adapter.MIN_PAIRS:
        paths = tuple(sorted({s.path for s in documented}))
        for rec in store.fetch(Filter(layers=(C0_SOURCE_CHUNKS,), paths=paths)):
            chunks[rec.path].append(rec)
    return adapter.matches(documented, chunks)


def _sections(store: Store) -> list[Record]:
    """The sampled documentation sections (`adapter.sections`), each with the text its
    vector was embedded from (a lookup's read leaves that out)."""
    sampled = adapter.sections(store.fetch(Filter(layers=(D0_DOC_CHUNKS,)), vectors=False))
    if not sampled:
        return []
    ids = tuple(s.id for s in sampled)
    return store.fetch(Filter(layers=(D0_DOC_CHUNKS,), ids=ids))


def _fit(found: list[tuple[str, str]], vecs: dict[str, Vector], dim: int) -> np.ndarray:
    """One kind's map over its pairs (no pairs: `adapter.no_map`)."""
    if not found:
        return adapter.no_map(dim)
    x = np.stack([vecs[content_hash(s)] for s, _ in found])
    y = np.stack([vecs[content_hash(t)] for _, t in found])
    return adapter.fit(x, y)


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
