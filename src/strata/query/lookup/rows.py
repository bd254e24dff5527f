"""Reading one layer's rows (memoised per store version) and the JSON shape of a record."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from strata.layers import C0_SOURCE_CHUNKS
from strata.query.compiled import compiled_outputs
from strata.query.question_filters import file_glob
from strata.store import Filter, Store, capabilities
from strata.text.globs import select
from strata.types import JSON, Record, fields_json
from strata.workspace import memory

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "MADE_RECORDS",
    "KeptRows",
    "chunks_at",
    "compiled_paths",
    "derived",
    "files_named",
    "indexed_paths",
    "link_json",
    "meta_str",
    "record_json",
    "store_version",
]

T = TypeVar("T")

MADE_RECORDS = 4096  # records a `KeptRows` keeps once made (lookups ask for the same ones)

# Per store object: the version a value was built at and the value, by key. Entries
# vanish with their store (a weak key), so nothing outlives the Engine that owns it.
_memo: weakref.WeakKeyDictionary[Any, dict[str, tuple[object, Any]]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def store_version(store: Store) -> object:
    """A token that changes whenever the store's rows change.

    A store may have a cheap one (`Versioned`); otherwise the token is a digest of every
    source's path, file hash and row count.
    """
    version = capabilities.version_of(store)
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


class KeptRows:
    """One layer's rows kept by a lookup as one Arrow table, their JSON metadata packed
    apart (most of their size, read only for rows a lookup returns); a `Record` is made
    only for a row that is asked for, and the last `MADE_RECORDS` made are kept."""

    def __init__(self, table: pa.Table) -> None:
        # pyarrow loads on the first lookup, not on import
        from strata.store.arrow import code_repeated
        from strata.store.packed import PackedText

        self.metadata = PackedText(table.column("metadata"))
        self.table, self._coded = code_repeated(table.drop_columns(["metadata"]))
        self._made: OrderedDict[int, Record] = OrderedDict()
        self._lock = threading.Lock()  # a server's threads share one lookup

    def __len__(self) -> int:
        return int(self.table.num_rows)

    def record(self, pos: int) -> Record:
        """The record of one row."""
        with self._lock:
            rec = self._made.get(pos)
            if rec is not None:
                self._made.move_to_end(pos)
                return rec
        from strata.store.arrow import take_records

        given = {"metadata": [self.metadata.get(pos)]}
        rec = take_records(self.table, [pos], self._coded, given)[0]
        with self._lock:
            self._made[pos] = rec
            if len(self._made) > MADE_RECORDS:
                self._made.popitem(last=False)
        return rec

    def records(self, positions: Sequence[int]) -> list[Record]:
        """The records of many rows, in order, made together (a walk's edges)."""
        with self._lock:
            made = {p: self._made[p] for p in positions if p in self._made}
        todo = sorted({p for p in positions if p not in made})
        if todo:
            from strata.store.arrow import take_records

            given = {"metadata": [self.metadata.get(p) for p in todo]}
            made.update(zip(todo, take_records(self.table, todo, self._coded, given), strict=True))
        return [made[p] for p in positions]


def indexed_paths(store: Store) -> tuple[str, ...]:
    """Every indexed path, sorted (memoised per store version: path filters match globs
    against it, and reading it means a look at every row)."""
    return derived(store, "paths", lambda st: tuple(sorted(st.sources())))


def files_named(store: Store, path: str) -> list[str]:
    """The indexed files a path written in a question names: the file at that very path
    when the index has one (`README.md` at the root), else every file whose path ends with
    it, the shortest first (`db.py`: `app/db.py` before `app/legacy/db.py`)."""
    found = sorted(select(indexed_paths(store), [file_glob(path)]), key=lambda p: (len(p), p))
    exact = [p for p in found if p == path.strip("`'\"").lstrip("./")]
    return exact or found


def compiled_paths(store: Store) -> frozenset[str]:
    """The indexed paths that are build output of an indexed source (a TypeScript file's
    `.js`, `.cjs`, `.d.ts`: strata.query.compiled), memoised per store version."""
    return derived(store, "compiled", lambda st: compiled_outputs(indexed_paths(st)))


def meta_str(record: Record, key: str) -> str:
    """A metadata value as text ("" when missing or null)."""
    value = record.metadata.get(key)
    return "" if value is None else str(value)


def chunks_at(
    store: Store, spots: Iterable[tuple[str, int | None]], where: Filter | None = None
) -> dict[tuple[str, int | None], Record]:
    """For each (path, line): the C0 chunk whose span holds the line (the one starting
    there, else the narrowest), under `where`'s restrictions (a spot in a path it does not
    admit has none). The spans are read first and only the chosen chunks made into records
    (a file holds dozens of chunks; a lookup shows one per spot). A spot without a line has
    none."""
    admitted = None if where is None or where.paths is None else set(where.paths)
    wanted = {
        (path, line)
        for path, line in spots
        if line is not None and (admitted is None or path in admitted)
    }
    paths = tuple(sorted({path for path, _ in wanted}))
    if not paths:
        return {}
    scope = dataclasses.replace(where or Filter(), layers=(C0_SOURCE_CHUNKS,), paths=paths)
    spans = capabilities.fetch_table(store, scope, _SPAN_COLUMNS)
    by_path: dict[str, list[tuple[int, int, str]]] = {}
    columns = [spans.column(c).to_pylist() for c in _SPAN_COLUMNS]
    for id_, path, start, end in zip(*columns, strict=True):
        by_path.setdefault(path, []).append((start or 0, -1 if end is None else end, id_))
    picked: dict[tuple[str, int | None], str] = {}
    for path, line in wanted:
        holding = [s for s in by_path.get(path, ()) if s[0] <= line <= s[1]]
        if holding:
            picked[(path, line)] = min(holding, key=lambda s: (s[0] != line, s[1] - s[0]))[2]
    ids = tuple(sorted(set(picked.values())))
    made: dict[str, Record] = {}
    for rec in store.fetch(dataclasses.replace(scope, ids=ids), vectors=False) if ids else ():
        made.setdefault(rec.id, rec)
    return {spot: made[i] for spot, i in picked.items() if i in made}


_SPAN_COLUMNS = ("id", "path", "span_start", "span_end")


def file_heads(
    store: Store, paths: Sequence[str], layers: Sequence[str], n: int = 1
) -> list[Record]:
    """Each path's first `n` passages among `layers`, in the order of `paths` and then of
    the file: a module's docstring and imports, a document's first sections. A leading
    licence comment (its own chunk) is passed over for the passages after it."""
    if not paths or n <= 0:
        return []
    scope = Filter(layers=tuple(layers), paths=tuple(paths))
    spans = capabilities.fetch_table(store, scope, _SPAN_COLUMNS)
    starts: dict[str, list[tuple[int, str]]] = {}
    columns = [spans.column(c).to_pylist() for c in _SPAN_COLUMNS]
    for id_, path, start, _ in zip(*columns, strict=True):
        starts.setdefault(path, []).append((start or 0, id_))
    leading = {p: [i for _, i in sorted(found)[: n + 1]] for p, found in starts.items()}
    ids = tuple(sorted(i for few in leading.values() for i in few))
    made = {r.id: r for r in store.fetch(dataclasses.replace(scope, ids=ids), vectors=False)}
    out = []
    for path in paths:
        few = [made[i] for i in leading.get(path, ()) if i in made]
        skip = 1 if len(few) > 1 and _is_licence(few[0].content) else 0
        out += few[skip : skip + n]
    return out


# `#` opens a comment, not a C preprocessor line (`#include`, `#define`: code after a licence)
_DIRECTIVE = r"(?:include|define|undef|ifn?def|if|elif|else|endif|pragma|import|error|line)\b"
_COMMENT_LINE = re.compile(rf"^\s*(?:#(?!{_DIRECTIVE})|//|/\*|\*|--|;|<!--|\(\*|$)")
_LICENCE_WORDS = re.compile(
    r"\b(?:copyright|licen[cs]ed?|spdx-license-identifier|all rights reserved"
    r"|permission is hereby granted|redistribution and use)\b",
    re.IGNORECASE,
)


def _is_licence(text: str) -> bool:
    """A comment block that states a licence or copyright, and nothing else."""
    return all(_COMMENT_LINE.match(line) for line in text.split("\n")) and bool(
        _LICENCE_WORDS.search(text)
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


def link_json(link: Any, **more: Any) -> JSON:
    """A walk's link (a dataclass with an `edge` record): the edge's record JSON plus the
    link's other fields and `more`, a record among them in the same shape, a value with a
    `to_json` as it gives itself."""
    plain = {k: v for k, v in fields_json(link).items() if k != "edge"}
    return record_json(link.edge, {k: _json_value(v) for k, v in {**plain, **more}.items()})


def _json_value(value: Any) -> Any:
    if isinstance(value, Record):
        return record_json(value)
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else value


def member_record(block: Record, i: int, qname: str) -> Record:
    """Constant `i` of a block row as a C1 record of its own (the row's id: it is the row
    that holds it)."""
    meta = dict(block.metadata)
    lines = meta.pop("member_lines", None) or []
    meta.pop("members", None)
    signatures = block.content.split("\n")
    signature = signatures[i] if i < len(signatures) else ""
    path = str(meta.get("symbol_id") or "").partition("::")[0]
    meta |= {"symbol_id": f"{path}::{qname}", "qname": qname, "kind": "constant"}
    meta["signature"] = signature
    start, end = (lines[2 * i], lines[2 * i + 1]) if len(lines) > 2 * i + 1 else (None, None)
    return dataclasses.replace(
        block,
        title=qname,
        content=signature,
        kind="constant",
        span_start=start,
        span_end=end,
        metadata=meta,
    )
