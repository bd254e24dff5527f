"""Which paths under a root are left out: the denylist, .gitignore, .strataignore, exclude."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from pathspec import GitIgnoreSpec

from strata.config import IndexConfig
from strata.fileread import read_inside

log = logging.getLogger(__name__)

# Directory names never walked, matched against one path segment below the root (never
# by substring, never against the root's own ancestors). Every dot-directory is left out too.
DENY_DIRS: Final = frozenset(
    {".git", "node_modules", "__pycache__", "venv", ".venv", "target", "build", "dist", "out",
     "vendor"}
)  # fmt: skip
GITIGNORE: Final = ".gitignore"
STRATAIGNORE: Final = ".strataignore"


def denied_dir(name: str) -> bool:
    """Whether a directory of this name is on the default denylist (or is a dot-directory)."""
    return name in DENY_DIRS or (name.startswith(".") and name not in (".", ".."))


class IgnoreRules:
    """The ignore rules of one root, answering `ignored(rel, is_dir)` like `git check-ignore`.

    Ignore files are read lazily, once per directory, so building the rules is cheap:
    the watcher builds a new instance when a `.gitignore` or `.strataignore` changes.
    Deeper ignore files override shallower ones, `.strataignore` overrides the
    `.gitignore` beside it, and `cfg.exclude` (relative to the root) overrides both.
    """

    def __init__(self, root: Path, cfg: IndexConfig) -> None:
        self.root = root
        self._names = (GITIGNORE, STRATAIGNORE) if cfg.respect_gitignore else (STRATAIGNORE,)
        self._max_bytes = cfg.max_file_bytes
        self._exclude = compile_patterns(cfg.exclude) if cfg.exclude else None
        self._specs: dict[str, GitIgnoreSpec | None] = {}

    def ignored(self, rel: str, is_dir: bool) -> bool:
        """Whether a POSIX path relative to the root is left out.

        A path is left out when it or any of its parent directories is: as in git,
        a negation cannot re-include a file whose directory is ignored.
        """
        parts = rel.split("/")
        for i in range(1, len(parts)):
            if self.matches("/".join(parts[:i]), is_dir=True):
                return True
        return self.matches(rel, is_dir)

    def matches(self, rel: str, is_dir: bool) -> bool:
        """Whether the path itself is left out, assuming its parent directories are not."""
        name = rel.rpartition("/")[2]
        if is_dir and denied_dir(name):
            return True
        path = rel.replace("\n", "\x1f")  # pathspec's `.` does not match a newline
        if is_dir:
            path += "/"
        if self._exclude is not None:
            verdict = self._exclude.check_file(path).include
            if verdict is not None:
                return bool(verdict)
        return self._ignored_by_files(path)

    def load(self, dir_rel: str, names: Iterable[str]) -> None:
        """Read a directory's ignore files, given the names it holds (saves failed opens).

        Args:
            dir_rel: the directory relative to the root ("" for the root).
            names: the entry names of that directory, as seen by the walk.
        """
        if dir_rel not in self._specs:
            present = set(names)
            self._specs[dir_rel] = self._read(dir_rel, [n for n in self._names if n in present])

    def _ignored_by_files(self, path: str) -> bool:
        # Walk from the deepest directory up: the first decisive pattern wins.
        parts = path.rstrip("/").split("/")
        for depth in range(len(parts) - 1, -1, -1):
            dir_rel = "/".join(parts[:depth])
            spec = self._spec(dir_rel)
            if spec is None:
                continue
            sub = path[len(dir_rel) + 1 :] if dir_rel else path
            verdict = spec.check_file(sub).include
            if verdict is not None:
                return bool(verdict)
        return False

    def _spec(self, dir_rel: str) -> GitIgnoreSpec | None:
        if dir_rel not in self._specs:
            self._specs[dir_rel] = self._read(dir_rel, self._names)
        return self._specs[dir_rel]

    def _read(self, dir_rel: str, names: Iterable[str]) -> GitIgnoreSpec | None:
        lines: list[str] = []
        for name in names:
            path = self.root / dir_rel / name
            try:
                raw = read_inside(path, self.root, self._max_bytes)
            except FileNotFoundError:
                continue
            except OSError as exc:  # a FIFO, a link to /dev/zero or out of the root, too large
                log.warning("ignore file %s not read: %s", path, exc)
                continue
            lines += raw.decode("utf-8", errors="replace").splitlines()
        return compile_patterns(lines) if lines else None


def compile_patterns(lines: Iterable[str]) -> GitIgnoreSpec:
    """Gitignore-style patterns matched by RE2, in time linear in the path (never backtracking)."""
    return GitIgnoreSpec.from_lines(lines, backend="re2")
