"""A file's passage rows (C0 source chunks, D0 doc chunks) and nothing else: the first look.

A cold run writes these rows for every new file before it builds any other layer, so
BM25 answers early (`Indexer._first_look`). A worker needs only this module for that
pass; the parsers, document builders and corpus code of the full pass
(`strata.index.pipeline`) load when the full pass reaches it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from strata.config import Config
from strata.index.chunking import chunk
from strata.index.extraction import extract
from strata.index.records import chunk_records
from strata.store.arrow import PreparedRows, prepare
from strata.types import Record, Skip, SkipReason, SourceFile

if TYPE_CHECKING:
    from strata.index.corpus.artifacts import Artifact
    from strata.index.summary import Session

log = logging.getLogger(__name__)

MINIFIED = "minified"  # no chunker registered: line and column windows
MINIFIED_MIN_CHARS = 20_000
MINIFIED_LINE_CHARS = 1_000


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What processing one file gave: its records, or the reason it was skipped."""

    file: SourceFile
    records: tuple[Record, ...] = ()
    skip: Skip | None = None
    warnings: tuple[str, ...] = ()
    file_hash: str = ""
    artifact: Artifact | None = None  # what the corpus pass needs of this file


def unique_ids(records: Sequence[Record], rel: str) -> list[Record]:
    """The records with repeated ids dropped (first kept): one bad extractor result must
    not make the whole batch's commit fail."""
    seen: set[str] = set()
    out = []
    for r in records:
        if r.id in seen:
            log.debug("%s: dropped a second record with id %s", rel, r.id)
            continue
        seen.add(r.id)
        out.append(r)
    return out


def is_minified(text: str) -> bool:
    """Machine-written code: a few very long lines (minified JS/CSS, bundles, data blobs)."""
    if len(text) < MINIFIED_MIN_CHARS:
        return False
    return len(text) / (text.count("\n") + 1) > MINIFIED_LINE_CHARS


def chunk_file(f: SourceFile, cfg: Config) -> FileOutcome:
    """Only the passage rows (C0 source or D0 doc chunks) of one file: the quick first look
    a cold run writes before it builds every layer. Bad input is left to `process_file`."""
    got = extract(f, cfg.index.max_file_bytes)
    if isinstance(got, Skip):
        return FileOutcome(f, skip=got)
    try:
        doc = dataclasses.replace(got, lang=MINIFIED) if is_minified(got.text) else got
        records = chunk_records(got, chunk(doc, cfg.chunk))
    except (RecursionError, MemoryError, ValueError, SyntaxError) as exc:
        return FileOutcome(f, skip=Skip(f.rel, SkipReason.UNREADABLE, f"could not parse: {exc}"))
    return FileOutcome(f, records=tuple(records), file_hash=got.file_hash)


def first_look_rows(
    files: list[SourceFile], cfg: Config, session: Session, dim: int
) -> PreparedRows:
    """The passage rows of new files, ready to write: a worker's unit of work in the
    first look (see `Indexer._first_look`). They are marked unfinished (no file hash,
    mtime 0), and prepared as `new` (the plan's new files hold no rows: they are appended).
    A file that cannot be read or chunked is left to the full pass, which says why."""
    rows: dict[str, list[Record]] = {}
    for f in files:
        outcome = chunk_file(f, cfg)
        if outcome.skip is not None or not outcome.records:
            continue
        rows[f.rel] = stamped(unique_ids(outcome.records, f.rel), f, session, 0, file_hash="")
    return prepare(rows, dim, new=True)


def stamped(
    records: Iterable[Record], f: SourceFile, session: Session, mtime: int, **more: Any
) -> list[Record]:
    """`records` of file `f` with its size, `mtime`, session, repository and commit (and
    the fields in `more`) set."""
    session_id, commit_sha = session.of(f.rel)
    return [
        dataclasses.replace(
            r,
            file_size=f.size,
            file_mtime_ns=mtime,
            session_id=session_id,
            repo_id=session.repo_id,
            commit_sha=commit_sha,
            **more,
        )
        for r in records
    ]
