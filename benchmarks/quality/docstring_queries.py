"""docstring -> function (CodeSearchNet-style) over pinned Python packages, docstrings blanked.

For each package a fixed-seed sample of functions and methods is drawn; the query is
the first sentence of the docstring and the target the function's span. The corpus is a
copy of the package in which exactly those docstrings are blanked (line numbers kept),
so a query can only be answered from the code, names and the rest of the package.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from benchmarks.quality.blanking import blank_spans, first_sentence
from benchmarks.quality.model import Corpus, Query, Target, copy_files, corpus_dir
from benchmarks.quality.pydefs import Definition, definitions, python_files
from benchmarks.sdists import fetch_sdist

MIN_WORDS = 6
MAX_WORDS = 60


@dataclass(frozen=True, slots=True)
class Package:
    """A pinned PyPI sdist and the directory in it that holds the library's code."""

    name: str
    version: str
    code_dir: str

    @property
    def slug(self) -> str:
        """The corpus name: `py-<name>`."""
        return f"py-{self.name}"


PACKAGES = (
    Package("jinja2", "3.1.6", "src/jinja2"),
    Package("marshmallow", "3.26.1", "src/marshmallow"),
    Package("sqlparse", "0.5.3", "sqlparse"),
    Package("more-itertools", "10.7.0", "more_itertools"),
    Package("boltons", "25.0.0", "boltons"),
)


def build(pkg: Package, per_package: int, seed: int) -> Corpus:
    """Fetch `pkg`, sample its documented functions, and write the blanked copy."""
    src = fetch_sdist(pkg.name, pkg.version)
    rels = python_files(src / pkg.code_dir)
    rels = [f"{pkg.code_dir}/{rel}" for rel in rels]
    defs = [d for rel in rels for d in definitions(src, rel)]
    chosen = sample(candidates(defs), per_package, random.Random(f"{seed}:{pkg.name}"))
    root = corpus_dir(pkg.slug)
    copy_files(src, rels, root)
    _blank(root, chosen)
    _verify(root, chosen)
    queries = tuple(_query(pkg, d) for d in chosen)
    return Corpus(pkg.slug, root, queries)


def candidates(defs: list[Definition]) -> list[Definition]:
    """Functions and methods whose docstring's first sentence is a usable, unique query."""
    sentences = Counter(first_sentence(d.doc) for d in defs if d.doc)
    return [
        d
        for d in defs
        if d.kind != "class"
        and d.doc
        and d.doc_span
        and MIN_WORDS <= len(first_sentence(d.doc).split()) <= MAX_WORDS
        and sentences[first_sentence(d.doc)] == 1
    ]


def sample(defs: list[Definition], n: int, rng: random.Random) -> list[Definition]:
    """`n` definitions drawn without replacement (all of them when fewer), in file order."""
    ordered = sorted(defs, key=lambda d: (d.path, d.start))
    picked = rng.sample(ordered, min(n, len(ordered)))
    return sorted(picked, key=lambda d: (d.path, d.start))


def _blank(root: Path, chosen: list[Definition]) -> None:
    by_file: dict[str, list[tuple[int, int]]] = {}
    for d in chosen:
        assert d.doc_span is not None
        by_file.setdefault(d.path, []).append(d.doc_span)
    for rel, spans in by_file.items():
        path = root / rel
        path.write_bytes(blank_spans(path.read_bytes().decode("utf-8"), spans).encode("utf-8"))


def _verify(root: Path, chosen: list[Definition]) -> None:
    """Every blanked function is still where it was, and has lost its docstring."""
    for rel in sorted({d.path for d in chosen}):
        after = {(d.qualname, d.start, d.end): d for d in definitions(root, rel)}
        for d in (d for d in chosen if d.path == rel):
            moved = after.get((d.qualname, d.start, d.end))
            if moved is None or moved.doc:
                raise AssertionError(f"blanking broke {rel}:{d.qualname}")


def _query(pkg: Package, d: Definition) -> Query:
    assert d.doc is not None
    return Query(
        id=f"docstring:{pkg.name}:{d.path}:{d.qualname}",
        set="docstring",
        repo=pkg.slug,
        text=first_sentence(d.doc),
        targets=(Target(d.path, d.start, d.end),),
    )
