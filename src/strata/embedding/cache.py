"""A persistent embedding cache keyed by (model, content hash), on SQLite in WAL mode.

Re-indexing unchanged text never re-embeds it, and an interrupted run resumes where it
stopped: `embed_with_cache` stores each batch as soon as it is embedded. Several
processes may share one cache file (WAL, with a busy timeout for writers).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from strata.embedding import Embedder
from strata.embedding.buckets import embed_bucketed
from strata.workspace.sqlite import SqliteFile

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
"""Called as `on_batch(done, total)` after each embedded batch (counts of misses)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    model TEXT NOT NULL,
    hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, hash)
) WITHOUT ROWID
"""


def model_key(embedder: Embedder) -> str:
    """The cache's model key: name and dimension, e.g. `local:all-MiniLM-L6-v2@384`."""
    return f"{embedder.name}@{embedder.dim}"


class EmbeddingCache(SqliteFile):
    """Vectors by (model, content hash) in one SQLite file."""

    WHAT = "embedding cache"
    SCHEMA = _SCHEMA

    def get_many(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors among `hashes` (misses are simply absent)."""
        rows = self._select_in(
            "SELECT hash, vector FROM vectors WHERE model = ? AND hash IN ({marks})",
            list(dict.fromkeys(hashes)),
            model,
        )
        return {digest: np.frombuffer(blob, dtype=np.float32).copy() for digest, blob in rows}

    def put_many(self, model: str, items: Mapping[str, np.ndarray]) -> None:
        """Store vectors atomically (one transaction), replacing any with the same key."""
        rows = [
            (model, digest, np.asarray(vec, dtype=np.float32).tobytes())
            for digest, vec in items.items()
        ]
        with self._transaction():
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (model, hash, vector) VALUES (?, ?, ?)", rows
            )

    def count(self, model: str) -> int:
        """How many vectors are cached for `model`."""
        (n,) = self._db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", (model,)).fetchone()
        return int(n)

    def prune(self, model: str, keep: set[str]) -> int:
        """Forget `model`'s vectors whose hash is not in `keep`; returns how many went."""
        with self._transaction():
            self._fill_temp("keep", "hash", keep)
            cursor = self._db.execute(
                "DELETE FROM vectors WHERE model = ? AND hash NOT IN (SELECT hash FROM keep)",
                (model,),
            )
        return int(cursor.rowcount)


def embed_with_cache(
    embedder: Embedder,
    cache: EmbeddingCache,
    texts_by_hash: Mapping[str, str],
    batch_size: int,
    on_batch: Progress | None = None,
) -> dict[str, np.ndarray]:
    """Vectors for every text, embedding only those the cache lacks.

    Each batch is stored as soon as it is embedded, so a run that fails half-way keeps
    what it did and the next run embeds only the rest.

    Args:
        embedder: the model; its `name` and `dim` form the cache key.
        cache: where vectors are looked up and stored.
        texts_by_hash: text to embed under its content hash.
        batch_size: texts per `embed_documents` call (at least 1).
        on_batch: progress callback, `on_batch(done, total)` over the misses.

    Raises:
        EmbedderError: the embedder failed or returned the wrong number of vectors.
    """
    if not texts_by_hash:
        return {}
    key = model_key(embedder)
    found = cache.get_many(key, list(texts_by_hash))
    misses = [h for h in texts_by_hash if h not in found]
    log.info("embedding %d of %d texts (%d cached)", len(misses), len(texts_by_hash), len(found))
    done = 0

    def keep(batch: list[int], vectors: np.ndarray) -> None:
        nonlocal done
        fresh = {misses[i]: v for i, v in zip(batch, vectors, strict=True)}
        cache.put_many(key, fresh)
        found.update(fresh)
        done += len(batch)
        if on_batch is not None:
            on_batch(done, len(misses))

    # Similar token lengths share a batch: less padding, so the model does less per text.
    embed_bucketed(embedder, [texts_by_hash[h] for h in misses], batch_size, keep)
    return {h: found[h] for h in texts_by_hash}
