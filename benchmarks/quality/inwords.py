"""A code name asked for in words ("where is the get template function defined"): Recall@1
of its definition, on the quality run's "where is X defined" names.

    python -m benchmarks.quality.inwords [--sets langs,newlangs] [--mode hybrid] [--json FILE]

The names and targets are those of the `def-<lang>` sets (names defined once in their
package, outside tests; the target is the definition's span). Each name of two to four
parts (`get_template`, `FileSystemLoader`, `parseArgs`) is written as its parts in lower
case ("get template") and asked in every phrasing of `PHRASINGS`, with the kind of its
definition where the phrasing says one (from the index's own symbol row). A question is
answered through `Engine.search`, routed as a user's would be. The corpora are the quality
run's cached indexes (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from benchmarks.quality.askforms import EMBEDDER, defined_names, main_with, measure_asked
from benchmarks.quality.indexes import open_index
from benchmarks.quality.model import Corpus, Query
from strata.text.tokens import STOP_WORDS, split_identifier

PHRASINGS = (
    "where is the {words} defined",
    "where is the {words} {kind} defined",
    "what does the {words} {kind} do",
    "show me the {words} {kind}",
)
KINDS = {"function", "method", "class", "type", "struct", "interface", "trait", "enum"}


def in_words(name: str) -> str:
    """The bare name's parts as lower-case words, or "" (one part, more than four, a part
    that is a number or a stop word: not said in words)."""
    parts = split_identifier(name.rsplit(".", 1)[-1].rsplit("::", 1)[-1])
    ok = 2 <= len(parts) <= 4 and all(p.isalpha() and p not in STOP_WORDS for p in parts)
    return " ".join(parts) if ok else ""


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every `def-` name said in words, in every phrasing: rank per row."""
    return measure_asked(sets, mode, _asked)


def _asked(corpus: Corpus) -> list[Query]:
    asked = [(q, n, words) for q, n in defined_names(corpus) if (words := in_words(n))]
    if not asked:
        return []
    eng, _ = open_index(corpus, EMBEDDER, reindex=False)
    queries = []
    for q, name, words in asked:
        kinds = {m.kind for m in eng.symbols(name, limit=5) if m.match == "exact"}
        kind = next(iter(sorted(kinds & KINDS)), "function")
        queries += [
            replace(q, id=f"{q.id}#{n}", set=p, text=p.format(words=words, kind=kind))
            for n, p in enumerate(PHRASINGS)
        ]
    eng.close()
    return queries


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="langs,newlangs")


if __name__ == "__main__":
    main()
