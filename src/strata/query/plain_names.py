"""A plain word in a question that the index may define (`named`): "what does json do",
"how is recurse used", "where is has defined" ask about a name when one is so named, and
about a topic otherwise. The rules (`strata.query.questions`) cannot tell; the router asks
the index (`IndexFacts.defines`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from strata.query.questions import (
    Classification,
    about_name,
    code_shaped,
    names_a_kind,
    symbol_slot,
    walk_of,
)
from strata.text.tokens import STOP_WORDS

__all__ = ["named", "plain_name_asked"]

# Stop words that name methods often enough ("where is has defined"); pronouns and question
# words never do.
_NAMED_STOP_WORDS = STOP_WORDS - {
    *("i", "it", "its", "this", "that", "these", "there", "their", "you", "your"),
    *("what", "when", "where", "which", "who", "why", "how"),
}


# A word alone that only a member so named answers (cobra's `Command.Args` for "Args") is
# more often the topic than that member.
_MEMBER_KINDS = frozenset({"field", "property"})
_WORD_ALONE = re.compile(r"\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*")


def named(
    found: Classification, query: str, defines: Callable[[str], Collection[str]] | None
) -> Classification:
    """A question about a plain word ("what does json do", "how is recurse used"), or the
    word alone ("Engine", "Semaphore"), is about a name when the index `defines` one
    spelt so; otherwise the rules' classification `found` stands."""
    if found.intent not in ("free_text", "workflow", "definition", "relations") or not defines:
        return found
    walk, used = walk_of(query)
    if used and defines(used):
        return Classification(walk, (used,), reason=f"{walk}: the index defines {used!r}")
    if found.intent == "relations":
        return found
    name = plain_name_asked(query) or _word_alone(query)
    kinds = set(defines(name)) if name else set()
    if not kinds or (name == query.strip(" `") and not kinds - _MEMBER_KINDS):
        return found  # the word alone names only a member ("Args": a struct's field)
    return Classification("symbol", (name,), reason=f"symbol: the index defines {name!r}")


def plain_name_asked(query: str) -> str:
    """A plain word a "what does X do" question asks about, with no article before it
    ("what does json do": `json`; "what does the cache do": ""). Whether it is a name is
    the index's to say (`IndexFacts.defines`): the rules take it for a topic."""
    name, said = about_name(query)
    if not name:
        return _stop_word_named(query)
    if code_shaped(query, name) or names_a_kind(said, name):
        return ""  # the rules take it for a name already
    return "" if re.search(r"\b(?:the|a|an)\s", said, re.IGNORECASE) else name


def _word_alone(query: str) -> str:
    """A query of one plain word, as written ("Engine", "Semaphore", "formatter"): a name
    if the index defines one spelled so, a topic otherwise ("routing")."""
    word = _WORD_ALONE.fullmatch(query)
    return word.group(1) if word else ""


def _stop_word_named(query: str) -> str:
    """A stop word in the name slot of "where is X defined" (`has`, `then`, `of`, `from`:
    methods in C++, JavaScript, Java); a name only if the index defines one so named. A
    pronoun ("where is it defined") is never one."""
    word = symbol_slot(query)
    return word if word.lower() in _NAMED_STOP_WORDS else ""
