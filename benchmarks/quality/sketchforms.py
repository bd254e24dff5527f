""" "Where is X defined" in languages no bundled grammar reads (Emacs Lisp, Tcl, Nim, D,
Free Pascal): Recall@1 and MRR@10 of the definition, per language.

    python -m benchmarks.quality.sketchforms [--per-corpus 40] [--mode hybrid] [--json FILE]

The corpora are Debian packages' sources: magit (`elpa-magit`), tcllib's `struct`, Nim's
`lib/pure`, Phobos' `std/algorithm` (`libphobos2-ldc-shared-dev`) and Free Pascal's
`fcl-base` (`fpc-source-3.2.2`). The names and their lines are read off the files here, by
each language's most common way of writing a definition at a line's start (`(defun NAME`,
`proc NAME`, `proc NAME*(`, a D `struct`/`class` or a function at the left margin, a Pascal
method's body `procedure TOwner.NAME`), keeping names written so once in the corpus; a
seeded sample of them is asked "where is NAME defined". A hit holds the definition's line.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import main_with, measure_asked
from benchmarks.quality.model import Corpus, Query, Target, read_lines
from benchmarks.quality.run import SEED
from benchmarks.sdists import fetch_deb


@dataclass(frozen=True, slots=True)
class Package:
    """A Debian package, the folder of it that is the corpus, its files and definitions."""

    name: str
    version: str
    folder: str
    suffixes: tuple[str, ...]
    definition: re.Pattern[str]

    def root(self) -> Path:
        return fetch_deb(self.name, self.version) / self.folder


PACKAGES = {
    "elisp-magit": Package(
        "elpa-magit", "3.3.0-2", "usr/share/emacs/site-lisp/elpa-src/magit-3.3.0", (".el",),
        re.compile(r"^\((?:cl-)?defun\s+([^\s()]+)"),
    ),
    "tcl-tcllib": Package(
        "tcllib", "1.21+dfsg-1", "usr/share/tcltk/tcllib1.21/struct", (".tcl",),
        re.compile(r"^\s*proc\s+(?:::)?(?:\w+::)*([A-Za-z_]\w*)\s"),
    ),
    "nim-stdlib": Package(
        "nim", "1.6.10-2", "usr/lib/nim/lib/pure", (".nim",),
        re.compile(r"^(?:proc|func|iterator|template|macro)\s+([A-Za-z_]\w*)\*?\s*[\[(]"),
    ),
    "d-phobos": Package(
        "libphobos2-ldc-shared-dev", "1:1.30.0-1+b1",
        "usr/lib/ldc/x86_64-linux-gnu/include/d/std/algorithm", (".d",),
        re.compile(r"^(?:struct|class)\s+([A-Za-z_]\w*)|^(?:auto|void|bool|size_t)\s+([a-z]\w*)\s*\("),
    ),
    "pascal-fcl": Package(
        "fpc-source-3.2.2", "3.2.2+dfsg-20", "usr/share/fpcsrc/3.2.2/packages/fcl-base/src",
        (".pp", ".pas", ".inc"),
        re.compile(r"^(?:procedure|function)\s+(\w+\.\w+)\s*[(:;]", re.IGNORECASE),
    ),
}  # fmt: skip


def definitions(root: Path, suffixes: Sequence[str], pattern: re.Pattern[str]) -> dict[str, Target]:
    """The names `pattern` finds written once in the corpus, each with its line."""
    seen: dict[str, list[Target]] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in suffixes):
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(read_lines(path), 1):
            if m := pattern.match(line):
                name = next(g for g in m.groups() if g)
                seen.setdefault(name, []).append(Target(rel, n, n))
    return {name: found[0] for name, found in seen.items() if len(found) == 1}


def corpora(per_corpus: int) -> list[Corpus]:
    """Each package's corpus with a seeded sample of its names asked."""
    out = []
    for label, pkg in PACKAGES.items():
        root = pkg.root()
        found = definitions(root, pkg.suffixes, pkg.definition)
        names = random.Random(f"{SEED}:sketch:{label}").sample(
            sorted(found), min(per_corpus, len(found))
        )
        queries = tuple(
            Query(
                f"sketch:{label}:{name}", label, label, f"where is {name} defined", (found[name],)
            )
            for name in sorted(names)
        )
        out.append(Corpus(label, root, queries))
    return out


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """`sets` is not used: the corpora are `PACKAGES`."""

    def ask(corpus: Corpus) -> list[Query]:
        return list(corpus.queries)

    return measure_asked(sets, mode, ask, corpora(per_corpus))


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="sketch", per_corpus=40)


if __name__ == "__main__":
    main()
