"""A code name asked for misspelt or cut short: Recall@1 of its definition, on the quality
run's "where is X defined" names.

    python -m benchmarks.quality.misspelt [--sets langs,newlangs] [--mode hybrid] [--json FILE]

The names and targets are those of the `def-<lang>` sets (names defined once in their
package, outside tests; the target is the definition's span). Each name of at least
`MIN_CHARS` letters is written wrong in every way of `TYPOS`, each at one place drawn from
the name itself (a fixed hash, so every run asks the same), and asked in two phrasings,
"where is X defined" and the bare name. A written-wrong form that occurs anywhere in the
corpus as a word is skipped: it is another name there, not a typo. The rows of the form
`unknown` ask for a name no corpus has (the name's letters reversed): what Strata finds
for them is not a definition, so their Recall@1 must stay 0.

With `--sets docstring`, the Python packages' methods are asked for by their qualified
name (`Class.method`, the class of `MIN_CHARS` letters or more, the qualified name defined
once),
the class written wrong in every way of `TYPOS` (forms `qualifier: …`), reversed
(`qualifier: unknown`: no class to read it as, so only the text search for the rest
answers), and as written (`qualifier: as written`); the
target is the method's span.

A question is answered through `Engine.search`, routed as a user's would be. The corpora
are the quality run's cached indexes (run `benchmarks.quality.run` first for the current
build).
"""

from __future__ import annotations

import random
import re
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import defined_names, main_with, measure_asked
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.pydefs import definitions, python_files
from benchmarks.quality.run import SEED

MIN_CHARS = 7
QUALIFIED_PER_PACKAGE = 40
PHRASINGS = ("where is {} defined", "{}")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _at(name: str, salt: str) -> int:
    """An inner position of `name` (never the first or last letter), fixed per name."""
    return 1 + zlib.crc32(f"{salt}:{name}".encode()) % (len(name) - 3)


def _swap(name: str) -> str:
    i = _at(name, "swap")
    return name[:i] + name[i + 1] + name[i] + name[i + 2 :]


def _drop(name: str) -> str:
    i = _at(name, "drop")
    return name[:i] + name[i + 1 :]


def _double(name: str) -> str:
    i = _at(name, "double")
    return name[:i] + name[i] + name[i:]


def _cut(name: str) -> str:
    return name[:-1]


TYPOS: dict[str, Callable[[str], str]] = {
    "swapped letters": _swap,
    "a letter dropped": _drop,
    "a letter doubled": _double,
    "the last letter cut": _cut,
}


def _words(root: Path) -> set[str]:
    """Every identifier-shaped word of the corpus's files."""
    out: set[str] = set()
    for f in root.rglob("*"):
        if f.is_file():
            try:
                out.update(_WORD.findall(f.read_text(encoding="utf-8", errors="ignore")))
            except OSError:
                continue
    return out


def _forms(name: str, known: set[str]) -> list[tuple[str, str]]:
    """(form, written) for each typo of `name` that is no word of the corpus, and `unknown`."""
    out = []
    for form, typo in TYPOS.items():
        wrong = typo(name)
        if wrong != name and wrong not in known:
            out.append((form, wrong))
    backwards = name[::-1]
    if backwards not in known:
        out.append(("unknown", backwards))
    return out


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every long enough `def-` name, written wrong in every form and phrasing: rank per row."""
    return measure_asked(sets, mode, _asked)


def _asked(corpus: Corpus) -> list[Query]:
    asked = [(q, n) for q, n in defined_names(corpus) if len(n.rsplit(".", 1)[-1]) >= MIN_CHARS]
    if not asked:
        return _qualified(corpus) if corpus.name.startswith("py-") else []
    known = _words(corpus.root)
    return [
        replace(q, id=f"{q.id}#{form}#{n}", set=f"{form}: {phrasing}", text=phrasing.format(w))
        for q, name in asked
        for form, w in _forms(name, known)
        for n, phrasing in enumerate(PHRASINGS)
    ]


def _qualified(corpus: Corpus) -> list[Query]:
    """A Python package's methods by qualified name, the class written wrong or as is."""
    defs = [d for rel in python_files(corpus.root) for d in definitions(corpus.root, rel)]
    once = Counter(d.qualname for d in defs)
    methods = [
        d
        for d in defs
        if d.qualname.count(".") == 1
        and once[d.qualname] == 1
        and len(d.qualname.split(".")[0]) >= MIN_CHARS
        and not d.path.startswith("tests/")
    ]
    rng = random.Random(f"{SEED}:qualified:{corpus.name}")
    chosen = sorted(rng.sample(methods, min(QUALIFIED_PER_PACKAGE, len(methods))), key=str)
    known = _words(corpus.root)
    out = []
    for d in chosen:
        cls, method = d.qualname.split(".")
        forms = [("as written", cls), *_forms(cls, known)]
        target = (Target(d.path, d.start, d.end),)
        for form, written in forms:
            for n, phrasing in enumerate(PHRASINGS):
                out.append(
                    Query(
                        id=f"qualified:{corpus.name}:{d.path}:{d.qualname}#{form}#{n}",
                        set=f"qualifier: {form}: {phrasing}",
                        repo=corpus.name,
                        text=phrasing.format(f"{written}.{method}"),
                        targets=target,
                    )
                )
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="langs,newlangs")


if __name__ == "__main__":
    main()
