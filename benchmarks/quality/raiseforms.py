"""Where an error is raised or thrown, asked as users and agents ask it ("where is
TemplateNotFound raised", "what throws CordovaException"): for each phrasing, the rank of
the first hit that holds a line raising it.

    python -m benchmarks.quality.raiseforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl] [--per-corpus 15] [--mode hybrid] [--json FILE]

The errors are a seeded sample of each corpus's classes that its own code raises or throws
(`raise X(`, `raise X,`, `throw new X(`, `throw X(`, `throw X.Create(`, `raise X` in
Ruby), read from its files
with one pattern per language, not from Strata's index; each line that does so is a target
(the quality run's hit rule: a hit's span holds the line, at most 100 lines). The
indexes are the quality run's cached ones (run `benchmarks.quality.run` first for the
current build).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from benchmarks.quality.askforms import CODE_SETS, main_with, measure_named
from benchmarks.quality.model import Target

PHRASINGS = (
    "where is {} raised",
    "where is {} thrown",
    "who raises {}",
    "what throws {}",
    "which functions raise {}",
)
_NAME = r"([A-Z]\w*)"
RAISES = {
    "py": re.compile(rf"^\s*raise\s+{_NAME}\s*[(,]"),
    "rb": re.compile(rf"^\s*raise\s+(?:\w+::)*{_NAME}\b"),
    **dict.fromkeys(
        ("java", "js", "mjs", "ts", "cs", "php", "cpp", "hpp", "cc", "dart", "swift"),
        re.compile(rf"\bthrow\s+(?:new\s+)?(?:[a-z_]\w*\.|\\?[\w]+\\)*{_NAME}\s*[(<.]"),
    ),
    **dict.fromkeys(("kt", "scala"), re.compile(rf"\bthrow\s+(?:[a-z_]\w*\.)*{_NAME}\s*[(.]")),
}


def raised(root: Path) -> dict[str, list[Target]]:
    """Each class the corpus both defines and raises: the lines that raise it."""
    sites: dict[str, list[Target]] = defaultdict(list)
    defined: set[str] = set()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        pattern = RAISES.get(path.suffix.lstrip("."))
        if pattern is None:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        defined.update(re.findall(r"\bclass\s+([A-Z]\w*)", text))
        rel = path.relative_to(root).as_posix()
        if "test" in rel.lower():
            continue  # the library's own raises, not its tests'
        for n, line in enumerate(text.split("\n"), 1):
            if m := pattern.search(line):
                sites[m.group(1)].append(Target(rel, n, n))
    return {name: found for name, found in sites.items() if name in defined}


# Every sampled name in every phrasing: the first raising line's rank per row.
measure = measure_named(raised, PHRASINGS, "raises")


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS, per_corpus=15)


if __name__ == "__main__":
    main()
