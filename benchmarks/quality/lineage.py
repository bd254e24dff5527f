"""What derives from a class, and what a class derives from, asked as users and agents ask
it: for each phrasing, the rank of the first right class and the share of the right
classes among the first ten.

    python -m benchmarks.quality.lineage [--sets docstring] [--mode hybrid] [--json FILE]

The oracle is Python's own parse of each package of the quality run (`ast`): a class's
bases as written (`Field`, `fields.Field`, `abc.ABC`), kept when their last part names
exactly one class of the package. "Which classes inherit from B" is answered by any class
that lists B (the target is its `class` line); "what does C extend" by B's `class` line.
The classes are asked by their bare names, through `Engine.search` as a user's question
would be. The indexes are the quality run's cached ones (run `benchmarks.quality.run`
first for the current build).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import add_means, asked_rows, form_summary, main_with
from benchmarks.quality.evaluate import strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.model import Target
from benchmarks.quality.run import build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
SUBCLASS_PHRASINGS = (
    "which classes inherit from {}",
    "subclasses of {}",
    "what extends {}",
    "implementations of {}",
    "who inherits from {}",
    "наследники {}",
    "classes that extend {}",
    "all classes implementing {}",
)
BASE_PHRASINGS = (
    "what does {} extend",
    "base classes of {}",
    "what does {} inherit from",
    "superclass of {}",
    "what is {} derived from",
    "от чего наследуется {}",
)


def classes(root: Path) -> tuple[dict[str, Target], dict[str, list[str]]]:
    """Every class of the tree by bare name (a name defined twice is left out), and each
    class's bases among them."""
    where: dict[str, list[Target]] = defaultdict(list)
    written: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(Target(rel, node.lineno, node.lineno))
                written[node.name] = [_last(b) for b in node.bases if _last(b)]
    unique = {name: spots[0] for name, spots in where.items() if len(spots) == 1}
    bases = {c: [b for b in written[c] if b in unique and b != c] for c in unique}
    return unique, {c: bs for c, bs in bases.items() if bs}


def _last(expr: ast.expr) -> str:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Subscript):  # `Generic[T]`, `Mapping[str, int]`
        return _last(expr.value)
    return ""


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every base with subclasses, and every class with bases, in every phrasing."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        defined, bases = classes(corpus.root)
        if not bases:
            continue
        derived: dict[str, list[Target]] = defaultdict(list)
        for cls, bs in bases.items():
            for b in bs:
                derived[b].append(defined[cls])
        asked = [(p, b, subs) for b, subs in sorted(derived.items()) for p in SUBCLASS_PHRASINGS]
        asked += [
            (p, c, [defined[b] for b in bs])
            for c, bs in sorted(bases.items())
            for p in BASE_PHRASINGS
        ]
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        search = strata_searcher(eng, mode)
        rows += asked_rows(corpus.name, search, [(p, p.format(n), t) for p, n, t in asked])
        eng.close()
    summary = form_summary(rows)
    add_means(summary, rows, "recall_10")
    return {"mode": mode, "summary": summary, "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring,devqs")


if __name__ == "__main__":
    main()
