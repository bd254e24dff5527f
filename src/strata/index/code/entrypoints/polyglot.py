"""C3 beyond Python: the tree-sitter entry-point detectors by language."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Final

from strata.index.code.entrypoints import axum, express, golang, spring
from strata.index.code.entrypoints.base import FileEntrypoints
from strata.index.code.entrypoints.compose import compose_entrypoints
from strata.index.code.entrypoints.parsed import ParsedFile
from strata.index.code.model import Entrypoint, Symbol
from strata.index.code.treesitter import symbols as treesitter_symbols
from strata.text.testcode import is_test_path

log = logging.getLogger(__name__)

DETECTORS: Final[Mapping[str, Callable[[ParsedFile], FileEntrypoints]]] = {
    "go": golang.detect,
    "javascript": express.detect,
    "typescript": express.detect,
    "tsx": express.detect,
    "java": spring.detect,
    "rust": axum.detect,
}


def scan_treesitter_entrypoints(
    text: str, lang: str, path: str, symbols: list[Symbol]
) -> FileEntrypoints:
    """Entries, owners and mounts of one file in a tree-sitter language (none if no detector)."""
    detector = DETECTORS.get(lang)
    if detector is None:
        return FileEntrypoints(path)
    found = detector(ParsedFile.parse(text, lang, path, symbols, is_test_path(path)))
    log.debug("%s: %d entry points", path, len(found.entrypoints))
    return found


def entrypoints_of(files: Iterable[tuple[str, str, str]]) -> list[Entrypoint]:
    """Entry points of (path, lang, text) files in tree-sitter languages, composed across
    them as the corpus pass does (for tests and benchmarks over a folder)."""
    scans = []
    for rel, lang, text in files:
        symbols, _ = treesitter_symbols.extract(text, lang, rel)
        scans.append(scan_treesitter_entrypoints(text, lang, rel, symbols))
    return compose_entrypoints(scans)
