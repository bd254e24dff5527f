"""`/file` and `/document`: what the web page opens from a hit (indexed files only)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from strata.engine.files import document_layers, source_text
from strata.surfaces.http.bodies import ERRORS, Body, Name
from strata.surfaces.http.state import ServeState

MAX_PATH = 4096


class FileRequest(Body):
    """`POST /file`: an indexed file's current lines, by its path in a repository."""

    path: Annotated[str, Field(min_length=1, max_length=MAX_PATH)]
    repo: Name | None = None


class FileOut(BaseModel):
    """The file's lines as on disk now; `gone` says why there are none (deleted, replaced)."""

    path: str
    repo: str
    lines: list[str]
    line_count: int
    gone: str | None = None


def router(state: ServeState) -> APIRouter:
    """The file and document endpoints over the served engine."""
    api = APIRouter(responses=ERRORS)
    served = state.engines.served

    @api.post("/file")
    def file(body: FileRequest) -> FileOut:
        """An indexed file's lines (a path the index does not hold is refused, 400)."""
        return FileOut(**source_text(served(), body.path, body.repo).to_json())

    @api.post("/document")
    def document(body: FileRequest) -> dict[str, Any]:
        """A document's D1 card, D2 facts, D3 entities and D5 relations."""
        return document_layers(served(), body.path, body.repo)

    return api
