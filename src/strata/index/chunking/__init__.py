"""Chunking: picks a chunker by language and holds every chunk to the budget.

A chunker is a pure function `(text, cfg) -> list[Chunk]`. The table is built here, in one
place, on first use (`chunkers()`): Python's `ast` chunker, paragraphs for text and PDF,
a tree-sitter chunker for every other language with a grammar and a tag query, and syntax
nodes merged to the window for a language with a grammar only. Data and markup formats
(`WINDOWED`) and languages without a grammar get line windows. `register` replaces or adds
one (tests, plugins).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from strata.config import ChunkConfig
from strata.index.chunking.budget import Budget, enforce
from strata.index.chunking.python import chunk_python
from strata.index.chunking.windows import line_windows, paragraphs
from strata.index.code import sketch
from strata.types import Chunk, Extracted

Chunker = Callable[[str, ChunkConfig], list[Chunk]]

_OWN: dict[str, Chunker] = {
    "python": chunk_python,  # Python keeps its stdlib-ast chunker (see docs/benchmarks.md)
    "text": paragraphs,
    "pdf": paragraphs,
}

# Formats with a grammar that keep line windows: their syntax nodes are keys, rules and
# elements, not units a question asks for (measured: docs/benchmarks.md, "More languages").
WINDOWED = frozenset(
    ["json", "yaml", "toml", "ini", "xml", "css", "scss", "cmake", "dockerfile", "batch"]
)

__all__ = [
    "WINDOWED",
    "Chunker",
    "chunk",
    "chunk_python",
    "chunker_for",
    "chunkers",
    "line_windows",
    "paragraphs",
    "register",
]


@functools.cache
def chunkers() -> dict[str, Chunker]:
    """Every language's chunker, built once: tree-sitter's for the languages it has a grammar
    and a tag query for, merged syntax nodes for the other grammars but `WINDOWED`, then
    this package's own (Python, text, PDF)."""
    from strata.index.code.treesitter import grammars, tagquery  # loaded on first use

    table: dict[str, Chunker] = {}
    for lang in grammars.supported():
        if tagquery.has_query(lang):
            table[lang] = _treesitter(lang, tagged=True)
        elif lang not in WINDOWED:
            table[lang] = _treesitter(lang, tagged=False)
    for lang in sketch.LANGUAGES:  # no grammar: the definitions' lines give the units
        table[lang] = _sketched(lang)
    return {**table, **_OWN}


def _sketched(lang: str) -> Chunker:
    from strata.index.code.treesitter import chunker as treesitter_chunker

    return lambda text, cfg: treesitter_chunker.chunk(text, lang, cfg)


def _treesitter(lang: str, *, tagged: bool) -> Chunker:
    from strata.index.code.treesitter import chunker as treesitter_chunker
    from strata.index.code.treesitter import generic
    from strata.index.code.treesitter.grammars import loads

    chunk_lang = treesitter_chunker.chunk if tagged else generic.chunk

    def chunker(text: str, cfg: ChunkConfig) -> list[Chunk]:
        if not loads(lang):  # a bundled grammar that cannot load here
            return line_windows(text, cfg)
        return chunk_lang(text, lang, cfg)

    return chunker


def register(lang: str, chunker: Chunker) -> None:
    """Use `chunker` for files of language `lang` (replacing any chunker it had)."""
    chunkers()[lang] = chunker


def chunker_for(lang: str) -> Chunker:
    """The chunker of a language; line windows when it has none."""
    return chunkers().get(lang, line_windows)


def chunk(doc: Extracted, cfg: ChunkConfig) -> list[Chunk]:
    """The chunks of a file, in file order, each within `cfg`'s line and character budget.

    Whatever the language's chunker returns, oversized chunks are split by lines (keeping
    kind and title, numbered by `metadata["part"]`), lines longer than `cfg.max_chars`
    become column windows, and blank chunks are dropped.
    """
    chunks = enforce(chunker_for(doc.lang)(doc.text, cfg), Budget.of(cfg))
    return sorted(chunks, key=lambda c: (c.start_line, c.metadata.get("col_start", 0)))
