"""The semantic list with the index's query adapter (`embedding/adapter`): the code rows
are found with the adapted vector, in the places the query's own vector gives code.

The adapter is fitted on code; it moves a sentence towards code, so the adapted vector's
cosines with code run higher than the plain vector's with docs. Merged by score, code
crowded the docs out of the candidates (measured: docs questions MRR@10 .590 -> .578,
developer questions .651 -> .615). So the plain vector decides how many of the list's
places are code and which are docs, and the adapted one which code fills the code places.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from strata.embedding.adapter import adapt
from strata.layers import EMBEDDED_LAYERS
from strata.store import Filter, Hits, Store
from strata.types import Vector

__all__ = ["vector_search"]


def vector_search(
    store: Store, vec: Vector, matrix: np.ndarray | None, weight: float, n: int, where: Filter
) -> Hits:
    """The `n` nearest rows under `where`, the code among them found with `vec` adapted by
    `matrix` (`weight` of the way). Without a matrix of the vector's width, or at weight 0,
    the plain search."""
    where = dataclasses.replace(where, has_vector=True)
    dim = vec.shape[0]
    if matrix is None or weight <= 0 or matrix.shape != (dim, dim):
        return store.vector_search(vec, n, where)
    layers = where.layers if where.layers is not None else EMBEDDED_LAYERS
    code = tuple(layer for layer in layers if _is_code(layer))
    if not code:
        return store.vector_search(vec, n, where)
    moved = store.vector_search(
        adapt(vec, matrix, weight), n, dataclasses.replace(where, layers=code)
    )
    if len(code) == len(layers):
        return moved
    plain = store.vector_search(vec, n, where)
    found = iter(moved)
    out: Hits = []
    for rec, score in plain:
        if not _is_code(rec.layer):
            out.append((rec, score))
        elif (nxt := next(found, None)) is not None:
            out.append(nxt)
    return out


def _is_code(layer: str) -> bool:
    return layer.startswith("C")
