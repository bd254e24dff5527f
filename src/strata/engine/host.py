"""What `strata.Engine` gives the mixins it is made of (`Searching`, `RepoQueries`): they
derive from `EngineParts`, whose declarations exist for the type checker only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from strata.config import Config
    from strata.embedding import Embedder
    from strata.store import Store


class EngineParts:
    """The root, configuration, store, embedders and locator an `Engine` provides."""

    if TYPE_CHECKING:
        root: Path
        config: Config

        @property
        def store(self) -> Store: ...

        def query_embedder(self) -> Embedder: ...

        def _embeds(self) -> bool: ...

        def _locator(self) -> dict[str, Any]: ...

        def _require(self) -> None: ...
