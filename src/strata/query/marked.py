"""Questions about what the code marks in its lines (pure): the work left in comments ("what
TODOs are there", "list the FIXME comments"), what it declares deprecated ("which
functions are deprecated", "list the deprecated APIs") and the tests it skips ("which
tests are skipped", "list the xfail tests"); `strata.query.line_steps` finds
the passages with such a line.
"""

from __future__ import annotations

import re

from strata.query.question_filters import rx
from strata.query.verbatim import is_question
from strata.text.tokens import STOP_WORDS, query_terms

__all__ = ["MARKS", "asks_for_marks", "mark_words"]

_TAG = r"(?:todos?|fixmes?|xxx|hacks?)"
# A tag as comments write it, or in the plural: "the todo app" names no comment.
_TAG_WORD = re.compile(r"\b(?:TODO|FIXME|XXX|HACK)[Ss]?\b|\b(?i:todos|fixmes)\b")
_TODO_ASKS = rx(
    rf"\b(?:which|what|where|list|show|find|any|all|open|remaining|outstanding)\b(?:\s+\w+){{0,3}}"
    rf"\s+{_TAG}\b",
    rf"\b{_TAG}\s+(?:comments?|notes?|items?|markers?|list)\b",
    rf"^\W*{_TAG}\W*$",
    r"\bкакие\s+(?:todo|fixme)|\b(?:todo|fixme)[- ]?комментари",
)
_DEPRECATED_ASKS = rx(
    r"\b(?:which|what)\b(?:\s+\w+){0,2}\s+(?:is|are|was|were)\s+deprecated\b",
    r"\bwhat's\s+deprecated\b",
    r"\b(?:list|show|find|all|any)\b(?:\s+\w+){0,2}\s+deprecat(?:ed|ions)\b",
    r"\bdeprecated\s+(?:apis?|functions?|methods?|classes|options?|parameters?|features?|code)\b",
    r"\bdeprecation\s+warnings?\b",
    r"^\W*deprecat(?:ed|ions?)\W*$",
    r"\bчто\s+(?:устарело|помечено\s+устаревшим)|\bустаревш\w+\s+(?:функци|метод|api)",
)
_SKIPPED_ASKS = rx(
    r"\b(?:which|what)\s+tests?\s+(?:are|is|get|were)\s+(?:skipped|disabled|ignored|marked\s+xfail"
    r"|expected\s+to\s+fail|pending)\b",
    r"\b(?:list|show|find|all|any)\b(?:\s+\w+){0,2}\s+(?:skipped|disabled|ignored|pending|xfail)"
    r"\s+tests?\b",
    r"^\W*(?:skipped|disabled|ignored|pending|xfail(?:ed)?)\s+tests?\W*$",
    r"\bкакие\s+тесты\s+(?:пропущены|отключены|пропускаются)",
)
# A comment that leaves work: a comment mark (`#`, `//`, `--`, ...), then one of the tags.
_TODO_LINE = r"(?:#|//|/\*|\*|--|;|<!--|%|\{-)[ \t]*(?:@?(?:TODO|FIXME|XXX|HACK)\b)"
# What a language's code or docs say of a deprecated definition.
_DEPRECATED_LINE = (
    r"@[Dd]eprecated\b|#\[deprecated\b|\[Obsolete\b|\bDeprecationWarning\b"
    r"|\bPendingDeprecationWarning\b|^[ \t]*(?://|#|\*|--)[ \t]*Deprecated:|\.\. deprecated::"
    r"|\bdeprecate\w*\s*\(|\bdeprecated\s*\(|@available\([^)]*deprecated"
)
# A test skipped or expected to fail, in each framework's way (pytest, unittest, Jest and
# Mocha, Go, JUnit, NUnit/xUnit, Rust, RSpec).
_SKIPPED_LINE = (
    r"@pytest\.mark\.(?:skip|skipif|xfail)\b|@unittest\.(?:skip\w*|expectedFailure)\b"
    r"|\bpytest\.(?:skip|xfail)\(|\.skipTest\(|\b(?:it|test|describe|context)\.(?:skip|todo)\("
    r"|\bx(?:it|describe|test|context)\(|\bt\.Skip(?:f|Now)?\(|@Disabled\b|@Ignore\b"
    r"|\[Ignore\b|\[Fact\(Skip\s*=|#\[ignore\b|^[ \t]*(?:skip|pending)(?:[ \t]*\(|[ \t]+[\"'])"
)
MARKS: dict[str, re.Pattern[str]] = {
    "todo": re.compile(_TODO_LINE),
    "deprecated": re.compile(_DEPRECATED_LINE, re.MULTILINE),
    "skipped": re.compile(_SKIPPED_LINE, re.MULTILINE),
}
# the words a lexical search for each kind's lines uses besides the question's own
_IDIOMS = {
    "todo": "todo fixme xxx hack",
    "deprecated": "deprecated deprecation warn obsolete",
    "skipped": "skip skipif xfail disabled ignore pending",
}
_ASKING = frozenset(
    {"todo", "todos", "fixme", "fixmes", "xxx", "hack", "hacks", "comment", "comments", "list"}
    | {"deprecated", "deprecation", "deprecations", "api", "apis", "functions", "function"}
    | {"methods", "method", "classes", "show", "find", "open", "remaining", "left", "there"}
    | {"tests", "test", "skipped", "disabled", "ignored", "marked", "expected", "fail"}
)


def asks_for_marks(query: str) -> str:
    """Which marked lines the question asks for (`todo`, `deprecated`, `skipped`), "" for
    none."""
    said = query.casefold()
    if not any(
        w in said for w in ("todo", "fixme", "xxx", "hack", "deprecat", "устар", "test", "тест")
    ):
        return ""  # most questions: no mark to look for
    alone = len(query.split()) <= 2
    asking = alone or is_question(query) or bool(re.match(r"\W*(?:какие|что)\b", said))
    if asking and _TAG_WORD.search(query) and any(p.search(query) for p in _TODO_ASKS):
        return "todo"
    if asking and any(p.search(query) for p in _DEPRECATED_ASKS):
        return "deprecated"
    if asking and any(p.search(query) for p in _SKIPPED_ASKS):
        return "skipped"
    return ""


def mark_words(kind: str, query: str) -> str:
    """The words a lexical search for the marked lines uses: the question's own (a topic,
    a name) and the kind's idioms."""
    words = [t for t in query_terms(query) if t not in STOP_WORDS and t not in _ASKING]
    return " ".join([*words, _IDIOMS[kind]])
