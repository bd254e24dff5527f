"""What an index run is told (its session, its corpus hook) and what it reports (its summary)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from strata.types import Skip, fields_json
from strata.workspace.git import DIRTY, dirty_paths, head_commit

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from pathlib import Path

    from strata.index.corpus import ArtifactCache
    from strata.types import SourceFile


@dataclass(frozen=True, slots=True)
class Session:
    """Who the written rows belong to: repository, revision and indexing session."""

    repo_id: str = ""
    commit_sha: str | None = None
    session_id: str = ""
    dirty: frozenset[str] = frozenset()

    def of(self, rel: str) -> tuple[str, str | None]:
        """(session id, commit) for the rows of `rel`: `sha+dirty` when its bytes are not
        that commit's, so `repo@sha` never names a revision the text did not come from."""
        if self.commit_sha is None or rel not in self.dirty:
            return self.session_id, self.commit_sha
        return f"{self.session_id}{DIRTY}", f"{self.commit_sha}{DIRTY}"


def session_for(repo: str, root: Path) -> Session:
    """The session of a run over `root` now: HEAD's sha (`worktree` outside git) and the
    files whose bytes are not HEAD's."""
    sha = head_commit(root)
    dirty = dirty_paths(root) if sha else frozenset()
    return Session(repo, sha, f"{repo}@{sha or 'worktree'}", dirty)


@dataclass(frozen=True, slots=True)
class CorpusHook:
    """Where the corpus pass keeps per-file artifacts; `force` reruns it with no change.

    `pending` is a marker file that exists from before a run's first write until its
    corpus pass is done: a run killed (or out of disk) in between leaves it, and the next
    run then redoes the pass comparing every path (`recheck`), so no derived row is lost.
    """

    cache: ArtifactCache
    root: Path
    force: bool = False
    pending: Path | None = None
    recheck: bool = False

    def begin(self) -> None:
        """Mark the corpus layers as possibly behind the per-file rows."""
        if self.pending is not None:
            self.pending.touch()

    def finish(self) -> None:
        """The corpus pass is done: the layers agree with the per-file rows again."""
        if self.pending is not None:
            self.pending.unlink(missing_ok=True)


@dataclass(slots=True)
class IndexSummary:
    """What an index run did, for the final summary line and `--json`."""

    root: str
    files_seen: int = 0
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    reread: int = 0  # indexed files read again: the index was chunked another way
    skips: list[Skip] = field(default_factory=list)
    rows_by_layer: dict[str, int] = field(default_factory=dict)
    vectors_embedded: int = 0
    vectors_missing: int = 0
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    searchable_seconds: float = 0.0
    embed_error: str | None = None
    corpus_rewritten: int = 0
    workers: int = 1
    fold_seconds: float = 0.0  # spent folding new rows into the search indexes mid-run

    @property
    def skipped(self) -> dict[str, int]:
        """Skipped files counted by reason."""
        return dict(Counter(s.reason.value for s in self.skips))

    def skipped_stats(self, files: Iterable[SourceFile]) -> dict[str, list[int]]:
        """Stat of each file the run skipped, so `status` does not count it as pending."""
        skipped = {s.rel for s in self.skips}
        return {f.rel: [f.size, f.mtime_ns] for f in files if f.rel in skipped}

    def count_corpus_rows(
        self, superseded: Sequence[Counter[str]], written: Mapping[str, int]
    ) -> None:
        """The corpus pass's rows (D3 entities exist only there), in place of the per-file
        rows of the layers it rewrote for the same files."""
        rows = self.rows_by_layer
        for layer, n in (sum(superseded, Counter()) - Counter()).items():
            rows[layer] = rows.get(layer, 0) - n
        for layer, n in written.items():
            rows[layer] = rows.get(layer, 0) + n
        for layer in [layer for layer, n in rows.items() if n <= 0]:
            del rows[layer]

    def to_json(self) -> dict[str, object]:
        """The summary as printed by `strata index --json`."""
        return {
            **fields_json(self, "root", "files_seen", "indexed", "unchanged", "removed", "reread"),
            "skipped": self.skipped,
            "skips": [
                {"path": s.rel, "reason": s.reason.value, "detail": s.detail} for s in self.skips
            ],
            **fields_json(self, "rows_by_layer", "vectors_embedded", "vectors_missing", "warnings"),
            "seconds": round(self.seconds, 3),
            "searchable_seconds": round(self.searchable_seconds, 3),
            **fields_json(self, "embed_error", "corpus_rewritten", "workers"),
            "fold_seconds": round(self.fold_seconds, 3),
        }
