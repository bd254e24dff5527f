"""Reading one layer's rows (memoised per store version) and the JSON shape of a record."""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from strata import memory
from strata.layers import C0_SOURCE_CHUNKS
from strata.store import Filter, Store
from strata.types import JSON, Record

__all__ = [
    "chunk_at",
    "chunks_of",
    "derived",
    "indexed_paths",
    "meta_str",
    "record_json",
    "store_version",
]

T = TypeVar("T")

# Per store object: the version a value was built at and the value, by key. Entries
# vanish with their store (a weak key), so nothing outlives the Engine that owns it.
_memo: weakref.WeakKeyDictionary[Any, dict[str, tuple[object, Any]]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def store_version(store: Store) -> object:
    """A token that changes whenever the store's rows change.

    A store may expose a cheap `version` (attribute or method); otherwise the token is
    a digest of every source's path, file hash and row count.
    """
    version = getattr(store, "version", None)
    if callable(version):
        version = version()
    if version is not None:
        return version
    digest = hashlib.blake2b(digest_size=16)
    for path, state in sorted(store.sources().items()):
        digest.update(f"{path}\0{state.file_hash}\0{state.rows}\n".encode("utf-8", "replace"))
    return digest.hexdigest()


def derived(store: Store, key: str, build: Callable[[Store], T]) -> T:
    """`build(store)`, rebuilt only when the store's version has changed since last time."""
    version = store_version(store)
    try:
        with _lock:
            hit = _memo.get(store, {}).get(key)
    except TypeError:  # a store that cannot be weakly referenced is never memoised
        return build(store)
    if hit is not None and hit[0] == version:
        return hit[1]  # type: ignore[no-any-return]
    value = build(store)
    memory.release()  # a build drops far more than it keeps: give that back at once
    with _lock:
        _memo.setdefault(store, {})[key] = (version, value)
    return value


def indexed_paths(store: Store) -> tuple[str, ...]:
    """Every indexed path, sorted (memoised per store version: path filters match globs
    against it, and reading it means a look at every row)."""
    return derived(store, "paths", lambda st: tuple(sorted(st.sources())))


def meta_str(record: Record, key: str) -> str:
    """A metadata value as text ("" when missing or null)."""
    value = record.metadata.get(key)
    return "" if value is None else str(value)


def chunks_of(store: Store, paths: Iterable[str]) -> dict[str, list[Record]]:
    """The C0 chunks of the given paths, by path, in span order."""
    wanted = tuple(sorted(set(paths)))
    if not wanted:
        return {}
    out: dict[str, list[Record]] = {}
    for rec in store.fetch(Filter(layers=(C0_SOURCE_CHUNKS,), paths=wanted), vectors=False):
        out.setdefault(rec.path, []).append(rec)
    return out


def chunk_at(chunks: Iterable[Record], line: int | None) -> Record | None:
    """The chunk whose span holds `line`: the one starting there, else the narrowest."""
    if line is None:
        return None
    holding = [c for c in chunks if (c.span_start or 0) <= line <= (c.span_end or -1)]
    if not holding:
        return None
    return min(
        holding, key=lambda c: (c.span_start != line, (c.span_end or 0) - (c.span_start or 0))
    )


def record_json(record: Record, extra: Mapping[str, Any] | None = None) -> JSON:
    """A record in the shape of shared/spec/interface.md, its layer's keys also at the top.

    Layer keys never overwrite a common field; `extra` (match, score, depth, ...) does.
    """
    meta = dict(record.metadata)
    out: JSON = {
        "id": record.id,
        "path": record.path,
        "start_line": record.span_start,
        "end_line": record.span_end,
        "layer": record.layer,
        "title": record.title,
        "lang": record.lang,
        "content": record.content,
        "metadata": meta,
    }
    if record.repo_id:
        out["repo"] = record.repo_id
    for k, v in meta.items():
        out.setdefault(k, v)
    out.update(extra or {})
    return out
