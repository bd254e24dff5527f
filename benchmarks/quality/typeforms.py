"""Where a type is used, asked as users and agents ask it ("what uses SchedulerLike", "where
is the OperatorFunction type used", "find usages of TimestampProvider"): for each phrasing,
the rank of the first hit that holds a line naming the type outside its own definition.

    python -m benchmarks.quality.typeforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl] [--per-corpus 10] [--mode hybrid] [--json FILE]

The types are each corpus's "where is X defined" names (the `def-` and `symbol-nl` sets)
whose definition's first line declares a type (`class`, `interface`, `struct`, `type`,
`enum`, `trait`, `record`, `protocol`, `object`, `typealias`, `module`), a seeded sample
of them. A type's uses are read from the corpus's files outside its tests, not from
Strata's index: the lines that write its name as a whole word (case-sensitive), outside its
definition's lines and other than an import. A type no line uses is not asked. The indexes
are the quality run's cached ones (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import (
    CODE_SETS,
    corpus_lines,
    defined_names,
    library_code,
    main_with,
    measure_asked,
)
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import SEED

PHRASINGS = (
    "what uses {}",
    "where is {} used",
    "who uses {}",
    "where is the {} type used",
    "find usages of {}",
    "where is {} referenced",
)
_DECLARES = re.compile(
    r"\b(?:class|interface|struct|type|enum|trait|record|protocol|object|typealias|module)\b"
)
_IMPORT = re.compile(r"^\s*(?:import|from|use|using|require|#\s*include|package)\b|\brequire\s*\(")


def uses(root: Path, name: str, definition: Sequence[Target]) -> list[Target]:
    """The lines of the files under `root` outside the tests that name `name` as a whole
    word, outside `definition`'s lines and other than an import."""
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    out: list[Target] = []
    for rel, n, line in corpus_lines(root, library_code):
        if not word.search(line) or _IMPORT.search(line):
            continue
        if not any(t.path == rel and t.start <= n <= t.end for t in definition):
            out.append(Target(rel, n, n))
    return out


def _declares_type(root: Path, target: Target) -> bool:
    try:
        lines = (root / target.path).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return False
    return bool(_DECLARES.search(lines[target.start - 1])) if target.start <= len(lines) else False


def _asked(corpus: Corpus, per_corpus: int) -> list[Query]:
    types = sorted(
        {
            (name, q.targets)
            for q, name in defined_names(corpus)
            if name[:1].isupper()
            and "." not in name
            and "::" not in name
            and _declares_type(corpus.root, q.targets[0])
        }
    )
    pick = random.Random(f"{SEED}:types:{corpus.name}")
    out: list[Query] = []
    for name, definition in pick.sample(types, min(per_corpus, len(types))):
        used = tuple(uses(corpus.root, name, definition))
        if not used:
            continue
        out += [
            Query(f"types:{corpus.name}:{name}#{n}", form, corpus.name, form.format(name), used)
            for n, form in enumerate(PHRASINGS)
        ]
    return out


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every corpus's sampled types in every phrasing: the first use's rank per row."""
    return measure_asked(sets, mode, lambda corpus: _asked(corpus, per_corpus))


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS, per_corpus=10)


if __name__ == "__main__":
    main()
