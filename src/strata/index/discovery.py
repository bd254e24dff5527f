"""Find the files to index under a root: a fast `os.scandir` walk that honours the ignore rules."""

from __future__ import annotations

import errno
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from strata.config import IndexConfig
from strata.errors import UserError
from strata.index.ignore import IgnoreRules
from strata.text.utf8 import is_utf8, printable
from strata.types import Skip, SkipReason, SourceFile
from strata.workspace.fileread import file_kind

log = logging.getLogger(__name__)

_BAD_NAME = "file name is not valid UTF-8; rename it to index it"

__all__ = ["Discovery", "IgnoreRules", "discover", "discover_one", "is_under"]


def is_under(path: str, rel: str) -> bool:
    """Whether the POSIX path `path` is `rel` or lies below it (both relative to a root)."""
    rel = rel.rstrip("/")
    return path == rel or path.startswith(rel + "/")


@dataclass(frozen=True, slots=True)
class Discovery:
    """What a walk found: the root, the files to read (sorted by `rel`) and the skips."""

    root: Path
    files: tuple[SourceFile, ...]
    skips: tuple[Skip, ...]

    def under(self, rel: str) -> Discovery:
        """Only what lies at or below `rel` (a POSIX path relative to the root)."""
        files = tuple(f for f in self.files if is_under(f.rel, rel))
        return Discovery(self.root, files, tuple(s for s in self.skips if is_under(s.rel, rel)))


@dataclass(frozen=True, slots=True)
class _LinkedDir:
    """A symlink to a directory inside the root, walked after every real directory."""

    rel: str
    real: str


def discover(target: Path, cfg: IndexConfig) -> Discovery:
    """Find the files to index under a directory, or the one file named.

    A directory is walked with its ignore rules; a file roots at its parent and is
    taken even when an ignore rule would leave it out (it was named explicitly).

    Args:
        target: a directory to walk or one file.
        cfg: size cap, exclude patterns, gitignore and symlink switches.

    Raises:
        UserError: the target does not exist.
    """
    path = Path(os.path.abspath(target))
    if not os.path.lexists(path):
        raise UserError(f"{path} does not exist", hint="pass a directory or a file to index")
    if not path.is_dir():
        return _discover_file(path, cfg)
    walk = _Walk(path, cfg)
    walk.run()
    files = tuple(sorted(walk.files, key=lambda f: f.rel))
    skips = tuple(sorted(walk.skips, key=lambda s: s.rel))
    log.debug("discovered %d files, %d skips under %s", len(files), len(skips), path)
    return Discovery(path, files, skips)


def _discover_file(path: Path, cfg: IndexConfig) -> Discovery:
    if not is_utf8(path.name):
        return Discovery(
            path.parent, (), (Skip(printable(path.name), SkipReason.UNREADABLE, _BAD_NAME),)
        )
    found = _inspect(path.parent, _real(path.parent), path.name, cfg)
    if isinstance(found, SourceFile):
        return Discovery(path.parent, (found,), ())
    if isinstance(found, Skip):
        return Discovery(path.parent, (), (found,))
    return Discovery(path.parent, (), ())


def discover_one(
    root: Path, abspath: Path, cfg: IndexConfig, rules: IgnoreRules
) -> SourceFile | Skip | None:
    """Classify one path for the watcher.

    Args:
        root: the indexed root.
        abspath: the changed path (absolute, or relative to the working directory).
        cfg: size cap and symlink switch.
        rules: the root's ignore rules (rebuild them when an ignore file changes).

    Returns:
        The file to index, a Skip (a deleted file is `VANISHED`), or None when the
        path is ignored, a directory, or not under the root.
    """
    root = Path(os.path.abspath(root))
    try:
        rel = Path(os.path.abspath(abspath)).relative_to(root).as_posix()
    except ValueError:
        return None
    if rel == ".":
        return None
    if not is_utf8(rel):
        return Skip(printable(rel), SkipReason.UNREADABLE, _BAD_NAME)
    is_dir = os.path.isdir(root / rel)
    if rules.ignored(rel, is_dir):
        return None
    found = _inspect(root, _real(root), rel, cfg)
    return None if isinstance(found, _LinkedDir) else found


class _Walk:
    """One walk of a root; real directories first, then symlinked ones (no duplicates)."""

    def __init__(self, root: Path, cfg: IndexConfig) -> None:
        self.root = root
        self.real_root = _real(root)
        self.cfg = cfg
        self.rules = IgnoreRules(root, cfg)
        self.visited: set[str] = set()
        self.linked: list[_LinkedDir] = []
        self.files: list[SourceFile] = []
        self.skips: list[Skip] = []

    def run(self) -> None:
        self._walk("", self.real_root)
        while self.linked:
            link = self.linked.pop(0)
            if link.real in self.visited:
                log.debug("not following %s: %s is already walked", link.rel, link.real)
                continue
            self._walk(link.rel, link.real)

    def _walk(self, top_rel: str, top_real: str) -> None:
        stack = [top_rel]
        while stack:
            dir_rel = stack.pop()
            real = _join(top_real, dir_rel[len(top_rel) :].lstrip("/"))
            if real in self.visited:
                continue
            self.visited.add(real)
            try:
                with os.scandir(self.root / dir_rel) as it:
                    entries = list(it)
            except OSError as exc:
                self.skips.append(Skip(dir_rel, SkipReason.UNREADABLE, exc.strerror or str(exc)))
                continue
            self.rules.load(dir_rel, (e.name for e in entries))
            for entry in entries:
                rel = f"{dir_rel}/{entry.name}" if dir_rel else entry.name
                if not is_utf8(entry.name):
                    self.skips.append(Skip(printable(rel), SkipReason.UNREADABLE, _BAD_NAME))
                    continue
                self._entry(entry, rel, stack)

    def _entry(self, entry: os.DirEntry[str], rel: str, stack: list[str]) -> None:
        if entry.is_symlink():
            found = self._link(rel) if self.cfg.follow_symlinks else None
        else:
            is_dir = entry.is_dir(follow_symlinks=False)
            if self.rules.matches(rel, is_dir):
                return
            if is_dir:
                stack.append(rel)
                return
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:  # deleted or replaced while walking
                log.debug("left out %s: %s", rel, exc)
                return
            found = _from_stat(self.root, rel, st, self.cfg)
        if isinstance(found, SourceFile):
            self.files.append(found)
        elif isinstance(found, Skip):
            self.skips.append(found)
        elif isinstance(found, _LinkedDir):
            self.linked.append(found)

    def _link(self, rel: str) -> SourceFile | Skip | _LinkedDir | None:
        is_dir = os.path.isdir(self.root / rel)
        if self.rules.matches(rel, is_dir):
            return None
        return _inspect(self.root, self.real_root, rel, self.cfg)


def _inspect(
    root: Path, real_root: str, rel: str, cfg: IndexConfig
) -> SourceFile | Skip | _LinkedDir | None:
    """Classify one path below the root, following a symlink only when allowed and inside."""
    path = root / rel
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return Skip(rel, SkipReason.VANISHED, "deleted before it was read")
    except OSError as exc:
        return Skip(rel, SkipReason.UNREADABLE, exc.strerror or str(exc))
    if stat.S_ISLNK(st.st_mode):
        if not cfg.follow_symlinks:
            return None
        return _follow(root, real_root, rel, cfg)
    if stat.S_ISDIR(st.st_mode):
        return None
    return _from_stat(root, rel, st, cfg)


def _follow(
    root: Path, real_root: str, rel: str, cfg: IndexConfig
) -> SourceFile | Skip | _LinkedDir:
    path = root / rel
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return Skip(rel, SkipReason.NOT_A_FILE, f"dangling symlink to {os.readlink(path)}")
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Skip(rel, SkipReason.NOT_A_FILE, "symlink loop")
        return Skip(rel, SkipReason.UNREADABLE, exc.strerror or str(exc))
    real = _real(path)
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        return Skip(rel, SkipReason.NOT_A_FILE, "symlink points outside the root")
    if stat.S_ISDIR(st.st_mode):
        return _LinkedDir(rel, real)
    return _from_stat(root, rel, st, cfg)


def _from_stat(root: Path, rel: str, st: os.stat_result, cfg: IndexConfig) -> SourceFile | Skip:
    """A SourceFile, or a Skip for what must never be opened (FIFO, socket, device, too large)."""
    if not stat.S_ISREG(st.st_mode):
        return Skip(rel, SkipReason.NOT_A_FILE, file_kind(st.st_mode))
    if st.st_size > cfg.max_file_bytes:
        limit = f"{_mib(st.st_size)} > index.max_file_bytes {_mib(cfg.max_file_bytes)}"
        return Skip(rel, SkipReason.TOO_LARGE, limit)
    return SourceFile(root / rel, rel, st.st_size, st.st_mtime_ns)


def _join(base: str, sub: str) -> str:
    return f"{base.rstrip(os.sep)}{os.sep}{sub}" if sub else base


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def _real(path: Path) -> str:
    return os.path.realpath(path)
