"""A warm process's upkeep of the index it serves: rows the store's full-text index has not
reached (an interrupted embedding pass, another process's writes) folded in, so a server
or watcher does not answer from a flat scan for ever.

More than `LAG_ROWS` rows behind is what `strata doctor` calls a problem, `status` calls
not healthy, and `serve`/`watch` fold in by themselves. The fold holds the index's write
lock as writers do; if a writer holds it, the writer folds in at its end
(`strata.index.upkeep`). A store that keeps its indexes current on every write
(PostgreSQL) is never behind.
"""

from __future__ import annotations

import logging
import threading

from strata.engine.parts import Parts
from strata.errors import LockError, StrataError
from strata.store import capabilities
from strata.store.capabilities import Maintenance
from strata.workspace.lock import write_lock

__all__ = ["LAG_ROWS", "catch_up", "catch_up_in_background", "lagging"]

log = logging.getLogger(__name__)

# Rows outside the full-text index past which lexical search is slow enough to matter
# (each costs ~6 µs of scan per query: 10k rows, ~60 ms; 179k rows, 1.0-1.3 s). A constant,
# not a config key: it follows from the store's costs, not from a user's taste, and
# doctor, status, serve and watch must agree on it.
LAG_ROWS = 10_000


def lagging(parts: Parts) -> int:
    """Rows outside the store's full-text index if more than `LAG_ROWS`, else 0."""
    behind = capabilities.unindexed_rows(parts.base_store)
    return behind if behind > LAG_ROWS else 0


def catch_up(parts: Parts, *, wait: float = 0.2) -> bool:
    """Fold the rows in if more than `LAG_ROWS` are behind; whether it did (False: none
    behind, or a writer holds the lock and folds them in itself)."""
    store = parts.base_store
    if not isinstance(store, Maintenance) or not lagging(parts):
        return False
    try:
        with write_lock(parts.index_dir, wait=wait):
            behind = lagging(parts)  # a writer may have folded them in meanwhile
            if behind:
                log.info("folding %d rows into the full-text index of %s", behind, parts.index_dir)
                store.optimize()
    except LockError:
        log.info("rows outside the full-text index: the running writer folds them in")
        return False
    return bool(behind)


def catch_up_in_background(parts: Parts) -> threading.Thread:
    """`catch_up` in a daemon thread (searches meanwhile scan the rows behind)."""

    def run() -> None:
        try:
            catch_up(parts)
        except (StrataError, OSError, RuntimeError, ValueError) as exc:
            log.warning("could not fold rows into the full-text index: %s", exc)

    thread = threading.Thread(target=run, name="strata-upkeep", daemon=True)
    thread.start()
    return thread
