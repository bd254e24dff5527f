"""Store URIs: which backend a scheme names (`SCHEMES`), and a URI as it may be shown.

`lancedb://DIR` (or a plain path) is the embedded store, `postgresql://...` a server.
A backend is imported only when a URI of its scheme is opened. A password in a URI is
never printed or logged (`redact`).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from strata.errors import StoreError

if TYPE_CHECKING:
    from strata.store.core import Store

__all__ = ["SCHEMES", "Backend", "backend", "redact"]

_USERINFO = re.compile(r"(://[^/@:?#]*:)[^@/?#]*@")
_PASSWORD = re.compile(r"(password\s*=\s*)('[^']*'|[^&\s]*)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Backend:
    """How the stores of one URI scheme are opened and dropped."""

    open: Callable[[str, int, bool], Store]  # (uri, dim, create) -> the store
    drop: Callable[[str], None]  # remove all the URI holds (`index --full`, a new width)
    shared: bool = False  # a server that writers share with no common index directory


def redact(uri: str) -> str:
    """`uri` with any password (`user:secret@`, `password=secret`) replaced by `***`."""
    return _PASSWORD.sub(r"\1***", _USERINFO.sub(r"\1***@", uri))


def backend(uri: str) -> Backend:
    """The backend of `uri`'s scheme (a plain path is `lancedb`).

    Raises:
        StoreError: an unknown scheme.
    """
    scheme, sep, _ = uri.partition("://")
    found = SCHEMES.get(scheme.lower() if sep else "lancedb")
    if found is None:
        raise StoreError(f"unknown store scheme {scheme!r} in {redact(uri)!r}", hint=_HINT)
    return found


def _directory(uri: str) -> Path:
    _, sep, rest = uri.partition("://")
    where = rest if sep else uri
    if not where:
        raise StoreError(f"store URI {uri!r} names no directory", hint="use lancedb://DIR")
    return Path(where)


def _open_lance(uri: str, dim: int, create: bool) -> Store:
    from strata.store.lance import LanceStore  # heavy import, only when used

    return LanceStore(_directory(uri), dim, create=create)


def _drop_lance(uri: str) -> None:
    shutil.rmtree(_directory(uri), ignore_errors=True)


def _postgres() -> Any:
    """The PostgreSQL backend's module, imported on first use (with a hint if not installed)."""
    try:
        from strata.store.postgres import store
    except ImportError as exc:
        raise StoreError(
            f"the PostgreSQL store needs {exc.name or 'psycopg'}",
            hint="pip install 'strata-index[postgres]'",
        ) from None
    return store


def _open_postgres(uri: str, dim: int, create: bool) -> Store:
    store: Store = _postgres().PgStore(uri, dim, create=create)
    return store


def _drop_postgres(uri: str) -> None:
    _postgres().drop_store(uri)


_HINT = "use lancedb://DIR or postgresql://..."
_POSTGRES = Backend(_open_postgres, _drop_postgres, shared=True)
SCHEMES: dict[str, Backend] = {
    "lancedb": Backend(_open_lance, _drop_lance),
    "postgresql": _POSTGRES,
    "postgres": _POSTGRES,
}
