"""One SQLite file in WAL mode, the plumbing shared by the caches next to the store."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self from Python 3.11 on

from strata.errors import StoreError

_CHUNK = 500  # keeps each IN (...) under SQLite's bound-variable limit
_BUSY_MS = 60_000


class SqliteFile:
    """A SQLite file several processes may share (WAL, with a busy timeout for writers).

    Subclasses name what the file holds (`WHAT`, used in errors), give its `SCHEMA` and,
    optionally, a `HINT` saying how to recover from a file that cannot be opened.
    """

    WHAT: ClassVar[str] = "SQLite file"
    SCHEMA: ClassVar[str] = ""
    HINT: ClassVar[str | None] = None

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.RLock()
        try:
            # Any thread may use it, one at a time (`_lock`): a large file's rows are made,
            # and their cached vectors read, inside the store's writer thread (index/stream).
            self._db = sqlite3.connect(
                path, timeout=_BUSY_MS / 1000, isolation_level=None, check_same_thread=False
            )
            self._db.execute(f"PRAGMA busy_timeout={_BUSY_MS}")
            self._wal()
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(self.SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.WHAT} {path}: {exc}", hint=self.HINT) from exc

    def _wal(self) -> None:
        """Switch to WAL once; the switch takes a lock that SQLite does not wait for, so two
        processes opening a new file at the same moment retry instead of failing."""
        for attempt in range(100):
            try:
                if self._db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                    self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 99:
                    raise
                time.sleep(0.05)

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _select_in(self, sql: str, keys: Sequence[str], *params: object) -> Iterator[Any]:
        """The rows of `sql` over `keys` in slices; `sql` writes the IN list as `{marks}`.

        `params` bind before the keys, so they stand for the `?` ahead of the IN list.
        """
        for start in range(0, len(keys), _CHUNK):
            part = keys[start : start + _CHUNK]
            marks = ",".join("?" * len(part))
            with self._lock:
                rows = self._db.execute(sql.format(marks=marks), (*params, *part)).fetchall()
            yield from rows

    def _fill_temp(self, table: str, column: str, values: Iterable[str]) -> None:
        """(Re)fill the one-column temp table `table` with `values`, for NOT IN deletes."""
        self._db.execute(f"CREATE TEMP TABLE IF NOT EXISTS {table} ({column} TEXT PRIMARY KEY)")
        self._db.execute(f"DELETE FROM {table}")
        self._db.executemany(f"INSERT OR IGNORE INTO {table} VALUES (?)", ((v,) for v in values))
