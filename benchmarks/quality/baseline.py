"""The bare BM25 baseline: bm25s over the engine's own chunks, plain lowercase word tokens.

It sees exactly the records the engine indexed (same paths, spans and text), so the
difference between it and Strata is the ranking, not the chunking. Its tokens are the
naive ones a user would write first: lowercase runs of word characters, no identifier
splitting, no stop words, no stemming.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchmarks.quality.metrics import Retrieved
from strata.types import Record

_WORD = re.compile(r"\w+")


def plain_tokens(text: str) -> list[str]:
    """Lowercase word tokens: `parse_header(raw)` -> [`parse_header`, `raw`]."""
    return _WORD.findall(text.lower())


class Bm25Baseline:
    """A bm25s index over a fixed list of records."""

    name = "bm25s-baseline"

    def __init__(self, records: Sequence[Record]) -> None:
        import bm25s

        self._records = list(records)
        self._index = bm25s.BM25()
        self._index.index([plain_tokens(r.content) for r in self._records], show_progress=False)

    def search(self, query: str, k: int = 10) -> list[Retrieved]:
        """The top `k` records with a positive score, best first."""
        tokens = plain_tokens(query)
        if not tokens or not self._records:
            return []
        k = min(k, len(self._records))
        docs, scores = self._index.retrieve([tokens], k=k, show_progress=False)
        return [
            _retrieved(self._records[int(i)])
            for i, s in zip(docs[0], scores[0], strict=True)
            if s > 0
        ]


def _retrieved(record: Record) -> Retrieved:
    return Retrieved(record.path, record.span_start, record.span_end)
