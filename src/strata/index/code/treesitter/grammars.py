"""Tree-sitter grammars by language name, loaded lazily: the fifteen languages Strata first
supported from their per-language wheels, every other one from the semble-grammars bundle
(one wheel of prebuilt grammars, extracted into a user cache on first use, never fetched)."""

from __future__ import annotations

import functools
import importlib
import logging
from dataclasses import dataclass
from typing import Final

import tree_sitter

from strata.errors import EngineError, UserError

log = logging.getLogger(__name__)


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
BUNDLE: Final = "semble-grammars>=0.1.2,<0.2"
# Languages whose grammar comes from the bundle: Strata's name (`strata.text.langs`) -> the
# bundle's. A grammar here says only that the language parses; whether its files are
# chunked by a tag query, by syntax alone or by windows is `strata.index.chunking`'s choice.
BUNDLED: Final[dict[str, str]] = {
    **{lang: lang for lang in ("lua", "r", "perl", "objc", "dart", "elixir", "erlang")},
    **{lang: lang for lang in ("haskell", "ocaml", "clojure", "julia", "sql", "zig", "nix")},
    **{lang: lang for lang in ("solidity", "fortran", "scheme", "racket", "jsonnet", "vim")},
    **{lang: lang for lang in ("wat", "just", "groovy", "powershell", "starlark", "hcl")},
    **{lang: lang for lang in ("cmake", "make", "batch", "dockerfile", "graphql", "vue")},
    **{lang: lang for lang in ("svelte", "css", "scss", "json", "yaml", "toml", "ini", "xml")},
    "astro": "astro",
    "protobuf": "proto",
}


def supported() -> tuple[str, ...]:
    """The language names that have a grammar entry (installed or not)."""
    return (*GRAMMARS, *BUNDLED)


def is_supported(lang: str) -> bool:
    """Whether `lang` has a grammar entry."""
    return lang in GRAMMARS or lang in BUNDLED


@functools.cache
def loads(lang: str) -> bool:
    """Whether `lang`'s grammar can be used here. A bundled grammar that cannot load (its
    cache not writable, no build for this machine) is logged once and its files get line
    windows and no symbols; a missing per-language wheel stays an error (`language`)."""
    if lang not in BUNDLED:
        return lang in GRAMMARS
    try:
        language(lang)
    except EngineError as exc:
        log.warning("%s files get line windows: %s", lang, exc)
        return False
    return True


@functools.cache
def language(lang: str) -> tree_sitter.Language:
    """The tree-sitter Language for `lang`, imported on first use.

    Raises:
        UserError: `lang` has no grammar here.
        EngineError: the grammar's package is missing or built for another ABI;
            the message carries the pip command that fixes it.
    """
    if lang in BUNDLED:
        return _bundled(lang)
    grammar = GRAMMARS.get(lang)
    if grammar is None:
        raise UserError(
            f"no tree-sitter grammar for language {lang!r}",
            hint="supported: " + ", ".join(sorted(supported())),
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


def _bundled(lang: str) -> tree_sitter.Language:
    install = f"pip install '{BUNDLE}'"
    try:
        import semble_grammars
    except ImportError as exc:
        raise EngineError(f"the {lang} grammar is not installed", hint=install) from exc
    try:
        found: tree_sitter.Language = semble_grammars.get_language(BUNDLED[lang])
    except (ValueError, semble_grammars.GrammarLoadError) as exc:  # ABI, or the cache unwritable
        raise EngineError(
            f"the {lang} grammar cannot be loaded: {exc}",
            hint=f"{install}; it extracts into SEMBLE_GRAMMARS_CACHE_DIR (default ~/.cache/semble)",
        ) from exc
    except (semble_grammars.LanguageNotFoundError, semble_grammars.UnsupportedPlatformError) as exc:
        raise EngineError(f"the {lang} grammar is not bundled here: {exc}", hint=install) from exc
    return found
