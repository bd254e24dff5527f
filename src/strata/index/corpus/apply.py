"""Apply the corpus pass to a store: gather artifacts, compute, keep what changed, write it.

The I/O edge of the pass. Artifacts come from this run's per-file outcomes, then the
cache, then (for files indexed before the cache existed) a fresh read of the file. Only
paths whose corpus-layer rows differ from the store's are rewritten, each with its
other rows kept, in atomic batches; digests recorded in the cache at each write spare
fetching the rows of every path whose new rows match what was last written.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from strata.index.corpus.artifacts import NONE, Artifact, artifact_of
from strata.index.corpus.cache import ArtifactCache
from strata.index.corpus.code import code_pass
from strata.index.corpus.docs import docs_pass_of
from strata.index.corpus.rows import (
    CODE_CORPUS_LAYERS,
    DOC_CORPUS_LAYERS,
    RowsByPath,
    changed_rows,
    digest_of,
    group_by_path,
    merge_rows,
    stamp_of,
)
from strata.index.extraction import extract
from strata.store import Filter, Store
from strata.types import FileState, Record, Skip, SourceFile
from strata.workspace.memory import collector_paused

log = logging.getLogger(__name__)

PATHS_PER_COMMIT = 200


@dataclass(slots=True)
class CorpusReport:
    """What one corpus pass did, for logs and the index summary."""

    files: int = 0
    read_again: int = 0
    rewritten: list[str] = field(default_factory=list)
    rows: int = 0
    rows_by_layer: dict[str, int] = field(default_factory=dict)  # corpus-layer rows written
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


@collector_paused()
def refresh_corpus(
    store: Store,
    cache: ArtifactCache,
    root: Path,
    fresh: Mapping[str, Artifact],
    trust_digests: bool = True,
    written: Mapping[str, str] | None = None,
) -> CorpusReport:
    """Recompute the corpus layers of the whole index and rewrite the paths that changed.

    Only paths whose new rows' digest differs from the one recorded when their rows were
    last written (or whose digest is unknown, or which the per-file pass rewrote) are
    fetched from the store and compared; the others are known to be up to date. After
    an unfinished pass (`trust_digests=False`) every path is compared: the per-file rows
    a killed run wrote may sit under digests that still match. `written` holds, for paths
    the per-file pass wrote in this run, the digest of the corpus-layer rows it wrote: a
    path whose new rows have that digest is up to date without a look at the store (a
    generated module's 40k roles are not read back to find them unchanged).
    """
    started = time.monotonic()
    states = store.sources()
    live = {p: s.file_hash for p, s in states.items()}
    artifacts, read_again = gather_artifacts(cache, live, fresh, root)
    new = _layered(code_pass(artifacts), docs_pass_of(artifacts))
    digests = {p: digest_of(rows) for p, (rows, _) in new.items()}
    known = cache.digests(list(new))
    written = written or {}
    same = {p for p in new if p in fresh and written.get(p) == digests[p]}
    suspects = sorted(
        p
        for p in new
        if not trust_digests
        or (p in fresh and p not in same)
        or (p not in fresh and known.get(p) != (_stamp(states.get(p)), digests[p]))
    )
    if trust_digests:
        cache.put_digests({p: (_stamp(states.get(p)), digests[p]) for p in same})
    report = CorpusReport(files=len(artifacts), read_again=read_again)
    for batch in _batches(suspects):
        current = group_by_path(store.fetch(Filter(paths=tuple(batch))))
        # a path with no rows at all was dropped meanwhile: leave it dropped
        present = [p for p in batch if current.get(p)]
        changed = changed_rows(
            {p: new[p][0] for p in present},
            {p: [r for r in current[p] if r.layer in new[p][1]] for p in present},
        )
        writes = {p: merge_rows(current[p], rows, new[p][1]) for p, rows in changed.items()}
        store.replace_sources(writes)
        # after the write: a crash in between leaves a stale digest only as a mismatch
        cache.put_digests({p: (stamp_of(current[p][0]), digests[p]) for p in present})
        report.rewritten += writes
        report.rows += sum(len(rows) for rows in writes.values())
        for p, rows in writes.items():
            for r in rows:
                if r.layer in new[p][1]:
                    report.rows_by_layer[r.layer] = report.rows_by_layer.get(r.layer, 0) + 1
    report.seconds = time.monotonic() - started
    log.info(
        "corpus pass: %d files, %d compared, %d rewritten, %.2fs",
        report.files,
        len(suspects),
        len(report.rewritten),
        report.seconds,
    )
    return report


def _layered(code: RowsByPath, docs: RowsByPath) -> dict[str, tuple[list[Record], tuple[str, ...]]]:
    """Each covered path's new rows with the layers they replace."""
    out: dict[str, tuple[list[Record], tuple[str, ...]]] = {
        p: (rows, CODE_CORPUS_LAYERS) for p, rows in code.items()
    }
    out.update((p, (rows, DOC_CORPUS_LAYERS)) for p, rows in docs.items())
    return out


def _stamp(state: FileState | None) -> str:
    return "" if state is None else f"{state.file_hash}:{state.size}:{state.mtime_ns}"


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
