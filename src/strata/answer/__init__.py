"""Cited answers: retrieved hits packed into a prompt, the model's `[n]` markers checked.

answer(search, llm, question)  -> AnswerStream (pieces as they come) -> Answer
prompt.pack / prompt.messages  -> the numbered context and the chat (pure)
cite.check                     -> markers kept, invalid ones removed and reported (pure)
"""

from __future__ import annotations

from strata.answer.result import Answer, Citation, Timings
from strata.answer.stream import AnswerStream, answer
from strata.answer.think import Piece

__all__ = ["Answer", "AnswerStream", "Citation", "Piece", "Timings", "answer"]
