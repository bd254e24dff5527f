"""A question that names the project it is asked of (pure): "How does structlog skip its
own frames to find the caller?", "how does logrus decide whether to use colors".

Every part of a project is about the project, so its name says nothing of which part
answers; but the README and the guides say the name in every section and the code seldom
does, so to the query embedder the name pulls the question towards the docs (logrus:
`TextFormatter.isColored` is the first code chunk by vector without the name, and not
among the first 60 with it). The question's vector is computed without the name; the BM25
query keeps it (its IDF already weighs a word every section holds).

A statement keeps the name: a doc comment's "the main activity of the Cordova application"
or "a new Lua closure" describes code that says it (measured: docs/benchmarks.md). So does
a question whose name the index defines (a project named `parser` with a class `Parser`),
and one left with fewer than `MIN_LEFT` searchable words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from strata.text.tokens import STOP_WORDS, query_terms

__all__ = ["MIN_LEFT", "name_words", "unnamed"]

MIN_LEFT = 2  # searchable words a question must keep
_MIN_NAME = 3  # a shorter part of a repository's name ("js" of "commander.js") is no name
_PARTS = re.compile(r"[-_.\s]+")
_PROJECT_KINDS = frozenset({"module", "package", "namespace"})  # a definition that is the project


def name_words(names: Iterable[str]) -> tuple[str, ...]:
    """The words the project's repositories are called by, lower-case: `devqs-structlog`
    -> `devqs`, `structlog`; `commander.js` -> `commander`."""
    words = (w for name in names for w in _PARTS.split(name.lower()))
    return tuple(dict.fromkeys(w for w in words if len(w) >= _MIN_NAME and not w.isdigit()))


def unnamed(question: str, names: Iterable[str], kinds: Callable[[str], set[str]]) -> str:
    """`question` without the project's names it says (whole words in any case, with a
    possessive `'s`), or `question` itself when none is said, when the index defines a
    name so spelt (`kinds`: the kinds of the definitions of a name; a module or a package
    is the project), or when fewer than `MIN_LEFT` searchable words would be left."""
    said = [
        m.group(0)
        for name in names
        for m in re.finditer(rf"\b{re.escape(name)}\b", question, re.IGNORECASE)
    ]
    spelt = {v for w in said for v in (w, w.lower(), w.capitalize())}
    if not said or any(kinds(v) - _PROJECT_KINDS for v in spelt):
        return question
    pattern = "|".join(re.escape(w) for w in dict.fromkeys(said))
    left = re.sub(rf"\b(?:{pattern})(?:'s)?\b", " ", question)
    left = re.sub(r"\s+", " ", left).strip()
    kept = [t for t in query_terms(left) if t not in STOP_WORDS]
    return left if len(kept) >= MIN_LEFT else question
