"""What a project's manifests answer, asked as users and agents ask it: its dependencies
("what are the dependencies of this project", "which packages does this depend on") and
its version ("what version is this", "where is the version number defined"). For each
phrasing, the rank of the first hit that holds a line stating it.

    python -m benchmarks.quality.projectforms [--sets python,javascript] [--json FILE]

The corpora are `flagforms.CLIS`, whole source releases (their manifests at the root). The
lines are read from their files outside the tests, not from Strata's index: the
dependencies, a root manifest's runtime declaration (pyproject's `dependencies = [` or
`[tool.poetry.dependencies]`, setup.cfg's or setup.py's `install_requires`, package.json's
`"dependencies": {`); the version, a line that says `version` (any case) and writes the
release's number (`8.57.1`, or `7, 6, 1` as a tuple), outside the changelog, the docs'
prose, the packaging metadata (`PKG-INFO`, `*.egg-info`) and what the root's `.gitignore`
leaves out (black's `src/_black_version.py`, written by its build: black's version is in
no file a user indexes, and is not asked).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pathspec import GitIgnoreSpec

from benchmarks.quality.askforms import corpus_lines, main_with, measure_asked
from benchmarks.quality.flagforms import CLIS
from benchmarks.quality.model import Corpus, Query, Target

PHRASINGS = {
    "dependencies": (
        "what are the dependencies of this project",
        "which packages does this depend on",
        "what does this project depend on",
        "list the dependencies",
    ),
    "version": (
        "what version is this",
        "what is the current version",
        "where is the version number defined",
        "what version of the package is this",
    ),
}
_DEPENDS = re.compile(
    r"^\s*(?:dependencies\s*=\s*\[|\[tool\.poetry\.dependencies\]|install_requires\s*="
    r"|['\"]install_requires['\"]\s*:|\"dependencies\"\s*:\s*\{)"
)
_ROOT_MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py", "package.json")
_NOT_STATING = re.compile(
    r"(?:^|/)(?:tests?|spec|__tests__)/|(?:^|/)test_|PKG-INFO$|\.egg-info/|(?:^|/)CHANGE|"
    r"(?:^|/)HISTORY|\.(?:md|rst|txt|html|map)$",
    re.IGNORECASE,
)


def stated(root: Path, version: str) -> dict[str, list[Target]]:
    """The lines under `root` stating the project's dependencies and its `version`."""
    found: dict[str, list[Target]] = {"dependencies": [], "version": []}
    for name in _ROOT_MANIFESTS:
        path = root / name
        if path.is_file():
            for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
                if _DEPENDS.match(line):
                    found["dependencies"].append(Target(name, n, n))
    number = re.compile(rf"{re.escape(version)}\b|\b{', '.join(version.split('.'))}\b")
    ignore = root / ".gitignore"  # black's `src/_black_version.py` is written by its build
    ignored = GitIgnoreSpec.from_lines(ignore.read_text().split("\n") if ignore.is_file() else [])

    def stating(rel: str) -> bool:
        return not _NOT_STATING.search(rel) and not ignored.match_file(rel)

    for rel, n, line in corpus_lines(root, stating):
        if "version" in line.lower() and number.search(line):
            found["version"].append(Target(rel, n, n))
    return found


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every tool of `sets` asked each phrasing of what its lines state: the first such
    line's rank per row."""
    versions = {f"cli-{name}": version for _, _, name, version in CLIS}

    def ask(corpus: Corpus) -> list[Query]:
        return [
            Query(f"project:{corpus.name}:{kind}#{n}", text, corpus.name, text, tuple(lines))
            for kind, lines in stated(corpus.root, versions[corpus.name]).items()
            if lines
            for n, text in enumerate(PHRASINGS[kind])
        ]

    tools = [Corpus(f"cli-{n}", fetch(n, v), ()) for group, fetch, n, v in CLIS if group in sets]
    return measure_asked(sets, mode, ask, tools)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="python,javascript")


if __name__ == "__main__":
    main()
