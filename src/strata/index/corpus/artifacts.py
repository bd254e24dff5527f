"""Per-file artifacts of the corpus pass: what each file contributes, serialised once per hash.

An `Artifact` holds, as JSON, what the corpus pass needs from one file without parsing
it again: for Python its symbols, raw edges, `ModuleScope` and entry-point scan; for a
tree-sitter language its symbols and edges; for a document the parts of its `DocResult`
that `link_corpus` reads. `artifact_of` builds one from a file's text (pure); the
`*_artifact` builders take what the per-file pipeline has already computed.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from strata.index.code.entrypoints import FileEntrypoints, Mount, Owner, scan_entrypoints
from strata.index.code.entrypoints.polyglot import scan_treesitter_entrypoints
from strata.index.code.model import Edge, Entrypoint, Symbol
from strata.index.code.python.edges import extract_edges, module_scope
from strata.index.code.python.symbols import extract_symbols
from strata.index.code.resolve import ModuleScope
from strata.index.code.treesitter import symbols as treesitter_symbols
from strata.index.docs import DocResult
from strata.index.docs.document import Document, parse_document
from strata.index.docs.entities import Mention, mentions_of
from strata.index.docs.facts import Fact, extract_facts
from strata.index.docs.relations import Relation, extract_relations

PYTHON: Final = "python"
TREESITTER: Final = "treesitter"
DOC: Final = "doc"
NONE: Final = "none"
# Same mapping as `strata.index.pipeline.DOC_LANGS` (extracted lang -> docs parser format).
DOC_FORMATS: Final = {
    "markdown": "markdown",
    "rst": "rst",
    "html": "markdown",
    "text": "text",
    "pdf": "text",
}

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Artifact:
    """What one file (at one content hash) gives the corpus pass.

    `kind` is `python`, `treesitter`, `doc` or `none` (a file the pass ignores, kept so
    that it is not mistaken for a missing artifact); `lang` is the language its records
    carry; `payload` is JSON, decoded by `python_parts`, `treesitter_parts`, `doc_result`.
    """

    path: str
    file_hash: str
    kind: str
    lang: str
    payload: str = "{}"


@dataclass(frozen=True, slots=True)
class PythonParts:
    """A Python file's artifact, decoded."""

    symbols: list[Symbol]
    edges: list[Edge]
    scope: ModuleScope
    scan: FileEntrypoints


def artifact_of(rel: str, text: str, lang: str, file_hash: str, kind: str = "") -> Artifact:
    """The artifact of one file from its text, parsing it as the per-file pipeline does.

    Args:
        rel: POSIX path relative to the indexed root.
        text: the extracted text.
        lang: the extracted language (`python`, `go`, `markdown`, `html`, ...).
        file_hash: the file's content hash.
        kind: the extractor family (`code`, `markdown`, ...); `code` never makes a document.
    """
    if lang in DOC_FORMATS and kind != "code":
        return doc_artifact(_parse_doc(rel, text, DOC_FORMATS[lang], file_hash), lang)
    if lang == "python":
        symbols = extract_symbols(text, rel)
        edges = extract_edges(text, rel, symbols)
        scan = scan_entrypoints(text, rel, symbols)
        return python_artifact(rel, file_hash, symbols, edges, module_scope(text, rel), scan)
    if treesitter_symbols.reads(lang):
        symbols, edges = treesitter_symbols.extract(text, lang, rel)
        scan = scan_treesitter_entrypoints(text, lang, rel, symbols)
        return treesitter_artifact(rel, file_hash, lang, symbols, edges, scan)
    return Artifact(rel, file_hash, NONE, lang)


def _parse_doc(rel: str, text: str, fmt: str, file_hash: str) -> DocResult:
    """What `document_records` parses, without building the per-file records."""
    doc = parse_document(rel, text, fmt)
    facts, relations = tuple(extract_facts(doc)), tuple(extract_relations(doc))
    return DocResult(doc, file_hash, (), facts, relations, tuple(mentions_of(doc)))


def python_artifact(
    rel: str,
    file_hash: str,
    symbols: Sequence[Symbol],
    edges: Sequence[Edge],
    scope: ModuleScope,
    scan: FileEntrypoints,
) -> Artifact:
    """A Python file's artifact from its symbols, unresolved edges, scope and entry-point scan."""
    payload = {
        "symbols": [_plain(s) for s in symbols],
        "edges": [_plain(e) for e in edges],
        "scope": scope.to_json(),
        **_scan_payload(scan),
    }
    return Artifact(rel, file_hash, PYTHON, "python", _dumps(payload))


def treesitter_artifact(
    rel: str,
    file_hash: str,
    lang: str,
    symbols: Sequence[Symbol],
    edges: Sequence[Edge],
    scan: FileEntrypoints | None = None,
) -> Artifact:
    """A tree-sitter language file's artifact from its symbols, (same-file resolved) edges
    and entry-point scan."""
    payload: dict[str, Any] = {
        "symbols": [_plain(s) for s in symbols],
        "edges": [_plain(e) for e in edges],
    }
    if scan is not None and (scan.entrypoints or scan.owners or scan.mounts):
        payload |= _scan_payload(scan)
    return Artifact(rel, file_hash, TREESITTER, lang, _dumps(payload))


def doc_artifact(result: DocResult, lang: str) -> Artifact:
    """A document's artifact: its frontmatter-level `Document`, facts, relations and mentions.

    Lines and sections are left out: `link_corpus` never reads them.
    """
    doc = result.document
    fields = (
        "rel",
        "lang",
        "fmt",
        "frontmatter",
        "body_start_line",
        "document_id",
        "doc_kind",
        "title",
    )
    payload = {
        "document": {f: getattr(doc, f) for f in fields},
        "facts": [_plain(f) for f in result.facts],
        "relations": [_plain(r) for r in result.relations],
        "mentions": [_plain(m) for m in result.mentions],
    }
    return Artifact(result.rel, result.file_hash, DOC, lang, _dumps(payload))


def python_parts(artifact: Artifact) -> PythonParts:
    """Decode a `python` artifact."""
    data = json.loads(artifact.payload)
    return PythonParts(
        [_build(Symbol, s) for s in data["symbols"]],
        [_build(Edge, e) for e in data["edges"]],
        ModuleScope.from_json(data["scope"]),
        _scan_of(artifact.path, data),
    )


def treesitter_scan(artifact: Artifact) -> FileEntrypoints:
    """The entry-point scan of a `treesitter` artifact (empty for one made before C3 there)."""
    return _scan_of(artifact.path, json.loads(artifact.payload))


def _scan_payload(scan: FileEntrypoints) -> dict[str, Any]:
    return {
        "entries": [_plain(e) for e in scan.entrypoints],
        "owners": [_plain(o) for o in scan.owners],
        "mounts": [_plain(m) for m in scan.mounts],
    }


def _scan_of(path: str, data: Mapping[str, Any]) -> FileEntrypoints:
    return FileEntrypoints(
        path,
        tuple(_build(Entrypoint, e) for e in data.get("entries", ())),
        tuple(_build(Owner, o) for o in data.get("owners", ())),
        tuple(_build(Mount, m) for m in data.get("mounts", ())),
    )


def treesitter_parts(artifact: Artifact) -> tuple[list[Symbol], list[Edge]]:
    """Decode a `treesitter` artifact into (symbols, edges)."""
    data = json.loads(artifact.payload)
    return [_build(Symbol, s) for s in data["symbols"]], [_build(Edge, e) for e in data["edges"]]


def doc_result(artifact: Artifact) -> DocResult:
    """Decode a `doc` artifact into a `DocResult` fit for `link_corpus` (it has no records)."""
    data = json.loads(artifact.payload)
    doc = Document(lines=(), sections=(), **data["document"])
    return DocResult(
        doc,
        artifact.file_hash,
        (),
        tuple(_build(Fact, f) for f in data["facts"]),
        tuple(_build(Relation, r) for r in data["relations"]),
        tuple(_build(Mention, m) for m in data["mentions"]),
    )


def _plain(obj: Any) -> dict[str, Any]:
    """A flat dataclass as a dict (shallow: nested values must be JSON-ready)."""
    names = _FIELD_NAMES.get(type(obj))
    if names is None:
        names = _FIELD_NAMES[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
    return {name: getattr(obj, name) for name in names}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # per dataclass: `fields()` is slow


def _build(cls: type[T], data: Mapping[str, Any]) -> T:
    """The inverse of `_plain`: top-level lists become tuples again."""
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})


def _dumps(payload: Mapping[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=_jsonable)


def _jsonable(value: Any) -> Any:
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"cannot serialise {type(value).__name__} in an artifact")
