"""A method asked for with its class, as users and agents write it ("Context.invoke",
"Context invoke", "where is Context.invoke defined", "the invoke method of Context"):
Recall@1 and MRR@10 of the method's definition for each phrasing.

    python -m benchmarks.quality.ownerforms [--sets docstring] [--per-corpus 20]
        [--mode hybrid] [--json FILE]

The methods are a seeded sample of each Python package's methods whose class is defined
once outside the tests, read with Python's `ast` from the corpus's files, not from Strata's
index; a method's target is its `def` to its last line. A question is answered through
`Engine.search`, routed as a user's would be. The indexes are the quality run's cached ones
(run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import library_trees, main_with, measure_asked
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import SEED

PHRASINGS = (
    "{cls}.{name}",
    "{cls} {name}",
    "where is {cls}.{name} defined",
    "{cls} {name} method",
    "the {name} method of {cls}",
    "{cls}'s {name} method",
)


def methods(root: Path) -> dict[tuple[str, str], Target]:
    """Each (class, method) of a class defined once outside the tests: the method's span
    (dunder methods aside: every class has them)."""
    found: dict[str, list[list[tuple[str, Target]]]] = {}
    for rel, tree in library_trees(root):
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(
                    [
                        (f.name, Target(rel, f.lineno, f.end_lineno or f.lineno))
                        for f in node.body
                        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                        and not f.name.startswith("__")
                    ]
                )
    return {
        (cls, name): target
        for cls, defs in found.items()
        if len(defs) == 1
        for name, target in defs[0]
    }


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every sampled method in every phrasing: the rank of its definition."""

    def ask(corpus: Corpus) -> list[Query]:
        found = methods(corpus.root)
        pick = random.Random(f"{SEED}:owners:{corpus.name}")
        chosen = sorted(pick.sample(sorted(found), min(per_corpus, len(found))))
        return [
            Query(
                f"owners:{corpus.name}:{cls}.{name}#{n}",
                form,
                corpus.name,
                form.format(cls=cls, name=name),
                (found[cls, name],),
            )
            for cls, name in chosen
            for n, form in enumerate(PHRASINGS)
        ]

    return measure_asked(sets, mode, ask)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring", per_corpus=20)


if __name__ == "__main__":
    main()
