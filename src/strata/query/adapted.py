"""The semantic list with the index's query adapter (`embedding/adapter`): the code rows
are found with the vector moved by the code map, the docs with it moved by the docs map,
in the places the query's own vector gives each kind.

Each map moves a sentence towards its kind, so an adapted vector's cosines with its kind
run higher than the plain vector's with the other. Merged by score, code crowded the docs
out of the candidates (measured: docs questions MRR@10 .590 -> .578, developer questions
.651 -> .615). So the plain vector decides how many of the list's places are code and
which are docs, and each kind's adapted vector which rows fill its places.
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
    """The `n` nearest rows under `where`, each kind (code, docs) found with `vec` moved by
    its map of `matrix` (`weight` of the way): the two maps stacked, or the code map alone
    (an index fitted before the docs had one). Without a map of the vector's width, or at
    weight 0, the plain search."""
    where = dataclasses.replace(where, has_vector=True)
    maps = _maps(matrix, vec.shape[0]) if weight > 0 else {}
    layers = where.layers if where.layers is not None else EMBEDDED_LAYERS
    kinds = {is_code: tuple(x for x in layers if _is_code(x) == is_code) for is_code in maps}
    moved = {
        is_code: store.vector_search(
            adapt(vec, maps[is_code], weight), n, dataclasses.replace(where, layers=found)
        )
        for is_code, found in kinds.items()
        if found
    }
    if not moved:
        return store.vector_search(vec, n, where)
    if len({_is_code(x) for x in layers}) == 1:  # one kind searched, and it is moved
        return next(iter(moved.values()))
    return _merged(store, vec, n, where, moved)


def _merged(store: Store, vec: Vector, n: int, where: Filter, moved: dict[bool, Hits]) -> Hits:
    """The plain search's places, each of a moved kind filled from that kind's list."""
    found = {is_code: iter(hits) for is_code, hits in moved.items()}
    out: Hits = []
    for rec, score in store.vector_search(vec, n, where):
        kind = found.get(_is_code(rec.layer))
        if kind is None:
            out.append((rec, score))
        elif (nxt := next(kind, None)) is not None:
            out.append(nxt)
    return out


def _maps(matrix: np.ndarray | None, dim: int) -> dict[bool, np.ndarray]:
    """Each kind's map (True: code), those fitted (not all zeros) at width `dim`."""
    if matrix is None or matrix.shape[-2:] != (dim, dim) or matrix.ndim not in (2, 3):
        return {}
    stacked = matrix if matrix.ndim == 3 else matrix[None]
    return {kind: m for kind, m in zip((True, False), stacked, strict=False) if m.any()}


def _is_code(layer: str) -> bool:
    return layer.startswith("C")
