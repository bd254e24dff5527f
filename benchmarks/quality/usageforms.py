"""Where a name is documented and an example of its use, asked as users and agents ask
("where is configure documented", "docs for wrap_logger", "show me an example of using
bind", "how do I use wrap_logger"): for each phrasing, the rank of the first hit that holds
a document line writing the name, or a line calling it in the docs or the tests.

    python -m benchmarks.quality.usageforms [--sets docs,devqs,python,javascript]
        [--per-corpus 10] [--mode hybrid] [--json FILE]

The corpora are those of the `docs` and `devqs` sets (code with its Markdown docs) and the
`flagforms` tools' whole releases. The names are what the code defines, read without
Strata's index: Python's public functions and classes (`ast`), JavaScript's `function
name(`, `name(...) {` methods and `exports.name =`, of four letters or more. A name is
asked "documented" when a document (`.md`, `.rst`) writes it as a whole word (those lines
are the targets), and "example" when a document or a test calls it (`name(`, `.name(`:
those lines, not a definition's, are the targets); a seeded sample of each.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import (
    TEST_PATH,
    corpus_lines,
    main_with,
    measure_asked,
    named_queries,
)
from benchmarks.quality.flagforms import CLIS
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import build_corpora

DOCUMENTED = ("where is {} documented", "docs for {}", "is {} documented")
EXAMPLE = ("show me an example of using {}", "how do I use {}", "{} examples")
_DOCS = (".md", ".rst")
_JS_DEFINES = re.compile(
    r"^\s*(?:export\s+)?(?:async\s+)?function\s+([A-Za-z_$][\w$]*)\s*\(|^\s{2,}(?:async\s+)?"
    r"([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{|\bexports\.([A-Za-z_$][\w$]*)\s*="
)
_NOT_NAMES = frozenset(
    {"constructor", "function", "return", "require", "catch", "switch", "while", "else"}
)
_DEFINING = re.compile(r"\b(?:def|function|class)\s+$")


def defined(root: Path) -> set[str]:
    """The public names the code outside the tests defines (four letters or more)."""
    names: set[str] = set()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if TEST_PATH.search(rel) or "node_modules/" in rel or not path.is_file():
            continue
        if path.suffix == ".py":
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError):
                continue
            kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
            names |= {n.name for n in ast.walk(tree) if isinstance(n, kinds)}
        elif path.suffix in (".js", ".mjs", ".cjs") and not rel.startswith("dist/"):
            for line in path.read_text(encoding="utf-8", errors="replace").split("\n"):
                if m := _JS_DEFINES.search(line):
                    names.add(next(g for g in m.groups() if g))
    return {n for n in names if len(n) >= 4 and not n.startswith("_") and n not in _NOT_NAMES}


def usages(root: Path) -> tuple[dict[str, list[Target]], dict[str, list[Target]]]:
    """(documented, example): each defined name's document lines, and its calling lines in
    the documents and the tests."""
    names = defined(root)
    documented: dict[str, list[Target]] = defaultdict(list)
    example: dict[str, list[Target]] = defaultdict(list)

    def read(rel: str) -> bool:
        return rel.endswith(_DOCS) or (bool(TEST_PATH.search(rel)) and rel.endswith((".py", ".js")))

    for rel, n, line in corpus_lines(root, read):
        for word in set(re.findall(r"[A-Za-z_$][\w$]*", line)) & names:
            if rel.endswith(_DOCS):
                documented[word].append(Target(rel, n, n))
            for m in re.finditer(rf"(?<![\w$]){re.escape(word)}\s*\(", line):
                if not _DEFINING.search(line[: m.start()]):
                    example[word].append(Target(rel, n, n))
                    break
    return dict(documented), dict(example)


def _asked(corpus: Corpus, per_corpus: int) -> list[Query]:
    documented, example = usages(corpus.root)
    return [
        *named_queries(corpus, documented, per_corpus, DOCUMENTED, "documented"),
        *named_queries(corpus, example, per_corpus, EXAMPLE, "example"),
    ]


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every corpus's sampled names in each phrasing of their kind: the first target's rank."""
    corpora = build_corpora([s for s in sets if s in ("docs", "devqs")])
    corpora += [Corpus(f"cli-{n}", fetch(n, v), ()) for g, fetch, n, v in CLIS if g in sets]
    return measure_asked(sets, mode, lambda corpus: _asked(corpus, per_corpus), corpora)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docs,devqs,python,javascript", per_corpus=10)


if __name__ == "__main__":
    main()
