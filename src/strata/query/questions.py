"""Reading a question: its intent and the names it mentions (pure).

`classify` recognises the intents of shared/spec/layers.md (English and some Russian);
`strata.query.question_filters` finds the filters a question names, and
`strata.query.router` turns both into a `RetrievalPlan`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata.query.doc_links import links_asked, quoted, subject_of
from strata.query.entry_questions import CLI as _ENTRY_CLI
from strata.query.entry_questions import FRAMEWORKS as _FRAMEWORKS
from strata.query.entry_questions import HTTP as _ENTRY_HTTP
from strata.query.entry_questions import asks_for_entrypoints
from strata.query.graph_questions import GRAPH_INTENTS, WALKS_OF_CODE
from strata.query.phrases import END as _END
from strata.query.phrases import KIND as _KIND
from strata.query.phrases import KIND_AFTER as _KIND_AFTER
from strata.query.phrases import KIND_WORD as _KIND_WORD
from strata.query.phrases import KINDS as _KINDS
from strata.query.phrases import NAME as _NAME
from strata.query.phrases import OPERATOR as _OPERATOR
from strata.query.phrases import THE as _THE
from strata.query.phrases import WORD as _WORD
from strata.query.question_filters import ROUTE, matches_any, no_urls, rx
from strata.query.verbatim import message_words
from strata.text.tokens import STOP_WORDS, is_identifier_like

__all__ = [
    "QUESTION_WORDS",
    "Classification",
    "about_name",
    "classify",
    "code_shaped",
    "names_a_kind",
    "symbol_slot",
    "walk_of",
]

_F = re.IGNORECASE


# The kind of a definition said in Russian before its name ("где определена функция evolve").
_RU_KINDS = (
    r"(?:функци|класс|метод|тип|структур|интерфейс|перечислени|констант|макрос|модул"
    r"|переменн|свойств|пол[еяю]\b|декоратор)\w*\s+"
)
_RU_KIND = rf"(?:{_RU_KINDS})?"
_SYMBOL = rx(
    rf"\bwhere\s+(?:is|are)\s+{_THE}{_KIND}{_NAME}{_KIND_AFTER}\s+"
    r"(?:defined|declared|implemented|created)\b",
    rf"\b(?:definition|declaration|source)\s+of\s+{_NAME}{_END}",
    rf"\b(?:find|show|locate|open)\s+(?:me\s+)?{_THE}(?:class|function|method|symbol|type)\s+{_NAME}{_END}",
    rf"\bгде\s+(?:определ\w*|объявлен\w*|реализован\w*)\s+{_RU_KIND}{_NAME}{_END}",
    rf"\b(?:покажи|найди|открой)\s+(?:мне\s+)?{_RU_KINDS}{_NAME}{_END}",
)
# The small words that may follow a name in a question without making it a phrase.
_AFTER_A_NAME = rf"{_KINDS}|and|or|in|of|from|for|to|with|please"
# After "explain X" or "where can I find X" the name ends the question or is followed by a
# kind or a small word ("explain Context.invoke and its callers"); "explain XMLHttpRequest
# adapter for browsers" asks about a topic whose first word is a name.
_NAME_ENDS = rf"(?=\s*(?:[?!,;]|\.(?:\s|$)|$)|\s+(?:{_AFTER_A_NAME}|works?|does|do)\b)"
# A question about what a code-shaped name is or does ("what does parseArgs do", "how is
# `retry` implemented"): its definition answers first, as for "where is X defined". A
# plain word here ("how does routing work") is a topic, not a name, and is left alone.
_ABOUT_NAME = rx(
    rf"\bwhat\s+(?:does|do|did)\s+{_THE}{_NAME}\s+(?:do|does|return|returns|mean|take|accept|raise|throw)\b",
    rf"\bhow\s+(?:does|do|is|are)\s+{_THE}{_NAME}\s+(?:work|works|implemented|written|computed)\b",
    rf"\bwhere\s+(?:can|do|could|would|should)\s+(?:i|we|you)\s+find\s+{_THE}{_NAME}{_NAME_ENDS}",
    rf"^\s*(?:what|who)\s+(?:is|are)\s+{_THE}{_NAME}\s*\??\s*$",
    rf"\b(?:explain|describe)\s+{_THE}{_NAME}{_NAME_ENDS}",
    rf"^\s*(?:show|open|find)\s+(?:me\s+)?{_THE}{_NAME}\s*[.?!]?\s*$",
    rf"\b(?:show|open|find)\s+(?:me\s+)?{_THE}{_NAME}\s+{_KINDS}\b",
    rf"^\s*where\s+(?:is|are)\s+{_THE}{_KIND}{_NAME}{_KIND_AFTER}\s*[.?!]?\s*$",
    rf"\bwhich\s+(?:file|module|class|package)\s+(?:defines|declares|implements|contains|has)\s+{_THE}{_KIND}{_NAME}{_END}",
    rf"\bwhat\s+(?:file|module)\s+(?:is|are)\s+{_THE}{_NAME}\s+(?:in|defined\s+in|from)\b",
    rf"\bwhere\s+(?:does|do)\s+{_THE}{_NAME}\s+(?:live|come\s+from)\b",
    rf"\b(?:signature|parameters|arguments|return\s+(?:type|value))\s+of\s+{_THE}{_NAME}{_END}",
    # what a name is for, or of which type: its definition says
    rf"^\s*what\s+(?:is|are)\s+{_THE}{_NAME}\s+(?:used\s+for|for|needed\s+for)\s*\??\s*$",
    rf"\bwhat\s+is\s+the\s+(?:purpose|point|role|job)\s+of\s+{_THE}{_NAME}{_END}",
    rf"\bwhat\s+(?:type|kind)\s+(?:is|are)\s+{_THE}{_NAME}{_END}",
    rf"\bwhat\s+(?:type|types|values?)\s+(?:does|do|can|could|will)\s+{_THE}{_NAME}\s+return\b",
    rf"\b(?:what|which)\s+(?:exceptions|errors)\s+(?:does|do|can|could|might|may|will)\s+"
    rf"{_THE}{_NAME}\s+(?:raise|throw|return)\b",
    rf"\b(?:what|which)\s+(?:exceptions|errors)\s+(?:are|get|can\s+be)\s+(?:raised|thrown|returned)\s+by\s+{_THE}{_NAME}{_END}",
    rf"\bwhat\s+(?:arguments|parameters|params|args)\s+(?:does|do)\s+{_NAME}\s+(?:take|accept|expect)\b",
    rf"^\s*{_NAME}\s+(?:implementation|source|definition|code)\s*[.?!]?\s*$",
    rf"\bчто\s+делает\s+{_NAME}{_END}",
)
_WORKFLOW = rx(
    r"\bhow\s+(?:does|do|is|are)\s+.+?\s+(?:work|works|happen|handled|processed|done|performed|flow)\b",
    r"\bwhat\s+happens\s+(?:when|if|after|during|to)\b",
    r"\b(?:workflow|scenario|use\s+case|process|steps)\s+(?:of|for|to|when)\b",
    r"\bwhat\s+are\s+the\s+steps\b",
    r"\bhow\s+(?:to|do\s+i|do\s+we|can\s+i|can\s+we|should\s+i)\b",
    r"\bкак\s+(?:работает|работают|происходит|устроен\w*|выполняется|проходит|сделать|оформить)\b",
    r"\bсценари\w*|\bчто\s+происходит\b",
)
_DEFINITION = rx(
    rf"^\s*(?:what|who)\s+(?:is|are)\s+{_THE}(?P<term>[^?]+?)\s*\??\s*$",
    r"\bwhat\s+does\s+(?P<term>.+?)\s+mean\b",
    r"\b(?:define|meaning\s+of|definition\s+of)\s+(?P<term>[^?]+)",
    r"\bчто\s+(?:такое|значит|означает)\s+(?P<term>[^?]+)",
)
_ENTRY_SUBJECT = rx(
    rf"\b{_THE}{_WORD}\s+(?:service|module|app|application|package|api|server|cli)\b",
    rf"\b(?:in|of|from|by)\s+{_THE}{_WORD}{_END}",
)


@dataclass(frozen=True, slots=True)
class Classification:
    """What a question asks: the intent, names (identifiers) and subject it mentions."""

    intent: str
    names: tuple[str, ...] = ()
    subject: str = ""
    target: str = ""
    reason: str = ""
    entry_type: str | None = None
    route: str | None = None
    framework: str | None = None


def classify(query: str) -> Classification:
    """The rule-based classification of one question (English and some Russian)."""
    described = is_description(query)
    groups = [(i, ps) for i, (word,), ps in GRAPH_INTENTS if not described and word.search(query)]
    for intent, patterns in (*groups, ("symbol", _SYMBOL)):
        for p in patterns:
            m = p.search(query)
            if m and _is_name(m.group(1)) and not _goes_on(query, m):
                name = quoted(query) or _asked(m, query)
                return Classification(intent, (name,), reason=f"{intent}: matched {m.group(0)!r}")
    walk = _walk_of_code(query)
    if walk is not None:
        return walk
    name, said = about_name(query)
    if name and (code_shaped(query, name) or names_a_kind(said, name)):
        why = f"symbol: asks about the code name in {said!r}"
        return Classification("symbol", (quoted(query) or name,), reason=why)
    entry = None if described else _entrypoint(query)
    if entry is not None:
        return entry
    if linked := links_asked(query):
        intent, subject, target, why = linked
        return Classification(intent, subject=subject, target=target, reason=f"{intent}: {why}")
    if matches_any(_WORKFLOW, query):
        return Classification(
            "workflow", names=_identifiers(query), reason="workflow: a how/what-happens question"
        )
    for p in _DEFINITION:
        m = p.search(query)
        if m:
            term = m.group("term").strip(" `'\"?.")
            term_names = (term,) if is_identifier_like(term) and " " not in term else ()
            return Classification(
                "definition",
                names=term_names,
                subject=term,
                reason=f"definition: asks what {term!r} is",
            )
    alone = _name_alone(query)
    if alone is not None:
        return alone
    names = _identifiers(query)
    return Classification("free_text", names, reason="free text: no structural intent recognised")


_OPERATOR_ALONE = re.compile(rf"\s*`?({_OPERATOR})`?\s*")


def is_operator(query: str) -> bool:
    """The query is an operator's name and nothing else (`(<?>)`, Haskell's `(>>=)`): no
    words to search, found by name in the symbol catalogue."""
    return bool(_OPERATOR_ALONE.fullmatch(query))


def _name_alone(query: str) -> Classification | None:
    """The query is a name and nothing else: an identifier, or an operator."""
    operator = _OPERATOR_ALONE.fullmatch(query)
    if operator:
        name = operator.group(1)[1:-1]  # the catalogue names `(<?>)` by its operator
        return Classification("symbol", (name,), reason="symbol: an operator")
    names = _identifiers(query)
    if names and is_identifier_like(query) and not _has_question_word(query):
        return Classification(
            "symbol", names, reason=f"symbol: the query is a code name {names[0]!r}"
        )
    return None


# After a plain word that ends the matched question, the words that leave it a name:
# "who calls checkout in the tests", not "implementations of the retry logic".
_GOES_ON = re.compile(
    rf"\s+(?!(?:{_AFTER_A_NAME}|at|on|by|directly|here)\b)[^\W\d_]", re.IGNORECASE
)


def _goes_on(query: str, m: re.Match[str]) -> bool:
    """A plain word (not written as code) that the question's phrase goes on after: a
    topic ("the base handler"), not a name."""
    name = m.group(1)
    return (
        m.end(1) == m.end()
        and not code_shaped(query, name)
        and bool(_GOES_ON.match(query, m.end()))
    )


def _walk_of_code(query: str) -> Classification | None:
    """A callers or callees question that asks so only of a name written as code."""
    intent, name = walk_of(query)
    if name and code_shaped(query, name):
        return Classification(intent, (quoted(query) or name,), reason=f"{intent}: {name!r}")
    return None


_WALK_WORD = re.compile(r"use|call|invok|referenc|depend|rely", re.IGNORECASE)


def walk_of(query: str) -> tuple[str, str]:
    """The intent and name of a `_WALKS_OF_CODE` question (("", "") none)."""
    if not _WALK_WORD.search(query):
        return "", ""
    for intent, patterns in WALKS_OF_CODE:
        for p in patterns:
            m = p.search(query)
            if m and _is_name(m.group(1)):
                return intent, _asked(m, query)
    return "", ""


def _entrypoint(query: str) -> Classification | None:
    http, cli = matches_any(_ENTRY_HTTP, query), matches_any(_ENTRY_CLI, query)
    routes = ROUTE.findall(no_urls(query))
    routes = [r for r in routes if "." not in r.rsplit("/", 1)[-1]]  # /src/x.py is a file
    if not asks_for_entrypoints(query, route=bool(routes)):
        return None
    kind = "http" if (http or routes) and not cli else "cli" if cli and not http else None
    framework = next((f for f in _FRAMEWORKS if re.search(rf"\b{f}\b", query, _F)), None)
    subject = subject_of(query, _ENTRY_SUBJECT)
    if subject in _FRAMEWORKS:
        subject = ""
    what = kind or "any"
    return Classification(
        "entrypoints",
        subject=subject,
        reason=f"entrypoints: the question asks for {what} entry points"
        + (f" at {routes[0]}" if routes else ""),
        entry_type=kind,
        route=routes[0] if routes else None,
        framework=framework,
    )


def _identifiers(query: str) -> tuple[str, ...]:
    written = quoted(query)
    if written and _is_name(written):
        return (written,)
    words = [w.strip("`'\"?,!;:()") for w in query.split()]
    words = [w.removesuffix("()").rstrip(".") for w in words]
    return tuple(w for w in dict.fromkeys(words) if w and _is_name(w) and is_identifier_like(w))


def _asked(m: re.Match[str], query: str) -> str:
    """The name group of `m`: a Ruby or Lisp predicate's `?` is its own (`empty?`), the
    question's last `?` is not ("who calls read-json?")."""
    name = m.group(1)
    if name.endswith("'") and query[: m.start(1)].endswith("'"):
        name = name[:-1]  # 'foo': quoted, not Haskell's foo'
    if re.fullmatch(_OPERATOR, name):
        return name[1:-1]  # the catalogue names `(<?>)` by its operator
    return name[:-1] if name.endswith("?") and not query[m.end(1) :].strip() else name


def _is_name(word: str) -> bool:
    word = word.strip("`'\"").removesuffix("()")
    if re.fullmatch(_OPERATOR, word):
        return True
    # `For` may be a class (sqlparse has one); `for` is a word.
    part = r"[A-Za-z_$][\w$]*(?:-+[\w$]+)*(?:[*!?]|'+)?"
    # `.`, `::`, `\`, and Lua's method `Parser:parse`
    return bool(re.fullmatch(rf"[.~\\]?{part}(?:(?:\.|::~?|:|\\){part})*", word)) and (
        word not in STOP_WORDS
    )


def about_name(query: str) -> tuple[str, str]:
    """The name a "what does X do" question asks about, and the words that ask ("" none)."""
    for p in _ABOUT_NAME:
        m = p.search(query)
        if m and _is_name(m.group(1)):
            return _asked(m, query).removesuffix("()"), m.group(0)
    return "", ""


def symbol_slot(query: str) -> str:
    """The word in the name slot of "where is X defined", even a stop word ("where is has
    defined": `plain_names` asks the index whether it names something)."""
    for p in _SYMBOL:
        m = p.search(query)
        if m:
            return m.group(1)
    return ""


def names_a_kind(said: str, name: str) -> bool:
    """Whether the words about `name` say its kind ("the class Context", "the users table")."""
    return bool(_KIND_WORD.search(re.sub(rf"(?<![\w$]){re.escape(name)}(?![\w$])", " ", said)))


def code_shaped(query: str, name: str) -> bool:
    """A name written as code: split case, a `_`, `.` or `::`, `()`, in backticks, or an
    operator in parentheses."""
    return (
        is_identifier_like(name)
        or f"`{name}`" in query
        or f"{name}()" in query
        or (f"({name})" in query and not name.isalnum())
    )


def is_description(query: str) -> bool:
    """Whether the query is a sentence that describes code rather than asks for a listing:
    six words or more ending with a full stop, not a question or a request ("Delete the
    parent and help command from c.", a doc comment's sentence pasted as a search): its
    "subcommand" or "test cases for" asks for no entry points and no tests."""
    text = query.strip()
    return text.endswith(".") and len(text.split()) >= 6 and bool(message_words(text))


# The words a question opens with ("where is X", "does X …"), not a name's phrase.
QUESTION_WORDS = frozenset(
    {"how", "what", "why", "where", "who", "which", "when", "is", "does", "can"}
)


def _has_question_word(query: str) -> bool:
    first = query.strip().split()[0].lower()
    return first in QUESTION_WORDS
