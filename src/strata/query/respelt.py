"""A sentence's misspelt words, read as the code words they misspell: "how is the template
cahce cleared" searches `cache` too, and the embedder reads "cache".

A word is read so only when it is a plain lowercase word of `MIN_CHARS` letters or more,
no name of the index has it or its stem as a part (`LRUCache` has `cache`), exactly one
part is one edit from either (two as near: no guess; `reutrns` is one from `return` by its
stem), and BM25 finds nothing for it either (`retrieves` meets `retrieve` by its stem: no
typo). The vocabulary is the index's own: the parts of
its symbols' names (read from the catalog's titles alone, once per store version), so a
word is only ever read as one the code uses.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from strata.layers import C1_SYMBOL_CATALOG
from strata.query.lookup.names import NameIndex
from strata.query.lookup.rows import derived
from strata.query.lookup.spelling import searchable
from strata.store import Filter, Store, capabilities
from strata.store.bm25 import stemmer
from strata.text.tokens import query_terms, split_identifier

__all__ = ["MIN_CHARS", "respelt", "respelt_query"]

MIN_CHARS = 6  # shorter words are a typo of too many others (`cahe`: cache, cake, case)
# a lowercase word of prose: not `obj.member`, a path, a call or a quoted name
_WORD = re.compile(r"(?<![\w.`'/-])[a-z]{6,}(?![\w`/(-]|\.\w|'\w\w)")


def respelt(store: Store, query: str) -> dict[str, str]:
    """Each misspelt word of `query` with the code word it stands for (none: {})."""
    words = sorted(set(_WORD.findall(query)))
    if not words:
        return {}
    vocabulary = _vocabulary(store)
    stem = stemmer()
    out: dict[str, str] = {}
    for word in words:
        # the word and its stem: `reutrns` is one edit from `return`, not from a part
        forms = {word, stem.stemWord(word)} if stem else {word}
        if forms & vocabulary.parts:
            continue
        # the parts one edit from the word, then from its stem (`commands` and `command` are
        # one word); a stem is a cut word, so only two letters swapped or one left out count
        # (`compon` is no typo of `common`), and not below five letters (`nest`, `next`)
        found = [p for p, _ in vocabulary.index.within(word, 1)]
        for form in forms - {word}:
            near = vocabulary.index.within(form, 1) if len(form) >= MIN_CHARS - 1 else []
            found += [p for p, _ in near if _swapped_or_short(form, p)]
        stems = {stem.stemWord(p) if stem else p for p in found}
        if len(stems) == 1 and not searchable(store, word):
            out[word] = found[0]  # the part written as the word is, when there is one
    return out


def respelt_query(query: str, fixed: Mapping[str, str], notes: list[str]) -> tuple[str, list[str]]:
    """The query with its misspelt words written as the code words they stand for."""
    for wrong, right in fixed.items():
        query = re.sub(rf"\b{wrong}\b", right, query)
    read = ", ".join(f"{wrong!r} as {right!r}" for wrong, right in fixed.items())
    notes.append(f"read {read}: the index has no such word")
    return query, query_terms(query)[:64]


def _swapped_or_short(form: str, part: str) -> bool:
    """`part` is `form` with two letters swapped, or with one letter more."""
    return sorted(form) == sorted(part) or len(part) == len(form) + 1


@dataclass(frozen=True, slots=True)
class _Vocabulary:
    parts: frozenset[str]  # every part of every name (`lru`, `cache`, `clear`, ...)
    index: NameIndex  # the same, for near words


def _vocabulary(store: Store) -> _Vocabulary:
    return derived(store, "name_parts", _read_vocabulary)


def _read_vocabulary(store: Store) -> _Vocabulary:
    """The parts of the symbol catalog's titles (`LRUCache.clear_cache`: lru, cache, clear)."""
    where = Filter(layers=(C1_SYMBOL_CATALOG,))
    titles = capabilities.fetch_table(store, where, ["title"]).column("title").to_pylist()
    parts = frozenset(
        p
        for title in titles
        if title
        for name in re.split(r"\W+", title)
        for p in split_identifier(name)
    )
    return _Vocabulary(parts, NameIndex(parts))
