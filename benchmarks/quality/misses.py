"""Every miss at 10 of the free-text question sets, with where its answer was and why.

    python -m benchmarks.quality.misses [--sets devqs,docs,langs] [--depth 300]
        [--only devqs,docs-md,nl-go,nl-rust,nl-java,nl-javascript] [--json FILE]

For each query whose hybrid answer is not in the top 10, the retrievers' lists are read
again `--depth` deep (the candidate pool is 50 per retriever) and the miss is put in
one class, the first that applies:

- `no chunk hits`: no indexed passage overlaps a target within the hit rule's length (the
  answer is in a chunk too long, or split so that no chunk holds it);
- `outside the pool`: neither list has a hitting chunk within `--depth`;
- `deep in a list`: a hitting chunk is in a list, but below the 50 that are fused;
- `fused below 10`: a list has it within 50, and fusion or the score parts rank it lower.

Each row adds each list's rank of the best hitting chunk, of the target's file, the fused
rank with a pool of `--depth`, and what took the first three places (docs/code, release
notes, tests). Nothing here changes a rank: it reads the cached indexes of the quality run.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K, Retrieved, is_hit
from benchmarks.quality.model import Query, Target
from benchmarks.quality.run import build_corpora
from strata import Engine
from strata.layers import PASSAGE_LAYERS
from strata.query import hybrid
from strata.types import Record

EMBEDDER = "all-MiniLM-L6-v2"
POOL = 50
FREE_TEXT = ("devqs", "docs-md", "nl-go", "nl-rust", "nl-java", "nl-javascript")
Lists = dict[str, list[tuple[Record, float]]]


@dataclass(frozen=True, slots=True)
class Miss:
    """One query's miss at 10 and where its answer was."""

    set: str
    id: str
    query: str
    cause: str
    lexical: int | None  # rank of the best hitting chunk in the BM25 list (to --depth)
    semantic: int | None
    fused_deep: int | None  # its fused rank when both lists are read to --depth
    file_lexical: int | None  # rank of the target file's first chunk in each list
    file_semantic: int | None
    hittable: int  # indexed chunks that would count as a hit
    top: tuple[str, ...]


def _hits(rec: Record, targets: Sequence[Target]) -> bool:
    got = Retrieved(rec.path, rec.span_start, rec.span_end)
    return any(is_hit(got, t) for t in targets)


def _rank(pairs: Sequence[Record], keep: Callable[[Record], bool]) -> int | None:
    return next((i for i, r in enumerate(pairs, 1) if keep(r)), None)


@contextmanager
def captured() -> Iterator[list[Lists]]:
    """While inside, every `Searcher._retrieve` call's lists are appended to the list."""
    seen: list[Lists] = []
    original = hybrid.Searcher._retrieve

    def keep(self: hybrid.Searcher, *args: Any) -> Any:
        lists, mode = original(self, *args)
        seen.append(lists)
        return lists, mode

    hybrid.Searcher._retrieve = keep  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        hybrid.Searcher._retrieve = original  # type: ignore[method-assign]


def _describe(rec: Record) -> str:
    kind = "docs" if rec.layer.startswith("D") else "code"
    return f"{rec.path}:{rec.span_start}-{rec.span_end} ({kind})"


def diagnose(eng: Engine, q: Query, depth: int, chunks: Sequence[Record]) -> Miss | None:
    """The query's miss, or None when a hit is in its hybrid top 10."""
    top = list(eng.search(q.text, k=K, mode="hybrid"))
    if any(_hits(h.record, q.targets) for h in top):
        return None
    with captured() as seen:
        deep = list(eng.search(q.text, k=max(K, depth // 3), mode="hybrid"))
    lists = seen[-1] if seen else {}
    ranked = {name: [r for r, _ in pairs] for name, pairs in lists.items()}
    files = {t.path for t in q.targets}
    hit = lambda r: _hits(r, q.targets)  # noqa: E731
    in_file = lambda r: r.path in files  # noqa: E731
    lex, sem = _rank(ranked.get("lexical", []), hit), _rank(ranked.get("semantic", []), hit)
    hittable = sum(1 for r in chunks if hit(r))
    best = min((r for r in (lex, sem) if r), default=None)
    if not hittable:
        cause = "no chunk hits"
    elif best is None:
        cause = "outside the pool"
    elif best > POOL:
        cause = "deep in a list"
    else:
        cause = "fused below 10"
    return Miss(
        q.set,
        q.id,
        q.text,
        cause,
        lex,
        sem,
        _rank([h.record for h in deep], hit),
        _rank(ranked.get("lexical", []), in_file),
        _rank(ranked.get("semantic", []), in_file),
        hittable,
        tuple(_describe(h.record) for h in top[:3]),
    )


def misses(sets: Sequence[str], only: Sequence[str], depth: int) -> list[Miss]:
    """Every miss of the chosen query sets, corpus by corpus."""
    out: list[Miss] = []
    for corpus in build_corpora(sets):
        queries = [q for q in corpus.queries if q.set in only]
        if not queries:
            continue
        eng, _ = open_index(corpus, EMBEDDER)
        chunks = eng.records(layers=PASSAGE_LAYERS)
        out += [m for q in queries if (m := diagnose(eng, q, depth, chunks))]
        eng.close()
    return out


def table(found: Sequence[Miss]) -> list[str]:
    """Markdown rows, one per miss."""
    rows = [
        "| set | query | cause | BM25 / vectors rank | fused, deep pool | file in BM25 / vectors "
        "| hittable chunks | first three |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for m in found:
        rows.append(
            f"| {m.set} | {m.query[:70]} | {m.cause} | {m.lexical} / {m.semantic} | "
            f"{m.fused_deep} | {m.file_lexical} / {m.file_semantic} | {m.hittable} | "
            + "; ".join(m.top)
            + " |"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, diagnose every miss, print the table (and JSON with --json)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sets", default="devqs,docs,langs")
    p.add_argument("--only", default=",".join(FREE_TEXT), help="the query sets to diagnose")
    p.add_argument("--depth", type=int, default=300, help="list depth read for each miss")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    found = misses(args.sets.split(","), args.only.split(","), args.depth)
    print("\n".join(table(found)))
    counts: dict[str, int] = {}
    for m in found:
        counts[m.cause] = counts.get(m.cause, 0) + 1
    print("\n" + "; ".join(f"{c}: {n}" for c, n in counts.items()))
    if args.json:
        args.json.write_text(json.dumps([asdict(m) for m in found], indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
