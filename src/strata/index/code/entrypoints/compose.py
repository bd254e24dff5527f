"""The whole-repository pass over entry points: prefixes and parents joined into routes."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable

from strata.index.code.entrypoints.base import FileEntrypoints, Mount, Owner
from strata.index.code.model import Entrypoint
from strata.index.code.resolve import SymbolTable, lookup

MAX_DEPTH = 16  # mount chains deeper than this are cycles


def join_route(prefix: str, path: str) -> str:
    """`/api` + `/items/` -> `/api/items/`; an empty path is the prefix itself."""
    if not prefix:
        return path
    if not path:
        return prefix
    return prefix.rstrip("/") + "/" + path.lstrip("/")


class _Graph:
    """Owners and mounts of every file, walked upward from an owner to its roots."""

    def __init__(self, results: list[FileEntrypoints]) -> None:
        self.owners: dict[str, Owner] = {}
        self.parents: dict[str, list[Mount]] = defaultdict(list)
        for result in results:
            for owner in result.owners:
                self.owners.setdefault(owner.key, owner)
            for mount in result.mounts:
                self.parents[mount.child].append(mount)

    def paths(self, key: str, framework: str, depth: int = 0) -> list[tuple[str, str]]:
        """(full prefix or command path, root key) for every way `key` is reachable."""
        owner = self.owners.get(key)
        own = owner.segment if owner else ""
        mounts = self.parents.get(key, []) if depth < MAX_DEPTH else []
        if not mounts:
            root = "" if framework == "typer" else own
            return [(root, key)]
        out = []
        for mount in mounts:
            segment = self._segment(own, mount, framework)
            for above, root in self.paths(mount.parent, framework, depth + 1):
                out.append((self._join(above, segment, framework), root))
        return out

    def framework_of(self, key: str) -> str | None:
        owner = self.owners.get(key)
        return owner.framework if owner else None

    @staticmethod
    def _segment(own: str, mount: Mount, framework: str) -> str:
        if framework == "fastapi":
            return join_route(mount.segment or "", own)
        return mount.segment if mount.segment is not None else own

    @staticmethod
    def _join(above: str, segment: str, framework: str) -> str:
        if framework in ("click", "typer", "argparse", "cobra"):
            return " ".join(p for p in (above, segment) if p)
        if framework == "django":
            return above + segment
        return join_route(above, segment)


def compose_entrypoints(
    results: Iterable[FileEntrypoints], table: SymbolTable | None = None
) -> list[Entrypoint]:
    """Full routes and command paths for every entry of every file.

    A router included twice yields its routes twice; an owner nobody mounts is a
    root. With a symbol table, handlers defined in other files get their ids.

    Args:
        results: Every file's `scan_entrypoints` output (one file alone works too).
        table: The repository's symbol table, to resolve handlers across files.
    """
    results = list(results)
    graph = _Graph(results)
    out: list[Entrypoint] = []
    for result in results:
        for entry in result.entrypoints:
            out.extend(_composed(entry, graph, table))
    return out


def _composed(entry: Entrypoint, graph: _Graph, table: SymbolTable | None) -> list[Entrypoint]:
    payload = dict(entry.lang_payload)
    node, owner = payload.get("node"), payload.get("owner")
    framework = entry.framework
    if framework == "http" and owner:
        framework = graph.framework_of(str(owner)) or "http"
    local = str(payload.get("local", entry.route_or_command))
    if node:
        routes = graph.paths(str(node), framework)
    elif owner:
        routes = [
            (graph._join(p, local, framework), root)
            for p, root in graph.paths(str(owner), framework)
        ]
    else:
        routes = [(local, "")]
    out = []
    for route, root in dict.fromkeys(routes):
        entry_id = f"{entry.path}::{framework}:{entry.http_method or entry.entrypoint_kind}:{route}"
        out.append(
            dataclasses.replace(
                _with_handler(entry, table),
                entry_id=f"{entry_id}@{entry.start_line}",
                framework=framework,
                route_or_command=route,
                route_path=route if entry.entry_type == "http" else None,
                lang_payload={**payload, "root": root},
            )
        )
    return out


def _with_handler(entry: Entrypoint, table: SymbolTable | None) -> Entrypoint:
    if entry.handler_symbol_id or table is None or not entry.handler_symbol:
        return entry
    qname = lookup(entry.handler_symbol, table)
    ids = table.ids_by_qname.get(qname or "")
    if not ids:
        return entry
    return dataclasses.replace(
        entry, handler_symbol=qname or entry.handler_symbol, handler_symbol_id=ids[0]
    )
