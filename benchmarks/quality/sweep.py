"""Sweep one search setting over the whole quality sets (never per query).

    python -m benchmarks.quality.sweep --key search.rrf_k --values 1,3,5,10,20,60
        [--sets docstring,devqs,nonpython] [--mode hybrid]
    python -m benchmarks.quality.sweep --constant 'strata.query.ranking.SENTENCE_WEIGHTS[lexical]'
        --values 0.4,0.8,1.3

`--constant` sweeps a module's constant instead of a config key (set in this process for
each value, then put back): `module.NAME`, or `module.NAME[key]` for one entry of a mapping.

Reuses the quality run's cached all-MiniLM-L6-v2 indexes (search settings do not change an
index) and prints MRR@10 / Recall@1 / Recall@10 per set for each value, plus the mean
MRR@10 over all queries: the figure the default is chosen by.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import logging
import re
from collections.abc import Iterator, Sequence

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


@contextlib.contextmanager
def constant(name: str, value: object) -> Iterator[None]:
    """`module.NAME` (or one entry of it, `module.NAME[key]`) set to `value` meanwhile."""
    m = re.fullmatch(r"([\w.]+)\.(\w+)(?:\[(\w+)\])?", name)
    if m is None:
        raise SystemExit(f"--constant: not module.NAME or module.NAME[key]: {name}")
    module = importlib.import_module(m.group(1))
    old = getattr(module, m.group(2))
    setattr(module, m.group(2), {**old, m.group(3): value} if m.group(3) else value)
    try:
        yield
    finally:
        setattr(module, m.group(2), old)


def sweep(
    key: str, values: Sequence[object], sets: Sequence[str], mode: str, const: str = ""
) -> list[str]:
    """Markdown table rows: one per value (of the config `key`, or of the constant `const`)."""
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
            config = engine_config(EMBEDDER) if const else {**engine_config(EMBEDDER), key: value}
            eng = Engine.open(corpus.root, index_dir=index_dir, config=config)
            with constant(const, value) if const else contextlib.nullcontext():
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
    p.add_argument("--constant", default="", help="module.NAME or module.NAME[key] instead")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    sets = args.sets.split(",")
    print(f"| {args.constant or args.key} | MRR@10 / Recall@1 / Recall@10 per set | mean MRR@10 |")
    print("|---|---|---|")
    values = [_value(v) for v in args.values.split(",")]
    for row in sweep(args.key, values, sets, args.mode, args.constant):
        print(row, flush=True)


if __name__ == "__main__":
    main()
