"""Does a long hit point at the answer? The focus window against the chunk's first lines.

    python -m benchmarks.quality.focus [--sets devqs,docs,langs,docstring,nonpython]

For each query whose first hit within the top 10 (the quality run's hit rule) is a chunk
of at least `LONG_LINES` lines, compare two windows of `FOCUS_LINES` lines against the
query's targets: the chunk's first lines (what a surface showed before) and the hit's
focus window (`focus_start`/`focus_end`, `strata.query.focus`). Counted: how often each
window overlaps a target, and its mean distance in lines from the nearest target (0 when
it overlaps), over all such hits and over those whose target is narrower than the chunk
(the answer inside a longer chunk, where the window is what tells the lines apart).
Ranks are not touched, so every Recall@10 is the quality run's.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K, Retrieved, is_hit
from benchmarks.quality.model import Query, Target
from benchmarks.quality.run import build_corpora
from strata import Engine
from strata.query.focus import FOCUS_LINES, LONG_LINES
from strata.types import Record

EMBEDDER = "all-MiniLM-L6-v2"


@dataclass(frozen=True, slots=True)
class Pointed:
    """One long first hit: each window's distance from the nearest target (0: overlaps)."""

    set: str
    narrow: bool  # the nearest target is shorter than the chunk
    head: int
    focus: int


def distance(start: int, end: int, target: Target) -> int:
    """Lines between the window and the target (0 when they overlap)."""
    if end < target.start:
        return target.start - end
    if start > target.end:
        return start - target.end
    return 0


def pointed(eng: Engine, query: Query) -> Pointed | None:
    """The long first hit of `query` and where its two windows fall, or None."""
    for hit in eng.search(query.text, k=K, mode="hybrid").hits:
        rec = hit.record
        found = Retrieved(rec.path, rec.span_start, rec.span_end)
        targets = [t for t in query.targets if is_hit(found, t)]
        if targets:
            return _measured(query.set, rec, targets)
    return None


def _measured(set_name: str, rec: Record, targets: Sequence[Target]) -> Pointed | None:
    first, last = rec.span_start or 1, rec.span_end or 1
    if last - first + 1 < LONG_LINES:
        return None
    start = rec.metadata.get("focus_start")
    end = rec.metadata.get("focus_end")
    head_end = first + FOCUS_LINES - 1
    if not isinstance(start, int) or not isinstance(end, int):
        start, end = first, head_end  # no query word in it: the surfaces show its head
    head = min(distance(first, head_end, t) for t in targets)
    near = min(targets, key=lambda t: distance(start, end, t))
    narrow = near.end - near.start < last - first
    return Pointed(set_name, narrow, head, distance(start, end, near))


def table(rows: Sequence[Pointed]) -> list[str]:
    """Markdown rows per set: long first hits, overlap share and mean distance, both windows."""
    out = [
        "| set | long first hits | head overlaps | focus overlaps | head / focus mean distance |"
        " narrower targets: n, head / focus overlaps |",
        "|---|---:|---:|---:|---|---|",
    ]
    for name in [*dict.fromkeys(r.set for r in rows), "all"]:
        mine = [r for r in rows if name in ("all", r.set)]
        narrow = [r for r in mine if r.narrow]
        out.append(
            f"| {name} | {len(mine)} | {_share(mine, 'head')} | {_share(mine, 'focus')} | "
            f"{_mean(mine, 'head'):.1f} / {_mean(mine, 'focus'):.1f} | {len(narrow)}, "
            f"{_share(narrow, 'head')} / {_share(narrow, 'focus')} |"
        )
    return out


def _share(rows: Sequence[Pointed], window: str) -> str:
    if not rows:
        return "-"
    return f"{sum(1 for r in rows if getattr(r, window) == 0) / len(rows):.3f}"


def _mean(rows: Sequence[Pointed], window: str) -> float:
    return sum(getattr(r, window) for r in rows) / max(1, len(rows))


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, point every long first hit, print the table."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sets", default="devqs,docs,langs,docstring,nonpython")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    rows: list[Pointed] = []
    for corpus in build_corpora(args.sets.split(",")):
        eng, _ = open_index(corpus, EMBEDDER)
        rows += [r for q in corpus.queries if (r := pointed(eng, q)) is not None]
        eng.close()
    print("\n".join(table(rows)))


if __name__ == "__main__":
    main()
