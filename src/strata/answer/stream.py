"""One question answered: retrieve, pack, stream the model's answer through the checks."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator

from strata.answer.cite import CitationFilter
from strata.answer.prompt import Context, messages, pack
from strata.answer.result import Answer, Citation, Timings
from strata.answer.think import Piece, ThinkSplitter
from strata.llm import Llm
from strata.types import Hit


class AnswerStream:
    """An answer being generated: iterate for its pieces, then `answer()` for the result.

    The retrieved sources are known before the first piece, so a caller can still show
    them when the model fails (`LlmError` is raised from the iteration).
    """

    def __init__(
        self,
        question: str,
        hits: tuple[Hit, ...],
        context: Context,
        llm: Llm,
        *,
        started: float,
        show_thinking: bool = False,
    ) -> None:
        self.question = question
        self.hits = hits
        self.context = context
        self._llm = llm
        self._started = started
        self._retrieved_at = time.perf_counter()
        self._first: float | None = None
        self._done: float | None = None
        self._show_thinking = show_thinking
        self._cite = CitationFilter(len(context.sources))
        self._thinking: list[str] = []
        self._pieces: Iterator[Piece] | None = None

    def __iter__(self) -> Iterator[Piece]:
        if self._pieces is None:
            self._pieces = self._run()
        return self._pieces

    def answer(self) -> Answer:
        """The checked answer; what has arrived so far if the stream failed or was cut."""
        if self._pieces is None:
            for _ in self:
                pass
        checked = self._cite.result()
        end = self._done or time.perf_counter()
        return Answer(
            question=self.question,
            text=checked.text.strip(),
            citations=tuple(Citation.of(self.context.source(n)) for n in sorted(checked.cited)),
            sources=self.hits,
            context=self.context,
            model=self._llm.name,
            invalid_citations=checked.invalid,
            timings=Timings(
                _ms(self._retrieved_at - self._started),
                None if self._first is None else _ms(self._first - self._started),
                _ms(end - self._started),
            ),
            thinking="".join(self._thinking).strip(),
        )

    def _run(self) -> Iterator[Piece]:
        splitter = ThinkSplitter()
        for raw in self._llm.stream(messages(self.question, self.context)):
            if self._first is None:
                self._first = time.perf_counter()
            yield from self._checked(splitter.feed(raw))
        yield from self._checked(splitter.flush())
        tail = self._cite.flush()
        if tail:
            yield Piece(tail)
        self._done = time.perf_counter()

    def _checked(self, pieces: list[Piece]) -> Iterator[Piece]:
        for piece in pieces:
            if piece.thinking:
                self._thinking.append(piece.text)
                if self._show_thinking:
                    yield piece
            else:
                text = self._cite.feed(piece.text)
                if text:
                    yield Piece(text)


def answer(
    search: Callable[[str], Iterable[Hit]],
    llm: Llm,
    question: str,
    *,
    budget: int,
    show_thinking: bool = False,
) -> AnswerStream:
    """Retrieve with `search`, pack the hits within `budget` tokens, and get ready to ask."""
    started = time.perf_counter()
    hits = tuple(search(question))
    context = pack(hits, budget)
    return AnswerStream(question, hits, context, llm, started=started, show_thinking=show_thinking)


def _ms(seconds: float) -> int:
    return round(seconds * 1000)
