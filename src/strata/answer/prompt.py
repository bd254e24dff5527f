"""Retrieved hits -> a numbered context within a token budget, and the chat messages. Pure.

Hits keep their rank order (most relevant first). A hit that does not fit whole is cut
to the whole lines that fit (its line range shrinks to match) when a few of them do,
and is otherwise left out; a hit inside a span already packed adds nothing and is
skipped. Tokens are estimated from characters: no tokenizer of the serving model is at
hand, so the estimate errs high (code packs fewer characters per token than prose).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from strata.llm import Message
from strata.types import Hit

# Measured with SmolLM2's tokenizer on the structlog corpus: see docs/benchmarks.md.
CHARS_PER_TOKEN = 3.0
MIN_LINES = 3  # fewer lines of a cut hit are not worth a number

SYSTEM = (
    "You answer a developer's question about a code base, using only the numbered "
    "sources you are given. Cite the source of every statement with its number in "
    "square brackets, like [1] or [2][3]. Cite only numbers that are listed. If the "
    "sources do not answer the question, say so. Be brief."
)


def estimate_tokens(text: str) -> int:
    """A high estimate of the tokens `text` takes."""
    return int(len(text) / CHARS_PER_TOKEN) + 1


@dataclass(frozen=True, slots=True)
class Source:
    """One numbered hit as packed: its lines may be fewer than the hit's."""

    n: int
    hit: Hit
    start_line: int | None
    end_line: int | None
    text: str

    @property
    def location(self) -> str:
        """`path:start-end` (just `path` for a record without lines)."""
        path = self.hit.record.path
        return f"{path}:{self.start_line}-{self.end_line}" if self.start_line else path

    def block(self) -> str:
        """The source as the model reads it: number, location, layer, title, text."""
        r = self.hit.record
        title = f" ({r.title})" if r.title else ""
        return f"[{self.n}] {self.location} {r.layer}{title}\n{self.text}\n"


@dataclass(frozen=True, slots=True)
class Context:
    """The numbered sources that fit, the tokens they take, and how many hits did not fit."""

    sources: tuple[Source, ...]
    tokens: int
    left_out: int

    def source(self, n: int) -> Source:
        """Source number `n` (1-based)."""
        return self.sources[n - 1]


def pack(
    hits: Sequence[Hit], budget: int, count: Callable[[str], int] = estimate_tokens
) -> Context:
    """Number the hits that fit in `budget` tokens, best first; cut only at line ends."""
    sources: list[Source] = []
    used = left_out = 0
    for hit in hits:
        if _covered(hit, sources):
            continue
        source = _fit(hit, len(sources) + 1, budget - used, count)
        if source is None:
            left_out += 1
            continue
        sources.append(source)
        used += count(source.block())
    return Context(tuple(sources), used, left_out)


def messages(question: str, context: Context) -> list[Message]:
    """The system instructions and one user message holding the sources and the question."""
    blocks = "\n".join(s.block() for s in context.sources) or "(no sources were found)\n"
    return [
        Message("system", SYSTEM),
        Message("user", f"Sources:\n\n{blocks}\nQuestion: {question.strip()}"),
    ]


def _fit(hit: Hit, n: int, room: int, count: Callable[[str], int]) -> Source | None:
    r = hit.record
    whole = Source(n, hit, r.span_start, r.span_end, r.content.rstrip("\n"))
    if count(whole.block()) <= room:
        return whole
    lines = whole.text.split("\n")
    if r.span_start is None or r.span_end != r.span_start + len(lines) - 1:
        return None  # its lines cannot be told apart, so it cannot be cut honestly
    lo, hi = 0, len(lines)  # the most whole lines that fit: bisect on the count
    while lo < hi:
        mid = (lo + hi + 1) // 2
        part = Source(n, hit, r.span_start, r.span_start + mid - 1, "\n".join(lines[:mid]))
        lo, hi = (mid, hi) if count(part.block()) <= room else (lo, mid - 1)
    if lo < MIN_LINES:
        return None
    return Source(n, hit, r.span_start, r.span_start + lo - 1, "\n".join(lines[:lo]))


def _covered(hit: Hit, sources: Sequence[Source]) -> bool:
    r = hit.record
    if r.span_start is None or r.span_end is None:
        return False
    return any(
        s.hit.record.path == r.path
        and s.hit.record.repo_id == r.repo_id
        and s.start_line is not None
        and s.end_line is not None
        and s.start_line <= r.span_start
        and r.span_end <= s.end_line
        for s in sources
    )
