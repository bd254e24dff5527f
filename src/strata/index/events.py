"""The watcher's single work queue (pure): filesystem events in, last intent per path out.

Every event becomes intents on paths relative to the root: a create or modify asks
for a reindex, a delete for a removal, a move for a removal of the source and a
reindex of the destination. Only the latest intent per path is kept, so a burst
of saves, an editor's write-temp-then-rename or a 5,000-file branch switch
collapses to one entry per path, taken out in batches in arrival order.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = ["Event", "Intent", "WorkQueue", "intents_for", "is_editor_noise", "is_ignore_file"]


class Intent(str, enum.Enum):
    """What the watcher must do for one path."""

    INDEX = "index"  # (re)index the file, or every file below a directory
    REMOVE = "remove"  # drop the rows of the path, or of everything below it


@dataclass(frozen=True, slots=True)
class Event:
    """A filesystem event reduced to what the queue needs.

    `kind` is `created`, `modified`, `deleted` or `moved`; paths are POSIX and
    relative to the root (`dest` only for moves; None when it left the root).
    """

    kind: str
    src: str | None
    is_dir: bool = False
    dest: str | None = None


_SWAP_SUFFIXES = (".swp", ".swx", ".swo", ".swn")


def is_editor_noise(rel: str) -> bool:
    """Whether a path is an editor's swap or probe file, never worth indexing.

    Vim's swap files and its `4913` write probe, Emacs' `.#lock` symlinks. Backups
    (`name~`) are not noise: if one stays on disk `strata index` indexes it too.
    """
    name = PurePosixPath(rel).name
    return name.endswith(_SWAP_SUFFIXES) or name == "4913" or name.startswith(".#")


def is_ignore_file(rel: str) -> bool:
    """Whether a path is an ignore file whose change alters which files are indexed."""
    return PurePosixPath(rel).name in (".gitignore", ".strataignore")


def intents_for(event: Event) -> list[tuple[str, Intent]]:
    """The intents one event stands for (directory modifications stand for none)."""
    if event.kind == "moved":
        out: list[tuple[str, Intent]] = []
        if event.src is not None:
            out.append((event.src, Intent.REMOVE))
        if event.dest is not None:
            out.append((event.dest, Intent.INDEX))
        return [(p, i) for p, i in out if not is_editor_noise(p)]
    if event.src is None or is_editor_noise(event.src):
        return []
    if event.kind == "deleted":
        return [(event.src, Intent.REMOVE)]
    if event.kind == "modified" and event.is_dir:
        return []  # a directory's mtime changed; its files have their own events
    if event.kind in ("created", "modified", "closed"):
        return [(event.src, Intent.INDEX)]
    return []


class WorkQueue:
    """Pending intents, one per path, the latest winning; batches come out oldest first.

    Not thread-safe by itself: the watcher guards it with one lock.
    """

    def __init__(self) -> None:
        self._items: dict[str, Intent] = {}

    def __len__(self) -> int:
        return len(self._items)

    def push(self, rel: str, intent: Intent) -> None:
        """Record an intent; a later intent for the same path replaces the earlier one."""
        self._items.pop(rel, None)  # re-insert at the end: the path is fresh again
        self._items[rel] = intent

    def push_event(self, event: Event) -> int:
        """Record the intents of one event; returns how many."""
        got = intents_for(event)
        for rel, intent in got:
            self.push(rel, intent)
        return len(got)

    def take(self, limit: int) -> dict[str, Intent]:
        """Remove and return up to `limit` entries, oldest first."""
        batch: dict[str, Intent] = {}
        for rel in list(self._items)[: max(limit, 0)]:
            batch[rel] = self._items.pop(rel)
        return batch

    def put_back(self, batch: dict[str, Intent]) -> None:
        """Return a batch that could not be applied; newer intents queued since win."""
        for rel, intent in batch.items():
            self._items.setdefault(rel, intent)

    def peek(self) -> dict[str, Intent]:
        """A copy of what is pending (for status and tests)."""
        return dict(self._items)

    def extend(self, items: Iterable[tuple[str, Intent]]) -> None:
        """Push many intents in order."""
        for rel, intent in items:
            self.push(rel, intent)
