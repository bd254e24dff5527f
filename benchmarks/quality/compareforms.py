"""Two names compared, asked as users and agents ask it ("what is the difference between
ChoiceLoader and PrefixLoader", "FileSystemLoader vs PackageLoader", "compare X and Y"):
for each phrasing, the rank of the first hit that holds either definition, and `both_2`,
whether the first two hits hold both.

    python -m benchmarks.quality.compareforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl] [--per-corpus 10] [--mode hybrid] [--json FILE]

The pairs are drawn from each corpus's "where is X defined" names (the `def-` and
`symbol-nl` sets, bare names, seeded), two of one kind of name: both with a capital first
(types) or neither (functions); the targets are those questions' definitions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from benchmarks.quality.askforms import (
    CODE_SETS,
    EMBEDDER,
    add_means,
    defined_names,
    form_summary,
    main_with,
)
from benchmarks.quality.evaluate import strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K, first_hit_rank, is_hit
from benchmarks.quality.run import SEED, build_corpora

PHRASINGS = (
    "what is the difference between {} and {}",
    "{} vs {}",
    "compare {} and {}",
    "how does {} differ from {}",
)


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every sampled pair in every phrasing: the first definition's rank, both in two."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        named = {n: q.targets for q, n in defined_names(corpus) if n.isidentifier()}
        pick = random.Random(f"{SEED}:compare:{corpus.name}")
        pairs = []
        for group in (
            sorted(n for n in named if n[0].isupper()),
            sorted(n for n in named if n[0].islower()),
        ):
            for _ in range(min(per_corpus // 2, len(group) // 2)):
                a, b = pick.sample(group, 2)
                pairs.append((a, b))
        if not pairs:
            continue
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        search = strata_searcher(eng, mode)
        for a, b in pairs:
            for form in PHRASINGS:
                results = search(form.format(a, b))[:K]
                first_two = results[:2]
                both = all(any(is_hit(r, t) for r in first_two for t in named[n]) for n in (a, b))
                rank = first_hit_rank(results, [*named[a], *named[b]])
                rows.append(
                    {
                        "corpus": corpus.name,
                        "form": form,
                        "query": form.format(a, b),
                        "rank": rank,
                        "both_2": float(both),
                    }
                )
        eng.close()
    summary = form_summary(rows)
    add_means(summary, rows, "both_2")
    return {"mode": mode, "summary": summary, "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS, per_corpus=10)


if __name__ == "__main__":
    main()
