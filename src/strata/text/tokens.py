"""Code-aware lexical tokens: identifiers split into snake/Camel parts, compound kept.

`parse_header` -> `parse_header parse header`; `HTTPServerError` -> `httpservererror
http server error`. Documents and queries go through the same function, so the
store's BM25 index (a plain whitespace tokenizer over these tokens) matches an
identifier whole or by its parts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

_WORD = re.compile(r"[^\W_]+(?:_+[^\W_]+)*", re.UNICODE)
# The same words in ASCII text, a third faster to find (most source files are ASCII).
_ASCII_WORD = re.compile(r"[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_a-zA-Z]+", re.UNICODE)
_MAX_TOKEN = 64
# A name and its version or size as prose writes them (`HTTP/2`, `UTF-8`, `SHA-256`) and
# code joins them (`http2`, `utf8`, `sha256`).
_NUMBERED = re.compile(r"\b([A-Za-z]{2,})[-/](\d{1,4})\b")

STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    ]
)


def split_identifier(word: str) -> list[str]:
    """Parts of one identifier, lowercased: `getHTTPResponse_code` -> get http response code."""
    parts: list[str] = []
    for piece in word.split("_"):
        if not piece:
            continue
        # one case or all digits (`VALUE`, `parse`, `123`): the piece is its only part
        if piece.isascii() and (piece.isdigit() or (piece.isalpha() and piece.islower())):
            parts.append(piece)
        elif piece.isascii() and piece.isalpha() and piece.isupper():
            parts.append(piece.lower())
        else:
            parts.extend(p.lower() for p in _CAMEL.findall(piece))
    return parts


def word_tokens(word: str) -> tuple[str, ...]:
    """The tokens of one word: the compound (with and without `_`), then its parts.

    A number or a plain lowercase word is its own only token, found without the cache:
    a data table's 40k numbers would push its 40k names out of it.
    """
    if word.isascii() and (word.isdigit() or (word.isalpha() and word.islower())):
        return (word,) if len(word) <= _MAX_TOKEN else ()
    return _compound_tokens(word)


@functools.lru_cache(maxsize=65536)
def _compound_tokens(word: str) -> tuple[str, ...]:
    """`word_tokens` of any other word. Cached: code repeats its identifiers, and this is
    the hot loop of indexing."""
    if len(word) > _MAX_TOKEN:
        return ()
    parts = split_identifier(word)
    if len(parts) <= 1:
        return tuple(parts)
    compound = word.lower()
    joined = compound.replace("_", "")
    head = (joined, compound) if "_" in compound else (joined,)
    return head + tuple(parts)


def words(text: str) -> list[str]:
    """The identifier-shaped words of `text` (letters and digits, joined by `_`)."""
    return (_ASCII_WORD if text.isascii() else _WORD).findall(text)


def iter_tokens(text: str) -> Iterator[str]:
    """Every lexical token of `text`: each compound identifier, then its parts."""
    for word in words(text):
        yield from word_tokens(word)


def tokens(text: str) -> list[str]:
    """All tokens of `text` as a list (see `iter_tokens`)."""
    return list(iter_tokens(text))


def lexical_text(*fields: str) -> str:
    """The whitespace-joined token string stored for BM25 indexing."""
    out: list[str] = []
    for f in fields:
        for word in words(f):
            out.extend(word_tokens(word))
    return " ".join(out)


def query_terms(query: str, *, drop_stop_words: bool = True) -> list[str]:
    """Distinct query tokens in order, and a name joined to its number as code writes it
    (`HTTP/2` also as `http2`); stop words dropped unless nothing else is left."""
    seen: dict[str, None] = {}
    for t in iter_tokens(query):
        seen.setdefault(t, None)
    for name, number in _NUMBERED.findall(query):
        seen.setdefault(f"{name}{number}".lower(), None)
    terms = list(seen)
    if drop_stop_words:
        kept = [t for t in terms if t not in STOP_WORDS]
        return kept or terms
    return terms


def is_identifier_like(query: str) -> bool:
    """True for queries that look like code names (`parse_header`, `Client.send`)."""
    words = query.strip().split()
    if not words or len(words) > 3:
        return False
    return any(
        "_" in w or "." in w.strip(".") or "::" in w or w.endswith("()") or _mixed_case(w)
        for w in words
    )


def _mixed_case(word: str) -> bool:
    """camelCase or PascalCase (`getUser`, `HTTPServer`) in a part of `word` between
    hyphens: "JSON-specific" and "Type-safe" are words, not names."""
    return any(
        (w[:1].islower() and any(c.isupper() for c in w))
        or (w[:1].isupper() and any(c.isupper() for c in w[1:]) and any(c.islower() for c in w))
        for w in word.split("-")
    )


def unique(items: Iterable[str]) -> list[str]:
    """Items in first-seen order without repeats."""
    return list(dict.fromkeys(items))
