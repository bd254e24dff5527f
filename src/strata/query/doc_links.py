"""Questions about how documents link (pure): what a component integrates with
("what does payments integrate with", "integrations of X") and what depends on or relates
to what ("what depends on billing"), with the subject or target document they name;
`strata.query.questions` classifies them."""

from __future__ import annotations

import re

from strata.query.framing import is_topic
from strata.query.phrases import END as _END
from strata.query.phrases import THE as _THE
from strata.query.phrases import WORD as _WORD
from strata.query.question_filters import matches_any, rx
from strata.text.tokens import STOP_WORDS

__all__ = ["links_asked", "quoted", "subject_of"]

_SUBJECT_NOISE = frozenset(
    {*STOP_WORDS, "service", "services", "documents", "document", "docs", "module", "all"}
    | {"http", "rest", "web", "api", "cli", "endpoints", "routes", "commands", "expose", "our"}
)


_INTEGRATIONS = rx(
    r"\bintegrat\w*\b",
    r"\b(?:talks?|connects?|sends?\s+\w+)\s+to\b",
    r"\bexternal\s+(?:systems?|services?|apis?)\b",
    r"\bинтегр\w*|\bинтеграци\w*",
)
_RELATIONS = rx(
    r"\bdepend\w*\s+on\b",
    r"\bdependencies\s+of\b",
    r"\brelated\s+to\b",
    r"\b(?:refer|link|point)\w*\s+to\b",
    r"\breferenc(?:es|ed|ing|e(?!\s+(?:count\w*|types?|manual|guide|docs?)\b))\b",
    r"\bзавис\w+\s+от\b",
    r"\bот\s+чего\s+завис\w*",
    r"\bсвязан\w*\s+с\b",
)
# Subjects of docs questions: "what does payments integrate with", "integrations of X".
_SOURCE_SUBJECT = rx(
    rf"\b(?:does|do|did)\s+{_THE}{_WORD}(?:\s+(?:service|module|system|component))?\s+(?:integrate|talk|connect|depend|use|relate|call)\b",
    rf"\b(?:integrations?|dependencies|relations?)\s+(?:of|for)\s+{_THE}{_WORD}{_END}",
    rf"\bинтегрир\w+\s+{_WORD}{_END}",
    rf"\bинтеграци\w+\s+{_WORD}{_END}",
    rf"\b{_WORD}\s+завис\w+\s+от\b",
    rf"\bот\s+чего\s+завис\w*\s+{_WORD}{_END}",
)
_TARGET_SUBJECT = rx(
    rf"\b(?:integrates?|integrated|talks?|connects?)\s+(?:with|to)\s+{_THE}{_WORD}{_END}",
    rf"\b(?:depends?|rely|relies)\s+on\s+{_THE}{_WORD}{_END}",
    rf"\b(?:related|refers?|links?|points?)\s+to\s+{_THE}{_WORD}{_END}",
    rf"\breferenc(?:es|ed|ing|e)\s+{_THE}{_WORD}{_END}",
    rf"\bзавис\w+\s+от\s+{_WORD}{_END}",
    rf"\bсвязан\w*\s+с\s+{_WORD}{_END}",
)
_QUOTED = re.compile(r"`([^`]+)`|\"([^\"]+)\"|'([^'\s][^']*)'")


def links_asked(query: str) -> tuple[str, str, str, str] | None:
    """An `integrations` or `relations` question: its intent, subject (or target) document
    and why, or None."""
    for intent, patterns, why in (
        ("integrations", _INTEGRATIONS, "the question asks what a component integrates with"),
        ("relations", _RELATIONS, "the question asks what depends on or relates to what"),
    ):
        if matches_any(patterns, query):
            src, tgt = subject_of(query, _SOURCE_SUBJECT), subject_of(query, _TARGET_SUBJECT)
            if not (src or tgt) and is_topic(query):  # "signal handling integration with X"
                continue  # a topic that has the word, not a question about links
            return intent, src, "" if src else tgt, why
    return None


def subject_of(query: str, patterns: tuple[re.Pattern[str], ...]) -> str:
    """The subject a question names: a quoted one, else the first word `patterns` capture
    that is not a stop or generic word."""
    quoted_ = quoted(query)
    if quoted_:
        return quoted_
    for p in patterns:
        for m in p.finditer(query):
            word = m.group(1).strip(".-").lower()
            if word and word not in _SUBJECT_NOISE and not word.isdigit():
                return word
    return ""


def quoted(query: str) -> str:
    """What the question quotes (`x`, "x", 'x'), "" for nothing."""
    m = _QUOTED.search(query)
    return next((g for g in m.groups() if g), "").strip() if m else ""
