"""The row format of every store: the columns, `Record` <-> Arrow rows, prepared writes.

Every backend stores the same columns (shared/spec/layers.md plus Strata's own);
`lex` is derived on write from title, path and content by `strata.text.tokens`, so the
lexical index always sees the same tokens as the query side. The write side prepares
rows in this format (`prepare`, in its workers) and a backend that takes them as they
are (`PreparedWrites`) only commits them; for any other, `to_records` turns them back.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from strata.errors import StoreError
from strata.store.core import PerSource
from strata.store.sql import decode_branches, encode_branches
from strata.text.tokens import lexical_text
from strata.types import Record, Vector

_BASE_FIELDS: tuple[pa.Field, ...] = (
    pa.field("id", pa.string(), nullable=False),
    pa.field("session_id", pa.string()),
    pa.field("repo_id", pa.string()),
    pa.field("commit_sha", pa.string()),
    pa.field("path", pa.string(), nullable=False),
    pa.field("layer", pa.string(), nullable=False),
    pa.field("title", pa.string()),
    pa.field("content", pa.string()),
    pa.field("lang", pa.string()),
    pa.field("span_start", pa.int32()),
    pa.field("span_end", pa.int32()),
    pa.field("metadata", pa.string()),
    pa.field("file_hash", pa.string()),
    pa.field("kind", pa.string()),
    pa.field("is_test", pa.bool_()),
    pa.field("content_hash", pa.string()),
    pa.field("embed_text", pa.string()),
    pa.field("file_size", pa.int64()),
    pa.field("file_mtime_ns", pa.int64()),
    pa.field("lex", pa.string()),
    pa.field("branches", pa.string()),  # " main release/2 " (see `strata.store.branches`)
)

# Columns a Record is rebuilt from (everything but the derived `lex` and the vector).
RECORD_COLUMNS: tuple[str, ...] = tuple(f.name for f in _BASE_FIELDS if f.name != "lex")
# What a search hit is rebuilt from: no `embed_text` (a hit shows `content`; the embedder's
# text is as long again and nobody reads it back).
SEARCH_COLUMNS: tuple[str, ...] = tuple(c for c in RECORD_COLUMNS if c != "embed_text")


def table_schema(dim: int) -> pa.Schema:
    """The Arrow schema of `chunks`; with `dim > 0` also `vector` and `has_vector`."""
    fields = list(_BASE_FIELDS)
    if dim > 0:
        fields.append(pa.field("vector", pa.list_(pa.float32(), dim)))
        fields.append(pa.field("has_vector", pa.bool_(), nullable=False))
    return pa.schema(fields)


def vector_dim(schema: pa.Schema) -> int:
    """The vector width a stored schema was built for (0 when it has no vector column)."""
    if "vector" not in schema.names:
        return 0
    return int(schema.field("vector").type.list_size)


def check_vector(vector: Vector, dim: int, what: str) -> np.ndarray[Any, np.dtype[np.float32]]:
    """`vector` as a flat float32 array of width `dim`, or a StoreError naming `what`."""
    arr = np.asarray(vector, dtype=np.float32).reshape(-1)
    if arr.shape[0] != dim:
        raise StoreError(f"{what}: vector has {arr.shape[0]} dimensions, the index uses {dim}")
    if not np.all(np.isfinite(arr)):
        raise StoreError(f"{what}: vector contains NaN or infinity")
    return arr


def query_vector(vector: Vector, dim: int, limit: int) -> np.ndarray[Any, Any] | None:
    """A query vector checked against the width `dim`; None when there is nothing to look
    for: no vectors in the index, no hits wanted, or the zero vector (no direction)."""
    if dim == 0 or limit <= 0:
        return None
    query = check_vector(vector, dim, "query")
    return query if np.any(query) else None


def vector_array(vectors: Sequence[Vector | None], dim: int, ids: Sequence[str]) -> pa.Array:
    """A nullable `fixed_size_list<float32>[dim]` array (None -> null)."""
    flat = np.zeros((len(vectors), dim), dtype=np.float32)
    missing = np.ones(len(vectors), dtype=bool)
    for i, (vec, rid) in enumerate(zip(vectors, ids, strict=True)):
        if vec is not None:
            flat[i] = check_vector(vec, dim, rid)
            missing[i] = False
    values = pa.array(flat.reshape(-1), type=pa.float32())
    return pa.FixedSizeListArray.from_arrays(values, dim, mask=pa.array(missing))


def to_arrow(records: Sequence[Record], dim: int, *, vectors: bool = True) -> pa.Table:
    """Rows of `chunks` for `records`, with `lex` computed and vectors validated
    (`vectors=False`: no `vector` column, every `has_vector` false; see `prepare`)."""
    data: dict[str, Any] = {
        name: [json.dumps(dict(r.metadata)) for r in records]
        if name == "metadata"
        else [getattr(r, name) for r in records]
        for name in RECORD_COLUMNS
    }
    if "branches" in data:
        data["branches"] = [encode_branches(r.branches) for r in records]
    data["lex"] = [lexical_text(r.title, r.path, r.content) for r in records]
    schema = table_schema(dim)
    if dim > 0 and vectors:
        data["vector"] = vector_array([r.vector for r in records], dim, [r.id for r in records])
        data["has_vector"] = [r.vector is not None for r in records]
    elif dim > 0:
        data["has_vector"] = [False] * len(records)
        schema = schema.remove(schema.get_field_index("vector"))
    return pa.table(data, schema=schema)


def to_records(table: pa.Table, given: Mapping[str, Sequence[Any]] | None = None) -> list[Record]:
    """Records rebuilt from rows of `chunks` (vectors included when the column is there);
    `given` holds a column's values per row when the caller keeps them outside `table`.
    Column by column: a search builds 100 records per query, and a dict per row cost a
    fifth of that time."""
    given = given or {}
    n = table.num_rows
    cols: dict[str, list[Any]] = {
        name: table.column(name).to_pylist()
        for name in RECORD_COLUMNS
        if name in table.column_names and name not in given
    }
    cols.update({key: list(values) for key, values in given.items()})
    meta = cols.get("metadata")
    raw = meta if meta is not None else [None] * n
    cols["metadata"] = [json.loads(m) if m else {} for m in raw]  # a dict of its own per row
    if "branches" in cols:
        cols["branches"] = [decode_branches(b) for b in cols["branches"]]
    for key in _TEXT_COLUMNS:
        if key in cols:
            cols[key] = [v or "" for v in cols[key]]
    shared: dict[str, str] = {}  # one string object per repeated value: lookups hold 100k rows
    for key in REPEATED_COLUMNS:
        if key in cols and key not in given:
            cols[key] = [v if v is None else shared.setdefault(v, v) for v in cols[key]]
    cols["vector"] = _vectors(table) if "vector" in table.column_names else [None] * n
    for name, default in _DEFAULTS.items():  # a column not kept: its default, every row
        if name not in cols:
            cols[name] = [default] * n
    rows = zip(*(cols[f] for f in _RECORD_FIELDS), strict=True)
    return list(itertools.starmap(Record, rows))  # by position: no dict per row


_TEXT_COLUMNS = ("session_id", "repo_id", "title", "content", "lang", "kind", "embed_text")
_RECORD_FIELDS = tuple(f.name for f in dataclasses.fields(Record))
# The fields with a plain default, for rows read without their column (`embed_text`).
_DEFAULTS = {
    f.name: f.default for f in dataclasses.fields(Record) if f.default is not dataclasses.MISSING
}


# Columns with few distinct values across many rows (one repository, one session, ...).
REPEATED_COLUMNS = (
    "path",
    "layer",
    "lang",
    "kind",
    "file_hash",
    "session_id",
    "repo_id",
    "commit_sha",
    "branches",
)


def _vectors(table: pa.Table) -> list[Vector | None]:
    column = table.column("vector").combine_chunks()
    if len(column) == 0:
        return []
    dim = column.type.list_size
    # `values` of a sliced or null-holding list still has `dim` slots per row.
    flat = column.values.to_numpy(zero_copy_only=False).reshape(-1, dim)
    flat = flat[column.offset : column.offset + len(column)]
    valid = column.is_valid().to_numpy(zero_copy_only=False)
    return [flat[i].copy() if valid[i] else None for i in range(len(column))]


@dataclass(frozen=True, slots=True)
class PreparedRows:
    """Some files' rows in the store's row format (`to_arrow`), checked, ready to write.

    Made where the work runs in parallel (an indexing worker computes `lex` and the Arrow
    columns), so the process that writes only concatenates and commits them.
    """

    paths: tuple[str, ...]  # every file whose rows these replace (none: delete its rows)
    table: pa.Table
    new: bool = False  # the paths hold no rows yet: append, with no vector column

    @property
    def rows(self) -> int:
        return int(self.table.num_rows)


def prepare(
    rows_by_path: Mapping[str, Sequence[Record]], dim: int, *, new: bool = False
) -> PreparedRows:
    """The rows of each path, checked (`check_batch`) and in the store's row format.

    `new` is for paths that hold no rows yet, whose rows have no vector yet (a first look
    at new files): the store appends them, with no replacement to look for, and leaves
    their vector column out (it keeps nulls). That is a fifth less to build, move between
    processes and write. A row that replaces another must carry the column, or the old
    row's vector would stay.
    """
    records = [r for rows in rows_by_path.values() for r in rows]
    check_batch(rows_by_path, records)
    if new and any(r.vector is not None for r in records):
        raise StoreError("rows prepared as new must not have vectors yet")
    return PreparedRows(tuple(rows_by_path), to_arrow(records, dim, vectors=not new), new)


def joined(parts: Sequence[PreparedRows]) -> PreparedRows:
    """Several prepared batches as one write (their paths must not overlap)."""
    paths = tuple(p for part in parts for p in part.paths)
    if len(set(paths)) != len(paths):
        raise StoreError("one write names a file twice")
    if len({part.new for part in parts}) > 1:
        raise StoreError("one write mixes new paths with replaced ones")
    table = pa.concat_tables([part.table for part in parts])
    return PreparedRows(paths, table, all(part.new for part in parts))


def with_repo(rows: PreparedRows, repo: str, prefix: str) -> PreparedRows:
    """`rows` as rows of repository `repo` in a shared table: `repo_id` set, ids prefixed."""
    table = rows.table
    n = table.num_rows
    if prefix:
        ids = pc.binary_join_element_wise(pa.scalar(prefix), table.column("id"), "")
        table = table.set_column(table.schema.get_field_index("id"), table.schema.field("id"), ids)
    if n and pc.all(pc.equal(table.column("repo_id"), repo)).as_py() is not True:
        i = table.schema.get_field_index("repo_id")
        table = table.set_column(i, table.schema.field(i), pa.array([repo] * n, pa.string()))
    return PreparedRows(rows.paths, table, rows.new)


def check_batch(rows_by_path: Mapping[str, Sequence[Record]], records: list[Record]) -> None:
    """Refuse a write whose records sit under another path or repeat an id."""
    for path, rows in rows_by_path.items():
        for r in rows:
            if r.path != path:
                raise StoreError(f"record {r.id} has path {r.path!r} but was given for {path!r}")
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    for r in records:  # two branches' versions of a file share ids, as may their own rows
        key = (r.id, r.file_hash, r.branches)
        if key in seen:
            raise StoreError(f"record id {r.id!r} given twice in one write")
        seen.add(key)


def sort_rows(table: pa.Table) -> pa.Table:
    """Rows in path, span (missing first), layer and id order.

    Column by column, each original dropped once it is reordered: a copy of the whole
    table at once would double the memory of a large read for a moment."""
    keys = [("path", "ascending", "at_start"), ("span_start", "ascending", "at_start")]
    keys += [("layer", "ascending", "at_start"), ("id", "ascending", "at_start")]
    order = pc.sort_indices(table, sort_keys=keys)
    schema, columns = table.schema, table.columns
    del table
    for i, column in enumerate(columns):
        columns[i] = pc.take(column, order)
        del column
    return pa.Table.from_arrays(columns, schema=schema)


# A repeated column kept apart from its table: per row an index into the distinct values.
Coded = tuple[np.ndarray, list[Any]]


def code_repeated(table: pa.Table) -> tuple[pa.Table, dict[str, Coded]]:
    """`table` without its `REPEATED_COLUMNS`, and those columns coded (for tables a
    process keeps): each distinct value is one Python object made once, and a record
    built with `take_records` reuses it instead of making a string per row."""
    coded: dict[str, Coded] = {}
    for name in REPEATED_COLUMNS:
        if name in table.column_names:
            column = pc.dictionary_encode(table.column(name).combine_chunks())
            values = [*column.dictionary.to_pylist(), None]  # the last one stands for null
            at = pc.fill_null(column.indices, len(values) - 1).to_numpy(zero_copy_only=False)
            coded[name] = (at.astype(np.int32), values)
    return table.drop_columns(list(coded)), coded


def take_records(
    table: pa.Table,
    positions: Sequence[int] | np.ndarray,
    coded: Mapping[str, Coded],
    given: Mapping[str, Sequence[Any]] | None = None,
) -> list[Record]:
    """The records of rows `positions` of a table split by `code_repeated`; `given` holds
    other columns' values for those rows, kept elsewhere by the caller."""
    at = np.asarray(positions, dtype=np.int64)
    values = {name: [vals[i] for i in idx[at].tolist()] for name, (idx, vals) in coded.items()}
    return to_records(table.take(pa.array(at)), {**values, **(given or {})})


class PreparedWriter(PerSource, ABC):
    """`replace_sources` for a backend whose writes take prepared rows (`PreparedWrites`);
    `write_streamed` too, a part in memory at a time if it `streams_readers` (its
    `write_prepared` takes a `pa.RecordBatchReader` for `table`), else all at once."""

    dim: int
    streams_readers: ClassVar[bool] = False

    def write_streamed(
        self, path: str, parts: Iterator[PreparedRows], *, repo: str | None = None
    ) -> None:
        """Replace the rows of `path` (of `repo`) by those of `parts`, in one commit."""
        first = next(parts, None)
        if first is None:
            self.replace_sources({path: []}, repo=repo)
            return
        tables = itertools.chain([first.table], (part.table for part in parts))
        if not self.streams_readers:
            self.write_prepared(PreparedRows((path,), pa.concat_tables(list(tables))), repo=repo)
            return
        batches = (batch for table in tables for batch in table.to_batches())
        reader = pa.RecordBatchReader.from_batches(first.table.schema, batches)
        del first  # the reader holds one part at a time
        self.write_prepared(PreparedRows((path,), reader), repo=repo)  # a reader as `table`

    @abstractmethod
    def write_prepared(self, rows: PreparedRows, *, repo: str | None = None) -> None:
        """Commit rows in this format (a backend's own)."""

    def replace_sources(
        self, rows_by_path: Mapping[str, Sequence[Record]], *, repo: str | None = None
    ) -> None:
        """Replace all rows of each given path (of `repo`, if given) in one commit."""
        if rows_by_path:
            self.write_prepared(prepare(rows_by_path, self.dim), repo=repo)
