"""Pseudo-relevance feedback (pure): the code names the first hits of a sentence share.

A question in words ("where is the timestamp string produced") often misses the name
the answer is written with (`_make_stamper`), while the chunks it does find call or
mention that name. The identifiers that at least `MIN_RECORDS` of the first `HEAD` fused
candidates hold, and that the query does not, are added to its words for one more BM25
list (`feedback`), fused beside the others with the weight `search.feedback` (0: off).
Measured on the whole benchmark (docs/benchmarks.md, "Questions' recall (session 9)").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from strata.query.ranking import fused_order, rrf
from strata.text.tokens import STOP_WORDS, is_identifier_like, word_tokens, words
from strata.types import Record

HEAD = 3  # fused candidates read for names
EXPAND = 3  # names added at most
MIN_RECORDS = 2  # a name must be in this many of them (one chunk's own names are noise)
MIN_CHARS = 4  # shorter names (`id`, `fn`) say little
RRF_K = 5


def code_names(text: str) -> set[str]:
    """The code-shaped words of `text` (`snake_case`, `camelCase`, `Pascal` with an inner
    capital), each as the lexical token of the whole name (`_make_stamper` -> `make_stamper`,
    `getHeader` -> `getheader`)."""
    out: set[str] = set()
    for w in words(text):
        if len(w) >= MIN_CHARS and is_identifier_like(w) and word_tokens(w):
            out.add(w.lower())  # the compound token (`word_tokens` drops an over-long word)
    return out


def head(lists: Mapping[str, Sequence[tuple[Record, float]]], n: int = HEAD) -> list[Record]:
    """The first `n` candidates of the BM25 and vector lists fused (plain RRF)."""
    named = {name: lists[name] for name in ("lexical", "semantic") if name in lists}
    records = {r.id: r for pairs in named.values() for r, _ in pairs}
    fused = rrf({name: [r.id for r, _ in pairs] for name, pairs in named.items()}, k=RRF_K)
    return [records[rid] for rid in fused_order(fused)[:n]]


def expansion(first: Sequence[Record], terms: Sequence[str]) -> list[str]:
    """Names held by at least `MIN_RECORDS` of `first` and not among the query's `terms`,
    most shared first (ties: the order they were first met), at most `EXPAND`."""
    counts: Counter[str] = Counter()
    order: dict[str, int] = {}
    for rec in first:
        for name in sorted(code_names(rec.content)):
            counts[name] += 1
            order.setdefault(name, len(order))
    have = set(terms)
    kept = [
        t for t, c in counts.items() if c >= MIN_RECORDS and t not in have and t not in STOP_WORDS
    ]
    return sorted(kept, key=lambda t: (-counts[t], order[t]))[:EXPAND]
