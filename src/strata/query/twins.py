"""Hits whose text another hit already shows (pure): a read-me included whole as the docs'
index page, a module copied into two packages, the same file under several names (Debian's
`lua/5.1/x.lua` linked from `5.2/`, `5.3/`, `5.4/`), the same definition in a package's
two builds (`dist/cjs/kysely.js` and `dist/esm/kysely.js`: `class Kysely extends
query_creator_js_1.QueryCreator` is `export class Kysely extends QueryCreator`). The first
is kept and names the others' places in `metadata["same_text_at"]`; the rest make room
for other results."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping

from strata.types import Record

# Shorter texts (a `pass`, a closing brace, a one-line re-export) say too little to be the
# same passage; each stays a place of its own.
MIN_CHARS = 80
# A folder a package's build of one module system or target writes to, and the suffixes
# it gives a module: `dist/esm/a.mjs` and `dist/cjs/a.js` are one module built twice.
_BUILDS = re.compile(
    r"(?<![^/])(?:cjs|esm|es|mjs|commonjs|module|umd|es5|es6|es20\d\d|esnext|node|browser)(?=/)"
)
_MODULE_SUFFIX = re.compile(r"\.(?:d\.[cm]?ts|[cm]?js)$")


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
        built = _built(rec)
        owner = owner or (first.get(built) if built else None)
        if owner is not None:
            if owner in places:
                places[owner].append(f"{rec.path}:{rec.span_start}-{rec.span_end}")
        elif len(kept) < k:
            first[key] = first[same] = rid
            if built:
                first[built] = rid
            places[rid] = []
            kept.append(rid)
    return [_with_twins(records[rid], places[rid]) for rid in kept]


def _with_twins(rec: Record, places: list[str]) -> Record:
    if not places:
        return rec
    return dataclasses.replace(rec, metadata={**rec.metadata, "same_text_at": places})


def _built(rec: Record) -> tuple[object, ...] | None:
    """A code definition's key as one build of its module: its title, and its path with the
    build's folder and module suffix left out (None: not in such a folder, or untitled)."""
    if not rec.title or rec.layer[:1] != "C" or not _MODULE_SUFFIX.search(rec.path):
        return None
    path, n = _BUILDS.subn("*", rec.path)
    if not n:
        return None
    declared = rec.path.endswith("ts")  # a `.d.ts` declares what the `.js` defines
    return ("built", rec.title, _MODULE_SUFFIX.sub(".d.ts" if declared else ".js", path))
