"""Docs set on JavaScript projects: a Markdown section's first sentence -> that section.

The corpus is a whole npm package (its JavaScript, TypeScript typings and every Markdown
file), so documentation competes with the code it documents. For each section of the
chosen Markdown files (a heading down to the next heading of any level, fenced code
blocks read as code), the first sentence (6-60 words) of its first prose paragraph is the
query and the section's lines the target. The sampled paragraphs are blanked in the
indexed copy (every line keeps its number), so the query cannot be matched verbatim.

Headings are read here with a small fence-aware scanner, not with Strata's chunker, so
that the targets do not depend on the engine being measured.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from benchmarks.quality.blanking import blank_spans, first_sentence
from benchmarks.quality.docstring_queries import MAX_WORDS, MIN_WORDS
from benchmarks.quality.model import Corpus, Query, Target, copy_files, corpus_dir, read_lines
from benchmarks.sdists import fetch_npm

SET = "docs-md"
_HEADING = re.compile(r"^(#{1,6})\s+\S")
_FENCE = re.compile(r"^\s*(```|~~~)")
_NOT_PROSE = re.compile(r"^\s*([-*+|>!<\[]|\d+\.\s|#|```|~~~)")
_MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)|`([^`]*)`|\*\*([^*]*)\*\*|_([^_]+)_")


@dataclass(frozen=True, slots=True)
class DocsPackage:
    """A pinned npm package, the Markdown files to draw sections from, what is indexed."""

    name: str
    version: str
    docs: tuple[str, ...]
    suffixes: tuple[str, ...] = (".js", ".ts", ".md")

    @property
    def slug(self) -> str:
        """The corpus name: `docs-<name>`."""
        return f"docs-{self.name}"


@dataclass(frozen=True, slots=True)
class Section:
    """One Markdown section: heading line to last line, and its first prose paragraph."""

    path: str
    heading: str
    start: int
    end: int
    paragraph: tuple[int, int] | None
    text: str


PACKAGES = (
    DocsPackage("commander", "12.1.0", ("Readme.md",)),
    DocsPackage("axios", "1.7.9", ("README.md",)),
)


def build(pkg: DocsPackage, per_package: int, seed: int) -> Corpus:
    """Fetch `pkg`, sample its sections, and write the blanked copy of the package."""
    src = fetch_npm(pkg.name, pkg.version)
    rels = sorted(
        p.relative_to(src).as_posix()
        for p in src.rglob("*")
        if p.is_file() and p.suffix in pkg.suffixes and "node_modules" not in p.parts
    )
    found = [s for rel in pkg.docs for s in sections(src, rel)]
    firsts = Counter(first_sentence(s.text) for s in found)
    usable = [
        s
        for s in found
        if s.paragraph
        and MIN_WORDS <= len(first_sentence(s.text).split()) <= MAX_WORDS
        and firsts[first_sentence(s.text)] == 1
    ]
    rng = random.Random(f"{seed}:{pkg.slug}")
    chosen = sorted(
        rng.sample(usable, min(per_package, len(usable))), key=lambda s: (s.path, s.start)
    )
    root = corpus_dir(pkg.slug)
    copy_files(src, rels, root)
    for rel in sorted({s.path for s in chosen}):
        path = root / rel
        spans = [s.paragraph for s in chosen if s.path == rel and s.paragraph]
        path.write_bytes(blank_spans(path.read_bytes().decode("utf-8"), spans).encode("utf-8"))
    queries = tuple(
        Query(
            f"{SET}:{pkg.slug}:{s.path}:{s.start}",
            SET,
            pkg.slug,
            first_sentence(s.text),
            (Target(s.path, s.start, s.end),),
        )
        for s in chosen
    )
    return Corpus(pkg.slug, root, queries)


def sections(root: Path, rel: str) -> list[Section]:
    """Every section of one Markdown file, with its first prose paragraph (if any)."""
    lines = read_lines(root / rel)
    heads: list[tuple[int, str]] = []
    fenced = False
    for i, line in enumerate(lines, 1):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and _HEADING.match(line):
            heads.append((i, line.lstrip("#").strip()))
    out = []
    for n, (start, title) in enumerate(heads):
        end = heads[n + 1][0] - 1 if n + 1 < len(heads) else len(lines)
        while end > start and not lines[end - 1].strip():
            end -= 1
        paragraph = _first_paragraph(lines, start + 1, end)
        text = ""
        if paragraph:
            raw = " ".join(lines[i - 1].strip() for i in range(paragraph[0], paragraph[1] + 1))
            text = _MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), raw)
        out.append(Section(rel, title, start, end, paragraph, text))
    return out


def _first_paragraph(lines: list[str], first: int, last: int) -> tuple[int, int] | None:
    """The 1-based span of the first paragraph of prose in `first..last` (not inside a
    fence, not a list, table, quote, image or HTML), or None."""
    fenced = False
    i = first
    while i <= last:
        line = lines[i - 1]
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.strip() and not _NOT_PROSE.match(line):
            j = i
            while j + 1 <= last and lines[j].strip() and not _NOT_PROSE.match(lines[j]):
                j += 1
            return i, j
        i += 1
    return None
