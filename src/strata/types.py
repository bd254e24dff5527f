"""Plain frozen values passed between Strata's modules: files, chunks, records, hits."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
JSON = dict[str, Any]


def fields_json(value: Any, *names: str) -> JSON:
    """`{name: value.<name>}` for the named attributes in order; with no names, for every
    field of the dataclass `value` (the plain part of a value's `to_json()`)."""
    return {name: getattr(value, name) for name in names or [f.name for f in fields(value)]}


class JsonFields:
    """A frozen dataclass whose JSON is its fields, in their order (a base with no state)."""

    __slots__ = ()

    def to_json(self) -> JSON:
        """`{field: value}` for every field, in order."""
        return fields_json(self)


def content_hash(text: str) -> str:
    """Stable short hash of a text (the key of the embedding cache)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def bytes_hash(data: bytes) -> str:
    """Stable short hash of a file's raw bytes."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class SkipReason(str, Enum):
    """Why a file was not indexed; each has a one-line explanation in the WARN line."""

    IMAGE = "image"
    BINARY = "binary"
    EMPTY = "empty"
    TOO_LARGE = "too large"
    UNREADABLE = "unreadable"
    NO_TEXT = "no text"
    NOT_A_FILE = "not a regular file"
    VANISHED = "vanished"
    GENERATED = "generated"


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file found by discovery: absolute path, POSIX path relative to the root, stat."""

    abspath: Path
    rel: str
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class Skip:
    """A file that was not indexed and why (`detail` is the one-line reason's specifics)."""

    rel: str
    reason: SkipReason
    detail: str = ""

    def line(self) -> str:
        """The WARN line shown to the user."""
        return f"skip {self.rel}: {self.reason.value}" + (
            f" ({self.detail})" if self.detail else ""
        )


@dataclass(frozen=True, slots=True)
class Extracted:
    """The text of one file, ready to chunk.

    `kind` is the extractor family (`code`, `markdown`, `rst`, `text`, `pdf`, `html`);
    `lang` the language name used in records (`python`, `markdown`, ...).
    `warnings` are non-fatal notes (e.g. a decoding fallback) shown as WARN lines.
    """

    rel: str
    text: str
    lang: str
    kind: str
    file_hash: str
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Chunk:
    """One piece of a file: `text` is exactly the file's lines `start_line..end_line`.

    Lines are 1-based and inclusive. A window cut inside one overlong line carries
    `col_start`/`col_end` in `metadata` and `text == line[col_start:col_end]`.
    `kind` is `function`, `method`, `class`, `module`, `block`, `section` or `text`;
    `title` is the unit's qualified name or the section's title.
    """

    text: str
    start_line: int
    end_line: int
    kind: str
    title: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def hash(self) -> str:
        """Content hash of the chunk's text."""
        return content_hash(self.text)


@dataclass(frozen=True, slots=True)
class Record:
    """One row of the index: a record of one layer (see shared/spec/layers.md).

    `embed_text` is what the embedder sees (defaults to `content`); `content_hash`
    is its hash and the key of the embedding cache. `vector` is filled by the
    embedder or the cache; `None` means "not embedded yet".
    """

    id: str
    path: str
    layer: str
    title: str
    content: str
    lang: str
    span_start: int | None
    span_end: int | None
    kind: str
    is_test: bool
    metadata: Mapping[str, Any]
    file_hash: str
    content_hash: str
    embed_text: str = ""
    file_size: int = 0
    file_mtime_ns: int = 0
    session_id: str = ""
    repo_id: str = ""
    commit_sha: str | None = None
    # The branches whose checkout holds this row's file version (none: not tracked by
    # branch); one row serves every branch whose file has the same bytes.
    branches: tuple[str, ...] = ()
    vector: Vector | None = field(default=None, compare=False, repr=False)

    @property
    def text_to_embed(self) -> str:
        """The text the embedder should see for this record."""
        return self.embed_text or self.content


@dataclass(frozen=True, slots=True)
class FileState:
    """What the index knows of one source: its hash and the stat it was indexed at."""

    file_hash: str
    size: int
    mtime_ns: int
    rows: int


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result: the record, its final score, and every score part (`--explain`)."""

    record: Record
    score: float
    parts: Mapping[str, float] = field(default_factory=dict)
    why: tuple[str, ...] = ()

    def to_json(self) -> JSON:
        """The JSON shape of shared/spec/interface.md."""
        r = self.record
        meta = dict(r.metadata)
        meta.setdefault("is_test", r.is_test)
        meta.setdefault(
            "chunk_type" if r.layer in ("C0_SOURCE_CHUNKS", "D0_DOC_CHUNKS") else "kind", r.kind
        )
        out: JSON = {
            "id": r.id,
            "path": r.path,
            "start_line": r.span_start,
            "end_line": r.span_end,
            "layer": r.layer,
            "title": r.title,
            "lang": r.lang,
            "score": round(self.score, 6),
            "content": r.content,
            "metadata": meta,
        }
        if r.repo_id:
            out["repo"] = r.repo_id
        if r.branches:
            out["branches"] = list(r.branches)
        out["session_id"], out["commit_sha"] = r.session_id, r.commit_sha  # `repo@sha[+dirty]`
        if self.parts:
            out["explain"] = {k: round(v, 6) for k, v in self.parts.items()}
        return out
