"""The BM25 baselines: bm25s over the engine's own chunks, with two tokenisers.

Both see exactly the records the engine indexed (same paths, spans and text), so the
difference between them and Strata is the ranking, not the chunking.

- `bm25s baseline` (`plain_tokens`): the naive tokens a user would write first —
  lowercase runs of word characters, no identifier splitting, stop words or stemming.
- `code-aware BM25` (`code_tokens` + `record_tokens`): the baseline to beat. Identifiers
  are split (`parse_header`, `getHTTPResponse` -> their parts, the whole name kept too),
  English stop words dropped, every token stemmed (Snowball English), and each record
  also carries its path's tokens (directories, file stem) and its qualified name's
  (`Context.invoke` -> `context.invoke`, `context`, `invoke`). A query goes through the
  same tokeniser, so `Context.invoke` and "where is invoke defined" both reach the record.

This tokeniser is written here, independently of Strata's (only the stop-word list is
shared), so that a bug in Strata's own tokens is not silently shared by the baseline it is
measured against.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from benchmarks.quality.metrics import Retrieved
from strata.text.tokens import STOP_WORDS as _STOP
from strata.types import Record

_WORD = re.compile(r"\w+")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*|\d+")
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

Tokenizer = Callable[[str], list[str]]


def plain_tokens(text: str) -> list[str]:
    """Lowercase word tokens: `parse_header(raw)` -> [`parse_header`, `raw`]."""
    return _WORD.findall(text.lower())


@functools.cache
def _stemmer() -> Callable[[str], str]:
    import snowballstemmer

    return functools.lru_cache(maxsize=200_000)(snowballstemmer.stemmer("english").stemWord)


@functools.lru_cache(maxsize=200_000)
def _identifier_tokens(ident: str) -> tuple[str, ...]:
    """`Context.invoke` -> context.invoke, context, invoke; `parse_header` -> parse_header,
    pars, header; `HTTPServer` -> httpserver, http, server (parts stemmed, stop words out)."""
    stem = _stemmer()
    whole: list[str] = []  # compound names stay as written (lowercased), unstemmed
    parts: list[str] = []
    pieces = re.split(r"\.|::|->", ident)
    if len(pieces) > 1:
        whole.append(ident.lower().replace("::", ".").replace("->", "."))
    for piece in pieces:
        split = [p.lower() for p in _PARTS.findall(piece)]
        if len(split) > 1:
            whole.append(piece.lower().strip("_$"))
        parts += [stem(p) for p in split if p not in _STOP]
    return tuple(whole + parts)


def code_tokens(text: str) -> list[str]:
    """Code-aware tokens of a text: split identifiers (whole names kept), stems, no stop words."""
    out: list[str] = []
    for ident in _IDENT.findall(text):
        out.extend(_identifier_tokens(ident))
    return out


def record_tokens(record: Record) -> list[str]:
    """A record's tokens: its text, its path (directories and file name) and its title
    (the qualified name of a code unit, the heading of a section)."""
    return code_tokens(record.content) + code_tokens(record.path) + code_tokens(record.title)


class Bm25Baseline:
    """A bm25s index over a fixed list of records, with one tokeniser for both sides."""

    def __init__(
        self,
        records: Sequence[Record],
        *,
        name: str = "bm25s baseline",
        query_tokens: Tokenizer = plain_tokens,
        doc_tokens: Callable[[Record], list[str]] | None = None,
    ) -> None:
        import bm25s

        self.name = name
        self._query_tokens = query_tokens
        self._records = list(records)
        docs = doc_tokens or (lambda r: query_tokens(r.content))
        self._index = bm25s.BM25()
        self._index.index([docs(r) for r in self._records], show_progress=False)

    @classmethod
    def code_aware(cls, records: Sequence[Record]) -> Bm25Baseline:
        """The code-aware BM25 baseline (see the module docstring)."""
        return cls(
            records, name="code-aware BM25", query_tokens=code_tokens, doc_tokens=record_tokens
        )

    def search(self, query: str, k: int = 10) -> list[Retrieved]:
        """The top `k` records with a positive score, best first."""
        tokens = self._query_tokens(query)
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
