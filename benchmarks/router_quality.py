"""Routed search vs plain search on the quality sets, plus structural questions about click.

    python -m benchmarks.router_quality [--sets devqs,symbol,structural] [--mode lexical]
        [--limit N] [--out FILE.md]

Uses the quality harness (`benchmarks/quality/`): the same corpora, queries, hit rule and
metrics. `plain` is `Engine.search`; `routed` is `strata.query.router.route` +
`strata.query.executor.execute` over the same index, in the same mode. The structural set is
written here from the AST of click 8.1.8 (`src/click`): "who calls X" (targets: every
function or method whose body calls X by name) and "what does X call" (targets: the
definitions of the package functions X calls by name). Indexes are lexical-only
(`embed.provider = none`) for `--mode lexical`; the other modes score the quality
benchmark's own all-MiniLM-L6-v2 index of each corpus (`benchmarks.quality.indexes`).
"""

from __future__ import annotations

import argparse
import ast
import json
import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.quality import run as harness
from benchmarks.quality.evaluate import Outcome
from benchmarks.quality.evaluate import run as score_run
from benchmarks.quality.indexes import open_index, strata_build
from benchmarks.quality.metrics import K, Retrieved
from benchmarks.quality.model import CORPORA, Corpus, Query, Target, copy_files, tree_hash
from benchmarks.quality.pydefs import Definition, definitions, python_files
from benchmarks.quality.report import markdown
from benchmarks.sdists import CACHE, fetch_sdist
from strata import Engine
from strata.query.executor import execute
from strata.query.router import IndexFacts, route

log = logging.getLogger("benchmarks.router_quality")

SEED = 13
CALLERS, CALLEES = 16, 8
INDEXES = CACHE / "router" / "indexes"


# ---- the structural set ---------------------------------------------------------------------


def structural_corpus() -> Corpus:
    """click 8.1.8's library code and "who calls" / "what does X call" questions about it."""
    src = fetch_sdist("click", "8.1.8")
    rels = [f"src/click/{p}" for p in python_files(src / "src" / "click")]
    root = CORPORA / "structural-click"
    if not root.exists():
        copy_files(src, rels, root)
    defs = [d for rel in rels for d in definitions(root, rel)]
    calls = _calls(root, rels, defs)
    return Corpus(
        "structural-click", root, _caller_queries(defs, calls) + _callee_queries(defs, calls)
    )


def _calls(root: Path, rels: Sequence[str], defs: list[Definition]) -> dict[Definition, set[str]]:
    """Each definition -> the bare names it calls (`f(...)`, `obj.f(...)`), nested defs apart."""
    out: dict[Definition, set[str]] = {}
    by_span = {(d.path, d.start): d for d in defs}
    for rel in rels:
        tree = ast.parse((root / rel).read_bytes())
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            d = by_span.get((rel, start))
            if d is None:
                continue
            names = set()
            for sub in ast.walk(node):
                if isinstance(sub, ast.Call):
                    f = sub.func
                    names.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
            out[d] = names - {""}
    return out


def _unique(defs: list[Definition]) -> dict[str, Definition]:
    counts = Counter(d.name for d in defs)
    return {d.name: d for d in defs if counts[d.name] == 1 and not d.name.startswith("__")}


def _caller_queries(defs: list[Definition], calls: dict[Definition, set[str]]) -> tuple[Query, ...]:
    named = _unique(defs)
    callers = {n: [d for d, called in calls.items() if n in called and d.name != n] for n in named}
    pool = sorted(n for n, found in callers.items() if 1 <= len(found) <= 6 and len(n) >= 4)
    chosen = sorted(random.Random(f"{SEED}:callers").sample(pool, min(CALLERS, len(pool))))
    return tuple(
        Query(
            f"structural:callers:{n}",
            "structural",
            "structural-click",
            f"who calls {n}",
            tuple(Target(d.path, d.start, d.end) for d in callers[n]),
        )
        for n in chosen
    )


def _callee_queries(defs: list[Definition], calls: dict[Definition, set[str]]) -> tuple[Query, ...]:
    named = _unique(defs)
    pool = sorted(
        (d for d, called in calls.items() if d.name in named and len(called & named.keys()) >= 2),
        key=lambda d: (d.path, d.start),
    )
    chosen = random.Random(f"{SEED}:callees").sample(pool, min(CALLEES, len(pool)))
    return tuple(
        Query(
            f"structural:callees:{d.name}",
            "structural",
            "structural-click",
            f"what does {d.name} call",
            tuple(
                Target(c.path, c.start, c.end)
                for n in sorted(calls[d] & named.keys())
                for c in [named[n]]
            ),
        )
        for d in sorted(chosen, key=lambda d: d.name)
    )


# ---- running --------------------------------------------------------------------------------


def open_engine(corpus: Corpus, mode: str) -> Engine:
    """The corpus's index, built once and cached: lexical-only for `lexical`; otherwise the
    quality run's own all-MiniLM-L6-v2 index of the corpus (the same one it scores)."""
    if mode != "lexical":
        return open_index(corpus, "all-MiniLM-L6-v2")[0]
    # Keyed by the Strata build too: an index made by older code would measure that code.
    index_dir = INDEXES / f"{corpus.name}-{tree_hash(corpus.root)}-lexical-{strata_build()}"
    eng = Engine.open(corpus.root, index_dir=index_dir, config={"embed.provider": "none"})
    if not (index_dir / "done").exists():
        eng.index(full=True)
        (index_dir / "done").touch()
    return eng


def searchers(eng: Engine, mode: str) -> dict[str, Callable[[str], list[Retrieved]]]:
    """`plain` (Engine.search) and `routed` (router + executor) over one engine."""
    facts = IndexFacts.from_counts(eng.store.counts(), repos=[eng.root.name])

    def plain(text: str) -> list[Retrieved]:
        return _retrieved(eng.search(text, k=K, mode=mode, route=False).hits)

    def routed(text: str) -> list[Retrieved]:
        return _retrieved(execute(eng.parts.context(), route(text, facts, k=K), K, mode=mode).hits)

    return {f"plain {mode}": plain, f"routed {mode}": routed}


def _retrieved(hits: Sequence[object]) -> list[Retrieved]:
    return [Retrieved(h.record.path, h.record.span_start, h.record.span_end) for h in hits]  # type: ignore[attr-defined]


def main(argv: Sequence[str] | None = None) -> None:
    """Build the corpora, run plain and routed search, print (and save) the tables."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    started = time.perf_counter()
    sets = [s for s in args.sets.split(",") if s]
    corpora = harness.build_corpora([s for s in sets if s in harness.SETS])
    if "structural" in sets:
        corpora.append(structural_corpus())
    outcomes: list[Outcome] = []
    intents: Counter[str] = Counter()
    for corpus in corpora:
        queries = harness.limited(corpus.queries, args.limit)
        if not queries:
            continue
        eng = open_engine(replace(corpus, queries=queries), args.mode)
        facts = IndexFacts.from_counts(eng.store.counts())
        intents.update(f"{q.set}: {route(q.text, facts).intent}" for q in queries)
        for system, search in searchers(eng, args.mode).items():
            outcomes += score_run(system, "", search, queries)
        eng.close()
    n = {c.name: len(harness.limited(c.queries, args.limit)) for c in corpora}
    preamble = (
        "## Routed vs plain search\n\n"
        f"Mode `{args.mode}` (indexes with embed.provider="
        f"{'none' if args.mode == 'lexical' else 'local all-MiniLM-L6-v2'}); "
        f"queries per corpus: {json.dumps(n)}; {time.perf_counter() - started:.0f} s.\n\n"
        "Router intents: " + ", ".join(f"{k} x{v}" for k, v in sorted(intents.items())) + "\n"
    )
    text = markdown(outcomes, preamble)
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.router_quality", description=__doc__)
    p.add_argument("--sets", default="devqs,symbol,structural")
    p.add_argument("--mode", default="lexical", choices=("lexical", "hybrid", "semantic"))
    p.add_argument("--limit", type=int, default=None, help="at most N queries per set and corpus")
    p.add_argument("--out", default=None)
    return p


if __name__ == "__main__":
    main()
