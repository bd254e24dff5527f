"""The hit rule and the ranking metrics: MRR@10, Recall@1, Recall@10, file-level NDCG@10.

A retrieved result is a *hit* for a target when it is in the target's file, its span
overlaps the target span, and it is at most max(100, 2 x target length) lines long: a
result that merely contains the answer somewhere in a whole file or a huge window is
not a hit. A query is answered at rank r when the r-th result hits any of its targets;
Recall@k is 1 when that happens within the first k results (the "success@k" of
CodeSearchNet), so a query with several acceptable targets needs only one of them.
File-level NDCG@10 ranks the distinct files of the results (first appearance order)
with binary relevance: a file is relevant when it holds a target.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from benchmarks.quality.model import Target

K = 10
MIN_HIT_LINES = 100


@dataclass(frozen=True, slots=True)
class Retrieved:
    """One ranked result, reduced to what the hit rule reads."""

    path: str
    start: int | None
    end: int | None


@dataclass(frozen=True, slots=True)
class Scores:
    """The metrics of one query, or their means over a group of queries."""

    mrr: float
    recall_1: float
    recall_10: float
    ndcg_10: float
    n: int = 1


def is_hit(result: Retrieved, target: Target) -> bool:
    """Whether `result` answers `target` under the hit rule (see the module docstring)."""
    if result.path != target.path or result.start is None or result.end is None:
        return False
    if result.end < target.start or result.start > target.end:
        return False
    return result.end - result.start + 1 <= max(MIN_HIT_LINES, 2 * target.length)


def first_hit_rank(
    results: Sequence[Retrieved], targets: Sequence[Target], k: int = K
) -> int | None:
    """1-based rank of the first result within the top `k` that hits any target."""
    for rank, result in enumerate(results[:k], start=1):
        if any(is_hit(result, t) for t in targets):
            return rank
    return None


def file_ndcg(results: Sequence[Retrieved], targets: Sequence[Target], k: int = K) -> float:
    """NDCG@k over the distinct files of `results`, a file relevant when it holds a target."""
    wanted = {t.path for t in targets}
    files = list(dict.fromkeys(r.path for r in results))[:k]
    dcg = sum(1 / math.log2(i + 2) for i, path in enumerate(files) if path in wanted)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(wanted), k)))
    return dcg / ideal if ideal else 0.0


def score(results: Sequence[Retrieved], targets: Sequence[Target]) -> Scores:
    """All metrics of one query's ranked results."""
    rank = first_hit_rank(results, targets)
    return Scores(
        mrr=1 / rank if rank else 0.0,
        recall_1=1.0 if rank == 1 else 0.0,
        recall_10=1.0 if rank else 0.0,
        ndcg_10=file_ndcg(results, targets),
    )


def mean(scores: Iterable[Scores]) -> Scores:
    """The per-metric mean of per-query scores (`n` = number of queries)."""
    items = list(scores)
    if not items:
        return Scores(0.0, 0.0, 0.0, 0.0, n=0)
    n = len(items)
    return Scores(
        mrr=sum(s.mrr for s in items) / n,
        recall_1=sum(s.recall_1 for s in items) / n,
        recall_10=sum(s.recall_10 for s in items) / n,
        ndcg_10=sum(s.ndcg_10 for s in items) / n,
        n=n,
    )
