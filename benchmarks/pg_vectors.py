"""The synthetic load's vectors and query vectors (`benchmarks.pg_load synthetic`): real
embeddings, each copy of the set turned by a random rotation of its own, and the hybrid
search timed over them."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.store_speed import QUERIES, timed
from strata.store import Filter

__all__ = [
    "BATCH",
    "DIM",
    "Vectors",
    "hybrid_figures",
    "queries",
    "real_vectors",
    "rotation",
    "timed",
]

log = logging.getLogger("pg_load")
DIM = 384
BATCH = 5000


def real_vectors(paths: list[Path]) -> np.ndarray:
    """Every distinct vector of the one model in these embedding caches, unit length."""
    found: dict[bytes, None] = {}
    for path in paths:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            for (blob,) in db.execute("SELECT vector FROM vectors"):
                if len(blob) == DIM * 4:
                    found[blob] = None
    matrix = np.stack([np.frombuffer(b, dtype=np.float32) for b in found])
    unit: np.ndarray = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return unit


def rotation(k: int) -> np.ndarray:
    """A random orthogonal matrix (the identity for k = 0), the same for the same k."""
    if k == 0:
        return np.eye(DIM, dtype=np.float32)
    q, r = np.linalg.qr(np.random.default_rng(1000 + k).normal(size=(DIM, DIM)))
    return (q * np.sign(np.diag(r))).astype(np.float32)


class Vectors:
    """Row `j`'s vector: a real embedding, each copy of the set turned by a rotation of its
    own (the geometry of real text, at any size), or a random unit vector when no real
    ones are given. The same for the same `j` in every process."""

    def __init__(self, base: np.ndarray | None) -> None:
        self.base = base
        self.size = BATCH if base is None else len(base)
        self._k, self._turned = -1, np.empty((0, DIM), dtype=np.float32)

    def __call__(self, j: int) -> np.ndarray:
        k, i = divmod(j, self.size)
        if k != self._k:
            if self.base is None:
                block = np.random.default_rng(k).normal(size=(self.size, DIM))
                block /= np.linalg.norm(block, axis=1, keepdims=True)
                self._k, self._turned = k, block.astype(np.float32)
            else:
                self._k, self._turned = k, self.base @ rotation(k).T
        row: np.ndarray = self._turned[i]
        return row


def queries(base: np.ndarray | None, held: np.ndarray | None, rows: int) -> np.ndarray:
    """50 query vectors from the rows' own distribution: held-out real embeddings turned
    by the rotation of a random copy (or random unit vectors)."""
    rng = np.random.default_rng(7)
    if base is None or held is None:
        q = rng.normal(size=(50, DIM)).astype(np.float32)
        unit: np.ndarray = q / np.linalg.norm(q, axis=1, keepdims=True)
        return unit
    copies = max(1, rows // len(base))
    return np.stack([h @ rotation(int(rng.integers(copies))).T for h in held[:50]])


class QueryVectors:
    """The query embedder of the synthetic load: query `i` of the lexical set gets the
    `i`-th held-out query vector (the rows' vectors are rotated embeddings, not the model's
    of their text, so a query is paired with a vector of their distribution)."""

    name = "synthetic"
    dim = DIM

    def __init__(self, qs: np.ndarray) -> None:
        self.by_text = {" ".join(t): qs[i % len(qs)] for i, t in enumerate(QUERIES)}

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        raise NotImplementedError("the synthetic load embeds no documents")

    def embed_query(self, text: str) -> np.ndarray:
        vec: np.ndarray = self.by_text[text]
        return vec


def hybrid_figures(store: Any, qs: np.ndarray) -> dict[str, Any]:
    """p50/p95 of the engine's own hybrid search (`Searcher`: BM25 and the vector scan at
    once, `search.candidates` each, fused and re-ranked), k = 10, unfiltered and `is_test`."""
    from strata.config import load_config
    from strata.query.hybrid import QueryContext, Searcher

    vectors = QueryVectors(qs)
    searcher = Searcher(QueryContext(store, load_config(env={}), lambda: vectors))
    texts = [" ".join(t) for t in QUERIES]
    it = iter(range(10**9))
    out = {}
    for name, where in (("hybrid_ms", Filter()), ("hybrid_is_test_ms", Filter(is_test=True))):
        out[name] = timed(
            lambda w=where: searcher.search(texts[next(it) % 10], k=10, mode="hybrid", where=w),
            30,
        )
        log.info("%s: %s", name, out[name])
    return out
