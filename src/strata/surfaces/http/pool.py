"""Warm engines of one index, reused across requests by `strata serve`.

An engine is reused while what it was opened with stays the same: root, index directory,
store, every configuration value and its source, and the index build (a rebuild with
`strata index --full` records a new `created` time, so it gets a fresh engine). The served
engine is asked for on every request: it is looked up again only when a file it was opened
from (the locator, a config file) or a `STRATA_*` variable changed, which a few `stat`s tell.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from strata.config import KEYS, config_files
from strata.engine import Engine
from strata.errors import NoIndexError
from strata.store.uri import redact
from strata.workspace.locate import locator_path


class ForeignIndexError(Exception):
    """A command asked for another index (or store) than the one served."""


class Engines:
    """Warm engines of the served index, by root, store, configuration and index build.

    `get` has `Common.engine`'s signature, so CLI commands run by the server reuse them.
    """

    def __init__(self, home: Engine, store_flag: str | None = None, limit: int = 4) -> None:
        self.home = home
        self._store_flag = store_flag
        self._limit = limit
        self._cache: OrderedDict[tuple[Any, ...], Engine] = OrderedDict()
        self._lock = threading.Lock()
        self._served: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None  # (stamp, key)
        self._keep(home)

    @classmethod
    def open(
        cls, path: str | None, index_dir: str | os.PathLike[str] | None, store: str | None
    ) -> Engines:
        """The engines of the index `Engine.open` finds; NoIndexError when none is built."""
        home = Engine.open(path, index_dir=index_dir, store=store)
        if not home.exists:
            raise NoIndexError(
                f"no index at {home.index_dir}", hint=f"run `strata index {home.root}` first"
            )
        return cls(home, store)

    def served(self) -> Engine:
        """The engine of the served index under the server's own configuration."""
        stamp = _stamp(self.home.index_dir)
        with self._lock:
            if self._served is not None and self._served[0] == stamp:
                eng = self._cache.get(self._served[1])
                if eng is not None:  # not closed since (a `/cli` run may push it out)
                    return eng
        eng = self.get(None, self.home.index_dir, self._store_flag, None)
        with self._lock:
            self._served = (stamp, _key(eng))
        return eng

    def get(
        self,
        path: str | None = None,
        index_dir: Path | None = None,
        store_uri: str | None = None,
        config: dict[str, Any] | None = None,
        cwd: Path | None = None,
    ) -> Engine:
        """The warm engine `Engine.open` would give (ForeignIndexError for another index)."""
        fresh = Engine.open(path, index_dir=index_dir, store=store_uri, config=config, cwd=cwd)
        if (fresh.index_dir, fresh.store_uri) != (self.home.index_dir, self.home.store_uri):
            raise ForeignIndexError(
                f"this server serves {self.home.index_dir} ({redact(self.home.store_uri)}), "
                f"not {fresh.index_dir} ({redact(fresh.store_uri)})"
            )
        return self._keep(fresh)

    def _keep(self, fresh: Engine) -> Engine:
        key = _key(fresh)
        with self._lock:
            eng = self._cache.get(key)
            if eng is None:
                self._cache[key] = eng = fresh
                while len(self._cache) > self._limit:
                    self._cache.popitem(last=False)[1].close()
            self._cache.move_to_end(key)
            return eng

    def close(self) -> None:
        """Release every engine."""
        with self._lock:
            for eng in self._cache.values():
                eng.close()
            self._cache.clear()


def _stamp(index_dir: Path) -> tuple[Any, ...]:
    """What `Engine.open` of the served index reads, as cheaply as it can be seen to change."""
    stats: list[tuple[int, int, int] | None] = []
    for path in (locator_path(index_dir), *config_files(index_dir)):
        try:
            st = path.stat()
        except OSError:
            stats.append(None)
            continue
        stats.append((st.st_ino, st.st_mtime_ns, st.st_size))
    env = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("STRATA_")))
    return (*stats, env)


def _key(eng: Engine) -> tuple[Any, ...]:
    """What makes two opened engines interchangeable (a rebuild changes `created`)."""
    return (
        str(eng.root),
        str(eng.index_dir),
        eng.store_uri,
        tuple(repr(eng.config.value(k)) for k in KEYS),
        tuple(sorted(eng.config.sources.items())),
        eng.build_id(),
    )
