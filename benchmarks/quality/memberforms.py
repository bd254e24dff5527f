"""What a class defines, asked as users and agents ask it ("what methods does Environment
have", "list the methods of the Template class", "methods of Schema"): for each phrasing,
the rank of the first hit that holds the class or one of its methods, and `recall_10`, the
share of its methods (up to ten) among the first ten hits.

    python -m benchmarks.quality.memberforms [--sets docstring] [--per-corpus 10]
        [--mode hybrid] [--json FILE]

The classes are a seeded sample of each Python package's classes with three methods or
more, read with Python's `ast` from the corpus's files outside its tests, not from
Strata's index; a class's targets are its `class` line and each method it defines
directly (`def` to its last line). The indexes are the quality run's cached ones (run
`benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import library_trees, main_with, measure_recall
from benchmarks.quality.model import Corpus, Target
from benchmarks.quality.run import SEED, build_corpora

PHRASINGS = (
    "what methods does {} have",
    "list the methods of the {} class",
    "methods of {}",
    "what are the methods of {}",
)
MIN_METHODS = 3


def classes(root: Path) -> dict[str, tuple[Target, list[Target]]]:
    """Each class name defined once outside the tests: its `class` line and its methods."""
    found: dict[str, list[tuple[Target, list[Target]]]] = {}
    for rel, tree in library_trees(root):
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods = [
                    Target(rel, f.lineno, f.end_lineno or f.lineno)
                    for f in node.body
                    if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                ]
                head = Target(rel, node.lineno, node.lineno)
                found.setdefault(node.name, []).append((head, methods))
    return {name: defs[0] for name, defs in found.items() if len(defs) == 1}


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every sampled class in every phrasing: the first hit's rank, its methods' recall."""

    def ask(corpus: Corpus) -> list[tuple[str, str, Sequence[Target]]]:
        found = {n: c for n, c in classes(corpus.root).items() if len(c[1]) >= MIN_METHODS}
        pick = random.Random(f"{SEED}:members:{corpus.name}")
        chosen = sorted(pick.sample(sorted(found), min(per_corpus, len(found))))
        return [
            (form, form.format(name), (found[name][0], *found[name][1]))
            for name in chosen
            for form in PHRASINGS
        ]

    return measure_recall(build_corpora(sets), mode, ask)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring", per_corpus=10)


if __name__ == "__main__":
    main()
