"""A warm store's BM25 from memory against LanceDB's full-text index, on the quality sets.

    python -m benchmarks.warm_bm25 [--sets docstring,devqs,docs,nonpython] [--limit N] [-k 60]

Every query of the chosen sets (`benchmarks.quality`), on each corpus's lexical index
(`embed.provider none`), asked of LanceDB's FTS index (`lex_idx`, the passage layers)
and of the in-memory BM25 a warm store keeps (`strata.store.bm25`): per query, whether
both give the same scores rank by rank and the same rows at every score (rows tied at
the last score may differ: which of them a limit cuts is arbitrary), whether the order is
identical too, the largest score difference, and the time per query of each.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from benchmarks.quality.indexes import open_index
from benchmarks.quality.run import SETS, build_corpora
from strata.layers import PASSAGE_LAYERS
from strata.store import sql
from strata.store.bm25 import agrees
from strata.store.lance import LanceStore
from strata.store.schema import searchable
from strata.text.tokens import query_terms


def compare(sets: list[str], limit: int | None, k: int) -> dict[str, Any]:
    """The comparison, per corpus and in all."""
    rows: dict[str, Any] = {}
    for corpus in build_corpora(sets):
        eng, _ = open_index(corpus, "none")
        assert isinstance(eng.store, LanceStore)
        texts = [q.text for q in (corpus.queries[:limit] if limit else corpus.queries)]
        rows[corpus.name] = one_index(eng.store, texts, k)
        eng.close()
    counted = [r for r in rows.values() if "queries" in r]
    total = {
        key: sum(r[key] for r in counted)
        for key in ("queries", "same_scores_and_rows", "identical_order")
    }
    return {"k": k, "sets": sets, "all": total, "corpora": rows}


def one_index(store: LanceStore, texts: list[str], k: int) -> dict[str, Any]:
    """Each query asked of LanceDB's FTS and of the warm copy's BM25."""
    store.keep_warm()
    hot = store._warm.get()
    if hot is None or hot.bm25 is None:
        return {"in_memory_bm25": False}
    bm25, kept = hot.bm25, sql.in_list("layer", PASSAGE_LAYERS)
    times = {"lancedb": 0.0, "memory": 0.0}

    def theirs(words: list[str]) -> list[tuple[int, float]]:
        start = time.perf_counter()
        got = store._bm25(words, kept, k).select(["_score"]).with_row_id(True).to_arrow()
        times["lancedb"] += time.perf_counter() - start
        return list(zip(got["_rowid"].to_pylist(), got["_score"].to_pylist(), strict=True))

    def mine(words: list[str]) -> list[tuple[int, float]]:
        start = time.perf_counter()
        top = bm25.top(words, k, None)
        times["memory"] += time.perf_counter() - start
        return [(int(hot.row_ids[i]), s) for i, s in top]

    same = ordered = 0
    worst = 0.0
    for text in texts:
        words = searchable(query_terms(text))
        a, b = mine(words), theirs(words)
        same += agrees(lambda _w: a, lambda _w: b, [words])  # noqa: B023 (called at once)
        ordered += [r for r, _ in a] == [r for r, _ in b]
        worst = max([worst, *(abs(x - y) for (_, x), (_, y) in zip(a, b, strict=False))])
    n = max(1, len(texts))
    return {
        "queries": len(texts),
        "same_scores_and_rows": same,
        "identical_order": ordered,
        "max_score_difference": worst,
        "lancedb_ms_per_query": round(times["lancedb"] * 1000 / n, 2),
        "memory_ms_per_query": round(times["memory"] * 1000 / n, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default="docstring,devqs,docs,nonpython")
    parser.add_argument("--limit", type=int, default=None, help="at most N queries per corpus")
    parser.add_argument("-k", type=int, default=60, help="rows asked per query")
    args = parser.parse_args()
    sets = [s for s in args.sets.split(",") if s in SETS]
    print(json.dumps(compare(sets, args.limit, args.k), indent=2))


if __name__ == "__main__":
    main()
