"""The embedded store: one LanceDB table `chunks` plus a `meta.json` beside it.

Readers open with `read_consistency_interval=0`, so every query sees the latest
commit of any process. Writes are single LanceDB commits (merge-insert), hence
atomic per call. Rows written since the last `optimize()` are not in the FTS or
ANN index yet; LanceDB flat-scans them, so results stay complete (their BM25
statistics are approximate until the next `optimize()`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pyarrow as pa

from strata.errors import EmbedderMismatchError, NoIndexError, StoreError
from strata.store import Filter, Hits, rows, sql
from strata.store.arrow import (
    RECORD_COLUMNS,
    SEARCH_COLUMNS,
    PreparedRows,
    PreparedWriter,
    query_vector,
    sort_rows,
    table_schema,
    to_records,
    vector_dim,
)
from strata.store.capabilities import IndexHealth, OneVersion
from strata.store.hot import HotPassages
from strata.store.lancedb_loaded import Bitmap, IvfPq
from strata.store.schema import (
    FULL_TEXT,
    LEX_ANALYSIS,
    MIGRATIONS,
    SCHEMA_VERSION,
    TABLE,
    ManifestWatch,
    Migration,
    connect,
    match_query,
    migrate,
    read_meta_file,
    searchable,
    table_names,
    write_meta_file,
)
from strata.store.warm import WarmPassages, covers, load_passages
from strata.types import FileState, Record, Vector

log = logging.getLogger(__name__)

__all__ = ["LanceStore"]

META_FILE = "meta.json"
# Flat cosine search over this many vectors still answers in tens of milliseconds
# (benchmarks/store_speed.py); above it `optimize()` builds an ANN index.
ANN_MIN_ROWS = 100_000
KEEP_VERSIONS = timedelta(minutes=5)  # old versions kept: a concurrent reader keeps its snapshot
VERSION_TTL = 0.0  # how long a version number is reused: never (see `version`)
MERGE_KEY = ("id", "file_hash", "branches")  # a row's versions and branches' own rows coexist
TABLE_DIR = f"{TABLE}.lance/_versions"  # where each commit writes its manifest


class LanceStore(PreparedWriter):
    """A `Store` on an embedded LanceDB directory."""

    streams_readers = True  # `merge_insert` and `add` take a RecordBatchReader

    def __init__(
        self,
        directory: str | Path,
        dim: int,
        *,
        create: bool = True,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> None:
        """Open (or create) the store in `directory` for vectors of width `dim` (0 = none).

        Raises:
            NoIndexError: nothing there and `create` is False.
            EmbedderMismatchError: the stored vectors have another width.
            SchemaError: the store's schema is newer than this Strata.
        """
        self.dim = dim
        self.directory = Path(directory)
        self._fts_ready = False
        self._counts: tuple[int, dict[str, dict[str, int]]] | None = None
        self._has_ann = False
        read = ManifestWatch(lambda: int(self._table.version), self.directory / TABLE_DIR)
        self._pin = OneVersion(read)
        self.one_version = self._pin.block  # `PinnedReads`: a search reads one version
        self._warm = WarmPassages(self._load_hot, lambda: self.version)
        self._db = connect(self.directory, create)
        if TABLE in table_names(self._db):
            self._table = self._db.open_table(TABLE)
            self._upgrade(migrations)
            self._check_dim()
            names = self._index_names()
            self._fts_ready = {"lex_idx", "layer_idx"} <= names and self.full_text_current()
            self._has_ann = "vector_idx" in names
        elif not create:
            raise NoIndexError(f"no index in {self.directory}", hint="run `strata index`")
        else:
            self._table = self._db.create_table(TABLE, schema=table_schema(dim), exist_ok=True)
            self._check_dim()
            if not (self.directory / META_FILE).exists():
                now = datetime.now(timezone.utc).isoformat(timespec="seconds")
                self.write_meta({"created_at": now, "dim": dim})

    # -- writing --------------------------------------------------------------

    def write_prepared(self, rows: PreparedRows, *, repo: str | None = None) -> None:
        """`replace_sources` for rows already in the store's format (made by `prepare`)."""
        if not rows.paths:
            return
        with self._writing(f"write {len(rows.paths)} files to"):
            if rows.new:  # nothing to replace: no join, no scan for rows to delete
                self._table.add(rows.table)
            else:
                scope = sql.conjunction([sql.in_list("path", rows.paths), sql.repo_is(repo)])
                (
                    self._table.merge_insert(list(MERGE_KEY))
                    .when_matched_update_all()
                    .when_not_matched_insert_all()
                    .when_not_matched_by_source_delete(scope)
                    .execute(rows.table, on_bad_vectors="null")
                )
        self.ensure_indexes()

    def restat(self, stats: Mapping[str, tuple[int, int]], *, repo: str | None = None) -> int:
        """Set `file_size`/`file_mtime_ns` on every row of each path, in one commit."""
        if not stats:
            return 0
        predicate = sql.conjunction([sql.in_list("path", stats), sql.repo_is(repo)])
        found = self._select(predicate, ["id", "file_hash", "branches", "path"])
        source = rows.restat_rows(found, stats, self.dim)
        if source.num_rows == 0:
            return 0
        with self._writing("record file stats in"):
            merge = self._table.merge_insert(list(MERGE_KEY)).when_matched_update_all()
            return int(merge.execute(source).num_updated_rows)

    def set_vectors(self, vectors: Mapping[str, tuple[str, Vector]]) -> int:
        """Fill in vectors by id where the content hash still matches; one commit."""
        if self.dim == 0 or not vectors:
            return 0
        same = "target.content_hash = source.content_hash"
        with self._writing("store vectors in"):
            merge = self._table.merge_insert("id").when_matched_update_all(where=same)
            return int(merge.execute(rows.vector_rows(vectors, self.dim)).num_updated_rows)

    def delete_all(self, *, repo: str | None = None) -> None:
        """Remove every row (of `repo`, if given); one commit, indexes kept and refilled later."""
        self._table.delete(sql.repo_is(repo))

    def optimize(self) -> None:
        """Fold new rows into the FTS/ANN indexes, compact files, drop old versions."""
        self.ensure_indexes()
        self._maybe_build_ann()
        self._table.optimize(cleanup_older_than=KEEP_VERSIONS)

    # -- searching ------------------------------------------------------------
    # Cold: whole rows from LanceDB. Warm: the copy of the passages answers (`strata.store.hot`).

    def lexical_search(self, terms: Sequence[str], limit: int, where: Filter) -> Hits:
        """BM25 over `lex` (OR of the terms), best first."""
        words = searchable(terms)
        if not words or limit <= 0:
            return []
        predicate = sql.where(where, vectors=self.dim > 0)
        if predicate == sql.FALSE:
            return []
        hot = self._warm.get() if covers(where) else None
        if hot is not None and (mine := hot.lexical(words, limit, where)) is not None:
            return mine
        if hot is not None:  # row ids only: the hits are cut from the copy in memory
            found = self._bm25(words, predicate, limit).select(["_score"]).with_row_id(True)
            table = found.to_arrow()
            at = hot.positions(table.column("_rowid").to_pylist())
            if at is not None:
                return hot.hits(list(zip(at, table.column("_score").to_pylist(), strict=True)))
            # a commit came between the copy and the query: whole rows from LanceDB
        table = self._bm25(words, predicate, limit).select([*SEARCH_COLUMNS, "_score"]).to_arrow()
        return list(zip(to_records(table), table.column("_score").to_pylist(), strict=True))

    def _bm25(self, words: list[str], predicate: str, limit: int) -> Any:
        """The FTS query builder for `words` under `predicate`, top `limit`."""
        builder = self._table.search(match_query(words), query_type="fts").limit(limit)
        return builder if predicate == sql.TRUE else builder.where(predicate, prefilter=True)

    def vector_search(self, vector: Vector, limit: int, where: Filter) -> Hits:
        """Cosine similarity over rows with a vector, best first."""
        query = query_vector(vector, self.dim, limit)
        if query is None:
            return []
        hot = self._warm.get() if covers(where) else None
        if hot is not None:
            return hot.hits(hot.top(query, limit, where))
        predicate = sql.conjunction(["has_vector = TRUE", sql.where(where, vectors=True)])
        if predicate == sql.FALSE:
            return []
        builder = (
            self._table.search(query, vector_column_name="vector", query_type="vector")
            .distance_type("cosine")
            .select([*SEARCH_COLUMNS, "_distance"])
            .where(predicate, prefilter=True)
            .limit(limit)
        )
        if self._has_ann:
            # recall@10 0.97 vs 0.89 for (20, 5) at about the same cost (benchmarks/large_run.py)
            builder = builder.nprobes(50).refine_factor(10)
        table = builder.to_arrow()
        scores = [1.0 - d for d in table.column("_distance").to_pylist()]
        return list(zip(to_records(table), scores, strict=True))

    def keep_warm(self, *, background: bool = False) -> None:
        """This process will search again and again: copy the passage layers into memory
        (now, or in the background), and again after each commit (`strata.store.hot`)."""
        self._warm.keep(background=background)

    def _load_hot(self, version: int) -> HotPassages | None:
        return load_passages(self._table, self.dim, version, lambda: self.version)

    # -- reading --------------------------------------------------------------

    def sources(self, *, repo: str | None = None) -> dict[str, FileState]:
        """Each indexed path (of `repo`, if given) with its file hash, size, mtime, row count."""
        return rows.sources_of(self._select(sql.repo_is(repo), list(rows.SOURCE_COLUMNS)))

    def missing_vectors(
        self, limit: int, layers: Sequence[str] | None = None, *, repo: str | None = None
    ) -> list[tuple[str, str, str]]:
        """Up to `limit` rows (of `layers`, of `repo`) without a vector: (id, hash, text)."""
        if self.dim == 0 or limit <= 0:
            return []
        cols = ["id", "content_hash", "embed_text", "content"]
        predicate = sql.conjunction(["has_vector = FALSE", sql.repo_is(repo)])
        if layers is not None:
            predicate = sql.conjunction([predicate, sql.in_list("layer", list(layers))])
        table = self._table.search().where(predicate).select(cols).limit(limit)
        return [
            (r["id"], r["content_hash"], r["embed_text"] or r["content"] or "")
            for r in table.to_arrow().to_pylist()
        ]

    def fetch(
        self, where: Filter, limit: int | None = None, *, vectors: bool = True
    ) -> list[Record]:
        """Rows matching `where`, in path and span order."""
        predicate = sql.where(where, vectors=self.dim > 0)
        if predicate == sql.FALSE or (limit is not None and limit <= 0):
            return []
        if not vectors and (found := self._warm.fetch(where)) is not None:
            return found[:limit]  # a warm process: cut from the copy in memory
        if limit is not None:
            keys = sort_rows(self._select(predicate, ["id", "path", "span_start", "layer"]))
            if keys.num_rows > limit:
                predicate = sql.in_list("id", keys.column("id").slice(0, limit).to_pylist())
        cols = list(RECORD_COLUMNS if vectors else SEARCH_COLUMNS)
        cols += ["vector"] if self.dim > 0 and vectors else []
        return to_records(sort_rows(self._select(predicate, cols)))[: limit or None]

    def fetch_table(self, where: Filter, columns: Sequence[str]) -> pa.Table:
        """Rows matching `where` as Arrow (`columns` only), in path and span order."""
        predicate = sql.where(where, vectors=self.dim > 0)
        keys = ["path", "span_start", "layer", "id"]
        wanted = list(dict.fromkeys([*columns, *keys]))
        if predicate == sql.FALSE:
            return self._table.schema.empty_table().select(list(columns))
        table = self._warm.fetch_table(where, wanted)  # a warm process: from memory
        table = self._select(predicate, wanted) if table is None else table
        return sort_rows(table).select(list(columns))

    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]:
        """Per layer: `rows` and `vectors` (memoised per table version: searches ask often)."""
        if repo is not None:
            return self._count(repo)
        version = self.version
        if self._counts is None or self._counts[0] != version:
            self._counts = (version, self._count())
        return {layer: dict(c) for layer, c in self._counts[1].items()}

    def sessions(self) -> list[dict[str, Any]]:
        """Each indexing session with rows in the store: its repository, commit, rows, files."""
        return rows.sessions_of(self._select(sql.TRUE, list(rows.SESSION_COLUMNS)))

    def _count(self, repo: str | None = None) -> dict[str, dict[str, int]]:
        cols = ["layer", "has_vector"] if self.dim > 0 else ["layer"]
        return rows.counts_of(self._select(sql.repo_is(repo), cols))

    @property
    def version(self) -> int:
        """The table's version, a cache key for readers: read once per read (`one_version`),
        from LanceDB when a commit moved the manifests (`ManifestWatch`); what is built from
        the rows is keyed by the commit the queries read (never a number remembered blindly)."""
        return self._pin.get()

    # -- metadata -------------------------------------------------------------

    def read_meta(self) -> dict[str, Any]:
        """The contents of `meta.json` ({} if there is none)."""
        return read_meta_file(self.directory / META_FILE)

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Replace `meta.json` atomically; `schema_version` is always the store's own."""
        data = {**meta, "schema_version": meta.get("schema_version", SCHEMA_VERSION)}
        write_meta_file(self.directory / META_FILE, data)

    def close(self) -> None:
        """Drop the table handles (LanceDB holds no locks or server connections)."""
        self._table = None
        self._db = None

    # -- internals ------------------------------------------------------------

    @contextlib.contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """A commit whose failure is a `StoreError`: "cannot {what} {the directory}"."""
        try:
            yield
        except (OSError, RuntimeError, ValueError) as exc:
            raise StoreError(f"cannot {what} {self.directory}: {exc}") from exc

    def _select(self, predicate: str, columns: list[str]) -> pa.Table:
        builder = self._table.search().select(columns)
        if predicate != sql.TRUE:
            builder = builder.where(predicate)
        return builder.to_arrow()

    def _upgrade(self, migrations: Sequence[Migration]) -> None:
        meta = self.read_meta()
        on_disk = int(meta.get("schema_version", SCHEMA_VERSION))

        def record(version: int) -> None:
            self.write_meta({**self.read_meta(), "schema_version": version})

        migrate(on_disk, self._table, record, migrations)

    def _check_dim(self) -> None:
        stored = vector_dim(self._table.schema)
        if stored != self.dim:
            raise EmbedderMismatchError(
                f"index in {self.directory} holds {stored}-d vectors; this run uses {self.dim}-d",
                hint="run `strata index --full` to rebuild with the configured embedder",
            )

    def _index_names(self) -> set[str]:
        return {ix.name for ix in self._table.list_indices()}

    def ensure_indexes(self) -> None:
        """The BM25 index over `lex`, and a bitmap of `layer`: searches keep to a few layers
        of many, and without it that prefilter reads the whole column (4 ms of 6 at 230k rows)."""
        if self._fts_ready or self._table.count_rows() == 0:
            return
        names = self._index_names()
        if "lex_idx" not in names or not self.full_text_current():
            log.info("building the full-text index of %s", self.directory)
            self._table.create_index("lex", config=FULL_TEXT, name="lex_idx", replace=True)
            self.write_meta({**self.read_meta(), "lex_analysis": LEX_ANALYSIS})
        if "layer_idx" not in names:
            self._table.create_index("layer", config=Bitmap(), name="layer_idx")
        self._fts_ready = True

    def integrity(self) -> IndexHealth:
        """The schema version; the search indexes missing, built by an older Strata
        (`LEX_ANALYSIS`), and how many rows the full-text index has not reached."""
        names = self._index_names()
        missing = tuple(n for n in ("lex_idx", "layer_idx") if n not in names)
        outdated = () if "lex_idx" in missing or self.full_text_current() else ("lex_idx",)
        if "lex_idx" in names:
            stats = self._table.index_stats("lex_idx")
            behind = int(getattr(stats, "num_unindexed_rows", 0) or 0)
        else:
            behind = self._table.count_rows()  # without a full-text index, every row is scanned
        version = int(self.read_meta().get("schema_version", SCHEMA_VERSION))
        return IndexHealth(version, SCHEMA_VERSION, missing, outdated, behind)

    def full_text_current(self) -> bool:
        """Whether `lex_idx` analyses text as this Strata does (`LEX_ANALYSIS`)."""
        return bool(self.read_meta().get("lex_analysis") == LEX_ANALYSIS)

    def _maybe_build_ann(self) -> None:
        if self.dim == 0:
            return
        if "vector_idx" in self._index_names():
            self._has_ann = True
            return
        rows = self._table.count_rows("has_vector = TRUE")
        if rows < ANN_MIN_ROWS:
            return
        log.info("building the ANN index over %d vectors", rows)
        config = IvfPq(distance_type="cosine", num_sub_vectors=max(1, self.dim // 8))
        self._table.create_index("vector", config=config, name="vector_idx")
        self._has_ann = True
