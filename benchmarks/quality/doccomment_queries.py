"""doc comment -> function over a pinned TypeScript npm package, doc comments blanked.

The non-Python twin of `docstring_queries`: a `/** ... */` comment directly above a
function, arrow-function constant or method with a body gives the query (its first
sentence) and the target (the declaration's span). The sampled comments are blanked in
the copy that is indexed, keeping every line number.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import tree_sitter as ts

from benchmarks.quality.blanking import blank_spans, first_sentence
from benchmarks.quality.docstring_queries import MAX_WORDS, MIN_WORDS
from benchmarks.quality.model import Corpus, Query, Target, copy_files, corpus_dir
from benchmarks.sdists import fetch_npm

if TYPE_CHECKING:
    from tree_sitter import Node

_LINK = re.compile(r"\{@link(?:code|plain)?\s+([^}|\s]+)[^}]*\}")
_TAG = re.compile(r"<[^>]+>")
_DECLARATIONS = frozenset(
    {"function_declaration", "method_definition", "generator_function_declaration"}
)
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function"})


@dataclass(frozen=True, slots=True)
class NpmPackage:
    """A pinned npm tarball and the directory in it that holds its TypeScript sources."""

    name: str
    version: str
    code_dir: str

    @property
    def slug(self) -> str:
        """The corpus name: `ts-<name>`."""
        return f"ts-{self.name}"


@dataclass(frozen=True, slots=True)
class Documented:
    """A declaration with the doc comment above it: comment lines and declaration span."""

    path: str
    name: str
    comment: tuple[int, int]
    start: int
    end: int
    doc: str


PACKAGES = (NpmPackage("rxjs", "7.8.1", "src"),)


def build(pkg: NpmPackage, per_package: int, seed: int) -> Corpus:
    """Fetch `pkg`, sample its documented functions, and write the blanked copy."""
    src = fetch_npm(pkg.name, pkg.version)
    rels = sorted(
        p.relative_to(src).as_posix()
        for p in (src / pkg.code_dir).rglob("*.ts")
        if not p.name.endswith(".d.ts")
    )
    found = [d for rel in rels for d in documented(src, rel)]
    sentences = Counter(first_sentence(d.doc) for d in found)
    usable = [
        d
        for d in found
        if MIN_WORDS <= len(first_sentence(d.doc).split()) <= MAX_WORDS
        and sentences[first_sentence(d.doc)] == 1
    ]
    picked = random.Random(f"{seed}:{pkg.name}").sample(usable, min(per_package, len(usable)))
    chosen = sorted(picked, key=lambda d: (d.path, d.start))
    root = corpus_dir(pkg.slug)
    copy_files(src, rels, root)
    for rel in sorted({d.path for d in chosen}):
        path = root / rel
        spans = [d.comment for d in chosen if d.path == rel]
        path.write_bytes(blank_spans(path.read_bytes().decode("utf-8"), spans).encode("utf-8"))
    queries = tuple(
        Query(
            f"nonpython:{pkg.name}:{d.path}:{d.name}:{d.start}",
            "nonpython",
            pkg.slug,
            first_sentence(d.doc),
            (Target(d.path, d.start, d.end),),
        )
        for d in chosen
    )
    return Corpus(pkg.slug, root, queries)


def documented(root: Path, rel: str) -> list[Documented]:
    """Every function or method with a body that has a standalone `/** */` comment above it."""
    import tree_sitter_typescript as tsts

    source = (root / rel).read_bytes()
    parser = ts.Parser(ts.Language(tsts.language_typescript()))
    lines = source.split(b"\n")
    out: list[Documented] = []
    stack = [parser.parse(source).root_node]
    while stack:
        node = stack.pop()
        kids = node.named_children
        for comment, decl in itertools.pairwise(kids):
            found = _pair(comment, decl, rel, lines)
            if found:
                out.append(found)
        stack.extend(
            k
            for k in kids
            if k.type
            in ("export_statement", "class_declaration", "class_body", "abstract_class_declaration")
        )
    return sorted(out, key=lambda d: d.start)


def _pair(c: Node, d: Node, rel: str, lines: list[bytes]) -> Documented | None:
    if c.type != "comment" or not (c.text or b"").startswith(b"/**"):
        return None
    name = _function_name(d)
    first, last = c.start_point.row, c.end_point.row
    standalone = (
        not lines[first][: c.start_point.column].strip()
        and not lines[last][c.end_point.column :].strip()
    )
    if name is None or not standalone or d.start_point.row <= last:
        return None
    return Documented(
        rel,
        name,
        (first + 1, last + 1),
        d.start_point.row + 1,
        d.end_point.row + 1,
        _comment_text(_text(c) or ""),
    )


def _function_name(n: Node) -> str | None:
    """The name of a function-like declaration with a body, else None."""
    if n.type == "export_statement":
        inner = n.child_by_field_name("declaration")
        return _function_name(inner) if inner is not None else None
    if n.type in _DECLARATIONS and n.child_by_field_name("body") is not None:
        return _text(n.child_by_field_name("name"))
    if n.type == "lexical_declaration" and len(n.named_children) == 1:
        var = n.named_children[0]
        value = var.child_by_field_name("value")
        if value is not None and value.type in _FUNCTION_VALUES:
            return _text(var.child_by_field_name("name"))
    return None


def _text(node: Node | None) -> str | None:
    return None if node is None or node.text is None else node.text.decode("utf-8")


def _comment_text(raw: str) -> str:
    """A doc comment's prose: delimiters, leading stars, tags and `@` blocks removed."""
    body = raw.removeprefix("/**").removesuffix("*/")
    prose: list[str] = []
    for line in body.split("\n"):
        text = line.strip().removeprefix("*").strip()
        if text.startswith("@"):
            break
        prose.append(text)
    return _TAG.sub("", _LINK.sub(r"\1", "\n".join(prose)))
