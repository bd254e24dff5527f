"""A question about one file ("what does schema.py do", "explain src/app/cli.py"), or about
the whole repository ("what does this project do"), asked as users and agents ask it: for
each phrasing, the rank of the file's head (a module's docstring, a document's first
section; for the repository, its root README's) and of any passage of the file.

    python -m benchmarks.quality.fileforms [--sets docstring,devqs,docs] [--mode hybrid]
        [--json FILE]

The files are those of the quality run's corpora: every Python module with a module
docstring (the target: the docstring's lines), and every Markdown document with text before
its second heading (the target: those lines). Each is named as a user would name it: its
file name when no other file of the corpus has it, else its shortest unambiguous path
(`jinja2/__init__.py`). Each is asked in every phrasing of `PHRASINGS` through
`Engine.search`, routed as a user's question would be; a hit answers under the quality
run's hit rule. A corpus with a Markdown README at its root is also asked about as a
whole in every phrasing of `OVERVIEW_PHRASINGS`; its README's head answers. The indexes
are the quality run's cached ones (run `benchmarks.quality.run` first for the current
build).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import form_summary, main_with
from benchmarks.quality.evaluate import strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K, first_hit_rank
from benchmarks.quality.model import Target
from benchmarks.quality.run import build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
PHRASINGS = (
    "what does {} do",
    "explain {}",
    "what is in {}",
    "summarize {}",
    "what is the purpose of {}",
    "what is {} for",
    "overview of {}",
    "что делает файл {}",
    "объясни {}",
)
OVERVIEW_PHRASINGS = (
    "what does this project do",
    "give me an overview of the repository",
    "how is the codebase structured",
    "what is this repo about?",
    "where do I start",
    "обзор проекта",
    "what is the overall architecture of this project?",
    "how do the main components fit together",
    "общая архитектура проекта",
)
_HEADING = re.compile(r"^#{1,6}\s")


def heads(root: Path) -> dict[str, Target]:
    """Path -> its head: a Python module's docstring, a Markdown file's text before its
    second heading (files with neither are left out)."""
    out: dict[str, Target] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.suffix == ".py":
            target = _docstring(path.read_text(encoding="utf-8"))
        elif path.suffix == ".md":
            target = _first_section(path.read_text(encoding="utf-8"))
        else:
            continue
        if target is not None:
            out[rel] = Target(rel, *target)
    return out


def names(paths: Sequence[str]) -> dict[str, str]:
    """Path -> the shortest path suffix no other path ends with (`db.py`, `app/db.py`)."""
    out: dict[str, str] = {}
    for path in paths:
        parts = path.split("/")
        out[path] = path  # `README.md` beside `docs/README.md`: only the whole path says which
        for n in range(1, len(parts)):
            name = "/".join(parts[-n:])
            if sum(1 for p in paths if p == name or p.endswith("/" + name)) == 1:
                out[path] = name
                break
    return out


def _docstring(text: str) -> tuple[int, int] | None:
    try:
        body = ast.parse(text).body
    except SyntaxError:
        return None
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
        and first.value.value.strip()
    ):
        return first.lineno, first.end_lineno or first.lineno
    return None


def _first_section(text: str) -> tuple[int, int] | None:
    lines = text.split("\n")
    headings = [i for i, line in enumerate(lines, 1) if _HEADING.match(line)]
    end = (headings[1] - 1) if len(headings) > 1 else len(lines)
    body = [i for i in range(1, end + 1) if lines[i - 1].strip() and i not in headings]
    return (1, max(body)) if body else None


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every file with a head in every phrasing: the head's rank and the file's."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        targets = heads(corpus.root)
        if not targets:
            continue
        named = names(sorted(p for p in _all_files(corpus.root)))
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        search = strata_searcher(eng, mode)
        asked = [(p, f, f.format(named[p])) for p in targets for f in PHRASINGS]
        readme = next((p for p in targets if p.lower() == "readme.md"), None)
        asked += [(readme, f, f) for f in OVERVIEW_PHRASINGS if readme]
        for path, form, text in asked:
            results = search(text)[:K]
            in_file = next((i for i, r in enumerate(results, 1) if r.path == path), None)
            rows.append(
                {
                    "corpus": corpus.name,
                    "form": form,
                    "query": text,
                    "rank": first_hit_rank(results, [targets[path]]),
                    "file_rank": in_file,
                    "kind": Path(path).suffix,
                }
            )
        eng.close()
    summary = form_summary(rows)
    files: dict[str, list[int | None]] = defaultdict(list)
    for r in rows:
        files[r["form"]].append(r["file_rank"])
    for s in summary:
        ranks = files[s["form"]]
        s["file_r_at_1"] = round(sum(1 for x in ranks if x == 1) / len(ranks), 3)
    return {"mode": mode, "summary": summary, "rows": rows}


def _all_files(root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring,devqs,docs")


if __name__ == "__main__":
    main()
