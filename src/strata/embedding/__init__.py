"""Embedders: the Protocol every backend meets and the registry that picks one by name.

Backends: `local` (all-MiniLM-L6-v2 shipped inside a PyPI wheel, loaded offline; the
default), `ollama` (`/api/embed`), `openai` (any OpenAI-compatible `/v1/embeddings`)
and `none` (lexical only: no vectors at all, never fake ones).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from strata.types import Vector


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of a fixed dimension."""

    @property
    def name(self) -> str:
        """Stable model identity recorded in the index (e.g. `local:all-MiniLM-L6-v2`)."""
        ...

    @property
    def dim(self) -> int:
        """Vector dimension; 0 for the `none` embedder."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for passages, shape (len(texts), dim), float32, L2-normalised."""
        ...

    def embed_query(self, text: str) -> Vector:
        """The vector of one search query, shape (dim,)."""
        ...
