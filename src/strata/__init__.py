"""Strata: a local-first, layered, always-current index of a repository and its docs."""

from strata.config import Config, load_config
from strata.engine import Engine
from strata.errors import (
    ConfigError,
    EmbedderError,
    EmbedderMismatchError,
    EngineError,
    LockError,
    NoIndexError,
    QueryError,
    StoreError,
    StrataError,
    UserError,
)
from strata.indexer import IndexSummary
from strata.search import SearchResult
from strata.store import Filter
from strata.types import Hit, Record

__all__ = [
    "Config",
    "ConfigError",
    "EmbedderError",
    "EmbedderMismatchError",
    "Engine",
    "EngineError",
    "Filter",
    "Hit",
    "IndexSummary",
    "LockError",
    "NoIndexError",
    "QueryError",
    "Record",
    "SearchResult",
    "StoreError",
    "StrataError",
    "UserError",
    "load_config",
]
