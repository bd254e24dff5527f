"""C1 lookups: find a symbol by bare, qualified, prefix or misspelt name, best first."""

from __future__ import annotations

import bisect
import functools
import heapq
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from strata.layers import C1_SYMBOL_CATALOG
from strata.query.lookup.names import NameIndex, fold, max_typos
from strata.query.lookup.qualifiers import dotted, in_path
from strata.query.lookup.rows import (
    KeptRows,
    compiled_paths,
    derived,
    member_record,
    meta_str,
    record_json,
)
from strata.query.path_priors import is_vendored
from strata.store import Filter, Store, capabilities
from strata.text.langs import is_stub
from strata.text.tokens import split_identifier
from strata.types import JSON, Record

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["MATCHES", "SymbolIndex", "SymbolMatch", "closest", "find_symbols", "symbol_index"]

MATCHES = ("exact", "qualified", "prefix", "fuzzy")
# Score bands keep the tiers apart: exact/qualified >= 0.9 > prefix >= 0.6 > fuzzy.
# A loosely written exact name (`retry_policy`) scores 0.9-0.92, a dotted suffix 0.95, a
# name qualified by its path 0.93.
_PREFIX_BASE, _PREFIX_SPAN = 0.6, 0.29
_FUZZY_NAME, _FUZZY_PART = 0.55, 0.45
_IN_PATH = 0.93  # qualified by its package's path (`org.example.Cart`)
_AS_WRITTEN = _IN_PATH  # above: spelt as written; below, in another case (`retry_policy`)
# after a definition of the same score: a value named as it is another name (`#define a a64`)
_BOUND_KINDS = frozenset({"constant", "variable"})


@dataclass(frozen=True, slots=True)
class SymbolMatch:
    """One C1 record found for a name: how it matched (`exact`, `qualified`, ...) and how well."""

    record: Record
    match: str
    score: float
    qname: str  # the symbol's qualified name (`pkg.mod.Class.method`)

    @property
    def name(self) -> str:
        """The bare name (`method`; R's `print.glue` whole)."""
        return meta_str(self.record, "name") or self.qname.rsplit(".", 1)[-1]

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
    """One C1 row with the names every lookup compares, computed once."""

    rows: KeptRows
    pos: int
    qname: str
    name: str
    folded: str
    kind: str
    is_test: bool
    declared: bool = False  # declared without a body: a definition with one comes first
    implementation: bool = False  # in an impl block: a class's member of its qname comes first
    member: int = -1  # a data table's constant: its place in the block row's `members`

    @property
    def record(self) -> Record:
        rec = self.rows.record(self.pos)
        return rec if self.member < 0 else member_record(rec, self.member, self.qname)

    def qualified_by(self, qualifier: str) -> bool:
        """Whether the qname's parents end with `qualifier` (case-insensitive; "" always
        does). Only the prefix and fuzzy tiers ask, so the parents are not kept."""
        q = qualifier.casefold()
        parents = self.qname.rpartition(".")[0].casefold()
        return not q or parents == q or parents.endswith("." + q)


# A tier's find: (entry, how it matched, score).
_Found = tuple[_Entry, str, float]


class SymbolIndex:
    """Every C1 row, indexed by bare name, folded name and qname (and, once a typo-tolerant
    tier first asks, by identifier part and bigrams).

    Built from one Arrow table of the rows (a tenth of the memory of a `Record` per row:
    ~40 MB instead of ~200 MB for 38k symbols); records are made for the matches only.
    """

    def __init__(self, table: pa.Table, compiled: frozenset[str] = frozenset()) -> None:
        self.rows = KeptRows(table)
        self.compiled = compiled  # build output paths: after the sources they were built from
        self.entries: list[_Entry] = []
        self.by_name: dict[str, list[_Entry]] = {}
        self.by_fold: dict[str, list[_Entry]] = {}
        self.by_qname: dict[str, list[_Entry]] = {}
        # Symbol ids by hash: the ids themselves are long and live in the rows already.
        self._by_id: dict[int, list[_Entry]] = {}
        self.signed: list[tuple[_Entry, str]] = []  # signatures giving a default (`given`)
        columns = ("layer", "title", "kind", "is_test", "metadata")
        values = zip(*(table.column(c).to_pylist() for c in columns), strict=True)
        for pos, (layer, title, kind, is_test, meta_json) in enumerate(values):
            if layer != C1_SYMBOL_CATALOG:
                continue
            meta = json.loads(meta_json or "{}")
            if meta.get("members"):
                path = str(meta.get("symbol_id") or "").partition("::")[0]
                for e in _members(self.rows, pos, bool(is_test), meta):
                    self._add(e, f"{path}::{e.qname}")
            else:
                e = _entry(self.rows, pos, title or "", kind or "", bool(is_test), meta)
                self._add(e, str(meta.get("symbol_id") or ""))
                signature = meta.get("signature")
                if isinstance(signature, str) and "=" in signature:
                    self.signed.append((e, signature))
        self._folds = sorted(self.by_fold)

    def _add(self, e: _Entry, symbol_id: str) -> None:
        self.entries.append(e)
        self.by_name.setdefault(e.name, []).append(e)
        self.by_fold.setdefault(e.folded, []).append(e)
        self.by_qname.setdefault(e.qname, []).append(e)
        self._by_id.setdefault(hash(symbol_id), []).append(e)

    @functools.cached_property
    def names(self) -> NameIndex:
        """The folded bare names with a bigram index (typo tiers and "did you mean")."""
        return NameIndex(self.by_fold)

    @functools.cached_property
    def by_part(self) -> dict[str, list[_Entry]]:
        """Entries by identifier part (`policy` -> RetryPolicy, retry_policy, ...)."""
        out: dict[str, list[_Entry]] = {}
        for e in self.entries:
            for part in set(split_identifier(e.name)):
                out.setdefault(part, []).append(e)
        return out

    @functools.cached_property
    def parts(self) -> NameIndex:
        """The identifier parts with a bigram index."""
        return NameIndex(self.by_part)

    def record_of(self, symbol_id: str) -> Record | None:
        """The C1 record of a symbol id, if the index has it."""
        for e in self._by_id.get(hash(symbol_id), ()) if symbol_id else ():
            if meta_str(e.record, "symbol_id") == symbol_id:
                return e.record
        return None

    def find(
        self,
        name: str,
        kind: str | None = None,
        limit: int = 20,
        *,
        exact: bool = False,
    ) -> list[SymbolMatch]:
        """Matches for `name` (bare or dotted), best first; see `find_symbols`. A name written
        with a macro's `!` (`bail!`) that nothing defines so (Ruby's `save!`) is the macro's."""
        written = name.strip()
        if (
            written.endswith("!")
            and written.rstrip("!")
            and not self._exact(dotted(written), written)
        ):
            written = written.rstrip("!")
        query = dotted(written)
        if not query or limit <= 0:
            return []
        best: dict[tuple[int, int], _Found] = {}
        # Perl's `Pod::Text` is one name as written; a package's path (`org.apache.x.Y`,
        # `regex_syntax::ast::Parser`) qualifies a name whose qname does not hold it
        tiers = (self._exact,) if exact else (self._exact, self._prefix, self._fuzzy)
        for tier in tiers:
            # Score bands never overlap, so once `limit` are found later tiers cannot rank.
            if len(best) >= limit:
                break
            for found in self._exact(query, written) if tier == self._exact else tier(query):
                e, _, score = found
                if kind and e.kind != kind:
                    continue
                key = (e.pos, e.member)
                if key not in best or best[key][2] < score:
                    best[key] = found
        top = heapq.nsmallest(limit, best.values(), key=_rank)
        matches = [SymbolMatch(e.record, match, score, e.qname) for e, match, score in top]
        # of equals, a source before build output and vendored copies, then the one in the
        # file named after it (`sync/semaphore.rs`: the `Semaphore` users mean, not the
        # channels' private ones), then the shorter qname
        pairs = zip(top, matches, strict=True)
        order = {id(m): (_rank(f)[:5], self._copied(m), not _in_own_file(m)) for f, m in pairs}
        return sorted(matches, key=lambda m: order[id(m)])

    def _copied(self, m: SymbolMatch) -> bool:
        """The definition is a build's output or a vendored copy (strata.query.path_priors)."""
        return m.record.path in self.compiled or is_vendored(m.record.path)

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
    def _exact(self, query: str, written: str = "") -> list[_Found]:
        as_written = [(e, "exact", 1.0) for e in self.by_name.get(written, ())]
        if as_written and written != query:
            return as_written
        if "." not in query:
            same = [(e, "exact", 1.0) for e in self.by_name.get(query, ())]
            # `retrypolicy` or `retry_policy` for `RetryPolicy`: the same name, written loosely
            near = [
                (e, "exact", 0.92 if e.name.casefold() == query.casefold() else 0.9)
                for e in self.by_fold.get(fold(query), ())
                if e.name != query
            ]
            return same + near
        tail = query.rpartition(".")[2]
        # a name with a dot of its own (R's `print.glue`, `.onLoad`) as written, then qualified
        out = [(e, "exact", 1.0) for e in self.by_name.get(query, ())]
        out += [(e, "qualified", 1.0) for e in self.by_qname.get(query, ())]
        out += [
            (e, "qualified", 0.95)
            for e in self.by_name.get(tail, ())
            if e.qname.endswith("." + query)
        ]
        folded = "." + query.casefold()
        out += [
            (e, "qualified", 0.9)
            for e in self.by_fold.get(fold(tail), ())
            if e.name != tail and ("." + e.qname.casefold()).endswith(folded)
        ]
        return out or self._in_path(query)

    def _in_path(self, query: str) -> list[_Found]:
        """`org.apache.cordova.CordovaActivity`, `Newtonsoft.Json.JsonConvert`,
        `regex_syntax::ast::Parser`: a name qualified by its package or module, which the
        qname leaves out but the definition's path holds. Asked only when the name as
        written matched nothing; the longest part of the name its qname holds is read first."""
        parts = [p for p in query.split(".") if p]
        for cut in range(1, len(parts)):
            rest = ".".join(parts[cut:])
            found = [
                (e, "qualified", _IN_PATH)
                for e in self.by_name.get(parts[-1], ())
                if (e.qname == rest or e.qname.endswith("." + rest))
                and in_path(parts[:cut], e.record.path)
            ]
            if found:
                return found
        return []

    def _prefix(self, query: str) -> list[_Found]:
        qualifier, _, tail = query.rpartition(".")
        key = fold(tail)
        out: list[_Found] = []
        if not key:
            return out
        for folded in self._folds[bisect.bisect_left(self._folds, key) :]:
            if not folded.startswith(key):
                break
            if folded != key:
                score = _PREFIX_BASE + _PREFIX_SPAN * len(key) / len(folded)
                out += [
                    (e, "prefix", score) for e in self.by_fold[folded] if e.qualified_by(qualifier)
                ]
        return out

    def _fuzzy(self, query: str) -> list[_Found]:
        qualifier, _, tail = query.rpartition(".")
        key = fold(tail)
        found: list[tuple[_Entry, float]] = []
        for folded, dist in self.names.within(key, max_typos(key)):
            sim = 1.0 - dist / max(len(key), len(folded))
            found += [(e, _FUZZY_NAME * sim) for e in self.by_fold[folded]]
        words = split_identifier(tail)
        if len(words) == 1:  # one word may be a part of longer names: `policy` in RetryPolicy
            found += self._part_matches(words[0])
        return [(e, "fuzzy", score) for e, score in found if e.qualified_by(qualifier)]

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


def defined_kinds(store: Store, name: str) -> set[str]:
    """The kinds of the symbols spelt as `name` is (none: the index defines no such name),
    whole or qualified by a qname's or a path's parents (`Client.send`,
    `org.example.Cart`), not in another case; the router's `IndexFacts.defines`."""
    found = find_symbols(store, name, limit=10, exact=True)
    return {m.record.kind for m in found if m.score >= _AS_WRITTEN}


def closest(store: Store, name: str, n: int = 3) -> list[str]:
    """Up to `n` known bare names closest to `name` (for a helpful empty result)."""
    return symbol_index(store).closest(name, n=n)


def _build(store: Store) -> SymbolIndex:
    from strata.store.arrow import SEARCH_COLUMNS

    rows = capabilities.fetch_table(store, Filter(layers=(C1_SYMBOL_CATALOG,)), SEARCH_COLUMNS)
    return SymbolIndex(rows, compiled_paths(store))


def _entry(rows: KeptRows, pos: int, title: str, kind: str, is_test: bool, meta: Any) -> _Entry:
    qname = str(meta.get("qname") or title)
    name = str(meta.get("name") or qname.rpartition(".")[2])
    kind = str(meta.get("kind") or kind)
    # a stub's signature (`.pyi`, `.d.ts`) declares what its module's body defines
    declared = bool(meta.get("declaration")) or is_stub(
        str(meta.get("symbol_id") or "").partition("::")[0]
    )
    impl = bool(meta.get("implementation"))
    return _Entry(rows, pos, qname, name, fold(name), kind, is_test, declared, impl)


def _members(rows: KeptRows, pos: int, is_test: bool, meta: Any) -> list[_Entry]:
    """An entry per constant of a data table's block row."""
    module = str(meta.get("package_or_module") or "")
    out = []
    for i, name in enumerate(meta["members"]):
        qname = f"{module}.{name}" if module else str(name)
        out.append(_Entry(rows, pos, qname, name, fold(name), "constant", is_test, member=i))
    return out


def _rank(found: _Found) -> tuple[float, int, bool, bool, bool, bool, int, str]:
    e, match, score = found
    first = (-round(score, 6), MATCHES.index(match), e.is_test, e.declared, e.implementation)
    return (*first, e.kind in _BOUND_KINDS, len(e.qname), e.qname)


def _in_own_file(m: SymbolMatch) -> bool:
    """The definition is in a file named after it (`semaphore.rs`, `Engine.java`)."""
    stem = m.record.path.rsplit("/", 1)[-1].split(".", 1)[0]
    return fold(stem) == fold(m.name)
