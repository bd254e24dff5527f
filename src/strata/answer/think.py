"""Hide `<think>...</think>` blocks (qwen3 and other reasoning models) from a token stream.

Pure and incremental: a tag split across pieces is held back until it is whole, so the
visible text is the same however the stream was cut.
"""

from __future__ import annotations

from dataclasses import dataclass

OPEN, CLOSE = "<think>", "</think>"


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of streamed text: part of the answer, or of the model's thinking."""

    text: str
    thinking: bool = False


class ThinkSplitter:
    """Splits a stream into answer and thinking pieces; leading blank space is dropped."""

    def __init__(self) -> None:
        self._buf = ""
        self._inside = False
        self._started = False

    def feed(self, text: str) -> list[Piece]:
        """The pieces that `text` completes (a partial tag waits for the next call)."""
        self._buf += text
        out: list[Piece] = []
        while True:
            tag = CLOSE if self._inside else OPEN
            at = self._buf.find(tag)
            if at < 0:
                keep = _partial_tag(self._buf, tag)
                self._emit(self._buf[: len(self._buf) - keep], out)
                self._buf = self._buf[len(self._buf) - keep :]
                return out
            self._emit(self._buf[:at], out)
            self._buf = self._buf[at + len(tag) :]
            self._inside = not self._inside

    def flush(self) -> list[Piece]:
        """What is left at the end of the stream (an unclosed block stays thinking)."""
        out: list[Piece] = []
        self._emit(self._buf, out)
        self._buf = ""
        return out

    def _emit(self, text: str, out: list[Piece]) -> None:
        if self._inside:
            if text:
                out.append(Piece(text, thinking=True))
            return
        if not self._started:
            text = text.lstrip()
            self._started = bool(text)
        if text:
            out.append(Piece(text))


def _partial_tag(text: str, tag: str) -> int:
    """Length of the longest end of `text` that could begin `tag`."""
    for n in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-n:]):
            return n
    return 0
