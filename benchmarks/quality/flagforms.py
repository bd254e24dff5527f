"""Command-line flags asked about as users and agents ask ("what does the --reindent option
do", "where is the -o flag defined", `--line-length` alone, "which command line options
does this tool accept"): the rank of the first hit that holds the flag's definition, and
whether the first hit's shown lines (its focus window) hold it.

    python -m benchmarks.quality.flagforms [--sets python,javascript] [--per-corpus 10]
        [--mode hybrid] [--json FILE]

The corpora are whole source releases of command-line tools (`CLIS`: code, tests and docs,
indexed as a user would index the repository), not the quality run's. Their flags are read
from the files outside the tests with one pattern per parser, not from Strata's index:
argparse's `add_argument(...)`, optparse's `add_option`/`make_option`, click's
`@click.option(...)` (the call's string arguments that are flags), yargs' option objects
(`'allow-uncaught': {` with a `description:` below it) and optionator's `option: "fix"`.
A flag's target is its whole definition (the call, or the object). Each corpus is asked
about a seeded sample of its long flags in each of `LONG`, of its short flags in `SHORT`,
and once in each of `LISTING` (any definition answers).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import add_means, form_summary, main_with
from benchmarks.quality.evaluate import run
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import Retrieved, is_hit
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import SEED
from benchmarks.sdists import fetch_npm, fetch_sdist
from strata import Engine

EMBEDDER = "all-MiniLM-L6-v2"
# (set, fetch, name, version)
CLIS: tuple[tuple[str, Callable[[str, str], Path], str, str], ...] = (
    ("python", fetch_sdist, "coverage", "7.6.1"),
    ("python", fetch_sdist, "black", "24.10.0"),
    ("python", fetch_sdist, "httpie", "3.2.4"),
    ("python", fetch_sdist, "isort", "5.13.2"),
    ("python", fetch_sdist, "yamllint", "1.35.1"),
    ("javascript", fetch_npm, "mocha", "10.8.2"),
    ("javascript", fetch_npm, "eslint", "8.57.1"),
)
LONG = (
    "what does the {} option do",
    "where is the {} flag defined",
    "{}",
    "how does {} work",
)
SHORT = ("what does the {} flag do",)
LISTING = (
    "which command line options does this tool accept",
    "list the command-line flags",
)
# a flag as a string (`'--reindent'`), or click's pair of one and its negation (`'--x/--no-x'`)
_FLAG = r"""["'](-{1,2}[A-Za-z][\w-]*(?:/-{1,2}[A-Za-z][\w-]*)?)["']"""
_CALL = re.compile(r"\b(?:add_argument|add_option|make_option|option)\s*\(")
_YARGS_KEY = re.compile(r"""^\s*['"]?([A-Za-z][\w-]*)['"]?\s*:\s*\{\s*$""")
_OPTIONATOR = re.compile(r"""^\s*option\s*:\s*["']([A-Za-z][\w-]*)["']""")
_SOURCES = (".py", ".js", ".cjs", ".mjs")
MAX_CALL_LINES = 25
SCREEN = 12  # the lines a hit with no focus window shows first (`query.focus.FOCUS_LINES`)


def definitions(root: Path) -> dict[str, list[Target]]:
    """Each flag (`--reindent`, `-r`) the tool's code outside its tests defines: the lines
    of its definition."""
    found: dict[str, list[Target]] = defaultdict(list)
    for path in sorted(p for p in root.rglob("*") if p.suffix in _SOURCES and p.is_file()):
        rel = path.relative_to(root).as_posix()
        if re.search(r"(?:^|/)(?:tests?|test_\w+|docs?|node_modules)(?:/|\.py$)", rel):
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        for flag, first, last in _defined(lines):
            found[flag].append(Target(rel, first, last))
    return dict(found)


def _defined(lines: Sequence[str]) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for i, line in enumerate(lines):
        if m := _CALL.search(line):
            end = _call_end(lines, i, m.end())
            head = "\n".join(lines[i : end + 1])[m.start() :].split("help=")[0]
            flags = [f for pair in re.findall(_FLAG, head) for f in pair.split("/")]
            out += [(f, i + 1, end + 1) for f in flags]
        elif (m := _YARGS_KEY.match(line)) and any(
            "description:" in x for x in lines[i + 1 : i + 5]
        ):
            out.append(("--" + m.group(1), i + 1, i + 4))
        elif m := _OPTIONATOR.match(line):
            out.append(("--" + m.group(1), max(1, i), i + 4))
    return out


def _call_end(lines: Sequence[str], at: int, col: int) -> int:
    """The 0-based line that closes the call opened at `lines[at][col - 1]`."""
    depth = 1
    for n in range(at, min(len(lines), at + MAX_CALL_LINES)):
        for ch in lines[n][col if n == at else 0 :]:
            depth += (ch == "(") - (ch == ")")
            if depth == 0:
                return n
    return at


def _asked(corpus: Corpus, found: dict[str, list[Target]], per_corpus: int) -> list[Query]:
    pick = random.Random(f"{SEED}:flags:{corpus.name}")
    longs = sorted(f for f in found if f.startswith("--"))
    shorts = sorted(f for f in found if not f.startswith("--"))
    every = tuple(t for targets in found.values() for t in targets)
    out = [
        Query(f"flags:{corpus.name}#{n}", "listing", corpus.name, text, every)
        for n, text in enumerate(LISTING)
    ]
    for forms, flags in ((LONG, longs), (SHORT, shorts)):
        for flag in sorted(pick.sample(flags, min(per_corpus, len(flags)))):
            out += [
                Query(
                    f"flags:{corpus.name}:{flag}#{n}",
                    form,
                    corpus.name,
                    form.format(flag),
                    tuple(found[flag]),
                )
                for n, form in enumerate(forms)
            ]
    return out


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every tool of `sets`, each asked about its flags in every form: the first
    definition's rank per row, and `line_1`: the first hit's shown lines hold one."""
    rows: list[dict[str, Any]] = []
    for group, fetch, name, version in CLIS:
        if group not in sets:
            continue
        root = fetch(name, version)
        corpus = Corpus(f"cli-{name}", root, ())
        found = definitions(root)
        queries = _asked(corpus, found, per_corpus)
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        shown: dict[str, Retrieved | None] = {}
        outcomes = run(f"strata {mode}", EMBEDDER, _searcher(eng, mode, shown), queries)
        for o in outcomes:
            first = shown.get(o.query.text)
            rows.append(
                {
                    "corpus": corpus.name,
                    "form": o.query.set,
                    "query": o.query.text,
                    "rank": o.rank,
                    "line_1": float(
                        first is not None and any(_holds(first, t) for t in o.query.targets)
                    ),
                }
            )
        eng.close()
    summary = form_summary(rows)
    add_means(summary, rows, "line_1")
    return {"mode": mode, "summary": summary, "rows": rows}


def _searcher(
    eng: Engine, mode: str, shown: dict[str, Retrieved | None]
) -> Callable[[str], list[Retrieved]]:
    """`Engine.search` as the quality run reads it, noting the lines each question's first
    hit shows first (its focus window, else its whole span)."""

    def search(text: str) -> list[Retrieved]:
        hits = eng.search(text, k=10, mode=mode).hits
        out = [Retrieved(h.record.path, h.record.span_start, h.record.span_end) for h in hits]
        if hits:
            meta, rec = hits[0].record.metadata, hits[0].record
            start, end = meta.get("focus_start"), meta.get("focus_end")
            if not (isinstance(start, int) and isinstance(end, int)):  # a screenful
                start = rec.span_start
                end = None if start is None else min(rec.span_end or start, start + SCREEN - 1)
            shown[text] = Retrieved(rec.path, start, end)
        return out

    return search


def _holds(shown: Retrieved, target: Target) -> bool:
    """The shown lines hold the target's first line (a definition starts there)."""
    return is_hit(shown, Target(target.path, target.start, target.start))


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="python,javascript", per_corpus=10)


if __name__ == "__main__":
    main()
