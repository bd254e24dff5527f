"""A question's core (pure): the words that name what is sought, without the request
around them.

"Can you show me the code responsible for multipart form data parsing?" and "I'm trying to
understand how X works. Where is that handled in the code?" carry the same topic as their
core; the frame adds words every chunk may hold ("code", "handled", "show") to the lexical
query and pulls the query's vector away from the topic. The search reads the core; the
router reads the whole question. Nothing is taken when less than two words would be left.
"""

from __future__ import annotations

import re

from strata.query.verbatim import QUESTION_OPENERS

__all__ = ["core", "is_topic"]

_F = re.IGNORECASE
_CODE = (
    r"(?:the\s+)?(?:code|source(?:\s+code)?|logic|implementation|function|method|class|module"
    r"|part|place)"
)
_LEADS = tuple(
    re.compile(p, _F)
    for p in (
        r"^(?:hey|hi|ok|okay|so)\b[,\s]+",
        r"^please\s+",
        r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:show|tell|find|give|point)\s+(?:me\s+)?(?:to\s+)?",
        r"^i(?:'m|\s+am)\s+(?:trying|looking|wanting)\s+to\s+(?:understand|find|see|know|locate)\s+",
        r"^i\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+(?:know|understand|see|find|locate)\s+",
        r"^help\s+me\s+(?:to\s+)?(?:find|understand|locate)\s+",
        r"^(?:show|find|tell|give)\s+me\s+",
        r"^(?:explain|describe)\s+",
        rf"^{_CODE}\s+(?:that\s+(?:is\s+)?|which\s+(?:is\s+)?)?(?:responsible\s+for|in\s+charge\s+of|that\s+handles|which\s+handles|that\s+does|for)\s+",
    )
)
_TRAILS = tuple(
    re.compile(p, _F)
    for p in (
        r"[\s,]+(?:in|inside|within|across)\s+(?:this|the|our)\s+(?:repo|repository|codebase|code\s*base|code|project|sources?)\s*$",
        r"[.?!]\s*where\s+(?:is|are)\s+(?:that|this|it|they)\s+(?:handled|done|implemented|defined|located)(?:\s+in\s+the\s+code)?\s*$",
    )
)
# A question around the topic: "where is X implemented" -> X.
_WRAPS = tuple(
    re.compile(p, _F)
    for p in (
        r"^where\s+(?:is|are)\s+(.+?)\s+(?:implemented|handled|done)(?:\s+in\s+the\s+code)?$",
        r"^(?:which|what)\s+(?:code|file|module|function|class)\s+(?:handles|implements|does)\s+(.+)$",
    )
)
_END = re.compile(r"[\s?.!]+$")
# A sentence or a question opens so: "how ...", "what ...", "can I ...", "show me ...".
_OPENERS = ("may", "might", "must", "i", "we", "my", "our", "please")
_ASKING = re.compile(rf"^\s*(?:{'|'.join((*QUESTION_OPENERS, *_OPENERS))})\b", _F)
TOPIC_WORDS = 12  # a topic is named in at most this many words
_PERSONS = frozenset({"i", "me", "my", "we", "us", "our", "you", "your"})
_WORD = re.compile(r"[^\W\d_]{2,}")


def core(query: str) -> str:
    """`query` without the request around its topic (the query itself when nothing is)."""
    whole = text = _END.sub("", query.strip())
    changed = True
    while changed:
        changed = False
        for p in (*_LEADS, *_TRAILS, *_WRAPS):
            cut = p.sub(r"\1" if p.groups else "", text, count=1)
            if cut != text and len(_WORD.findall(cut)) >= 2:
                text, changed = _END.sub("", cut.strip()), True
    return query if text == whole else text


def is_topic(query: str) -> bool:
    """A topic named in a phrase rather than said in a sentence or asked ("request API
    helpers and header access", "multipart form data extraction"), or wrapped in a request
    for the code ("show me the code for ...?"): three to `TOPIC_WORDS` words, no closing
    full stop (nor other closing mark unless a request was around it), no question or
    request word first, no one addressed ("you", "we": the docs speak to the reader)."""
    text = query.strip()
    topic = core(text)
    if text.endswith(".") or (topic == text and text[-1:] in ("?", "!", ":", ";")):
        return False
    words = topic.split()
    if _ASKING.match(topic) or _PERSONS.intersection(w.lower() for w in words):
        return False
    return 3 <= len(words) <= TOPIC_WORDS
