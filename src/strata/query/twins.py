"""Hits whose text another hit already shows (pure): a read-me included whole as the docs'
index page, a module copied into two packages, the same file under several names (Debian's
`lua/5.1/x.lua` linked from `5.2/`, `5.3/`, `5.4/`). The first is kept and names the
others' places in `metadata["same_text_at"]`; the rest make room for other results."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from strata.types import Record

# Shorter texts (a `pass`, a closing brace, a one-line re-export) say too little to be the
# same passage; each stays a place of its own.
MIN_CHARS = 80


def distinct(order: Iterable[str], records: Mapping[str, Record], k: int) -> list[Record]:
    """The records of the first `k` ids of `order` whose text no earlier one holds (code
    apart from docs, the same text but for surrounding whitespace), each naming where the
    candidates left out for it are."""
    kept: list[str] = []
    first: dict[tuple[object, ...], str] = {}
    places: dict[str, list[str]] = {}
    for rid in order:
        rec = records[rid]
        text = rec.content.strip()
        key = (rec.layer[:1], text)
        # the same lines of files with the same bytes: a copy, however short the text
        same = (rec.layer[:1], rec.file_hash, rec.span_start, rec.span_end, text)
        owner = first.get(key) if len(text) >= MIN_CHARS else None
        owner = owner or (first.get(same) if rec.file_hash else None)
        if owner is not None:
            if owner in places:
                places[owner].append(f"{rec.path}:{rec.span_start}-{rec.span_end}")
        elif len(kept) < k:
            first[key] = first[same] = rid
            places[rid] = []
            kept.append(rid)
    return [_with_twins(records[rid], places[rid]) for rid in kept]


def _with_twins(rec: Record, places: list[str]) -> Record:
    if not places:
        return rec
    return dataclasses.replace(rec, metadata={**rec.metadata, "same_text_at": places})
