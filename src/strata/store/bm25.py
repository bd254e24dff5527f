"""BM25 over the passage rows in memory, scored as LanceDB's full-text index scores them.

A warm query's BM25 half went through LanceDB's event-loop thread (the FTS query, its
Arrow result, two schema reads): ~14 ms per query on two busy cores, waiting behind the
other threads of a request. A warm process keeps this instead, beside the passage copy
(`strata.store.hot`): the passages' postings with their BM25 document weights, and each
term's idf from the whole table's statistics (every row of every layer is one document
of `lex_idx`). The numbers are LanceDB's own (lance `scalar/inverted/scorer.rs`):
`idf = ln((N - n + 0.5) / (n + 0.5) + 1)`, `(K1 + 1) f / (f + K1 (1 - B + B dl / avgdl))`,
K1 = 1.2, B = 0.75, float32; tokens are `lex` split at whitespace and English-stemmed
(Snowball, as the index's `FULL_TEXT` analysis); ties go to the lower row id.

Built per table version and trusted only after `agrees` checked it against LanceDB's
answers at that version (an index with rows it has not folded in yet scores otherwise).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["PassageBM25", "agrees", "stemmer"]

log = logging.getLogger(__name__)

K1 = np.float32(1.2)
B = np.float32(0.75)
# Scores that differ by less than this (relative) are the same float32 sum in another order.
SAME_SCORE = 1e-5


@functools.cache
def stemmer() -> Any | None:
    """The Snowball English stemmer (PyStemmer's C one under it when installed); None
    without the library: LanceDB then answers every BM25 query."""
    try:
        import snowballstemmer  # type: ignore[import-untyped]
    except ImportError:
        return None
    return snowballstemmer.stemmer("english")


@dataclass(frozen=True, slots=True)
class PassageBM25:
    """Per term (stem) of the passages: its idf and its postings (passage positions with
    their BM25 document weights), as one CSR over terms."""

    terms: dict[str, int]
    idf: np.ndarray  # float32, per term
    starts: np.ndarray  # CSR offsets: term t's postings are [starts[t], starts[t + 1])
    docs: np.ndarray  # passage positions (intp)
    weights: np.ndarray  # float32 document weights
    row_ids: np.ndarray  # per passage position: its LanceDB row id (ties go to the lower)

    @classmethod
    def build(
        cls, batches: Iterable[tuple[pa.Array, np.ndarray]], row_ids: np.ndarray
    ) -> PassageBM25:
        """From `lex` of every row of the table (every layer: the statistics are the whole
        index's), a batch at a time with each row's passage position (-1: not a passage);
        `row_ids`: the LanceDB row id per passage position."""
        counts = _Counts(len(row_ids))
        for lex, at in batches:
            counts.add(lex, at)
        return counts.finish(np.asarray(row_ids, dtype=np.uint64))

    def top(
        self, words: Sequence[str], limit: int, allowed: np.ndarray | None
    ) -> list[tuple[int, float]]:
        """Up to `limit` (passage position, BM25) pairs matching any of `words` (OR),
        among the positions `allowed` (a mask; None: all), best first."""
        stem = stemmer()
        if limit <= 0 or stem is None:
            return []
        ids = [self.terms[s] for s in stem.stemWords(list(words)) if s in self.terms]  # a twice
        scores = np.zeros(len(self.row_ids), dtype=np.float32)
        matched = np.zeros(len(self.row_ids), dtype=bool)
        for t in ids:
            at = self.docs[self.starts[t] : self.starts[t + 1]]
            scores[at] += self.idf[t] * self.weights[self.starts[t] : self.starts[t + 1]]
            matched[at] = True
        if allowed is not None:
            matched &= allowed
        found = np.flatnonzero(matched)
        if len(found) > limit:  # the band at the limit's score stays whole: ties by row id
            floor = np.partition(scores[found], len(found) - limit)[len(found) - limit]
            found = found[scores[found] >= floor]
        best = found[np.lexsort((self.row_ids[found], -scores[found]))][:limit]
        return [(int(i), float(scores[i])) for i in best]


class _Counts:
    """The statistics of `PassageBM25.build` gathered a batch of rows at a time (a whole
    table's token lists at once would be hundreds of megabytes)."""

    def __init__(self, passages: int) -> None:
        self.stem: Any = stemmer()
        assert self.stem is not None, "built only where the stemmer is installed"
        self.vocab: dict[str, int] = {}  # stem -> term id
        self.term_of: dict[str, int] = {}  # token -> term id
        self.df = np.zeros(0, dtype=np.int64)
        self.docs, self.tokens = 0, 0
        self.lengths = np.zeros(passages, dtype=np.float32)
        self.postings: list[tuple[np.ndarray, ...]] = [(np.zeros(0, np.int64),) * 3]

    def add(self, lex: pa.Array, at: np.ndarray) -> None:
        lists = pc.utf8_split_whitespace(pc.fill_null(lex, ""))
        lengths = pc.list_value_length(lists).to_numpy(zero_copy_only=False).astype(np.int64)
        self.docs, self.tokens = self.docs + len(lengths), self.tokens + int(lengths.sum())
        coded = pc.dictionary_encode(pc.list_flatten(lists))
        terms = self._terms(coded.dictionary.to_pylist())[coded.indices.to_numpy()]
        parents = pc.list_parent_indices(lists).to_numpy().astype(np.int64)
        size = max(1, len(self.vocab))
        pairs, freq = np.unique(parents * size + terms, return_counts=True)
        doc, term = np.divmod(pairs, size)
        if len(self.df) < len(self.vocab):
            self.df = np.concatenate([self.df, np.zeros(len(self.vocab) - len(self.df), np.int64)])
        self.df += np.bincount(term, minlength=len(self.vocab))
        mine = at >= 0
        self.lengths[at[mine]] = lengths[mine]
        keep = at[doc] >= 0  # postings of passages only
        self.postings.append((at[doc[keep]], term[keep], freq[keep]))

    def _terms(self, tokens: list[str]) -> np.ndarray:
        new = [t for t in tokens if t not in self.term_of]
        for token, stem in zip(new, self.stem.stemWords(new), strict=True):
            self.term_of[token] = self.vocab.setdefault(stem, len(self.vocab))
        return np.asarray([self.term_of[t] for t in tokens], dtype=np.int64)

    def finish(self, row_ids: np.ndarray) -> PassageBM25:
        n_docs, df = np.float32(self.docs), self.df.astype(np.float32)
        avgdl = np.float32(self.tokens) / n_docs  # as lance: f32 tokens / f32 documents
        idf = np.log((n_docs - df + np.float32(0.5)) / (df + np.float32(0.5)) + np.float32(1))
        doc, term, freq = (np.concatenate(p) for p in zip(*self.postings, strict=True))
        f = freq.astype(np.float32)
        norm = K1 * (np.float32(1) - B + B * self.lengths[doc] / avgdl)
        weights = (K1 + np.float32(1)) * f / (f + norm)
        order = np.argsort(term, kind="stable")
        starts = np.searchsorted(term[order], np.arange(len(self.vocab) + 1))
        return PassageBM25(
            self.vocab,
            idf.astype(np.float32),
            starts,
            doc[order].astype(np.intp),
            weights[order].astype(np.float32),
            row_ids,
        )


def agrees(
    mine: Callable[[list[str]], list[tuple[int, float]]],
    theirs: Callable[[list[str]], list[tuple[int, float]]],
    probes: Sequence[list[str]],
) -> bool:
    """Whether both answer every probe with the same rows in the same order (up to rows
    whose scores tie) and the same scores."""
    for words in probes:
        a, b = mine(words), theirs(words)
        if not _same(a, b):
            log.info("in-memory BM25 is not the full-text index's for %s: LanceDB answers", words)
            return False
    return True


def _same(a: list[tuple[int, float]], b: list[tuple[int, float]]) -> bool:
    """Same scores rank by rank, and each row both name scored alike; rows tied at the
    last score may differ (which of them the limit cuts is arbitrary)."""
    if len(a) != len(b) or not all(_close(x, y) for (_, x), (_, y) in zip(a, b, strict=True)):
        return False
    last = b[-1][1] if b else 0.0
    mine, theirs = ({r: s for r, s in rows if not _close(s, last)} for rows in (a, b))
    return mine.keys() == theirs.keys() and all(_close(s, theirs[r]) for r, s in mine.items())


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= SAME_SCORE * max(1.0, abs(y))
