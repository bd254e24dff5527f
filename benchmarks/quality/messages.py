"""A pasted error message -> the line that raises it, and a pasted line of code -> where it
is, on the quality run's code corpora.

    python -m benchmarks.quality.messages [--sets docstring,langs,newlangs,nonpython]
        [--per-corpus 60] [--mode hybrid] [--json FILE]

Mechanical, from the sources: a string literal of 4+ words (24-120 characters, no
placeholder, `{`, `%`, `$` or escape) given to `raise`, `throw`, `panic`, `errors.New`,
`Errorf`, `error(`, `fail` or `bail!` on one line, that occurs once in its corpus, is a
message; its line is the target (a hit is a result whose span holds it). Up to
`--per-corpus` per corpus, in file order. Each message is asked four ways, as a user or an
agent pastes it: as written, in quotes, after an exception's name (`ValueError: ...`) and
with a value after it (`... 42`).

A line of code: a line of 5+ words and 120 characters at most, with a bracket, `=` or `;`,
that is no comment and no sentence (it does not end with a full stop), and occurs once in
its corpus; up to `--per-corpus` / 2 per corpus, drawn with a fixed seed; asked as it
stands, indentation aside. The corpora are the quality run's cached indexes (run
`benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import form_summary, main_with
from benchmarks.quality.indexes import open_index
from benchmarks.quality.run import build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
K = 10
_RAISED = re.compile(
    r"(?:\braise\b|\bthrow\b|\bpanic!?|errors\.New|Errorf|\berror\s*\(|\bfail\b|\bbail!)\s*\(?"
    r"\s*(?:new\s+[\w.]+\(\s*)?(?:\w+\(\s*)?[fr]?([\"'])([^\"'\n{}%$\\]{24,120})\1"
)
_SKIP = (".md", ".txt", ".json", ".rst")
_CODE = re.compile(r"[()\[\]{}=;]")
_COMMENT = ("#", "//", "*", "/*", "--", '"', "'", "<!--", ";")
SEED = 3
CODE_FORM = "a line of code"
FORMS = {
    "as written": "{}",
    "quoted": '"{}"',
    "after an exception name": "ValueError: {}",
    "with a value after it": "{} 42",
}


Sources = list[tuple[str, list[str]]]  # (file, its lines) of every readable source


def messages(sources: Sources, limit: int) -> list[tuple[str, str, int]]:
    """(message, file, line) of the raised literals that occur once in `sources`."""
    found: list[tuple[str, str, int]] = []
    for rel, lines in sources:
        for i, line in enumerate(lines):
            m = _RAISED.search(line)
            if m and len(m.group(2).split()) >= 4:
                found.append((m.group(2).strip(), rel, i + 1))
    return _once(found)[:limit]


def code_lines(sources: Sources, limit: int) -> list[tuple[str, str, int]]:
    """(line, file, line number) of `limit` code lines that occur once in `sources`."""
    found: list[tuple[str, str, int]] = []
    for rel, lines in sources:
        for i, line in enumerate(lines):
            text = line.strip()
            if (
                len(text.split()) >= 5
                and len(text) <= 120
                and _CODE.search(text)
                and not text.startswith(_COMMENT)
                and not text.endswith(".")
            ):
                found.append((text, rel, i + 1))
    once = _once(found)
    random.Random(SEED).shuffle(once)
    return once[:limit]


def _once(found: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """The finds whose text occurs once, in their order."""
    count: dict[str, int] = defaultdict(int)
    for text, _, _ in found:
        count[text] += 1
    return [f for f in found if count[f[0]] == 1]


def sources(root: Path) -> Sources:
    """Every readable source file under `root` (not the index, not docs or data), read once."""
    out: Sources = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or ".strata" in path.parts or path.suffix in _SKIP:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        out.append((path.relative_to(root).as_posix(), text.split("\n")))
    return out


def _rank(eng: Any, query: str, path: str, line: int, mode: str) -> int | None:
    hits = eng.search(query, k=K, mode=mode).hits
    return next(
        (
            j
            for j, h in enumerate(hits, 1)
            if h.record.path == path
            and (h.record.span_start or 0) <= line <= (h.record.span_end or 0)
        ),
        None,
    )


def measure(sets: Sequence[str], per_corpus: int, mode: str) -> dict[str, Any]:
    """Rank of the target line for every message and form, and every line of code."""
    rows: list[dict[str, Any]] = []
    roots: set[Path] = set()
    for corpus in build_corpora(sets):
        if corpus.root in roots:
            continue
        roots.add(corpus.root)
        eng, _ = open_index(corpus, EMBEDDER)
        files = sources(eng.root)
        for text, path, line in messages(files, per_corpus):
            for form, template in FORMS.items():
                rank = _rank(eng, template.format(text), path, line, mode)
                rows.append({"corpus": corpus.name, "form": form, "query": text, "rank": rank})
        for text, path, line in code_lines(files, per_corpus // 2):
            rank = _rank(eng, text, path, line, mode)
            rows.append({"corpus": corpus.name, "form": CODE_FORM, "query": text, "rank": rank})
        eng.close()
    return {"mode": mode, "summary": form_summary(rows), "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(
        argv, __doc__ or "", measure, sets="docstring,langs,newlangs,nonpython", per_corpus=60
    )


if __name__ == "__main__":
    main()
