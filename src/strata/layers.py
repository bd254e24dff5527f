"""The layer ids of the index (shared/spec/layers.md) and which family each belongs to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

D0_DOC_CHUNKS: Final = "D0_DOC_CHUNKS"
D1_DOCUMENT_CATALOG: Final = "D1_DOCUMENT_CATALOG"
D2_FACT_INDEX: Final = "D2_FACT_INDEX"
D3_ENTITY_CATALOG: Final = "D3_ENTITY_CATALOG"
D4_WORKFLOW_INDEX: Final = "D4_WORKFLOW_INDEX"
D5_RELATION_GRAPH: Final = "D5_RELATION_GRAPH"
D6_INTEGRATION_INDEX: Final = "D6_INTEGRATION_INDEX"

C0_SOURCE_CHUNKS: Final = "C0_SOURCE_CHUNKS"
C1_SYMBOL_CATALOG: Final = "C1_SYMBOL_CATALOG"
C2_DEPENDENCY_GRAPH: Final = "C2_DEPENDENCY_GRAPH"
C3_ENTRYPOINTS: Final = "C3_ENTRYPOINTS"
C4_SEMANTIC_ROLES: Final = "C4_SEMANTIC_ROLES"

DOC_LAYERS: Final = (
    D0_DOC_CHUNKS,
    D1_DOCUMENT_CATALOG,
    D2_FACT_INDEX,
    D3_ENTITY_CATALOG,
    D4_WORKFLOW_INDEX,
    D5_RELATION_GRAPH,
    D6_INTEGRATION_INDEX,
)
CODE_LAYERS: Final = (
    C0_SOURCE_CHUNKS,
    C1_SYMBOL_CATALOG,
    C2_DEPENDENCY_GRAPH,
    C3_ENTRYPOINTS,
    C4_SEMANTIC_ROLES,
)
ALL_LAYERS: Final = DOC_LAYERS + CODE_LAYERS

# Layers whose records get a vector: the ones a search ranks by meaning (the passages, and
# the document cards, workflows and integrations the router searches for docs questions).
# Symbols (C1) and entry points (C3) are looked up by name, graph-like layers (edges, roles,
# facts, entities, relations) lexically or by walks: a vector of theirs would never be read.
EMBEDDED_LAYERS: Final = (
    C0_SOURCE_CHUNKS,
    D0_DOC_CHUNKS,
    D1_DOCUMENT_CATALOG,
    D4_WORKFLOW_INDEX,
    D6_INTEGRATION_INDEX,
)

# Layers whose records are passages of text that a free-text search should rank.
PASSAGE_LAYERS: Final = (C0_SOURCE_CHUNKS, D0_DOC_CHUNKS)

# What `content` (code, docs; all: no narrowing) searches, on every surface.
CONTENT_LAYERS: Final[Mapping[str, tuple[str, ...]]] = {
    "code": (C0_SOURCE_CHUNKS,),
    "docs": (D0_DOC_CHUNKS,),
}


def normalise(name: str) -> str:
    """Accept a layer id case-insensitively or by its short prefix (`c0`, `D4`)."""
    wanted = name.strip().upper()
    for layer in ALL_LAYERS:
        if wanted in (layer, layer.split("_", 1)[0]):
            return layer
    raise ValueError(f"unknown layer {name!r}; known: {', '.join(ALL_LAYERS)}")


def missing_count(counts: Mapping[str, Mapping[str, int]]) -> int:
    """Rows of the embedded layers still without a vector."""
    return sum(
        c.get("rows", 0) - c.get("vectors", 0)
        for layer, c in counts.items()
        if layer in EMBEDDED_LAYERS
    )


def embedded_count(counts: Mapping[str, Mapping[str, int]]) -> tuple[int, int]:
    """(rows with a vector, rows that should have one) over the embedded layers."""
    rows = sum(c.get("rows", 0) for layer, c in counts.items() if layer in EMBEDDED_LAYERS)
    vecs = sum(c.get("vectors", 0) for layer, c in counts.items() if layer in EMBEDDED_LAYERS)
    return vecs, rows
