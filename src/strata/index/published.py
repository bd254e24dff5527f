"""A package's build output that is the only code it ships (`build/`, `dist/`, `out/`).

A build-output directory is left out by default: in a checkout it holds what the sources
beside it compile to. A published npm package often ships nothing else: yargs' tarball
has its code in `build/lib/*.js` (the TypeScript sources stay in its repository), many
packages only `dist/`. There the directory is the code a question is about, and leaving it
out leaves the index without it. So such a directory is walked when it sits beside a
`package.json` and is the package's code: it holds more JavaScript or TypeScript files than
the rest of the package, and most of its modules are named by no file elsewhere in it (a
`dist/` compiled from `src/` repeats the sources' module names; a bundle beside `lib/` is
one or two files). A checkout's `.gitignore` still leaves it out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

OUTPUT_DIRS: Final = frozenset({"build", "dist", "out"})
MANIFEST: Final = "package.json"
# JavaScript and TypeScript, declarations and source maps aside (`x.d.ts` names `x`).
_SCRIPT: Final = re.compile(r"(?<!\.d)\.(?:[cm]?js|jsx|[cm]?tsx?)$")
SCAN_LIMIT: Final = 20_000  # directory entries looked at on either side, at most


def is_published_code(out_dir: Path, skipped: Callable[[str], bool]) -> bool:
    """Whether the build-output directory `out_dir` is its package's shipped code (module
    doc). `skipped`: the directory names a walk leaves out (dependencies, dot-directories)."""
    package = out_dir.parent
    if not (package / MANIFEST).is_file():
        return False
    shipped, count = _modules(out_dir, skipped, limit=SCAN_LIMIT)
    if not count:
        return False
    elsewhere, others = _modules(package, skipped, limit=count)  # `out_dir` is skipped too
    return others < count and 2 * len(shipped & elsewhere) < len(shipped)


def _modules(top: Path, skipped: Callable[[str], bool], *, limit: int) -> tuple[set[str], int]:
    """The module names (a file's name before its first dot) of the scripts under `top`,
    and how many scripts: counting stops at `limit` scripts or `SCAN_LIMIT` entries."""
    names: set[str] = set()
    count = seen = 0
    stack = [top]
    while stack and count < limit and seen < SCAN_LIMIT:
        try:
            with os.scandir(stack.pop()) as entries:
                for e in entries:
                    seen += 1
                    if e.is_dir(follow_symlinks=False):
                        if not skipped(e.name):
                            stack.append(Path(e.path))
                    elif _SCRIPT.search(e.name):
                        names.add(e.name.partition(".")[0])
                        count += 1
        except OSError:
            continue
    return names, count
