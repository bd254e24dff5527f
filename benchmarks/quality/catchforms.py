"""Where an error is caught, asked as users and agents ask it ("where is TemplateNotFound
caught", "who catches IOException", "where do we handle ValidationError"): for each
phrasing, the rank of the first hit that holds a line catching it.

    python -m benchmarks.quality.catchforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl] [--per-corpus 15] [--mode hybrid] [--json FILE]

The errors are a seeded sample of the classes each corpus's code catches by name, read
from its files outside the tests with one pattern per language, not from Strata's index:
Python's `except A, B as e:`, Ruby's `rescue A, B => e`, and a typed `catch` in Java,
C#, PHP, Kotlin, Scala, Swift, C++ and Dart (`catch (IOException | X e)`, `catch (e: X)`).
Each line that catches the error is a target (the quality run's hit rule). The indexes are
the quality run's cached ones (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from benchmarks.quality.askforms import CODE_SETS, main_with, measure_named
from benchmarks.quality.model import Target

PHRASINGS = (
    "where is {} caught",
    "where is {} handled",
    "who catches {}",
    "where do we catch {}",
    "which functions handle {}",
)
_TYPED_CATCH = re.compile(r"\bcatch\s*\(\s*(?:final\s+)?([\w.|\s\\]+?)(?:\s+\$?\w+)?\s*\)")
CATCHES = {
    "py": re.compile(r"^\s*except\s*\(?\s*([\w., ]+?)\s*\)?\s*(?:as\s+\w+\s*)?:"),
    "rb": re.compile(r"\brescue\s+([\w:, ]+?)\s*(?:=>\s*\w+\s*)?$"),
    "kt": re.compile(r"\bcatch\s*\(\s*\w+\s*:\s*([\w.]+)\s*\)"),
    **dict.fromkeys(
        ("java", "cs", "php", "scala", "swift", "cpp", "hpp", "cc", "dart"), _TYPED_CATCH
    ),
}


def caught(root: Path) -> dict[str, list[Target]]:
    """Each class the corpus's code outside its tests catches by name: the lines that do."""
    sites: dict[str, list[Target]] = defaultdict(list)
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        pattern = CATCHES.get(path.suffix.lstrip("."))
        rel = path.relative_to(root).as_posix()
        if pattern is None or "test" in rel.lower():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").split("\n"), 1):
            if m := pattern.search(line):
                for name in re.split(r"[\s,|]+", m.group(1)):
                    tail = re.split(r"\.|::|\\", name)[-1]
                    if tail[:1].isupper():
                        sites[tail].append(Target(rel, n, n))
    return dict(sites)


# Every sampled name in every phrasing: the first catching line's rank per row.
measure = measure_named(caught, PHRASINGS, "catches")


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS, per_corpus=15)


if __name__ == "__main__":
    main()
