"""Reaching the server: redacted URIs, one clear reason per failure, the connection pool.

Every message names the database by `redact(uri)`: a password in the URI (user:secret@
or `password=`) is never printed or logged. A failure to connect becomes a `StoreError`
(exit 2) that says which of the usual causes it is: the server is down or unreachable,
it refused the credentials, the database does not exist, or it lacks pgvector.
"""

from __future__ import annotations

from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from strata.errors import StoreError
from strata.store.uri import redact

__all__ = [
    "connect",
    "connect_error",
    "ensure_vector_extension",
    "first_line",
    "open_pool",
    "redact",
]

CONNECT_TIMEOUT = 10  # seconds
POOL_SIZE = 8  # a server's reader threads; a writer takes one
# SQLSTATE classes and codes psycopg reports for a refused login or a missing database.
_AUTH_STATES = {"28000", "28P01"}
_NO_DATABASE = "3D000"
_HINT_VECTOR = (
    "install pgvector on the server (Debian: `apt install postgresql-NN-pgvector`; "
    "https://github.com/pgvector/pgvector) and run `CREATE EXTENSION vector` as a superuser"
)


def connect(uri: str, **kwargs: Any) -> psycopg.Connection[Any]:
    """One connection to `uri`, or a `StoreError` naming the reason (password redacted)."""
    try:
        return psycopg.connect(uri, connect_timeout=CONNECT_TIMEOUT, **kwargs)
    except psycopg.Error as exc:
        raise connect_error(uri, exc) from None


def connect_error(uri: str, exc: BaseException) -> StoreError:
    """The one-line `StoreError` for a failed connection to `uri`."""
    where = redact(uri)
    state = getattr(exc, "sqlstate", None)
    detail = first_line(str(exc), uri)
    refused = ("authentication failed", "password", "role ", "no pg_hba.conf entry")
    if state in _AUTH_STATES or any(word in detail for word in refused):
        return StoreError(
            f"PostgreSQL at {where} refused the credentials: {detail}",
            hint="check the user and password (PGPASSWORD or ~/.pgpass keeps it out of the URI)",
        )
    if state == _NO_DATABASE or ("database" in detail and "does not exist" in detail):
        return StoreError(
            f"PostgreSQL at {where} has no such database: {detail}",
            hint="create it first (`createdb NAME`)",
        )
    return StoreError(
        f"cannot reach PostgreSQL at {where}: {detail}",
        hint="is the server running, and do the host and port in the URI name it?",
    )


def ensure_vector_extension(conn: psycopg.Connection[Any], uri: str) -> None:
    """Make sure `vector` is installed in the database (create it when allowed)."""
    row = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is not None:
        return
    available = conn.execute(
        "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"
    ).fetchone()
    if available is None:
        conn.rollback()
        raise StoreError(
            f"PostgreSQL at {redact(uri)} lacks the pgvector extension", hint=_HINT_VECTOR
        )
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.commit()
    except psycopg.Error as exc:
        conn.rollback()
        raise StoreError(
            f"cannot add the vector extension to {redact(uri)}: {first_line(str(exc), uri)}",
            hint="a superuser must run `CREATE EXTENSION vector` in this database once",
        ) from None


def open_pool(uri: str, max_size: int = POOL_SIZE) -> ConnectionPool[Any]:
    """A pool of connections with pgvector's types registered (the extension must exist)."""
    pool: ConnectionPool[Any] = ConnectionPool(
        uri,
        min_size=1,
        max_size=max_size,
        kwargs={"connect_timeout": CONNECT_TIMEOUT},
        configure=_configure,
        check=ConnectionPool.check_connection,
        open=False,
        name="strata",
    )
    try:
        pool.open(wait=True, timeout=CONNECT_TIMEOUT)
    except Exception as exc:  # PoolTimeout hides the cause: ask once more for it
        pool.close()
        try:
            connect(uri).close()
        except StoreError as err:
            raise err from None
        raise StoreError(f"cannot open connections to {redact(uri)}: {exc}") from None
    return pool


def _configure(conn: psycopg.Connection[Any]) -> None:
    register_vector(conn)
    conn.commit()


def first_line(text: str, uri: str) -> str:
    """The first non-blank line of an error's text, with `uri` and any password redacted."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "unknown error")
    return redact(line.replace(uri, redact(uri)))
