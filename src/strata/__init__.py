"""Strata: a local-first, layered, always-current index of a repository and its docs."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from strata.answer.result import Answer, Citation
    from strata.config import Config, load_config
    from strata.engine import Engine
    from strata.errors import (
        ConfigError,
        EmbedderError,
        EmbedderMismatchError,
        EngineError,
        LlmError,
        LockError,
        NoIndexError,
        QueryError,
        StoreError,
        StrataError,
        UserError,
    )
    from strata.index.indexer import IndexSummary
    from strata.query.hybrid import SearchResult
    from strata.query.lookup import CallWalk, Related, SymbolMatch
    from strata.store import Filter
    from strata.types import Hit, Record

__all__ = [
    "Answer",
    "CallWalk",
    "Citation",
    "Config",
    "ConfigError",
    "EmbedderError",
    "EmbedderMismatchError",
    "Engine",
    "EngineError",
    "Filter",
    "Hit",
    "IndexSummary",
    "LlmError",
    "LockError",
    "NoIndexError",
    "QueryError",
    "Record",
    "Related",
    "SearchResult",
    "StoreError",
    "StrataError",
    "SymbolMatch",
    "UserError",
    "load_config",
]

# Where each public name lives. They are imported on first use (PEP 562), so that a light
# module such as `strata.workspace.locate` (which the `strata` launcher needs) does not pull in the
# engine, LanceDB and numpy.
_HOMES = {
    "Config": "strata.config",
    "load_config": "strata.config",
    "Engine": "strata.engine",
    "IndexSummary": "strata.index.indexer",
    "SearchResult": "strata.query.hybrid",
    "Filter": "strata.store",
    "Hit": "strata.types",
    "Record": "strata.types",
    "SymbolMatch": "strata.query.lookup",
    "CallWalk": "strata.query.lookup",
    "Related": "strata.query.lookup",
    "Answer": "strata.answer.result",
    "Citation": "strata.answer.result",
    **{
        name: "strata.errors"
        for name in (
            "ConfigError",
            "EmbedderError",
            "EmbedderMismatchError",
            "EngineError",
            "LlmError",
            "LockError",
            "NoIndexError",
            "QueryError",
            "StoreError",
            "StrataError",
            "UserError",
        )
    },
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'strata' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
