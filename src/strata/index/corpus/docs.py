"""The docs half of the corpus pass: D2 facts, D3 entities and D5 relations over every document.

`strata.index.docs.link_corpus` resolves object refs and link targets against all documents
and merges entities; here its rows are grouped per path, each document getting an entry
(possibly empty) so that rows it no longer owns (an entity now owned elsewhere) go.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from strata.index.corpus.artifacts import DOC, Artifact, doc_result
from strata.index.corpus.rows import RowsByPath
from strata.index.docs import DocResult, link_corpus, rows_by_path
from strata.types import Record


def docs_pass(results: Sequence[DocResult], langs: Mapping[str, str] | None = None) -> RowsByPath:
    """The D2, D3 and D5 rows every document should now have, by path (pure).

    Args:
        results: every document of the index (`document_records` output, or decoded artifacts).
        langs: the language a path's records carry when it differs from the parser's
            (an HTML file is parsed as Markdown but its records say `html`).
    """
    light = [dataclasses.replace(r, records=()) for r in results]
    grouped = rows_by_path(light, link_corpus(results))
    langs = langs or {}
    return {
        path: [_in_lang(r, langs.get(path)) for r in rows] for path, rows in sorted(grouped.items())
    }


def docs_pass_of(artifacts: Mapping[str, Artifact]) -> RowsByPath:
    """`docs_pass` over every `doc` artifact."""
    docs = [a for _, a in sorted(artifacts.items()) if a.kind == DOC]
    return docs_pass([doc_result(a) for a in docs], {a.path: a.lang for a in docs})


def _in_lang(record: Record, lang: str | None) -> Record:
    return record if lang is None or record.lang == lang else dataclasses.replace(record, lang=lang)
