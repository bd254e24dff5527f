"""The one command: build every corpus, index it, run every query, print and save the tables.

    python -m benchmarks.quality.run [--sets docstring,symbol,identifier,devqs,nonpython,langs,
        newlangs,extralangs,elixirbash,perl,withdocs,docs]
        [--modes lexical,semantic,hybrid] [--embedders all-MiniLM-L6-v2]
        [--limit N] [--reindex] [--out docs/benchmarks-quality.md]

Sources are pinned sdists/tarballs fetched once into `benchmarks/.cache`; indexes are
cached there by corpus hash, embedder and Strata build, so a re-run only searches.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.quality import (
    devqs,
    doccomment_queries,
    docstring_queries,
    identifier_queries,
    mdsections,
    paired,
    symbol_queries,
    withdocs,
)
from benchmarks.quality.baseline import Bm25Baseline
from benchmarks.quality.evaluate import Outcome, run, strata_searcher
from benchmarks.quality.families import LANGUAGE_FAMILIES
from benchmarks.quality.indexes import open_index, strata_build
from benchmarks.quality.model import Corpus, Query
from benchmarks.quality.report import markdown, query_rows, summary_rows
from strata.layers import PASSAGE_LAYERS

log = logging.getLogger("benchmarks.quality")

SEED = 13
DOCSTRINGS_PER_PACKAGE = 80
SYMBOLS_PER_PACKAGE = 16
IDENTIFIERS_PER_PACKAGE = 16
DOC_COMMENTS_PER_PACKAGE = 60
NAMES_PER_LANGUAGE_PACKAGE = 30
DOC_SECTIONS_PER_PACKAGE = 60
SETS = (
    *("docstring", "symbol", "identifier", "devqs", "nonpython"),
    *("langs", "newlangs", "extralangs", "elixirbash", "perl", "seconds", "withdocs", "docs"),
)
RESULTS = Path(__file__).resolve().parents[1] / "results" / "quality.json"


def build_corpora(sets: Sequence[str]) -> list[Corpus]:
    """Every corpus the chosen sets need, each with the queries of those sets."""
    corpora: list[Corpus] = []
    if {"docstring", "symbol", "identifier"} & set(sets):
        for pkg in docstring_queries.PACKAGES:
            c = docstring_queries.build(pkg, DOCSTRINGS_PER_PACKAGE, SEED)
            queries = c.queries if "docstring" in sets else ()
            if "symbol" in sets:
                queries += symbol_queries.build(c, SYMBOLS_PER_PACKAGE, SEED)
            if "identifier" in sets:
                queries += identifier_queries.build(c, IDENTIFIERS_PER_PACKAGE, SEED)
            corpora.append(replace(c, queries=queries))
    if "nonpython" in sets:
        corpora += [
            doccomment_queries.build(p, DOC_COMMENTS_PER_PACKAGE, SEED)
            for p in doccomment_queries.PACKAGES
        ]
    corpora += _language_corpora(sets)
    if "docs" in sets:  # Markdown sections of JavaScript packages, code indexed beside them
        corpora += [
            mdsections.build(p, DOC_SECTIONS_PER_PACKAGE, SEED) for p in mdsections.PACKAGES
        ]
    if "devqs" in sets:
        corpora += [devqs.build(devqs.load(f)) for f in devqs.question_files()]
    return corpora


def _language_corpora(sets: Sequence[str]) -> list[Corpus]:
    """The language groups' corpora (`doc-`, `nl-` and `def-<lang>`), then with `withdocs`
    the same packages unblanked: each package drawn once for both."""
    drawn: list[Corpus] = []
    unblanked: list[Corpus] = []
    for group, (family, packages) in LANGUAGE_FAMILIES.items():
        if group not in sets and "withdocs" not in sets:
            continue
        for pkg in packages:
            blanked = family(pkg, DOC_COMMENTS_PER_PACKAGE, NAMES_PER_LANGUAGE_PACKAGE, SEED)
            if group in sets:
                drawn.append(blanked)
            if "withdocs" in sets:  # the doc- questions, every comment left in place
                unblanked.append(withdocs.unblanked(blanked, pkg.fetch()))
    return drawn + unblanked


def limited(queries: Sequence[Query], limit: int | None) -> tuple[Query, ...]:
    """At most `limit` queries per set, a fixed-seed sample (all of them without a limit)."""
    if not limit:
        return tuple(queries)
    out: list[Query] = []
    for name in dict.fromkeys(q.set for q in queries):
        same = [q for q in queries if q.set == name]
        out += random.Random(SEED).sample(same, min(limit, len(same)))
    return tuple(out)


def evaluate(
    corpora: Sequence[Corpus],
    modes: Sequence[str],
    embedders: Sequence[str],
    reindex: bool,
    store: str = "lancedb",
) -> tuple[list[Outcome], dict[str, Any]]:
    """Every corpus x embedder x mode, plus the two BM25 baselines once per corpus."""
    outcomes: list[Outcome] = []
    facts: dict[str, Any] = {}
    for n, embedder in enumerate(embedders):
        for corpus in corpora:
            eng, index_facts = open_index(corpus, embedder, reindex=reindex, store=store)
            facts[f"{corpus.name}/{embedder}"] = index_facts
            log.info("%s / %s: %d queries", corpus.name, embedder, len(corpus.queries))
            for mode in modes:
                outcomes += run(
                    f"strata {mode}", embedder, strata_searcher(eng, mode), corpus.queries
                )
            if n == 0:
                records = eng.records(layers=PASSAGE_LAYERS)
                for baseline in (Bm25Baseline.code_aware(records), Bm25Baseline(records)):
                    outcomes += run(baseline.name, "", baseline.search, corpus.queries)
            eng.close()
    return outcomes, facts


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, run the benchmark, print the tables, write JSON (and Markdown with --out)."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    started = time.perf_counter()
    build = strata_build()  # hashed now: the code this process imported, not later edits
    sets = _split(args.sets, SETS)
    corpora = [replace(c, queries=limited(c.queries, args.limit)) for c in build_corpora(sets)]
    modes, embedders = args.modes.split(","), args.embedders.split(",")
    outcomes, facts = evaluate(corpora, modes, embedders, args.reindex, args.store)
    meta = {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "strata": build,
        "seed": SEED,
        "sets": sets,
        "modes": modes,
        "embedders": embedders,
        "store": args.store,
        "limit": args.limit,
        "indexes": facts,
        "queries": {c.name: len(c.queries) for c in corpora},
        "seconds": round(time.perf_counter() - started, 1),
    }
    rows = query_rows(outcomes)
    pairs = paired.compare(rows)
    text = markdown(outcomes, _preamble(meta)) + "\n" + paired.markdown(pairs)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "meta": meta,
        "summary": summary_rows(outcomes),
        "paired": paired.json_rows(pairs),
        "queries": rows,
    }
    args.json.write_text(json.dumps(payload, indent=1), encoding="utf-8")
    log.info("wrote %s", args.json)


def _preamble(meta: dict[str, Any]) -> str:
    corpora = ", ".join(f"`{name}` {n}" for name, n in meta["queries"].items())
    return (
        "## Retrieval quality\n\n"
        f"Strata `{meta['strata']}`, {meta['date']}, seed {meta['seed']}, "
        f"embedders {', '.join(meta['embedders'])}; queries per corpus: {corpora}. "
        "Hit = same file, overlapping span, at most max(100, 2 x target) lines. "
        "Rebuild with `python -m benchmarks.quality.run`.\n"
    )


def _split(value: str, known: Sequence[str]) -> list[str]:
    items = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in items if v not in known]
    if unknown:
        raise SystemExit(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return items


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.quality.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ",".join(SETS))
    p.add_argument(
        "--store", default="lancedb", choices=["lancedb", "postgresql"], help="the index's store"
    )
    p.add_argument("--modes", default="lexical,semantic,hybrid", help="Strata search modes")
    p.add_argument(
        "--embedders",
        default="all-MiniLM-L6-v2",
        help="local embedding models (`none`: no vectors, with --modes lexical)",
    )
    p.add_argument("--limit", type=int, default=None, help="at most N queries per set and corpus")
    p.add_argument("--reindex", action="store_true", help="rebuild cached indexes")
    p.add_argument("--out", default=None, help="also write the Markdown tables here")
    p.add_argument("--json", type=Path, default=RESULTS, help="JSON results (default: %(default)s)")
    return p


if __name__ == "__main__":
    main()
