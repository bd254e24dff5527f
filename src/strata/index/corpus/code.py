"""The code half of the corpus pass: C2 edges, C3 entry points and C4 roles over every file.

Per file, edges stay unresolved, entry points know only their own file's prefixes and
roles see only their own file's callers. Here the symbol table spans the repository:
every Python edge is resolved across files, mounts in other modules (`include_router`,
`register_blueprint`, `add_command`, `add_typer`) give full routes and commands, and
roles count fan-in from every file. C0 and C1 are untouched.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from strata.index.code.crossfile import resolve_across_files
from strata.index.code.entrypoints import compose_entrypoints
from strata.index.code.gointerfaces import implementations
from strata.index.code.model import Edge, Entrypoint, Role, Symbol
from strata.index.code.params import through_parameters
from strata.index.code.records import edge_records, entrypoint_records, role_records
from strata.index.code.resolve import SymbolTable, build_table, resolve_edge
from strata.index.code.roles import assign_roles
from strata.index.corpus.artifacts import (
    PYTHON,
    TREESITTER,
    Artifact,
    python_parts,
    treesitter_parts,
    treesitter_scan,
)
from strata.index.corpus.rows import RowsByPath
from strata.types import Record

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CodeGraph:
    """The repository's code items after cross-file resolution (before records)."""

    symbols: list[Symbol]
    edges: list[Edge]
    entrypoints: list[Entrypoint]
    roles: list[Role]


def resolve_repository(artifacts: Mapping[str, Artifact]) -> CodeGraph:
    """Symbols, resolved edges, composed entry points and roles of every code file (pure).

    Python edges are resolved against the table of all Python files; tree-sitter
    edges keep their per-file resolution, but for Go's and C's bare calls of another
    file's function (`code/crossfile.py`), and count towards roles.
    """
    symbols: list[Symbol] = []
    treesitter_edges: list[Edge] = []
    py_edges: list[Edge] = []
    scopes, scans = [], []
    for path in sorted(artifacts):
        art = artifacts[path]
        if art.kind == PYTHON:
            parts = python_parts(art)
            symbols += parts.symbols
            py_edges += parts.edges
            scopes.append(parts.scope)
            scans.append(parts.scan)
        elif art.kind == TREESITTER:
            syms, edges = treesitter_parts(art)
            symbols += syms
            treesitter_edges += edges
            scans.append(treesitter_scan(art))
    table = build_table((s for s in symbols if s.lang == "python"), scopes)
    treesitter_edges = resolve_across_files(treesitter_edges, symbols)
    treesitter_edges += implementations(symbols, treesitter_edges)  # Go's, implicit
    edges = through_parameters(_resolve_all(py_edges, table), table) + treesitter_edges
    entries = compose_entrypoints(scans, table)
    return CodeGraph(symbols, edges, entries, assign_roles(symbols, edges, entries))


def _resolve_all(edges: Iterable[Edge], table: SymbolTable) -> list[Edge]:
    """`resolve_edges`, resolving each distinct reference of a file once.

    `resolve_edge` reads only the edge's path, `dst_ref` and (kept when external) its
    `dst_symbol_id` and `candidates`, and sets those and `resolution` and `dst_qname`:
    a file calling one name many times needs one lookup.
    """
    done: dict[tuple[str, str, str | None, tuple[str, ...]], Edge] = {}
    out = []
    for e in edges:
        key = (e.path, e.dst_ref, e.dst_symbol_id, e.candidates)
        first = done.get(key)
        if first is None:
            first = done[key] = resolve_edge(e, table)
            out.append(first)
            continue
        out.append(
            dataclasses.replace(
                e,
                resolution=first.resolution,
                dst_qname=first.dst_qname,
                dst_symbol_id=first.dst_symbol_id,
                candidates=first.candidates,
            )
        )
    return out


def code_pass(artifacts: Mapping[str, Artifact]) -> RowsByPath:
    """The C2, C3 and C4 rows every code file should now have, by path (pure).

    Every `python` and `treesitter` artifact gets an entry, possibly empty (its old
    rows of those layers must go). Merge them with the path's C0/C1 rows before writing.
    """
    graph = resolve_repository(artifacts)
    code = {p: a for p, a in artifacts.items() if a.kind in (PYTHON, TREESITTER)}
    hashes = {p: a.file_hash for p, a in code.items()}
    out: RowsByPath = {p: [] for p in sorted(code)}
    records = (
        edge_records(graph.edges, hashes)
        + entrypoint_records(graph.entrypoints, hashes)
        + role_records(graph.roles, hashes)
    )
    seen: set[str] = set()
    for r in _with_langs(records, code):
        if r.path not in out or r.id in seen:
            # a row id must be unique in a write (two decorators can give one route twice)
            log.debug("corpus row %s dropped: duplicate id or path with no artifact", r.id)
            continue
        seen.add(r.id)
        out[r.path].append(r)
    return out


def _with_langs(records: Iterable[Record], artifacts: Mapping[str, Artifact]) -> Iterable[Record]:
    """Records in their file's language (the record builders assume Python)."""
    for r in records:
        art = artifacts.get(r.path)
        yield dataclasses.replace(r, lang=art.lang) if art is not None and r.lang != art.lang else r
