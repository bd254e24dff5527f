"""What the code marks in its lines, asked as users and agents ask it: the work its comments
leave ("what TODOs are there", "where are the FIXMEs") and what it declares deprecated
("which functions are deprecated", "list the deprecated APIs"). For each phrasing, the
rank of the first hit that holds such a line.

    python -m benchmarks.quality.markforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl,devqs] [--mode hybrid] [--json FILE]

The lines are read from each corpus's files outside its tests with one pattern per kind,
not from Strata's index: a comment whose first word is `TODO`, `FIXME`, `XXX` or `HACK`; a
deprecation (`@deprecated`/`@Deprecated`, `#[deprecated`, `[Obsolete`,
`DeprecationWarning`, a `Deprecated:` comment, `.. deprecated::`, a `deprecate(` call,
Swift's `@available(..., deprecated`). Every corpus with such a line is asked each
phrasing of its kind (any such line answers). The indexes are the quality run's cached
ones (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import (
    CODE_SETS,
    TEST_PATH,
    corpus_lines,
    main_with,
    measure_asked,
)
from benchmarks.quality.model import Corpus, Query, Target

PHRASINGS = {
    "todo": (
        "what TODOs are there",
        "list the TODO comments",
        "where are the FIXMEs",
        "any todos left?",
        "show me the TODO and FIXME comments",
    ),
    "deprecated": (
        "which functions are deprecated",
        "what is deprecated",
        "list the deprecated APIs",
        "deprecated functions",
        "where are deprecation warnings emitted",
    ),
}
LINES = {
    "todo": re.compile(r"(?:#|//|/\*|^\s*\*|--|;)\s*(?:TODO|FIXME|XXX|HACK)\b"),
    "deprecated": re.compile(
        r"@[Dd]eprecated\b|#\[deprecated|\[Obsolete|DeprecationWarning|^\s*(?://|#|\*)\s*"
        r"Deprecated:|\.\. deprecated::|\bdeprecate\w*\s*\(|@available\(.*deprecated"
    ),
}


def _library(rel: str) -> bool:  # the library's code; its YAML too (a workflow's TODO)
    return not TEST_PATH.search(rel) and not rel.endswith(
        (".md", ".rst", ".txt", ".html", ".json", ".map")
    )


def marked(root: Path) -> dict[str, list[Target]]:
    """Each kind's lines in the files under `root` outside the tests."""
    found: dict[str, list[Target]] = defaultdict(list)
    for rel, n, line in corpus_lines(root, _library):
        for kind, pattern in LINES.items():
            if pattern.search(line):
                found[kind].append(Target(rel, n, n))
    return dict(found)


def _asked(corpus: Corpus) -> list[Query]:
    found = marked(corpus.root)
    return [
        Query(f"marks:{corpus.name}:{kind}#{n}", phrasing, corpus.name, phrasing, tuple(lines))
        for kind, lines in found.items()
        for n, phrasing in enumerate(PHRASINGS[kind])
    ]


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every corpus with a marked line, in every phrasing of its kinds: the first marked
    line's rank per row."""
    return measure_asked(sets, mode, _asked)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS + ",devqs")


if __name__ == "__main__":
    main()
