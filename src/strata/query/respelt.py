"""A sentence's misspelt words, read as the code words they misspell: "how is the template
cahce cleared" searches `cache` too, and the embedder reads "cache".

A word is read so only when it is a plain lowercase word of `MIN_CHARS` letters or more,
no name of the index has it or its stem as a part (`LRUCache` has `cache`), exactly one
part is one edit from either (two as near: no guess; `reutrns` is one from `return` by its
stem), and BM25 finds nothing for it either (`retrieves` meets `retrieve` by its stem: no
typo). The vocabulary is the index's own: the parts of
its symbols' names (`strata.query.lookup.symbols`), so a word is only ever read as one the
code uses.
"""

from __future__ import annotations

import re

from strata.layers import PASSAGE_LAYERS
from strata.query.lookup.symbols import symbol_index
from strata.store import Filter, Store
from strata.store.bm25 import stemmer

__all__ = ["MIN_CHARS", "respelt"]

MIN_CHARS = 6  # shorter words are a typo of too many others (`cahe`: cache, cake, case)
# a lowercase word of prose: not `obj.member`, a path, a call or a quoted name
_WORD = re.compile(r"(?<![\w.`'/-])[a-z]{6,}(?![\w`/(-]|\.\w|'\w\w)")
_PASSAGES = Filter(layers=PASSAGE_LAYERS)


def respelt(store: Store, query: str) -> dict[str, str]:
    """Each misspelt word of `query` with the code word it stands for (none: {})."""
    words = sorted(set(_WORD.findall(query)))
    if not words:
        return {}
    index = symbol_index(store)
    stem = stemmer()
    out: dict[str, str] = {}
    for word in words:
        # the word and its stem: `reutrns` is one edit from `return`, not from a part
        forms = {word, stem.stemWord(word)} if stem else {word}
        if forms & index.by_part.keys():
            continue
        forms = {f for f in forms if len(f) >= MIN_CHARS - 1}  # `nested`'s `nest`: one from `next`
        # the parts one edit away, by stem (`commands` and `command` are one word)
        near = {form: [p for p, _ in index.parts.within(form, 1)] for form in sorted(forms)}
        found = [p for form in (word, *sorted(forms - {word})) for p in near.get(form, ())]
        stems = {stem.stemWord(p) if stem else p for p in found}
        if len(stems) == 1 and not store.lexical_search([word], 1, _PASSAGES):
            out[word] = found[0]  # the part written as the word is, when there is one
    return out
