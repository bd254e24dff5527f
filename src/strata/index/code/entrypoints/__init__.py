"""C3 for Python: entry points (HTTP routes, CLI commands, `__main__`) from a registry of detectors.

Per file, `scan_entrypoints` runs every detector and returns entries with their local
routes plus the owners (apps, routers, groups) and mounts they hang from; the
whole-repository pass `compose_entrypoints` joins prefixes across files.
`detect_entrypoints` does both for one file alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Final

from strata.index.code.entrypoints import argparse, click, django, fastapi, flask, main
from strata.index.code.entrypoints.base import FileContext, FileEntrypoints, Mount, Owner
from strata.index.code.entrypoints.compose import compose_entrypoints, join_route
from strata.index.code.model import Entrypoint, Symbol
from strata.index.code.python.symbols import parse_python
from strata.text.langs import module_from_path
from strata.text.testcode import is_test_path

log = logging.getLogger(__name__)

Detector = Callable[[FileContext], FileEntrypoints]

DETECTORS: Final[Mapping[str, Detector]] = {
    "fastapi": fastapi.detect,
    "flask": flask.detect,
    "click": click.detect,  # Click and Typer
    "django": django.detect,
    "argparse": argparse.detect,
    "main": main.detect,
}

__all__ = [
    "DETECTORS",
    "Detector",
    "FileEntrypoints",
    "Mount",
    "Owner",
    "compose_entrypoints",
    "detect_entrypoints",
    "join_route",
    "scan_entrypoints",
]


def scan_entrypoints(text: str, path: str, symbols: list[Symbol]) -> FileEntrypoints:
    """Every detector's findings for one Python file, before cross-file composition.

    Args:
        text: The file's source.
        path: Its path relative to the indexed root.
        symbols: Its C1 symbols (from `extract_symbols`), to link handlers.
    """
    tree = parse_python(text, path)
    if tree is None:
        return FileEntrypoints(path)
    ctx = FileContext(path, module_from_path(path), tree, symbols, is_test_path(path))
    entries: list[Entrypoint] = []
    owners: list[Owner] = []
    mounts: list[Mount] = []
    for name, detector in DETECTORS.items():
        found = detector(ctx)
        log.debug("%s: %d %s entries", path, len(found.entrypoints), name)
        entries += found.entrypoints
        owners += found.owners
        mounts += found.mounts
    return FileEntrypoints(path, tuple(entries), tuple(owners), tuple(mounts))


def detect_entrypoints(text: str, path: str, symbols: list[Symbol]) -> list[Entrypoint]:
    """Entry points of one file, with the prefixes this file alone declares joined in."""
    return compose_entrypoints([scan_entrypoints(text, path, symbols)])
