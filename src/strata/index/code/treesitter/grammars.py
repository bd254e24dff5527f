"""Tree-sitter grammars by language name, loaded lazily from their per-language wheels."""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Final

import tree_sitter

from strata.errors import EngineError, UserError


@dataclass(frozen=True, slots=True)
class Grammar:
    """Where one language's grammar lives: module, its factory function, the pip package."""

    module: str
    factory: str
    package: str


GRAMMARS: Final[dict[str, Grammar]] = {
    "python": Grammar("tree_sitter_python", "language", "tree-sitter-python>=0.25,<0.26"),
    "javascript": Grammar(
        "tree_sitter_javascript", "language", "tree-sitter-javascript>=0.25,<0.26"
    ),
    "typescript": Grammar(
        "tree_sitter_typescript", "language_typescript", "tree-sitter-typescript>=0.23,<0.24"
    ),
    "tsx": Grammar("tree_sitter_typescript", "language_tsx", "tree-sitter-typescript>=0.23,<0.24"),
    "go": Grammar("tree_sitter_go", "language", "tree-sitter-go>=0.25,<0.26"),
    "rust": Grammar("tree_sitter_rust", "language", "tree-sitter-rust>=0.24,<0.25"),
    "java": Grammar("tree_sitter_java", "language", "tree-sitter-java>=0.23,<0.24"),
    "kotlin": Grammar("tree_sitter_kotlin", "language", "tree-sitter-kotlin>=1.1,<1.2"),
    "c": Grammar("tree_sitter_c", "language", "tree-sitter-c>=0.24,<0.25"),
    "cpp": Grammar("tree_sitter_cpp", "language", "tree-sitter-cpp>=0.23,<0.24"),
    "csharp": Grammar("tree_sitter_c_sharp", "language", "tree-sitter-c-sharp>=0.23,<0.24"),
    "ruby": Grammar("tree_sitter_ruby", "language", "tree-sitter-ruby>=0.23,<0.24"),
    "php": Grammar("tree_sitter_php", "language_php", "tree-sitter-php>=0.25,<0.26"),
    "swift": Grammar("tree_sitter_swift", "language", "tree-sitter-swift>=0.7,<0.8"),
    "scala": Grammar("tree_sitter_scala", "language", "tree-sitter-scala>=0.26,<0.27"),
    "bash": Grammar("tree_sitter_bash", "language", "tree-sitter-bash>=0.25,<0.26"),
}


def supported() -> tuple[str, ...]:
    """The language names that have a grammar entry (installed or not)."""
    return tuple(GRAMMARS)


def is_supported(lang: str) -> bool:
    """Whether `lang` has a grammar entry."""
    return lang in GRAMMARS


@functools.cache
def language(lang: str) -> tree_sitter.Language:
    """The tree-sitter Language for `lang`, imported on first use.

    Raises:
        UserError: `lang` has no grammar here.
        EngineError: the grammar's package is missing or built for another ABI;
            the message carries the pip command that fixes it.
    """
    grammar = GRAMMARS.get(lang)
    if grammar is None:
        raise UserError(
            f"no tree-sitter grammar for language {lang!r}",
            hint="supported: " + ", ".join(sorted(GRAMMARS)),
        )
    install = f"pip install '{grammar.package}'"
    try:
        module = importlib.import_module(grammar.module)
    except ImportError as exc:
        raise EngineError(f"the {lang} grammar is not installed", hint=install) from exc
    try:
        return tree_sitter.Language(getattr(module, grammar.factory)())
    except ValueError as exc:  # incompatible ABI version
        raise EngineError(f"the {lang} grammar cannot be loaded: {exc}", hint=install) from exc
