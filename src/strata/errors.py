"""Strata's exceptions: one root, a few branches, each saying what to do next.

    StrataError                      root of everything Strata raises on purpose
    ├── UserError                    the caller asked for something impossible (exit 1)
    │   ├── ConfigError              a config file, env variable or flag has a bad value
    │   ├── NoIndexError             no index found where one was expected
    │   └── QueryError               an empty or unusable query
    └── EngineError                  data or engine trouble (exit 2)
        ├── EmbedderError            the embedding model or server failed
        │   └── EmbedderMismatchError  index built with another model or dimension
        ├── StoreError               the store could not be read or written
        │   └── SchemaError          the store's schema is newer than this Strata
        ├── LockError                another writer holds the index
        └── LlmError                 the answering LLM is unreachable, slow or broken

Per-file trouble (unreadable, binary, too large) is not an exception: it is a
`Skip` value with a one-line reason, counted in the run's summary.
"""

from __future__ import annotations


class StrataError(Exception):
    """Root of every error Strata raises on purpose."""

    exit_code = 2

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class UserError(StrataError):
    """The request cannot be carried out as given; exit code 1."""

    exit_code = 1


class ConfigError(UserError):
    """A configuration value is malformed or unknown."""


class NoIndexError(UserError):
    """No index exists where one was expected."""


class QueryError(UserError):
    """The query cannot be searched (empty, only punctuation, too long)."""


class EngineError(StrataError):
    """Data or engine trouble; exit code 2."""


class EmbedderError(EngineError):
    """The embedding model or server failed or answered nonsense."""


class EmbedderMismatchError(EmbedderError):
    """The index was built with another embedding model or dimension."""


class StoreError(EngineError):
    """The store could not be opened, read or written."""


class SchemaError(StoreError):
    """The store's schema version is not one this Strata can use."""


class LockError(EngineError):
    """Another process holds the index's write lock."""


class LlmError(EngineError):
    """The LLM that answers `strata ask` is unreachable, too slow, or answered nonsense."""
