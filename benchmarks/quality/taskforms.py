"""How to run a project's own commands, asked as users and agents ask it: "how do I run
the tests", "how are the tests run", "how do I build the docs", and which commands there
are ("what npm scripts are there", "what make targets are there", "which tox environments
are defined"). For each phrasing, the rank of the first hit that holds a line defining
such a command or a developers' document section on it.

    python -m benchmarks.quality.taskforms [--sets python,javascript] [--mode hybrid]
        [--json FILE]

The corpora are `changeforms.CORPORA`, whole source releases. The answers are read off
their files outside Strata: a script of `package.json` (a key inside its `"scripts"`
object), a Makefile's target (`name:` at a line's start, not `.PHONY`), a tox environment
(`[testenv]`, `[testenv:docs]`), a nox session (`def tests(session)`), each named with the
command's word (`test`, `doc`); and a section of a developers' document (`CONTRIBUTING*`,
`HACKING*`, `DEVELOPMENT*`, `docs/**/contributing*`, `howto.txt`) whose heading says it
("Running the tests", "Building the docs"), from its heading to the next one of its level
or above. A corpus is asked a phrasing only when it has an answer to it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import main_with, measure_asked
from benchmarks.quality.changeforms import CORPORA, headings
from benchmarks.quality.flagforms import CLIS
from benchmarks.quality.model import Corpus, Query, Target

ASKED = {
    "test": ("how do I run the tests", "how are the tests run"),
    "doc": ("how do I build the docs",),
}
LISTS = {
    "package.json": "what npm scripts are there",
    "Makefile": "what make targets are there",
    "tox.ini": "which tox environments are defined",
}
_GUIDE = re.compile(r"(?i)^(?:contributing|hacking|development|developing|howto)[\w.-]*$")
_TARGET = re.compile(r"^([A-Za-z_][\w.-]*):(?!=)")
_TOX = re.compile(r"^\[testenv(?::([\w.,-]+))?\]")
_NOX = re.compile(r"^\s*def\s+(\w+)\(session")
_KEY = re.compile(r'^\s*"([\w:.-]+)"\s*:')


def commands(root: Path) -> dict[str, list[tuple[str, Target]]]:
    """The commands each task file at the root defines: each one's name and line."""
    found: dict[str, list[tuple[str, Target]]] = {}
    for name in ("package.json", "Makefile", "tox.ini", "noxfile.py"):
        path = root / name
        if path.is_file():
            lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
            found[name] = [(task, Target(name, n, n)) for n, task in _defined(name, lines)]
    return found


def _defined(name: str, lines: list[str]) -> list[tuple[int, str]]:
    """The 1-based lines defining a command in a task file, each with its name (tox's bare
    `[testenv]` is `test`); a `package.json`'s only inside its `"scripts"` object."""
    out = []
    inside = name != "package.json"
    pattern = {"Makefile": _TARGET, "tox.ini": _TOX, "noxfile.py": _NOX}.get(name, _KEY)
    for n, line in enumerate(lines, 1):
        if name == "package.json" and re.match(r'\s*"scripts"\s*:\s*\{', line):
            inside = True
            continue
        if name == "package.json" and inside and line.strip().startswith("}"):
            break
        m = pattern.match(line) if inside else None
        if m and not (m.group(1) or "").startswith("."):
            out.append((n, m.group(1) or "test"))
    return out


def guide_sections(root: Path) -> list[tuple[str, Target]]:
    """Each section of the developers' documents: its heading and its lines."""
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and _GUIDE.match(p.name)):
        rel = path.relative_to(root).as_posix()
        if "node_modules/" in rel:
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        heads = headings(lines)
        for i, (start, level, text) in enumerate(heads):
            after = [s for s, lvl, _ in heads[i + 1 :] if lvl <= level]
            out.append((text, Target(rel, start, (after[0] - 1) if after else len(lines))))
    return out


def answers(root: Path) -> dict[str, list[Target]]:
    """The answers to each question of `ASKED` and `LISTS` the corpus has."""
    defined = commands(root)
    sections = guide_sections(root)
    out: dict[str, list[Target]] = {}
    for word, phrasings in ASKED.items():
        targets = [t for ts in defined.values() for task, t in ts if word in task.lower()]
        targets += [t for title, t in sections if re.search(rf"(?i)\b{word}", title)]
        for text in phrasings:
            if targets:
                out[text] = targets
    for name, text in LISTS.items():
        if defined.get(name):
            out[text] = [t for _, t in defined[name]]
    return out


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every corpus of `sets`, asked how to run its commands: the first hit's rank that
    holds an answer, per row."""
    corpora = [
        Corpus(f"{'cli' if (g, fetch, name, v) in CLIS else 'release'}-{name}", fetch(name, v), ())
        for g, fetch, name, v in CORPORA
        if g in sets
    ]

    def ask(corpus: Corpus) -> list[Query]:
        return [
            Query(f"tasks:{corpus.name}:{text}", text, corpus.name, text, tuple(targets))
            for text, targets in answers(corpus.root).items()
        ]

    return measure_asked(sets, mode, ask, corpora)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="python,javascript")


if __name__ == "__main__":
    main()
