"""A function asked for by what it does: "which function parses the header", "what
function returns the bucket's key?". Recall@1 and MRR@10 of its definition per form.

    python -m benchmarks.quality.whichforms [--sets docstring,langs] [--mode hybrid]
        [--json FILE]

The questions are the quality run's doc comment -> code questions (`docstring`, `doc-<lang>`:
the comment blanked in the corpus) whose comment opens with a verb ("Returns the key.",
"Parse a header."): the verb in the third person after "which function" ("which function
returns the key?"). The target is the same definition. The corpora are the quality run's
cached indexes, documents included (a package's own docs may say the same words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from benchmarks.quality.askforms import main_with, measure_asked
from benchmarks.quality.model import Corpus, Query

FORMS = ("which function {}?", "what function {}")
# Verbs a doc comment opens with, as written in the imperative (the third person is made).
VERBS = frozenset(
    """add allow apply assert build calculate call check clear close compare compute
    convert copy count create decode delete deserialize determine display encode ensure
    escape evaluate execute extract fetch fill filter find flush format generate get group
    handle initialize insert invoke iterate join load look make mark match merge move
    normalize open parse pop print process push put read register remove render replace
    reset resolve restore return reverse run save search send serialize set sort split
    start stop store strip test transform translate try update validate wait wrap write
    yield""".split()  # noqa: SIM905
)
_FIRST = re.compile(r"^([A-Z][a-z]+)\s+(\S.*)$", re.DOTALL)


def third_person(verb: str) -> str:
    """`return` -> `returns`, `match` -> `matches`, `try` -> `tries`."""
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def asked_as(text: str) -> str:
    """The comment as what a function does ("returns the key"), or "" when it does not
    open with a verb of `VERBS` (in the imperative or the third person)."""
    m = _FIRST.match(" ".join(text.split()))
    if not m:
        return ""
    word, rest = m.group(1).lower(), m.group(2).rstrip(" .")
    verb = word if word in VERBS else next((v for v in VERBS if third_person(v) == word), "")
    return f"{third_person(verb)} {rest}" if verb and rest else ""


def _asked(corpus: Corpus) -> list[Query]:
    out = []
    for q in corpus.queries:
        if not q.set.startswith(("docstring", "doc-")) or not (said := asked_as(q.text)):
            continue
        for n, form in enumerate(FORMS):
            out.append(replace(q, id=f"{q.id}#which{n}", set=form, text=form.format(said)))
    return out


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every corpus of `sets`: each form's rank of the definition, per row."""
    return measure_asked(sets, mode, _asked)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets="docstring,langs,newlangs,extralangs")


if __name__ == "__main__":
    main()
