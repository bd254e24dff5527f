"""A repository's query adapter (pure): a linear map of the embedding space, fitted on the
repository's own documented code, that moves a sentence's vector towards the code it
describes.

all-MiniLM-L6-v2 learnt sentences, not code: a doc comment's first sentence and the
undocumented code it describes sit far apart in its space, and how far depends on the
project's words and style. Every documented symbol of the project is an example of the
distance: its summary (the doc comment's first sentence, layer C1) and the text of its
chunk with the whole doc comment taken out, which is what an undocumented function looks
like to the embedder. The comment's next sentences are each a pair with that text too
(up to `SENTENCES` in all). A ridge regression towards the identity over those pairs,

    W = argmin |X W - Y|^2 + RIDGE |W - I|^2 = (X'X + RIDGE I)^-1 (X'Y + RIDGE I),

learns the move; a search takes `q + weight (q W - q)`, normalised, for the code rows
(measured: `docs/benchmarks.md`, "A query adapter fitted on the project's own doc
comments").

The docs get a map of their own, fitted the same way on the project's documentation
sections (`section_pairs`): the lead sentence of a paragraph with the section without
that paragraph, and a heading with the section under it, which is how a section looks to
a question that says what the section says in other words. A kind with too few pairs gets
no map (`no_map`: all zeros).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np

from strata.text.doctags import PROSE_TAG, TAG
from strata.types import Record, Vector

__all__ = [
    "MAX_PAIRS",
    "MAX_SECTIONS",
    "MIN_PAIRS",
    "adapt",
    "candidates",
    "doc_block",
    "fit",
    "matches",
    "no_map",
    "pairs",
    "section_pairs",
    "sections",
    "summary_of",
]

RIDGE = 1.0  # the pull towards the identity (the rows of X have unit length)
MAX_PAIRS = 1000  # a sample of a large project's documented symbols is as good
SENTENCES = 3  # a doc comment's first sentences, a pair each (measured: docs/benchmarks.md)
MIN_PAIRS = 20  # fewer: no adapter (a map of 384 x 384 from a handful of pairs is noise)
_MIN_WORDS = 3  # a summary of fewer words says too little to learn from
_COMMENT = ("//", "/*", "*", "#", "--", ";", "%", '"""', "'''", "=begin", "=pod", "@doc")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{3,}")
_DIRECTIVE = re.compile(r"#[A-Za-z_\[!]")
_TRIPLE = re.compile(r'"""|\'\'\'')
# a comment line's marker: `///`, `/**`, `*`, `*/`, `#`, `-- |`, `;;`, `%`, `@doc """`
_MARKER = re.compile(
    r'^\s*(?:/{2,}!?|/\*+|\*+/?|#+|--+\s*[|^]?|;+|%+|@\w+doc\b|=\w+)|\*+/\s*$|"""|\'\'\''
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"@(\[])")
# Where a tag begins inside a comment's text: a sentence ends there, and a tag's own text
# (`doctags.TAG`) runs on over the comment's next lines.
_TAG_START = re.compile(r"\s+(?=[@\\][a-z]+\b)")
MAX_SECTIONS = 500  # a sample of a large documentation's sections (up to eight texts each)
_LEAD_WORDS = (6, 60)  # a paragraph's lead sentence that can stand for its section
_FENCE = re.compile(r"^\s*(?:```|~~~)")
# a line that begins no prose paragraph: a list item, a table row, a quote, an image or a
# link, HTML, a heading or its underline
_NOT_PROSE = re.compile(r"^\s*(?:[-*+|>!<\[]|\d+[.)]\s|#|=+\s*$)")
_HEADING_LINE = re.compile(r"^\s*#{1,6}\s")


def summary_of(symbol: Record) -> str:
    """The summary a C1 row holds after its signature (or qualified name), without a tag
    that only says prose follows (an index built before the tag was dropped there), or ""
    (too short, or another tag's text: `\\return ...`)."""
    head = str(symbol.metadata.get("signature") or symbol.title or "")
    text = symbol.content
    if not head or not text.startswith(head):
        return ""
    summary = _prose(text[len(head) :])
    return summary if len(summary.split()) >= _MIN_WORDS and not TAG.match(summary) else ""


def doc_block(text: str, summary: str) -> tuple[str, str]:
    """`text` without the whole doc comment `summary` came from, and that comment's words:
    each comment line holding one of the summary's words and each line holding two of them,
    with the rest of its comment block (the comment lines next to it, or the triple-quoted
    docstring it is in)."""
    lines = text.splitlines()
    said = _said(lines, summary)
    quoted: set[int] = set()
    for start, end in _docstrings(lines):
        if any(start <= n <= end for n in said):
            quoted.update(range(start, end + 1))
    gone = set(quoted)
    for n in said - gone:
        gone.add(n)
        if not _is_comment(lines[n]):
            continue
        for step in (-1, 1):
            m = n + step
            while 0 <= m < len(lines) and _is_comment(lines[m]) and m not in gone:
                gone.add(m)
                m += step
    code = _without(lines, gone)
    comment = {n for n in gone if _is_comment(lines[n])} | quoted  # not a code line said
    words = " ".join(_MARKER.sub("", lines[n]).strip() for n in sorted(comment))
    return code, " ".join(words.split())


def _another(sentence: str, summary: str) -> bool:
    """A sentence of `_MIN_WORDS` or more that does not begin as the summary does and is
    not a tag's (`@param x ...`)."""
    return (
        len(sentence.split()) >= _MIN_WORDS
        and sentence[:40] != summary[:40]
        and not TAG.match(sentence)
    )


def _prose(sentence: str) -> str:
    """The sentence without a tag that only says prose follows (`@dev Returns ...`)."""
    return PROSE_TAG.sub("", sentence.strip())


def _said(lines: Sequence[str], summary: str) -> set[int]:
    """The numbers of the lines that say `summary`: a comment line holding one of its
    words, or any line holding two of them."""
    words = {w.lower() for w in _WORD.findall(summary)}
    out = set()
    for n, line in enumerate(lines):
        shown = line.strip()
        hits = sum(w.lower() in words for w in shown.split())
        if (_is_comment(shown) and hits >= 1) or hits >= 2:
            out.add(n)
    return out


def _is_comment(line: str) -> bool:
    """A comment line, not a `#define`, `#[derive(...)]` or `#!` line."""
    shown = line.strip()
    return shown.startswith(_COMMENT) and not _DIRECTIVE.match(shown)


def _docstrings(lines: Sequence[str]) -> list[tuple[int, int]]:
    """The first and last line of each triple-quoted string."""
    out = []
    start = None
    for n, line in enumerate(lines):
        for _ in range(len(_TRIPLE.findall(line))):
            if start is None:
                start = n
            else:
                out.append((start, n))
                start = None
    return out


def candidates(symbols: Iterable[Record]) -> list[Record]:
    """The documented symbols outside the tests that `matches` may take, in its stable
    order: twice `MAX_PAIRS` of them, so that a large project's chunks are read only for
    the files a sample can come from (a symbol with no chunk around it is passed over)."""
    documented = [s for s in symbols if not s.is_test and summary_of(s)]
    documented.sort(key=lambda s: _stable(s.id))
    return documented[: 2 * MAX_PAIRS]


def pairs(
    matched: Iterable[tuple[str, Record]], sentences: int = SENTENCES
) -> list[tuple[str, str]]:
    """The training pairs of `matches`: each summary, and up to `sentences` - 1 more of its
    doc comment's sentences, with its chunk's text without that doc comment."""
    out: list[tuple[str, str]] = []
    for summary, chunk in matched:
        code, doc = doc_block(chunk.text_to_embed, summary)
        said = (piece for s in _SENTENCE.split(doc) for piece in _TAG_START.split(s))
        more = [s for s in map(_prose, said) if _another(s, summary)]
        out += [(summary, code)] + [(s, code) for s in more[: sentences - 1]]
    return out


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


def sections(docs: Iterable[Record]) -> list[Record]:
    """The documentation sections (outside the tests) `section_pairs` reads, a stable
    sample of `MAX_SECTIONS` when there are more."""
    found = [d for d in docs if not d.is_test and d.text_to_embed.strip()]
    found.sort(key=lambda d: _stable(d.id))
    return found[:MAX_SECTIONS]


def section_pairs(docs: Iterable[Record], sentences: int = SENTENCES) -> list[tuple[str, str]]:
    """The docs' training pairs: the lead sentence of each of a section's first `sentences`
    prose paragraphs with the section's text without that paragraph, and the section's own
    heading with its text without the heading lines."""
    out: list[tuple[str, str]] = []
    for doc in docs:
        lines = doc.text_to_embed.splitlines()
        start = 2 if doc.title else 1  # the path and the title path lead the embedded text
        for para in _paragraphs(lines, start)[:sentences]:
            lead = _SENTENCE.split(" ".join(lines[n].strip() for n in para))[0]
            if _LEAD_WORDS[0] <= len(lead.split()) <= _LEAD_WORDS[1]:
                out.append((lead, _without(lines, set(para))))
        heading = (doc.title or "").split(" > ")[-1].strip("#_*` ")
        if doc.title and len(heading.split()) >= 2 and len(lines) > 2:
            titled = {1} | {n for n, line in _unfenced(lines, 2) if _HEADING_LINE.match(line)}
            out.append((heading, _without(lines, titled)))
    return out


def _paragraphs(lines: Sequence[str], start: int) -> list[list[int]]:
    """The line numbers of each prose paragraph from line `start` on, outside the fenced
    code blocks (a heading ends a paragraph)."""
    out: list[list[int]] = [[]]
    last = start - 1
    for n, line in _unfenced(lines, start):
        if n != last + 1 or not line.strip() or _HEADING_LINE.match(line):
            out.append([])
        if line.strip() and not _HEADING_LINE.match(line):
            out[-1].append(n)
        last = n
    return [p for p in out if p and not _NOT_PROSE.match(lines[p[0]])]


def _unfenced(lines: Sequence[str], start: int) -> Iterator[tuple[int, str]]:
    """(number, line) of the lines from `start` on outside the fenced code blocks."""
    fenced = False
    for n in range(start, len(lines)):
        if _FENCE.match(lines[n]):
            fenced = not fenced
        elif not fenced:
            yield n, lines[n]


def _without(lines: Sequence[str], gone: set[int]) -> str:
    return "\n".join(line for n, line in enumerate(lines) if n not in gone)


def no_map(dim: int) -> np.ndarray:
    """The map of a kind with too few pairs to fit one: all zeros, never applied."""
    return np.zeros((dim, dim), dtype=np.float32)


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
