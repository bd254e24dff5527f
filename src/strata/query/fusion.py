"""Rank fusion: weighted reciprocal rank fusion of several ranked lists (pure)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def rrf(
    rankings: Mapping[str, Sequence[K]],
    *,
    weights: Mapping[str, float] | None = None,
    k: int = 60,
) -> dict[K, dict[str, float]]:
    """Weighted reciprocal rank fusion.

    Each list contributes `weight / (k + rank)` (rank 1-based) to every key it holds.

    Args:
        rankings: name of the retriever -> its keys, best first.
        weights: name -> weight (default 1.0 each).
        k: the RRF constant; larger flattens the head of each list.

    Returns:
        key -> {retriever name: its contribution}; sum the values for the fused score.
    """
    out: dict[K, dict[str, float]] = {}
    for name, keys in rankings.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, key in enumerate(keys, 1):
            out.setdefault(key, {})[name] = w / (k + rank)
    return out


def fused_order(parts: Mapping[K, Mapping[str, float]]) -> list[K]:
    """Keys sorted by the sum of their parts, best first (ties keep insertion order)."""
    return sorted(parts, key=lambda key: -sum(parts[key].values()))
