"""Integrity check and repair of an index: `check(engine)` finds problems, `repair` fixes them.

Checked: schema version; embedding model and width against the configuration;
every indexed file's hash against the disk (files are re-processed only when their
rows look wrong, or all of them with `deep`); orphan rows; duplicate ids; rows
without vectors; that a sample of rows is found by a lexical search of its own
rare tokens; stale lock and temporary files. Repair backs the index directory up
first, then drops bad rows, re-indexes through `Engine.refresh` and rebuilds the
lexical index with `optimize()`.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strata.engine import Engine
from strata.errors import EmbedderError, EmbedderMismatchError, StrataError
from strata.index.corpus.cache import corpus_unfinished
from strata.index.discovery import discover
from strata.index.pipeline import process_file
from strata.layers import EMBEDDED_LAYERS, PASSAGE_LAYERS
from strata.store import Filter
from strata.store.schema import SCHEMA_VERSION
from strata.text.tokens import STOP_WORDS, tokens
from strata.types import Record, SourceFile
from strata.workspace.fileread import file_hash
from strata.workspace.locate import META_NAME
from strata.workspace.lock import LOCK_NAME, holder, is_locked, write_lock

__all__ = ["Problem", "Report", "check", "repair"]

log = logging.getLogger(__name__)

ERROR, INFO = "error", "info"
FTS_LAG_ROWS = 10_000  # rows outside the full-text index before `optimize` is suggested
# Problems `repair` fixes by re-indexing the path from disk (after dropping its rows).
_REINDEX = ("stale", "unindexed", "rows", "mixed", "duplicate")
_DROP = ("orphan", "duplicate", "mixed", "rows")
_REBUILD = "schema/embedder mismatch needs a rebuild: run `strata index --full`"


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: its kind, the path it concerns ('' for the whole index), and a detail."""

    kind: str
    path: str
    detail: str
    severity: str = ERROR


@dataclass(slots=True)
class Report:
    """What `check` found (and, after `repair`, what was done)."""

    problems: list[Problem] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    backup: str | None = None
    seconds: float = 0.0

    @property
    def healthy(self) -> bool:
        """No problem of severity `error`."""
        return not any(p.severity == ERROR for p in self.problems)

    def paths(self, *kinds: str) -> set[str]:
        """The paths of problems of these kinds."""
        return {p.path for p in self.problems if p.kind in kinds and p.path}

    def to_json(self) -> dict[str, Any]:
        """The report as printed by `strata doctor --json`."""
        return {
            "healthy": self.healthy,
            "problems": [
                {"kind": p.kind, "path": p.path, "detail": p.detail, "severity": p.severity}
                for p in self.problems
            ],
            "counts": dict(Counter(p.kind for p in self.problems)),
            "actions": self.actions,
            "backup": self.backup,
            "stats": self.stats,
            "seconds": round(self.seconds, 3),
        }


def check(engine: Engine, *, sample: int = 25, deep: bool = False, seed: int = 0) -> Report:
    """Check an index against its files and itself.

    Args:
        engine: the open engine (its index must exist).
        sample: how many rows the lexical check searches for, and how many files with
            plausible rows are re-processed to compare row sets.
        deep: re-process every indexed file, not a sample.
        seed: seed of the sampling.
    """
    started = time.monotonic()
    report = Report()
    rng = random.Random(seed)
    report.problems += _schema(engine) + _embedder(engine) + _leftovers(engine.index_dir)
    report.problems += _corpus(engine.index_dir)
    rows = engine.repo_store().fetch(Filter())
    on_disk = {f.rel: f for f in discover(engine.root, engine.config.index).files}
    report.problems += _rows(rows, engine.store.dim)
    report.problems += _files(engine, rows, on_disk, rng, sample, deep)
    report.problems += _lexical(engine, rows, rng, sample) + _fts_index(engine)
    report.stats = {
        "rows": len(rows),
        "files_indexed": len({r.path for r in rows}),
        "files_on_disk": len(on_disk),
    }
    report.seconds = time.monotonic() - started
    return report


# ---- the checks -------------------------------------------------------------------------------
def _schema(engine: Engine) -> list[Problem]:
    version = int(engine.store.read_meta().get("schema_version", SCHEMA_VERSION))
    if version != SCHEMA_VERSION:
        return [
            Problem(
                "schema",
                "",
                f"schema version {version}, this Strata writes {SCHEMA_VERSION}; "
                "run `strata index --full`",
            )
        ]
    return []


def _embedder(engine: Engine) -> list[Problem]:
    meta = _locator(engine.index_dir)
    dim = int(meta.get("dim", 0))
    if meta.get("vectors_pending"):
        why = f"no vectors yet ({meta['vectors_pending']}): run `strata index` when it answers"
        return [Problem("embedder", "", why)]
    if dim != engine.store.dim:
        return [Problem("embedder", "", f"locator says {dim}-d, store holds {engine.store.dim}-d")]
    if engine.config.embed.provider == "none":
        if dim:
            return [
                Problem(
                    "embedder",
                    "",
                    f"index has {dim}-d vectors ({meta.get('embedder')}); "
                    "config asks for none: run `strata index --full`",
                )
            ]
        return []
    try:
        engine.embedder()
    except EmbedderMismatchError as exc:
        return [Problem("embedder", "", str(exc))]
    except EmbedderError as exc:
        return [Problem("embedder", "", f"cannot verify the embedder: {exc}", INFO)]
    return []


def _corpus(index_dir: Path) -> list[Problem]:
    why = "a run stopped before its cross-file pass (C2-C4, D2-D6) was done: `strata index`"
    why += " finishes it"
    return [Problem("corpus", name, why) for name in corpus_unfinished(index_dir)]


def _leftovers(index_dir: Path) -> list[Problem]:
    found: list[Problem] = []
    lock = index_dir / LOCK_NAME
    if lock.exists() and not is_locked(index_dir) and not _alive(holder(lock)):
        last = holder(lock) or "no pid"
        found.append(
            Problem(
                "lock",
                LOCK_NAME,
                f"lock file of a writer that is gone ({last}); harmless, the kernel released it",
                INFO,
            )
        )
    for tmp in [index_dir / (META_NAME + ".tmp"), *index_dir.glob("lance/meta.json*.tmp")]:
        if tmp.exists():
            found.append(
                Problem("lock", str(tmp.relative_to(index_dir)), "leftover temporary file", INFO)
            )
    return found


def _rows(rows: list[Record], dim: int) -> list[Problem]:
    found: list[Problem] = []
    dup = Counter(r.id for r in rows)
    for path in sorted({r.path for r in rows if dup[r.id] > 1}):
        n = sum(1 for r in rows if r.path == path and dup[r.id] > 1)
        found.append(Problem("duplicate", path, f"{n} rows share an id"))
    versions: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        versions[r.path].add(r.file_hash)
    found += [
        Problem("mixed", p, f"rows from {len(h)} versions of the file")
        for p, h in sorted(versions.items())
        if len(h) > 1
    ]
    if dim:  # only the embedded layers get vectors (as `status` counts them)
        embedded = [r for r in rows if r.layer in EMBEDDED_LAYERS]
        missing = sum(1 for r in embedded if r.vector is None)
        if missing:
            found.append(
                Problem("vectors", "", f"{missing} of {len(embedded)} rows have no vector")
            )
    return found


def _files(
    engine: Engine,
    rows: list[Record],
    on_disk: dict[str, SourceFile],
    rng: random.Random,
    sample: int,
    deep: bool,
) -> list[Problem]:
    by_path: dict[str, list[Record]] = defaultdict(list)
    for r in rows:
        by_path[r.path].append(r)
    found = [
        Problem("orphan", p, "rows for a path that is not an indexable file on disk")
        for p in sorted(by_path)
        if p not in on_disk
    ]
    current: list[str] = []
    for rel in sorted(set(by_path) & on_disk.keys()):
        digest = file_hash(on_disk[rel])
        if digest not in {r.file_hash for r in by_path[rel]}:
            found.append(Problem("stale", rel, "file changed on disk since it was indexed"))
        else:
            current.append(rel)
    chosen = current if deep else rng.sample(current, min(sample, len(current)))
    for rel in chosen:
        want = _expected(engine, on_disk[rel])
        got = {(r.id, r.content_hash) for r in by_path[rel] if r.layer in PASSAGE_LAYERS}
        if want is not None and got != want:
            found.append(Problem("rows", rel, f"{len(got)} rows indexed, {len(want)} expected"))
    for rel in sorted(on_disk.keys() - by_path.keys()):
        if _expected(engine, on_disk[rel]):
            found.append(Problem("unindexed", rel, "indexable file not in the index"))
    return found


def _lexical(engine: Engine, rows: list[Record], rng: random.Random, sample: int) -> list[Problem]:
    candidates = [(r, t) for r in rng.sample(rows, min(len(rows), sample * 4)) if (t := _rare(r))]
    misses = 0
    for record, token in candidates[:sample]:
        try:
            hits = engine.repo_store().lexical_search([token], 200, Filter(paths=(record.path,)))
        except (StrataError, OSError, RuntimeError, ValueError) as exc:
            return [Problem("lexical", "", f"lexical search fails: {exc}")]
        misses += record.id not in {h.id for h, _ in hits}
    if misses:
        return [
            Problem(
                "lexical",
                "",
                f"{misses} of {min(sample, len(candidates))} sampled rows "
                "not found by their own words",
            )
        ]
    return []


def _fts_index(engine: Engine) -> list[Problem]:
    """The full-text index exists and covers most rows (on PostgreSQL: every index exists)."""
    missing = getattr(engine.store, "missing_indexes", None)
    if missing is not None:
        names = missing()
        why = f"search indexes missing: {', '.join(names)} (searches scan every row)"
        return [Problem("lexical", "", why)] if names else []
    table = getattr(engine.store, "_table", None)  # hook wanted: Store.index_stats()
    if table is None or not hasattr(table, "list_indices"):
        return []
    if "lex_idx" not in {ix.name for ix in table.list_indices()}:
        return [Problem("lexical", "", "the full-text index is missing (searches scan every row)")]
    current = getattr(engine.store, "full_text_current", None)
    if current is not None and not current():
        why = "the full-text index was built by an older Strata (no stems)"
        return [Problem("lexical", "", why)]
    stats = table.index_stats("lex_idx")
    behind = int(getattr(stats, "num_unindexed_rows", 0) or 0)
    if behind > FTS_LAG_ROWS:
        return [Problem("lexical", "", f"{behind} rows not yet in the full-text index", INFO)]
    return []


# ---- helpers ----------------------------------------------------------------------------------
def _expected(engine: Engine, f: SourceFile) -> set[tuple[str, str]] | None:
    """The (id, content hash) chunk rows a clean index holds for a file (None: unindexable).

    Only the passage layers are compared: the corpus pass rewrites the others
    (resolved edges, catalog entries) after `process_file`.
    """
    outcome = process_file(f, engine.config)
    if outcome.skip is not None:
        return None
    return {(r.id, r.content_hash) for r in outcome.records if r.layer in PASSAGE_LAYERS}


def _rare(record: Record) -> str | None:
    words = [w for w in tokens(record.content or "") if len(w) >= 5 and w not in STOP_WORDS]
    return max(words, key=len) if words else None


def _alive(text: str) -> bool:
    try:
        os.kill(int(text.split()[-1]), 0)
    except (ValueError, IndexError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def _locator(index_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((index_dir / META_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


# ---- repair -----------------------------------------------------------------------------------
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
        engine.store.optimize()
    actions.append("rebuilt the lexical index (optimize)")
    actions += _clean_leftovers(engine.index_dir, report)
    if _needs_rebuild(report):
        actions.append(_REBUILD)
    after = check(engine)
    after.actions, after.backup = actions, str(backup)
    return after


def _fixable(report: Report) -> bool:
    """Whether repair would change anything for these problems."""
    for p in report.problems:
        if p.kind in _REINDEX or p.kind in _DROP or p.kind in ("vectors", "lexical", "corpus"):
            return True
        if p.kind == "lock" and p.path != LOCK_NAME:
            return True
    return False


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
