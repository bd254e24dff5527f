"""The corpus pass: after the per-file writes, recompute what depends on other files.

Per-file artifacts (`artifacts`, cached in `cache`) feed a pure whole-repository pass:
`code_pass` gives C2-C4 rows, `docs_pass` D2/D3/D5 rows; `changed_rows` keeps the paths
whose rows differ from the store's, and `merge_rows` joins them with the path's other
rows for `Store.replace_sources`.
"""

from __future__ import annotations

from collections.abc import Mapping

from strata.index.corpus.artifacts import (
    Artifact,
    PythonParts,
    artifact_of,
    doc_artifact,
    doc_result,
    python_artifact,
    python_parts,
    treesitter_artifact,
    treesitter_parts,
)
from strata.index.corpus.cache import FILE_NAME, ArtifactCache
from strata.index.corpus.code import CodeGraph, code_pass, resolve_repository
from strata.index.corpus.docs import docs_pass, docs_pass_of
from strata.index.corpus.rows import (
    CODE_CORPUS_LAYERS,
    CORPUS_LAYERS,
    DOC_CORPUS_LAYERS,
    CorpusRows,
    changed_rows,
    group_by_path,
    merge_rows,
)

__all__ = [
    "CODE_CORPUS_LAYERS",
    "CORPUS_LAYERS",
    "DOC_CORPUS_LAYERS",
    "FILE_NAME",
    "Artifact",
    "ArtifactCache",
    "CodeGraph",
    "CorpusRows",
    "PythonParts",
    "artifact_of",
    "changed_rows",
    "code_pass",
    "corpus_pass",
    "doc_artifact",
    "doc_result",
    "docs_pass",
    "docs_pass_of",
    "group_by_path",
    "merge_rows",
    "python_artifact",
    "python_parts",
    "resolve_repository",
    "treesitter_artifact",
    "treesitter_parts",
]


def corpus_pass(artifacts: Mapping[str, Artifact]) -> CorpusRows:
    """Both halves over every live file's artifact: the rows each path should now have."""
    return CorpusRows(code=code_pass(artifacts), docs=docs_pass_of(artifacts))
