"""Who imports a module or a name (pure over a `Store`): the `imports` edges of C2, each
shown with the C0 chunk that holds the import."""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata.query.lookup.graph import Edge, call_graph
from strata.query.lookup.rows import chunks_at
from strata.store import Store
from strata.types import Record

__all__ = ["ImportSite", "importers"]

# A package's own file stands for the package: `pkg/__init__`, `lib/index`, `src/ast/mod`.
PACKAGE_FILE = re.compile(r"/(?:__init__|index|mod)$")
_SOURCE = re.compile(r"\.(?:py|pyi|js|jsx|mjs|ts|tsx|go|rs|java|kt|rb|php|cs|scala|swift)$")


@dataclass(frozen=True, slots=True)
class ImportSite:
    """One import of the name: the C2 edge and the chunk holding its line (None: none)."""

    edge: Record
    chunk: Record | None


def importers(store: Store, name: str) -> list[ImportSite]:
    """The imports of `name` or of anything inside it: a module (`pkg.utils`, `utils`,
    `src/pkg/utils.py`) is imported by `import pkg.utils` and by `from pkg.utils import x`; a
    name (`Schema`) by `from pkg.schema import Schema`. Tests last, then in file order."""
    parts = [p for p in _dotted(name).split(".") if p]
    if not parts:
        return []
    graph = call_graph(store)
    edges: list[Edge] = []
    # a path names its module from the repository's root (`src/pkg/utils.py`), the
    # imports from the package's (`pkg.utils`): the longest tail that something imports
    for start in range(len(parts) if "/" in name else 1):
        inside = re.compile(rf"(?:^|\.){re.escape('.'.join(parts[start:]))}(?:\.|$)")
        edges = [
            e
            for e in graph.imports
            if inside.search(e.ref) or inside.search(graph.canonical(e.ref))
        ]
        if edges:
            break
    records = graph.rows.records([e.pos for e in edges])
    records.sort(key=lambda r: (r.is_test, r.path, r.span_start or 0))
    chunks = chunks_at(store, [(r.path, r.span_start) for r in records])
    return [ImportSite(r, chunks.get((r.path, r.span_start))) for r in records]


def _dotted(name: str) -> str:
    """A module or name as the edges write it: `pkg/utils.py` -> `pkg.utils`."""
    bare = _SOURCE.sub("", name.strip().strip("`'\""))
    if "/" in bare:
        bare = PACKAGE_FILE.sub("", bare)
    return bare.replace("/", ".").replace("::", ".").strip(".")
