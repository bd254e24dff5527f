"""A free-text question with one word misspelt: MRR@10 beside the same question spelt right.

    python -m benchmarks.quality.typos [--sets langs,docs,devqs] [--mode hybrid] [--json FILE]

The questions are the quality run's free-text ones (`doc-`, `nl-`, `docs-md`, `devqs`,
`docstring`). In each, one lowercase word of six letters or more (not a common function
word), picked by the question's hash, gets two inner letters swapped at a place picked by
the word's hash, so every run asks the same. Both forms are asked through
`Engine.search`; a row keeps both ranks. `same` counts the questions whose misspelt form
ranks the answer where the right one does. The corpora are the quality run's cached
indexes (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from benchmarks.quality.askforms import main_with
from benchmarks.quality.evaluate import run, strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K
from benchmarks.quality.run import build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
FREE_TEXT = ("doc-", "nl-", "docs-md", "devqs", "docstring")
_WORD = re.compile(r"\b[a-z]{6,}\b")
_COMMON = frozenset(
    ("should", "before", "because", "between", "through", "during", "without", "within")
)


def misspelt(text: str) -> str | None:
    """`text` with two inner letters of one of its long words swapped (None: no such word)."""
    found = [m for m in _WORD.finditer(text) if m.group(0) not in _COMMON]
    if not found:
        return None
    m = found[zlib.crc32(text.encode()) % len(found)]
    word = m.group(0)
    i = 1 + zlib.crc32(word.encode()) % (len(word) - 3)
    wrong = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return text[: m.start()] + wrong + text[m.end() :]


def _mrr(ranks: Sequence[int | None]) -> float:
    return round(sum(1 / r for r in ranks if r and r <= K) / max(len(ranks), 1), 3)


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every free-text question, spelt right and misspelt: both ranks per row."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        pairs = [
            (q, wrong)
            for q in corpus.queries
            if q.set.startswith(FREE_TEXT) and (wrong := misspelt(q.text))
        ]
        if not pairs:
            continue
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        search = strata_searcher(eng, mode)
        right = run(f"strata {mode}", EMBEDDER, search, [q for q, _ in pairs])
        wrong = run(f"strata {mode}", EMBEDDER, search, [replace(q, text=w) for q, w in pairs])
        for r, w in zip(right, wrong, strict=True):
            rows.append(
                {
                    "corpus": corpus.name,
                    "set": r.query.set,
                    "query": w.query.text,
                    "right": r.rank,
                    "misspelt": w.rank,
                }
            )
        eng.close()
    return {"mode": mode, "summary": _summary(rows), "rows": rows}


def _summary(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[r["set"]].append(r)
    groups["all"] = list(rows)
    return [
        {
            "set": name,
            "n": len(group),
            "mrr_right": _mrr([r["right"] for r in group]),
            "mrr_misspelt": _mrr([r["misspelt"] for r in group]),
            "same": sum(1 for r in group if r["right"] == r["misspelt"]),
        }
        for name, group in sorted(groups.items())
    ]


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="langs,docs,devqs")


if __name__ == "__main__":
    main()
