"""Length-bucketed batches: texts of similar token length share a batch, so a batch pads
little, and the vectors come back in the order the texts were given."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from strata.embedding import Embedder
from strata.errors import EmbedderError

__all__ = ["bucketed", "embed_bucketed", "token_counter"]

Lengths = Callable[[Sequence[str]], Sequence[int]]


def token_counter(embedder: Embedder) -> Callable[[str], int]:
    """One text's length as the embedder counts it (its `token_lengths`, when it has one:
    tokens, capped at what the model reads), else its characters."""
    lengths = _lengths_of(embedder)
    return lambda text: int(lengths([text])[0])


def bucketed(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices into `lengths`, shortest first (ties in the given order), cut into batches
    of at most `batch_size`."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    step = max(1, batch_size)
    return [order[i : i + step] for i in range(0, len(order), step)]


def embed_bucketed(
    embedder: Embedder,
    texts: Sequence[str],
    batch_size: int,
    on_batch: Callable[[list[int], np.ndarray], None] | None = None,
) -> np.ndarray:
    """`embedder.embed_documents` over length-bucketed batches; row i is text i's vector.

    `on_batch(indices, vectors)` sees each batch as soon as it is embedded (to store it
    before the next one starts).
    """
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    if not texts:  # every text was cached: a tokenizer may fail on no texts at all
        return out
    for batch in bucketed(_lengths_of(embedder)(texts), batch_size):
        vectors = embedder.embed_documents([texts[i] for i in batch])
        if vectors.shape != (len(batch), embedder.dim):
            raise EmbedderError(
                f"{embedder.name} returned shape {vectors.shape} for {len(batch)} texts"
            )
        out[batch] = vectors
        if on_batch is not None:
            on_batch(batch, vectors)
    return out


def _lengths_of(embedder: Embedder) -> Lengths:
    counted: Lengths | None = getattr(embedder, "token_lengths", None)
    return counted if counted is not None else _characters


def _characters(texts: Sequence[str]) -> list[int]:
    return [len(t) for t in texts]
