"""Integrity check of an index: `check(engine)` finds problems (`strata.engine.repair` fixes them).

Checked: schema version and search indexes (as the store reports them, if it can:
`strata.store.capabilities.Integrity`); embedding model and width against the
configuration; every indexed file's hash against the disk (files are re-processed only
when their rows look wrong, or all of them with `deep`); orphan rows; duplicate ids;
rows without vectors; rows the full-text index has not reached (`upkeep.LAG_ROWS`); that a
sample of rows is found by a lexical search of its own rare tokens; stale lock and
temporary files.
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strata.engine import Engine, upkeep
from strata.errors import EmbedderError, EmbedderMismatchError, StrataError
from strata.index.corpus.cache import corpus_unfinished
from strata.index.discovery import discover
from strata.index.pipeline import process_file
from strata.layers import EMBEDDED_LAYERS, PASSAGE_LAYERS
from strata.store import Filter
from strata.store.capabilities import IndexHealth, Integrity
from strata.text.tokens import STOP_WORDS, tokens
from strata.types import Record, SourceFile
from strata.workspace.fileread import file_hash
from strata.workspace.locate import META_NAME
from strata.workspace.lock import LOCK_NAME, holder, is_locked

__all__ = ["Problem", "Report", "check"]

log = logging.getLogger(__name__)

ERROR, INFO = "error", "info"


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
    base = engine.parts.base_store
    health = base.integrity() if isinstance(base, Integrity) else None
    report.problems += _schema(health) + _embedder(engine) + _leftovers(engine.index_dir)
    report.problems += _corpus(engine.index_dir)
    rows = engine.repo_store().fetch(Filter())
    on_disk = {f.rel: f for f in discover(engine.root, engine.config.index).files}
    report.problems += _rows(rows, engine.store.dim)
    report.problems += _files(engine, rows, on_disk, rng, sample, deep)
    report.problems += _lexical(engine, rows, rng, sample) + _search_indexes(health)
    report.stats = {
        "rows": len(rows),
        "files_indexed": len({r.path for r in rows}),
        "files_on_disk": len(on_disk),
    }
    report.seconds = time.monotonic() - started
    return report


# ---- the checks -------------------------------------------------------------------------------
def _schema(health: IndexHealth | None) -> list[Problem]:
    if health is None or health.schema_version == health.writes_version:
        return []
    why = f"schema version {health.schema_version}, this Strata writes {health.writes_version}"
    return [Problem("schema", "", why + "; run `strata index --full`")]


def _embedder(engine: Engine) -> list[Problem]:
    meta = engine.parts.locator()
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


def _search_indexes(health: IndexHealth | None) -> list[Problem]:
    """The store's search indexes exist, are this Strata's, and cover most rows."""
    if health is None:
        return []
    if health.missing:
        why = f"search indexes missing: {', '.join(health.missing)} (searches scan every row)"
        return [Problem("lexical", "", why)]
    if health.outdated:
        why = f"search indexes built by an older Strata: {', '.join(health.outdated)}"
        return [Problem("lexical", "", why + " (another analysis of the text)")]
    # lexical searches scan the rows behind: `--repair` folds them in
    if health.unindexed_rows > upkeep.LAG_ROWS:
        why = f"{health.unindexed_rows} rows not yet in the full-text index (searched by a scan)"
        return [Problem("lag", "", why)]
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
