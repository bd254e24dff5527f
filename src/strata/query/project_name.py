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
from collections.abc import Callable, Iterable, Mapping

from strata.text.tokens import STOP_WORDS, query_terms

__all__ = ["MIN_LEFT", "name_words", "unnamed"]

MIN_LEFT = 2  # searchable words a question must keep
_MIN_NAME = 3  # a shorter part of a repository's name ("js" of "commander.js") is no name
_PARTS = re.compile(r"[-_.\s]+")
_PROJECT_KINDS = frozenset({"module", "package", "namespace"})  # a definition that is the project


def name_words(names: Iterable[str]) -> dict[str, bool]:
    """The words the project's repositories are called by, lower-case, each with whether it
    is a whole name: `devqs-structlog` -> `devqs`, `structlog` (parts), `logrus` (whole);
    `commander.js` -> `commander`."""
    out: dict[str, bool] = {}
    for name in names:
        parts = _PARTS.split(name.lower().strip())
        for w in parts:
            if len(w) >= _MIN_NAME and not w.isdigit():
                out[w] = out.get(w, False) or len(parts) == 1
    return out


def unnamed(question: str, names: Mapping[str, bool], kinds: Callable[[str], set[str]]) -> str:
    """`question` without the project's names it says (whole words in any case, with a
    possessive `'s`), or `question` itself when none is said, when the index defines a
    name so spelt (`kinds`: the kinds of the definitions of a name; a module or a package
    so named is the project, when the name is a repository's whole name: `server` of
    `web-server` may well be the project's `server` module), or when fewer than `MIN_LEFT`
    searchable words would be left."""
    said = [
        (m.group(0), whole)
        for name, whole in names.items()
        for m in re.finditer(rf"\b{re.escape(name)}\b", question, re.IGNORECASE)
    ]
    for word, whole in said:
        project = _PROJECT_KINDS if whole else frozenset()
        if any(kinds(v) - project for v in (word, word.lower(), word.capitalize())):
            return question
    if not said:
        return question
    pattern = "|".join(re.escape(w) for w in dict.fromkeys(w for w, _ in said))
    left = re.sub(rf"\b(?:{pattern})(?:'s)?\b", " ", question)
    left = re.sub(r"\s+", " ", left).strip()
    kept = [t for t in query_terms(left) if t not in STOP_WORDS]
    return left if len(kept) >= MIN_LEFT else question
