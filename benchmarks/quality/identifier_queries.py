"""Identifier queries: names that occur in the code but are defined nowhere in it.

The kind of name agents search for all the time: a keyword argument, a parameter, an
attribute, a local (`show_default`, `resilient_parsing`). Drawn with a fixed seed from
the AST of each Python corpus: snake_case names (an underscore inside, no leading one,
at least 6 characters) that occur on at least two lines and are never the name of a
`def`, a `class` or a module- or class-level assignment (so no symbol has that name).
The query is the bare name; any line where it occurs (as a name, an attribute, a
parameter or a keyword argument) is a target.
"""

from __future__ import annotations

import ast
import logging
import random
import re
from collections import defaultdict

from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.pydefs import python_files

log = logging.getLogger(__name__)

_SHAPE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
MIN_CHARS = 6
MIN_LINES = 2


def build(corpus: Corpus, per_package: int, seed: int) -> tuple[Query, ...]:
    """Identifier queries about an already-built Python corpus."""
    uses: dict[str, set[tuple[str, int]]] = defaultdict(set)
    defined: set[str] = set()
    for rel in python_files(corpus.root):
        try:
            tree = ast.parse((corpus.root / rel).read_bytes(), filename=rel)
        except SyntaxError as exc:
            log.warning("skip %s: %s", rel, exc)
            continue
        defined |= _defined(tree)
        for name, line in _occurrences(tree):
            uses[name].add((rel, line))
    pool = sorted(
        name
        for name, where in uses.items()
        if name not in defined
        and len(name) >= MIN_CHARS
        and _SHAPE.fullmatch(name)
        and len(where) >= MIN_LINES
    )
    rng = random.Random(f"{seed}:identifiers:{corpus.name}")
    chosen = sorted(rng.sample(pool, min(per_package, len(pool))))
    return tuple(
        Query(
            id=f"identifier:{corpus.name}:{name}",
            set="identifier",
            repo=corpus.name,
            text=name,
            targets=tuple(Target(rel, line, line) for rel, line in sorted(uses[name])),
        )
        for name in chosen
    )


def _defined(tree: ast.Module) -> set[str]:
    """Names a symbol catalogue could hold: every def and class, and the targets of
    module- and class-level assignments."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
            body = node.body if isinstance(node, ast.ClassDef) else []
            out |= _assigned(body)
    return out | _assigned(tree.body)


def _assigned(body: list[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for stmt in body:
        targets = (
            stmt.targets
            if isinstance(stmt, ast.Assign)
            else [stmt.target]
            if isinstance(stmt, ast.AnnAssign | ast.AugAssign)
            else []
        )
        for t in targets:
            out |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _occurrences(tree: ast.Module) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.append((node.id, node.lineno))
        elif isinstance(node, ast.Attribute):
            out.append((node.attr, node.end_lineno or node.lineno))
        elif isinstance(node, ast.arg):
            out.append((node.arg, node.lineno))
        elif isinstance(node, ast.keyword) and node.arg:
            out.append((node.arg, node.value.lineno))
    return out
