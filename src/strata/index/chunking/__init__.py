"""Chunking: picks a chunker by language and holds every chunk to the budget.

A chunker is a pure function `(text, cfg) -> list[Chunk]`. The table is built here, in one
place, on first use (`chunkers()`): Python's `ast` chunker, paragraphs for text and PDF,
and a tree-sitter chunker for every other language with a grammar and a tag query. A
language without one gets line windows. `register` replaces or adds one (tests, plugins).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from strata.config import ChunkConfig
from strata.index.chunking.budget import Budget, enforce
from strata.index.chunking.python import chunk_python
from strata.index.chunking.windows import line_windows, paragraphs
from strata.types import Chunk, Extracted

Chunker = Callable[[str, ChunkConfig], list[Chunk]]

_OWN: dict[str, Chunker] = {
    "python": chunk_python,  # Python keeps its stdlib-ast chunker (see docs/benchmarks.md)
    "text": paragraphs,
    "pdf": paragraphs,
}

__all__ = [
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
    and a tag query for, then this package's own (Python, text, PDF)."""
    from strata.index.code.treesitter import grammars  # tree-sitter loads on first use

    return {**{lang: _treesitter(lang) for lang in grammars.supported()}, **_OWN}


def _treesitter(lang: str) -> Chunker:
    from strata.index.code.treesitter import chunker as treesitter_chunker

    def chunker(text: str, cfg: ChunkConfig) -> list[Chunk]:
        return treesitter_chunker.chunk(text, lang, cfg)

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
