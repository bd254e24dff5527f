"""Hand-written developer questions about one real project (code + Markdown docs).

The questions live in `devqs_<project>.yaml` beside this module; each names the pinned
sdist it was written against and, per question, one or more acceptable targets written
`path:start-end` (1-based, inclusive, relative to the corpus root). The corpus is the
sdist's library code and its docs; tests are left out.

`python -m benchmarks.quality.devqs` prints every question with the lines of each of its
targets, so a reviewer can check that every span points at the right place.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from benchmarks.quality.model import Corpus, Query, Target, copy_files, corpus_dir, read_lines
from benchmarks.sdists import fetch_sdist

HERE = Path(__file__).resolve().parent
DOC_SUFFIXES = (".md", ".rst")


@dataclass(frozen=True, slots=True)
class QuestionFile:
    """One parsed `devqs_<project>.yaml`."""

    project: str
    version: str
    include: tuple[str, ...]
    queries: tuple[Query, ...]


def question_files() -> list[Path]:
    """Every `devqs_*.yaml` beside this module, sorted."""
    return sorted(HERE.glob("devqs_*.yaml"))


def load(path: Path) -> QuestionFile:
    """Parse a question file; targets are `path:start-end` strings."""
    raw: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    slug = f"devqs-{raw['project']}"
    queries = tuple(
        Query(
            f"devqs:{raw['project']}:{q['id']}",
            "devqs",
            slug,
            q["q"],
            tuple(parse_target(t) for t in q["targets"]),
        )
        for q in raw["questions"]
    )
    return QuestionFile(raw["project"], str(raw["version"]), tuple(raw["include"]), queries)


def parse_target(text: str) -> Target:
    """`src/pkg/mod.py:10-20` -> Target; a single line `mod.py:7` is allowed."""
    path, _, span = text.rpartition(":")
    start, _, end = span.partition("-")
    return Target(path, int(start), int(end or start))


def build(qf: QuestionFile) -> Corpus:
    """Fetch the pinned sdist and copy its code and docs (the `include` directories/files)."""
    src = fetch_sdist(qf.project, qf.version)
    rels = sorted(
        p.relative_to(src).as_posix()
        for inc in qf.include
        for p in ([src / inc] if (src / inc).is_file() else (src / inc).rglob("*"))
        if p.is_file() and (p.suffix == ".py" or p.suffix in DOC_SUFFIXES)
    )
    root = corpus_dir(f"devqs-{qf.project}")
    copy_files(src, rels, root)
    return Corpus(f"devqs-{qf.project}", root, qf.queries)


def check(corpus: Corpus, context: int = 0, head: int = 12) -> list[str]:
    """Print every target's lines; return the problems (missing file, span past the end)."""
    problems: list[str] = []
    for q in corpus.queries:
        print(f"\n## {q.id}: {q.text}")
        for t in q.targets:
            path = corpus.root / t.path
            if not path.is_file():
                problems.append(f"{q.id}: no file {t.path}")
                continue
            lines = read_lines(path)
            if t.start < 1 or t.end > len(lines) or t.start > t.end:
                problems.append(f"{q.id}: span {t.start}-{t.end} outside {t.path} ({len(lines)})")
                continue
            print(f"-- {t.path}:{t.start}-{t.end} ({t.length} lines)")
            shown = range(max(1, t.start - context), min(len(lines), t.end + context) + 1)
            for n in list(shown)[:head]:
                print(f"{n:5d} | {lines[n - 1]}")
            if len(shown) > head:
                print(f"  ... {len(shown) - head} more, last: {t.end:5d} | {lines[t.end - 1]}")
    return problems


def main() -> None:
    """Print every question's target lines and exit non-zero on a bad span."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--head", type=int, default=12, help="lines shown per target")
    args = parser.parse_args()
    problems = [p for f in question_files() for p in check(build(load(f)), head=args.head)]
    for p in problems:
        print("PROBLEM:", p)
    raise SystemExit(1 if problems else 0)


if __name__ == "__main__":
    main()
