"""Where a field or attribute is written, asked as users and agents ask it ("where is
autoescape set", "who sets _default_autoescape", "what modifies X"): for each phrasing,
the rank of the first hit that holds a line assigning it.

    python -m benchmarks.quality.assignforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl] [--per-corpus 15] [--mode hybrid] [--json FILE]

The names are a seeded sample of the attributes each corpus's code outside its tests
assigns on its own object, read with one pattern, not from Strata's index: a statement
`self.x = ...`, `this.x = ...`, `@x = ...` or `$this->x = ...` (an augmented `+=` too).
Each statement that assigns the name, on any receiver (`self.x =`, `ctx.x =`, `x =` at a
line's start), is a target (the quality run's hit rule). The indexes are the quality
run's cached ones (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from benchmarks.quality.askforms import (
    CODE_SETS,
    corpus_lines,
    library_code,
    main_with,
    measure_named,
)
from benchmarks.quality.model import Target

PHRASINGS = (
    "where is {} set",
    "where is {} assigned",
    "who sets {}",
    "what modifies {}",
    "where is the {} attribute modified",
)
_OWN = re.compile(r"^\s*(?:self\.|this\.|@|\$this->)([A-Za-z_]\w*)\s*(?:[-+*/|&]?=)(?![=>])")
_SOURCES = (".py", ".js", ".ts", ".rb", ".php", ".java", ".kt", ".scala", ".swift", ".cs", ".mjs")


def assigned(root: Path) -> dict[str, list[Target]]:
    """Each attribute (three letters or more) the library code assigns on its own object:
    every statement assigning that name, on any receiver."""
    owned: set[str] = set()
    lines: list[tuple[str, int, str]] = []
    for rel, n, line in corpus_lines(
        root, lambda rel: library_code(rel) and rel.endswith(_SOURCES)
    ):
        lines.append((rel, n, line))
        if (m := _OWN.match(line)) and len(m.group(1)) >= 3:
            owned.add(m.group(1))
    sites: dict[str, list[Target]] = defaultdict(list)
    statement = re.compile(r"^\s*(?:[\w$@]+(?:\.|->))*@?([A-Za-z_]\w*)\s*(?:[-+*/|&]?=)(?![=>])")
    for rel, n, line in lines:
        if (m := statement.match(line)) and m.group(1) in owned:
            sites[m.group(1)].append(Target(rel, n, n))
    return dict(sites)


# Every sampled name in every phrasing: the first assigning line's rank per row.
measure = measure_named(assigned, PHRASINGS, "assigns")


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS, per_corpus=15)


if __name__ == "__main__":
    main()
