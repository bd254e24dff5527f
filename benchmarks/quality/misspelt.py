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

A question is answered through `Engine.search`, routed as a user's would be. The corpora
are the quality run's cached indexes (run `benchmarks.quality.run` first for the current
build).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import defined_names, main_with, measure_asked
from benchmarks.quality.model import Corpus, Query

MIN_CHARS = 7
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
        return []
    known = _words(corpus.root)
    return [
        replace(q, id=f"{q.id}#{form}#{n}", set=f"{form}: {phrasing}", text=phrasing.format(w))
        for q, name in asked
        for form, w in _forms(name, known)
        for n, phrasing in enumerate(PHRASINGS)
    ]


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="langs,newlangs")


if __name__ == "__main__":
    main()
