"""A plain word in a question that the index may define (`named`): "what does json do",
"how is recurse used", "where is has defined" ask about a name when one is so named, and
about a topic otherwise. The rules (`strata.query.questions`) cannot tell; the router asks
the index (`IndexFacts.defines`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from strata.query.phrases import KIND_WORD, THE
from strata.query.question_filters import rx
from strata.query.questions import (
    Classification,
    about_name,
    code_shaped,
    names_a_kind,
    symbol_slot,
    walk_of,
)
from strata.text.tokens import STOP_WORDS

__all__ = ["named", "plain_name_asked", "said_in_words"]

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
# A name said in words, two to four of them (a kind word may close the run): "where is the
# get template function defined", "what does the file system loader class do".
_RUN = r"(?P<words>[a-z]+(?:\s+[a-z]+){1,4})"
_IN_WORDS = rx(
    rf"\bwhere\s+(?:is|are)\s+{THE}{_RUN}\s+(?:defined|declared|implemented)\b",
    rf"\bwhat\s+(?:does|do)\s+{THE}{_RUN}\s+(?:do|does|return|returns)\b",
    rf"\bhow\s+(?:does|do|is)\s+{THE}{_RUN}\s+(?:work|works|implemented)\b",
    rf"^\s*(?:show|find|open)\s+(?:me\s+)?{THE}{_RUN}\s*[.?!]?\s*$",
)


def named(
    found: Classification,
    query: str,
    defines: Callable[[str], Collection[str]] | None,
    meant: Callable[[str], str | None] | None = None,
) -> Classification:
    """A question about a plain word ("what does json do", "how is recurse used"), or the
    word alone ("Engine", "Semaphore"), is about a name when the index `defines` one
    spelt so, or when the word names nothing and is the typo of one (`meant`: "Gatewya");
    a question that says a name in words ("the get template function") is about it when
    the index defines it. Otherwise the rules' classification `found` stands."""
    if defines and (member := _member_asked(found, query, defines)):
        return Classification("symbol", (member,), reason=f"symbol: the index defines {member!r}")
    if found.intent not in ("free_text", "workflow", "definition", "relations") or not defines:
        return found

    def kinds_of(word: str) -> set[str]:
        kinds = set(defines(word))
        fixed = meant(word) if meant and not kinds else None
        return set(defines(fixed)) if fixed else kinds

    walk, used = walk_of(query)
    if used and kinds_of(used):
        return Classification(walk, (used,), reason=f"{walk}: the index defines {used!r}")
    if found.intent == "relations":
        return found
    name = plain_name_asked(query) or _word_alone(query)
    kinds = kinds_of(name) if name else set()
    if not kinds and (spelt := said_in_words(query, defines)):
        return Classification("symbol", (spelt,), reason=f"symbol: the index defines {spelt!r}")
    if not kinds or (name == query.strip(" `") and not kinds - _MEMBER_KINDS):
        return found  # the word alone names only a member ("Args": a struct's field)
    return Classification("symbol", (name,), reason=f"symbol: the index defines {name!r}")


# A type's name and one word after it: "ZodError flatten", "HookCaller call_historic",
# "Context invoke method".
_MEMBER_WORD = r"(?:\s+(?:method|function|property|attribute|field|member))"
_NAME_AND_MEMBER = re.compile(
    rf"\s*`?([A-Za-z_$][\w$.:]*)`?\s+`?([A-Za-z_$][\w$]*)(?:\(\))?`?{_MEMBER_WORD}?\s*"
)
# A member said with its type: "the invoke method of Context", "Context's invoke method".
_MEMBER_OF = re.compile(
    rf"\s*(?:the\s+)?`?(?P<member>[A-Za-z_$][\w$]*)(?:\(\))?`?{_MEMBER_WORD}\s+(?:of|in|on)"
    r"\s+(?:the\s+)?`?(?P<type>[A-Za-z_$][\w$.:]*)`?(?:\s+(?:class|struct|type|interface|object))?"
    r"\s*[?.]?\s*|\s*`?(?P<owner>[A-Za-z_$][\w$.:]*)`?'s\s+`?(?P<own>[A-Za-z_$][\w$]*)(?:\(\))?`?"
    rf"{_MEMBER_WORD}?\s*[?.]?\s*",
    re.IGNORECASE,
)


def _member_asked(
    found: Classification, query: str, defines: Callable[[str], Collection[str]]
) -> str:
    """The member a type's name and a word after it ask for ("ZodError flatten":
    `ZodError.flatten`), or a question says with its type ("the invoke method of
    Context"), when the index defines one so (else the rules' reading stands), or ""."""
    if (m := _MEMBER_OF.fullmatch(query)) is not None:
        member = f"{m['type'] or m['owner']}.{m['member'] or m['own']}"
    elif found.intent in ("symbol", "free_text") and (m := _NAME_AND_MEMBER.fullmatch(query)):
        if found.names and not {m.group(1), m.group(2)} & set(found.names):
            return ""
        member = f"{m.group(1)}.{m.group(2)}"  # "Console print": two plain words too
    else:
        return ""
    return member if defines(member) else ""


def said_in_words(query: str, defines: Callable[[str], Collection[str]]) -> str:
    """The name a question says in words ("the get template function": `get_template`,
    `getTemplate` or `GetTemplate`, whichever the index `defines`), or ""."""
    for p in _IN_WORDS:
        m = p.search(query)
        if not m:
            continue
        said = tuple(m.group("words").lower().split())
        # a kind word may open or close the run ("the class file system loader", "the get
        # template method"), or be a part of the name (`class_perl`, `SearchIndex`)
        head = 1 if KIND_WORD.fullmatch(said[0]) else 0
        tail = len(said) - 1 if KIND_WORD.fullmatch(said[-1]) else len(said)
        runs = (said[head:tail], said[:tail], said[head:], said)
        kind = said[0] if head else said[-1] if tail < len(said) else ""
        for words in dict.fromkeys(runs):
            if 2 <= len(words) <= 4 and not set(words) & STOP_WORDS:
                found = [(s, defines(s)) for s in _spellings(words)]
                # of `versionTemplate` (a field) and `VersionTemplate`, the "method" said
                spelt = [s for s, kinds in found if kind in kinds] or [s for s, k in found if k]
                if spelt:
                    return spelt[0]
    return ""


def _spellings(words: tuple[str, ...]) -> tuple[str, ...]:
    """The ways code writes a name of these words: `get_template`, `getTemplate`,
    `GetTemplate`, `gettemplate`, `GET_TEMPLATE`, `get-template`."""
    pascal = "".join(w.capitalize() for w in words)
    return (
        "_".join(words),
        words[0] + pascal[len(words[0]) :],
        pascal,
        "".join(words),
        "_".join(words).upper(),
        "-".join(words),
    )


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
