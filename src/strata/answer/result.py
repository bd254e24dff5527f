"""The values an answer is made of: its checked citations, sources, model and timings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strata.answer.prompt import Context, Source
from strata.types import Hit, JsonFields


@dataclass(frozen=True, slots=True)
class Citation(JsonFields):
    """A source the answer cites, with the lines that were packed for the model."""

    n: int
    path: str
    start_line: int | None
    end_line: int | None
    layer: str
    title: str

    @classmethod
    def of(cls, source: Source) -> Citation:
        """The citation of one packed source."""
        r = source.hit.record
        return cls(source.n, r.path, source.start_line, source.end_line, r.layer, r.title)

    def line(self) -> str:
        """`[n] path:start-end`, as the terminal shows it."""
        span = f":{self.start_line}-{self.end_line}" if self.start_line else ""
        return f"[{self.n}] {self.path}{span}"


@dataclass(frozen=True, slots=True)
class Timings(JsonFields):
    """Milliseconds from the question: retrieval done, first token in, answer complete."""

    retrieve_ms: int
    first_token_ms: int | None
    total_ms: int


@dataclass(frozen=True, slots=True)
class Answer:
    """A checked answer: invalid markers are already gone from `text`."""

    question: str
    text: str
    citations: tuple[Citation, ...]
    sources: tuple[Hit, ...]
    context: Context
    model: str
    invalid_citations: tuple[int, ...]
    timings: Timings
    thinking: str = ""

    def to_json(self) -> dict[str, Any]:
        """The shape of `strata ask --json` (shared/spec/interface.md); each source also
        carries `n`, its number in the context (null when it did not fit)."""
        numbers = {id(s.hit): s.n for s in self.context.sources}
        out: dict[str, Any] = {
            "answer": self.text,
            "citations": [c.to_json() for c in self.citations],
            "sources": [{**h.to_json(), "n": numbers.get(id(h))} for h in self.sources],
            "model": self.model,
            "invalid_citations": list(self.invalid_citations),
            "timings": self.timings.to_json(),
        }
        if self.thinking:
            out["thinking"] = self.thinking
        return out
