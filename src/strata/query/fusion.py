"""Fusing code and docs fairly (pure): each record ranked among its own kind (code or docs)
in every list, each kind's floor in the pool, and each list's first two of each kind for the
standouts (the hybrid search's `search.fair_kinds` and `search.kind_floor`)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from strata.query import ranking
from strata.types import Record

__all__ = ["fair_rrf", "heads", "kind_floor"]


def fair_rrf(
    rankings: Mapping[str, Sequence[str]],
    records: Mapping[str, Record],
    weights: Mapping[str, float],
    k: int,
) -> dict[str, dict[str, float]]:
    """Weighted RRF with each record ranked among its own kind (code or docs) in every
    list: a docs section is not pushed down by code chunks that repeat the words, nor the
    other way round; the parts keep their retrievers' names."""
    out: dict[str, dict[str, float]] = {}
    for name, ids in rankings.items():
        for kind in ("C", "D"):
            same = [i for i in ids if records[i].layer[:1] == kind]
            for rid, parts in ranking.rrf({name: same}, weights=weights, k=k).items():
                out.setdefault(rid, {}).update(parts)
    return out


def kind_floor(pairs: Sequence[tuple[Record, float]], n: int) -> list[tuple[Record, float]]:
    """A list's first `n` candidates, then, for a kind (code or docs) with fewer than
    `n // 2` among them, its next ones from deeper in the list up to that many: the fair
    fusion ranks each kind among its own, so a kind the other crowds out of the pool would
    lose the other list's evidence for its candidates (`search.kind_floor`, off by default:
    docs questions Recall@10 .795 -> .830, MRR@10 .606 -> .601; docs/benchmarks.md)."""
    head = list(pairs[:n])
    count: dict[str, int] = {}
    for rec, _ in head:
        count[rec.layer[:1]] = count.get(rec.layer[:1], 0) + 1
    for rec, score in pairs[n:]:
        kind = rec.layer[:1]
        if count.get(kind, 0) < n // 2:
            head.append((rec, score))
            count[kind] = count.get(kind, 0) + 1
    return head


def heads(
    lists: Mapping[str, Sequence[tuple[Record, float]]], *, by_kind: bool
) -> list[dict[str, list[tuple[str, float]]]]:
    """Each list's first two candidates, for the standouts; `by_kind`: the first two code
    chunks and the first two doc sections apart, as the fair fusion ranks each among its
    kind (measured: a section far above the other sections is a confident answer even
    when code leads the list; docs questions +.027 MRR@10, developer questions +.013)."""
    if not by_kind:
        return [{name: [(r.id, s) for r, s in pairs[:2]] for name, pairs in lists.items()}]
    return [
        {
            name: list(itertools.islice(((r.id, s) for r, s in pairs if r.layer[:1] == kind), 2))
            for name, pairs in lists.items()
        }
        for kind in ("C", "D")
    ]
