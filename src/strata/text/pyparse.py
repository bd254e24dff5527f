"""Parse Python source once per file: every Python layer (chunks, symbols, edges, entry
points) asks for the same tree, so the last few parses are kept."""

from __future__ import annotations

import ast
import functools
import warnings


@functools.lru_cache(maxsize=4)
def parse(text: str) -> ast.Module:
    """The module's AST (shared: callers must not mutate it).

    Raises:
        SyntaxError, ValueError, RecursionError: the text is not parseable Python.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes and the like are not our business
        return ast.parse(text)
