"""One file in, its records out: extract, chunk and build every per-file layer (pure but for the read)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from strata.chunking import chunk
from strata.config import Config
from strata.extraction import extract
from strata.records import chunk_records
from strata.types import Extracted, Record, Skip, SkipReason, SourceFile

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What processing one file gave: its records, or the reason it was skipped."""

    file: SourceFile
    records: tuple[Record, ...] = ()
    skip: Skip | None = None
    warnings: tuple[str, ...] = ()
    file_hash: str = ""


def build_records(doc: Extracted, cfg: Config) -> list[Record]:
    """Every per-file record of a document or source file (C0/D0 chunks and derived layers)."""
    return chunk_records(doc, chunk(doc, cfg.chunk))


def process_file(f: SourceFile, cfg: Config) -> FileOutcome:
    """Read, extract and build records for one file; never raises for bad input."""
    got = extract(f)
    if isinstance(got, Skip):
        return FileOutcome(f, skip=got)
    try:
        records = build_records(got, cfg)
    except (RecursionError, MemoryError, ValueError) as exc:  # defensive: a chunker bug must not kill a run
        log.debug("building records for %s failed", f.rel, exc_info=True)
        return FileOutcome(f, skip=Skip(f.rel, SkipReason.UNREADABLE, f"could not chunk: {exc}"))
    if not records:
        return FileOutcome(f, skip=Skip(f.rel, SkipReason.NO_TEXT), warnings=got.warnings)
    return FileOutcome(f, records=tuple(records), warnings=got.warnings, file_hash=got.file_hash)


def process_batch(files: list[SourceFile], cfg: Config) -> list[FileOutcome]:
    """`process_file` over a list (the unit of work sent to a worker process)."""
    return [process_file(f, cfg) for f in files]

