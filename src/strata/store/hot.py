"""The passage layers in memory, for a process that searches again and again.

A warm query must not wait on the store for what it already read: LanceDB's flat vector
scan costs tens of milliseconds at 30k rows, and taking 50 hit rows back by id another
five. A warm process — `strata serve`, an API user, a benchmark — keeps one snapshot of
the passage layers (C0, D0) instead: their search columns as Arrow, their vectors in one
float32 matrix, and the columns a `Filter` restricts as integer codes. Vector search is
one matrix product (the same cosine scores as the flat scan); BM25 is the passages'
postings (`strata.store.bm25`, the full-text index's scores), or else LanceDB's FTS
returning row ids only, and hits are cut from the snapshot. The snapshot belongs to one
table version; any commit makes it stale, and the store answers from LanceDB until it
is rebuilt (`strata.store.warm`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from strata.store import Filter, Hits, scan
from strata.store.arrow import SEARCH_COLUMNS, Coded, code_repeated, take_records
from strata.store.bm25 import PassageBM25
from strata.store.scan import Int8Rows
from strata.types import Record

__all__ = ["MAX_ROWS", "HotPassages"]

# 150k rows: ~230 MB of vectors plus their text; past that the ANN index is the better trade.
MAX_ROWS = 150_000
# Vectors taken per call while a copy is built.
TAKE_ROWS = 1024
_CODED = ("layer", "lang", "kind", "path", "repo_id", "branches")
_FILTERED = (("layers", "layer"), ("langs", "lang"), ("kinds", "kind"), ("paths", "path"))


@dataclass(frozen=True, slots=True)
class HotPassages:
    """The rows of the passage layers at one table version: search columns, unit vectors
    (zero rows where none is stored yet) and coded filter columns."""

    version: int
    table: pa.Table  # SEARCH_COLUMNS, one row per passage
    row_ids: np.ndarray  # LanceDB row ids of this version, per row
    matrix: np.ndarray
    has_vector: np.ndarray
    columns: dict[str, np.ndarray]  # integer codes per row (is_test: booleans)
    codes: dict[str, dict[str, int]]  # column -> value -> code
    _by_row_id: np.ndarray  # positions sorting `row_ids`
    repeated: dict[str, Coded]  # REPEATED_COLUMNS, kept out of `table` (`code_repeated`)
    bm25: PassageBM25 | None = None  # set once it answers as the full-text index does
    every_vector: bool = False  # every row has one: a vector search needs no mask of its own
    int8: Int8Rows | None = None  # the vectors' int8 copy, for the scan's first pass

    @classmethod
    def load(
        cls,
        rows: pa.RecordBatchReader,
        vectors: Callable[[list[int]], pa.Table] | None,
        version: int,
        dim: int,
    ) -> HotPassages:
        """Build from a scan of `SEARCH_COLUMNS` and `_rowid` of one version, and a way to
        take `id` and `vector` by row ids (None when `dim` is 0). Vectors are taken a
        slice at a time into one preallocated matrix: a scan that reads them with the rows
        buffers twice their size.

        Raises:
            ValueError: the rows taken are not the rows scanned (a commit came between).
        """
        parts: dict[str, list[pa.Array]] = {f.name: [] for f in rows.schema}
        for batch in rows:
            for name, chunks in parts.items():
                chunks.append(batch.column(name))
        # One chunk per column: taking rows from one is ~100x faster than from many.
        table = pa.table({f.name: _joined(parts.pop(f.name), f.type) for f in rows.schema})
        row_ids = np.asarray(table.column("_rowid").to_numpy(), dtype=np.uint64)
        matrix = np.zeros((len(row_ids), dim), dtype=np.float32)
        for start in range(0, len(row_ids) if vectors else 0, TAKE_ROWS):
            wanted = row_ids[start : start + TAKE_ROWS]
            taken = vectors([int(r) for r in wanted]) if vectors else None
            if taken is None or not taken.column("id").equals(
                table.column("id").slice(start, len(wanted))
            ):
                raise ValueError("the rows taken are not the rows scanned")
            _copy_vectors(taken.column("vector"), matrix[start : start + len(wanted)], dim)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        np.divide(matrix, norms, out=matrix, where=norms > 0)
        rest, repeated = code_repeated(table.select(list(SEARCH_COLUMNS)))
        columns: dict[str, np.ndarray] = {}
        codes: dict[str, dict[str, int]] = {}
        for name in _CODED:  # all repeated: their filter codes come from the same encoding
            columns[name], codes[name] = _filter_codes(*repeated[name])
        columns["is_test"] = pc.fill_null(table.column("is_test"), False).to_numpy()
        by_row_id = np.argsort(row_ids, kind="stable")
        has_vector = norms[:, 0] > 0
        int8 = Int8Rows.build(matrix) if dim and len(row_ids) >= scan.INT8_ROWS else None
        return cls(
            version, rest, row_ids, matrix, has_vector, columns, codes, by_row_id, repeated,
            every_vector=bool(has_vector.all()), int8=int8,
        )  # fmt: skip

    def __len__(self) -> int:
        return int(self.table.num_rows)

    @property
    def nbytes(self) -> int:
        """Memory held by the snapshot's arrays."""
        return int(self.matrix.nbytes + self.table.nbytes + self.row_ids.nbytes)

    def top(self, query: np.ndarray, limit: int, where: Filter) -> list[tuple[int, float]]:
        """Up to `limit` (position, cosine) pairs with a vector, allowed by `where`, best first."""
        if limit <= 0 or len(self) == 0:
            return []
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            return []
        unit = np.asarray(query, dtype=np.float32) / norm
        mask = self._mask(where) if self.every_vector else _and(self._mask(where), self.has_vector)
        return scan.top(self.matrix, self.int8, unit, limit, mask)

    def lexical(self, words: Sequence[str], limit: int, where: Filter) -> Hits | None:
        """BM25 from memory, as the full-text index ranks (None: not kept here)."""
        if self.bm25 is None:
            return None
        return self.hits(self.bm25.top(words, limit, self._searched(where)))

    def hits(self, found: Sequence[tuple[int, float]]) -> Hits:
        """(position, score) pairs as the store's hits: (record, score)."""
        return list(zip(self.records([i for i, _ in found]), [s for _, s in found], strict=True))

    def at(self, row_ids: np.ndarray) -> np.ndarray:
        """Per LanceDB row id, its position in the snapshot, or -1 when it holds none."""
        if len(self) == 0:
            return np.full(len(row_ids), -1, dtype=np.intp)
        wanted = np.asarray(row_ids, dtype=np.uint64)
        found = self._by_row_id[
            np.minimum(np.searchsorted(self.row_ids, wanted, sorter=self._by_row_id), len(self) - 1)
        ]
        return np.where(self.row_ids[found] == wanted, found, -1).astype(np.intp)

    def positions(self, row_ids: Sequence[int]) -> np.ndarray | None:
        """The snapshot positions of LanceDB row ids; None if one is not in this snapshot."""
        found = self.at(np.asarray(row_ids, dtype=np.uint64))
        return None if (found < 0).any() else found

    def records(self, positions: Sequence[int] | np.ndarray) -> list[Record]:
        """The records at `positions`, in that order."""
        if len(positions) == 0:
            return []
        return take_records(self.table, positions, self.repeated)

    def select(self, where: Filter) -> list[Record]:
        """The records `where` allows, in path, span (missing first), layer and id order:
        `Store.fetch` without vectors, cut from the copy."""
        return sorted(self.records(self._allowed(where)), key=_fetch_order)

    def columns_of(self, where: Filter, names: Sequence[str]) -> pa.Table | None:
        """Columns of the rows `where` allows, in no set order (None: one is not kept)."""
        at = self._allowed(where)
        out: dict[str, pa.Array] = {}
        for name in names:
            if name in self.repeated:
                codes, values = self.repeated[name]
                out[name] = pa.array([values[i] for i in codes[at].tolist()], pa.string())
            elif name in self.table.column_names:
                out[name] = self.table.column(name).take(pa.array(at))
            else:
                return None
        return pa.table(out)

    def _allowed(self, where: Filter) -> np.ndarray:
        mask = self._searched(where)
        if where.ids is None:
            return np.arange(len(self)) if mask is None else np.flatnonzero(mask)
        wanted = pa.array(list(where.ids), pa.string())
        if mask is None:
            listed = pc.is_in(self.table.column("id"), wanted)
            return np.flatnonzero(listed.to_numpy(zero_copy_only=False))
        # The other filters first (a few files' rows, for a lookup), then their ids only.
        at = np.flatnonzero(mask)
        listed = pc.is_in(self.table.column("id").take(pa.array(at)), wanted)
        kept: np.ndarray = at[listed.to_numpy(zero_copy_only=False)]
        return kept

    def _searched(self, where: Filter) -> np.ndarray | None:
        """The rows `where`'s filters and `has_vector` allow (None: every row)."""
        mask = self._mask(where)
        return _and(mask, self.has_vector) if where.has_vector else mask

    def _is_in(self, column: str, values: Sequence[str]) -> np.ndarray | None:
        """Rows whose `column` holds one of `values` (None: every row's does, as for the
        layers of a search over all passages: no pass over the rows)."""
        known = self.codes[column]
        wanted = {known[v] for v in values if v in known}
        if len(wanted) == len(known):
            return None
        allowed = np.zeros(len(known), dtype=bool)  # a lookup per code: no sort of the rows
        allowed[list(wanted)] = True
        rows: np.ndarray = allowed[self.columns[column]]
        return rows

    def _mask(self, where: Filter) -> np.ndarray | None:
        mask: np.ndarray | None = None
        for field, column in _FILTERED:
            wanted: Sequence[str] | None = getattr(where, field)
            if wanted is not None:
                mask = _narrowed(mask, self._is_in(column, wanted))
        if where.is_test is not None:
            mask = _and(mask, self.columns["is_test"] == where.is_test)
        if where.repo_id is not None:
            mask = _narrowed(mask, self._is_in("repo_id", [where.repo_id]))
        if where.branch is not None:  # the stored values holding the branch's name
            held = [v for v in self.codes["branches"] if where.branch in v.split()]
            mask = _narrowed(mask, self._is_in("branches", held))
        if where.has_vector is False:
            mask = np.zeros(len(self), dtype=bool)
        return mask


def _copy_vectors(column: pa.Array | pa.ChunkedArray, out: np.ndarray, dim: int) -> None:
    """Fill `out` with a fixed-size-list column's rows; null rows stay zero."""
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    at = 0
    for chunk in chunks:
        n = len(chunk)
        flat = chunk.values.to_numpy(zero_copy_only=False)
        flat = flat[chunk.offset * dim : (chunk.offset + n) * dim].reshape(n, dim)
        valid = chunk.is_valid().to_numpy(zero_copy_only=False)
        out[at : at + n][valid] = flat[valid]
        at += n


def _filter_codes(indices: np.ndarray, values: list[Any]) -> tuple[np.ndarray, dict[str, int]]:
    """Per row a filter code, and the codes by value, for a column coded by
    `code_repeated`; a null counts as "" (what a filter on it would name). Only values
    some row holds get a code: a filter naming all of them is no filter (`_is_in`)."""
    codes: dict[str, int] = {}
    held = np.zeros(len(values), dtype=bool)
    held[indices] = True
    remap = [
        codes.setdefault("" if v is None else str(v), len(codes)) if held[i] else -1
        for i, v in enumerate(values)
    ]
    return np.asarray(remap, dtype=np.intp)[indices], codes


def _joined(chunks: list[pa.Array], kind: pa.DataType) -> pa.Array:
    if not chunks:
        return pa.array([], type=kind)
    joined = pa.concat_arrays(chunks)
    chunks.clear()
    return joined


def _fetch_order(r: Record) -> tuple[str, bool, int, str, str]:
    return (r.path, r.span_start is not None, r.span_start or 0, r.layer, r.id)


def _and(mask: np.ndarray | None, more: np.ndarray) -> np.ndarray:
    return more if mask is None else mask & more


def _narrowed(mask: np.ndarray | None, more: np.ndarray | None) -> np.ndarray | None:
    return mask if more is None else _and(mask, more)
