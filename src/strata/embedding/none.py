"""The `none` embedder: lexical-only indexes have no vectors, and never fake ones."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from strata.errors import EmbedderError
from strata.types import Vector

MESSAGE = "embedder is 'none' (lexical only)"


class NoEmbedder:
    """Dimension 0; asking it for a vector is an error, not a zero vector."""

    @property
    def name(self) -> str:
        """`none`."""
        return "none"

    @property
    def dim(self) -> int:
        """0: the index stores no vectors."""
        return 0

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Always raises `EmbedderError`."""
        raise EmbedderError(MESSAGE, hint="set embed.provider to local, ollama or openai")

    def embed_query(self, text: str) -> Vector:
        """Always raises `EmbedderError`."""
        raise EmbedderError(MESSAGE, hint="search with --mode lexical")
