"""What the web page shows beside hits: an indexed file's lines, and one document's layers.

Only a path the index holds for that repository is read, through `read_inside` (opened
without following a symlink out of the root, checked as a regular file, capped), so nothing
outside the indexed roots can be read, whatever the request names.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from strata.errors import UserError
from strata.layers import D1_DOCUMENT_CATALOG, D2_FACT_INDEX, D3_ENTITY_CATALOG
from strata.query.lookup.rows import record_json
from strata.store import Filter
from strata.types import JSON
from strata.workspace.fileread import Refused, read_inside

if TYPE_CHECKING:
    from strata.engine import Engine

MAX_FILE_BYTES = 4 << 20  # a page shows source, not data dumps


@dataclass(frozen=True, slots=True)
class SourceText:
    """An indexed file as it is on disk now: its lines, or why it cannot be shown."""

    path: str
    repo: str
    lines: tuple[str, ...]
    gone: str | None = None  # the reason when the file is no longer readable

    def to_json(self) -> JSON:
        """`{"path", "repo", "lines", "line_count", "gone"}`."""
        return {
            "path": self.path,
            "repo": self.repo,
            "lines": list(self.lines),
            "line_count": len(self.lines),
            "gone": self.gone,
        }


def source_text(eng: Engine, path: str, repo: str | None = None) -> SourceText:
    """The lines of `path` (a path the index holds for `repo`, the home repository by default).

    Raises:
        UserError: the index holds no such path (nothing else is ever read).
    """
    name, root = _repo_root(eng, repo)
    if path not in eng.repo_store(name).sources():
        raise UserError(f"{path!r} is not an indexed file of {name!r}")
    try:
        data = read_inside(root / path, root, MAX_FILE_BYTES)
    except FileNotFoundError:
        return SourceText(path, name, (), "deleted since it was indexed")
    except Refused as exc:
        return SourceText(path, name, (), exc.detail)
    except OSError as exc:
        return SourceText(path, name, (), exc.strerror or str(exc))
    text = data.decode("utf-8", errors="replace")
    return SourceText(path, name, tuple(text.splitlines()))


def _repo_root(eng: Engine, repo: str | None) -> tuple[str, Path]:
    for r in eng.repos():
        if (repo is None and r.home) or r.name == repo:
            return r.name, r.root
    raise UserError(f"no repository named {repo!r} in this index (see `strata repos`)")


def document_layers(eng: Engine, path: str, repo: str | None = None) -> JSON:
    """A document's D1 card, its D2 facts and D3 entities, and its D5 relations."""
    store = eng.repo_store(repo)
    rows = store.fetch(
        Filter(layers=(D1_DOCUMENT_CATALOG, D2_FACT_INDEX, D3_ENTITY_CATALOG), paths=(path,)),
        vectors=False,
    )
    card = next((r for r in rows if r.layer == D1_DOCUMENT_CATALOG), None)
    if card is None:
        raise UserError(f"{path!r} is not a document in the catalog (try `strata docs`)")
    doc_id = str(card.metadata.get("document_id") or path)
    try:
        relations = [r.to_json() for r in eng.related(doc_id, 1, repo=repo)]
    except UserError:
        relations = []
    return {
        "card": record_json(card),
        "facts": [record_json(r) for r in rows if r.layer == D2_FACT_INDEX],
        "entities": [record_json(r) for r in rows if r.layer == D3_ENTITY_CATALOG],
        "relations": relations,
    }
