"""What a package exports, asked of a package named by one word ("what does structlog
export", "what is the public API of jinja2"): for each phrasing, the rank of the first hit
in the package's `__init__.py`.

    python -m benchmarks.quality.exportforms [--sets docstring,devqs] [--mode hybrid]
        [--json FILE]

The packages are each corpus's top-level Python packages (a directory with a non-empty
`__init__.py` whose parent has none), read from its files, not from Strata's index; the
target is the whole `__init__.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import main_with, measure_asked
from benchmarks.quality.model import Corpus, Query, Target

PHRASINGS = (
    "what does {} export",
    "what is the public API of {}",
    "exports of the {} package",
)


def packages(root: Path) -> dict[str, Target]:
    """Each top-level package's name and its `__init__.py`, whole."""
    found: dict[str, Target] = {}
    for init in sorted(root.rglob("__init__.py")):
        rel = init.relative_to(root).as_posix()
        if (init.parent.parent / "__init__.py").exists() or "test" in rel.lower():
            continue
        lines = init.read_text(encoding="utf-8", errors="replace").count("\n") + 1
        if init.stat().st_size:
            found[init.parent.name] = Target(rel, 1, lines)
    return found


def _asked(corpus: Corpus) -> list[Query]:
    return [
        Query(f"exports:{corpus.name}:{name}#{n}", form, corpus.name, form.format(name), (head,))
        for name, head in packages(corpus.root).items()
        for n, form in enumerate(PHRASINGS)
    ]


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every package in every phrasing: the rank of the first hit in its `__init__.py`."""
    return measure_asked(sets, mode, _asked)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring,devqs")


if __name__ == "__main__":
    main()
