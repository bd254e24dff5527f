"""Store records of the code layers C1-C4 from symbols, edges, entry points and roles."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from strata.index.code.model import Edge, Entrypoint, Role, Symbol
from strata.index.records import layer_id, make_record
from strata.layers import C1_SYMBOL_CATALOG, C2_DEPENDENCY_GRAPH, C3_ENTRYPOINTS, C4_SEMANTIC_ROLES
from strata.types import Record, fields_json

FileHashes = str | Mapping[str, str]  # one file's hash, or hashes by path

# The fields of each code value that its record's metadata carries, in this order.
_SYMBOL_META = (
    "symbol_id",
    "qname",
    "kind",
    "signature",
    "parent_symbol_id",
    "package_or_module",
    "is_test",
)
_EDGE_META = (
    "edge_id",
    "edge_type",
    "src_symbol_id",
    "src_qname",
    "dst_symbol_id",
    "dst_ref",
    "resolution",
    "is_test",
)
_ENTRY_META = (
    "entry_id",
    "entry_type",
    "framework",
    "route_or_command",
    "handler_symbol_id",
    "handler_symbol",
    "declaring_symbol",
    "entrypoint_kind",
    "http_method",
    "route_path",
    "decorator_text",
    "summary_text",
    "is_test",
)


def symbol_records(symbols: Iterable[Symbol], file_hash: FileHashes) -> list[Record]:
    """C1 records; `embed_text` reads "qname + signature + summary" for semantic lookup."""
    out = []
    for s in symbols:
        meta = fields_json(s, *_SYMBOL_META)
        if s.decl_line:
            meta["decl_line"] = s.decl_line
        if s.declaration:
            meta["declaration"] = True
        if s.implementation:
            meta["implementation"] = True
        if s.qname.rpartition(".")[2] != s.name:  # a dot in the name itself: R's `print.glue`
            meta["name"] = s.name
        if s.members:  # a data table's block: each member found by its own name
            meta["members"], meta["member_lines"] = list(s.members), list(s.member_lines)
            del meta["signature"]  # the content: a line per member
        content = "\n".join(p for p in (s.signature or s.qname, s.summary) if p)
        out.append(
            _record(
                C1_SYMBOL_CATALOG,
                s.symbol_id,
                s.path,
                file_hash,
                (s.start_line, s.end_line),
                title=s.qname,
                content=content,
                kind=s.kind,
                metadata=meta,
                lang=s.lang,
                is_test=s.is_test,
                embed_text=symbol_text(s),
            )
        )
    return out


def symbol_text(s: Symbol) -> str:
    """What the embedder sees for a symbol: `qname (kind)`, its signature, its summary."""
    words = s.name.replace("_", " ")
    return "\n".join(p for p in (f"{s.qname} ({s.kind}): {words}", s.signature, s.summary) if p)


def edge_records(edges: Iterable[Edge], file_hash: FileHashes) -> list[Record]:
    """C2 records, one per edge; content reads `src --calls--> dst`."""
    out = []
    for e in edges:
        meta = fields_json(e, *_EDGE_META)
        if len(e.lines) > 1:
            meta["lines"] = list(e.lines)
        target = e.dst_qname or e.dst_ref
        if e.resolution == "ambiguous" and e.dst_qname:  # every candidate is so named
            meta["dst_qname"], target = e.dst_qname, e.dst_ref
        out.append(
            _record(
                C2_DEPENDENCY_GRAPH,
                e.edge_id,
                e.path,
                file_hash,
                (e.line, e.line),
                title=f"{e.src_qname} -> {target}",
                content=f"{e.src_qname} --{e.edge_type}--> {target}",
                kind=e.edge_type,
                metadata=meta,
                is_test=e.is_test,
            )
        )
    return out


def entrypoint_records(entries: Iterable[Entrypoint], file_hash: FileHashes) -> list[Record]:
    """C3 records; content reads `GET /items/{id} -> pkg.items.read_item` plus the summary."""
    out = []
    for e in entries:
        meta = {
            **fields_json(e, *_ENTRY_META),
            "lang_payload": dict(e.lang_payload),
            "artifact_type": "CODE",
        }
        title = " ".join(p for p in (e.http_method, e.route_or_command) if p)
        content = f"{title} -> {e.handler_symbol}" + (
            f"\n{e.summary_text}" if e.summary_text else ""
        )
        out.append(
            _record(
                C3_ENTRYPOINTS,
                e.entry_id,
                e.path,
                file_hash,
                (e.start_line, e.end_line),
                title=title,
                content=f"[{e.framework} {e.entry_type}] {content}",
                kind=e.entry_type,
                metadata=meta,
                is_test=e.is_test,
            )
        )
    return out


def role_records(roles: Iterable[Role], file_hash: FileHashes) -> list[Record]:
    """C4 records; content reads `qname: role (confidence)` and the evidence."""
    out = []
    for r in roles:
        meta = {
            **fields_json(r, "symbol_id", "qname", "role", "confidence"),
            "evidence": list(r.evidence),
        }
        content = f"{r.qname}: {r.role} ({r.confidence:.2f})\n" + "\n".join(r.evidence)
        title = f"{r.qname} [{r.role}]"
        if r.members:  # a block of constants: every one of them named, found by any
            meta["members"] = list(r.members)
            content += "\n" + " ".join(m.rsplit(".", 1)[-1] for m in r.members)
            title = f"{r.qname} … {r.members[-1].rsplit('.', 1)[-1]} [{r.role}]"
        out.append(
            _record(
                C4_SEMANTIC_ROLES,
                r.symbol_id,
                r.path,
                file_hash,
                (r.start_line, r.end_line),
                title=title,
                content=content,
                kind=r.role,
                metadata=meta,
            )
        )
    return out


def _record(
    layer: str,
    identifier: str,
    path: str,
    file_hash: FileHashes,
    span: tuple[int, int],
    *,
    title: str,
    content: str,
    kind: str,
    metadata: Mapping[str, Any],
    lang: str = "python",
    is_test: bool | None = None,
    embed_text: str = "",
) -> Record:
    """A record of code layer `layer`, its id keyed by `identifier` within `path`."""
    key = identifier.removeprefix(f"{path}::")  # drop the redundant `<path>::` prefix
    return make_record(
        id=layer_id(path, layer, key),
        path=path,
        layer=layer,
        title=title,
        content=content,
        lang=lang,
        file_hash=file_hash if isinstance(file_hash, str) else file_hash.get(path, ""),
        span=span,
        kind=kind,
        is_test=is_test,
        metadata=metadata,
        embed_text=embed_text,
    )
