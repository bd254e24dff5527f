"""Which environment variables the code reads, asked as users and agents ask it ("which
environment variables does this project read", "where is the NODE_ENV environment variable
read"): for each phrasing, the rank of the first hit that holds a line reading one.

    python -m benchmarks.quality.envforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl,devqs] [--per-corpus 5] [--mode hybrid] [--json FILE]

The lines are read from each corpus's files outside its tests with one pattern for the
usual ways to read a variable (`os.environ[...]`, `os.getenv(...)`, `process.env.X`,
`System.getenv(...)`, `os.Getenv(...)`, `ENV["X"]`, `getenv(...)`, `$ENV{X}`,
`System.get_env(...)`, `std::env::var(...)`), not from Strata's index. Every corpus with
such a line is asked each of `PHRASINGS` (any reading line answers), and about a seeded
sample of the variables it names, each in `NAMED` (a line reading that variable answers).
The indexes are the quality run's cached ones (run `benchmarks.quality.run` first for the
current build).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import CODE_SETS, corpus_lines, main_with, measure_asked
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import SEED

PHRASINGS = (
    "which environment variables does this project read",
    "what env vars are used",
    "where are environment variables read",
    "list the environment variables",
    "what environment variables can I set",
)
NAMED = ("where is the {} environment variable read", "where is {} read from the environment")
_QUOTE = r"""["']"""
_VAR = r"([A-Z][A-Z0-9_]{2,})"
READ = re.compile(
    r"(?:os\.environ(?:\.get)?\s*[\[(]\s*|os\.getenv\s*\(\s*|System\.getenv\s*\(\s*"
    r"|os\.Getenv\s*\(\s*|ENV(?:\.fetch)?\s*[\[(]\s*|\bgetenv\s*\(\s*|System\.get_env\s*\(\s*"
    r"|env::var(?:_os)?\s*\(\s*|GetEnvironmentVariable\s*\(\s*)"
    rf"{_QUOTE}?{_VAR}?"
    rf"|process\.env(?:\.{_VAR}|\[\s*{_QUOTE}{_VAR}{_QUOTE})?"
    rf"|\$ENV\{{\s*{_QUOTE}?{_VAR}?"
)


def _library(rel: str) -> bool:
    return "test" not in rel.lower() and not rel.endswith((".md", ".rst", ".txt", ".html", ".json"))


def reads(root: Path) -> dict[str, list[Target]]:
    """Each variable the library code reads ("" for a read of no literal name): its lines."""
    found: dict[str, list[Target]] = defaultdict(list)
    for rel, n, line in corpus_lines(root, _library):
        for m in READ.finditer(line):
            name = next((g for g in m.groups() if g), "")
            found[name].append(Target(rel, n, n))
    return dict(found)


def _asked(corpus: Corpus, per_corpus: int) -> list[Query]:
    found = reads(corpus.root)
    if not found:
        return []
    every = tuple(t for targets in found.values() for t in targets)
    out = [
        Query(f"env:{corpus.name}#{n}", phrasing, corpus.name, phrasing, every)
        for n, phrasing in enumerate(PHRASINGS)
    ]
    names = sorted(n for n in found if n)
    chosen = random.Random(f"{SEED}:env:{corpus.name}").sample(names, min(per_corpus, len(names)))
    for name in sorted(chosen):
        out += [
            Query(
                f"env:{corpus.name}:{name}#{n}",
                form,
                corpus.name,
                form.format(name),
                tuple(found[name]),
            )
            for n, form in enumerate(NAMED)
        ]
    return out


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every corpus that reads the environment, in every phrasing: the first reading
    line's rank per row."""
    return measure_asked(sets, mode, lambda corpus: _asked(corpus, per_corpus))


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS + ",devqs", per_corpus=5)


if __name__ == "__main__":
    main()
