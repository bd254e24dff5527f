"""The one defined name a misspelt or cut-short name stands for, when only one is that close.

`Environmnet` -> `Environment`, `get_templat` -> `get_template`, `Client.recieve` ->
`Client.receive`. A name is read as a typo only when

- it has `MIN_CHARS` letters or more and the index defines no name so folded;
- exactly one folded name of the index is nearest to it (two names as near: no guess),
  within `max_typos` edits for a compound name (`get_templat`) and one edit for a single
  word (`routing` is two from `Grouping`, and another word, not a typo);
- the name itself is written nowhere in the index's passages (a word the text uses is no
  typo, even when nothing defines it: a config key, a term of the docs).

The router reads a plain word as a name only when, besides, BM25 finds nothing for it
(`tokens` meets `Token` by its stem: a topic the text search answers, not a typo).
"""

from __future__ import annotations

import re

from strata.layers import PASSAGE_LAYERS
from strata.query.lookup.names import edit_distance, fold, max_typos
from strata.query.lookup.symbols import symbol_index
from strata.store import Filter, Store
from strata.text.tokens import query_terms, split_identifier

__all__ = ["MIN_CHARS", "meant", "meant_note", "misspelt_word", "searchable"]

MIN_CHARS = 5  # shorter names (`sned`, `gte`) are a typo of too many others to guess
_PASSAGES = Filter(layers=PASSAGE_LAYERS)


def meant_note(name: str, fixed: str) -> str:
    """What a user is told of a name read as the one it misspells."""
    return f"no symbol named {name!r}; showing {fixed!r}, the one defined name this close"


def misspelt_word(store: Store, word: str) -> str | None:
    """The defined name a plain word the router reads stands for (`meant`), when BM25 also
    finds nothing for the word; the router's `IndexFacts.meant`."""
    fixed = meant(store, word)
    return fixed if fixed and not searchable(store, word) else None


def meant(store: Store, name: str) -> str | None:
    """The defined name `name` is a typo of (qualified as `name` is), or None."""
    qualifier, _, tail = name.strip().replace("::", ".").rpartition(".")
    key = fold(tail)
    index = symbol_index(store)
    if key in index.by_fold:  # a name of the index, written loosely: the exact tier's
        return _qualifier_meant(store, qualifier, tail) if qualifier else None
    if len(key) < MIN_CHARS:
        return None
    nearest = _nearest(index.names.within(key, _typos(key, tail)))
    if len(nearest) != 1:
        return None
    entries = index.by_fold[nearest[0]]
    spellings = {e.name for e in entries if e.qualified_by(qualifier)}
    if _written(store, tail):
        return None
    if not spellings:  # `Environmnt.get_templat`: the qualifier misspelt as well
        unqualified = {e.name for e in entries}
        return _qualifier_meant(store, qualifier, _likest(tail, unqualified)) if qualifier else None
    bare = _likest(tail, spellings)
    return f"{qualifier}.{bare}" if qualifier else bare


def _likest(written: str, spellings: set[str]) -> str:
    """Of `Environment` and `environment`, the one written most like the question's."""
    return min(spellings, key=lambda s: (edit_distance(written, s, len(s) + len(written)), s))


def _qualifier_meant(store: Store, qualifier: str, tail: str) -> str | None:
    """`Enviroment.get_template`: a defined name whose qualifier's last part misspells the
    one parent of that name this close (by the rules of `meant`), written nowhere."""
    index = symbol_index(store)
    entries = index.by_fold[fold(tail)]
    if any(e.qualified_by(qualifier) for e in entries):
        return None
    head, _, last = qualifier.rpartition(".")
    key = fold(last)
    parents = {fold(p): p for e in entries if (p := e.qname.rpartition(".")[0].rpartition(".")[2])}
    if len(key) < MIN_CHARS or key in parents:
        return None
    typos = _typos(key, last)
    near = sorted((d, k) for k in parents if (d := edit_distance(key, k, typos + 1)) <= typos)
    nearest = _nearest([(k, d) for d, k in near])
    if len(nearest) != 1 or _written(store, last):
        return None
    fixed = f"{head}.{parents[nearest[0]]}" if head else parents[nearest[0]]
    return f"{fixed}.{tail}"


def _typos(key: str, word: str) -> int:
    """Edits a misspelt name may carry: a compound name's by its length, a single word one."""
    return max_typos(key) if len(split_identifier(word)) > 1 else 1


def _nearest(near: list[tuple[str, int]]) -> list[str]:
    """The folded names of `near` (name, distance; nearest first) at the least distance."""
    return [k for k, dist in near if dist == near[0][1]] if near else []


def _written(store: Store, word: str) -> bool:
    """Whether a passage (code or docs) holds `word` as a word, in any case: among the
    first BM25 hits for it, where a passage holding it as written ranks."""
    terms = query_terms(word)
    if not terms:
        return False
    spelt = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
    return any(spelt.search(rec.content) for rec, _ in store.lexical_search(terms, 10, _PASSAGES))


def searchable(store: Store, word: str) -> bool:
    """Whether BM25 finds the word whole (by its stem; not only its parts) in a passage."""
    whole = [t for t in query_terms(word) if t.replace("_", "") == fold(word)]
    return bool(whole) and bool(store.lexical_search(whole, 1, _PASSAGES))
