"""Which paths under a root are left out: the denylist, dot-files, .gitignore, .strataignore,
`index.exclude`; and which are brought back: `index.include`."""

from __future__ import annotations

import functools
import itertools
import logging
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

from pathspec import GitIgnoreSpec

from strata.config import IndexConfig
from strata.index.published import OUTPUT_DIRS, is_published_code
from strata.workspace.fileread import read_inside
from strata.workspace.git import tracked_but_ignored

log = logging.getLogger(__name__)

# Directory names never walked, matched against one path segment below the root (never
# by substring, never against the root's own ancestors). Every dot-directory is left out too.
# A build-output directory that is a published package's only code is walked
# (index/published).
DENY_DIRS: Final = frozenset(
    {".git", "node_modules", "__pycache__", "venv", ".venv", "target", "build", "dist", "out"}
)  # fmt: skip
# A `vendor/` directory is left out when a package manager filled it: Go's `modules.txt`,
# Composer's `autoload.php`, Bundler's `bundle/`, or a crate `cargo vendor` copied (its
# `.cargo-checksum.json`). Otherwise it holds copies a project ships as its own source
# (OpenZeppelin's `contracts/vendor/`, a C library's bundled header): it is indexed, and
# ranked below the project's own code (query/path_priors).
VENDOR_DIR: Final = "vendor"
PACKAGE_MANAGER_MARKS: Final = ("modules.txt", "autoload.php", "bundle")
CARGO_CHECKSUM: Final = ".cargo-checksum.json"
_MATCHED: Final = "matched"
_ON_THE_WAY: Final = "on the way"
GITIGNORE: Final = ".gitignore"
STRATAIGNORE: Final = ".strataignore"


def denied_by_default(name: str, is_dir: bool) -> bool:
    """Whether the defaults leave this name out: a denied directory, or any dot-file."""
    return denied_dir(name) if is_dir else name.startswith(".")


def denied_dir(name: str) -> bool:
    """Whether a directory of this name is on the default denylist (or is a dot-directory)."""
    return name in DENY_DIRS or (name.startswith(".") and name not in (".", ".."))


def denied(root: Path, rel: str, is_dir: bool) -> bool:
    """Whether the defaults leave `rel` (a POSIX path under `root`) out: `denied_by_default`
    but for a build output that is a package's shipped code (index/published), or a
    `vendor/` directory a package manager filled (`PACKAGE_MANAGER_MARKS`); only those
    two are looked into."""
    name = rel.rpartition("/")[2]
    if is_dir and name in OUTPUT_DIRS:
        return not is_published_code(root / rel, denied_dir)
    if denied_by_default(name, is_dir):
        return True
    return is_dir and name == VENDOR_DIR and filled_by_package_manager(root / rel)


def filled_by_package_manager(vendor: Path) -> bool:
    """Whether a `vendor/` directory holds a package manager's dependencies."""
    if any(os.path.lexists(vendor / mark) for mark in PACKAGE_MANAGER_MARKS):
        return True
    try:
        with os.scandir(vendor) as entries:
            crates = [e.path for e in itertools.islice(entries, 64) if e.is_dir()]
    except OSError:
        return False
    return any(os.path.lexists(os.path.join(c, CARGO_CHECKSUM)) for c in crates)


class IgnoreRules:
    """The ignore rules of one root, answering `ignored(rel, is_dir)` like `git check-ignore`.

    Ignore files are read lazily, once per directory, so building the rules is cheap:
    the watcher builds a new instance when a `.gitignore` or `.strataignore` changes.
    Deeper ignore files override shallower ones, `.strataignore` overrides the
    `.gitignore` beside it, and `cfg.exclude` (relative to the root) overrides both.
    `cfg.include` (relative to the root) brings back what the defaults (denied
    directories, dot-files) or ignore files leave out; `cfg.exclude` still wins over it.
    A directory is walked for an include pattern that names a path inside it.
    """

    def __init__(self, root: Path, cfg: IndexConfig) -> None:
        self.root = root
        self._names = (GITIGNORE, STRATAIGNORE) if cfg.respect_gitignore else (STRATAIGNORE,)
        self._max_bytes = cfg.max_file_bytes
        self._exclude = compile_patterns(cfg.exclude) if cfg.exclude else None
        self._include = compile_patterns(cfg.include, "index.include") if cfg.include else None
        self._include_dirs = tuple(_literal_dir(p) for p in cfg.include)
        self._narrow: set[str] = set()  # left-out directories walked only for their includes
        self._denied: dict[str, bool] = {}  # a directory's `denied`, looked into once
        self._specs: dict[str, GitIgnoreSpec | None] = {}
        self._own: dict[str, GitIgnoreSpec | None] = {}  # `.strataignore` alone

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
        path = rel.replace("\n", "\x1f")  # pathspec's `.` does not match a newline
        if is_dir:
            path += "/"
        verdict = None if self._exclude is None else self._exclude.check_file(path).include
        if verdict:
            return True
        how = self._brought_back(path, is_dir)
        if how == _MATCHED:
            return False
        parent = rel.rpartition("/")[0]
        if parent in self._narrow:  # walked only for the includes inside it
            if how == _ON_THE_WAY:
                self._narrow.add(rel)
            return how != _ON_THE_WAY
        left_out = self._by_default(rel, is_dir) or (
            verdict is None and self._ignored_by_files(path, rel, is_dir)
        )
        if left_out and how == _ON_THE_WAY:
            self._narrow.add(rel)
            return False
        return left_out

    def _by_default(self, rel: str, is_dir: bool) -> bool:
        """`denied`, a directory's verdict kept: a file's every parent is asked again."""
        if not is_dir:
            return denied(self.root, rel, is_dir)
        if rel not in self._denied:
            self._denied[rel] = denied(self.root, rel, is_dir)
        return self._denied[rel]

    def _brought_back(self, path: str, is_dir: bool) -> str:
        """`_MATCHED` by an include, `_ON_THE_WAY` to one (a directory), or ""."""
        if self._include is None:
            return ""
        if self._include.check_file(path).include:
            return _MATCHED
        return _ON_THE_WAY if is_dir and any(d.startswith(path) for d in self._include_dirs) else ""

    def load(self, dir_rel: str, names: Iterable[str]) -> None:
        """Read a directory's ignore files, given the names it holds (saves failed opens).

        Args:
            dir_rel: the directory relative to the root ("" for the root).
            names: the entry names of that directory, as seen by the walk.
        """
        if dir_rel not in self._specs:
            present = set(names)
            self._specs[dir_rel] = self._read(dir_rel, [n for n in self._names if n in present])

    def _tracked_of(self, is_dir: bool) -> frozenset[str]:
        return self._tracked[1] if is_dir else self._tracked[0]

    @functools.cached_property
    def _tracked(self) -> tuple[frozenset[str], frozenset[str]]:
        """What git tracks though a `.gitignore` matches it, and its folders: the project's
        (only `.strataignore`, the defaults and `cfg.exclude` leave it out). Asked of git
        the first time an ignore file leaves something out."""
        files = tracked_but_ignored(self.root) if GITIGNORE in self._names else frozenset()
        return files, frozenset(d for p in files for d in _parents(p))

    def _ignored_by_files(self, path: str, rel: str, is_dir: bool) -> bool:
        """What the ignore files say of a path; of one git tracks, `.strataignore` alone."""
        if not self._verdict(path, self._spec):
            return False
        return rel not in self._tracked_of(is_dir) or self._verdict(path, self._own_spec)

    @staticmethod
    def _verdict(path: str, spec_of: Callable[[str], GitIgnoreSpec | None]) -> bool:
        # Walk from the deepest directory up: the first decisive pattern wins.
        parts = path.rstrip("/").split("/")
        for depth in range(len(parts) - 1, -1, -1):
            dir_rel = "/".join(parts[:depth])
            spec = spec_of(dir_rel)
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

    def _own_spec(self, dir_rel: str) -> GitIgnoreSpec | None:
        """The directory's `.strataignore` alone (what it says of a tracked path)."""
        if dir_rel not in self._own:
            self._own[dir_rel] = self._read(dir_rel, (STRATAIGNORE,))
        return self._own[dir_rel]

    def _read(self, dir_rel: str, names: Iterable[str]) -> GitIgnoreSpec | None:
        lines: list[str] = []
        read: list[str] = []
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
            read.append(str(Path(dir_rel, name)))
        return compile_patterns(lines, " + ".join(read)) if lines else None


def compile_patterns(lines: Iterable[str], source: str = "index.exclude") -> GitIgnoreSpec:
    """Gitignore-style patterns matched by RE2, in time linear in the path (never
    backtracking). A line that is no pattern (`!` alone) is left out with a warning, as
    git leaves it: it ignores nothing, and the rest of `source` still applies."""
    lines = list(lines)
    try:
        return GitIgnoreSpec.from_lines(lines, backend="re2")
    except ValueError:  # pathspec's GitIgnorePatternError: one line is no pattern
        kept = []
        for line in lines:
            try:
                GitIgnoreSpec.from_lines([line], backend="re2")
            except ValueError as exc:
                log.warning("%s: pattern %r left out: %s", source, line, exc)
            else:
                kept.append(line)
        return GitIgnoreSpec.from_lines(kept, backend="re2")


def _parents(rel: str) -> list[str]:
    """`a/b/c.py` -> `a`, `a/b`."""
    parts = rel.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]


def _literal_dir(pattern: str) -> str:
    """The directories an include pattern names before its first wildcard, as `a/b/`."""
    literal = pattern.strip().lstrip("/")
    for i, c in enumerate(literal):
        if c in "*?[\\":
            literal = literal[:i]
            break
    head, _, _ = literal.rpartition("/")
    return head + "/" if head else ""
