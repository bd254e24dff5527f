"""Read-side lookups over the code and docs layers: symbols, call graph, entry points, docs.

Pure functions of a `Store`'s rows; the Engine and every surface call these.
"""

from strata.query.lookup.docs import Related, known_domains, list_docs, related
from strata.query.lookup.entrypoints import list_entrypoints
from strata.query.lookup.graph import Node
from strata.query.lookup.hierarchy import Lineage, bases, subclasses
from strata.query.lookup.hubs import central_files
from strata.query.lookup.imports import ImportSite, importers
from strata.query.lookup.rows import compiled_paths, indexed_paths
from strata.query.lookup.spelling import meant, meant_note, misspelt_word
from strata.query.lookup.symbols import SymbolMatch, closest, defined_kinds, find_symbols
from strata.query.lookup.walks import CallLink, CallWalk, as_meant, callees, callers

__all__ = [
    "CallLink",
    "CallWalk",
    "ImportSite",
    "Lineage",
    "Node",
    "Related",
    "SymbolMatch",
    "as_meant",
    "bases",
    "callees",
    "callers",
    "central_files",
    "closest",
    "compiled_paths",
    "defined_kinds",
    "find_symbols",
    "importers",
    "indexed_paths",
    "known_domains",
    "list_docs",
    "list_entrypoints",
    "meant",
    "meant_note",
    "misspelt_word",
    "related",
    "subclasses",
]
