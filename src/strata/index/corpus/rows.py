"""Rows the corpus pass owns: which layers, which paths changed, and merging with per-file rows."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from strata.layers import (
    C2_DEPENDENCY_GRAPH,
    C3_ENTRYPOINTS,
    C4_SEMANTIC_ROLES,
    D2_FACT_INDEX,
    D3_ENTITY_CATALOG,
    D5_RELATION_GRAPH,
)
from strata.types import Record

# The layers whose rows depend on other files. For a path the corpus pass covers, its
# rows of these layers are replaced as a whole; every other layer stays per file.
CODE_CORPUS_LAYERS: Final = (C2_DEPENDENCY_GRAPH, C3_ENTRYPOINTS, C4_SEMANTIC_ROLES)
DOC_CORPUS_LAYERS: Final = (D2_FACT_INDEX, D3_ENTITY_CATALOG, D5_RELATION_GRAPH)
CORPUS_LAYERS: Final = CODE_CORPUS_LAYERS + DOC_CORPUS_LAYERS

RowsByPath = dict[str, list[Record]]


@dataclass(frozen=True, slots=True)
class CorpusRows:
    """The corpus pass's rows per path, by family: `code` holds C2-C4, `docs` D2, D3 and D5.

    A path with an empty list must lose every row of its family's corpus layers.
    """

    code: RowsByPath = field(default_factory=dict)
    docs: RowsByPath = field(default_factory=dict)

    def by_path(self) -> dict[str, tuple[str, ...]]:
        """Each covered path with the layers its rows replace."""
        out: dict[str, tuple[str, ...]] = {p: CODE_CORPUS_LAYERS for p in self.code}
        out.update((p, DOC_CORPUS_LAYERS) for p in self.docs)
        return out


def changed_rows(
    new: Mapping[str, Sequence[Record]], stored: Mapping[str, Sequence[Record]]
) -> RowsByPath:
    """The paths of `new` whose rows differ from `stored` (by id, content and metadata).

    `stored` holds what the store has now for the same layers (a missing path has no
    rows). Paths of `stored` that are not in `new` are left alone. Vectors, stat and
    session columns are ignored: they are not the pass's to decide.
    """
    out: RowsByPath = {}
    for path, rows in new.items():
        if _fingerprint(rows) != _fingerprint(stored.get(path, ())):
            out[path] = list(rows)
    return out


def digest_of(rows: Iterable[Record]) -> str:
    """A short digest of rows, order-insensitive: equal when `changed_rows` sees no change."""
    text = json.dumps(_fingerprint(rows), ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def stamp_of(row: Record) -> str:
    """What a path's rows say of the file they were written for: its hash and stat.

    Rows the corpus pass writes copy these from the path's per-file rows, so a stamp
    that moved means the per-file pass has rewritten the path since.
    """
    return f"{row.file_hash}:{row.file_size}:{row.file_mtime_ns}"


def group_by_path(records: Iterable[Record], layers: Iterable[str] | None = None) -> RowsByPath:
    """Records grouped by path, optionally only those of `layers`."""
    wanted = None if layers is None else frozenset(layers)
    out: RowsByPath = {}
    for r in records:
        if wanted is None or r.layer in wanted:
            out.setdefault(r.path, []).append(r)
    return out


def merge_rows(
    stored: Sequence[Record], corpus: Sequence[Record], layers: Iterable[str]
) -> list[Record]:
    """A path's full row set: its stored rows outside `layers`, plus the corpus rows.

    Corpus rows take the stat and session columns of the path's stored rows, and the
    vector of a stored row with the same id and content hash (nothing to re-embed).
    """
    owned = frozenset(layers)
    kept = [r for r in stored if r.layer not in owned]
    vectors = {(r.id, r.content_hash): r.vector for r in stored if r.vector is not None}
    sibling = stored[0] if stored else None
    merged = []
    for r in corpus:
        if sibling is not None:
            r = dataclasses.replace(
                r,
                file_size=sibling.file_size,
                file_mtime_ns=sibling.file_mtime_ns,
                session_id=sibling.session_id,
                repo_id=sibling.repo_id,
                commit_sha=sibling.commit_sha,
            )
        merged.append(dataclasses.replace(r, vector=vectors.get((r.id, r.content_hash))))
    return kept + merged


def _fingerprint(rows: Iterable[Record]) -> list[tuple[Any, ...]]:
    return sorted(_key(r) for r in rows)


def _key(r: Record) -> tuple[Any, ...]:
    meta = _KEY_JSON.encode(r.metadata)
    return (
        r.id,
        r.layer,
        r.title,
        r.content,
        r.lang,
        r.span_start or 0,
        r.span_end or 0,
        r.kind,
        r.is_test,
        r.file_hash,
        r.content_hash,
        meta,
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return str(value)


# One encoder for every row (`json.dumps` with options builds a new one per call).
_KEY_JSON: Final = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=_jsonable)
