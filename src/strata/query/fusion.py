"""Fusing code and docs fairly (pure): each record ranked among its own kind (code or docs)
in every list, each kind's floor in the pool (the hybrid search's `search.fair_kinds` and
`search.kind_floor`), and each list's first that stands far above its rival (`standouts`)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from strata.query import ranking
from strata.types import Record

__all__ = ["fair_rrf", "heads", "kind_floor", "standouts"]


def fair_rrf(
    rankings: Mapping[str, Sequence[str]],
    records: Mapping[str, Record],
    weights: Mapping[str, float],
    k: int,
) -> dict[str, dict[str, float]]:
    """Weighted RRF with each record ranked among its own kind (code or docs) in every
    list: a docs section is not pushed down by code chunks that repeat the words, nor the
    other way round; the parts keep their retrievers' names."""
    out: dict[str, dict[str, float]] = {}
    for name, ids in rankings.items():
        for kind in ("C", "D"):
            same = [i for i in ids if records[i].layer[:1] == kind]
            for rid, parts in ranking.rrf({name: same}, weights=weights, k=k).items():
                out.setdefault(rid, {}).update(parts)
    return out


def kind_floor(pairs: Sequence[tuple[Record, float]], n: int) -> list[tuple[Record, float]]:
    """A list's first `n` candidates, then, for a kind (code or docs) with fewer than
    `n // 2` among them, its next ones from deeper in the list up to that many: the fair
    fusion ranks each kind among its own, so a kind the other crowds out of the pool would
    lose the other list's evidence for its candidates (`search.kind_floor`, off by default:
    docs questions Recall@10 .795 -> .830, MRR@10 .606 -> .601; docs/benchmarks.md)."""
    head = list(pairs[:n])
    count: dict[str, int] = {}
    for rec, _ in head:
        count[rec.layer[:1]] = count.get(rec.layer[:1], 0) + 1
    for rec, score in pairs[n:]:
        kind = rec.layer[:1]
        if count.get(kind, 0) < n // 2:
            head.append((rec, score))
            count[kind] = count.get(kind, 0) + 1
    return head


def heads(
    lists: Mapping[str, Sequence[tuple[Record, float]]], *, by_kind: bool
) -> list[dict[str, list[tuple[str, float]]]]:
    """Each list's first candidate and its nearest rival, for the standouts; `by_kind`:
    the code chunks and the doc sections apart, as the fair fusion ranks each among its
    kind (measured: a section far above the other sections is a confident answer even
    when code leads the list; docs questions +.027 MRR@10, developer questions +.013).
    In BM25's list a code chunk of the first's own name in its file (an overload, or the
    rest of a long definition) is no rival: the lead that counts is over the next other
    name (measured: `nl-solidity` .283 -> .318; in the vectors' list as well, docs
    questions lost two first places)."""
    if not by_kind:
        return [{name: _rivals(pairs, name) for name, pairs in lists.items()}]
    return [
        {
            name: _rivals([p for p in pairs if p[0].layer[:1] == kind], name)
            for name, pairs in lists.items()
        }
        for kind in ("C", "D")
    ]


def _rivals(pairs: Sequence[tuple[Record, float]], name: str) -> list[tuple[str, float]]:
    """The first candidate and its rival: the next, past the first's namesakes in BM25's
    list (`_namesake`)."""
    if not pairs:
        return []
    first = pairs[0][0]
    skip = name == "lexical" and bool(first.title)
    rest = ((r, s) for r, s in pairs[1:] if not (skip and _namesake(r, first)))
    return [(first.id, pairs[0][1]), *((r.id, s) for r, s in itertools.islice(rest, 1))]


def _namesake(rec: Record, first: Record) -> bool:
    """A code chunk of `first`'s name in its file: an overload, or another piece of it."""
    return rec.layer[:1] == "C" and rec.title == first.title and rec.path == first.path


# A list's first candidate that stands far above its second is a confident answer, which
# the other list may rank low or miss: when both lists are fused it gets STANDOUT_BOOST
# rank-1 units. Far above: BM25, the second's score under (1 - STANDOUT_SHARE) of the
# first's; vectors, a cosine STANDOUT_COSINE lower (all-MiniLM-L6-v2's scale). Measured
# over the whole benchmark: every set the same or higher, no Recall@10 moved.
STANDOUT_BOOST = 1.0
STANDOUT_SHARE = 0.25
STANDOUT_COSINE = 0.06


def standouts(lists: Mapping[str, Sequence[tuple[str, float]]], *, k: int) -> dict[str, float]:
    """The `standout` part of the lexical and the semantic list's first candidate, for
    each whose lead over the second is that wide (nothing unless both lists are here)."""
    if STANDOUT_BOOST <= 0 or not {"lexical", "semantic"} <= lists.keys():
        return {}
    out: dict[str, float] = {}
    for name, pairs in lists.items():
        if name not in ("lexical", "semantic") or len(pairs) < 2 or pairs[0][1] <= 0:
            continue
        (first, best), (_, second) = pairs[0], pairs[1]
        wide = (
            second <= (1 - STANDOUT_SHARE) * best
            if name == "lexical"
            else best - second >= STANDOUT_COSINE
        )
        if wide:
            out[first] = out.get(first, 0.0) + STANDOUT_BOOST / (k + 1)
    return out
