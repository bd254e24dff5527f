"""Query words in a file's name or folder (pure): the share of a sentence's words that name
a candidate's file (`search.path_boost`, semble's stem boost), each word weighed by how
few candidate files it names."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from strata.text.tokens import word_tokens

__all__ = ["common_words", "path_share"]

PATH_PREFIX = 3  # letters a word and a path part share at least to match by prefix
_SUFFIXES = ("ing", "ion", "ed", "es", "s")  # inflections dropped before the prefix test


def common_words(words: frozenset[str], paths: set[str]) -> dict[str, float]:
    """Each word's weight: 1 - the share of the candidate files whose path it names (a
    word every candidate's folder holds, `cordova` in `org/apache/cordova/`, tells none
    apart)."""
    if not words or not paths:
        return {}
    n = len(paths)
    return {
        w: 1.0 - sum(1 for p in paths if any(_prefixed(w, x) for x in _path_parts(p))) / n
        for w in words
    }


def path_share(
    path: str, words: frozenset[str], weight: Mapping[str, float] | None = None
) -> float:
    """The share of `words` that name the file or its folder (`CordovaActivity.java`,
    `engine/`); a word and a name part match when one starts the other (3+ letters:
    `dependency` ~ `dependencies`, `routing` ~ `router`)."""
    parts = _path_parts(path)
    hits = sum((weight or {}).get(w, 1.0) for w in words if any(_prefixed(w, p) for p in parts))
    return hits / len(words) if words else 0.0


@functools.lru_cache(maxsize=8192)
def _path_parts(path: str) -> frozenset[str]:
    dirs, _, name = path.rpartition("/")
    stem = name.split(".")[0]
    parent = dirs.rpartition("/")[2]
    return frozenset(t for w in (stem, parent) if w for t in word_tokens(w))


def _prefixed(word: str, part: str) -> bool:
    if word == part:
        return True
    short, long = sorted((_root(word), _root(part)), key=len)
    return len(short) >= PATH_PREFIX and long.startswith(short)


@functools.lru_cache(maxsize=8192)
def _root(word: str) -> str:
    """`word` without an English inflection (`dependencies` -> `dependency`, `routing` ->
    `rout`, `handled` -> `handl`), so that a word and a name part of another form meet."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in _SUFFIXES:
        if len(word) - len(suffix) >= PATH_PREFIX + 1 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
