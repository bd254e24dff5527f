"""A question about who calls a function, asked in the words users and agents write: for
each phrasing, whether the router takes it for a callers question and the rank of the first
hit that holds a real call site.

    python -m benchmarks.quality.callforms [--sets docstring] [--mode hybrid] [--json FILE]

The functions and their call sites are the callers oracle's (`benchmarks/callers_oracle.py`,
jedi's references and inference, `benchmarks/results/callers_oracle.json`): every sampled
function or method with at least one call site in its package's library code. Each is
asked by its name as the oracle states it (`split_template_path`, `NodeVisitor.visit`) in
every phrasing of `PHRASINGS`, through `Engine.search` as a user's question would be. A hit
answers when its span holds one of the oracle's call sites (the quality run's hit rule).
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
from benchmarks.quality.model import Query, Target
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
)


def oracle_sites(path: Path = ORACLE) -> dict[str, list[tuple[str, list[tuple[str, int]]]]]:
    """Package name (`jinja2`) -> (name as the oracle states it, its call sites) for every
    sampled symbol with at least one site."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, list[tuple[str, list[tuple[str, int]]]]] = defaultdict(list)
    for pkg in data["packages"]:
        for row in pkg["rows"]:
            sites = [(s.rsplit(":", 1)[0], int(s.rsplit(":", 1)[1])) for s in row["oracle"]]
            if sites:
                out[pkg["package"].split()[0]].append((row["symbol"].split(":", 1)[1], sites))
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
            for name, sites in symbols
            for n, phrasing in enumerate(PHRASINGS)
        ]
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
        routed[r["form"]].append(r["intent"] == "callers")
    for s in summary:
        s["routed"] = round(sum(routed[s["form"]]) / len(routed[s["form"]]), 3)
    return {"mode": mode, "summary": summary, "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring")


if __name__ == "__main__":
    main()
