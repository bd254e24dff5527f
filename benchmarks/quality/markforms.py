"""What the code marks in its lines, asked as users and agents ask it: the work its comments
leave ("what TODOs are there", "where are the FIXMEs"), what it declares deprecated
("which functions are deprecated", "list the deprecated APIs") and the tests it skips
("which tests are skipped"). For each phrasing, the rank of the first hit that holds such
a line.

    python -m benchmarks.quality.markforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl,devqs,cli] [--mode hybrid] [--json FILE]

The lines are read with one pattern per kind, not from Strata's index: outside the tests,
a comment whose first word is `TODO`, `FIXME`, `XXX` or `HACK`, and a deprecation
(`@deprecated`/`@Deprecated`, `#[deprecated`, `[Obsolete`, `DeprecationWarning`, a
`Deprecated:` comment, `.. deprecated::`, a `deprecate(` call, Swift's `@available(...,
deprecated`); in the tests, a skip (`@pytest.mark.skip`/`skipif`/`xfail`,
`@unittest.skip`, `pytest.skip(`, `it.skip(`, `xit(`, `t.Skip(`, `@Disabled`,
`#[ignore]`). The corpora are the quality sets' and, with `cli`, the `flagforms` tools'
whole releases (tests included). Every corpus with such a line is asked each phrasing of
its kind (any such line answers). The indexes are the quality run's cached
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
from benchmarks.quality.flagforms import CLIS
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import build_corpora

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
    "skipped": (
        "which tests are skipped",
        "list the skipped tests",
        "what tests are disabled",
        "skipped tests",
    ),
}
LINES = {
    "todo": re.compile(r"(?:#|//|/\*|^\s*\*|--|;)\s*(?:TODO|FIXME|XXX|HACK)\b"),
    "deprecated": re.compile(
        r"@[Dd]eprecated\b|#\[deprecated|\[Obsolete|DeprecationWarning|^\s*(?://|#|\*)\s*"
        r"Deprecated:|\.\. deprecated::|\bdeprecate\w*\s*\(|@available\(.*deprecated"
    ),
    "skipped": re.compile(
        r"@pytest\.mark\.(?:skip|skipif|xfail)\b|@unittest\.skip|\bpytest\.skip\(|\.skip\(|\bxit\("
        r"|\bt\.Skip\(|@Disabled|#\[ignore\]"
    ),
}


def _code(rel: str) -> bool:
    return not rel.endswith((".md", ".rst", ".txt", ".html", ".json", ".map"))


def marked(root: Path) -> dict[str, list[Target]]:
    """Each kind's lines in the files under `root`: a skip in the tests, the others outside."""
    found: dict[str, list[Target]] = defaultdict(list)
    for rel, n, line in corpus_lines(root, _code):
        in_tests = bool(TEST_PATH.search(rel))
        for kind, pattern in LINES.items():
            if (kind == "skipped") is in_tests and pattern.search(line):
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
    corpora = build_corpora([s for s in sets if s != "cli"])
    corpora += [Corpus(f"cli-{n}", fetch(n, v), ()) for _, fetch, n, v in CLIS if "cli" in sets]
    return measure_asked(sets, mode, _asked, corpora)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS + ",devqs,cli")


if __name__ == "__main__":
    main()
