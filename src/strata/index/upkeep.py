"""The store's own search indexes kept current while a run writes, paced against its cost.

LanceDB's full-text index covers the rows it was built over. A row written since (a
vector set in place rewrites the row) is outside it, and every lexical search scans
those rows until `optimize()` folds them in: after an interrupted embedding pass that
was every row of the index (1.0-1.3 s of CPU per query at 179k rows). `Upkeep` folds
new rows in as a run goes, waiting `PACE` times the last fold's cost between folds (so
folding costs at most about 1/PACE of a run), and once more when a run stops early.
A store that keeps its indexes current on every write (PostgreSQL) reports no rows
behind, and nothing is folded.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from strata.store import Store, capabilities
from strata.store.capabilities import Maintenance

__all__ = ["FOLD_MIN_ROWS", "PACE", "Upkeep"]

log = logging.getLogger(__name__)

# Constants, not config keys: folding costs a run at most ~1/PACE whatever the store's
# speed (5-6 % measured, docs/benchmarks.md), and a user has nothing to weigh them against.
PACE = 10  # the wait between folds, in multiples of the last fold's cost
FOLD_MIN_ROWS = 1000  # rows behind worth a fold during a run (a scan of fewer costs little)
# Who folds in what a run left behind (past `engine.upkeep.LAG_ROWS`, also serve and watch).
LATER = "the next `strata index` folds them in"


class Upkeep:
    """Folds the rows a run wrote into the store's search indexes (`Maintenance.optimize`)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._clock = clock
        self._next = 0.0  # when the pace allows the next fold
        self.folds = 0
        self.seconds = 0.0  # spent folding

    def tick(self) -> None:
        """After a commit: fold if the pace allows and enough rows are behind."""
        if self._clock() >= self._next:
            self.fold(FOLD_MIN_ROWS)

    def fold(self, min_rows: int = 1) -> bool:
        """Fold in now if at least `min_rows` rows are outside the full-text index;
        whether it did."""
        store = self._store
        if not isinstance(store, Maintenance) or capabilities.unindexed_rows(store) < min_rows:
            return False
        started = self._clock()
        store.optimize()
        cost = self._clock() - started
        self._next = self._clock() + PACE * cost
        self.folds += 1
        self.seconds += cost
        return True

    def rescue(self, *, interrupted: bool = False) -> None:
        """For a run that stops early: make what it wrote searchable through the index.
        Never raises: the reason the run stopped is the error to report. Stopped by
        Ctrl-C, it says so first, and a second Ctrl-C skips the fold (what was written
        stays valid and is searched by a scan until something folds it in)."""
        try:
            if interrupted and (behind := capabilities.unindexed_rows(self._store)):
                log.warning(
                    "interrupted: folding the %d rows written into the full-text index "
                    "(Ctrl-C again skips it: %s)",
                    behind,
                    LATER,
                )
            if self.fold():
                log.info("folded the rows written so far into the search indexes")
        except KeyboardInterrupt:
            log.warning("fold skipped: rows written are searched by a scan until %s", LATER)
        except Exception as exc:  # a full disk, a store gone: the next run folds them in
            log.warning("rows written are searched by a scan until the next index: %s", exc)
