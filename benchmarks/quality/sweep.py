"""Sweep one search setting over the whole quality sets (never per query).

    python -m benchmarks.quality.sweep --key search.rrf_k --values 1,3,5,10,20,60
        [--sets docstring,devqs,nonpython] [--mode hybrid]

Reuses the quality run's cached all-MiniLM-L6-v2 indexes (search settings do not change an
index) and prints MRR@10 / Recall@1 / Recall@10 per set for each value, plus the mean
MRR@10 over all queries: the figure the default is chosen by.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Sequence

from benchmarks.quality.evaluate import Outcome, run, strata_searcher
from benchmarks.quality.indexes import engine_config, open_index
from benchmarks.quality.metrics import K
from benchmarks.quality.run import build_corpora
from strata import Engine

EMBEDDER = "all-MiniLM-L6-v2"


def _value(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def sweep(key: str, values: Sequence[object], sets: Sequence[str], mode: str) -> list[str]:
    """Markdown table rows: one per value."""
    corpora = build_corpora(sets)
    engines = []
    for corpus in corpora:
        eng, _ = open_index(corpus, EMBEDDER)
        engines.append((corpus, eng.index_dir))
        eng.close()
    rows = []
    for value in values:
        outcomes: list[Outcome] = []
        for corpus, index_dir in engines:
            config = {**engine_config(EMBEDDER), key: value}
            eng = Engine.open(corpus.root, index_dir=index_dir, config=config)
            outcomes += run(str(value), "", strata_searcher(eng, mode), corpus.queries)
            eng.close()
        cells = []
        for name in dict.fromkeys(o.query.set for o in outcomes):  # a family has several sets
            mine = [o for o in outcomes if o.query.set == name]
            cells.append(f"`{name}` {_cell(mine)}")
        rows.append(f"| {value} | " + "; ".join(cells) + f" | {_mrr(outcomes):.3f} |")
    return rows


def _mrr(outcomes: Sequence[Outcome]) -> float:
    return sum(1 / o.rank for o in outcomes if o.rank and o.rank <= K) / max(1, len(outcomes))


def _cell(outcomes: Sequence[Outcome]) -> str:
    n = len(outcomes)
    r1 = sum(1 for o in outcomes if o.rank == 1) / n
    r10 = sum(1 for o in outcomes if o.rank and o.rank <= K) / n
    return f"{_mrr(outcomes):.3f} / {r1:.3f} / {r10:.3f}"


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, sweep, print the table."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--key", default="search.rrf_k")
    p.add_argument("--values", default="1,3,5,10,20,60")
    p.add_argument("--sets", default="docstring,devqs,nonpython")
    p.add_argument("--mode", default="hybrid")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    sets = args.sets.split(",")
    print(f"| {args.key} | MRR@10 / Recall@1 / Recall@10 per set | mean MRR@10 |")
    print("|---|---|---|")
    for row in sweep(args.key, [_value(v) for v in args.values.split(",")], sets, args.mode):
        print(row, flush=True)


if __name__ == "__main__":
    main()
