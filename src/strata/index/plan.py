"""The incremental plan, pure: the `Changes` an index run makes (add, re-check, keep, remove)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from strata.types import FileState, SourceFile


@dataclass(frozen=True, slots=True)
class Changes:
    """What an index run must do.

    `new`: on disk, not in the index. `changed`: in the index but the stat differs
    (size or mtime), so the file is read and re-chunked; unchanged chunks keep their
    vectors through the embedding cache. `unchanged`: same stat, not read at all.
    `removed`: in the index, no longer an indexable file on disk. `reread`: in the index,
    read and chunked again whatever its stat says, because the index was written with
    other chunk settings or by another Strata (`index.fingerprint`).
    """

    new: tuple[SourceFile, ...]
    changed: tuple[SourceFile, ...]
    unchanged: tuple[str, ...]
    removed: tuple[str, ...]
    reread: tuple[SourceFile, ...] = ()

    @property
    def to_read(self) -> tuple[SourceFile, ...]:
        """Every file whose content must be read this run."""
        return self.new + self.changed + self.reread

    def is_noop(self) -> bool:
        """True when nothing needs reading or removing."""
        return not (self.new or self.changed or self.removed or self.reread)


def make_plan(
    on_disk: Iterable[SourceFile],
    indexed: Mapping[str, FileState],
    *,
    full: bool = False,
    scope: Iterable[str] | None = None,
    reread: bool = False,
) -> Changes:
    """Compare the files on disk with what the index holds, by stat first.

    Args:
        on_disk: files discovery found indexable.
        indexed: the index's view: path -> FileState.
        full: treat every file as new (a rebuild).
        scope: when given, only these indexed paths may be removed (indexing one file
            or a subtree must not drop the rest of the index).
        reread: the index's rows were made another way: every indexed file is read
            again (`reread`), whatever its stat says.
    """
    new: list[SourceFile] = []
    changed: list[SourceFile] = []
    again: list[SourceFile] = []
    unchanged: list[str] = []
    seen: set[str] = set()
    for f in on_disk:
        seen.add(f.rel)
        state = indexed.get(f.rel)
        if full or state is None:
            new.append(f)
        elif reread:
            again.append(f)
        elif state.size == f.size and state.mtime_ns == f.mtime_ns:
            unchanged.append(f.rel)
        else:
            changed.append(f)
    candidates = indexed.keys() if scope is None else set(scope) & indexed.keys()
    removed = sorted(p for p in candidates if p not in seen)
    return Changes(tuple(new), tuple(changed), tuple(unchanged), tuple(removed), tuple(again))
