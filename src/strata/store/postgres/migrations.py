"""Numbered schema migrations, applied on open and recorded in the database.

Each step is a file `migrations/NNN_name.sql`. Opening a store runs, in one transaction
under an advisory lock (two processes opening a fresh database at once do not race),
every step newer than the highest recorded in `strata_migrations`, then fixes the width
of the vector column if the store is new. PostgreSQL's DDL is transactional, so a
failure (or a kill) leaves the schema fully old; a database recorded at a version newer
than this Strata's is refused before anything is touched.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

import psycopg
from psycopg import sql

from strata.errors import EmbedderMismatchError, SchemaError

__all__ = ["HNSW", "Step", "index_ddl", "migrate", "steps"]

log = logging.getLogger(__name__)

_FILE = re.compile(r"^(\d{3})_(\w+)\.sql$")
_LOCK_KEY = "strata:migrate"
_INDEX = re.compile(r"^CREATE INDEX (\w+) ON [^;]+;", re.MULTILINE)
HNSW = "CREATE INDEX rag_chunks_embedding ON rag_chunks USING hnsw (embedding vector_cosine_ops);"


@dataclass(frozen=True, slots=True)
class Step:
    """One migration: the version it produces, its name and its SQL."""

    version: int
    name: str
    sql: str


def steps() -> tuple[Step, ...]:
    """The migrations this Strata ships, in order (versions 1, 2, ... without gaps)."""
    found = []
    for entry in resources.files(__package__).joinpath("migrations").iterdir():
        m = _FILE.match(entry.name)
        if m:
            found.append(Step(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda s: s.version)
    if [s.version for s in found] != list(range(1, len(found) + 1)):
        raise SchemaError("the PostgreSQL migrations are not numbered 001, 002, ... without gaps")
    return tuple(found)


def migrate(conn: psycopg.Connection[Any], dim: int, *, create: bool) -> tuple[int, bool]:
    """Bring the schema of `conn`'s database to this Strata's version, in one transaction.

    Returns:
        (schema version, whether the store was created now).

    Raises:
        SchemaError: the database records a newer version than this Strata knows.
        EmbedderMismatchError: the stored vectors have another width than `dim`.
        NoIndexError: there is no store and `create` is False (raised by the caller).
    """
    known = steps()
    target = known[-1].version
    with conn.transaction():
        if _read_only(conn):  # a read replica (or a read-only role): check, never change
            return _as_recorded(conn, dim, target), False
        conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || %s, 0))",
            (_LOCK_KEY,),
        )
        conn.execute(
            "CREATE TABLE IF NOT EXISTS strata_migrations (version integer PRIMARY KEY, "
            "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        current = _recorded(conn)
        if current > target:
            raise SchemaError(
                f"the database holds Strata schema version {current}, newer than this "
                f"Strata's ({target})",
                hint=f"upgrade Strata to a release that writes schema {current}",
            )
        fresh = current == 0
        if fresh and not create:
            return 0, False
        for step in known[current:]:
            log.info("migrating the PostgreSQL schema to version %d: %s", step.version, step.name)
            conn.execute(step.sql.encode())
            conn.execute(
                "INSERT INTO strata_migrations (version, name) VALUES (%s, %s)",
                (step.version, step.name),
            )
        if fresh and dim > 0:
            width = sql.Literal(int(dim))
            conn.execute(
                sql.SQL("ALTER TABLE rag_chunks ALTER COLUMN embedding TYPE vector({})").format(
                    width
                )
            )
            conn.execute(HNSW.encode())
        check_dim(conn, dim)
    return target, fresh


def index_ddl(dim: int) -> dict[str, str]:
    """Each index the migrations make (the HNSW one when `dim > 0`): name -> its DDL."""
    text = "\n".join(step.sql for step in steps()) + ("\n" + HNSW if dim > 0 else "")
    return {m.group(1): m.group(0) for m in _INDEX.finditer(text)}


def _read_only(conn: psycopg.Connection[Any]) -> bool:
    row = conn.execute(
        "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'"
    ).fetchone()
    return bool(row and row[0])


def _recorded(conn: psycopg.Connection[Any]) -> int:
    """The highest migration the database records (0: none, or no store at all)."""
    row = conn.execute("SELECT to_regclass('strata_migrations') IS NOT NULL").fetchone()
    if not (row and row[0]):
        return 0
    row = conn.execute("SELECT coalesce(max(version), 0) FROM strata_migrations").fetchone()
    return int(row[0]) if row else 0


def _as_recorded(conn: psycopg.Connection[Any], dim: int, target: int) -> int:
    """A read-only database's version, which must be this Strata's own (0: no store)."""
    current = _recorded(conn)
    if current not in (0, target):
        raise SchemaError(
            f"the read-only database holds Strata schema version {current}; this Strata "
            f"reads version {target}",
            hint="run this Strata's `strata index` against the primary once to migrate it"
            if current < target
            else f"upgrade Strata to a release that writes schema {current}",
        )
    if current:
        check_dim(conn, dim)
    return current


def check_dim(conn: psycopg.Connection[Any], dim: int) -> None:
    """Refuse a store whose vector column has another width than `dim` (0 = none)."""
    row = conn.execute(
        "SELECT atttypmod FROM pg_attribute "
        "WHERE attrelid = 'rag_chunks'::regclass AND attname = 'embedding'"
    ).fetchone()
    stored = max(int(row[0]), 0) if row else 0
    if stored != dim:
        raise EmbedderMismatchError(
            f"the PostgreSQL store holds {stored}-d vectors; this run uses {dim}-d",
            hint="run `strata index --full` to rebuild with the configured embedder",
        )
