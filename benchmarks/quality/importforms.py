"""Who imports a module, asked as users and agents ask it: for each phrasing, the rank of
the first hit that holds an import of it and the share of the importing files among the
first ten.

    python -m benchmarks.quality.importforms [--sets docstring,devqs] [--mode hybrid]
        [--json FILE]

The oracle is Python's own parse (`ast`) of each package of the quality run: every
`import a.b` and `from a.b import c` (relative ones resolved against the importing
module's package) is an import of the module it names, or of the module `a.b.c` when that
is one. Each module some other module imports is asked about by its dotted name
(`marshmallow.utils`) in every phrasing of `PHRASINGS`, and once by its file's path
(`src/marshmallow/utils.py`, `BY_PATH`), through `Engine.search` as a user's
question would be; a hit answers when its span holds one of the import lines. The indexes
are the quality run's cached ones (run `benchmarks.quality.run` first for the current
build).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import add_means, asked_rows, form_summary, main_with
from benchmarks.quality.evaluate import strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.model import Target
from benchmarks.quality.run import build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
PHRASINGS = (
    "who imports {}",
    "where is {} imported",
    "which modules import {}",
    "what imports {}",
    "importers of {}",
    "кто импортирует {}",
)
BY_PATH = "who imports {path}"  # the module's file, as the tree has it


def modules(root: Path) -> dict[str, str]:
    """Dotted module name -> path, for every `.py` file inside a package (`__init__.py`
    chains up to the import root)."""
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [path.stem] if path.stem != "__init__" else []
        up = path.parent
        while (up / "__init__.py").exists():
            parts.insert(0, up.name)
            up = up.parent
        if parts:
            out[".".join(parts)] = path.relative_to(root).as_posix()
    return out


def import_sites(root: Path) -> dict[str, list[Target]]:
    """Module -> the lines of the tree's other modules that import it."""
    known = modules(root)
    out: dict[str, list[Target]] = defaultdict(list)
    for name, rel in known.items():
        try:
            tree = ast.parse((root / rel).read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        package = name if rel.endswith("__init__.py") else name.rpartition(".")[0]
        for node in ast.walk(tree):
            for target in _imported(node, package, known):
                if target != name:
                    out[target].append(Target(rel, node.lineno, node.lineno))
    return dict(out)


def _imported(node: ast.AST, package: str, known: dict[str, str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = package.split(".") if node.level else []
    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
    full = ".".join([*base, *(node.module.split(".") if node.module else [])])
    found = [f"{full}.{a.name}" for a in node.names if f"{full}.{a.name}" in known]
    if len(found) < len(node.names) and full in known:
        found.append(full)
    return list(dict.fromkeys(found))


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every imported module of the sets' Python packages in every phrasing."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        sites = import_sites(corpus.root)
        if not sites:
            continue
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        search = strata_searcher(eng, mode)
        paths = modules(corpus.root)
        asked = [
            (form, text, targets)
            for name, targets in sorted(sites.items())
            for form, text in [
                *((p, p.format(name)) for p in PHRASINGS),
                (BY_PATH, BY_PATH.replace("{path}", paths[name])),
            ]
        ]
        rows += asked_rows(corpus.name, search, asked, unit=lambda t: t.path)
        eng.close()
    summary = form_summary(rows)
    add_means(summary, rows, "recall_10")
    return {"mode": mode, "summary": summary, "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring,devqs")


if __name__ == "__main__":
    main()
