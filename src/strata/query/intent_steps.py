"""The retrieval steps of each intent the router recognises (pure): `BUILDERS[intent]` turns a
classified question into its `Step`s, `NEEDS[intent]` names the layers it is about."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from strata import layers as L
from strata.query.graph_questions import RAISED
from strata.query.questions import QUESTION_WORDS, Classification
from strata.query.said_kinds import said_kinds
from strata.text.tokens import query_terms
from strata.types import fields_json

__all__ = ["BUILDERS", "NEEDS", "Step", "search_step"]


@dataclass(frozen=True, slots=True)
class Step:
    """One retrieval: a method over a layer with its arguments, at most `limit` results.

    `weight` is the step's weight in the weighted RRF merge; when a `required` step finds
    nothing (an exact name the index does not have), the plan falls back to where the
    name occurs (`strata.query.fallback`).
    """

    layer: str
    method: str
    args: Mapping[str, Any]
    limit: int
    weight: float = 1.0
    required: bool = False

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for `--explain` and the HTTP API."""
        return {**fields_json(self), "args": dict(self.args)}


def search_step(layer: str, query: str, limit: int, weight: float = 1.0) -> Step:
    layers = None if layer == "passages" else [layer]
    return Step(layer, "search", {"query": query, "layers": layers}, limit, weight)


# A name's phrase that opens with one of these is a question or a request about the name
# ("where is X defined", "show me X"); words that only say what kind of name it is.
_ASKING = QUESTION_WORDS | frozenset(
    {"show", "find", "explain", "describe", "definition", "jump", "go", "open", "locate"}
    | {"list", "get"}
)
_KIND_WORDS = frozenset(
    {"implementation", "implemented", "definition", "defined", "declaration", "declared"}
    | {"source", "code", "class", "function", "method", "struct", "type", "interface"}
    | {"trait", "enum", "module", "def", "fn", "func", "constant", "variable", "macro"}
)
# A plain word alone ("Engine", "formatter"), not a code-shaped name
_PLAIN_WORD = re.compile(r"[A-Z]?[a-z]+")


def symbol_text(query: str, name: str) -> str:
    """What a name's search step searches: the name, or the whole query when it is the
    name and a topic ("OpenAPI schema generation", "HTTPException handling": the name's
    definition first, then the topic's code, not only the name's mentions)."""
    if not query_terms(name):
        return query  # an operator (`<?>`) has no words of its own
    words = query.split()
    if not words or words[0].lower().strip("`'\"") in _ASKING:
        return name
    rest = set(query_terms(query)) - set(query_terms(name)) - _KIND_WORDS
    return query if rest else name


def _symbol_steps(query: str, c: Classification, k: int) -> list[Step]:
    name = c.names[0]
    text = symbol_text(query, name)
    # a plain word the index defines ("Authentication", "formatter") is a topic of the docs
    # too: its definition first, then code and docs; a code-shaped name's are code
    plain = text == query and _PLAIN_WORD.fullmatch(query.strip())
    args: dict[str, object] = {"name": name, "exact": True}
    if kinds := said_kinds(query, name):
        args["kinds"] = list(kinds)
    return [
        Step(L.C1_SYMBOL_CATALOG, "symbol", args, k, 2.0, required=True),
        search_step("passages" if plain else L.C0_SOURCE_CHUNKS, text, k, 1.0),
    ]


def _walk_steps(query: str, c: Classification, k: int) -> list[Step]:
    args: dict[str, object] = {"name": c.names[0], "depth": 1}
    if c.intent == "callers" and RAISED.search(query):
        args["raised"] = True  # "where is X raised": where no call raises it, a line that does
    return [Step(L.C2_DEPENDENCY_GRAPH, c.intent, args, max(k, 20), required=True)]


def _tests_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The tests that call the name, and those that name it (the plan's filter keeps tests)."""
    name = c.names[0]
    text = name if query_terms(name) else query
    return [
        Step(L.C2_DEPENDENCY_GRAPH, "callers", {"name": name, "depth": 1}, max(k, 20)),
        search_step(L.C0_SOURCE_CHUNKS, text, k, 1.0),
    ]


def _file_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The file's head first (a module's docstring, a document's first section), then the
    question searched in it (the plan's path filter keeps the file)."""
    return [
        Step("passages", "file_head", {"path": c.names[0]}, k, 2.0),
        search_step("passages", query, k, 1.0),
    ]


def _lineage_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The types deriving from the name, or those it derives from (C2 `inherits` edges)."""
    args = {"name": c.names[0]}
    return [Step(L.C2_DEPENDENCY_GRAPH, c.intent, args, max(k, 20), required=True)]


def _import_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The places that import the module or name (C2 `imports` edges)."""
    args = {"name": c.names[0]}
    return [Step(L.C2_DEPENDENCY_GRAPH, "importers", args, max(k, 20), required=True)]


def _overview_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The repository's front door, in its order: its README, docs index, packages' heads
    and core files (the plain search tops a short one up after them; fused with it, a
    core file the words also find went above the README)."""
    return [Step("passages", "overview", {}, k, 2.0)]


def _entry_steps(query: str, c: Classification, k: int) -> list[Step]:
    args = {"type": c.entry_type, "framework": c.framework, "route": c.route, "subject": c.subject}
    return [Step(L.C3_ENTRYPOINTS, "entrypoints", {a: v for a, v in args.items() if v}, max(k, 50))]


def _workflow_steps(query: str, c: Classification, k: int) -> list[Step]:
    return [
        search_step(L.D4_WORKFLOW_INDEX, query, 5, 1.5),
        search_step(L.D0_DOC_CHUNKS, query, k, 1.0),
        search_step(L.C0_SOURCE_CHUNKS, query, k, 0.6),
    ]


def _integration_steps(query: str, c: Classification, k: int) -> list[Step]:
    return _linked_steps(query, c, k, L.D6_INTEGRATION_INDEX)


def _relation_steps(query: str, c: Classification, k: int) -> list[Step]:
    return _linked_steps(query, c, k, L.D5_RELATION_GRAPH)


def _linked_steps(query: str, c: Classification, k: int, lead: str) -> list[Step]:
    """The `lead` layer (D6 integrations or D5 relations) first, the other one after it.

    With a subject (or target) document both are walks from it; without one, `lead` is
    searched. A relations question that says "depends" walks only dependency edges.
    """
    doc = c.subject or c.target
    if not doc:
        return [search_step(lead, query, k, 1.5), search_step(L.D0_DOC_CHUNKS, query, k, 0.5)]
    walk: dict[str, Any] = {"document": doc, "direction": "out" if c.subject else "in"}
    if lead == L.D5_RELATION_GRAPH and re.search(r"depend|завис", query, re.IGNORECASE):
        walk["relation_types"] = ["depends_on", "uses"]
    args = {
        L.D6_INTEGRATION_INDEX: {"source": doc} if c.subject else {"target": doc},
        L.D5_RELATION_GRAPH: walk,
    }
    (second,) = set(args) - {lead}
    return [
        Step(lead, "related", args[lead], max(k, 20), 1.5),
        Step(second, "related", args[second], k, 0.8),
        search_step(L.D0_DOC_CHUNKS, query, k, 0.5),
    ]


def _definition_steps(query: str, c: Classification, k: int) -> list[Step]:
    steps = []
    if c.names:
        steps.append(
            Step(L.C1_SYMBOL_CATALOG, "symbol", {"name": c.names[0], "exact": True}, 5, 1.5)
        )
    steps.append(search_step(L.D0_DOC_CHUNKS, query, k, 1.0))
    steps.append(search_step(L.D1_DOCUMENT_CATALOG, query, 3, 0.8))
    steps.append(search_step(L.D3_ENTITY_CATALOG, query, 3, 0.6))
    steps.append(search_step(L.C0_SOURCE_CHUNKS, query, k, 0.7))
    return steps


def _env_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The passages that read an environment variable (those of a variable the question
    names first), then the plain search."""
    return [
        Step("passages", "env_reads", {"query": query}, k, 2.0),
        search_step("passages", query, k),
    ]


def _flag_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The passages that define, document or read the command-line flag asked about, then
    the plain search (one step: its tiers are its order)."""
    return [Step("passages", "flag_lines", {"query": query}, k)]


def _marked_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The passages with a line of the kind asked for (a TODO comment, a deprecation),
    those the question's other words find first, then the plain search."""
    args = {"query": query, "kind": c.names[0]}
    return [Step("passages", "marked_lines", args, k, 2.0), search_step("passages", query, k)]


def _project_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The manifests' lines that state the project's dependencies or version, then the
    plain search (one step: its tiers are its order)."""
    return [Step("passages", "project_lines", {"query": query, "kind": c.names[0]}, k)]


def _changes_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The changelog's sections that answer a question about releases, then the plain
    search (one step: its order is its tiers)."""
    kind, what = c.names
    return [Step("passages", "change_lines", {"query": query, "kind": kind, "what": what}, k)]


def _tasks_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The documents' sections and the manifests' lines on running a command of the kind
    asked, then the plain search (one step: its order is its tiers)."""
    return [Step("passages", "task_lines", {"query": query, "kind": c.names[0]}, k)]


def _caught_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The passages with a line that catches the error asked about, then the plain search
    (one step: its order is its tiers)."""
    return [Step("passages", "caught_lines", {"query": query, "name": c.names[0]}, k)]


def _assigned_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The passages with a line that writes the name asked about, then the plain search
    (one step: its order is its tiers)."""
    return [Step("passages", "assigned_lines", {"query": query, "name": c.names[0]}, k)]


def _default_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The passages with a line that states the default asked about, then the plain search
    (one step: its order is its tiers)."""
    return [Step("passages", "default_lines", {"query": query, "thing": c.names[0]}, k)]


def _members_steps(query: str, c: Classification, k: int) -> list[Step]:
    """The type asked about and its members at their headers (or the definitions of the
    file asked about, of the kind asked), then the plain search."""
    if c.target == "file":
        args = {"query": query, "path": c.names[0], "kind": c.names[1]}
        if len(c.names) > 2 and c.names[2]:
            args["word"] = c.names[2]  # the project's middleware classes
        return [Step(L.C1_SYMBOL_CATALOG, "members", args, max(k, 20))]
    return [Step(L.C1_SYMBOL_CATALOG, "members", {"query": query, "name": c.names[0]}, k)]


def _usage_steps(query: str, c: Classification, k: int) -> list[Step]:
    """Where the name is documented, or the passages calling it, then the plain search
    (one step: its order is its tiers)."""
    kind, name = c.names
    return [Step("passages", "usage_lines", {"query": query, "kind": kind, "name": name}, k)]


def _compare_steps(query: str, c: Classification, k: int) -> list[Step]:
    """Both names' definitions at their headers, side by side, then the plain search."""
    steps = [
        Step(L.C1_SYMBOL_CATALOG, "symbol", {"name": n, "exact": True}, 3, 2.0) for n in c.names
    ]
    return [*steps, search_step("passages", query, k, 1.0)]


BUILDERS: dict[str, Callable[[str, Classification, int], list[Step]]] = {
    "symbol": _symbol_steps,
    "tests": _tests_steps,
    "file": _file_steps,
    "overview": _overview_steps,
    "subclasses": _lineage_steps,
    "bases": _lineage_steps,
    "importers": _import_steps,
    "callers": _walk_steps,
    "callees": _walk_steps,
    "entrypoints": _entry_steps,
    "workflow": _workflow_steps,
    "integrations": _integration_steps,
    "relations": _relation_steps,
    "definition": _definition_steps,
    "environment": _env_steps,
    "flag": _flag_steps,
    "marked": _marked_steps,
    "project": _project_steps,
    "changes": _changes_steps,
    "tasks": _tasks_steps,
    "caught": _caught_steps,
    "assigned": _assigned_steps,
    "default": _default_steps,
    "members": _members_steps,
    "usage": _usage_steps,
    "compare": _compare_steps,
}
# The layers an intent is about: with none of them indexed, the plain search is the answer.
NEEDS: dict[str, tuple[str, ...]] = {
    "symbol": (L.C1_SYMBOL_CATALOG,),
    "tests": (L.C2_DEPENDENCY_GRAPH, L.C0_SOURCE_CHUNKS),
    "file": (L.C0_SOURCE_CHUNKS, L.D0_DOC_CHUNKS),
    "overview": (L.C0_SOURCE_CHUNKS, L.D0_DOC_CHUNKS),
    "subclasses": (L.C2_DEPENDENCY_GRAPH,),
    "bases": (L.C2_DEPENDENCY_GRAPH,),
    "importers": (L.C2_DEPENDENCY_GRAPH,),
    "callers": (L.C2_DEPENDENCY_GRAPH,),
    "callees": (L.C2_DEPENDENCY_GRAPH,),
    "entrypoints": (L.C3_ENTRYPOINTS,),
    "workflow": (L.D4_WORKFLOW_INDEX,),
    "integrations": (L.D6_INTEGRATION_INDEX, L.D5_RELATION_GRAPH),
    "relations": (L.D5_RELATION_GRAPH,),
    "definition": (L.D1_DOCUMENT_CATALOG, L.D3_ENTITY_CATALOG),
    "environment": (L.C0_SOURCE_CHUNKS,),
    "flag": (L.C0_SOURCE_CHUNKS, L.D0_DOC_CHUNKS),
    "marked": (L.C0_SOURCE_CHUNKS,),
    "project": (L.C0_SOURCE_CHUNKS, L.D0_DOC_CHUNKS),
    "changes": (L.D0_DOC_CHUNKS,),
    "tasks": (L.C0_SOURCE_CHUNKS, L.D0_DOC_CHUNKS),
    "caught": (L.C0_SOURCE_CHUNKS,),
    "assigned": (L.C0_SOURCE_CHUNKS,),
    "default": (L.C0_SOURCE_CHUNKS, L.D0_DOC_CHUNKS),
    "members": (L.C1_SYMBOL_CATALOG,),
    "usage": (L.C0_SOURCE_CHUNKS, L.D0_DOC_CHUNKS),
    "compare": (L.C1_SYMBOL_CATALOG,),
}
