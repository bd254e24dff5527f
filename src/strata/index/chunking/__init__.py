"""Chunking: picks a chunker by language and holds every chunk to the budget.

A chunker is a pure function `(text, cfg) -> list[Chunk]`. Other packages plug theirs
in with `register` (Markdown and RST sections, tree-sitter languages); a language
without one gets line windows.
"""

from __future__ import annotations

from collections.abc import Callable

from strata.config import ChunkConfig
from strata.index.chunking.budget import Budget, enforce
from strata.index.chunking.python import chunk_python
from strata.index.chunking.windows import line_windows, paragraphs
from strata.types import Chunk, Extracted

Chunker = Callable[[str, ChunkConfig], list[Chunk]]

CHUNKERS: dict[str, Chunker] = {
    "python": chunk_python,
    "text": paragraphs,
    "pdf": paragraphs,
}

__all__ = [
    "CHUNKERS",
    "Chunker",
    "chunk",
    "chunk_python",
    "chunker_for",
    "line_windows",
    "paragraphs",
    "register",
]


def register(lang: str, chunker: Chunker) -> None:
    """Use `chunker` for files of language `lang` (replacing any chunker it had)."""
    CHUNKERS[lang] = chunker


def chunker_for(lang: str) -> Chunker:
    """The chunker of a language; line windows when none is registered."""
    return CHUNKERS.get(lang, line_windows)


def chunk(doc: Extracted, cfg: ChunkConfig) -> list[Chunk]:
    """The chunks of a file, in file order, each within `cfg`'s line and character budget.

    Whatever the language's chunker returns, oversized chunks are split by lines (keeping
    kind and title, numbered by `metadata["part"]`), lines longer than `cfg.max_chars`
    become column windows, and blank chunks are dropped.
    """
    chunks = enforce(chunker_for(doc.lang)(doc.text, cfg), Budget.of(cfg))
    return sorted(chunks, key=lambda c: (c.start_line, c.metadata.get("col_start", 0)))
