"""Run a corpus's queries through each Strata mode and the baseline, and score every answer."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.quality.metrics import K, Retrieved, Scores, first_hit_rank, score
from benchmarks.quality.model import Query
from strata import Engine

Searcher = Callable[[str], list[Retrieved]]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One query answered by one system: its scores, first-hit rank and top results."""

    system: str
    embedder: str
    query: Query
    scores: Scores
    rank: int | None
    seconds: float
    top: tuple[Retrieved, ...]


def strata_searcher(eng: Engine, mode: str) -> Searcher:
    """A searcher over the engine's default layers in one mode."""

    def search(text: str) -> list[Retrieved]:
        result = eng.search(text, k=K, mode=mode)
        return [Retrieved(h.record.path, h.record.span_start, h.record.span_end) for h in result]

    return search


def run(system: str, embedder: str, search: Searcher, queries: Sequence[Query]) -> list[Outcome]:
    """Every query through `search`, timed and scored."""
    outcomes = []
    for q in queries:
        started = time.perf_counter()
        results = search(q.text)[:K]
        seconds = time.perf_counter() - started
        outcomes.append(
            Outcome(
                system,
                embedder,
                q,
                score(results, q.targets),
                first_hit_rank(results, q.targets),
                seconds,
                tuple(results),
            )
        )
    return outcomes
