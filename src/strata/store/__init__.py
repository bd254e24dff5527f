"""Stores: the core every backend meets, the filter it understands, and `open_store`.

The core (`Store`, `Filter`: `strata.store.core`) is what indexing and searching need;
what a backend may do beyond it is an optional capability (`strata.store.capabilities`),
tested for with `isinstance`. The row format every backend reads and writes is
`strata.store.arrow`. Backends are chosen by URI scheme (`strata.store.uri.SCHEMES`):
`lancedb://DIR` (embedded, the default) and `postgresql://...` (server).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from strata.store.capabilities import RepoLocking
from strata.store.core import Filter, Hits, PerSource, Store
from strata.store.lancedb_import import defer_rest_client
from strata.store.uri import backend

defer_rest_client()  # before any store module imports LanceDB

__all__ = ["Filter", "Hits", "PerSource", "Store", "open_store", "recreate_store", "repo_lock"]


def open_store(uri: str, dim: int, *, create: bool = True) -> Store:
    """Open the store a URI names.

    Args:
        uri: `lancedb://DIR`, a directory path, or `postgresql://...` (a libpq URI).
        dim: vector width of the configured embedder (0 = lexical-only index).
        create: create an empty store if there is none (else raise `NoIndexError`).

    Raises:
        StoreError: an unknown or unavailable scheme, or a store that cannot be opened.
    """
    return backend(uri).open(uri, dim, create)


def recreate_store(uri: str, dim: int) -> Store:
    """Drop whatever the URI holds and open it empty for vectors of width `dim` (`index --full`)."""
    found = backend(uri)
    found.drop(uri)
    return found.open(uri, dim, True)


def repo_lock(
    uri: str, store: Callable[[], Store], repo: str, *, wait: float = 10.0
) -> contextlib.AbstractContextManager[None]:
    """The write lock of `repo` in a shared store (`uri` names a database server; `store`
    opens it), or nothing for an embedded one: the index directory's lock serialises
    its writers, and its store stays unopened until needed."""
    if backend(uri).shared:
        opened = store()
        if isinstance(opened, RepoLocking):
            return opened.writer_lock(repo, wait=wait)
    return contextlib.nullcontext()
