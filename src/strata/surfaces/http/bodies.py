"""Typed requests and results shared by the HTTP API and the MCP tools (pydantic).

A request model validates what a client sends (unknown fields, ranges, layer names) and
turns it into the Engine's arguments; a result model is what an agent reads: where a hit
is, what it is, and a snippet whose length the caller chooses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
)

from strata.layers import ALL_LAYERS, normalise
from strata.query.filters import SearchFilters

MAX_K = 1000
MAX_QUERY = 4000  # characters; a longer "query" is a pasted file, not a question
MAX_NAME = 500
MODES = ("hybrid", "lexical", "semantic")
SNIPPET_LINES = 6  # a signature and the first lines of the body

Mode = Literal["hybrid", "lexical", "semantic"]
Name = Annotated[str, Field(max_length=MAX_NAME)]  # a path, symbol, kind or repository
NonEmptyName = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
Strings = str | list[Name]
K = Annotated[int, Field(ge=1, le=MAX_K)]
Depth = Annotated[int, Field(ge=1, le=5)]  # hops of a call-graph or relation walk
# A layer id, listed in the schema (the web page's layer menu reads it there); `normalise`
# also takes one case-insensitively or by its prefix (`c0`).
Layer = Annotated[str, Field(max_length=MAX_NAME, json_schema_extra={"enum": sorted(ALL_LAYERS)})]


class Body(BaseModel):
    """Every request body: no unknown fields, frozen, no NUL character in any text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        """A NUL character names no path, symbol or repository (and no store takes it)."""
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(t, str) and "\x00" in t for t in texts):
            raise ValueError("a NUL character is not allowed")
        return value


class Filters(Body):
    """What a search keeps: path globs, languages, kinds, tests or not, one repository, one
    branch."""

    # Each field's title is its label on the web page, which builds its form from them.
    path: Annotated[Strings | None, Field(title="Path", examples=["src/**"])] = None
    lang: Annotated[Strings | None, Field(title="Language")] = None
    kind: Annotated[Strings | None, Field(title="Kind")] = None
    no_tests: Annotated[bool, Field(title="No tests")] = False
    repo: Annotated[Name | None, Field(title="Repository")] = None
    branch: Annotated[Name | None, Field(title="Branch")] = None

    def search_filters(self) -> SearchFilters:
        """The `SearchFilters` these fields name."""
        return SearchFilters.from_flags(**self.model_dump())


class SearchRequest(Body):
    """`POST /search`: a question or a name, with optional layers, mode and filters."""

    query: Annotated[str, Field(max_length=MAX_QUERY)]
    k: K | None = None
    layers: Layer | list[Layer] | None = None
    mode: Mode | None = None
    filters: Filters | None = None

    @field_validator("layers")
    @classmethod
    def _known_layers(cls, value: str | list[str] | None) -> str | list[str] | None:
        for name in _strings(value):
            normalise(name)  # ValueError: unknown layer, with the known ones
        return value

    def arguments(self) -> dict[str, Any]:
        """`Engine.search` keyword arguments."""
        return {
            "query": self.query,
            "k": self.k,
            "layers": list(_strings(self.layers)) or None,
            "filters": (self.filters or Filters()).search_filters(),
            "mode": self.mode,
        }


class SymbolsRequest(Body):
    """`POST /symbols`: C1 lookup of a bare or qualified name."""

    name: NonEmptyName
    kind: Name | None = None
    k: K = 20
    repo: Name | None = None


class CallsRequest(Body):
    """`POST /callers`, `POST /callees`: a C2 walk from a name."""

    qname: NonEmptyName
    depth: Depth = 1
    repo: Name | None = None


class EntrypointsRequest(Body):
    """`POST /entrypoints`: C3 listing."""

    type: Literal["http", "cli", "other"] | None = None
    framework: Name | None = None
    repo: Name | None = None


class DocsRequest(Body):
    """`POST /docs`: the D1 document catalog."""

    kind: Name | None = None
    domain: Name | None = None
    type: Name | None = None
    repo: Name | None = None


class RelatedRequest(Body):
    """`POST /related`: D5 documents related to a document id."""

    document_id: NonEmptyName
    depth: Depth = 1
    repo: Name | None = None


class SimilarRequest(Body):
    """`POST /similar`: passages like the one at `path:line`."""

    path: NonEmptyName
    line: Annotated[int, Field(ge=1)]
    k: K = 5
    repo: Name | None = None


class IndexRequest(Body):
    """`POST /index`: bring the served index up to date in the background."""

    full: bool = False


class CliBody(Body):
    """`POST /cli`: a command line and the caller's terminal (see `strata.surfaces.cli.forward`)."""

    argv: list[str]
    width: Annotated[int, Field(ge=1, le=10_000)] = 80
    columns: Annotated[int, Field(ge=1, le=10_000)] = 80
    color: bool = False
    stderr_color: bool | None = None
    cwd: str | None = None
    env: dict[str, str] = Field(default_factory=dict)


class ErrorOut(BaseModel):
    """Every refusal and failure: a one-line reason and, when there is one, what to do."""

    error: str
    hint: str | None = None


# What any endpoint may answer besides its own result (the gate's refusals included).
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": why}
    for code, why in [
        (400, "a bad request or a user error"),
        (401, "the token is missing or wrong"),
        (403, "Host or Origin is not this server"),
        (404, "no such endpoint or job"),
        (411, "a POST without Content-Length"),
        (413, "the body is too large"),
        (415, "the body is not application/json"),
        (429, "too many requests at once"),
        (500, "an engine error"),
    ]
}


# ---- results an agent reads ----------------------------------------------------------------
class Snippet(BaseModel):
    """One place in the index: where it is, what it is, and its first lines."""

    path: str
    start_line: int  # 1-based, inclusive; 0 for a record without lines (a whole document)
    end_line: int
    layer: str
    title: str
    repo: str | None = None
    snippet: str
    # a long code hit: the lines its query's words are in, which `snippet` then shows
    focus_start: int | None = None
    focus_end: int | None = None

    @model_serializer(mode="wrap")
    def _set_fields(self, dump: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Without the fields that are unset here (`null`): an agent's model reads every
        hit, and three nulls a hit were a tenth of a search's tokens."""
        return {k: v for k, v in dump(self).items() if v is not None}


class SearchAnswer(BaseModel):
    """Hits best first, and what the agent should know (fallbacks, a build under way)."""

    hits: list[Snippet]
    notes: list[str] = Field(default_factory=list)


class CallLinkOut(BaseModel):
    """One call edge, on every surface (`POST /callers`, `/callees`, MCP's `call_graph`): the
    other symbol (`qname`), hops from the start (`depth`) and the symbol one hop nearer
    (`via`), how the call is tied to it (`match`: resolved, qname, interface, name or unresolved;
    `resolved`), where the call is (`path`, `start_line`, `end_line`, `lines`: every line
    it is made on), and the calling (or called) code. HTTP gives that code whole (`chunk`)
    with the rest of the edge's record, as `strata callers --json`; MCP its first lines under
    the place they are at (`code`: `path:start-end`, then the lines)."""

    model_config = ConfigDict(extra="allow")  # HTTP: the edge's record fields too

    qname: str
    depth: int
    via: str
    match: str
    resolved: bool
    path: str
    start_line: int
    end_line: int
    lines: list[int]
    code: str | None = None


class CallAnswer(BaseModel):
    """A call-graph walk: the symbols the name resolved to, and the edges found."""

    targets: list[str]
    links: list[CallLinkOut]
    notes: list[str] = Field(default_factory=list)


class JobOut(BaseModel):
    """A background index job and its progress."""

    id: str
    state: Literal["running", "done", "failed"]
    phase: str = ""
    done: int = 0
    total: int = 0
    summary: dict[str, Any] | None = None
    error: str | None = None


class Started(BaseModel):
    """An index run started (or already running)."""

    job: str


class IndexStatus(BaseModel):
    """What the index holds and whether it is current."""

    root: str
    exists: bool
    rows: int = 0
    vectors: int = 0
    pending_files: int | None = None
    last_index: str | None = None
    job: str | None = None  # the latest index run: `running index 3/7`, `done`, `failed: why`


def snippet_of(text: str, lines: int) -> str:
    """The first `lines` lines of `text`, with a note of how many more there are."""
    parts = text.splitlines()
    if len(parts) <= lines:
        return text
    return "\n".join(parts[:lines]) + f"\n… (+{len(parts) - lines} lines)"


def describe(errors: Sequence[Mapping[str, Any]]) -> str:
    """One line for validation errors (pydantic's or FastAPI's): the first field and what
    is wrong with it."""
    first: Mapping[str, Any] = errors[0] if errors else {"loc": (), "type": "", "msg": "invalid"}
    kind = str(first["type"])
    if kind == "json_invalid":
        return f"the body is not JSON: {(first.get('ctx') or {}).get('error', '')}"
    if tuple(first["loc"]) == ("body",) and kind.endswith("_type"):
        return "the body must be a JSON object"
    where = ".".join(str(p) for p in first["loc"] if p != "body" and not _union_tag(p))
    if kind == "extra_forbidden":
        return f"unknown field {where!r}"
    message = str(first["msg"]).removeprefix("Value error, ")
    return f'"{where}": {message}' if where else message


def _union_tag(part: object) -> bool:
    """pydantic names the member of a union it tried (`str`, `list[str]`) in the location."""
    return isinstance(part, str) and (part in ("str", "int", "bool") or part.startswith("list["))


def _strings(value: str | Sequence[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)
