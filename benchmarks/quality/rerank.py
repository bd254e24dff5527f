"""Compare ranking variants over the quality sets with each query's retrieval done once.

    python -m benchmarks.quality.rerank [--sets langs,docs,devqs] [--modes hybrid]
        [--variants before,after] [--variants-from benchmarks/quality/variants.py]

Ranking is the read side: the retrievers' lists (BM25, vectors, named definitions) do not
depend on it. The first variant runs every query through `Engine.search` as usual while
each plain search's lists are kept (by store, query and filter); every later variant
re-ranks those same lists, so a variant costs seconds instead of a full run. A variant is
a function that changes the ranking module's settings and returns a function undoing it
(`VARIANTS`, or those of a module named by `--variants-from`). The cached indexes of the
quality run are used (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from benchmarks.quality.baseline import Bm25Baseline
from benchmarks.quality.evaluate import Outcome, run, strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K
from benchmarks.quality.run import SETS, build_corpora
from strata import Engine
from strata.layers import PASSAGE_LAYERS
from strata.query import hybrid

EMBEDDER = "all-MiniLM-L6-v2"
Variant = Callable[[], Callable[[], None]]
VARIANTS: Mapping[str, Variant] = {"current": lambda: lambda: None}


@contextlib.contextmanager
def retrieval_kept() -> Iterator[dict[Any, Any]]:
    """While inside, `Searcher._retrieve` answers a repeated retrieval from memory."""
    memo: dict[Any, Any] = {}
    original = hybrid.Searcher._retrieve

    def cached(self: hybrid.Searcher, query: str, terms: list[str], q: Any, *rest: Any) -> Any:
        sizes, mode, where, notes = rest
        key = (id(self._store), query, tuple(terms), q.lookup, q.asked, sizes, mode, where)
        if key not in memo:
            fresh: list[str] = []
            lists, used = original(self, query, terms, q, sizes, mode, where, fresh)
            memo[key] = (lists, used, fresh)
        lists, used, fresh = memo[key]
        notes.extend(fresh)
        return {name: list(pairs) for name, pairs in lists.items()}, used

    hybrid.Searcher._retrieve = cached  # type: ignore[method-assign]
    try:
        yield memo
    finally:
        hybrid.Searcher._retrieve = original  # type: ignore[method-assign]


def compare(
    sets: Sequence[str], modes: Sequence[str], variants: Mapping[str, Variant]
) -> dict[str, list[Outcome]]:
    """Outcomes per variant name, the code-aware BM25's under `code-aware`."""
    corpora = build_corpora(sets)
    engines: list[tuple[Any, Engine]] = []
    out: dict[str, list[Outcome]] = {"code-aware": []}
    for corpus in corpora:
        eng, _ = open_index(corpus, EMBEDDER)
        engines.append((corpus, eng))
        baseline = Bm25Baseline.code_aware(eng.records(layers=PASSAGE_LAYERS))
        out["code-aware"] += run(baseline.name, "", baseline.search, corpus.queries)
    with retrieval_kept():
        for name, variant in variants.items():
            undo = variant()
            try:
                out[name] = [
                    o
                    for corpus, eng in engines
                    for mode in modes
                    for o in _answers(eng, mode, corpus.queries)
                ]
            finally:
                undo()
    for _, eng in engines:
        eng.close()
    return out


def _answers(eng: Engine, mode: str, queries: Sequence[Any]) -> list[Outcome]:
    return run(f"strata {mode}", EMBEDDER, strata_searcher(eng, mode), queries)


def table(results: Mapping[str, Sequence[Outcome]]) -> list[str]:
    """Markdown rows: per set and mode, each variant's MRR@10 / R@1 / R@10."""
    names = list(results)
    rows = ["| set | mode | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    keys = dict.fromkeys((o.query.set, o.system) for o in results[names[-1]])
    for set_name, system in keys:
        cells = []
        for name in names:
            mine = [
                o
                for o in results[name]
                if o.query.set == set_name and (name == "code-aware" or o.system == system)
            ]
            cells.append(_cell(mine))
        rows.append(f"| {set_name} | {system.split()[-1]} | " + " | ".join(cells) + " |")
    return rows


def _cell(outcomes: Sequence[Outcome]) -> str:
    n = max(1, len(outcomes))
    mrr = sum(1 / o.rank for o in outcomes if o.rank and o.rank <= K) / n
    r1 = sum(1 for o in outcomes if o.rank == 1) / n
    r10 = sum(1 for o in outcomes if o.rank and o.rank <= K) / n
    return f"{mrr:.3f}/{r1:.3f}/{r10:.3f}"


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, compare the variants, print the table."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sets", default=",".join(SETS))
    p.add_argument("--modes", default="hybrid")
    p.add_argument("--variants", default=None, help="comma-separated names (default: all)")
    p.add_argument("--variants-from", default=None, help="a module with a VARIANTS mapping")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    known = VARIANTS
    if args.variants_from:
        known = importlib.import_module(args.variants_from).VARIANTS
    chosen = args.variants.split(",") if args.variants else list(known)
    results = compare(args.sets.split(","), args.modes.split(","), {n: known[n] for n in chosen})
    print("\n".join(table(results)))


if __name__ == "__main__":
    main()
