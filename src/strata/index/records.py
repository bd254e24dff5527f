"""Build store records from a file's chunks and layer items, with ids and hashes set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from strata.layers import C0_SOURCE_CHUNKS, D0_DOC_CHUNKS
from strata.text.langs import module_from_path
from strata.text.testcode import is_test_path, is_test_unit
from strata.text.tokens import split_identifier, words
from strata.types import Chunk, Extracted, Record, content_hash

DOC_KINDS = frozenset({"markdown", "rst", "text", "pdf", "html"})


def chunk_id(path: str, ordinal: int) -> str:
    """`"<path>:<ordinal>"`: the id of a source or doc chunk."""
    return f"{path}:{ordinal}"


def layer_id(path: str, layer: str, key: str) -> str:
    """`"<path>#<layer prefix>:<key>"`: the id of a record of a derived layer."""
    return f"{path}#{layer.split('_', 1)[0]}:{key}"


def make_record(
    *,
    id: str,
    path: str,
    layer: str,
    title: str,
    content: str,
    lang: str,
    file_hash: str,
    span: tuple[int, int] | None = None,
    kind: str = "",
    is_test: bool | None = None,
    metadata: Mapping[str, Any] | None = None,
    embed_text: str = "",
) -> Record:
    """A record with its content hash (of what gets embedded) and test flag filled in."""
    return Record(
        id=id,
        path=path,
        layer=layer,
        title=title,
        content=content,
        lang=lang,
        span_start=span[0] if span else None,
        span_end=span[1] if span else None,
        kind=kind,
        is_test=is_test_path(path) if is_test is None else is_test,
        metadata=dict(metadata or {}),
        file_hash=file_hash,
        content_hash=content_hash(embed_text or content),
        embed_text=embed_text,
    )


_HEAD = 400  # the characters of a chunk that hold its leading attributes and its signature


def chunk_records(doc: Extracted, chunks: list[Chunk]) -> list[Record]:
    """C0 (code) or D0 (docs) records for a file's chunks, ids `"<path>:<ordinal>"`."""
    is_doc = doc.kind in DOC_KINDS
    layer = D0_DOC_CHUNKS if is_doc else C0_SOURCE_CHUNKS
    test = is_test_path(doc.rel)
    records = []
    for i, chunk in enumerate(chunks):
        meta: dict[str, Any] = dict(chunk.metadata)
        unit_test = test or (not is_doc and is_test_unit(doc.lang, chunk.text[:_HEAD]))
        if is_doc:
            meta.setdefault("source_path", doc.rel)
            meta.setdefault("artifact_type", "DOCS")
            meta["chunk_type"] = chunk.kind
        else:
            meta.update(
                chunk_index=i,
                chunk_type=chunk.kind,
                module_or_unit=module_from_path(doc.rel),
                is_test=unit_test,
            )
        embed = (
            f"{doc.rel}\n{chunk.title}\n{chunk.text}" if chunk.title else f"{doc.rel}\n{chunk.text}"
        )
        if not is_doc:
            embed = f"{code_words(doc.rel, chunk)}\n{embed}"
        if chunk.metadata.get("outline"):  # a class header's member signatures
            embed += "\n" + "\n".join(str(s) for s in chunk.metadata["outline"])
        records.append(
            make_record(
                id=chunk_id(doc.rel, i),
                path=doc.rel,
                layer=layer,
                title=chunk.title,
                content=chunk.text,
                lang=doc.lang,
                file_hash=doc.file_hash,
                span=(chunk.start_line, chunk.end_line),
                kind=chunk.kind,
                is_test=unit_test,
                metadata=meta,
                embed_text=embed,
            )
        )
    return records


def code_words(rel: str, chunk: Chunk) -> str:
    """A code chunk's unit in plain words, the first line the embedder reads of it:
    `CordovaActivity.onCreate` in `CordovaActivity.java` -> `method on create of cordova
    activity in cordova activity`. all-MiniLM reads `onCreate` as sub-word pieces that
    match no word of a question; its words do (measured: docs/benchmarks.md, fourth pass)."""
    kind = str(chunk.metadata.get("symbol_kind") or chunk.kind)
    *owner, name = chunk.title.split(".") if chunk.title else [""]
    head = f"{kind} {_plain(name)}" if name else ""
    if owner:
        head += f" of {_plain('.'.join(owner))}"
    stem = rel.rsplit("/", 1)[-1].split(".")[0]
    return f"{head} in {_plain(stem)}".strip()


def _plain(name: str) -> str:
    """An identifier's parts as lower-case words: `getHTTPResponse` -> `get http response`."""
    return " ".join(p for w in words(name) for p in split_identifier(w))
