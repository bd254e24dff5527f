"""Questions that ask what a type defines (pure): "what methods does Environment have",
"list the methods of the Template class", "fields of Config", "what's in class Node".
`strata.query.member_steps` lists them from the symbol catalogue."""

from __future__ import annotations

import re

from strata.query.phrases import END, KIND, KIND_AFTER, NAME, PROJECT, THE
from strata.query.question_filters import rx

__all__ = ["KINDS_ASKED", "defined_in_asked", "imports_asked", "kind_listed", "members_asked"]

_MEMBERS = (
    r"(?:(?:public|exported|private|protected|static|instance)\s+)?"  # every one of them, listed
    r"(?:methods|functions|fields|members|properties|attributes|operations|variants)"
)
_TYPE = r"(?:class|struct|interface|type|trait|enum)"
_HAVE = r"(?:have|has|define|defines|expose|exposes|provide|provides|offer|contain|declare)"
_ASKS = rx(
    rf"\b(?:what|which)\s+{_MEMBERS}\s+(?:does|do)\s+{THE}{KIND}{NAME}{KIND_AFTER}\s+{_HAVE}\b",
    rf"\b(?:list|show|give|find)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+)?{_MEMBERS}\s+"
    rf"(?:of|in|on)\s+{THE}{KIND}{NAME}{KIND_AFTER}{END}",
    rf"^\W*(?:all\s+)?(?:the\s+)?{_MEMBERS}\s+(?:of|in|on)\s+{THE}{KIND}{NAME}{KIND_AFTER}\W*$",
    rf"\b(?:what|which)\s+(?:are\s+)?(?:the\s+)?{_MEMBERS}\s+(?:of|in|on)\s+{THE}{KIND}{NAME}"
    rf"{KIND_AFTER}{END}",
    rf"\bwhat(?:'s|\s+is)\s+in\s+(?:the\s+)?(?:class|struct|interface|type|trait|enum)\s+{NAME}{END}",
    rf"\bwhat\s+does\s+(?:the\s+)?(?={_TYPE}\s|\S+\s+{_TYPE}\s)(?:{_TYPE}\s+)?{NAME}(?:\s+{_TYPE})?"
    r"\s+(?:contain|hold|define)\b",
    rf"\b(?:какие\s+(?:методы|поля)\s+(?:есть\s+)?(?:у\s+)?(?:класса\s+)?|(?:методы|поля)\s+"
    rf"класса\s+){NAME}{END}",
)


def members_asked(query: str) -> str:
    """The type a question asks the members of ("" none)."""
    said = query.casefold()
    words: tuple[str, ...] = (
        "method",
        "function",
        "field",
        "member",
        "propert",
        "attribute",
        "operation",
    )
    words += ("contain", "define", "hold", "variant", "what's in", "what is in", "метод", "пол")
    if not any(w in said for w in words):
        return ""
    for pattern in _ASKS:
        if m := pattern.search(query):
            return m.group(1).strip("`'\"").removesuffix("()")
    return ""


# What a file or module defines: "what functions are defined in utils.py", "list the
# classes in _models.py", "what does app/cli.py define".
_DEFINED = (
    r"(?:functions|classes|methods|types|definitions|symbols|constants|structs|interfaces"
    r"|traits|enums|members|things)"
)
_FILE = r"(?:(?:file|module|package)\s+)?"
_IN = r"(?:in|inside|within|of)"
# a file's path or a module's name, then maybe the word for it ("the utils module")
_WHERE = r"[`'\"]?([\w$][\w.$/:\\-]*?)[`'\"]?(?:\s+(?:file|module|package))?"
_FILE_ASKS = rx(
    rf"\b(?:what|which)\s+{_DEFINED}\s+(?:are\s+|does\s+)?(?:there\s+)?(?:defined\s+|declared\s+)?"
    rf"{_IN}\s+{THE}{_FILE}{_WHERE}{END}",
    rf"\b(?:list|show|give|find|enumerate)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+)?{_DEFINED}\s+"
    rf"(?:defined\s+|declared\s+)?{_IN}\s+{THE}{_FILE}{_WHERE}{END}",
    rf"^\W*(?:all\s+)?(?:the\s+)?{_DEFINED}\s+(?:defined\s+)?in\s+{THE}{_FILE}{_WHERE}\W*$",
    rf"\b(?:what|which)\s+{_DEFINED}\s+does\s+{THE}{_FILE}{_WHERE}\s+(?:define|declare|contain|have)\b",
    rf"\bwhat\s+does\s+{THE}{_FILE}{_WHERE}\s+(?:define|declare)\b",
    rf"\bкакие\s+(?:функции|классы)\s+(?:есть\s+|определены\s+)?в\s+{_WHERE}{END}",
)
_TYPES = frozenset({"class", "struct", "interface", "trait", "enum", "type", "object", "record"})
# the kinds of definition each noun asks for (None: every kind)
KINDS_ASKED: dict[str, frozenset[str] | None] = {
    "functions": frozenset({"function"}),
    "функции": frozenset({"function"}),
    "methods": frozenset({"method", "function"}),
    "classes": _TYPES,
    "классы": _TYPES,
    "types": _TYPES,
    "structs": frozenset({"struct"}),
    "interfaces": frozenset({"interface"}),
    "traits": frozenset({"trait"}),
    "enums": frozenset({"enum"}),
    "constants": frozenset({"constant", "variable"}),
}


# What the whole project defines of a kind: "list all classes", "what interfaces are
# defined", "which enums does this project have"; of a kind and a word its names or folders
# hold: "which middleware classes are there", "list the exception classes".
_KIND_NOUNS = r"(?:classes|interfaces|structs|enums|traits|types|functions|constants)"
_WORD = r"(?:(?P<word>[A-Za-z][\w-]*)\s+)?"
_PROJECT_ASKS = rx(
    rf"^\W*(?:list|show|give|find|enumerate)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+)?"
    rf"{_WORD}{_KIND_NOUNS}(?:\s+(?:defined|declared|there\s+are))?(?:\s+in\s+{PROJECT})?\W*$",
    rf"^\W*(?:what|which)\s+{_WORD}{_KIND_NOUNS}\s+(?:are\s+there|(?:are|does)\s+"
    rf"(?:defined|declared)|does\s+{PROJECT}\s+(?:define|have|declare))(?:\s+in\s+{PROJECT})?"
    r"\W*$",
    rf"^\W*(?:all\s+)?(?:the\s+)?{_WORD}{_KIND_NOUNS}\s+(?:in|of)\s+{PROJECT}\W*$",
)
# Words before the kind that say which of them without naming a word of theirs
_ANY = frozenset({"public", "exported", "main", "top-level", "important", "core", "key"})
_ANY |= frozenset({"all", "the", "project", "project's", "defined", "available", "existing"})
_ANY |= frozenset({"other", "different", "some", "many", "new", "global", "internal"})
_ANY |= frozenset({"private", "static", "abstract", "async", "generic", "base", "these"})


def kind_listed(query: str) -> tuple[str, str]:
    """The kind of definition a question asks the whole project's list of (`classes`,
    `interfaces`) and the word their names or folders hold (`middleware`, "" any), or
    ("", "")."""
    for pattern in _PROJECT_ASKS:
        if m := pattern.search(query):
            noun = next(w for w in KINDS_ASKED if w in m.group().casefold())
            word = (m.group("word") or "").casefold()
            return noun, "" if word in _ANY else word
    return "", ""


def defined_in_asked(query: str) -> tuple[str, str]:
    """What a question asks a file or module defines: the noun (`functions`, `classes`,
    "" for everything) and the file's path or module's name, or ("", "")."""
    for pattern in _FILE_ASKS:
        if m := pattern.search(query):
            noun = next((w for w in KINDS_ASKED if w in m.group().casefold()), "")
            return noun, m.group(1).strip("`'\"")
    return "", ""


# What a file imports: "what does app/cli.py import", "which modules does app/cli.py depend
# on", "list the imports in app/cli.py" ("imports of X" asks who imports X).
_IMPORTS_ASKS = rx(
    rf"\bwhat\s+does\s+{THE}{_FILE}{_WHERE}\s+(?:import|depend\s+on|require)\b",
    rf"\b(?:what|which)\s+(?:modules|packages|files|libraries|dependencies)\s+does\s+{THE}"
    rf"{_FILE}{_WHERE}\s+(?:import|use|need|require|depend\s+on)\b",
    rf"\b(?:list|show)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?imports\s+(?:in|from)\s+{THE}{_FILE}"
    rf"{_WHERE}{END}",
    rf"\bчто\s+импортирует\s+{_WHERE}{END}",
)


_FILE_NAME = re.compile(
    r"/|\.(?:py|[cm]?js|jsx|tsx?|go|rs|rb|java|kts?|c|h|cc|cpp|hpp|cs|php|swift|scala|exs?|lua|pl|pm|sh)$"
)


def imports_asked(query: str) -> str:
    """The file or module a question asks what it imports ("" none). Only a file's path
    "depends on" here: "what does Parser.parse depend on" asks for a function's callees."""
    for pattern in _IMPORTS_ASKS:
        if m := pattern.search(query):
            name = m.group(1).strip("`'\"")
            said = (query[m.start() : m.start(1)] + query[m.end(1) : m.end()]).lower()
            if "import" in said or _FILE_NAME.search(name):  # the words around the name
                return name
    return ""
