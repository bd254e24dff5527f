"""Rows between Strata's Arrow row format and `rag_chunks` (pure functions).

Writes start from the same prepared Arrow rows as LanceDB's (`arrow.prepare`: checked,
`lex` computed); `copy_rows` turns them into COPY tuples. The lexical column is a
`tsvector` built here from `lex`, each token English-stemmed the way LanceDB's index
stems it and given its position, so BM25 can read term frequencies back.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import snowballstemmer  # type: ignore[import-untyped]

from strata.store.arrow import RECORD_COLUMNS, table_schema
from strata.store.sql import decode_branches
from strata.types import Record

__all__ = ["COPY_COLUMNS", "arrow_of", "copy_rows", "lexemes", "record_of", "stem", "vector_text"]

# What COPY writes: the record columns, the lexical vector and its length, the vector.
COPY_COLUMNS: tuple[str, ...] = (*RECORD_COLUMNS, "lex_tsv", "lex_len")
_TEXT = ("id", "session_id", "repo_id", "path", "layer", "title", "content", "lang")
_TEXT_MORE = ("kind", "file_hash", "content_hash", "embed_text")
_NOT_NULL = {
    **dict.fromkeys((*_TEXT, *_TEXT_MORE), ""),
    "is_test": False,
    "file_size": 0,
    "file_mtime_ns": 0,
}
_NOT_NULL["metadata"] = "{}"
_NOT_NULL["branches"] = ""
_MAX_POSITION = 16383  # tsvector positions stop here
_POSITIONS = [str(i) for i in range(_MAX_POSITION + 1)]
_stemmer = snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=200_000)
def stem(token: str) -> str:
    """The English (Porter2) stem of one lowercase token, as LanceDB's index makes it."""
    return str(_stemmer.stemWord(token))


@functools.lru_cache(maxsize=200_000)
def _literal(token: str) -> str:
    return "'" + _quoted(stem(token)) + "':"


def lexemes(lex: str) -> tuple[str, int]:
    """A `tsvector` literal of the stemmed tokens of `lex`, with positions, and their count.

    Each lexeme is written once with all its positions (`'a':1,5`): the same `tsvector`
    as one entry per position, with a fraction of the text for the server to parse.
    """
    tokens = lex.split()
    positions: dict[str, list[str]] = {}
    for i, token in enumerate(tokens, start=1):
        positions.setdefault(_literal(token), []).append(_POSITIONS[min(i, _MAX_POSITION)])
    return " ".join(word + ",".join(at) for word, at in positions.items()), len(tokens)


def _quoted(lexeme: str) -> str:
    return lexeme.replace("\\", "\\\\").replace("'", "''")


def copy_rows(table: pa.Table, dim: int) -> Iterator[tuple[Any, ...]]:
    """COPY tuples (`COPY_COLUMNS`, then the vector when `dim > 0`) of prepared rows."""
    columns = {name: table.column(name).to_pylist() for name in RECORD_COLUMNS}
    lex = table.column("lex").to_pylist()
    vectors = _vectors(table, dim) if dim > 0 else None
    for i in range(table.num_rows):
        row: list[Any] = []
        for name in RECORD_COLUMNS:
            value = columns[name][i]
            if value is None:
                value = _NOT_NULL.get(name)
            elif isinstance(value, str) and "\x00" in value:
                value = value.replace("\x00", "\ufffd")  # PostgreSQL text holds no NUL
            row.append(value)
        row.extend(lexemes(lex[i] or ""))
        if vectors is not None:
            row.append(vectors[i])
        yield tuple(row)


def _vectors(table: pa.Table, dim: int) -> list[str | None]:
    """Each row's vector as pgvector's text form (COPY's text format parses it on the
    server), None for a row without one: `tolist` and `repr`, several times faster than
    the adapter's per-element conversion."""
    if "vector" not in table.column_names:
        return [None] * table.num_rows
    column = table.column("vector").combine_chunks()
    flat = column.values.to_numpy(zero_copy_only=False).reshape(-1, dim)
    flat = flat[column.offset : column.offset + len(column)]
    valid = column.is_valid().to_numpy(zero_copy_only=False)
    return [vector_text(flat[i]) if valid[i] else None for i in range(len(column))]


def vector_text(v: np.ndarray[Any, Any]) -> str:
    """pgvector's text form of one vector (`[0.1,0.2]`), float32 values written exactly."""
    return "[" + ",".join(map(repr, v.tolist())) + "]"


def record_of(row: Sequence[Any], columns: Sequence[str]) -> Record:
    """A `Record` from one selected row (`columns` in order; `embedding` optional)."""
    values = dict(zip(columns, row, strict=True))
    vector = values.pop("embedding", None)
    values.setdefault("embed_text", "")
    meta = values.get("metadata")
    values["metadata"] = json.loads(meta) if isinstance(meta, str) else dict(meta or {})
    if "branches" in values:
        values["branches"] = decode_branches(values["branches"])
    if vector is not None:  # pgvector's loader gives a `Vector`
        vector = np.asarray(getattr(vector, "to_numpy", lambda: vector)(), dtype=np.float32)
    return Record(**values, vector=vector)


def arrow_of(rows: Sequence[Sequence[Any]], columns: Sequence[str], dim: int) -> pa.Table:
    """Selected rows as an Arrow table of the store's column types (`metadata` as JSON text)."""
    schema = table_schema(dim)
    data = {}
    for i, name in enumerate(columns):
        values = [r[i] for r in rows]
        if name == "metadata":
            values = [v if isinstance(v, str) else json.dumps(v) for v in values]
        data[name] = pa.array(values, type=schema.field(name).type)
    return pa.table(data, schema=pa.schema([schema.field(n) for n in columns]))
