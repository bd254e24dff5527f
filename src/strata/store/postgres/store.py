"""`PgStore`: the Store core on PostgreSQL + pgvector, shared by many writers and readers.

Every write is one transaction: a file's old rows are deleted and its new rows COPYed
in together, so a reader (or a killed writer, or a dropped connection, which rolls the
transaction back) sees each file fully old or fully new. Readers never block writers
(MVCC). Writers of one repository are serialised by `writer_lock` (a session advisory
lock per repository, held for a whole `strata index` run, released by the server if the
writer dies); different repositories write in parallel.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

import psycopg
import pyarrow as pa
from psycopg import sql

from strata.errors import LockError, NoIndexError, StoreError
from strata.store import Filter, Hits
from strata.store.arrow import (
    RECORD_COLUMNS,
    SEARCH_COLUMNS,
    PreparedRows,
    PreparedWriter,
    check_vector,
    query_vector,
)
from strata.store.capabilities import IndexHealth
from strata.store.postgres import filters, search
from strata.store.postgres.connect import (
    connect,
    connect_error,
    ensure_vector_extension,
    first_line,
    open_pool,
    redact,
)
from strata.store.postgres.filters import Where
from strata.store.postgres.migrations import index_ddl, migrate
from strata.store.postgres.rows import COPY_COLUMNS, arrow_of, copy_rows, record_of, vector_text
from strata.types import FileState, Record, Vector

__all__ = ["PgStore", "drop_store"]

log = logging.getLogger(__name__)

BUILD_MEMORY = "1GB"  # for an index built over rows already there (pgvector's advice)
_ORDER = "path, span_start NULLS FIRST, layer, id"
_TABLES = ("rag_chunks", "strata_meta", "strata_migrations")


class PgStore(PreparedWriter):
    """A `Store` on a PostgreSQL database with the pgvector extension."""

    streams_readers = True  # `write_prepared` COPYs a RecordBatchReader a batch at a time

    def __init__(self, uri: str, dim: int, *, create: bool = True) -> None:
        """Open (or create) the store in the database `uri` names, for `dim`-d vectors.

        Raises:
            StoreError: the server is down, refuses the credentials or lacks pgvector.
            NoIndexError: the database holds no store and `create` is False.
            SchemaError: the database holds a newer Strata schema.
            EmbedderMismatchError: the stored vectors have another width.
        """
        self.uri = uri
        self.dim = dim
        self.location = redact(uri)
        self._corpus = search.Corpus()
        with connect(uri) as conn:
            ensure_vector_extension(conn, uri)
            self.schema_version, fresh = migrate(conn, dim, create=create)
            if self.schema_version == 0:
                raise NoIndexError(f"no index in {self.location}", hint="run `strata index`")
        self._pool = open_pool(uri)
        if fresh:
            self.write_meta({"created_at": _now(), "dim": dim})

    # -- writing --------------------------------------------------------------

    def write_prepared(self, rows: PreparedRows, *, repo: str | None = None) -> None:
        """Delete the paths' rows and COPY the new ones in, in one transaction (`rows.table`
        may be a `pa.RecordBatchReader`: a streamed file's parts, read as they come)."""
        if not rows.paths:
            return
        cols = [*COPY_COLUMNS, *(["embedding"] if self.dim > 0 else [])]
        copy = sql.SQL("COPY rag_chunks ({}) FROM STDIN").format(
            sql.SQL(", ").join(sql.Identifier(c) for c in cols)
        )
        with self._write(f"write {len(rows.paths)} files") as conn:
            if not rows.new:
                scope = filters.where(Filter(paths=rows.paths), repo=repo)
                conn.execute(_sql("DELETE FROM rag_chunks WHERE {}", scope), scope.params)
            batches = rows.table if isinstance(rows.table, pa.RecordBatchReader) else [rows.table]
            with conn.cursor() as cur, cur.copy(copy) as out:
                for batch in batches:  # a streamed file's parts: one in memory at a time
                    for row in copy_rows(pa.table(batch), self.dim):
                        out.write_row(row)

    def restat(self, stats: Mapping[str, tuple[int, int]], *, repo: str | None = None) -> int:
        """Set `file_size`/`file_mtime_ns` on every row of each path, in one transaction."""
        if not stats:
            return 0
        paths = list(stats)
        scope = filters.where(Filter(), repo=repo)
        text = _sql(
            "UPDATE rag_chunks c SET file_size = s.size, file_mtime_ns = s.mtime "
            "FROM unnest(%s::text[], %s::bigint[], %s::bigint[]) AS s(path, size, mtime) "
            "WHERE c.path = s.path AND {}",
            scope,
        )
        params = (paths, [stats[p][0] for p in paths], [stats[p][1] for p in paths])
        with self._write("record file stats") as conn:
            return conn.execute(text, (*params, *scope.params)).rowcount

    def set_vectors(self, vectors: Mapping[str, tuple[str, Vector]]) -> int:
        """Fill in vectors by id where the content hash still matches; one transaction."""
        if self.dim == 0 or not vectors:
            return 0
        ids = list(vectors)
        given = [check_vector(vectors[i][1], self.dim, i) for i in ids]
        text = (
            "UPDATE rag_chunks c SET embedding = s.v::vector FROM "
            "unnest(%s::text[], %s::text[], %s::text[]) AS s(id, hash, v) "
            "WHERE c.id = s.id AND c.content_hash = s.hash"
        )
        literals = [vector_text(v) for v in given]
        with self._write("store vectors") as conn:
            return conn.execute(text, (ids, [vectors[i][0] for i in ids], literals)).rowcount

    def delete_all(self, *, repo: str | None = None) -> None:
        """Remove every row (of `repo`, if given), in one transaction."""
        scope = filters.where(Filter(), repo=repo)
        with self._write("delete rows") as conn:
            conn.execute(_sql("DELETE FROM rag_chunks WHERE {}", scope), scope.params)

    def optimize(self) -> None:
        """Rebuild a missing index; refresh the planner's statistics (the indexes are kept
        current by every write)."""
        self.ensure_indexes()
        with self._pool.connection() as conn:
            conn.autocommit = True
            try:
                conn.execute("ANALYZE rag_chunks")
            finally:
                conn.autocommit = False

    def ensure_indexes(self) -> None:
        """Make any index of the migrations that is missing (dropped by hand, say)."""
        missing = self._missing_indexes()
        if missing:
            ddl = index_ddl(self.dim)
            with self._write("rebuild the search indexes") as conn:
                # an HNSW graph that outgrows this memory is built many times slower
                conn.execute(f"SET LOCAL maintenance_work_mem = '{BUILD_MEMORY}'".encode())
                for name in missing:
                    log.info("building the index %s in %s", name, self.location)
                    conn.execute(ddl[name].encode())

    def integrity(self) -> IndexHealth:
        """The schema version (opening migrated it to this Strata's) and the indexes missing
        (every write keeps those there current: no row is ever outside them)."""
        missing = tuple(self._missing_indexes())
        return IndexHealth(self.schema_version, self.schema_version, missing, unindexed_rows=0)

    def _missing_indexes(self) -> list[str]:
        """The indexes the migrations make that the table lacks."""
        with self._read() as conn:
            found = conn.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
                "AND tablename = 'rag_chunks'"
            ).fetchall()
        return sorted(set(index_ddl(self.dim)) - {name for (name,) in found})

    # -- reading --------------------------------------------------------------

    def lexical_search(self, terms: Sequence[str], limit: int, where: Filter) -> Hits:
        """BM25 over the stemmed code-aware tokens (OR of the terms), best first."""
        lexemes = search.query_lexemes(terms)
        scope = filters.where(where)
        if not lexemes or limit <= 0 or scope.never:
            return []
        with self._read() as conn:
            return search.bm25(conn, lexemes, limit, scope, self._corpus, SEARCH_COLUMNS)

    def vector_search(self, vector: Vector, limit: int, where: Filter) -> Hits:
        """Cosine similarity over rows with a vector, best first."""
        query = query_vector(vector, self.dim, limit)
        scope = filters.where(where)
        if query is None or scope.never:
            return []
        with self._read() as conn:
            return search.nearest(conn, query, limit, scope, SEARCH_COLUMNS)

    def sources(self, *, repo: str | None = None) -> dict[str, FileState]:
        """Each indexed path (of `repo`, if given) with its file hash, size, mtime, row count."""
        scope = filters.where(Filter(), repo=repo)
        text = _sql(
            "SELECT path, (array_agg(file_hash ORDER BY span_start NULLS FIRST, id))[1], "
            "(array_agg(file_size ORDER BY span_start NULLS FIRST, id))[1], "
            "(array_agg(file_mtime_ns ORDER BY span_start NULLS FIRST, id))[1], count(*) "
            "FROM rag_chunks WHERE {} GROUP BY path",
            scope,
        )
        with self._read() as conn:
            found = conn.execute(text, scope.params).fetchall()
        return {p: FileState(h, int(s), int(m), int(n)) for p, h, s, m, n in found}

    def missing_vectors(
        self, limit: int, layers: Sequence[str] | None = None, *, repo: str | None = None
    ) -> list[tuple[str, str, str]]:
        """Up to `limit` rows (of `layers`, of `repo`) without a vector: (id, hash, text)."""
        if self.dim == 0 or limit <= 0:
            return []
        scope = filters.where(
            Filter(layers=None if layers is None else tuple(layers), has_vector=False), repo=repo
        )
        if scope.never:
            return []
        text = _sql(
            "SELECT id, content_hash, coalesce(nullif(embed_text, ''), content) "
            "FROM rag_chunks WHERE {} LIMIT %s",
            scope,
        )
        with self._read() as conn:
            return [tuple(r) for r in conn.execute(text, (*scope.params, limit)).fetchall()]

    def fetch(
        self, where: Filter, limit: int | None = None, *, vectors: bool = True
    ) -> list[Record]:
        """Rows matching `where`, in path and span order."""
        scope = filters.where(where)
        if scope.never or (limit is not None and limit <= 0):
            return []
        cols = list(RECORD_COLUMNS if vectors else SEARCH_COLUMNS)
        cols += ["embedding"] if self.dim > 0 and vectors else []
        found = self._select(cols, scope, limit)
        return [record_of(r, cols) for r in found]

    def fetch_table(self, where: Filter, columns: Sequence[str]) -> pa.Table:
        """Rows matching `where` as Arrow (`columns` only), in path and span order."""
        scope = filters.where(where)
        found = [] if scope.never else self._select(list(columns), scope, None, json_text=True)
        return arrow_of(found, columns, self.dim)

    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]:
        """Per layer (of `repo`, if given): `rows` and `vectors` (rows that have one)."""
        scope = filters.where(Filter(), repo=repo)
        text = _sql(
            "SELECT layer, count(*), count(embedding) FROM rag_chunks WHERE {} GROUP BY layer",
            scope,
        )
        with self._read() as conn:
            found = conn.execute(text, scope.params).fetchall()
        return {layer: {"rows": int(n), "vectors": int(v)} for layer, n, v in found}

    def sessions(self) -> list[dict[str, Any]]:
        """Each indexing session with rows in the store: its repository, commit, rows, files."""
        with self._read() as conn:
            found = conn.execute(
                "SELECT session_id, repo_id, commit_sha, count(*), count(DISTINCT path) "
                "FROM rag_chunks GROUP BY session_id, repo_id, commit_sha "
                "ORDER BY repo_id, session_id"
            ).fetchall()
        keys = ("session_id", "repo", "commit_sha", "rows", "files")
        return [dict(zip(keys, row, strict=True)) for row in found]

    @property
    def version(self) -> object:
        """A token each committed write replaces, in its own transaction (`_write`): what
        readers build from the rows (the symbol index, the call graph) is keyed by it, one
        row read instead of every row's path (None: not there, in a store being created)."""
        with self._read() as conn:
            row = conn.execute("SELECT value FROM strata_meta WHERE key = 'rows'").fetchone()
        return None if row is None else row[0]

    # -- metadata -------------------------------------------------------------

    def read_meta(self) -> dict[str, Any]:
        """The index's metadata ({} if none), with the schema version the database records."""
        with self._read() as conn:
            row = conn.execute("SELECT value FROM strata_meta WHERE key = 'meta'").fetchone()
        meta = dict(row[0]) if row else {}
        return {**meta, "schema_version": self.schema_version} if meta else {}

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Replace the index's metadata in one statement."""
        data = json.dumps({k: v for k, v in meta.items() if k != "schema_version"})
        with self._write("write the metadata") as conn:
            conn.execute(
                "INSERT INTO strata_meta (key, value) VALUES ('meta', %s::jsonb) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (data,),
            )

    @contextlib.contextmanager
    def writer_lock(self, repo: str, *, wait: float = 10.0) -> Iterator[None]:
        """Hold the database's write lock of one repository for the block.

        A session advisory lock on a connection of its own: the server frees it when the
        holder disconnects or dies, so no stale lock outlives a killed writer.
        """
        conn = connect(self.uri, autocommit=True)
        key = f"strata:write:{repo}"
        try:
            deadline = time.monotonic() + wait
            while not conn.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(current_schema() || %s, 0))", (key,)
            ).fetchone()[0]:  # type: ignore[index]
                if time.monotonic() >= deadline:
                    raise LockError(
                        f"another strata process is writing repository {repo!r} in {self.location}",
                        hint="wait for it to finish, or stop it",
                    )
                time.sleep(0.1)
            yield
        finally:
            conn.close()  # ends the session, and with it the lock

    def close(self) -> None:
        """Close the pool's connections."""
        self._pool.close()

    # -- internals ------------------------------------------------------------

    @contextlib.contextmanager
    def _read(self) -> Iterator[psycopg.Connection[Any]]:
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.OperationalError as exc:
            raise connect_error(self.uri, exc) from None

    @contextlib.contextmanager
    def _write(self, what: str) -> Iterator[psycopg.Connection[Any]]:
        """A connection in one transaction: committed at the end, rolled back on error."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                yield conn
                conn.execute(_NEW_VERSION)  # last: its row is locked only until the commit
        except psycopg.OperationalError as exc:
            raise StoreError(
                f"lost the connection to {self.location} while trying to {what} "
                f"(nothing of it was committed): {first_line(str(exc), self.uri)}",
                hint="is the server running? the next run redoes what is missing",
            ) from None
        except psycopg.Error as exc:
            why = first_line(str(exc), self.uri)
            raise StoreError(f"cannot {what} in {self.location}: {why}") from None
        finally:
            self._corpus.forget()

    def _select(
        self, cols: list[str], scope: Where, limit: int | None, *, json_text: bool = False
    ) -> list[tuple[Any, ...]]:
        names = [
            sql.SQL("metadata::text") if c == "metadata" and json_text else sql.Identifier(c)
            for c in cols
        ]
        text = sql.SQL("SELECT {} FROM rag_chunks WHERE {} ORDER BY {} {}").format(
            sql.SQL(", ").join(names),
            sql.SQL(scope.text),
            sql.SQL(_ORDER),
            sql.SQL("LIMIT %s" if limit is not None else ""),
        )
        params = (*scope.params, limit) if limit is not None else scope.params
        with self._read() as conn:
            return conn.execute(text, params).fetchall()


# A new random token per write: never one a reader saw before (not even after the row went).
_NEW_VERSION = (
    "INSERT INTO strata_meta (key, value) VALUES ('rows', to_jsonb(gen_random_uuid()::text)) "
    "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
)


def drop_store(uri: str) -> None:
    """Drop every table of the store in `uri`'s database (`index --full` with a new width)."""
    with connect(uri) as conn, conn.transaction():
        conn.execute(
            sql.SQL("DROP TABLE IF EXISTS {} CASCADE").format(
                sql.SQL(", ").join(sql.Identifier(t) for t in _TABLES)
            )
        )


def _sql(template: str, scope: Where) -> sql.Composed:
    return sql.SQL(template).format(sql.SQL(scope.text))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
