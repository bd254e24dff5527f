"""One file in, its records out: extract, chunk, and build every per-file layer.

Documents (Markdown, RST, text, PDF, HTML) give the D-layers (`strata.index.docs`); source
files give C0 chunks and, where a parser knows the language, C1 symbols, C2 edges,
C3 entry points and C4 roles (`strata.index.code`). Cross-file resolution happens later,
in the corpus pass; everything here depends on the one file alone.
"""

from __future__ import annotations

import dataclasses
import logging

from strata.config import Config
from strata.index.chunking import chunk
from strata.index.code.entrypoints import compose_entrypoints, scan_entrypoints
from strata.index.code.entrypoints.polyglot import scan_treesitter_entrypoints
from strata.index.code.model import Edge, Entrypoint, Symbol
from strata.index.code.python.edges import extract_edges, module_scope
from strata.index.code.python.symbols import extract_symbols
from strata.index.code.records import edge_records, entrypoint_records, role_records, symbol_records
from strata.index.code.roles import assign_roles
from strata.index.code.treesitter import symbols as treesitter_symbols
from strata.index.corpus.artifacts import (
    NONE,
    Artifact,
    doc_artifact,
    python_artifact,
    treesitter_artifact,
)
from strata.index.docs import document_records
from strata.index.extraction import extract
from strata.index.passages import MINIFIED, FileOutcome, is_minified
from strata.index.records import chunk_records
from strata.text import pyparse
from strata.types import Extracted, Record, Skip, SkipReason, SourceFile

log = logging.getLogger(__name__)

DOC_LANGS = {
    "markdown": "markdown",
    "rst": "rst",
    "html": "markdown",
    "text": "text",
    "pdf": "text",
}


def build_records(doc: Extracted, cfg: Config) -> tuple[list[Record], tuple[str, ...]]:
    """Every per-file record of one document or source file, and warnings about it."""
    records, notes, _ = build_records_and_artifact(doc, cfg)
    return records, notes


def build_records_and_artifact(
    doc: Extracted, cfg: Config
) -> tuple[list[Record], tuple[str, ...], Artifact]:
    """Per-file records, warnings, and the artifact the corpus pass keeps of the file."""
    if doc.lang in DOC_LANGS and doc.kind != "code":
        result = document_records(doc.rel, doc.text, DOC_LANGS[doc.lang], doc.file_hash, cfg.chunk)
        records = list(result.records)
        if records and records[0].lang != doc.lang:
            records = [dataclasses.replace(r, lang=doc.lang) for r in records]
        return records, tuple(result.warnings), doc_artifact(result, doc.lang)
    if is_minified(doc.text):  # bundles and minified files: windows only, no parse
        windows = chunk(dataclasses.replace(doc, lang=MINIFIED), cfg.chunk)
        return chunk_records(doc, windows), (), Artifact(doc.rel, doc.file_hash, NONE, doc.lang)
    records = chunk_records(doc, chunk(doc, cfg.chunk))
    symbols, edges, entries, artifact = _code_items(doc)
    if symbols or edges or entries:
        roles = assign_roles(symbols, edges, entries)
        h = doc.file_hash
        records += symbol_records(symbols, h) + edge_records(edges, h)
        records += entrypoint_records(entries, h) + role_records(roles, h)
        records = [
            r if r.lang == doc.lang else dataclasses.replace(r, lang=doc.lang) for r in records
        ]
    return records, (), artifact


def _code_items(doc: Extracted) -> tuple[list[Symbol], list[Edge], list[Entrypoint], Artifact]:
    if doc.lang == "python":
        try:
            symbols = extract_symbols(doc.text, doc.rel)
            scope = module_scope(doc.text, doc.rel)
            edges = extract_edges(doc.text, doc.rel, symbols, scope)
            scan = scan_entrypoints(doc.text, doc.rel, symbols)
        finally:
            pyparse.forget()  # the chunker's and these walks' one tree is done with
        art = python_artifact(doc.rel, doc.file_hash, symbols, edges, scope, scan)
        return symbols, edges, compose_entrypoints([scan]), art
    if treesitter_symbols.reads(doc.lang):
        symbols, edges = treesitter_symbols.extract(doc.text, doc.lang, doc.rel)
        scan = scan_treesitter_entrypoints(doc.text, doc.lang, doc.rel, symbols)
        art = treesitter_artifact(doc.rel, doc.file_hash, doc.lang, symbols, edges, scan)
        return symbols, edges, compose_entrypoints([scan]), art
    return [], [], [], Artifact(doc.rel, doc.file_hash, NONE, doc.lang)


def process_file(f: SourceFile, cfg: Config) -> FileOutcome:
    """Read, extract and build records for one file; never raises for bad input."""
    got = extract(f, cfg.index.max_file_bytes)
    if isinstance(got, Skip):
        return FileOutcome(f, skip=got)
    try:
        records, notes, artifact = build_records_and_artifact(got, cfg)
    except (RecursionError, MemoryError, ValueError, SyntaxError) as exc:
        # a parser bug must cost one file, never the run
        log.debug("building records for %s failed", f.rel, exc_info=True)
        return FileOutcome(f, skip=Skip(f.rel, SkipReason.UNREADABLE, f"could not parse: {exc}"))
    warnings = got.warnings + notes
    if not records:
        return FileOutcome(f, skip=Skip(f.rel, SkipReason.NO_TEXT), warnings=warnings)
    return FileOutcome(
        f, records=tuple(records), warnings=warnings, file_hash=got.file_hash, artifact=artifact
    )


def process_batch(files: list[SourceFile], cfg: Config) -> list[FileOutcome]:
    """`process_file` over a list (the unit of work sent to a worker process)."""
    return [process_file(f, cfg) for f in files]
