"""What a file or module defines, asked as users and agents ask it: "what functions are
defined in jinja2/utils.py", "list the classes in jinja2/nodes.py", "what does
jinja2.sandbox define". For each phrasing, the rank of the first hit that holds one of the
file's top-level definitions of the kind asked, and `recall_10`: the share of them (ten at
most) among the first ten hits.

    python -m benchmarks.quality.defineforms [--sets docstring] [--per-corpus 6]
        [--mode hybrid] [--json FILE]

The corpora are the quality run's Python packages. The definitions are read off each
library file (no tests) with `ast`, not from Strata's index: its top-level functions and
classes, each from its first decorator to its last line. A file is asked about when it
defines three functions or two classes at least; a seeded sample of such files per corpus,
each asked in every phrasing of `FUNCTIONS`, `CLASSES` and `EVERYTHING` it qualifies for
(a module by its dotted name: its path below `src/` when there is one).
"""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import add_means, asked_rows, form_summary, library_code, main_with
from benchmarks.quality.evaluate import strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.model import Target
from benchmarks.quality.run import SEED, build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
FUNCTIONS = ("what functions are defined in {path}", "list the functions in {path}")
CLASSES = ("list the classes in {path}", "which classes does {module} define")
EVERYTHING = ("what does {module} define",)


def top_level(path: Path, rel: str) -> tuple[list[Target], list[Target]]:
    """A Python file's top-level functions and classes, each its whole span."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return [], []
    functions, classes = [], []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            span = Target(rel, first, node.end_lineno or node.lineno)
            (classes if isinstance(node, ast.ClassDef) else functions).append(span)
    return functions, classes


def _asked(root: Path, per_corpus: int, name: str) -> list[tuple[str, str, list[Target]]]:
    files = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if library_code(rel) and not rel.endswith("__init__.py"):
            functions, classes = top_level(path, rel)
            if len(functions) >= 3 or len(classes) >= 2:
                files.append((rel, functions, classes))
    pick = random.Random(f"{SEED}:defined:{name}")
    out = []
    for rel, functions, classes in sorted(pick.sample(files, min(per_corpus, len(files)))):
        module = rel.removeprefix("src/").removesuffix(".py").replace("/", ".")
        said = {"path": rel, "module": module}
        if len(functions) >= 3:
            out += [(form, form.format(**said), functions) for form in FUNCTIONS]
        if len(classes) >= 2:
            out += [(form, form.format(**said), classes) for form in CLASSES]
        out += [(form, form.format(**said), functions + classes) for form in EVERYTHING]
    return out


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every Python package of the quality run, asked what its files define: the first
    hit's rank and the recall of the definitions among the first ten, per row."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(["docstring"]) if "docstring" in sets else []:
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        asked = _asked(corpus.root, per_corpus, corpus.name)
        rows += asked_rows(corpus.name, strata_searcher(eng, mode), asked)
        eng.close()
    summary = form_summary(rows)
    add_means(summary, rows, "recall_10")
    return {"mode": mode, "summary": summary, "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring", per_corpus=6)


if __name__ == "__main__":
    main()
