"""Apply the corpus pass to a store: gather artifacts, compute, keep what changed, write it.

The I/O edge of the pass. Artifacts come from this run's per-file outcomes, then the
cache, then (for files indexed before the cache existed) a fresh read of the file. Only
paths whose corpus-layer rows differ from the store's are rewritten, each with its
other rows kept, in atomic batches.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from strata.corpus.artifacts import NONE, Artifact, artifact_of
from strata.corpus.cache import ArtifactCache
from strata.corpus.code import code_pass
from strata.corpus.docs import docs_pass_of
from strata.corpus.rows import (
    CODE_CORPUS_LAYERS,
    CORPUS_LAYERS,
    DOC_CORPUS_LAYERS,
    RowsByPath,
    changed_rows,
    group_by_path,
    merge_rows,
)
from strata.extraction import extract
from strata.store import Filter, Store
from strata.types import Record, Skip, SourceFile

log = logging.getLogger(__name__)

PATHS_PER_COMMIT = 200


@dataclass(slots=True)
class CorpusReport:
    """What one corpus pass did, for logs and the index summary."""

    files: int = 0
    read_again: int = 0
    rewritten: list[str] = field(default_factory=list)
    rows: int = 0
    seconds: float = 0.0


def gather_artifacts(
    cache: ArtifactCache, live: Mapping[str, str], fresh: Mapping[str, Artifact], root: Path
) -> tuple[dict[str, Artifact], int]:
    """Every live path's artifact (by its indexed hash) and how many had to be read again.

    `fresh` artifacts (this run's outcomes) are stored in the cache first; paths that
    are still missing are read from `root`, and skipped if their content no longer
    matches the index (the next run re-indexes them).
    """
    cache.put_many(a for p, a in fresh.items() if live.get(p) == a.file_hash)
    cache.prune(live)
    found = cache.get_many(live)
    missing = [p for p in sorted(live) if p not in found]
    read = [a for a in (_read(root, p, live[p]) for p in missing) if a is not None]
    cache.put_many(read)
    found.update((a.path, a) for a in read)
    return found, len(missing)


def refresh_corpus(
    store: Store, cache: ArtifactCache, root: Path, fresh: Mapping[str, Artifact]
) -> CorpusReport:
    """Recompute the corpus layers of the whole index and rewrite the paths that changed."""
    started = time.monotonic()
    live = {p: s.file_hash for p, s in store.sources().items()}
    artifacts, read_again = gather_artifacts(cache, live, fresh, root)
    new_code, new_docs = code_pass(artifacts), docs_pass_of(artifacts)
    stored = store.fetch(Filter(layers=CORPUS_LAYERS))
    changed = {
        **{p: (rows, CODE_CORPUS_LAYERS) for p, rows in _changed(new_code, stored, True).items()},
        **{p: (rows, DOC_CORPUS_LAYERS) for p, rows in _changed(new_docs, stored, False).items()},
    }
    report = CorpusReport(files=len(artifacts), read_again=read_again)
    for batch in _batches(sorted(changed)):
        current = group_by_path(store.fetch(Filter(paths=tuple(batch))))
        writes = {
            p: merge_rows(current[p], *changed[p]) for p in batch if current.get(p)
        }  # a path with no rows at all was dropped meanwhile: leave it dropped
        store.replace_sources(writes)
        report.rewritten += writes
        report.rows += sum(len(rows) for rows in writes.values())
    report.seconds = time.monotonic() - started
    log.info(
        "corpus pass: %d files, %d rewritten, %.2fs",
        report.files,
        len(report.rewritten),
        report.seconds,
    )
    return report


def _changed(new: RowsByPath, stored: list[Record], code: bool) -> RowsByPath:
    layers = CODE_CORPUS_LAYERS if code else DOC_CORPUS_LAYERS
    return changed_rows(new, group_by_path(stored, layers))


def _batches(paths: list[str], size: int = PATHS_PER_COMMIT) -> Iterator[list[str]]:
    for start in range(0, len(paths), size):
        yield paths[start : start + size]


def _read(root: Path, rel: str, indexed_hash: str) -> Artifact | None:
    """The artifact of a file indexed before its artifact was cached, if it is unchanged."""
    got = extract(SourceFile(root / rel, rel, 0, 0))
    if isinstance(got, Skip) or got.file_hash != indexed_hash:
        log.debug("%s changed since it was indexed; its corpus rows wait for the next run", rel)
        return None
    try:
        return artifact_of(rel, got.text, got.lang, got.file_hash, got.kind)
    except (RecursionError, MemoryError, ValueError, SyntaxError) as exc:
        # as in the per-file pipeline, a parser bug costs one file, never the run
        log.warning("%s: no corpus artifact (%s)", rel, exc)
        return Artifact(rel, got.file_hash, NONE, got.lang)
