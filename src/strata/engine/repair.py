"""Repair of an index: back it up, then fix what `strata.engine.doctor.check` found.

Repair backs the index directory up first (unless it only folds rows into the search
indexes, which changes no row), then drops bad rows, re-indexes through
`Engine.refresh` and rebuilds the search indexes (`optimize`, where the store keeps any).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from strata.engine import Engine
from strata.engine.doctor import ERROR, Problem, Report, check
from strata.errors import EmbedderError
from strata.store.capabilities import Maintenance
from strata.workspace.lock import LOCK_NAME, write_lock

__all__ = ["repair"]

# Problems `repair` fixes by re-indexing the path from disk (after dropping its rows).
_REINDEX = ("stale", "unindexed", "rows", "mixed", "duplicate")
_DROP = ("orphan", "duplicate", "mixed", "rows")
# Problems `optimize` alone fixes, changing no row: no backup is made for them.
_INDEX_ONLY = ("lag",)
_REBUILD = "schema/embedder mismatch needs a rebuild: run `strata index --full`"


def repair(engine: Engine, report: Report) -> Report:
    """Back the index up, fix what `report` found, and return a fresh check with the actions.

    Nothing is backed up (or touched) when nothing `report` found is something repair
    fixes; older backups beyond `doctor.keep_backups` are removed after a new one.
    """
    if not _fixable(report):
        if _needs_rebuild(report):
            report.actions = [_REBUILD]
        return report
    actions: list[str] = []
    backup: Path | None = None
    if any(p.kind not in _INDEX_ONLY for p in report.problems if _fixable_problem(p)):
        backup = _backup(engine.index_dir)
        actions.append(f"backed up {engine.index_dir} to {backup}")
        actions += [f"removed old backup {p.name}" for p in _prune_backups(engine)]
    drop = sorted(report.paths(*_DROP))
    if drop:
        with write_lock(engine.index_dir):
            engine.repo_store().replace_sources({p: [] for p in drop})
        actions.append(f"dropped the rows of {len(drop)} paths: {_few(drop)}")
    actions += _reindex(engine, report)
    if any(p.kind == "corpus" for p in report.problems):
        engine.close()
        engine.index()  # finishes the cross-file pass a killed run left
        actions.append("finished the cross-file pass a stopped run left")
    with write_lock(engine.index_dir):
        engine.close()  # a fresh store handle re-reads which indexes exist
        store = engine.store
        if isinstance(store, Maintenance):
            store.optimize()
            actions.append("rebuilt the lexical index (optimize)")
    actions += _clean_leftovers(engine.index_dir, report)
    if _needs_rebuild(report):
        actions.append(_REBUILD)
    after = check(engine)
    after.actions, after.backup = actions, str(backup) if backup else None
    return after


def _fixable(report: Report) -> bool:
    """Whether repair would change anything for these problems."""
    return any(_fixable_problem(p) for p in report.problems)


def _fixable_problem(p: Problem) -> bool:
    if p.kind in _REINDEX or p.kind in _DROP or p.kind in ("vectors", "lexical", "corpus", "lag"):
        return True
    return p.kind == "lock" and p.path != LOCK_NAME


def _needs_rebuild(report: Report) -> bool:
    return any(p.kind in ("schema", "embedder") and p.severity == ERROR for p in report.problems)


def _backups(index_dir: Path) -> list[Path]:
    """This index's backups, oldest first (their names carry the time they were made)."""
    found = [p for p in index_dir.parent.glob(f"{index_dir.name}.bak-*") if p.is_dir()]
    return sorted(found, key=_backup_order)


def _backup_order(path: Path) -> tuple[str, int]:
    """`<name>.bak-<date>-<time>[-<n>]` -> (date-time, n): copies keep the index's mtime."""
    parts = path.name.rsplit(".bak-", 1)[-1].split("-")
    n = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
    return "-".join(parts[:2]), n


def _prune_backups(engine: Engine) -> list[Path]:
    """Remove all but the newest `doctor.keep_backups` backups; the removed ones."""
    keep = engine.config.doctor.keep_backups
    backups = _backups(engine.index_dir)
    old = backups[: max(0, len(backups) - keep)]
    for path in old:
        shutil.rmtree(path, ignore_errors=True)
    return old


def _backup(index_dir: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    # Within one second the next copy counts on from the newest of that second (not from
    # a gap that pruning left), so the names keep the order the copies were made in.
    same = [n for s, n in map(_backup_order, _backups(index_dir)) if s == stamp]
    name = f"{index_dir.name}.bak-{stamp}" + (f"-{max(same) + 1}" if same else "")
    dest = index_dir.with_name(name)
    with write_lock(index_dir):
        shutil.copytree(index_dir, dest, ignore=shutil.ignore_patterns(LOCK_NAME))
    return dest


def _reindex(engine: Engine, report: Report) -> list[str]:
    paths = sorted(report.paths(*_REINDEX))
    if not paths and not any(p.kind == "vectors" for p in report.problems):
        return []
    try:
        summary = engine.refresh(paths)
    except EmbedderError as exc:
        return [f"re-indexed lexically; vectors still missing (embedder failed: {exc})"]
    return [
        f"re-indexed {len(paths)} paths ({summary.indexed} files written, "
        f"{summary.vectors_embedded} vectors embedded): {_few(paths)}"
    ]


def _clean_leftovers(index_dir: Path, report: Report) -> list[str]:
    done: list[str] = []
    for p in report.problems:
        if p.kind != "lock":
            continue
        if p.path == LOCK_NAME:
            continue  # unlinking an flock file races with a writer opening it; it is harmless
        (index_dir / p.path).unlink(missing_ok=True)
        done.append(f"removed {p.path}")
    return done


def _few(items: Iterable[str], n: int = 5) -> str:
    items = list(items)
    more = f" and {len(items) - n} more" if len(items) > n else ""
    return ", ".join(items[:n]) + more
