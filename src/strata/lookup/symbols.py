"""C1 lookups: find a symbol by bare, qualified, prefix or misspelt name, best first."""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterable
from dataclasses import dataclass

from strata.layers import C1_SYMBOL_CATALOG
from strata.lookup.names import NameIndex, fold, max_typos, split_identifier
from strata.lookup.rows import derived, meta_str, record_json
from strata.store import Filter, Store
from strata.types import JSON, Record

__all__ = ["MATCHES", "SymbolIndex", "SymbolMatch", "closest", "find_symbols", "symbol_index"]

MATCHES = ("exact", "qualified", "prefix", "fuzzy")
# Score bands keep the tiers apart: exact/qualified >= 0.9 > prefix >= 0.6 > fuzzy.
# A loosely written exact name (`retry_policy`) scores 0.9-0.92, a dotted suffix 0.95.
_PREFIX_BASE, _PREFIX_SPAN = 0.6, 0.29
_FUZZY_NAME, _FUZZY_PART = 0.55, 0.45


@dataclass(frozen=True, slots=True)
class SymbolMatch:
    """One C1 record found for a name: how it matched (`exact`, `qualified`, ...) and how well."""

    record: Record
    match: str
    score: float
    qname: str  # the symbol's qualified name (`pkg.mod.Class.method`)

    @property
    def name(self) -> str:
        """The bare name (`method`)."""
        return self.qname.rsplit(".", 1)[-1]

    @property
    def symbol_id(self) -> str:
        """The stable symbol id (`<path>::<qname>`)."""
        return meta_str(self.record, "symbol_id")

    @property
    def kind(self) -> str:
        """`class`, `function`, `method`, ..."""
        return meta_str(self.record, "kind") or self.record.kind

    def to_json(self) -> JSON:
        """The record's JSON plus `match` and `score`."""
        return record_json(self.record, {"match": self.match, "score": round(self.score, 4)})


@dataclass(frozen=True, slots=True)
class _Entry:
    """A C1 record with the names every lookup compares, computed once."""

    record: Record
    qname: str
    name: str
    folded: str
    parents: str  # the qname without its name, case-folded

    def hit(self, match: str, score: float) -> SymbolMatch:
        return SymbolMatch(self.record, match, score, self.qname)

    def qualified_by(self, qualifier: str) -> bool:
        """Whether the parents end with `qualifier` (case-insensitive; "" always does)."""
        q = qualifier.casefold()
        return not q or self.parents == q or self.parents.endswith("." + q)


def _entry(record: Record) -> _Entry:
    qname = meta_str(record, "qname") or record.title
    parents, _, name = qname.rpartition(".")
    return _Entry(record, qname, name, fold(name), parents.casefold())


class SymbolIndex:
    """Every C1 record, indexed by bare name, folded name, identifier part and qname."""

    def __init__(self, records: Iterable[Record]) -> None:
        self.entries = [_entry(r) for r in records if r.layer == C1_SYMBOL_CATALOG]
        self.by_name: dict[str, list[_Entry]] = {}
        self.by_fold: dict[str, list[_Entry]] = {}
        self.by_part: dict[str, list[_Entry]] = {}
        self.by_qname: dict[str, list[_Entry]] = {}
        self.by_id: dict[str, Record] = {}
        for e in self.entries:
            self.by_name.setdefault(e.name, []).append(e)
            self.by_fold.setdefault(e.folded, []).append(e)
            self.by_qname.setdefault(e.qname, []).append(e)
            self.by_id.setdefault(meta_str(e.record, "symbol_id"), e.record)
            for part in set(split_identifier(e.name)):
                self.by_part.setdefault(part, []).append(e)
        self._folds = sorted(self.by_fold)
        self.names = NameIndex(self.by_fold)
        self.parts = NameIndex(self.by_part)

    def find(
        self, name: str, kind: str | None = None, limit: int = 20, *, exact: bool = False
    ) -> list[SymbolMatch]:
        """Matches for `name` (bare or dotted), best first; see `find_symbols`."""
        query = name.strip()
        if not query or limit <= 0:
            return []
        best: dict[str, SymbolMatch] = {}
        tiers = (self._exact,) if exact else (self._exact, self._prefix, self._fuzzy)
        for tier in tiers:
            # Score bands never overlap, so once `limit` are found later tiers cannot rank.
            if len(best) >= limit:
                break
            for m in tier(query):
                if kind and m.kind != kind:
                    continue
                if m.record.id not in best or best[m.record.id].score < m.score:
                    best[m.record.id] = m
        return heapq.nsmallest(limit, best.values(), key=_rank)

    def closest(self, name: str, n: int = 3) -> list[str]:
        """Bare names that look like `name`, for "no symbol named X; closest: ..."."""
        tail = name.strip().rsplit(".", 1)[-1]
        out: list[str] = []
        for key in self.names.closest(fold(tail), n=n, cutoff=0.4):
            for bare in sorted({e.name for e in self.by_fold[key]}):
                if bare not in out:
                    out.append(bare)
        return out[:n]

    # ---- tiers -----------------------------------------------------------------------------
    def _exact(self, query: str) -> list[SymbolMatch]:
        if "." not in query:
            same = [e.hit("exact", 1.0) for e in self.by_name.get(query, ())]
            # `retrypolicy` or `retry_policy` for `RetryPolicy`: the same name, written loosely
            near = [
                e.hit("exact", 0.92 if e.name.casefold() == query.casefold() else 0.9)
                for e in self.by_fold.get(fold(query), ())
                if e.name != query
            ]
            return same + near
        tail = query.rpartition(".")[2]
        out = [e.hit("qualified", 1.0) for e in self.by_qname.get(query, ())]
        out += [
            e.hit("qualified", 0.95)
            for e in self.by_name.get(tail, ())
            if e.qname.endswith("." + query)
        ]
        folded = "." + query.casefold()
        out += [
            e.hit("qualified", 0.9)
            for e in self.by_fold.get(fold(tail), ())
            if e.name != tail and ("." + e.qname.casefold()).endswith(folded)
        ]
        return out

    def _prefix(self, query: str) -> list[SymbolMatch]:
        qualifier, _, tail = query.rpartition(".")
        key = fold(tail)
        out: list[SymbolMatch] = []
        if not key:
            return out
        for folded in self._folds[bisect.bisect_left(self._folds, key) :]:
            if not folded.startswith(key):
                break
            if folded != key:
                score = _PREFIX_BASE + _PREFIX_SPAN * len(key) / len(folded)
                out += [
                    e.hit("prefix", score)
                    for e in self.by_fold[folded]
                    if e.qualified_by(qualifier)
                ]
        return out

    def _fuzzy(self, query: str) -> list[SymbolMatch]:
        qualifier, _, tail = query.rpartition(".")
        key = fold(tail)
        found: list[tuple[_Entry, float]] = []
        for folded, dist in self.names.within(key, max_typos(key)):
            sim = 1.0 - dist / max(len(key), len(folded))
            found += [(e, _FUZZY_NAME * sim) for e in self.by_fold[folded]]
        words = split_identifier(tail)
        if len(words) == 1:  # one word may be a part of longer names: `policy` in RetryPolicy
            found += self._part_matches(words[0])
        return [e.hit("fuzzy", score) for e, score in found if e.qualified_by(qualifier)]

    def _part_matches(self, word: str) -> list[tuple[_Entry, float]]:
        """Symbols one of whose identifier parts is `word`, or `word` misspelt."""
        found = [(word, 0)] if word in self.by_part else []
        found += self.parts.within(word, max_typos(word))
        out = []
        for part, dist in found:
            sim = 1.0 - dist / max(len(word), len(part))
            for e in self.by_part[part]:
                share = len(part) / max(len(e.folded), 1)
                out.append((e, _FUZZY_PART * sim * (0.5 + 0.5 * share)))
        return out


def symbol_index(store: Store) -> SymbolIndex:
    """The store's `SymbolIndex`, built once per store version."""
    return derived(store, "symbols", _build)


def find_symbols(
    store: Store, name: str, *, kind: str | None = None, limit: int = 20, exact: bool = False
) -> list[SymbolMatch]:
    """C1 records for a name, best first.

    Tiers, in order: `exact` bare name (case-insensitive ranks lower), `qualified` (the
    whole qname, or a dotted suffix of it: `Client.send`), `prefix` of the bare name,
    `fuzzy` (a misspelt name or identifier part). An unknown name gives [] (see `closest`).

    Args:
        store: the index's store.
        name: a bare (`send`) or dotted (`Client.send`, `pkg.client.Client.send`) name.
        kind: only symbols of this kind (`class`, `function`, `method`, ...).
        limit: at most this many matches.
        exact: only the `exact` and `qualified` tiers (they always rank above the others).
    """
    return symbol_index(store).find(name, kind=kind, limit=limit, exact=exact)


def closest(store: Store, name: str, n: int = 3) -> list[str]:
    """Up to `n` known bare names closest to `name` (for a helpful empty result)."""
    return symbol_index(store).closest(name, n=n)


def _build(store: Store) -> SymbolIndex:
    return SymbolIndex(store.fetch(Filter(layers=(C1_SYMBOL_CATALOG,)), vectors=False))


def _rank(m: SymbolMatch) -> tuple[float, int, bool, int, str]:
    tier = MATCHES.index(m.match)
    return (-round(m.score, 6), tier, m.record.is_test, len(m.qname), m.qname)
