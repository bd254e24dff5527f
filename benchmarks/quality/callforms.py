"""A question about who calls a function, or what a function calls, asked in the words users
and agents write: for each phrasing, whether the router takes it for a call-graph question
and the rank of the first hit that answers it.

    python -m benchmarks.quality.callforms [--sets docstring] [--mode hybrid] [--json FILE]

The functions and their call sites are the callers oracle's (`benchmarks/callers_oracle.py`,
jedi's references and inference, `benchmarks/results/callers_oracle.json`): every sampled
function or method with at least one call site in its package's library code. Each is
asked by its name as the oracle states it (`split_template_path`, `NodeVisitor.visit`) in
every phrasing of `PHRASINGS`, through `Engine.search` as a user's question would be. A hit
answers when its span holds one of the oracle's call sites (the quality run's hit rule).
The other way round, each function that holds such a call site is asked what it calls
(`CALLEE_PHRASINGS`); a hit answers when it is the definition of one of the sampled
functions it calls.
The indexes are the quality run's cached ones of the same packages (their docstrings
blanked, every line kept: the sites' lines are the oracle's); run `benchmarks.quality.run`
first for the current build.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import form_summary, main_with
from benchmarks.quality.evaluate import run, strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.pydefs import Definition, definitions
from benchmarks.quality.run import build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
ORACLE = Path(__file__).resolve().parents[1] / "results" / "callers_oracle.json"
PHRASINGS = (
    "who calls {}",
    "what calls {}",
    "callers of {}",
    "where is {} called",
    "where is {} used",
    "who uses {}",
    "what uses {}",
    "which functions call {}",
    "what code calls {}",
    "where do we call {}",
    "find usages of {}",
    "how is {} used",
    "where is {} referenced",
    "what is {} called by",
    "кто вызывает {}",
    "кто использует {}",
    "где используется {}",
)
CALLEE_PHRASINGS = (
    "what does {} call",
    "callees of {}",
    "which functions are called by {}",
    "what gets called from {}",
    "what does {} invoke",
    "what does {} depend on",
    "what does {} use",
)


Site = tuple[str, int]
Called = tuple[str, str, list[Site]]  # the definition's path, its name, its call sites


def oracle_sites(path: Path = ORACLE) -> dict[str, list[Called]]:
    """Package name (`jinja2`) -> (path, name as the oracle states it, call sites) for
    every sampled symbol with at least one site."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, list[Called]] = defaultdict(list)
    for pkg in data["packages"]:
        for row in pkg["rows"]:
            sites = [(s.rsplit(":", 1)[0], int(s.rsplit(":", 1)[1])) for s in row["oracle"]]
            where, name = row["symbol"].split(":", 1)
            if sites:
                out[pkg["package"].split()[0]].append((where, name, sites))
    return out


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every oracle symbol of the sets' Python packages in every phrasing: rank and route."""
    known = oracle_sites()
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        symbols = known.get(corpus.name.removeprefix("py-"), [])
        if not symbols:
            continue
        queries = [
            Query(
                f"callforms:{corpus.name}:{name}#{n}",
                phrasing,
                corpus.name,
                phrasing.format(name),
                tuple(Target(path, line, line) for path, line in sites),
            )
            for _, name, sites in symbols
            for n, phrasing in enumerate(PHRASINGS)
        ]
        queries += callee_queries(corpus, symbols)
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        for o in run(f"strata {mode}", EMBEDDER, strata_searcher(eng, mode), queries):
            intent = eng.plan(o.query.text).intent
            rows.append(
                {
                    "corpus": corpus.name,
                    "form": o.query.set,
                    "query": o.query.text,
                    "rank": o.rank,
                    "intent": intent,
                }
            )
        eng.close()
    summary = form_summary(rows)
    routed = defaultdict(list)
    for r in rows:
        wanted = "callees" if r["form"] in CALLEE_PHRASINGS else "callers"
        routed[r["form"]].append(r["intent"] == wanted)
    for s in summary:
        s["routed"] = round(sum(routed[s["form"]]) / len(routed[s["form"]]), 3)
    return {"mode": mode, "summary": summary, "rows": rows}


def callee_queries(corpus: Corpus, symbols: Sequence[Called]) -> list[Query]:
    """For each function holding an oracle call site, "what does F call" in every callee
    phrasing; its targets are the definitions of the sampled functions it calls."""
    defs: dict[str, list[Definition]] = {}

    def in_file(path: str) -> list[Definition]:
        if path not in defs:
            defs[path] = definitions(corpus.root, path)
        return defs[path]

    called: dict[tuple[str, str], set[Target]] = defaultdict(set)
    for where, name, sites in symbols:
        target = next(
            (Target(where, d.start, d.end) for d in in_file(where) if d.qualname == name), None
        )
        for path, line in sites:
            holder = _innermost(in_file(path), line)
            if target is not None and holder is not None:
                called[(path, holder.qualname)].add(target)
    return [
        Query(
            f"callforms:{corpus.name}:{path}:{holder}#callee{n}",
            phrasing,
            corpus.name,
            phrasing.format(holder),
            tuple(sorted(targets, key=lambda t: (t.path, t.start))),
        )
        for (path, holder), targets in sorted(called.items())
        for n, phrasing in enumerate(CALLEE_PHRASINGS)
    ]


def _innermost(defs: Sequence[Definition], line: int) -> Definition | None:
    """The narrowest function or method whose span holds `line`."""
    holding = [d for d in defs if d.kind != "class" and d.start <= line <= d.end]
    return min(holding, key=lambda d: d.end - d.start, default=None)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring")


if __name__ == "__main__":
    main()
