"""A default asked about as users and agents ask it: "what is the default max redirects"
(a constant named for it), "what is the default value of max_redirects" or "what does
follow_redirects default to" (a parameter given one). For each phrasing, the rank of the
first hit that holds a line stating it.

    python -m benchmarks.quality.defaultforms [--sets docstring,python] [--per-corpus 8]
        [--mode hybrid] [--json FILE]

The corpora are the quality run's Python packages (`docstring`) and the whole source
releases of `flagforms.CLIS` (`python`). The defaults are read off the library's Python
files (no tests, no docs) with `ast`, not from Strata's index: a module's constant whose
name holds `DEFAULT` as a part (`DEFAULT_MAX_REDIRECTS = 20`; asked by its other parts in
words, "max redirects"; the target its statement), and a function's parameter given a
literal (`max_redirects=20`; asked by its name; the target any function whose parameter of
that name has a default, from its `def` to that parameter, a class's field of that name
given one, or a constant named for it). Names of fewer than four characters, `self`, `cls`,
`default` and private ones (`_x`) are not asked. Each corpus is asked about a seeded sample
of each kind, in each phrasing of `CONSTANT` or `PARAMETER`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import library_trees, main_with, measure_asked, named_queries
from benchmarks.quality.flagforms import CLIS
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import build_corpora

_UNASKED = ("self", "cls", "default", "defaults")  # "the default value of default"
CONSTANT = ("what is the default {}", "where is the default {} set")
PARAMETER = ("what is the default value of {}", "what does {} default to")


def defaults(root: Path) -> tuple[dict[str, list[Target]], dict[str, list[Target]]]:
    """The corpus's default constants (by their words) and parameters (by their names)."""
    constants: dict[str, list[Target]] = {}
    params: dict[str, list[Target]] = {}
    literal: set[str] = set()
    for rel, tree in library_trees(root):
        for words, span in _constants(tree, rel):
            constants.setdefault(words, []).append(span)
        for name, span, is_literal in _parameters(tree, rel):
            params.setdefault(name, []).append(span)
            if is_literal:
                literal.add(name)
    # a parameter's default may be a constant named for it (`config=DEFAULT_CONFIG`)
    for name, targets in params.items():
        targets += constants.get(name.replace("_", " "), [])
    return constants, {n: ts for n, ts in params.items() if n in literal}


def _constants(tree: ast.Module, rel: str) -> Iterator[tuple[str, Target]]:
    """A module's constants named with a `DEFAULT` part: their other parts in words."""
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            continue
        for t in targets:
            parts = t.id.split("_") if isinstance(t, ast.Name) else []
            words = [p.lower() for p in parts if p and p != "DEFAULT"]
            if "DEFAULT" in parts and words and "".join(parts).isupper():
                yield " ".join(words), Target(rel, node.lineno, node.end_lineno or node.lineno)


def _parameters(tree: ast.Module, rel: str) -> Iterator[tuple[str, Target, bool]]:
    """Each function's parameters given a default, and each class's fields given one
    (`color_output: bool = False` in a dataclass): the name, the lines from the `def` to
    the default (the field's statement), and whether the default is a literal."""
    for fn in ast.walk(tree):
        if isinstance(fn, ast.ClassDef):
            yield from _fields(fn, rel)
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = fn.args
        positional = [*args.posonlyargs, *args.args]
        defaulted = positional[len(positional) - len(args.defaults) :]
        given = list(zip(defaulted, args.defaults, strict=True))
        given += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
        for arg, value in given:
            name = arg.arg
            if _askable(name):
                span = Target(rel, fn.lineno, value.end_lineno or value.lineno)
                yield name, span, isinstance(value, ast.Constant)


def _fields(cls: ast.ClassDef, rel: str) -> Iterator[tuple[str, Target, bool]]:
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and _askable(target.id):
            span = Target(rel, node.lineno, node.end_lineno or node.lineno)
            yield target.id, span, isinstance(value, ast.Constant)


def _askable(name: str) -> bool:
    return len(name) >= 4 and not name.startswith("_") and name not in _UNASKED


def _asked(corpus: Corpus, per_corpus: int) -> list[Query]:
    constants, params = defaults(corpus.root)
    return [
        *named_queries(corpus, constants, per_corpus, CONSTANT, "default-constants"),
        *named_queries(corpus, params, per_corpus, PARAMETER, "default-parameters"),
    ]


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every corpus of `sets`, asked about its defaults in every form: the first hit's rank
    that holds a line stating it, per row."""
    corpora = [c for c in build_corpora(["docstring"]) if "docstring" in sets]
    corpora += [
        Corpus(f"cli-{name}", fetch(name, version), ())
        for group, fetch, name, version in CLIS
        if group == "python" and "python" in sets
    ]
    return measure_asked(sets, mode, lambda corpus: _asked(corpus, per_corpus), corpora)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring,python", per_corpus=8)


if __name__ == "__main__":
    main()
