"""A repository's query adapter (pure): a linear map of the embedding space, fitted on the
repository's own documented code, that moves a sentence's vector towards the code it
describes.

all-MiniLM-L6-v2 learnt sentences, not code: a doc comment's first sentence and the
undocumented code it describes sit far apart in its space, and how far depends on the
project's words and style. Every documented symbol of the project is an example of the
distance: its summary (the doc comment's first sentence, layer C1) and the text of its
chunk with the doc comment taken out, which is what an undocumented function looks like
to the embedder. A ridge regression towards the identity over those pairs,

    W = argmin |X W - Y|^2 + RIDGE |W - I|^2 = (X'X + RIDGE I)^-1 (X'Y + RIDGE I),

learns the move; a search takes `q + weight (q W - q)`, normalised, for the code rows and
`q` itself for the docs (measured: `docs/benchmarks.md`, "A query adapter fitted on the
project's own doc comments").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from strata.types import Record, Vector

__all__ = [
    "MAX_PAIRS",
    "MIN_PAIRS",
    "adapt",
    "candidates",
    "fit",
    "matches",
    "pairs",
    "strip_doc",
    "summary_of",
]

RIDGE = 1.0  # the pull towards the identity (the rows of X have unit length)
MAX_PAIRS = 1000  # a sample of a large project's documented symbols is as good
MIN_PAIRS = 20  # fewer: no adapter (a map of 384 x 384 from a handful of pairs is noise)
_MIN_WORDS = 3  # a summary of fewer words says too little to learn from
_COMMENT = ("//", "/*", "*", "#", "--", ";", "%", '"""', "'''", "=begin", "=pod", "@doc")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{3,}")


def summary_of(symbol: Record) -> str:
    """The summary a C1 row holds after its signature (or qualified name), or ""."""
    head = str(symbol.metadata.get("signature") or symbol.title or "")
    text = symbol.content
    if not head or not text.startswith(head):
        return ""
    summary = text[len(head) :].strip()
    return summary if len(summary.split()) >= _MIN_WORDS else ""


def strip_doc(text: str, summary: str) -> str:
    """`text` without the lines of its doc comment that `summary` came from: a comment line
    holding one of the summary's words, or any line holding two of them."""
    words = {w.lower() for w in _WORD.findall(summary)}
    kept = []
    for line in text.splitlines():
        shown = line.strip()
        hits = sum(w.lower() in words for w in shown.split())
        if (shown.startswith(_COMMENT) and hits >= 1) or hits >= 2:
            continue
        kept.append(line)
    return "\n".join(kept)


def candidates(symbols: Iterable[Record]) -> list[Record]:
    """The documented symbols outside the tests that `matches` may take, in its stable
    order: twice `MAX_PAIRS` of them, so that a large project's chunks are read only for
    the files a sample can come from (a symbol with no chunk around it is passed over)."""
    documented = [s for s in symbols if not s.is_test and summary_of(s)]
    documented.sort(key=lambda s: _stable(s.id))
    return documented[: 2 * MAX_PAIRS]


def pairs(
    symbols: Iterable[Record], chunks: Mapping[str, Sequence[Record]]
) -> list[tuple[str, str]]:
    """(summary, chunk text without its doc comment) for each of `matches`."""
    return [
        (summary, strip_doc(c.text_to_embed, summary)) for summary, c in matches(symbols, chunks)
    ]


def matches(
    symbols: Iterable[Record], chunks: Mapping[str, Sequence[Record]]
) -> list[tuple[str, Record]]:
    """(summary, its chunk) for every documented symbol outside the tests whose line falls
    in a code chunk (`chunks`: by path), a stable sample of `MAX_PAIRS` when there are more;
    the chunk is the smallest holding the symbol's line."""
    found: list[tuple[str, str, Record]] = []
    for sym in symbols:
        summary = "" if sym.is_test else summary_of(sym)
        if not summary:
            continue
        line = int(sym.metadata.get("decl_line") or sym.span_start or 0)
        around = [c for c in chunks.get(sym.path, ()) if _lines(c)[0] <= line <= _lines(c)[1]]
        if around:
            chunk = min(around, key=lambda c: _lines(c)[1] - _lines(c)[0])
            found.append((_stable(sym.id), summary, chunk))
    found.sort(key=lambda item: item[0])
    return [(summary, chunk) for _, summary, chunk in found[:MAX_PAIRS]]


def fit(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """The map W (dim x dim, float32) that takes the rows of `x` nearest the rows of `y`,
    pulled towards the identity by `ridge`."""
    dim = x.shape[1]
    eye = np.eye(dim, dtype=np.float64)
    a = x.T.astype(np.float64) @ x + ridge * eye
    b = x.T.astype(np.float64) @ y + ridge * eye
    return np.linalg.solve(a, b).astype(np.float32)


def adapt(vec: Vector, w: np.ndarray, weight: float) -> Vector:
    """`vec` moved `weight` of the way to `vec @ w`, at unit length (a matrix of vectors:
    each row so moved)."""
    q = np.asarray(vec, dtype=np.float32)
    moved = q + weight * (q @ w - q)
    norm = np.linalg.norm(moved, axis=-1, keepdims=True)
    safe = np.where(norm > 0, norm, 1.0)
    return np.where(norm > 0, moved / safe, q).astype(np.float32)


def _lines(rec: Record) -> tuple[int, int]:
    """A row's first and last line (a row without a span holds none)."""
    return (rec.span_start or 0, rec.span_end or -1)


def _stable(key: str) -> str:
    """An order of the symbols that a new file does not reshuffle (a hash of the id)."""
    return hashlib.blake2b(key.encode(), digest_size=8).hexdigest()
