"""What an `Engine` owns: its store and its embedders, each opened on first use, and the one
check that an embedder fits the index it is asked to serve."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from strata.config import Config
from strata.embedding import Embedder, known_dim, make_embedder, make_query_embedder
from strata.errors import EmbedderMismatchError
from strata.store import Store, open_store
from strata.workspace.locate import read_locator

__all__ = ["Parts", "check_embedder"]

_REBUILD = "run `strata index --full` to rebuild, or set embed.provider/model back"


def check_embedder(meta: Mapping[str, Any], name: str | None, dim: int | None = None) -> None:
    """Refuse an embedder the index was not built with.

    `meta` is the index's locator; `name` the configured embedder (None: no embedder) and
    `dim` its width when known (None: compare by name only, so no model is loaded just to
    check). An index that records no embedder yet accepts any.

    Raises:
        EmbedderMismatchError: the index was built with another embedder or width.
    """
    built, built_dim = meta.get("embedder"), meta.get("dim")
    if name is None:
        if meta.get("dim", 0) != 0:
            raise EmbedderMismatchError(
                f"index built with {built} ({built_dim}-d); config asks for no embedder",
                hint="run `strata index --full` to rebuild lexical-only",
            )
        return
    if not built or (built == name and (dim is None or built_dim == dim)):
        return
    asks = name if dim is None else f"{name} ({dim}-d)"
    raise EmbedderMismatchError(
        f"index built with {built} ({built_dim}-d); config asks for {asks}", hint=_REBUILD
    )


class Parts:
    """The store and the embedders of one index, opened lazily and checked once."""

    def __init__(self, index_dir: Path, cfg: Config, store_uri: str) -> None:
        self.index_dir = index_dir
        self.config = cfg
        self.store_uri = store_uri
        self._store: Store | None = None
        self._embedder: Embedder | None = None
        self._fresh: Embedder | None = None
        self._query: Embedder | None = None

    @property
    def embeds(self) -> bool:
        """Whether the configuration asks for vectors at all."""
        return self.config.embed.provider != "none"

    @property
    def store_open(self) -> bool:
        """Whether the store has been opened (a no-op run never opens it)."""
        return self._store is not None

    @property
    def store(self) -> Store:
        """The store, opened on first use with the index's recorded dimension."""
        if self._store is None:
            meta = read_locator(self.index_dir)
            dim = int(meta["dim"]) if "dim" in meta else self.configured_dim()
            self._store = open_store(self.store_uri, dim)
        return self._store

    def use_store(self, store: Store | None) -> None:
        """Hold `store` from now on, closing the one held before (a rebuild's new table)."""
        if self._store is not None and self._store is not store:
            self._store.close()
        self._store = store

    def embedder(self) -> Embedder:
        """The configured embedder, loaded on first use and checked against the index."""
        if self._embedder is None:
            emb = self.unchecked_embedder()
            check_embedder(read_locator(self.index_dir), emb.name, emb.dim)
            self._embedder = emb
        return self._embedder

    def unchecked_embedder(self) -> Embedder:
        """The configured embedder, loaded on first use, whatever the index holds."""
        if self._fresh is None:
            self._fresh = make_embedder(self.config.embed)
        return self._fresh

    def query_embedder(self) -> Embedder:
        """The embedder for search queries: the index's own once loaded, else a light twin
        of the same model (see `make_query_embedder`), checked against the index."""
        if self._embedder is not None:
            return self._embedder
        if self._query is None:
            emb, name = make_query_embedder(self.config.embed)
            check_embedder(read_locator(self.index_dir), name, emb.dim)
            self._query = emb
        return self._query

    def configured_dim(self) -> int:
        """The width the configuration gives vectors (0 without an embedder), known without
        loading the model where the model is known."""
        if not self.embeds:
            return 0
        known = known_dim(self.config.embed)  # no model load just to create the table
        return known if known is not None else self.unchecked_embedder().dim

    def close(self) -> None:
        """Release the store."""
        self.use_store(None)
