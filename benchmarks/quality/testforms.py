"""Where a function is tested, asked as users and agents ask it: for each phrasing, the rank
of the first hit that holds a test's call of the function (jedi's references as the oracle).

    python -m benchmarks.quality.testforms [--per-corpus 40] [--mode hybrid] [--json FILE]

For each Python package of the quality benchmark, its library code and its test suite (the
sdist's `tests/`) are indexed as one repository, unchanged. From a fixed-seed sample of the
library's functions, methods and classes, those that a test calls are asked about: the
oracle is every call of the definition inside the tests (the name followed by `(`) that
jedi's `Script.get_references` ties to it. Each is asked by the name a user would write
(`load`, `Schema.load`) in every phrasing of `PHRASINGS`, through `Engine.search` as a user's
question would be. A hit answers when its span holds one of those calls (the quality run's
hit rule: a test function, not the whole test file).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.callers_oracle import name_position
from benchmarks.quality.askforms import form_summary, main_with
from benchmarks.quality.docstring_queries import PACKAGES, Package
from benchmarks.quality.evaluate import run, strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.model import Corpus, Query, Target, copy_files, corpus_dir
from benchmarks.quality.pydefs import Definition, definitions, python_files
from benchmarks.sdists import fetch_sdist

EMBEDDER = "all-MiniLM-L6-v2"
SEED = 13
PHRASINGS = (
    "where is {} tested",
    "tests for {}",
    "which tests cover {}",
    "how is {} tested",
    "where are the tests for {}",
    "unit tests for {}",
    "где тестируется {}",
    "тесты для {}",
)
Site = tuple[str, int]


def build(pkg: Package, per_package: int) -> Corpus | None:
    """The package's code and tests as one corpus, with a query per tested definition and
    phrasing (None: the sdist ships no `tests/`)."""
    src = fetch_sdist(pkg.name, pkg.version)
    if not (src / "tests").is_dir():
        return None
    code = [f"{pkg.code_dir}/{r}" for r in python_files(src / pkg.code_dir)]
    tests = [f"tests/{r}" for r in python_files(src / "tests")]
    root = corpus_dir(f"tests-{pkg.name}")
    copy_files(src, code + tests, root)
    defs = [d for rel in code for d in definitions(root, rel) if not d.name.startswith("__")]
    rng = random.Random(f"{SEED}:tests:{pkg.name}")
    chosen = sorted(rng.sample(defs, min(per_package, len(defs))), key=lambda d: (d.path, d.start))
    sites = calls_from_tests(root, tests, chosen)
    queries = tuple(
        Query(
            f"testforms:{pkg.name}:{d.path}:{d.qualname}#{n}",
            phrasing,
            f"tests-{pkg.name}",
            phrasing.format(d.qualname),
            tuple(Target(path, line, line) for path, line in sorted(found)),
        )
        for d, found in zip(chosen, sites, strict=True)
        if found
        for n, phrasing in enumerate(PHRASINGS)
    )
    return Corpus(f"tests-{pkg.name}", root, queries)


def calls_from_tests(
    root: Path, tests: Sequence[str], defs: Sequence[Definition]
) -> list[set[Site]]:
    """Per definition, the test lines that call it, by jedi's references."""
    import jedi

    project = jedi.Project(path=str(root))
    lines = {rel: (root / rel).read_text(encoding="utf-8").split("\n") for rel in tests}
    out: list[set[Site]] = []
    for d in defs:
        own = (root / d.path).read_text(encoding="utf-8").split("\n")
        spot = name_position(own, d)
        found: set[Site] = set()
        if spot is not None:
            script = jedi.Script(path=str(root / d.path), project=project)
            for ref in script.get_references(*spot, include_builtins=False):
                rel = _rel(root, ref.module_path)
                if rel not in lines or ref.line is None or ref.is_definition():
                    continue
                after = lines[rel][ref.line - 1][ref.column + len(d.name) :]
                if after.lstrip().startswith("("):
                    found.add((rel, ref.line))
        out.append(found)
    return out


def _rel(root: Path, module_path: Any) -> str | None:
    if module_path is None:
        return None
    try:
        return Path(module_path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def measure(sets: Sequence[str], per_corpus: int, mode: str) -> dict[str, Any]:
    """Every tested definition of the chosen packages in every phrasing: rank and route."""
    rows: list[dict[str, Any]] = []
    for pkg in PACKAGES:
        if pkg.name not in sets:
            continue
        corpus = build(pkg, per_corpus)
        if corpus is None or not corpus.queries:
            continue
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        for o in run(f"strata {mode}", EMBEDDER, strata_searcher(eng, mode), corpus.queries):
            rows.append(
                {
                    "corpus": corpus.name,
                    "form": o.query.set,
                    "query": o.query.text,
                    "rank": o.rank,
                    "intent": eng.plan(o.query.text).intent,
                }
            )
        eng.close()
    return {"mode": mode, "summary": form_summary(rows), "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    names = ",".join(p.name for p in PACKAGES)
    main_with(argv, __doc__ or "", measure, sets=names, per_corpus=40)


if __name__ == "__main__":
    main()
