"""What a project's changelog answers, asked as users and agents ask it: what changed in a
release ("what changed in 0.28.0", "what's new in version 2.0", "release notes for
1.2.3"), in the latest one ("what changed in the latest release"), and when a thing
changed ("when was `proxy` added", "which version added `proxy`"). For each phrasing, the
rank of the first hit that holds the release's section (or the entry that says it).

    python -m benchmarks.quality.changeforms [--sets python,javascript] [--per-corpus 6]
        [--mode hybrid] [--json FILE]

The corpora are whole source releases (`CORPORA`: the changelogs at their roots or under
`docs/`), indexed as a user would index the repository. The sections are read from the files
outside Strata with their own reading of headings: Markdown's `#` headings, and
reStructuredText's and Markdown's underlined ones (`=====` below, the level by the order
each kind of line first appears). A release's section runs from its heading to the next
heading of its level or above; a heading names a release when it opens with a dotted number
(`0.28.0 (date)`, `[1.2.3]`, `Version 7.6.1`, `v1.2`). A file that names fewer than three
releases (a page that only includes the changelog) is not one. Each corpus is asked about a
seeded sample of its releases in each of `RELEASE`, once in each of `LATEST` (the highest
number's sections), and about a seeded sample of the code names (in backquotes) that an
entry says were added, in each of `ADDED` (any such entry answers).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import main_with, measure_asked, named_queries
from benchmarks.quality.flagforms import CLIS
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.sdists import fetch_npm, fetch_sdist

CORPORA: tuple[tuple[str, Callable[[str, str], Path], str, str], ...] = (
    *CLIS,
    ("python", fetch_sdist, "structlog", "25.4.0"),
    ("python", fetch_sdist, "marshmallow", "3.26.1"),
    ("python", fetch_sdist, "sqlparse", "0.5.3"),
    ("javascript", fetch_npm, "axios", "1.7.9"),
    ("javascript", fetch_npm, "express", "4.21.2"),
)
RELEASE = (
    "what changed in {}",
    "what's new in version {}",
    "release notes for {}",
)
LATEST = (
    "what changed in the latest release",
    "what's new in the most recent version",
)
ADDED = (
    "when was {} added",
    "which version added {}",
)
_NAME = re.compile(r"(?i)^(?:change[-_]?log|changes|history|news|release[-_]?notes)(?:\.\w+)?$")
_ATX = re.compile(r"^(#{1,6})\s+(\S.*?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^([=\-~^\"'*+#`])\1{2,}\s*$")
# a heading that opens with a release's number (`0.28.0 (date)`, `[1.2.3] - date`,
# `Version 7.6.1 — date`, `Release 0.5.3`, `v2.0`), not one that mentions one ("Python 3.10")
_RELEASE = re.compile(
    r"^\W*(?:(?:version|release|changes\s+in)\s+)?\[?v?(\d+(?:\.\d+)+)(?![\w.]*\d)", re.I
)
_ADDS = re.compile(r"\b(?:[Aa]dd(?:ed|s)?|[Nn]ew)\b")
_CODE = re.compile(r"`+([A-Za-z_][\w.]*(?:\(\))?)`+")


def changelogs(root: Path) -> list[Path]:
    """The changelog files at `root` or under its `docs/` (or `doc/`)."""
    where = [root, root / "docs", root / "doc"]
    return sorted(p for d in where if d.is_dir() for p in d.iterdir() if _NAME.match(p.name))


def headings(lines: Sequence[str]) -> list[tuple[int, int, str]]:
    """Each heading's first line (1-based, its overline's if it has one), level and text,
    in file order; none inside a fenced block."""
    styles: list[str] = []
    out: list[tuple[int, int, str]] = []
    fenced = False
    for i, line in enumerate(lines):
        underlines = i > 0 and bool(lines[i - 1].strip()) and bool(_UNDERLINE.match(line))
        if line.lstrip().startswith(("```", "~~~")) and not underlines:  # not `~~~~` below a title
            fenced = not fenced
        if fenced:
            continue
        if m := _ATX.match(line):
            out.append((i + 1, len(m.group(1)), m.group(2)))
            continue
        below = lines[i + 1] if i + 1 < len(lines) else ""
        text = line.strip()
        if text and not _UNDERLINE.match(line) and (u := _UNDERLINE.match(below)):
            over = i > 0 and lines[i - 1].strip() == below.strip()
            style = f"{u.group(1)}{'o' if over else ''}"
            if style not in styles:
                styles.append(style)
            out.append((i if over else i + 1, 10 + styles.index(style), text))
    return out


def releases(root: Path) -> dict[str, list[Target]]:
    """Each release a changelog's heading names, with its sections (every changelog's)."""
    found: dict[str, list[Target]] = {}
    for path in changelogs(root):
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        heads = headings(lines)
        named = [(n, h) for n, h in enumerate(heads) if _RELEASE.search(h[2])]
        if len(named) < 3:
            continue
        rel = path.relative_to(root).as_posix()
        for n, (start, level, text) in named:
            after = [s for s, lvl, _ in heads[n + 1 :] if lvl <= level]
            end = (after[0] - 1) if after else len(lines) - (lines[-1] == "")
            number = _RELEASE.search(text)
            assert number is not None
            found.setdefault(number.group(1), []).append(Target(rel, start, end))
    return found


def added(root: Path, found: dict[str, list[Target]]) -> dict[str, list[Target]]:
    """The code names an entry of a release's section says were added (`Added `proxy``,
    "New `--flag` option"), each with its entries' lines; a name more than three entries
    write is left out (it names no one change)."""
    names: dict[str, list[Target]] = {}
    paths = {t.path for targets in found.values() for t in targets}
    texts = {p: (root / p).read_text(encoding="utf-8", errors="replace").split("\n") for p in paths}
    for targets in found.values():
        for t in targets:
            lines = texts[t.path]
            for n in range(t.start, t.end + 1):
                line = lines[n - 1]
                if _ADDS.search(line):
                    for name in {m.group(1) for m in _CODE.finditer(line)}:
                        names.setdefault(name, []).append(Target(t.path, n, n))
    written: dict[str, int] = {}
    for lines in texts.values():
        for line in lines:
            for name in {m.group(1) for m in _CODE.finditer(line)}:
                written[name] = written.get(name, 0) + 1
    return {n: ts for n, ts in names.items() if written.get(n, 0) <= 3 and len(n) > 2}


def _asked(corpus: Corpus, per_corpus: int) -> list[Query]:
    found = releases(corpus.root)
    if not found:
        return []
    newest = max(found, key=lambda v: tuple(int(x) for x in v.split(".")))
    latest = [
        Query(f"changes:{corpus.name}:latest#{n}", form, corpus.name, form, tuple(found[newest]))
        for n, form in enumerate(LATEST)
    ]
    names = {f"`{name}`": targets for name, targets in added(corpus.root, found).items()}
    return [
        *named_queries(corpus, found, per_corpus, RELEASE, "releases"),
        *latest,
        *named_queries(corpus, names, per_corpus, ADDED, "added"),
    ]


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every corpus of `sets`, asked about its releases in every form: the first hit's rank
    that holds the release's section (or the entry) per row."""
    corpora = [
        Corpus(
            f"{'cli' if (group, fetch, name, v) in CLIS else 'release'}-{name}", fetch(name, v), ()
        )
        for group, fetch, name, v in CORPORA
        if group in sets
    ]
    return measure_asked(sets, mode, lambda corpus: _asked(corpus, per_corpus), corpora)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="python,javascript", per_corpus=6)


if __name__ == "__main__":
    main()
