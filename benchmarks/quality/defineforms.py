"""What a file or module defines, asked as users and agents ask it: "what functions are
defined in jinja2/utils.py", "list the classes in jinja2/nodes.py", "what does
jinja2.sandbox define". For each phrasing, the rank of the first hit that holds one of the
file's top-level definitions of the kind asked, and `recall_10`: the share of them (ten at
most) among the first ten hits.

    python -m benchmarks.quality.defineforms [--sets docstring] [--per-corpus 6]
        [--mode hybrid] [--json FILE]

The corpora are the quality run's Python packages. The definitions are read off each library
file (no tests) with `ast`, not from Strata's index: its top-level functions and classes
(those of its top-level `if`, `try` and `with` blocks too), each from its first decorator to
its last line. A file is asked about when it defines three functions or two classes at
least; a seeded sample of such files per corpus, each asked in every phrasing of
`FUNCTIONS`, `CLASSES` and `EVERYTHING` it qualifies for (a module by its dotted name: its
path below `src/` when there is one).
"""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import library_trees, main_with, measure_recall
from benchmarks.quality.model import Target
from benchmarks.quality.run import SEED, build_corpora

FUNCTIONS = ("what functions are defined in {path}", "list the functions in {path}")
CLASSES = ("list the classes in {path}", "which classes does {module} define")
EVERYTHING = ("what does {module} define",)
IMPORTS = ("what does {path} import",)


def top_level(tree: ast.Module, rel: str) -> tuple[list[Target], list[Target]]:
    """A Python module's top-level functions and classes, each its whole span."""
    functions, classes = [], []
    for node in _module_level(tree.body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            span = Target(rel, first, node.end_lineno or node.lineno)
            (classes if isinstance(node, ast.ClassDef) else functions).append(span)
    return functions, classes


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """A module's statements, those of its top-level `if`, `try` and `with` blocks too (a
    class under `if TYPE_CHECKING:` is the module's)."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, ast.If | ast.Try | ast.With):
            inner = [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            for handler in getattr(node, "handlers", []):
                inner += handler.body
            out += _module_level(inner)
    return out


def imported(tree: ast.Module, rel: str, root: Path) -> list[Target]:
    """A module's import statements, then the head (first line) of each file of the
    corpus it imports from (`from pkg.mod import x`, `from . import y`), in order."""
    lines = [Target(rel, n.lineno, n.end_lineno or n.lineno) for n in _imports(tree)]
    package = Path(rel).parent
    files: list[str] = []
    for node in _imports(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(max(node.level - 1, 0)):
                base = base.parent
            prefix = base.as_posix() if node.level and base.as_posix() != "." else ""
            module = "/".join(p for p in (prefix, (node.module or "").replace(".", "/")) if p)
            names = [module] + [f"{module}/{a.name}" if module else a.name for a in node.names]
        for name in names:
            for candidate in (
                f"{name.replace('.', '/')}.py",
                f"{name.replace('.', '/')}/__init__.py",
            ):
                for top in ("", "src/"):
                    if (root / top / candidate).is_file() and top + candidate != rel:
                        files.append(top + candidate)
    return lines + [Target(f, 1, 1) for f in dict.fromkeys(files)]


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    return [n for n in _module_level(tree.body) if isinstance(n, ast.Import | ast.ImportFrom)]


def _asked(root: Path, per_corpus: int, name: str) -> list[tuple[str, str, list[Target]]]:
    files = []
    trees = {}
    for rel, tree in library_trees(root):
        if not rel.endswith("__init__.py"):
            functions, classes = top_level(tree, rel)
            trees[rel] = tree
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
        if len(targets := imported(trees[rel], rel, root)) > 1:
            out += [(form, form.format(**said), targets) for form in IMPORTS]
    return out


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every Python package of the quality run, asked what its files define: the first
    hit's rank and the recall of the definitions among the first ten, per row."""
    corpora = build_corpora(["docstring"]) if "docstring" in sets else []
    return measure_recall(corpora, mode, lambda c: _asked(c.root, per_corpus, c.name))


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring", per_corpus=6)


if __name__ == "__main__":
    main()
