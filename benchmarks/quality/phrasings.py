"""A question about a code name asked in other words than "where is X defined": Recall@1 of
its definition for each phrasing, on the quality run's "where is X defined" names.

    python -m benchmarks.quality.phrasings [--sets langs,newlangs] [--mode hybrid]
        [--json FILE]

The names and targets are those of the `def-<lang>` sets (names defined once in their
package, outside tests; the target is the definition's span), and of `symbol-nl` with
`--sets docstring`. Each is asked in every phrasing of `PHRASINGS`, as users and agents
write them ("what does X do", "how is X implemented", "X implementation"). A question is
answered through `Engine.search`, routed as a user's would be. The corpora are the quality
run's cached indexes (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from benchmarks.quality.askforms import defined_names, main_with, measure_asked
from benchmarks.quality.model import Corpus, Query

PHRASINGS = (
    "where is {} defined",
    "what does {} do",
    "how does {} work",
    "how is {} implemented",
    "what is {}?",
    "where can I find {}",
    "explain {}",
    "show me {}",
    "{} implementation",
    "definition of {}",
    "where is {}",
    "which file defines {}",
    "where does {} live",
    "what arguments does {} take",
)


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every name of the sets' `def-`/`symbol-nl` queries in every phrasing: rank per row."""
    return measure_asked(sets, mode, _asked)


def _asked(corpus: Corpus) -> list[Query]:
    return [
        replace(q, id=f"{q.id}#{n}", set=phrasing, text=phrasing.format(name))
        for q, name in defined_names(corpus)
        for n, phrasing in enumerate(PHRASINGS)
    ]


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="langs,newlangs")


if __name__ == "__main__":
    main()
