"""Exact vector search from memory, for a process that searches again and again.

LanceDB's flat vector scan costs tens of milliseconds at 30k rows (and an IVF_PQ index
trades recall for speed past 100k). A warm process — `strata serve`, an API user, a
benchmark — keeps the passage layers' vectors in one float32 matrix instead, with the columns a
`Filter` restricts, and answers with one matrix product: the same cosine scores as the
flat scan, in a few milliseconds. The matrix belongs to one table version; any commit
makes it stale, and the store goes back to LanceDB until it is rebuilt.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from strata.store import Filter

__all__ = ["MAX_ROWS", "HotVectors", "WarmVectors"]

log = logging.getLogger(__name__)

# 150k x 384 float32 is ~230 MB: past that the ANN index is the better trade.
MAX_ROWS = 150_000
COLUMNS = ("id", "layer", "lang", "kind", "path", "repo_id", "is_test", "vector")
_FILTERED = (("layers", "layer"), ("langs", "lang"), ("kinds", "kind"), ("paths", "path"))


@dataclass(frozen=True, slots=True)
class HotVectors:
    """The stored vectors of the passage layers (C0, D0) at one table version, unit rows,
    with the columns a filter restricts."""

    version: int
    ids: np.ndarray
    row_ids: np.ndarray  # LanceDB row ids of this version: rows are taken, not searched for
    matrix: np.ndarray
    columns: dict[str, np.ndarray]  # integer codes per row (is_test: booleans)
    codes: dict[str, dict[str, int]]  # column -> value -> code

    @classmethod
    def from_arrow(cls, table: Any, version: int, dim: int) -> HotVectors:
        """Build from an Arrow table with `COLUMNS` and `_rowid` (rows that have a vector)."""
        vectors = table.column("vector").combine_chunks()
        flat = vectors.values.to_numpy(zero_copy_only=False)
        flat = flat[vectors.offset * dim : (vectors.offset + len(vectors)) * dim]
        matrix = np.array(flat.reshape(-1, dim), dtype=np.float32)  # a writable copy
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        np.divide(matrix, norms, out=matrix, where=norms > 0)
        columns: dict[str, np.ndarray] = {}
        codes: dict[str, dict[str, int]] = {}
        for name in ("layer", "lang", "kind", "path", "repo_id"):
            values = np.asarray([v or "" for v in table.column(name).to_pylist()], dtype=object)
            names, columns[name] = np.unique(values, return_inverse=True)
            codes[name] = {str(v): i for i, v in enumerate(names)}
        columns["is_test"] = np.asarray(table.column("is_test").to_pylist(), dtype=bool)
        ids = np.asarray(table.column("id").to_pylist(), dtype=object)
        row_ids = np.asarray(table.column("_rowid").to_numpy(), dtype=np.uint64)
        return cls(version, ids, row_ids, matrix, columns, codes)

    @property
    def nbytes(self) -> int:
        """Memory held by the matrix."""
        return int(self.matrix.nbytes)

    def top(self, query: np.ndarray, limit: int, where: Filter) -> list[tuple[int, float]]:
        """Up to `limit` (row index, cosine) pairs allowed by `where`, best first."""
        if limit <= 0 or len(self.ids) == 0:
            return []
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            return []
        scores = self.matrix @ (np.asarray(query, dtype=np.float32) / norm)
        mask = self._mask(where)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
            allowed = int(mask.sum())
        else:
            allowed = len(scores)
        n = min(limit, allowed)
        if n == 0:
            return []
        best = np.argpartition(-scores, n - 1)[:n] if n < len(scores) else np.arange(len(scores))
        best = best[np.argsort(-scores[best], kind="stable")]
        return [(int(i), float(scores[i])) for i in best if np.isfinite(scores[i])]

    def _is_in(self, column: str, values: Sequence[str]) -> np.ndarray:
        known = self.codes[column]
        wanted = [known[v] for v in values if v in known]
        return np.isin(self.columns[column], np.asarray(wanted, dtype=np.intp))

    def _mask(self, where: Filter) -> np.ndarray | None:
        mask: np.ndarray | None = None
        for field, column in _FILTERED:
            wanted: Sequence[str] | None = getattr(where, field)
            if wanted is not None:
                mask = _and(mask, self._is_in(column, wanted))
        if where.is_test is not None:
            mask = _and(mask, self.columns["is_test"] == where.is_test)
        if where.repo_id is not None:
            mask = _and(mask, self._is_in("repo_id", [where.repo_id]))
        if where.has_vector is False:
            mask = np.zeros(len(self.ids), dtype=bool)
        return mask


class WarmVectors:
    """When a store keeps its vectors in memory.

    The first vector search at a table version goes to LanceDB (a one-shot CLI run never
    pays for a copy); the second starts building the copy in a background thread; later
    ones use it. A commit by anyone makes the copy stale until it is rebuilt.
    """

    def __init__(
        self, load: Callable[[int], HotVectors | None], version: Callable[[], int]
    ) -> None:
        self._load = load
        self._version = version
        self._hot: HotVectors | None = None
        self._asked = (-1, 0)  # (table version, vector searches at it)
        self._building = False
        self._failed = -1  # a version whose copy could not be built: LanceDB answers it
        self._lock = threading.Lock()

    def get(self) -> HotVectors | None:
        """The copy for the current version, if there is one (maybe starting a build)."""
        version = self._version()
        with self._lock:
            hot = self._hot
            if hot is not None and hot.version == version:
                return hot
            seen = self._asked[1] + 1 if self._asked[0] == version else 1
            self._asked = (version, seen)
            if seen < 2 or self._building or self._failed == version:
                return None
            self._building = True
        threading.Thread(target=self._build, args=(version,), daemon=True).start()
        return None

    def wait(self, timeout: float) -> bool:
        """Block until no build is running (tests and benchmarks); True if none is."""
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._building:
                    return True
            time.sleep(0.01)
        return False

    def _build(self, version: int) -> None:
        try:
            hot = self._load(version)
            if hot is not None:
                with self._lock:
                    self._hot = hot
                log.debug("%d vectors in memory (%d MB)", len(hot.ids), hot.nbytes >> 20)
        except Exception:  # a background nicety: LanceDB goes on answering
            log.debug("building the in-memory vectors failed", exc_info=True)
            with self._lock:
                self._failed = version
        finally:
            with self._lock:
                self._building = False


def _and(mask: np.ndarray | None, more: np.ndarray) -> np.ndarray:
    return more if mask is None else mask & more
