"""What the store's bookkeeping reads compute from Arrow columns (pure functions).

Sources (per path: file hash, stat, row count), per-layer counts and indexing sessions
are group-bys over a few columns of every row; a stat update is a merge source built
from the rows' ids. Kept apart from the LanceDB calls so any Arrow-backed store can
share them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyarrow as pa

from strata.store.arrow import table_schema, vector_array
from strata.types import FileState, Vector

SOURCE_COLUMNS = ("path", "file_hash", "file_size", "file_mtime_ns")
SESSION_COLUMNS = ("session_id", "repo_id", "commit_sha", "path")
RESTAT_COLUMNS = ("id", "file_hash", "branches", "file_size", "file_mtime_ns")
VECTOR_COLUMNS = ("id", "content_hash", "vector", "has_vector")


def sources_of(table: pa.Table) -> dict[str, FileState]:
    """Each path of `SOURCE_COLUMNS` rows with its file hash, size, mtime and row count."""
    grouped = table.group_by("path", use_threads=False).aggregate(
        [(c, "first") for c in SOURCE_COLUMNS[1:]] + [("path", "count")]
    )
    return {
        row["path"]: FileState(
            file_hash=row["file_hash_first"] or "",
            size=row["file_size_first"] or 0,
            mtime_ns=row["file_mtime_ns_first"] or 0,
            rows=row["path_count"],
        )
        for row in grouped.to_pylist()
    }


def counts_of(table: pa.Table) -> dict[str, dict[str, int]]:
    """Per layer: `rows`, and `vectors` (rows whose `has_vector` is true; 0 without one)."""
    if "has_vector" not in table.column_names:
        table = table.append_column("has_vector", pa.array([False] * table.num_rows))
    grouped = table.group_by("layer").aggregate([("layer", "count"), ("has_vector", "sum")])
    return {
        row["layer"]: {"rows": row["layer_count"], "vectors": int(row["has_vector_sum"] or 0)}
        for row in grouped.to_pylist()
    }


def sessions_of(table: pa.Table) -> list[dict[str, Any]]:
    """Each (session, repository, commit) of `SESSION_COLUMNS` rows with its rows and files."""
    if table.num_rows == 0:
        return []
    keys = ["session_id", "repo_id", "commit_sha"]
    grouped = table.group_by(keys, use_threads=False).aggregate(
        [("path", "count"), ("path", "count_distinct")]
    )
    out = [
        {
            "session_id": r["session_id"] or "",
            "repo": r["repo_id"] or "",
            "commit_sha": r["commit_sha"],
            "rows": r["path_count"],
            "files": r["path_count_distinct"],
        }
        for r in grouped.to_pylist()
    ]
    return sorted(out, key=lambda s: (s["repo"], s["session_id"]))


def restat_rows(table: pa.Table, stats: Mapping[str, tuple[int, int]], dim: int) -> pa.Table:
    """A merge source setting each row's (`id`, `file_hash`, `branches`, `path`) file size
    and mtime from `stats` (two versions of a file on two branches share ids, and so may
    two branches' own rows of one version)."""
    paths = table.column("path").to_pylist()
    source = pa.table(
        {
            "id": table.column("id"),
            "file_hash": table.column("file_hash"),
            "branches": table.column("branches"),
            "file_size": pa.array([stats[p][0] for p in paths], pa.int64()),
            "file_mtime_ns": pa.array([stats[p][1] for p in paths], pa.int64()),
        }
    )
    return source.cast(pa.schema([table_schema(dim).field(n) for n in RESTAT_COLUMNS]))


def vector_rows(vectors: Mapping[str, tuple[str, Vector]], dim: int) -> pa.Table:
    """A merge source setting the vector of each id (`vectors`: id -> (content hash, vector))."""
    ids = list(vectors)
    source = {
        "id": ids,
        "content_hash": [vectors[i][0] for i in ids],
        "vector": vector_array([vectors[i][1] for i in ids], dim, ids),
        "has_vector": [True] * len(ids),
    }
    return pa.table(source, schema=pa.schema([table_schema(dim).field(n) for n in VECTOR_COLUMNS]))
