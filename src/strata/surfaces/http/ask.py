"""`POST /ask`: a cited answer as server-sent events, tokens first, the checked answer last.

    event: token     data: {"text": "..."}            each piece of the answer as it comes
    event: thinking  data: {"text": "..."}            only with "show_thinking": true
    event: answer    data: {what `strata ask --json` prints}
    event: error     data: {"error", "hint", "sources"}   the model failed mid-way

Retrieval runs before the stream starts, so a bad query is a plain 400 JSON error; a
failing model is an `error` event that still carries the retrieved sources.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from strata.answer import AnswerStream
from strata.errors import LlmError
from strata.surfaces.http.bodies import ERRORS, SearchRequest
from strata.surfaces.http.state import ServeState

STREAMED: dict[str, Any] = {
    "description": "`token` events, then one `answer` (or `error`) event",
    "content": {
        "text/event-stream": {
            "schema": {  # one event; its data is JSON (see the module docstring)
                "type": "object",
                "properties": {
                    "event": {"enum": ["token", "thinking", "answer", "error"]},
                    "data": {"type": "string"},
                },
                "required": ["event", "data"],
            }
        }
    },
}


class AskRequest(SearchRequest):
    """`POST /ask`: `query` is the question; the search fields narrow the retrieval."""

    show_thinking: bool = False


def router(state: ServeState) -> APIRouter:
    """`/ask` over the served index, with the server's `llm.*` configuration."""
    api = APIRouter(responses=ERRORS)

    @api.post("/ask", response_class=StreamingResponse, responses={200: STREAMED})
    def ask(body: AskRequest) -> StreamingResponse:
        """Retrieve, then stream the LLM's answer and its checked `[n]` citations (SSE)."""
        args = body.arguments()
        stream = state.engines.served().ask_stream(
            args.pop("query"), show_thinking=body.show_thinking, **args
        )
        return StreamingResponse(
            events(stream),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    return api


def events(stream: AnswerStream) -> Iterator[str]:
    """The SSE lines of one answer."""
    try:
        for piece in stream:
            yield _event("thinking" if piece.thinking else "token", {"text": piece.text})
    except LlmError as exc:
        sources = stream.answer().to_json()["sources"]
        yield _event("error", {"error": exc.message, "hint": exc.hint, "sources": sources})
        return
    yield _event("answer", stream.answer().to_json())


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
